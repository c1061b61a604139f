// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The history of benchmark runs in one SQLite file (default $XDG_DATA_HOME/wandscope/runs.sqlite).
//
// Guarantees (docs/STORE.md says how each is tested):
// - Every write is its own transaction: beginRun() inserts the run as 'running', each addRung()
//   commits one rung, finishRun() marks the run complete or partial. A process killed at any
//   point (kill -9 included) leaves a consistent file holding every rung whose addRung()
//   returned; the run reads back as partial.
// - WAL journal, synchronous=FULL: a returned commit also survives power loss, and readers (the
//   CLI, the workbench) never block the writer nor see half a transaction.
// - Values reach SQL only as bound parameters.
// - A file that is not a run store (garbage, another application's database) or is damaged throws
//   ErrorKind::BadInput naming the file; one written by a newer schema is refused unchanged; an
//   older one is migrated (schema_migrations.h).
//
// One RunStore is one connection: use it from one thread at a time. Any number of RunStores, in
// any number of processes, may use the same file at once.

#include "engine/bench/compare_types.h"
#include "engine/bench/run_types.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wandscope::engine {

class SqliteDb;

enum class RunStatus {
  Running,   // begun, never finished: still running, or its process died (reads back as partial)
  Partial,   // finished as interrupted (the report said partial, or the observer was destroyed)
  Complete,  // finished with every rung
};
const char* runStatusName(RunStatus status) noexcept;  // "running", "partial", "complete"

// What reading a run does with a stored rung (or the run's end fields) that the codec cannot read:
// a hand-edited or damaged store.
enum class DamagedParts {
  Refuse,   // throw ErrorKind::BadInput naming the store, the run and the field (exports, copies)
  LeaveOut, // leave the part out, mark the run partial and say what was left out, and why, in
            // the report's warnings (viewing: the readable rungs stay in sight)
};

// One line of `runs list`.
struct RunSummary {
  std::string runId;
  std::string profileName;
  std::vector<std::string> targets;
  std::string startedUtc;
  std::string gitCommit;
  std::string hostname;
  std::size_t rungs = 0;
  RunStatus status = RunStatus::Running;
  std::string storedUtc;  // when the store first saw the run

  bool partial() const noexcept { return status != RunStatus::Complete; }
};

// One line of `runs compares`: a stored comparison (A and B, or A against B, B2, ...).
struct ComparisonSummary {
  std::string compareId;  // the comparison's run id (report.json's run_id)
  std::string startedUtc;
  std::string profileName;
  std::string mode;       // "closed" | "open"
  std::string aSpec, aBuildId;
  std::string bSpec, bBuildId;
  std::vector<std::string> moreSpecs;  // B2, B3, ...: a comparison of more than two targets
  bool aa = false;
  bool partial = false;   // interrupted: only the query sets (or ladders) that finished
  std::size_t scenarios = 0;
  bool resultsDiffer = false;  // some query set's results differ between A and B
  std::string storedUtc;
};

enum class RunSort {
  Time,     // newest first (started_utc, then arrival)
  Profile,  // by profile name, newest first within a profile
};

struct RunFilter {
  // Case-insensitive (ASCII) substring of the profile name, a target, the git commit or the run
  // id; empty matches every run. Plain text: no wildcards, nothing is interpreted as SQL.
  std::string search;
  RunSort sort = RunSort::Time;
  std::size_t limit = 0;  // 0: no limit
};

class RunStore {
 public:
  // $XDG_DATA_HOME/wandscope/runs.sqlite (~/.local/share/wandscope/runs.sqlite).
  static std::filesystem::path defaultPath();

  // Opens the store at `path`, creating it and its parent directories when missing, switching it to
  // WAL and migrating an older schema. Throws Error naming the file (see above). A directory or a
  // file this process may not write is said as such (ErrorKind::Io): WAL needs the directory
  // writable even to read, and SQLite's own words were "attempt to write a readonly database".
  static RunStore open(const std::filesystem::path& path);

  RunStore(RunStore&& other) noexcept;
  RunStore& operator=(RunStore&& other) noexcept;
  ~RunStore();

  const std::filesystem::path& path() const noexcept;
  int schemaVersion() const noexcept { return m_schemaVersion; }

  // ---- writing a run as it happens (what StoreRunObserver calls) ----
  // Inserts the run with status 'running'. A run id already in the store throws ErrorKind::Usage.
  void beginRun(const RunHeader& header);
  // Commits one rung of a begun run in its own transaction; rungs keep their arrival order.
  void addRung(const std::string& runId, const RungResult& rung);
  // Stores the final report in one transaction: the header, exactly the report's rungs, the end
  // fields (capacity, ...) and status partial/complete from report.partial. Without a prior
  // beginRun() it stores the whole report (an import). Afterwards loadRun() returns `report`.
  void finishRun(const RunReport& report);
  // A begun run that will not finish: status 'running' -> 'partial'. No-op for other runs.
  void markInterrupted(const std::string& runId);

  // ---- reading ----
  std::vector<RunSummary> listRuns(const RunFilter& filter = {}) const;
  std::optional<RunSummary> findRun(const std::string& runId) const;
  // The run id for an exact id or a unique prefix of one; ErrorKind::Usage when there is none or
  // the prefix is ambiguous.
  std::string resolveRunId(const std::string& idOrPrefix) const;
  // The run as stored. A run that never finished has partial = true, no capacity and the default
  // quantile definition. Unknown id: ErrorKind::Usage. A rung or end document the codec cannot
  // read: see DamagedParts; a damaged header is refused either way (there is no run without it).
  RunReport loadRun(const std::string& runId, DamagedParts damaged = DamagedParts::Refuse) const;
  // The run as report.json: the stored documents themselves, so fields this build does not know
  // (written by a newer runner) are exported too. Unknown id: ErrorKind::Usage; a document the
  // codec cannot read (a damaged store) as loadRun() with the same `damaged`.
  nlohmann::json exportRun(const std::string& runId, DamagedParts damaged = DamagedParts::Refuse) const;

  // Deletes a run with its rungs; false when there is no such run.
  bool deleteRun(const std::string& runId);

  // ---- comparisons (schema version 2) ----
  // Stores a finished or interrupted comparison (report.partial) in one transaction: its
  // report.json and the listing columns. Saving a comparison id already stored replaces it.
  void saveComparison(const CompareReport& report);
  // Newest first; `limit` 0: all.
  std::vector<ComparisonSummary> listComparisons(std::size_t limit = 0) const;
  // The comparison id for an exact id or a unique prefix of one; ErrorKind::Usage otherwise.
  std::string resolveComparisonId(const std::string& idOrPrefix) const;
  // The comparison as stored, ready to render (compare_report_writer.h). Unknown id:
  // ErrorKind::Usage; a damaged document: ErrorKind::BadInput naming the store.
  CompareReport loadComparison(const std::string& compareId) const;
  // Its report.json as stored (fields this build does not know included).
  nlohmann::json exportComparison(const std::string& compareId) const;
  bool deleteComparison(const std::string& compareId);

  // SQLite's PRAGMA integrity_check plus foreign_key_check: "ok", or the problems found.
  std::string integrityCheck() const;

 private:
  explicit RunStore(std::unique_ptr<SqliteDb> db, int schemaVersion);
  // open() once the directory exists.
  static RunStore openCreated(const std::filesystem::path& path);

  std::unique_ptr<SqliteDb> m_db;
  int m_schemaVersion = 0;
};

}  // namespace wandscope::engine
