// SPDX-License-Identifier: GPL-3.0-or-later
// `runs list|show|export|delete|import`: the benchmark run history in the run store
// ($XDG_DATA_HOME/wandscope/runs.sqlite unless --db says otherwise); `runs compares`,
// `runs compare-export` and `runs compare-delete` for the stored A/B comparisons (`compare`).
// docs/STORE.md.
#include "app/cli/cli_support.h"

#include "engine/bench/compare_report_writer.h"
#include "engine/bench/saturation_rule.h"
#include "engine/core/error.h"
#include "engine/core/fs_util.h"
#include "engine/core/wording.h"
#include "engine/store/run_codec.h"
#include "engine/store/run_store.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wandscope::app {
namespace {

using engine::RunStore;

std::filesystem::path storePath(const std::string& db) {
  return db.empty() ? RunStore::defaultPath() : std::filesystem::path(db);
}

void addDbOption(CLI::App* cmd, std::string& db) {
  cmd->add_option("--db", db, "run store (default $XDG_DATA_HOME/wandscope/runs.sqlite)");
}

// Commands that read a run need an existing store: do not create an empty one as a side effect.
RunStore openExisting(const std::filesystem::path& path, const std::string& runId, const char* noun = "run") {
  if (!std::filesystem::exists(path)) {
    std::string message = "no ";
    message.append(noun);
    message.append(" '");
    message.append(runId);
    message.append("': there is no run store at ");
    message.append(path.string());
    engine::throwUsage(message);
  }
  return RunStore::open(path);
}

std::string joined(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out.append(separator);
    out.append(item);
  }
  return out;
}

std::string statusText(engine::RunStatus status) {
  // A run that never finished reads as partial: it is either still running or its process died.
  return status == engine::RunStatus::Complete ? "complete" : "partial";
}

// Four significant digits: a 1.553 us p50 read 0.002 with {:.3f} (review).
std::string optionalMs(const std::optional<double>& value) {
  return value ? engine::significant(*value) : std::string("-");
}

// A compare report.json (engine/bench/compare_report_writer.h): "kind": "compare", or, without
// it, the comparison's own sections.
bool isCompareReport(const nlohmann::json& j) {
  if (!j.is_object()) return false;
  const auto kind = j.find("kind");
  if (kind != j.end()) return *kind == "compare";
  return j.contains("scenarios") && j.contains("method");
}

// Aligned columns; the first row is the header. `right[i]` right-aligns column i (numbers).
void printTable(const std::vector<std::vector<std::string>>& rows, const std::vector<bool>& right) {
  if (rows.empty()) return;
  std::vector<std::size_t> widths(rows[0].size(), 0);
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size() && c < widths.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size() && c < widths.size(); ++c) {
      const bool last = c + 1 == row.size();
      if (c > 0) line.append("  ");
      const std::string pad(widths[c] - row[c].size(), ' ');
      if (c < right.size() && right[c]) {
        line.append(pad).append(row[c]);
      } else {
        line.append(row[c]);
        if (!last) line.append(pad);
      }
    }
    std::cout << line << '\n';
  }
}

nlohmann::json summaryJson(const engine::RunSummary& s) {
  return {{"run_id", s.runId},
          {"started_utc", s.startedUtc},
          {"profile_name", s.profileName},
          {"targets", s.targets},
          {"rungs", s.rungs},
          {"status", statusText(s.status)},
          {"finished", s.status != engine::RunStatus::Running},
          {"git_commit", s.gitCommit},
          {"hostname", s.hostname},
          {"stored_utc", s.storedUtc}};
}

void printRun(const engine::RunReport& report, const engine::RunSummary& summary) {
  const auto& h = report.header;
  const auto& e = h.environment;
  std::string status = statusText(summary.status);
  if (summary.status == engine::RunStatus::Running) {
    status.append(" (never finished: still running, or its process died)");
  } else if (summary.status == engine::RunStatus::Partial) {
    status.append(" (interrupted before its last rung)");
  }
  if (report.partsLeftOut > 0) status.append(fmt::format("; shown partial: {} left out (see the warnings)",
                                                          engine::counted(report.partsLeftOut, "damaged part", "damaged parts")));
  std::cout << fmt::format("run        {}\nprofile    {}\nstatus     {}\nstarted    {}\ntargets    {}\n", h.runId,
                           h.profileName, status, e.startedUtc, joined(h.targets, ", "));
  std::cout << fmt::format("machine    {} ({} cores), {}, host {}\n", e.cpuModel, e.cores, e.kernel, e.hostname);
  std::vector<std::string> build;
  auto addPart = [&build](const std::string& label, const std::string& value) {
    if (!value.empty()) build.push_back(label + value);
  };
  addPart("", e.buildType);
  addPart("wandscope ", e.wandscopeVersion);
  addPart("", e.compiler);
  addPart("simd ", e.simdTarget);
  addPart("commit ", e.gitCommit + (e.gitDirty ? " (dirty)" : ""));
  std::cout << fmt::format("build      {}\n", joined(build, ", "));
  if (e.guiAttached) std::cout << "note       measured with the workbench attached\n";
  for (const auto& warning : report.warnings) std::cout << "warning    " << warning << '\n';
  std::cout << fmt::format("rungs      {}\n", report.rungs.size());
  if (!report.rungs.empty()) {
    std::cout << '\n';
    std::vector<std::vector<std::string>> rows = {{"#", "target", "mode", "query set", "rate/s", "clients",
                                                   "achieved/s", "completed", "p50 ms", "p99 ms", "p99.9 ms",
                                                   "cpu ms/q", "verdict"}};
    for (const auto& r : report.rungs) {
      std::string verdict = r.verdict;
      if (!r.criterion.empty()) verdict.append(" (").append(r.criterion).append(")");
      // A closed rung has clients and no offered rate, an open one the reverse: "-" where a column
      // does not apply (closed rungs read "rate/s 0.0", open ones "clients 0").
      const bool closed = r.mode == "closed";
      rows.push_back({std::to_string(r.index), r.target, r.mode, r.querySet.empty() ? std::string("-") : r.querySet,
                      closed ? std::string("-") : engine::significant(r.targetRate),
                      closed ? std::to_string(r.concurrency) : std::string("-"), engine::significant(r.achievedRate),
                      engine::grouped(r.completed), optionalMs(r.p50Ms), optionalMs(r.p99Ms), optionalMs(r.p999Ms),
                      engine::significant(r.cpuMsPerQuery), verdict});
    }
    printTable(rows, {true, false, false, false, true, true, true, true, true, true, true, true, false});
  }
  if (!report.capacity.empty()) {
    std::cout << "\ncapacity\n";
    for (const auto& [target, c] : report.capacity) {
      // In bench's, report.md's and the Load page's words ("last pass -, first fail 500/s
      // (invalid: ...)" beside "not established: the first rung, 500/s, could not be judged").
      std::cout << fmt::format("  {}: maximum sustainable rate {}\n", target, engine::describeCapacity(c));
    }
  }
}

void writeOutput(const std::string& out, const std::string& content) {
  if (out == "-") {
    std::cout << content;
  } else {
    engine::writeFileAtomically(out, content);
  }
}

}  // namespace

void addRunsCommand(CLI::App& app) {
  auto* runs = app.add_subcommand(
      "runs", "Benchmark run history: list, show, export, delete, import; compares, compare-export, compare-delete");
  runs->require_subcommand(1);

  {
    auto* cmd = runs->add_subcommand("list", "List stored runs (newest first)");
    struct Args {
      std::string db, search, sort = "time";
      std::size_t limit = 0;
      bool json = false;
    };
    auto a = std::make_shared<Args>();
    addDbOption(cmd, a->db);
    cmd->add_option("--search", a->search, "only runs whose profile, target, commit or id contains this text");
    cmd->add_option("--sort", a->sort, "time | profile")->check(CLI::IsMember({"time", "profile"}))->capture_default_str();
    cmd->add_option("--limit", a->limit, "at most this many runs (0: all)")->capture_default_str();
    cmd->add_flag("--json", a->json, "print JSON");
    setAction(cmd, [a] {
      const auto path = storePath(a->db);
      std::vector<engine::RunSummary> list;
      if (std::filesystem::exists(path)) {
        engine::RunFilter filter;
        filter.search = a->search;
        filter.sort = a->sort == "profile" ? engine::RunSort::Profile : engine::RunSort::Time;
        filter.limit = a->limit;
        list = RunStore::open(path).listRuns(filter);
      } else {
        std::cerr << fmt::format("no runs yet: {} does not exist\n", path.string());
      }
      if (a->json) {
        nlohmann::json j = nlohmann::json::array();
        for (const auto& s : list) j.push_back(summaryJson(s));
        printJson(j);
        return 0;
      }
      std::vector<std::vector<std::string>> rows = {{"ID", "STARTED", "PROFILE", "TARGETS", "RUNGS", "STATUS"}};
      for (const auto& s : list) {
        rows.push_back({s.runId, s.startedUtc, s.profileName, joined(s.targets, ","), std::to_string(s.rungs),
                        statusText(s.status)});
      }
      printTable(rows, {false, false, false, false, true, false});
      return 0;
    });
  }

  {
    auto* cmd = runs->add_subcommand("show", "Show one run: its header and a table of its rungs");
    struct Args {
      std::string db, id;
      bool json = false;
    };
    auto a = std::make_shared<Args>();
    cmd->add_option("id", a->id, "run id (or a unique prefix of one)")->required();
    addDbOption(cmd, a->db);
    cmd->add_flag("--json", a->json, "print the run as report.json");
    setAction(cmd, [a] {
      const auto store = openExisting(storePath(a->db), a->id);
      const std::string id = store.resolveRunId(a->id);
      // Showing is viewing: a damaged rung is left out and named, the rest of the run stays in
      // sight (exports, copies of the run, refuse it instead).
      const auto report = store.loadRun(id, engine::DamagedParts::LeaveOut);
      if (report.partsLeftOut > 0) {
        std::cerr << fmt::format("warning: {}: run {}: {} could not be read and shown partial (see its warnings)\n",
                                 store.path().string(), id, engine::counted(report.partsLeftOut, "stored part", "stored parts"));
      }
      if (a->json) {
        printJson(store.exportRun(id, engine::DamagedParts::LeaveOut));
        return 0;
      }
      const auto summary = store.findRun(id);
      printRun(report, summary ? *summary : engine::RunSummary{});
      return 0;
    });
  }

  {
    auto* cmd = runs->add_subcommand("export", "Write one run as report.json (json) or its rungs as CSV");
    struct Args {
      std::string db, id, out, format = "json";
    };
    auto a = std::make_shared<Args>();
    cmd->add_option("id", a->id, "run id (or a unique prefix of one)")->required();
    cmd->add_option("--out", a->out, "file to write ('-': standard output)")->required();
    cmd->add_option("--format", a->format, "json | csv")->check(CLI::IsMember({"json", "csv"}))->capture_default_str();
    addDbOption(cmd, a->db);
    setAction(cmd, [a] {
      const auto store = openExisting(storePath(a->db), a->id);
      const std::string id = store.resolveRunId(a->id);
      std::size_t rungs = 0;
      try {
        if (a->format == "csv") {
          const auto report = store.loadRun(id);
          rungs = report.rungs.size();
          writeOutput(a->out, engine::RunCodec::rungsToCsv(report.rungs));
        } else {
          const auto doc = store.exportRun(id);
          rungs = doc["rungs"].size();
          writeOutput(a->out, jsonText(doc, 2) + "\n");
        }
      } catch (const engine::Error& e) {
        // An export is a copy of the whole run and refuses a damaged one; say what can still be
        // done with what is readable.
        if (e.kind() != engine::ErrorKind::BadInput || store.loadRun(id, engine::DamagedParts::LeaveOut).partsLeftOut == 0) {
          throw;
        }
        engine::throwBadInput(fmt::format("{}; `runs show {}` shows the rest of the run, `runs show {} --json` "
                                          "writes it as a partial report", e.what(), id, id));
      }
      if (a->out != "-") std::cerr << fmt::format("exported run {} ({} rungs) to {}\n", id, rungs, a->out);
      return 0;
    });
  }

  {
    auto* cmd = runs->add_subcommand("delete", "Delete one run and its rungs");
    struct Args {
      std::string db, id;
    };
    auto a = std::make_shared<Args>();
    cmd->add_option("id", a->id, "run id (exact)")->required();
    addDbOption(cmd, a->db);
    setAction(cmd, [a] {
      auto store = openExisting(storePath(a->db), a->id);
      // Exact ids only: a prefix is too easy to get wrong for something that cannot be undone.
      if (!store.deleteRun(a->id)) {
        std::string message = store.path().string();
        message.append(": no run '");
        message.append(a->id);
        message.append("' in the store (delete needs the exact id; see `runs list`)");
        engine::throwUsage(message);
      }
      std::cerr << fmt::format("deleted run {}\n", a->id);
      return 0;
    });
  }

  {
    auto* cmd = runs->add_subcommand("import", "Store a report.json (e.g. from another machine)");
    struct Args {
      std::string db, file;
    };
    auto a = std::make_shared<Args>();
    cmd->add_option("report", a->file, "report.json to import")->required();
    addDbOption(cmd, a->db);
    setAction(cmd, [a] {
      const std::string text = engine::readWholeFile(a->file);
      const auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
      if (j.is_discarded()) {
        std::string message = a->file;
        message.append(": not valid JSON");
        engine::throwBadInput(message);
      }
      // A compare report's schema_version (2) read as "newer than this build reads (1)" (review).
      if (isCompareReport(j)) {
        std::string message = a->file;
        message.append(": is a comparison report (written by `compare`), not a run report; `runs import` reads a "
                       "run's report.json (`bench`). There is no import for comparisons: `compare` stores them "
                       "itself (see `runs compares`)");
        engine::throwBadInput(message);
      }
      const auto report = engine::RunCodec::reportFromJson(j, a->file);
      if (report.header.runId.empty()) {
        std::string message = a->file;
        message.append(": run_id is missing or empty");
        engine::throwBadInput(message);
      }
      auto store = RunStore::open(storePath(a->db));
      if (store.findRun(report.header.runId)) {
        std::string message = store.path().string();
        message.append(": run '");
        message.append(report.header.runId);
        message.append("' is already in the store (delete it first to replace it)");
        engine::throwUsage(message);
      }
      store.finishRun(report);
      std::cerr << fmt::format("imported run {} ({} rungs, {}) into {}\n", report.header.runId,
                               report.rungs.size(), report.partial ? "partial" : "complete",
                               store.path().string());
      return 0;
    });
  }

  {
    auto* cmd = runs->add_subcommand("compares", "List stored comparisons (`compare`), newest first");
    struct Args {
      std::string db;
      std::size_t limit = 0;
      bool json = false;
    };
    auto a = std::make_shared<Args>();
    addDbOption(cmd, a->db);
    cmd->add_option("--limit", a->limit, "at most this many comparisons (0: all)")->capture_default_str();
    cmd->add_flag("--json", a->json, "print JSON");
    setAction(cmd, [a] {
      const auto path = storePath(a->db);
      std::vector<engine::ComparisonSummary> list;
      if (std::filesystem::exists(path)) {
        list = RunStore::open(path).listComparisons(a->limit);
      } else {
        std::cerr << fmt::format("no comparisons yet: {} does not exist\n", path.string());
      }
      if (a->json) {
        nlohmann::json j = nlohmann::json::array();
        for (const auto& c : list) {
          j.push_back({{"compare_id", c.compareId},
                       {"started_utc", c.startedUtc},
                       {"profile_name", c.profileName},
                       {"mode", c.mode},
                       {"a", {{"spec", c.aSpec}, {"build_id", c.aBuildId}}},
                       {"b", {{"spec", c.bSpec}, {"build_id", c.bBuildId}}},
                       {"more", c.moreSpecs},
                       {"aa", c.aa},
                       {"partial", c.partial},
                       {"scenarios", c.scenarios},
                       {"results_differ", c.resultsDiffer},
                       {"stored_utc", c.storedUtc}});
        }
        printJson(j);
        return 0;
      }
      std::vector<std::vector<std::string>> rows = {
          {"ID", "STARTED", "PROFILE", "MODE", "A", "B", "SCENARIOS", "RESULTS", "STATUS"}};
      for (const auto& c : list) {
        // A comparison of more than two targets: every B in the B column.
        std::string b = c.bSpec;
        for (const auto& more : c.moreSpecs) b += " | " + more;
        rows.push_back({c.compareId, c.startedUtc, c.profileName, c.mode + (c.aa ? "+aa" : ""), c.aSpec, b,
                        std::to_string(c.scenarios), c.resultsDiffer ? "differ" : "identical",
                        c.partial ? "partial" : "complete"});
      }
      printTable(rows, {false, false, false, false, false, false, true, false, false});
      return 0;
    });
  }

  {
    auto* cmd = runs->add_subcommand(
        "compare-export", "Write a stored comparison as report.md, report.json, report.csv and report.html");
    struct Args {
      std::string db, id, out;
    };
    auto a = std::make_shared<Args>();
    cmd->add_option("id", a->id, "comparison id (or a unique prefix of one; see `runs compares`)")->required();
    cmd->add_option("--out", a->out, "directory for the reports (created)")->required();
    addDbOption(cmd, a->db);
    setAction(cmd, [a] {
      const auto store = openExisting(storePath(a->db), a->id, "comparison");
      const std::string id = store.resolveComparisonId(a->id);
      engine::writeCompareReportFiles(a->out, store.loadComparison(id));
      std::cerr << fmt::format("exported comparison {} to {}\n", id, a->out);
      std::cout << (std::filesystem::path(a->out) / "report.md").string() << '\n';
      return 0;
    });
  }

  {
    auto* cmd = runs->add_subcommand("compare-delete", "Delete one stored comparison (its runs, if any, stay)");
    struct Args {
      std::string db, id;
    };
    auto a = std::make_shared<Args>();
    cmd->add_option("id", a->id, "comparison id (exact; see `runs compares`)")->required();
    addDbOption(cmd, a->db);
    setAction(cmd, [a] {
      auto store = openExisting(storePath(a->db), a->id, "comparison");
      // Exact ids only, as `runs delete`: a prefix is too easy to get wrong for something that
      // cannot be undone.
      if (!store.deleteComparison(a->id)) {
        std::string message = store.path().string();
        message.append(": no comparison '");
        message.append(a->id);
        message.append("' in the store (compare-delete needs the exact id; see `runs compares`)");
        engine::throwUsage(message);
      }
      std::cerr << fmt::format("deleted comparison {}\n", a->id);
      return 0;
    });
  }
}

}  // namespace wandscope::app
