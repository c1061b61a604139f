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

// Asks for what building an index needs: the corpus file and its format, the analyzer, BM25's k1
// and b, build threads, bad-line policy and the output directory.
class BuildIndexDialog : public QDialog {
  Q_OBJECT
 public:
  explicit BuildIndexDialog(QWidget* parent = nullptr);

  void setRequest(const BuildRequest& request);
  BuildRequest request() const;

 private:
  void browseCorpus();
  void browseOutput();
  void updateState();

  QLineEdit* m_corpus = nullptr;
  QComboBox* m_format = nullptr;
  QComboBox* m_analyzer = nullptr;
  QDoubleSpinBox* m_k1 = nullptr;
  QDoubleSpinBox* m_b = nullptr;
  QSpinBox* m_threads = nullptr;
  QCheckBox* m_skipBad = nullptr;
  QLineEdit* m_out = nullptr;
  QDialogButtonBox* m_buttons = nullptr;
  bool m_outEdited = false;
};

}  // namespace wandscope::app
