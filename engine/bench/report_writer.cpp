// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/report_writer.h"

#include "engine/bench/environment.h"
#include "engine/bench/saturation_rule.h"
#include "engine/core/error.h"
#include "engine/core/fs_util.h"
#include "engine/core/text_escape.h"
#include "engine/core/wording.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <variant>

namespace wandscope::engine {
namespace {

using nlohmann::json;

json opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

json rungJson(const RungResult& r) {
  const double due = static_cast<double>(r.completed + r.shed + r.errors + r.notRun);
  json j = {{"index", r.index},
            {"target", r.target},
            {"mode", r.mode},
            {"query_set", r.querySet},
            {"target_rate", r.targetRate},
            {"scheduled_rate", r.scheduledRate},
            {"offered_rate", r.offeredRate},
            {"arrivals", r.arrivals},
            {"concurrency", r.concurrency},
            {"achieved_rate", r.achievedRate},
            {"completed", r.completed},
            {"shed", r.shed},
            {"shed_fraction", due > 0 ? static_cast<double>(r.shed) / due : 0.0},
            {"errors", r.errors},
            {"not_run", r.notRun},
            {"duration_s", r.durationSeconds},
            {"settle_s", r.settleSeconds},
            {"p50_ms", opt(r.p50Ms)},
            {"p90_ms", opt(r.p90Ms)},
            {"p99_ms", opt(r.p99Ms)},
            {"p999_ms", opt(r.p999Ms)},
            {"p50_ci_ms", r.p50CiLowMs ? json::array({*r.p50CiLowMs, *r.p50CiHighMs}) : json(nullptr)},
            {"p99_ci_ms", r.p99CiLowMs ? json::array({*r.p99CiLowMs, *r.p99CiHighMs}) : json(nullptr)},
            {"service_p50_ms", opt(r.serviceP50Ms)},
            {"service_p99_ms", opt(r.serviceP99Ms)},
            {"queue_wait_p50_ms", opt(r.queueWaitP50Ms)},
            {"queue_wait_p99_ms", opt(r.queueWaitP99Ms)},
            {"cpu_ms_per_query", r.cpuMsPerQuery},
            {"process_cpu_ms", r.processCpuMs},
            {"instrument_cpu_ms", r.instrumentCpuMs},
            {"thread_cpu_p50_ms", opt(r.threadCpuP50Ms)},
            {"thread_cpu_p99_ms", opt(r.threadCpuP99Ms)},
            {"thread_cpu_mean_ms", opt(r.threadCpuMeanMs)},
            {"rss_peak_mib", r.rssPeakMib},
            {"instrument_mib", r.instrumentMib},
            {"minflt", r.minflt},
            {"majflt", r.majflt},
            {"nvcsw", r.nvcsw},
            {"nivcsw", r.nivcsw},
            {"dispatch_lag_p99_us", opt(r.dispatchLagP99Us)},
            {"dispatch_lag_max_us", opt(r.dispatchLagMaxUs)},
            {"late_dispatch_fraction", r.lateDispatchFraction},
            {"latency_growth", opt(r.latencyGrowth)},
            {"workers", r.workers},
            {"in_flight_cap", r.inFlightCap},
            {"in_flight_high_water", r.inFlightHighWater},
            {"valid", r.valid},
            {"partial", r.partial},
            {"verdict", r.verdict},
            {"criterion", r.criterion},
            {"counters", r.counters},
            {"counters_p99", r.countersP99}};
  json passes = json::array();
  for (const auto& p : r.passes) {
    passes.push_back({{"reverse", p.reverse},
                      {"completed", p.completed},
                      {"seconds", p.seconds},
                      {"cpu_ms_per_query", p.cpuMsPerQuery},
                      {"p50_ms", opt(p.p50Ms)}});
  }
  j["passes"] = passes;
  json events = json::array();
  for (const auto& e : r.events) {
    events.push_back({{"name", e.name}, {"start_s", e.startSeconds}, {"end_s", e.endSeconds}, {"detail", e.detail}});
  }
  j["events"] = events;
  return j;
}


std::string rate(double r) { return formatRate(r); }

std::string escapeCell(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

void row(std::string& md, const std::vector<std::string>& cells) {
  md += "|";
  for (const auto& c : cells) md.append(" ").append(escapeCell(c)).append(" |");
  md += "\n";
}

void header(std::string& md, const std::vector<std::string>& cells) {
  row(md, cells);
  md += "|";
  for (std::size_t i = 0; i < cells.size(); ++i) md += i == 0 ? " --- |" : " ---: |";
  md += "\n";
}

std::string ratio(double baseline, double candidate) {
  if (!(baseline > 0) || !(candidate > 0)) return "—";
  return fmt::format("{:.2f}x", baseline / candidate);
}

void closedTables(std::string& md, const RunReport& report) {
  std::vector<const RungResult*> closed;
  for (const auto& r : report.rungs) {
    if (r.mode == "closed") closed.push_back(&r);
  }
  if (closed.empty()) return;
  std::vector<std::string> targets;
  std::vector<unsigned> concurrencies;
  std::vector<std::string> sets;
  for (const auto* r : closed) {
    if (std::find(targets.begin(), targets.end(), r->target) == targets.end()) targets.push_back(r->target);
    if (std::find(concurrencies.begin(), concurrencies.end(), r->concurrency) == concurrencies.end()) {
      concurrencies.push_back(r->concurrency);
    }
    if (std::find(sets.begin(), sets.end(), r->querySet) == sets.end()) sets.push_back(r->querySet);
  }
  const std::size_t passes = closed.front()->passes.size();
  auto find = [&](const std::string& set, unsigned c, const std::string& t) -> const RungResult* {
    for (const auto* r : closed) {
      if (r->querySet == set && r->concurrency == c && r->target == t) return r;
    }
    return nullptr;
  };
  md += "## Closed loop\n\n";
  md += fmt::format(
      "Each cell: {:g} s untimed warm-up, then the measured window; {} pass{} over the cells in forward / reverse "
      "order. CPU ms/query = process CPU time / completed queries, mean over passes. p50 = nearest rank over all "
      "passes' samples (pooled, not a mean of medians). Lower is better for both.\n\n",
      closed.front()->settleSeconds, passes, passes == 1 ? "" : "es");
  struct Metric {
    const char* title;
    const char* suffix;
    std::function<std::optional<double>(const RungResult&)> get;
  };
  const Metric metrics[] = {
      {"CPU ms per query (lower is better; mean of passes)", "CPU ms/query",
       [](const RungResult& r) { return r.completed > 0 ? std::optional<double>(r.cpuMsPerQuery) : std::nullopt; }},
      {"p50 latency ms (lower is better)", "p50", [](const RungResult& r) { return r.p50Ms; }},
      {"p99 latency ms (lower is better; absent below 10,000 samples)", "p99",
       [](const RungResult& r) { return r.p99Ms; }},
  };
  for (unsigned c : concurrencies) {
    for (const auto& m : metrics) {
      bool any = false;
      for (const auto* r : closed) any = any || (r->concurrency == c && m.get(*r));
      if (!any) continue;
      md += fmt::format("### Concurrency {}, {}\n\n", c, m.title);
      std::vector<std::string> head = {"Scenario / metric"};
      for (const auto& t : targets) head.push_back(t);
      for (std::size_t t = 1; t < targets.size(); ++t) head.push_back(fmt::format("{} vs {}", targets[t], targets[0]));
      header(md, head);
      for (const auto& set : sets) {
        std::vector<std::string> cells = {fmt::format("{}, {}", set.empty() ? "(no query set)" : set, m.suffix)};
        std::vector<std::optional<double>> values;
        for (const auto& t : targets) {
          const RungResult* r = find(set, c, t);
          values.push_back(r ? m.get(*r) : std::nullopt);
          cells.push_back(msOrDash(values.back()));
        }
        for (std::size_t t = 1; t < targets.size(); ++t) {
          cells.push_back(values[0] && values[t] ? ratio(*values[0], *values[t]) : "—");
        }
        row(md, cells);
      }
      md += "\n";
    }
  }
  if (targets.size() > 1) md += "Ratios are first target / this target: above 1 means this target is cheaper or faster.\n\n";
}

void openTables(std::string& md, const RunReport& report) {
  std::vector<std::string> targets;
  for (const auto& r : report.rungs) {
    if (r.mode == "open" && std::find(targets.begin(), targets.end(), r.target) == targets.end()) {
      targets.push_back(r.target);
    }
  }
  if (targets.empty()) return;
  md += "## Open loop\n\n";
  for (const auto& t : targets) {
    std::vector<const RungResult*> rungs;
    for (const auto& r : report.rungs) {
      if (r.mode == "open" && r.target == t) rungs.push_back(&r);
    }
    const RungResult& f = *rungs.front();
    md += fmt::format("### {}\n\n", t);
    md += fmt::format("{} arrivals, {:g} s settle per rung, {} workers, in-flight cap {}; query set: {}.", f.arrivals,
                      f.settleSeconds, f.workers, f.inFlightCap, f.querySet.empty() ? "none" : f.querySet);
    if (const auto it = report.calibration.find(t); it != report.calibration.end()) {
      md += fmt::format(" Sequential throughput (calibration, one client): {} over {} requests.",
                        rate(it->second.rate), grouped(it->second.requests));
    }
    md += " Latency is from each request's due time (coordinated-omission correct); service is start to end.\n\n";
    std::vector<std::string> head = {fmt::format("rate ({})", t)};
    for (const auto* r : rungs) head.push_back(rate(r->targetRate));
    header(md, head);
    auto line = [&](const std::string& name, const std::function<std::string(const RungResult&)>& f2) {
      std::vector<std::string> cells = {name};
      for (const auto* r : rungs) cells.push_back(f2(*r));
      row(md, cells);
    };
    line("achieved", [](const RungResult& r) { return rate(r.achievedRate); });
    line("completed", [](const RungResult& r) { return grouped(r.completed); });
    line("p50", [](const RungResult& r) { return msOrDash(r.p50Ms); });
    line("p90", [](const RungResult& r) { return msOrDash(r.p90Ms); });
    line("p99", [](const RungResult& r) { return msOrDash(r.p99Ms); });
    line("p99.9", [](const RungResult& r) { return msOrDash(r.p999Ms); });
    line("service p50", [](const RungResult& r) { return msOrDash(r.serviceP50Ms); });
    line("shed", [](const RungResult& r) {
      const double due = static_cast<double>(r.completed + r.shed + r.errors + r.notRun);
      return r.shed == 0 ? std::string("0")
                         : fmt::format("{} ({:.1f} %)", grouped(r.shed), 100.0 * static_cast<double>(r.shed) / due);
    });
    line("CPU ms/query (process)", [](const RungResult& r) {
      return r.completed > 0 ? significant(r.cpuMsPerQuery) + " ms" : std::string("—");
    });
    line("of which instrument", [](const RungResult& r) {
      return r.completed > 0 ? significant(r.instrumentCpuMs / static_cast<double>(r.completed)) + " ms"
                             : std::string("—");
    });
    line("thread CPU p50", [](const RungResult& r) { return msOrDash(r.threadCpuP50Ms); });
    line("peak RSS", [](const RungResult& r) { return fmt::format("{:.1f} MiB", r.rssPeakMib); });
    line("minflt / majflt", [](const RungResult& r) { return fmt::format("{} / {}", grouped(r.minflt), r.majflt); });
    line("nvcsw / nivcsw", [](const RungResult& r) { return fmt::format("{} / {}", grouped(r.nvcsw), grouped(r.nivcsw)); });
    line("dispatch lag p99", [](const RungResult& r) {
      return r.dispatchLagP99Us ? significant(*r.dispatchLagP99Us) + " us" : std::string("—");
    });
    line("in flight max / cap", [](const RungResult& r) { return fmt::format("{} / {}", r.inFlightHighWater, r.inFlightCap); });
    std::set<std::string> counterNames;
    for (const auto* r : rungs) {
      for (const auto& [name, v] : r->counters) {
        if (v != 0) counterNames.insert(name);
      }
    }
    for (const auto& name : counterNames) {
      line(fmt::format("{} (mean/query)", name), [&name](const RungResult& r) {
        const auto it = r.counters.find(name);
        return it == r.counters.end() ? std::string("—") : significant(it->second);
      });
    }
    line("verdict", [](const RungResult& r) { return r.criterion.empty() ? r.verdict : fmt::format("{}: {}", r.verdict, r.criterion); });
    md += "\n";
    if (const auto it = report.capacity.find(t); it != report.capacity.end()) {
      md += fmt::format("**Maximum sustainable rate:** {}\n\n", describeCapacity(it->second));
    }
  }
}

}  // namespace

nlohmann::json environmentJson(const Environment& e) {
  nlohmann::json j = nlohmann::json::object();
  for (const EnvironmentField& field : environmentFields()) {
    std::visit([&](const auto member) { j[field.name] = e.*member; }, field.member);
  }
  j["fingerprints"] = e.fingerprints;
  return j;
}

std::string reportJson(const RunReport& report) {
  json j;
  j["schema_version"] = RunReport::kSchemaVersion;
  j["run_id"] = report.header.runId;
  j["profile"] = report.header.profileName;
  try {
    j["profile_json"] = json::parse(report.header.profileJson);
  } catch (const json::exception&) {
    j["profile_json"] = report.header.profileJson;
  }
  j["environment"] = environmentJson(report.header.environment);
  j["targets"] = report.header.targets;
  j["quantile_definition"] = report.quantileDefinition;
  j["saturation_rule"] = report.saturationRule;
  j["partial"] = report.partial;
  j["warnings"] = report.warnings;
  json cal = json::object();
  for (const auto& [t, c] : report.calibration) cal[t] = {{"rate", c.rate}, {"requests", c.requests}, {"seconds", c.seconds}};
  j["calibration"] = cal;
  json cap = json::object();
  for (const auto& [t, c] : report.capacity) {
    cap[t] = {{"last_pass", opt(c.lastPass)}, {"first_fail", opt(c.firstFail)}, {"criterion", c.criterion}};
  }
  j["capacity"] = cap;
  json rungs = json::array();
  for (const auto& r : report.rungs) rungs.push_back(rungJson(r));
  j["rungs"] = rungs;
  return j.dump(2) + "\n";
}

std::string reportMarkdown(const RunReport& report) {
  const auto& h = report.header;
  const auto& e = h.environment;
  std::string md = fmt::format("# Benchmark report: {}\n\n", h.profileName);
  for (const auto& w : report.warnings) md += fmt::format("> **Warning:** {}\n\n", w);
  if (report.partial) md += "> **Partial run:** it was interrupted; the rungs below are the ones that finished.\n\n";
  md += fmt::format("- **Run:** {} started {} (report schema {})\n", h.runId, e.startedUtc, RunReport::kSchemaVersion);
  // A report pasted into a pull request keeps the label: the workbench's own threads shared the
  // machine (PERF.md, "GUI attached"); report.json and the HTML said so, this file did not.
  if (e.guiAttached) md += "- **GUI attached:** run from the workbench, whose threads shared the machine\n";
  md += fmt::format("- **Machine:** {}, {} cores, {:.1f} GiB, {}, load average {:.2f} at start{}{}\n", e.cpuModel,
                    e.cores, e.memTotalMib / 1024.0, e.kernel, e.loadAverage1m,
                    e.governor.empty() ? "" : fmt::format(", governor {}", e.governor),
                    e.aslr.empty() ? "" : fmt::format(", ASLR {}", e.aslr));
  md += fmt::format("- **Clocks:** steady clock read {:.0f} ns, thread CPU clock read {:.0f} ns{}\n", e.steadyClockCallNs,
                    e.threadCpuClockCallNs,
                    e.syscallsFlushTlb ? "; system calls empty the TLB (page-table isolation without PCID)" : "");
  md += fmt::format("- **Build:** {} {}, `{}`{}, git {}{}, SIMD target {}\n", e.compiler, e.buildType, e.compilerFlags,
                    e.sanitizers.empty() ? "" : fmt::format(", sanitizers {}", e.sanitizers), e.gitCommit,
                    e.gitDirty ? " (dirty)" : "", e.simdTarget);
  if (!e.fingerprints.empty()) {
    md += "- **Data:**";
    bool first = true;
    for (const auto& [k, v] : e.fingerprints) {
      md += fmt::format("{} {} `{}`", first ? "" : ";", k, v);
      first = false;
    }
    md += "\n";
  }
  md += fmt::format("- **Targets:** {}\n", fmt::join(h.targets, ", "));
  md += fmt::format("- **Quantiles:** {}.\n", report.quantileDefinition);
  if (!report.saturationRule.empty()) md += fmt::format("- **Saturation rule (open loop):** {}\n", report.saturationRule);
  md += "\n";
  closedTables(md, report);
  openTables(md, report);
  return md;
}

std::string rungsCsv(const RunReport& report) {
  std::set<std::string> counterNames;
  for (const auto& r : report.rungs) {
    for (const auto& [name, v] : r.counters) counterNames.insert(name);
  }
  std::string out =
      "index,target,mode,query_set,target_rate,scheduled_rate,offered_rate,arrivals,concurrency,achieved_rate,completed,shed,errors,"
      "not_run,duration_s,settle_s,p50_ms,p90_ms,p99_ms,p999_ms,p50_ci_low_ms,p50_ci_high_ms,p99_ci_low_ms,p99_ci_high_ms,"
      "service_p50_ms,service_p99_ms,queue_wait_p50_ms,queue_wait_p99_ms,cpu_ms_per_query,process_cpu_ms,"
      "instrument_cpu_ms,thread_cpu_p50_ms,thread_cpu_p99_ms,thread_cpu_mean_ms,rss_peak_mib,instrument_mib,minflt,"
      "majflt,nvcsw,nivcsw,dispatch_lag_p99_us,dispatch_lag_max_us,late_dispatch_fraction,latency_growth,workers,"
      "in_flight_cap,in_flight_high_water,valid,partial,verdict,criterion";
  for (const auto& n : counterNames) out.append(",counters.").append(n);
  for (const auto& n : counterNames) out.append(",counters_p99.").append(n);
  out += '\n';
  auto o = [](const std::optional<double>& v) { return v ? fmt::format("{}", *v) : std::string(); };
  auto q = [](const std::string& s) { return csvField(s); };
  for (const auto& r : report.rungs) {
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},", r.index, q(r.target), r.mode, q(r.querySet),
                       r.targetRate, r.scheduledRate, r.offeredRate, r.arrivals, r.concurrency, r.achievedRate, r.completed, r.shed,
                       r.errors, r.notRun, r.durationSeconds, r.settleSeconds);
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},", o(r.p50Ms), o(r.p90Ms), o(r.p99Ms), o(r.p999Ms),
                       o(r.p50CiLowMs), o(r.p50CiHighMs), o(r.p99CiLowMs), o(r.p99CiHighMs), o(r.serviceP50Ms),
                       o(r.serviceP99Ms), o(r.queueWaitP50Ms), o(r.queueWaitP99Ms));
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},", r.cpuMsPerQuery, r.processCpuMs, r.instrumentCpuMs,
                       o(r.threadCpuP50Ms), o(r.threadCpuP99Ms), o(r.threadCpuMeanMs), r.rssPeakMib, r.instrumentMib,
                       r.minflt, r.majflt, r.nvcsw, r.nivcsw);
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{}", o(r.dispatchLagP99Us), o(r.dispatchLagMaxUs),
                       r.lateDispatchFraction, o(r.latencyGrowth), r.workers, r.inFlightCap, r.inFlightHighWater,
                       r.valid ? 1 : 0, r.partial ? 1 : 0, r.verdict, q(r.criterion));
    for (const auto* values : {&r.counters, &r.countersP99}) {
      for (const auto& n : counterNames) {
        const auto it = values->find(n);
        out += ',';
        if (it != values->end()) out += fmt::format("{}", it->second);
      }
    }
    out += '\n';
  }
  return out;
}

namespace {
constexpr const char* kReportFiles[] = {"report.json", "report.md", "rungs.csv"};
}  // namespace

void checkReportFilesWritable(const std::filesystem::path& dir) {
  for (const char* name : kReportFiles) checkOutputWritable(dir / name);
}

std::string msOrDash(const std::optional<double>& v) {
  if (!v) return "—";
  if (*v >= 1000.0) return significant(*v / 1000.0) + " s";
  return significant(*v) + " ms";
}

void writeReportFiles(const std::filesystem::path& dir, const RunReport& report) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throwIo(fmt::format("cannot create {}: {}", dir.string(), ec.message()));
  writeFileAtomically(dir / kReportFiles[0], reportJson(report));
  writeFileAtomically(dir / kReportFiles[1], reportMarkdown(report));
  writeFileAtomically(dir / kReportFiles[2], rungsCsv(report));
}

}  // namespace wandscope::engine
