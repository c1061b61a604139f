// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "app/workers/index_jobs.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace wandscope::app {

// Asks for the synthetic corpus generator's parameters (docs/GENERATOR.md), where to write the
// corpus and, optionally, where to build its index.
class GenerateCorpusDialog : public QDialog {
  Q_OBJECT
 public:
  explicit GenerateCorpusDialog(QWidget* parent = nullptr);

  // Fills the fields from `request` (the page's last one, so a retry starts from it).
  void setRequest(const GenerateRequest& request);
  GenerateRequest request() const;

 private:
  void updateState();

  QSpinBox* m_docs = nullptr;
  QSpinBox* m_meanLength = nullptr;
  QSpinBox* m_vocabulary = nullptr;
  QDoubleSpinBox* m_zipf = nullptr;
  QSpinBox* m_seed = nullptr;
  QLineEdit* m_corpus = nullptr;
  QCheckBox* m_build = nullptr;
  QComboBox* m_analyzer = nullptr;
  QLineEdit* m_index = nullptr;
  QDialogButtonBox* m_buttons = nullptr;
};

}  // namespace wandscope::app
