// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMetaType>
#include <QString>
#include <QVector>

#include <cstdint>
#include <memory>
#include <optional>

namespace wandscope::widgets {

// One live tick of a benchmark run as the plots need it (engine::LiveTick without the histogram),
// stamped with seconds since the run started. Quantiles are the tick's plotting quantiles and may
// be absent (no sample in the tick).
struct LivePoint {
  double runSeconds = 0;
  std::uint32_t rung = 0;
  QString phase;                       // "settle", "measure", "warmup", ...
  std::uint64_t completed = 0;         // in the tick
  double tickSeconds = 0.25;
  std::optional<double> p50Ms, p99Ms;
  std::uint64_t shedTotal = 0;         // of the rung so far
  std::uint64_t runShedTotal = 0;      // of the run so far
  double rssMib = 0;
};

// The ticks gathered since the previous batch: one immutable batch per GUI update (a few a
// second), handed from the runner's threads to the GUI thread by a queued signal.
struct LiveBatch {
  std::uint64_t generation = 0;
  QVector<LivePoint> points;
  QString status;  // the newest "what is running" line ("rung 3 open builtin @400/s: measure 1.2 s")
};
using LiveBatchPtr = std::shared_ptr<const LiveBatch>;

}  // namespace wandscope::widgets

Q_DECLARE_METATYPE(wandscope::widgets::LiveBatchPtr)
