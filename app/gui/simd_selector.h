// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QComboBox>
#include <QString>

class QSettings;

namespace wandscope::app {

// The SIMD target the engine's kernels run on (engine/codec/simd/simd_target.h), as a combo box:
// "best" (the automatic choice) and every target compiled in, those this CPU cannot run shown but
// disabled. The choice is process-wide - the engine has one switch - so every SimdSelector shows
// the same request and a change in one updates all of them.
//
// Contract: the engine is never switched while a Load run is in flight (setRunInFlight(true)
// disables every selector) nor while an Explore query runs (setQueryInFlight(true) defers the
// switch until the query ends; the query worker also applies requested() before each query, so
// the next query always runs on the new target).
class SimdSelector : public QComboBox {
  Q_OBJECT
 public:
  explicit SimdSelector(QWidget* parent = nullptr);
  ~SimdSelector() override;

  // The process-wide request: "best", "scalar", "sse4", "avx2", "avx3" or "avx3_vp2".
  static QString requested();
  // The target the kernels run on now ("avx2").
  static QString inUse();
  // Requests a target for the whole process and updates every selector. False (and `error` set,
  // nothing changed) for an unknown name or a target this binary or CPU cannot run.
  static bool request(const QString& name, QString* error = nullptr);
  // A Load run is in flight: every selector is disabled (with a tooltip saying why).
  static void setRunInFlight(bool inFlight);
  // An Explore query is in flight: a request is applied when it ends (or by the next query).
  static void setQueryInFlight(bool inFlight);
  // Applies a request that waits for an in-flight query, now (a Load run is about to start).
  static void applyPending();

  // Persistence under the key "simd" of the current group. restoreSettings applies the saved
  // target (at startup) unless WANDSCOPE_SIMD is set, which wins as it does for the CLI; a saved
  // target this machine cannot run falls back to "best" with a logged warning.
  static void saveSettings(QSettings& settings);
  static void restoreSettings(QSettings& settings);

  // What a target is, for tooltips: "avx2: Highway's AVX2 kernels (256-bit vectors, ...)".
  static QString describe(const QString& name);

 signals:
  // The request changed (from any selector or request()); `inUse` is the target now in use.
  void targetChanged(const QString& requested, const QString& inUse);

 private:
  void refresh();
  void onActivated(int index);
};

}  // namespace wandscope::app
