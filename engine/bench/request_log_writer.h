// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/live_sink.h"
#include "engine/loadgen/request_record.h"
#include "engine/loadgen/workload.h"

#include <filesystem>
#include <string>
#include <vector>

namespace wandscope::engine {

// Writes every request of a run as gzip-compressed CSV (requests.csv.gz), one rung or closed-loop
// pass at a time, so the records never need to be held for the whole run. Columns (times are
// integer nanoseconds relative to the rung's t0; benchprofiles/README.md documents them):
//
//   rung,pass,mode,target,target_rate,concurrency,sequence,query_set,query_id,outcome,measured,
//   worker,due_ns,dispatched_ns,start_ns,end_ns,latency_ns,service_ns,thread_cpu_ns,<counters>
//
// where <counters> are the engine's counters (QueryCounters names, docs/COUNTERS.md), empty for
// targets that report none. The file appears under its name only when close() succeeds.
class RequestLogWriter {
 public:
  explicit RequestLogWriter(std::filesystem::path path);
  ~RequestLogWriter();
  RequestLogWriter(const RequestLogWriter&) = delete;
  RequestLogWriter& operator=(const RequestLogWriter&) = delete;

  void write(const RungPlan& plan, const RungRecords& records, const Workload& workload);
  // Flushes, closes and renames into place. Throws Io on failure.
  void close();
  std::uint64_t rows() const noexcept { return m_rows; }

 private:
  void put(const std::string& text);

  std::filesystem::path m_path;
  std::filesystem::path m_tmp;
  void* m_file = nullptr;  // gzFile
  std::vector<std::string> m_counterNames;
  std::uint64_t m_rows = 0;
};

}  // namespace wandscope::engine
