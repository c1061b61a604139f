// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/simd_selector.h"

#include "engine/codec/simd/simd_target.h"
#include "engine/core/log.h"

#include <QSettings>
#include <QStandardItemModel>

#include <algorithm>
#include <cstdlib>
#include <exception>

namespace wandscope::app {
namespace {

namespace simd = engine::simd;

const QString kBest = QStringLiteral("best");
const QString kKey = QStringLiteral("simd");

// The process-wide state behind every selector, on the GUI thread only.
struct State {
  bool initialised = false;
  QString requested;  // "best" or a target name
  bool pending = false;  // requested but not applied yet (a query was in flight)
  bool runInFlight = false;
  bool queryInFlight = false;
  QList<SimdSelector*> selectors;
};

State& state() {
  static State s;
  if (!s.initialised) {
    s.initialised = true;
    try {
      s.requested = simd::targetForced() ? QString::fromLatin1(simd::targetName(simd::currentTarget())) : kBest;
    } catch (const std::exception& e) {
      // A bad WANDSCOPE_SIMD: the automatic choice, and say why.
      engine::log::warn(std::string("SIMD: ") + e.what() + "; using the best supported target");
      simd::forceTarget("best");
      s.requested = kBest;
    }
  }
  return s;
}

bool isSupported(simd::Target t) {
  const auto supported = simd::supportedTargets();
  return std::find(supported.begin(), supported.end(), t) != supported.end();
}

QString processWideNote() {
  return QStringLiteral("The choice is process-wide: it applies to the Explore page's next query and to the next "
                        "Load run (never to one in flight), and is recorded in every run report.");
}

}  // namespace

SimdSelector::SimdSelector(QWidget* parent) : QComboBox(parent) {
  setObjectName(QStringLiteral("simdSelector"));
  setSizeAdjustPolicy(QComboBox::AdjustToContents);
  auto* model = new QStandardItemModel(this);
  const auto addItem = [&](const QString& name, const QString& text, bool enabled, const QString& tip) {
    auto* item = new QStandardItem(text);
    item->setData(name, Qt::UserRole);
    item->setToolTip(tip);
    item->setEnabled(enabled);
    model->appendRow(item);
  };
  addItem(kBest, QStringLiteral("best (%1)").arg(QString::fromLatin1(simd::targetName(simd::bestTarget()))), true,
          describe(kBest));
  for (const simd::Target t : simd::compiledTargets()) {
    const QString name = QString::fromLatin1(simd::targetName(t));
    const bool ok = isSupported(t);
    addItem(name, ok ? name : QStringLiteral("%1 \u2014 unsupported here").arg(name), ok, describe(name));
  }
  setModel(model);
  state().selectors << this;
  connect(this, &QComboBox::activated, this, &SimdSelector::onActivated);
  refresh();
}

SimdSelector::~SimdSelector() { state().selectors.removeAll(this); }

QString SimdSelector::requested() { return state().requested; }

QString SimdSelector::inUse() { return QString::fromLatin1(simd::targetName(simd::currentTarget())); }

QString SimdSelector::describe(const QString& name) {
  QString what;
  if (name == kBest) {
    what = QStringLiteral("best: the best target this CPU supports (%1), chosen automatically.")
               .arg(QString::fromLatin1(simd::targetName(simd::bestTarget())));
  } else if (name == QLatin1String("scalar")) {
    what = QStringLiteral("scalar: the plain C++ reference kernels, no vector instructions (the test oracle).");
  } else if (name == QLatin1String("sse4")) {
    what = QStringLiteral("sse4: Highway's SSE4 kernels, 128-bit vectors (SSE4.1/4.2, any x86-64 of the last "
                          "decade).");
  } else if (name == QLatin1String("avx2")) {
    what = QStringLiteral("avx2: Highway's AVX2 kernels, 256-bit vectors with BMI2 and FMA (Haswell and later).");
  } else if (name == QLatin1String("avx3")) {
    what = QStringLiteral("avx3: Highway's AVX-512 kernels (F/BW/DQ/VL), 512-bit vectors (Skylake-X and later).");
  } else if (name == QLatin1String("avx3_vp2")) {
    what = QStringLiteral("avx3_vp2: avx3, with the long-run intersection (bulk AND, taat) on AVX-512 "
                          "VP2INTERSECT (AMD Zen 5; also Intel Tiger Lake, where it is slow and best does not "
                          "pick it).");
  } else {
    what = name;
  }
  if (const auto t = simd::parseTarget(name.toStdString()); t && !isSupported(*t)) {
    what += QStringLiteral(" Unsupported here: this CPU cannot run it.");
  }
  return what + QStringLiteral("\n\n") + processWideNote();
}

bool SimdSelector::request(const QString& name, QString* error) {
  State& s = state();
  if (name != kBest) {
    const auto t = simd::parseTarget(name.toStdString());
    const auto compiled = simd::compiledTargets();
    QString why;
    if (!t) {
      why = QStringLiteral("unknown SIMD target '%1' (expected scalar, sse4, avx2, avx3, avx3_vp2 or best)").arg(name);
    } else if (std::find(compiled.begin(), compiled.end(), *t) == compiled.end() || !isSupported(*t)) {
      why = QStringLiteral("SIMD target %1 is not supported here").arg(name);
    }
    if (!why.isEmpty()) {
      if (error) *error = why;
      return false;
    }
  }
  if (s.runInFlight) {
    if (error) *error = QStringLiteral("a Load run is in flight; change the SIMD target after it");
    return false;
  }
  s.requested = name;
  s.pending = true;
  if (!s.queryInFlight) applyPending();
  for (SimdSelector* selector : s.selectors) {
    selector->refresh();
    emit selector->targetChanged(s.requested, inUse());
  }
  return true;
}

void SimdSelector::applyPending() {
  State& s = state();
  if (!s.pending) return;
  try {
    simd::forceTarget(s.requested.toStdString());
    engine::log::info(QStringLiteral("SIMD target: %1 (%2)").arg(s.requested, inUse()).toStdString());
  } catch (const std::exception& e) {
    engine::log::warn(std::string("SIMD: ") + e.what());
  }
  s.pending = false;
  for (SimdSelector* selector : s.selectors) selector->refresh();
}

void SimdSelector::setRunInFlight(bool inFlight) {
  State& s = state();
  s.runInFlight = inFlight;
  for (SimdSelector* selector : s.selectors) selector->refresh();
}

void SimdSelector::setQueryInFlight(bool inFlight) {
  State& s = state();
  s.queryInFlight = inFlight;
  if (!inFlight) applyPending();
}

void SimdSelector::saveSettings(QSettings& settings) { settings.setValue(kKey, state().requested); }

void SimdSelector::restoreSettings(QSettings& settings) {
  const QString saved = settings.value(kKey).toString();
  if (saved.isEmpty() || saved == state().requested) return;
  const char* env = std::getenv(simd::kTargetEnvVar);
  if (env != nullptr && *env != '\0') {
    engine::log::info(QStringLiteral("SIMD: %1 is set, so the saved target %2 is not applied")
                          .arg(QString::fromLatin1(simd::kTargetEnvVar), saved)
                          .toStdString());
    return;
  }
  QString error;
  if (!request(saved, &error)) {
    engine::log::warn(QStringLiteral("SIMD: the saved target cannot be used (%1); using best").arg(error).toStdString());
    request(kBest);
  }
}

void SimdSelector::refresh() {
  const State& s = state();
  const int i = findData(s.requested, Qt::UserRole);
  if (i >= 0 && i != currentIndex()) {
    const QSignalBlocker block(this);
    setCurrentIndex(i);
  }
  setEnabled(!s.runInFlight);
  QString tip = describe(s.requested);
  tip.prepend(QStringLiteral("SIMD target of the engine's kernels, now %1.\n").arg(inUse()));
  if (s.runInFlight) tip += QStringLiteral("\n\nLocked while a Load run is in flight.");
  if (s.pending) tip += QStringLiteral("\n\nApplied when the query in flight ends.");
  setToolTip(tip);
}

void SimdSelector::onActivated(int index) {
  const QString name = itemData(index, Qt::UserRole).toString();
  QString error;
  if (!request(name, &error)) {
    engine::log::warn("SIMD: " + error.toStdString());
    refresh();  // back to the request in force
  }
}

}  // namespace wandscope::app
