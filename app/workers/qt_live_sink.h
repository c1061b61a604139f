// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/live_sink.h"
#include "widgets/models/live_batch.h"

#include <QString>

#include <chrono>
#include <functional>
#include <mutex>

namespace wandscope::app {

// The runner's live output turned into batches for the GUI (STYLE.md, "the engine speaks plain
// C++"): ticks arrive on a driver's monitor thread (~4 Hz) and are appended to a buffer; a batch
// goes out when at least kMinIntervalMs passed since the previous one, and whatever is buffered
// goes out when a rung finishes. So the GUI sees at most 1000 / kMinIntervalMs updates a second
// however fast the runner ticks. The callbacks run on the runner's threads; they must only queue
// (emit a signal to the GUI thread).
class QtLiveSink final : public engine::LiveSink {
 public:
  struct Callbacks {
    std::function<void(widgets::LiveBatchPtr)> batch;
    std::function<void(const engine::RungResult&)> rung;
    std::function<void(const QString&)> message;
  };

  QtLiveSink(quint64 generation, Callbacks callbacks);

  void onRungStarted(const engine::RungPlan& plan) override;
  void onTick(const engine::LiveTick& tick) override;
  void onRungFinished(const engine::RungResult& rung) override;
  void onProgress(const engine::Progress& progress) override;
  void onMessage(const std::string& message) override;

  // Sends what is buffered now.
  void flush();
  int batchesSent() const;

  static constexpr int kMinIntervalMs = 50;  // <= 20 GUI updates a second

  // "[open 3] builtin @400/s" and the like.
  static QString describe(const engine::RungPlan& plan);

 private:
  using Clock = std::chrono::steady_clock;
  void sendLocked();

  quint64 m_generation;
  Callbacks m_callbacks;
  mutable std::mutex m_mutex;
  Clock::time_point m_start = Clock::now();
  Clock::time_point m_lastSent{};
  Clock::time_point m_lastProgress{};
  QVector<widgets::LivePoint> m_buffer;
  QString m_status;
  std::uint64_t m_shedBefore = 0;  // shed of the finished rungs
  std::uint64_t m_rungShed = 0;    // of the current rung so far
  int m_sent = 0;
};

}  // namespace wandscope::app
