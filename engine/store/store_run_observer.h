// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Records a run in the run store while it happens: the run is inserted as 'running' when it
// starts, every finished rung is committed in its own transaction, and the finished report marks
// it complete (or partial, from the report). If the run never finishes - an exception unwinds
// the runner and destroys the observer, or the process is killed - the store keeps every rung
// committed so far and the run reads back as partial.
//
// Called from the runner's thread (one StoreRunObserver per run; it owns its own connection).
// Each call costs one small transaction and one fsync (synchronous=FULL), made between rungs.
// Store errors propagate as engine Errors naming the file; the runner decides whether a run that
// cannot be recorded should go on.

#include "engine/bench/run_types.h"
#include "engine/store/run_store.h"

#include <filesystem>
#include <string>

namespace wandscope::engine {

class StoreRunObserver final : public RunObserver {
 public:
  explicit StoreRunObserver(RunStore store);
  explicit StoreRunObserver(const std::filesystem::path& db) : StoreRunObserver(RunStore::open(db)) {}
  // A run begun but not finished is marked partial (errors are logged, never thrown).
  ~StoreRunObserver() override;
  StoreRunObserver(const StoreRunObserver&) = delete;
  StoreRunObserver& operator=(const StoreRunObserver&) = delete;

  void onRunStarted(const RunHeader& header) override;
  void onRungFinished(const RunHeader& header, const RungResult& rung) override;
  void onRunFinished(const RunReport& report) override;

  RunStore& store() noexcept { return m_store; }

 private:
  void interruptCurrent() noexcept;

  RunStore m_store;
  std::string m_runId;  // the run begun and not yet finished ("" when none)
};

}  // namespace wandscope::engine
