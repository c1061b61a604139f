// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/dialogs/generate_corpus_dialog.h"

#include "app/gui/dialogs/typed_path.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cstdint>

namespace wandscope::app {

GenerateCorpusDialog::GenerateCorpusDialog(QWidget* parent) : QDialog(parent) {
  setWindowTitle(QStringLiteral("Generate a synthetic corpus"));
  auto* form = new QFormLayout;
  const engine::CorpusGeneratorParams defaults;
  m_docs = new QSpinBox(this);
  m_docs->setRange(1, 100'000'000);
  m_docs->setGroupSeparatorShown(true);
  m_docs->setValue(100'000);
  m_docs->setToolTip(QStringLiteral("Documents to generate (ids d0, d1, ...)"));
  form->addRow(QStringLiteral("&Documents:"), m_docs);
  m_meanLength = new QSpinBox(this);
  m_meanLength->setRange(1, 100'000);
  m_meanLength->setValue(static_cast<int>(defaults.meanLength));
  m_meanLength->setToolTip(QStringLiteral("Mean tokens per document"));
  form->addRow(QStringLiteral("&Mean length:"), m_meanLength);
  m_vocabulary = new QSpinBox(this);
  m_vocabulary->setRange(1, 100'000'000);
  m_vocabulary->setGroupSeparatorShown(true);
  m_vocabulary->setValue(static_cast<int>(defaults.vocabulary));
  m_vocabulary->setToolTip(QStringLiteral("Distinct words the generator draws from"));
  form->addRow(QStringLiteral("&Vocabulary:"), m_vocabulary);
  m_zipf = new QDoubleSpinBox(this);
  m_zipf->setRange(0.05, 4.0);
  m_zipf->setSingleStep(0.05);
  m_zipf->setValue(defaults.zipf);
  m_zipf->setToolTip(QStringLiteral("Zipf exponent s of word frequencies: P(rank r) ~ 1 / (r + 1)^s"));
  form->addRow(QStringLiteral("&Zipf exponent:"), m_zipf);
  m_seed = new QSpinBox(this);
  m_seed->setRange(0, 1'000'000'000);
  m_seed->setValue(static_cast<int>(defaults.seed));
  m_seed->setToolTip(QStringLiteral("The same parameters and seed give the same corpus"));
  form->addRow(QStringLiteral("&Seed:"), m_seed);

  auto pathRow = [this](QLineEdit* edit, bool directory) {
    auto* box = new QWidget(this);
    auto* layout = new QHBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* button = new QToolButton(box);
    button->setText(QStringLiteral("Browse\u2026"));
    connect(button, &QToolButton::clicked, this, [this, edit, directory] {
      const QString path = directory
                               ? QFileDialog::getExistingDirectory(this, QStringLiteral("Index directory"), edit->text())
                               : QFileDialog::getSaveFileName(this, QStringLiteral("Corpus file"), edit->text(),
                                                              QStringLiteral("JSON lines (*.jsonl)"));
      if (!path.isEmpty()) edit->setText(path);
    });
    layout->addWidget(edit, 1);
    layout->addWidget(button);
    return box;
  };
  m_corpus = new QLineEdit(QDir::home().filePath(QStringLiteral("wandscope-corpus.jsonl")), this);
  form->addRow(QStringLiteral("&Corpus file:"), pathRow(m_corpus, false));
  m_build = new QCheckBox(QStringLiteral("Build an index of it and open it"), this);
  m_build->setChecked(true);
  form->addRow(QString(), m_build);
  m_analyzer = new QComboBox(this);
  m_analyzer->addItem(QStringLiteral("plain"), static_cast<int>(engine::AnalyzerKind::Plain));
  m_analyzer->addItem(QStringLiteral("english"), static_cast<int>(engine::AnalyzerKind::English));
  m_analyzer->setToolTip(QStringLiteral("Generated words are lowercase ASCII: plain is the natural choice"));
  form->addRow(QStringLiteral("&Analyzer:"), m_analyzer);
  m_index = new QLineEdit(QDir::home().filePath(QStringLiteral("wandscope-index")), this);
  form->addRow(QStringLiteral("&Index directory:"), pathRow(m_index, true));

  m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  m_buttons->button(QDialogButtonBox::Ok)->setText(QStringLiteral("&Generate"));
  connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(m_build, &QCheckBox::toggled, this, &GenerateCorpusDialog::updateState);
  connect(m_corpus, &QLineEdit::textChanged, this, &GenerateCorpusDialog::updateState);
  connect(m_index, &QLineEdit::textChanged, this, &GenerateCorpusDialog::updateState);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(m_buttons);
  setMinimumWidth(560);
  updateState();
}

void GenerateCorpusDialog::updateState() {
  m_analyzer->setEnabled(m_build->isChecked());
  m_index->setEnabled(m_build->isChecked());
  const bool ok = !m_corpus->text().trimmed().isEmpty() &&
                  (!m_build->isChecked() || !m_index->text().trimmed().isEmpty());
  m_buttons->button(QDialogButtonBox::Ok)->setEnabled(ok);
}

void GenerateCorpusDialog::setRequest(const GenerateRequest& r) {
  m_docs->setValue(static_cast<int>(std::min<std::uint64_t>(r.params.docs, static_cast<std::uint64_t>(m_docs->maximum()))));
  m_meanLength->setValue(static_cast<int>(std::min<std::uint32_t>(r.params.meanLength, 100'000)));
  m_vocabulary->setValue(static_cast<int>(std::min<std::uint32_t>(r.params.vocabulary, 100'000'000)));
  m_zipf->setValue(r.params.zipf);
  m_seed->setValue(static_cast<int>(std::min<std::uint64_t>(r.params.seed, 1'000'000'000)));
  m_corpus->setText(r.corpus);
  m_build->setChecked(r.build);
  m_analyzer->setCurrentIndex(m_analyzer->findData(static_cast<int>(r.index.analyzer)));
  if (!r.index.out.isEmpty()) m_index->setText(r.index.out);
  updateState();
}

GenerateRequest GenerateCorpusDialog::request() const {
  GenerateRequest r;
  r.params.docs = static_cast<std::uint64_t>(m_docs->value());
  r.params.meanLength = static_cast<std::uint32_t>(m_meanLength->value());
  r.params.vocabulary = static_cast<std::uint32_t>(m_vocabulary->value());
  r.params.zipf = m_zipf->value();
  r.params.seed = static_cast<std::uint64_t>(m_seed->value());
  r.corpus = typedPath(m_corpus->text());
  r.build = m_build->isChecked();
  r.index.corpus = r.corpus;
  r.index.analyzer = static_cast<engine::AnalyzerKind>(m_analyzer->currentData().toInt());
  r.index.out = typedPath(m_index->text());
  return r;
}

}  // namespace wandscope::app
