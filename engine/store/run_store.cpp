// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/store/run_store.h"

#include "engine/bench/compare_report_writer.h"
#include "engine/core/error.h"
#include "engine/core/fs_util.h"
#include "engine/core/log.h"
#include "engine/core/wording.h"
#include "engine/store/run_codec.h"
#include "engine/store/schema_migrations.h"
#include "engine/store/sqlite_db.h"
#include "engine/store/sqlite_statement.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>

namespace wandscope::engine {
namespace {

using nlohmann::json;
using Transaction = SqliteTransaction;

// Compact JSON. Invalid UTF-8 in a string (a hostname, a counter name) becomes U+FFFD instead of
// an exception: losing one odd byte beats losing the rung.
std::string dumpJson(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// Indexed columns are for listing and sorting only (the documents hold the exact values), so a
// count beyond int64 is clamped rather than refused.
std::int64_t clampToInt64(std::uint64_t value) {
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  return static_cast<std::int64_t>(value > kMax ? kMax : value);
}

RunStatus parseStatus(const std::string& text) {
  if (text == "running") return RunStatus::Running;
  if (text == "complete") return RunStatus::Complete;
  return RunStatus::Partial;
}

constexpr const char* kNow = "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')";

// The summary query of listRuns and findRun: constant text plus a constant WHERE/ORDER clause.
std::string summarySql(const char* whereClause) {
  std::string sql =
      "SELECT r.id, r.run_id, r.profile_name, r.started_utc, r.git_commit, r.hostname, r.status, "
      "r.stored_utc, (SELECT count(*) FROM rungs g WHERE g.run = r.id) FROM runs r ";
  sql.append(whereClause);
  return sql;
}

}  // namespace

const char* runStatusName(RunStatus status) noexcept {
  switch (status) {
    case RunStatus::Running:
      return "running";
    case RunStatus::Partial:
      return "partial";
    case RunStatus::Complete:
      return "complete";
  }
  return "partial";
}

std::filesystem::path RunStore::defaultPath() { return userDataDir() / "runs.sqlite"; }

namespace {

bool identifiedAsOurs(SqliteDb& db) {
  try {
    SqliteTransaction snapshot(db, SqliteTransaction::Kind::Read);
    const int version = readSchemaVersion(db);
    snapshot.commit();
    return version <= runStoreSchemaVersion();
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::BadInput) throw;
    return false;  // decided under the write lock in migrateSchema
  }
}

// Two processes creating a store at once both ask for WAL; SQLite refuses the second change at
// once instead of waiting (waiting could deadlock), and the first finishes in milliseconds.
std::string switchToWal(SqliteDb& db) {
  for (int attempt = 0;; ++attempt) {
    try {
      return db.queryText("PRAGMA journal_mode = WAL");
    } catch (const Error&) {
      const int rc = db.lastFailure();
      if (attempt >= 1000 || (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)) throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
}

// SQLite says "attempt to write a readonly database" or "unable to open database file" when the
// store's directory is not writable: a WAL store needs to create <name>-wal and <name>-shm beside
// it, even to be read. Says that, naming the path, when it is the case; returns otherwise.
void explainRefusal(const std::filesystem::path& path) {
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  // AT_EACCESS: the effective ids decide, as for the open itself.
  if (::faccessat(AT_FDCWD, dir.c_str(), W_OK, AT_EACCESS) != 0) {
    const std::string why = std::strerror(errno);
    const std::string name = path.filename().string();
    throwIo(path.string() + ": cannot open the run store: its directory " + dir.string() + " is not writable (" +
            why + "), and a run store (SQLite in WAL mode) needs to create " + name + "-wal and " + name +
            "-shm there, even to list runs; make it writable or copy the store elsewhere");
  }
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && ::faccessat(AT_FDCWD, path.c_str(), W_OK, AT_EACCESS) != 0) {
    const std::string why = std::strerror(errno);
    throwIo(path.string() + ": cannot open the run store: the file is not writable (" + why +
            "); it is opened for writing, even to list runs");
  }
}

}  // namespace

RunStore RunStore::open(const std::filesystem::path& path) {
  if (path.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) {
      std::string message = path.parent_path().string();
      message.append(": cannot create the run store's directory: ");
      message.append(ec.message());
      throwIo(message);
    }
  }
  try {
    return openCreated(path);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::Io) explainRefusal(path);
    throw;
  }
}

RunStore RunStore::openCreated(const std::filesystem::path& path) {
  auto db = std::make_unique<SqliteDb>(path, SqliteDb::OpenMode::ReadWriteCreate);
  // Identify the file before changing anything in it: garbage, a foreign database or a newer
  // schema is refused exactly as it was found. A store another process is creating this instant
  // can look foreign to a lock-free read; migrateSchema re-checks under the write lock and only
  // then refuses.
  if (identifiedAsOurs(*db)) {
    // WAL: a commit appends to the log, so a reader (the CLI, the workbench) never waits for the
    // runner and never sees half a rung. It is a property of the file, set once.
    const std::string mode = switchToWal(*db);
    if (mode != "wal") {
      std::string message = path.string();
      message.append(": WAL is unavailable (journal mode '");
      message.append(mode);
      message.append("'); readers may wait for the writer");
      log::warn(message);
    }
    // FULL rather than NORMAL: in WAL both survive a crashed process (kill -9) with every
    // committed rung, but only FULL also keeps the last commits across a power cut or kernel
    // panic. It costs one fsync per commit, i.e. per rung (seconds apart), between measurements.
    db->exec("PRAGMA synchronous = FULL");
  }
  migrateSchema(*db, runStoreMigrations());
  const int version = readSchemaVersion(*db);
  return RunStore(std::move(db), version);
}

RunStore::RunStore(std::unique_ptr<SqliteDb> db, int schemaVersion)
    : m_db(std::move(db)), m_schemaVersion(schemaVersion) {}
RunStore::RunStore(RunStore&& other) noexcept = default;
RunStore& RunStore::operator=(RunStore&& other) noexcept = default;
RunStore::~RunStore() = default;

const std::filesystem::path& RunStore::path() const noexcept { return m_db->path(); }

namespace {

std::optional<std::int64_t> runRowId(SqliteDb& db, const std::string& runId) {
  auto st = db.prepare("SELECT id FROM runs WHERE run_id = ?1");
  st.bindText(1, runId);
  if (!st.step()) return std::nullopt;
  return st.columnInt(0);
}

[[noreturn]] void throwNoSuchRun(const SqliteDb& db, const std::string& runId) {
  std::string message = db.path().string();
  message.append(": no run '");
  message.append(runId);
  message.append("' in the store (see `runs list`)");
  throwUsage(message);
}

void writeTargets(SqliteDb& db, std::int64_t run, const std::vector<std::string>& targets) {
  auto clear = db.prepare("DELETE FROM run_targets WHERE run = ?1");
  clear.bindInt(1, run).run();
  auto insert = db.prepare("INSERT INTO run_targets (run, position, target) VALUES (?1, ?2, ?3)");
  for (std::size_t i = 0; i < targets.size(); ++i) {
    insert.reset();
    insert.bindInt(1, run).bindInt(2, static_cast<std::int64_t>(i)).bindText(3, targets[i]).run();
  }
}

std::int64_t insertRun(SqliteDb& db, const RunHeader& header, RunStatus status) {
  std::string sql =
      "INSERT INTO runs (run_id, profile_name, profile_json, started_utc, hostname, git_commit, "
      "status, header_json, stored_utc) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ";
  sql.append(kNow);
  sql.append(") RETURNING id");
  auto st = db.prepare(sql);
  st.bindText(1, header.runId)
      .bindText(2, header.profileName)
      .bindText(3, header.profileJson)
      .bindText(4, header.environment.startedUtc)
      .bindText(5, header.environment.hostname)
      .bindText(6, header.environment.gitCommit)
      .bindText(7, runStatusName(status))
      .bindText(8, dumpJson(RunCodec::toJson(header)));
  if (!st.step()) throwInternal("INSERT ... RETURNING id returned no row");
  const std::int64_t id = st.columnInt(0);
  st.run();
  writeTargets(db, id, header.targets);
  return id;
}

void updateRunHeader(SqliteDb& db, std::int64_t id, const RunHeader& header) {
  auto st = db.prepare(
      "UPDATE runs SET profile_name = ?2, profile_json = ?3, started_utc = ?4, hostname = ?5, "
      "git_commit = ?6, header_json = ?7 WHERE id = ?1");
  st.bindInt(1, id)
      .bindText(2, header.profileName)
      .bindText(3, header.profileJson)
      .bindText(4, header.environment.startedUtc)
      .bindText(5, header.environment.hostname)
      .bindText(6, header.environment.gitCommit)
      .bindText(7, dumpJson(RunCodec::toJson(header)))
      .run();
  writeTargets(db, id, header.targets);
}

// Inserts (or replaces) the rung at position `seq` of run `run`.
void putRung(SqliteDb& db, std::int64_t run, std::int64_t seq, const RungResult& rung, const std::string& rungJson) {
  std::string sql =
      "INSERT OR REPLACE INTO rungs (run, seq, rung_index, target, mode, target_rate, concurrency, "
      "achieved_rate, completed, shed, errors, duration_s, p50_ms, p99_ms, p999_ms, cpu_ms_per_query, "
      "valid, verdict, rung_json, stored_utc) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
      "?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ";
  sql.append(kNow);
  sql.append(")");
  auto st = db.prepare(sql);
  st.bindInt(1, run)
      .bindInt(2, seq)
      .bindInt(3, rung.index)
      .bindText(4, rung.target)
      .bindText(5, rung.mode)
      .bindDouble(6, rung.targetRate)
      .bindInt(7, rung.concurrency)
      .bindDouble(8, rung.achievedRate)
      .bindInt(9, clampToInt64(rung.completed))
      .bindInt(10, clampToInt64(rung.shed))
      .bindInt(11, clampToInt64(rung.errors))
      .bindDouble(12, rung.durationSeconds)
      .bindOptionalDouble(13, rung.p50Ms)
      .bindOptionalDouble(14, rung.p99Ms)
      .bindOptionalDouble(15, rung.p999Ms)
      .bindDouble(16, rung.cpuMsPerQuery)
      .bindInt(17, rung.valid ? 1 : 0)
      .bindText(18, rung.verdict)
      .bindText(19, rungJson)
      .run();
}

json parseStored(const SqliteDb& db, const std::string& text, const std::string& runId, const char* what) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    std::string message = db.path().string();
    message.append(": run '");
    message.append(runId);
    message.append("': the stored ");
    message.append(what);
    message.append(" is not a JSON object (damaged store)");
    throwBadInput(message);
  }
  return j;
}

std::string sourceFor(const SqliteDb& db, const std::string& runId) {
  std::string source = db.path().string();
  source.append(": run ");
  source.append(runId);
  return source;
}

RunSummary readSummary(SqliteDb& db, SqliteStatement& st) {
  RunSummary s;
  const std::int64_t id = st.columnInt(0);
  s.runId = st.columnText(1);
  s.profileName = st.columnText(2);
  s.startedUtc = st.columnText(3);
  s.gitCommit = st.columnText(4);
  s.hostname = st.columnText(5);
  s.status = parseStatus(st.columnText(6));
  s.storedUtc = st.columnText(7);
  s.rungs = static_cast<std::size_t>(st.columnInt(8));
  auto targets = db.prepare("SELECT target FROM run_targets WHERE run = ?1 ORDER BY position");
  targets.bindInt(1, id);
  while (targets.step()) s.targets.push_back(targets.columnText(0));
  return s;
}

}  // namespace

void RunStore::beginRun(const RunHeader& header) {
  Transaction transaction(*m_db);
  if (runRowId(*m_db, header.runId)) {
    std::string message = path().string();
    message.append(": run '");
    message.append(header.runId);
    message.append("' is already in the store");
    throwUsage(message);
  }
  insertRun(*m_db, header, RunStatus::Running);
  transaction.commit();
}

void RunStore::addRung(const std::string& runId, const RungResult& rung) {
  const std::string rungJson = dumpJson(RunCodec::toJson(rung));
  Transaction transaction(*m_db);
  const auto run = runRowId(*m_db, runId);
  if (!run) {
    std::string message = path().string();
    message.append(": addRung for run '");
    message.append(runId);
    message.append("', which was never begun");
    throwInternal(message);
  }
  auto next = m_db->prepare("SELECT coalesce(max(seq) + 1, 0) FROM rungs WHERE run = ?1");
  next.bindInt(1, *run);
  const std::int64_t seq = next.step() ? next.columnInt(0) : 0;
  next.reset();
  putRung(*m_db, *run, seq, rung, rungJson);
  transaction.commit();
}

void RunStore::finishRun(const RunReport& report) {
  const RunStatus status = report.partial ? RunStatus::Partial : RunStatus::Complete;
  std::vector<std::string> rungJson;
  rungJson.reserve(report.rungs.size());
  for (const auto& rung : report.rungs) rungJson.push_back(dumpJson(RunCodec::toJson(rung)));

  Transaction transaction(*m_db);
  std::int64_t run = 0;
  if (const auto existing = runRowId(*m_db, report.header.runId)) {
    run = *existing;
    updateRunHeader(*m_db, run, report.header);
  } else {
    run = insertRun(*m_db, report.header, status);
  }
  // The report is authoritative: afterwards the run holds exactly its rungs, in its order. Rungs
  // already stored identically (the usual case: the observer committed them one by one) are left
  // alone and keep their stored_utc.
  std::vector<std::string> stored;
  {
    auto st = m_db->prepare("SELECT rung_json FROM rungs WHERE run = ?1 ORDER BY seq");
    st.bindInt(1, run);
    while (st.step()) stored.push_back(st.columnText(0));
  }
  auto prune = m_db->prepare("DELETE FROM rungs WHERE run = ?1 AND seq >= ?2");
  prune.bindInt(1, run).bindInt(2, static_cast<std::int64_t>(report.rungs.size())).run();
  for (std::size_t i = 0; i < report.rungs.size(); ++i) {
    if (i < stored.size() && stored[i] == rungJson[i]) continue;
    putRung(*m_db, run, static_cast<std::int64_t>(i), report.rungs[i], rungJson[i]);
  }
  std::string sql = "UPDATE runs SET status = ?2, result_json = ?3, finished_utc = ";
  sql.append(kNow);
  sql.append(" WHERE id = ?1");
  auto finish = m_db->prepare(sql);
  finish.bindInt(1, run)
      .bindText(2, runStatusName(status))
      .bindText(3, dumpJson(RunCodec::runEndToJson(report)))
      .run();
  transaction.commit();
}

void RunStore::markInterrupted(const std::string& runId) {
  std::string sql = "UPDATE runs SET status = 'partial', finished_utc = ";
  sql.append(kNow);
  sql.append(" WHERE run_id = ?1 AND status = 'running'");
  auto st = m_db->prepare(sql);
  st.bindText(1, runId).run();
}

std::vector<RunSummary> RunStore::listRuns(const RunFilter& filter) const {
  // One constant statement for every filter: the search text and the sort key are parameters.
  auto st = m_db->prepare(summarySql(
                          "WHERE ?1 = '' "
                          "   OR instr(lower(r.profile_name), lower(?1)) > 0 "
                          "   OR instr(lower(r.git_commit), lower(?1)) > 0 "
                          "   OR instr(lower(r.run_id), lower(?1)) > 0 "
                          "   OR EXISTS (SELECT 1 FROM run_targets t "
                          "              WHERE t.run = r.id AND instr(lower(t.target), lower(?1)) > 0) "
                          "ORDER BY CASE WHEN ?2 = 1 THEN r.profile_name END ASC, "
                          "         r.started_utc DESC, r.id DESC "
                          "LIMIT ?3"));
  const std::int64_t limit =
      filter.limit == 0 ? -1 : clampToInt64(static_cast<std::uint64_t>(filter.limit));
  st.bindText(1, filter.search).bindInt(2, filter.sort == RunSort::Profile ? 1 : 0).bindInt(3, limit);
  Transaction transaction(*m_db, Transaction::Kind::Read);
  std::vector<RunSummary> runs;
  while (st.step()) runs.push_back(readSummary(*m_db, st));
  st.reset();
  transaction.commit();
  return runs;
}

std::optional<RunSummary> RunStore::findRun(const std::string& runId) const {
  auto st = m_db->prepare(summarySql("WHERE r.run_id = ?1"));
  st.bindText(1, runId);
  Transaction transaction(*m_db, Transaction::Kind::Read);
  std::optional<RunSummary> summary;
  if (st.step()) summary = readSummary(*m_db, st);
  st.reset();
  transaction.commit();
  return summary;
}

namespace {

// An exact id or a unique prefix of one, in the runs or the comparisons table (constant SQL).
std::string resolveId(SqliteDb& db, const std::string& idOrPrefix, bool comparisons) {
  const char* noun = comparisons ? "comparison" : "run";
  if (idOrPrefix.empty()) throwUsage(std::string("a ").append(noun).append(" id must not be empty"));
  auto st = db.prepare(comparisons
                           ? "SELECT compare_id FROM comparisons WHERE compare_id = ?1 OR "
                             "substr(compare_id, 1, length(?1)) = ?1 ORDER BY compare_id = ?1 DESC, compare_id LIMIT 2"
                           : "SELECT run_id FROM runs WHERE run_id = ?1 OR substr(run_id, 1, length(?1)) = ?1 "
                             "ORDER BY run_id = ?1 DESC, run_id LIMIT 2");
  st.bindText(1, idOrPrefix);
  std::vector<std::string> matches;
  while (st.step()) matches.push_back(st.columnText(0));
  if (!matches.empty() && matches[0] == idOrPrefix) return idOrPrefix;
  std::string message = db.path().string();
  if (matches.empty()) {
    message.append(": no ").append(noun).append(" '").append(idOrPrefix).append("' in the store (see `runs ");
    message.append(comparisons ? "compares" : "list").append("`)");
    throwUsage(message);
  }
  if (matches.size() > 1) {
    message.append(": ").append(noun).append(" id prefix '").append(idOrPrefix).append("' is ambiguous ('");
    message.append(matches[0]).append("', '").append(matches[1]).append("', ...)");
    throwUsage(message);
  }
  return matches[0];
}

}  // namespace

std::string RunStore::resolveRunId(const std::string& idOrPrefix) const { return resolveId(*m_db, idOrPrefix, false); }

namespace {

// Reads one stored part with `read`. A part the codec cannot read (ErrorKind::BadInput) is thrown
// on under DamagedParts::Refuse; under LeaveOut it becomes a warning saying what was left out and
// why, and the caller goes on without it. Other errors (I/O, a bug) are thrown either way.
template <typename Read>
bool readPart(DamagedParts damaged, const std::string& part, std::vector<std::string>& warnings, Read&& read) {
  try {
    read();
    return true;
  } catch (const Error& e) {
    if (damaged == DamagedParts::Refuse || e.kind() != ErrorKind::BadInput) throw;
    std::string warning = part;
    warning.append(" could not be read from the store and is left out (");
    warning.append(e.what());
    warning.append(")");
    warnings.push_back(std::move(warning));
    return false;
  }
}

// "rung #1 (2nd of 3 stored)": the number `runs show` and the workbench list rungs by (kept in
// its own column, readable when the document is not), and where it stands among the stored ones.
std::string rungPart(std::int64_t rungIndex, std::int64_t position, std::int64_t count) {
  std::string part = "rung #";
  part.append(std::to_string(rungIndex)).append(" (").append(ordinal(static_cast<std::uint64_t>(position + 1)));
  part.append(" of ").append(std::to_string(count)).append(" stored)");
  return part;
}

constexpr const char* kEndPart = "the run's end (capacity, calibration, saturation rule, warnings)";

std::int64_t storedRungCount(SqliteDb& db, std::int64_t run) {
  auto st = db.prepare("SELECT count(*) FROM rungs WHERE run = ?1");
  st.bindInt(1, run);
  return st.step() ? st.columnInt(0) : 0;
}

}  // namespace

RunReport RunStore::loadRun(const std::string& runId, DamagedParts damaged) const {
  Transaction transaction(*m_db, Transaction::Kind::Read);
  auto st = m_db->prepare("SELECT id, header_json, profile_json, status, result_json FROM runs WHERE run_id = ?1");
  st.bindText(1, runId);
  if (!st.step()) throwNoSuchRun(*m_db, runId);
  const std::string source = sourceFor(*m_db, runId);
  const std::int64_t run = st.columnInt(0);
  RunReport report;
  report.header = RunCodec::headerFromJson(parseStored(*m_db, st.columnText(1), runId, "header"), source);
  report.header.profileJson = st.columnText(2);  // verbatim, whatever its formatting
  const RunStatus status = parseStatus(st.columnText(3));
  std::vector<std::string> leftOut;
  if (!st.columnIsNull(4)) {
    // Into a copy: a document refused halfway must not leave half its fields in the report.
    RunReport ended = report;
    if (readPart(damaged, kEndPart, leftOut, [&] {
          RunCodec::runEndFromJson(parseStored(*m_db, st.columnText(4), runId, "result"),
                                   source + ", " + kEndPart, ended);
        })) {
      report = std::move(ended);
    }
  }
  if (status != RunStatus::Complete) report.partial = true;
  st.reset();

  const std::int64_t count = storedRungCount(*m_db, run);
  auto rungs = m_db->prepare("SELECT rung_index, rung_json FROM rungs WHERE run = ?1 ORDER BY seq");
  rungs.bindInt(1, run);
  for (std::int64_t position = 0; rungs.step(); ++position) {
    const std::string part = rungPart(rungs.columnInt(0), position, count);
    const std::string rungSource = source + ", " + part;
    if (!readPart(damaged, part, leftOut, [&] {
          report.rungs.push_back(
              RunCodec::rungFromJson(parseStored(*m_db, rungs.columnText(1), runId, "rung"), rungSource));
        })) {
      ++report.rungsLeftOut;
    }
  }
  rungs.reset();
  transaction.commit();
  if (!leftOut.empty()) {
    report.partial = true;  // not every stored part is in it
    report.partsLeftOut = leftOut.size();
    report.warnings.insert(report.warnings.end(), leftOut.begin(), leftOut.end());
  }
  return report;
}

json RunStore::exportRun(const std::string& runId, DamagedParts damaged) const {
  Transaction transaction(*m_db, Transaction::Kind::Read);
  auto st = m_db->prepare("SELECT id, header_json, status, result_json FROM runs WHERE run_id = ?1");
  st.bindText(1, runId);
  if (!st.step()) throwNoSuchRun(*m_db, runId);
  const std::int64_t run = st.columnInt(0);
  const std::string source = sourceFor(*m_db, runId);
  json doc = parseStored(*m_db, st.columnText(1), runId, "header");
  const RunStatus status = parseStatus(st.columnText(2));
  std::vector<std::string> leftOut;
  bool ended = false;
  if (!st.columnIsNull(3)) {
    ended = readPart(damaged, kEndPart, leftOut, [&] {
      json end = parseStored(*m_db, st.columnText(3), runId, "result");
      RunReport check;
      RunCodec::runEndFromJson(end, source + ", " + kEndPart, check);
      doc.update(end);
    });
  }
  if (!ended) {
    RunReport unfinished;
    unfinished.partial = true;
    doc.update(RunCodec::runEndToJson(unfinished));
  }
  if (status != RunStatus::Complete) doc["partial"] = true;
  st.reset();

  const std::int64_t count = storedRungCount(*m_db, run);
  json rungDocs = json::array();
  auto rungs = m_db->prepare("SELECT rung_index, rung_json FROM rungs WHERE run = ?1 ORDER BY seq");
  rungs.bindInt(1, run);
  for (std::int64_t position = 0; rungs.step(); ++position) {
    const std::string part = rungPart(rungs.columnInt(0), position, count);
    readPart(damaged, part, leftOut, [&] {
      json rung = parseStored(*m_db, rungs.columnText(1), runId, "rung");
      (void)RunCodec::rungFromJson(rung, source + ", " + part);
      rungDocs.push_back(std::move(rung));
    });
  }
  rungs.reset();
  transaction.commit();
  if (!leftOut.empty()) {
    doc["partial"] = true;
    json& warnings = doc["warnings"];
    if (!warnings.is_array()) warnings = json::array();
    for (const auto& w : leftOut) warnings.push_back(w);
  }
  // The rest of the document (header, schema version, end fields) through the codec as well: it is
  // what `runs import` will read back. Before the rungs go in, each already read above once.
  (void)RunCodec::reportFromJson(doc, source);
  doc["rungs"] = std::move(rungDocs);
  return doc;
}

bool RunStore::deleteRun(const std::string& runId) {
  // Rungs and targets go with the run (ON DELETE CASCADE), all in this one statement.
  auto st = m_db->prepare("DELETE FROM runs WHERE run_id = ?1");
  st.bindText(1, runId).run();
  return m_db->changes() > 0;
}

void RunStore::saveComparison(const CompareReport& report) {
  if (report.runId.empty()) throwUsage("saveComparison: the comparison has no run id");
  bool differ = false;
  for (const auto& sc : report.scenarios) differ = differ || sc.diff.differs();
  for (const auto& d : report.diffs) differ = differ || d.diff.differs();
  json moreSpecs = json::array();
  for (const auto& side : report.more) moreSpecs.push_back(side.spec);
  // The writer's own JSON, compacted: exactly what report.json says, and what export returns.
  const std::string document = dumpJson(json::parse(compareReportJson(report)));
  std::string sql =
      "INSERT OR REPLACE INTO comparisons (compare_id, profile_name, started_utc, mode, a_spec, a_build_id, "
      "b_spec, b_build_id, aa, partial, scenarios, results_differ, hostname, git_commit, report_json, more_specs, "
      "stored_utc) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ";
  sql.append(kNow);
  sql.append(")");
  Transaction transaction(*m_db);
  auto st = m_db->prepare(sql);
  st.bindText(1, report.runId)
      .bindText(2, report.profileName)
      .bindText(3, report.environment.startedUtc)
      .bindText(4, report.mode)
      .bindText(5, report.a.spec)
      .bindText(6, report.a.buildId)
      .bindText(7, report.b.spec)
      .bindText(8, report.b.buildId)
      .bindInt(9, report.aa ? 1 : 0)
      .bindInt(10, report.partial ? 1 : 0)
      .bindInt(11, static_cast<std::int64_t>(report.scenarios.size()))
      .bindInt(12, differ ? 1 : 0)
      .bindText(13, report.environment.hostname)
      .bindText(14, report.environment.gitCommit)
      .bindText(15, document)
      .bindText(16, report.more.empty() ? std::string() : moreSpecs.dump())
      .run();
  transaction.commit();
}

std::vector<ComparisonSummary> RunStore::listComparisons(std::size_t limit) const {
  auto st = m_db->prepare(
      "SELECT compare_id, started_utc, profile_name, mode, a_spec, a_build_id, b_spec, b_build_id, aa, partial, "
      "scenarios, results_differ, stored_utc, more_specs FROM comparisons ORDER BY started_utc DESC, id DESC LIMIT ?1");
  st.bindInt(1, limit == 0 ? -1 : clampToInt64(static_cast<std::uint64_t>(limit)));
  std::vector<ComparisonSummary> out;
  while (st.step()) {
    ComparisonSummary c;
    c.compareId = st.columnText(0);
    c.startedUtc = st.columnText(1);
    c.profileName = st.columnText(2);
    c.mode = st.columnText(3);
    c.aSpec = st.columnText(4);
    c.aBuildId = st.columnText(5);
    c.bSpec = st.columnText(6);
    c.bBuildId = st.columnText(7);
    c.aa = st.columnInt(8) != 0;
    c.partial = st.columnInt(9) != 0;
    c.scenarios = static_cast<std::size_t>(st.columnInt(10));
    c.resultsDiffer = st.columnInt(11) != 0;
    c.storedUtc = st.columnText(12);
    // B2, B3, ... of a comparison of more than two targets: a JSON array of specs ("" for none).
    if (const std::string more = st.columnText(13); !more.empty()) {
      const json specs = json::parse(more, nullptr, false);
      if (specs.is_array()) {
        for (const auto& spec : specs) {
          if (spec.is_string()) c.moreSpecs.push_back(spec.get<std::string>());
        }
      }
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::string RunStore::resolveComparisonId(const std::string& idOrPrefix) const {
  return resolveId(*m_db, idOrPrefix, true);
}

nlohmann::json RunStore::exportComparison(const std::string& compareId) const {
  auto st = m_db->prepare("SELECT report_json FROM comparisons WHERE compare_id = ?1");
  st.bindText(1, compareId);
  if (!st.step()) {
    std::string message = path().string();
    message.append(": no comparison '").append(compareId).append("' in the store (see `runs compares`)");
    throwUsage(message);
  }
  return parseStored(*m_db, st.columnText(0), compareId, "comparison report");
}

CompareReport RunStore::loadComparison(const std::string& compareId) const {
  return RunCodec::compareReportFromJson(exportComparison(compareId), sourceFor(*m_db, compareId));
}

bool RunStore::deleteComparison(const std::string& compareId) {
  auto st = m_db->prepare("DELETE FROM comparisons WHERE compare_id = ?1");
  st.bindText(1, compareId).run();
  return m_db->changes() > 0;
}

std::string RunStore::integrityCheck() const {
  std::string problems;
  {
    auto st = m_db->prepare("PRAGMA integrity_check");
    while (st.step()) {
      const std::string line = st.columnText(0);
      if (line == "ok") continue;
      problems.append(line);
      problems.push_back('\n');
    }
  }
  auto fk = m_db->prepare("PRAGMA foreign_key_check");
  while (fk.step()) {
    problems.append("foreign key violation in ");
    problems.append(fk.columnText(0));
    problems.append(" row ");
    problems.append(std::to_string(fk.columnInt(1)));
    problems.append(" (parent ");
    problems.append(fk.columnText(2));
    problems.append(")\n");
  }
  if (problems.empty()) return "ok";
  problems.pop_back();
  return problems;
}

}  // namespace wandscope::engine
