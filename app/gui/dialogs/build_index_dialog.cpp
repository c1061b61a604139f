// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/dialogs/build_index_dialog.h"

#include "app/gui/dialogs/typed_path.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QThread>
#include <QToolButton>
#include <QVBoxLayout>

#include <cstring>
#include <functional>

namespace wandscope::app {
namespace {

QWidget* withBrowse(QLineEdit* edit, QWidget* parent, const std::function<void()>& browse) {
  auto* box = new QWidget(parent);
  auto* layout = new QHBoxLayout(box);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* button = new QToolButton(box);
  button->setText(QStringLiteral("Browse\u2026"));
  QObject::connect(button, &QToolButton::clicked, box, browse);
  layout->addWidget(edit, 1);
  layout->addWidget(button);
  return box;
}

}  // namespace

BuildIndexDialog::BuildIndexDialog(QWidget* parent) : QDialog(parent) {
  setWindowTitle(QStringLiteral("Build an index from a corpus"));
  auto* form = new QFormLayout;
  m_corpus = new QLineEdit(this);
  m_corpus->setPlaceholderText(QStringLiteral("corpus.jsonl, corpus.jsonl.gz or collection.tsv"));
  m_corpus->setToolTip(QStringLiteral("BEIR JSON lines ({\"_id\", \"title\", \"text\"}) or MS MARCO TSV "
                                      "(id<TAB>text); plain or .gz"));
  form->addRow(QStringLiteral("&Corpus:"), withBrowse(m_corpus, this, [this] { browseCorpus(); }));
  m_format = new QComboBox(this);
  m_format->addItem(QStringLiteral("BEIR JSON lines"), static_cast<int>(engine::CorpusFormat::Beir));
  m_format->addItem(QStringLiteral("MS MARCO TSV"), static_cast<int>(engine::CorpusFormat::MsMarco));
  m_format->setToolTip(QStringLiteral("Guessed from the file name (*.tsv is MS MARCO)"));
  form->addRow(QStringLiteral("&Format:"), m_format);
  m_analyzer = new QComboBox(this);
  m_analyzer->addItem(QStringLiteral("plain (letters and digits, lowercased)"),
                      static_cast<int>(engine::AnalyzerKind::Plain));
  m_analyzer->addItem(QStringLiteral("english (plus stop words and Porter stemming)"),
                      static_cast<int>(engine::AnalyzerKind::English));
  m_analyzer->setToolTip(QStringLiteral("How text becomes terms; queries use the index's analyzer"));
  form->addRow(QStringLiteral("&Analyzer:"), m_analyzer);
  m_k1 = new QDoubleSpinBox(this);
  m_k1->setRange(0.0, 10.0);
  m_k1->setSingleStep(0.1);
  m_k1->setDecimals(2);
  m_k1->setValue(1.2);
  m_k1->setToolTip(QStringLiteral("BM25 k1: term-frequency saturation"));
  form->addRow(QStringLiteral("BM25 &k1:"), m_k1);
  m_b = new QDoubleSpinBox(this);
  m_b->setRange(0.0, 1.0);
  m_b->setSingleStep(0.05);
  m_b->setDecimals(2);
  m_b->setValue(0.75);
  m_b->setToolTip(QStringLiteral("BM25 b: document-length normalisation (0 = none, 1 = full)"));
  form->addRow(QStringLiteral("BM25 &b:"), m_b);
  m_threads = new QSpinBox(this);
  m_threads->setRange(0, 256);
  m_threads->setSpecialValueText(QStringLiteral("all cores (%1)").arg(QThread::idealThreadCount()));
  m_threads->setToolTip(QStringLiteral("Build threads; the index is the same whatever the number"));
  form->addRow(QStringLiteral("&Threads:"), m_threads);
  m_skipBad = new QCheckBox(QStringLiteral("Skip malformed lines (count them) instead of stopping"), this);
  form->addRow(QString(), m_skipBad);
  m_out = new QLineEdit(this);
  m_out->setPlaceholderText(QStringLiteral("index directory (an existing index there is replaced)"));
  form->addRow(QStringLiteral("&Output:"), withBrowse(m_out, this, [this] { browseOutput(); }));

  m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  m_buttons->button(QDialogButtonBox::Ok)->setText(QStringLiteral("&Build"));
  connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(m_buttons);
  setMinimumWidth(560);

  connect(m_corpus, &QLineEdit::textChanged, this, [this](const QString& path) {
    const bool tsv = path.endsWith(QLatin1String(".tsv")) || path.endsWith(QLatin1String(".tsv.gz"));
    m_format->setCurrentIndex(tsv ? 1 : 0);
    if (!m_outEdited && !path.isEmpty()) {
      const QFileInfo fi(path);
      QString stem = fi.fileName();
      for (const auto* suffix : {".gz", ".jsonl", ".json", ".tsv"}) {
        if (stem.endsWith(QLatin1String(suffix))) stem.chop(static_cast<int>(std::strlen(suffix)));
      }
      m_out->blockSignals(true);
      m_out->setText(fi.dir().filePath(stem + QStringLiteral("-index")));
      m_out->blockSignals(false);
    }
    updateState();
  });
  connect(m_out, &QLineEdit::textEdited, this, [this] {
    m_outEdited = true;
    updateState();
  });
  updateState();
}

void BuildIndexDialog::browseCorpus() {
  const QString path = QFileDialog::getOpenFileName(
      this, QStringLiteral("Corpus file"), m_corpus->text(),
      QStringLiteral("Corpora (*.jsonl *.jsonl.gz *.json *.tsv *.tsv.gz);;All files (*)"));
  if (!path.isEmpty()) m_corpus->setText(path);
}

void BuildIndexDialog::browseOutput() {
  const QString path = QFileDialog::getExistingDirectory(this, QStringLiteral("Index directory"), m_out->text());
  if (!path.isEmpty()) {
    m_outEdited = true;
    m_out->setText(path);
  }
}

void BuildIndexDialog::updateState() {
  m_buttons->button(QDialogButtonBox::Ok)
      ->setEnabled(!m_corpus->text().trimmed().isEmpty() && !m_out->text().trimmed().isEmpty());
}

void BuildIndexDialog::setRequest(const BuildRequest& r) {
  m_corpus->setText(r.corpus);
  m_format->setCurrentIndex(m_format->findData(static_cast<int>(r.format)));
  m_analyzer->setCurrentIndex(m_analyzer->findData(static_cast<int>(r.analyzer)));
  m_k1->setValue(static_cast<double>(r.bm25.k1));
  m_b->setValue(static_cast<double>(r.bm25.b));
  m_threads->setValue(static_cast<int>(r.threads));
  m_skipBad->setChecked(r.skipBadLines);
  if (!r.out.isEmpty()) {
    m_outEdited = true;
    m_out->setText(r.out);
  }
  updateState();
}

BuildRequest BuildIndexDialog::request() const {
  BuildRequest r;
  r.corpus = typedPath(m_corpus->text());
  r.format = static_cast<engine::CorpusFormat>(m_format->currentData().toInt());
  r.analyzer = static_cast<engine::AnalyzerKind>(m_analyzer->currentData().toInt());
  r.bm25.k1 = static_cast<float>(m_k1->value());
  r.bm25.b = static_cast<float>(m_b->value());
  r.threads = static_cast<unsigned>(m_threads->value());
  r.skipBadLines = m_skipBad->isChecked();
  r.out = typedPath(m_out->text());
  return r;
}

}  // namespace wandscope::app
