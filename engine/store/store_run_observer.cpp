// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/store/store_run_observer.h"

#include "engine/core/log.h"

#include <exception>
#include <utility>

namespace wandscope::engine {

StoreRunObserver::StoreRunObserver(RunStore store) : m_store(std::move(store)) {}

StoreRunObserver::~StoreRunObserver() { interruptCurrent(); }

void StoreRunObserver::onRunStarted(const RunHeader& header) {
  interruptCurrent();  // a second run through the same observer: the first one did not finish
  m_store.beginRun(header);
  m_runId = header.runId;
}

void StoreRunObserver::onRungFinished(const RunHeader& header, const RungResult& rung) {
  m_store.addRung(header.runId, rung);
}

void StoreRunObserver::onRunFinished(const RunReport& report) {
  m_store.finishRun(report);
  if (report.header.runId == m_runId) m_runId.clear();
}

void StoreRunObserver::interruptCurrent() noexcept {
  if (m_runId.empty()) return;
  try {
    m_store.markInterrupted(m_runId);
  } catch (const std::exception& e) {
    // The run stays 'running', which reads back as partial too; nothing is lost.
    try {
      std::string message = "run store: cannot mark run '";
      message.append(m_runId);
      message.append("' partial: ");
      message.append(e.what());
      log::warn(message);
    } catch (...) {
    }
  }
  m_runId.clear();
}

}  // namespace wandscope::engine
