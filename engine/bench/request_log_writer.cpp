// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/request_log_writer.h"

#include "engine/core/error.h"
#include "engine/core/text_escape.h"
#include "engine/query/query_counters.h"

#include <fmt/format.h>
#include <unistd.h>
#include <zlib.h>

#include <system_error>

namespace wandscope::engine {

RequestLogWriter::RequestLogWriter(std::filesystem::path path) : m_path(std::move(path)) {
  m_tmp = m_path;
  m_tmp += fmt::format(".tmp.{}", ::getpid());
  m_file = ::gzopen(m_tmp.c_str(), "wb6");
  if (m_file == nullptr) throwErrno(fmt::format("cannot create {}", m_tmp.string()));
  QueryCounters{}.forEach([this](const char* name, std::uint64_t) { m_counterNames.emplace_back(name); });
  std::string header =
      "rung,pass,mode,target,target_rate,concurrency,sequence,query_set,query_id,outcome,measured,worker,due_ns,"
      "dispatched_ns,start_ns,end_ns,latency_ns,service_ns,thread_cpu_ns";
  for (const auto& n : m_counterNames) header.append(",").append(n);
  header += '\n';
  put(header);
}

RequestLogWriter::~RequestLogWriter() {
  if (m_file != nullptr) {
    ::gzclose(static_cast<gzFile>(m_file));
    std::error_code ec;
    std::filesystem::remove(m_tmp, ec);
  }
}

void RequestLogWriter::put(const std::string& text) {
  if (text.empty()) return;
  const int n = ::gzwrite(static_cast<gzFile>(m_file), text.data(), static_cast<unsigned>(text.size()));
  if (n <= 0 || static_cast<std::size_t>(n) != text.size()) throwIo(fmt::format("cannot write {}", m_tmp.string()));
}

void RequestLogWriter::write(const RungPlan& plan, const RungRecords& records, const Workload& workload) {
  if (m_file == nullptr) throwInternal("RequestLogWriter::write after close");
  // Map the target's counter columns onto the file's (by name).
  std::vector<int> column(m_counterNames.size(), -1);
  for (std::size_t i = 0; i < m_counterNames.size(); ++i) {
    for (std::size_t k = 0; k < records.counterNames.size(); ++k) {
      if (records.counterNames[k] == m_counterNames[i]) column[i] = static_cast<int>(k);
    }
  }
  const std::string target = csvField(plan.target);
  const std::string prefix = fmt::format("{},{},{},{},{},{}", plan.index, plan.pass, plan.mode, target,
                                         plan.targetRate, plan.concurrency);
  std::string buf;
  buf.reserve(1 << 20);
  for (std::size_t i = 0; i < records.records.size(); ++i) {
    const RequestRecord& r = records.records[i];
    std::string_view setName, queryId;
    if (r.querySet < workload.sets().size()) {
      const auto& set = workload.sets()[r.querySet];
      setName = set.name;
      if (r.query < set.ids.size()) queryId = set.ids[r.query];
    }
    const bool ran = r.outcome == RequestOutcome::Ok || r.outcome == RequestOutcome::Error;
    buf += prefix;
    fmt::format_to(std::back_inserter(buf), ",{},{},{},{},{},{},{},{},", r.sequence, csvField(setName),
                   csvField(queryId), requestOutcomeName(r.outcome), r.measured ? 1 : 0, r.worker, r.due,
                   r.dispatched);
    if (ran) {
      fmt::format_to(std::back_inserter(buf), "{},{},{},{},{}", r.start, r.end, r.latencyNs(), r.serviceNs(),
                     r.threadCpuNs);
    } else {
      buf += ",,,,";
    }
    const std::uint64_t* c = records.counterCount() > 0 ? records.countersOf(i) : nullptr;
    for (int col : column) {
      buf += ',';
      if (ran && c != nullptr && col >= 0) fmt::format_to(std::back_inserter(buf), "{}", c[col]);
    }
    buf += '\n';
    ++m_rows;
    if (buf.size() > (1u << 20) - 4096) {
      put(buf);
      buf.clear();
    }
  }
  put(buf);
}

void RequestLogWriter::close() {
  if (m_file == nullptr) return;
  const int rc = ::gzclose(static_cast<gzFile>(m_file));
  m_file = nullptr;
  std::error_code ec;
  if (rc != Z_OK) {
    std::filesystem::remove(m_tmp, ec);  // a full disk must not leave the partial temporary behind
    throwIo(fmt::format("cannot write {}", m_tmp.string()));
  }
  std::filesystem::rename(m_tmp, m_path, ec);
  if (ec) {
    const std::string why = ec.message();
    std::filesystem::remove(m_tmp, ec);
    throwIo(fmt::format("cannot rename {} to {}: {}", m_tmp.string(), m_path.string(), why));
  }
}

}  // namespace wandscope::engine
