// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/store/run_store.h"

#include "engine/core/error.h"
#include "engine/store/run_codec.h"
#include "engine/store/schema_migrations.h"
#include "engine/store/sqlite_db.h"
#include "engine/store/sqlite_statement.h"
#include "engine/store/store_run_observer.h"
#include "tests/engine/store/store_test_data.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace wandscope::test {
namespace {

using engine::RunStatus;
using engine::RunStore;

template <typename F>
engine::Error catchError(F&& f) {
  try {
    f();
  } catch (const engine::Error& e) {
    return e;
  }
  ADD_FAILURE() << "expected an engine::Error";
  return engine::Error(engine::ErrorKind::Internal, "no error");
}

std::int64_t countRows(const std::filesystem::path& db, const char* sql) {
  engine::SqliteDb raw(db, engine::SqliteDb::OpenMode::ReadWrite);
  return raw.queryInt(sql);
}

// The observer's path through a whole run, as the runner will drive it.
void recordRun(const std::filesystem::path& db, const engine::RunReport& report) {
  engine::StoreRunObserver observer(db);
  observer.onRunStarted(report.header);
  for (const auto& rung : report.rungs) observer.onRungFinished(report.header, rung);
  observer.onRunFinished(report);
}

// Retrying callers (the WAL switch of two processes creating a store at once) decide on the
// result code, not on SQLite's message text.
TEST(SqliteDb, RecordsThePrimaryResultCodeOfTheLastFailure) {
  TempDir dir;
  const auto path = dir.path() / "codes.sqlite";
  engine::SqliteDb a(path, engine::SqliteDb::OpenMode::ReadWriteCreate);
  EXPECT_EQ(a.lastFailure(), SQLITE_OK);
  a.exec("CREATE TABLE t(x)");
  EXPECT_THROW(a.queryText("SELECT y FROM t"), engine::Error);
  EXPECT_EQ(a.lastFailure(), SQLITE_ERROR);

  engine::SqliteDb b(path, engine::SqliteDb::OpenMode::ReadWrite);
  sqlite3_busy_timeout(b.handle(), 0);  // fail at once instead of waiting for a's lock
  a.exec("BEGIN IMMEDIATE");
  const engine::Error e = catchError([&] { b.exec("BEGIN IMMEDIATE"); });
  EXPECT_EQ(e.kind(), engine::ErrorKind::Io);
  EXPECT_EQ(b.lastFailure(), SQLITE_BUSY);
  a.exec("COMMIT");
}

TEST(RunStore, FullyPopulatedReportRoundTripsUnchanged) {
  TempDir dir;
  const auto db = dir / "nested/dirs/runs.sqlite";  // parents are created
  const auto report = makeReport("20240501T123456Z-abcd", 6);
  recordRun(db, report);

  for (int pass = 0; pass < 2; ++pass) {  // the same connection's view, then a fresh process's
    SCOPED_TRACE(pass);
    auto store = RunStore::open(db);
    EXPECT_EQ(store.schemaVersion(), engine::runStoreSchemaVersion());
    const auto loaded = store.loadRun(report.header.runId);
    expectSameReport(report, loaded);
    EXPECT_EQ(engine::RunCodec::toJson(loaded), engine::RunCodec::toJson(report));
    EXPECT_EQ(store.exportRun(report.header.runId), engine::RunCodec::toJson(report));
    const auto summary = store.findRun(report.header.runId);
    ASSERT_TRUE(summary);
    EXPECT_EQ(summary->status, RunStatus::Complete);
    EXPECT_EQ(summary->rungs, 6u);
    EXPECT_EQ(summary->targets, report.header.targets);
    EXPECT_EQ(store.integrityCheck(), "ok");
  }
  engine::SqliteDb raw(db, engine::SqliteDb::OpenMode::ReadWrite);
  EXPECT_EQ(raw.queryText("PRAGMA journal_mode"), "wal");
  EXPECT_EQ(raw.queryInt("PRAGMA application_id"), engine::kRunStoreApplicationId);
}

TEST(RunStore, ProfileTextIsKeptVerbatim) {
  TempDir dir;
  auto report = makeReport("r-verbatim", 1);
  report.header.profileJson = "{ \"name\" : \"spaced\",\n  \"rates\": [1, 2] }";
  recordRun(dir / "runs.sqlite", report);
  auto store = RunStore::open(dir / "runs.sqlite");
  EXPECT_EQ(store.loadRun("r-verbatim").header.profileJson, report.header.profileJson);
}

TEST(RunStore, PartialReportAndImportWithoutBegin) {
  TempDir dir;
  auto store = RunStore::open(dir / "runs.sqlite");
  auto report = makeReport("imported", 3);
  report.partial = true;
  store.finishRun(report);  // no beginRun: stores the whole report
  expectSameReport(report, store.loadRun("imported"));
  EXPECT_EQ(store.findRun("imported")->status, RunStatus::Partial);

  // finishRun is authoritative: a report with other rungs replaces what was stored.
  auto changed = makeReport("imported", 2);
  changed.rungs[1].verdict = "changed";
  store.finishRun(changed);
  expectSameReport(changed, store.loadRun("imported"));
  EXPECT_EQ(store.findRun("imported")->status, RunStatus::Complete);
  EXPECT_EQ(store.integrityCheck(), "ok");
}

TEST(RunStore, InterruptedAfterTwoOfFiveRungsIsListedPartialWithTwoRungs) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  const auto report = makeReport("interrupted", 5);
  {
    engine::StoreRunObserver observer(db);
    observer.onRunStarted(report.header);
    observer.onRungFinished(report.header, report.rungs[0]);
    observer.onRungFinished(report.header, report.rungs[1]);
    // The runner throws here; the observer is destroyed without onRunFinished.
  }
  auto store = RunStore::open(db);
  const auto runs = store.listRuns();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].runId, "interrupted");
  EXPECT_EQ(runs[0].status, RunStatus::Partial);
  EXPECT_TRUE(runs[0].partial());
  EXPECT_EQ(runs[0].rungs, 2u);
  const auto loaded = store.loadRun("interrupted");
  EXPECT_TRUE(loaded.partial);
  ASSERT_EQ(loaded.rungs.size(), 2u);
  expectSameRung(report.rungs[0], loaded.rungs[0]);
  expectSameRung(report.rungs[1], loaded.rungs[1]);
  expectSameHeader(report.header, loaded.header);
  EXPECT_TRUE(store.exportRun("interrupted")["partial"].get<bool>());
}

TEST(RunStore, RunWhoseProcessVanishedStaysRunningAndReadsAsPartial) {
  TempDir dir;
  const auto report = makeReport("vanished", 3);
  {
    auto store = RunStore::open(dir / "runs.sqlite");
    store.beginRun(report.header);
    store.addRung("vanished", report.rungs[0]);
  }  // no finishRun, no markInterrupted: what a killed process leaves
  auto store = RunStore::open(dir / "runs.sqlite");
  const auto summary = store.findRun("vanished");
  ASSERT_TRUE(summary);
  EXPECT_EQ(summary->status, RunStatus::Running);
  EXPECT_TRUE(summary->partial());
  EXPECT_TRUE(store.loadRun("vanished").partial);
  EXPECT_EQ(store.loadRun("vanished").rungs.size(), 1u);
}

TEST(RunStore, DuplicateRunIdIsAUsageError) {
  TempDir dir;
  auto store = RunStore::open(dir / "runs.sqlite");
  const auto report = makeReport("dup", 1);
  store.beginRun(report.header);
  const auto e = catchError([&] { store.beginRun(report.header); });
  EXPECT_EQ(e.kind(), engine::ErrorKind::Usage);
  EXPECT_NE(std::string(e.what()).find("'dup' is already"), std::string::npos) << e.what();
  EXPECT_EQ(catchError([&] { store.addRung("never-begun", makeRung(0)); }).kind(), engine::ErrorKind::Internal);
}

class RunStoreListing : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = RunStore::open(m_db);
    auto add = [&](const std::string& id, const std::string& profile, const std::string& started,
                   const std::vector<std::string>& targets, const std::string& commit, bool partial) {
      auto r = makeReport(id, 1);
      r.header.profileName = profile;
      r.header.environment.startedUtc = started;
      r.header.targets = targets;
      r.header.environment.gitCommit = commit;
      r.partial = partial;
      store.finishRun(r);
    };
    add("run-a", "smoke", "2024-01-01T00:00:00Z", {"builtin"}, "aaaa1111", false);
    add("run-b", "Ladder", "2024-03-01T00:00:00Z", {"synthetic:service_us=200"}, "bbbb2222", true);
    add("run-c", "smoke", "2024-02-01T00:00:00Z", {"builtin", "xapian"}, "cccc3333", false);
    add("run-d", "100% load_test", "2024-04-01T00:00:00Z", {"builtin"}, "dddd4444", false);
  }

  std::vector<std::string> ids(const engine::RunFilter& filter) {
    std::vector<std::string> out;
    for (const auto& s : RunStore::open(m_db).listRuns(filter)) out.push_back(s.runId);
    return out;
  }

  TempDir m_dir;
  std::filesystem::path m_db = m_dir / "runs.sqlite";
};

TEST_F(RunStoreListing, SortsSearchesAndLimits) {
  using V = std::vector<std::string>;
  EXPECT_EQ(ids({}), (V{"run-d", "run-b", "run-c", "run-a"}));  // newest first
  EXPECT_EQ(ids({"", engine::RunSort::Profile, 0}), (V{"run-d", "run-b", "run-c", "run-a"}))
      << "by profile (\"100%...\" < \"Ladder\" < \"smoke\"), newest first within one";
  EXPECT_EQ(ids({"SMOKE", engine::RunSort::Time, 0}), (V{"run-c", "run-a"}));  // case-insensitive
  EXPECT_EQ(ids({"xapian", engine::RunSort::Time, 0}), (V{"run-c"}));           // a target
  EXPECT_EQ(ids({"bbbb22", engine::RunSort::Time, 0}), (V{"run-b"}));           // the commit
  EXPECT_EQ(ids({"", engine::RunSort::Time, 2}), (V{"run-d", "run-b"}));
  EXPECT_EQ(ids({"nothing like it", engine::RunSort::Time, 0}), V{});
  const auto all = RunStore::open(m_db).listRuns();
  EXPECT_EQ(all[1].status, RunStatus::Partial);
  EXPECT_EQ(all[2].targets, (V{"builtin", "xapian"}));
  EXPECT_EQ(all[0].rungs, 1u);
}

TEST_F(RunStoreListing, SearchTextIsDataNotSql) {
  using V = std::vector<std::string>;
  for (const std::string attack :
       {"' OR 1=1 --", "\" OR \"\"=\"", "'); DROP TABLE runs; --", "x' UNION SELECT * FROM schema_version --",
        "[a-z]*", "\\"}) {
    EXPECT_EQ(ids({attack, engine::RunSort::Time, 0}), V{}) << attack;
  }
  // LIKE wildcards are plain characters too: "%" and "_" match only runs that contain them.
  EXPECT_EQ(ids({"%", engine::RunSort::Time, 0}), (V{"run-d"}));
  EXPECT_EQ(ids({"_", engine::RunSort::Time, 0}), (V{"run-d", "run-b"}));
  EXPECT_EQ(ids({"o_d", engine::RunSort::Time, 0}), V{}) << "as a LIKE pattern it would match 'load'";
  auto store = RunStore::open(m_db);
  EXPECT_EQ(catchError([&] { (void)store.loadRun("x' OR '1'='1"); }).kind(), engine::ErrorKind::Usage);
  EXPECT_FALSE(store.deleteRun("' OR 1=1 --"));
  EXPECT_EQ(store.listRuns().size(), 4u);
  EXPECT_EQ(store.integrityCheck(), "ok");
}

TEST_F(RunStoreListing, ResolvesIdsAndPrefixes) {
  auto store = RunStore::open(m_db);
  EXPECT_EQ(store.resolveRunId("run-c"), "run-c");
  EXPECT_EQ(catchError([&] { (void)store.resolveRunId("run-"); }).kind(), engine::ErrorKind::Usage);
}

TEST(RunStore, ResolveRunIdPrefixRules) {
  TempDir dir;
  auto store = RunStore::open(dir / "runs.sqlite");
  store.finishRun(makeReport("20240501T120000Z-aaaa", 0));
  store.finishRun(makeReport("20240501T120000Z-abbb", 0));
  store.finishRun(makeReport("20240601T120000Z-cccc", 0));
  EXPECT_EQ(store.resolveRunId("202406"), "20240601T120000Z-cccc");
  EXPECT_EQ(store.resolveRunId("20240501T120000Z-ab"), "20240501T120000Z-abbb");
  EXPECT_EQ(store.resolveRunId("20240501T120000Z-aaaa"), "20240501T120000Z-aaaa");
  const auto ambiguous = catchError([&] { (void)store.resolveRunId("20240501"); });
  EXPECT_EQ(ambiguous.kind(), engine::ErrorKind::Usage);
  EXPECT_NE(std::string(ambiguous.what()).find("ambiguous"), std::string::npos);
  const auto unknown = catchError([&] { (void)store.resolveRunId("2023"); });
  EXPECT_EQ(unknown.kind(), engine::ErrorKind::Usage);
  EXPECT_NE(std::string(unknown.what()).find("no run '2023'"), std::string::npos) << unknown.what();
  EXPECT_EQ(catchError([&] { (void)store.resolveRunId("%"); }).kind(), engine::ErrorKind::Usage);
}

TEST(RunStore, DeleteRemovesTheRunWithItsRungsAndTargets) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  {
    auto store = RunStore::open(db);
    store.finishRun(makeReport("keep", 2));
    store.finishRun(makeReport("drop", 4));
    EXPECT_TRUE(store.deleteRun("drop"));
    EXPECT_FALSE(store.deleteRun("drop"));
    EXPECT_FALSE(store.findRun("drop"));
    EXPECT_EQ(store.listRuns().size(), 1u);
    EXPECT_EQ(store.integrityCheck(), "ok");
    EXPECT_EQ(catchError([&] { (void)store.exportRun("drop"); }).kind(), engine::ErrorKind::Usage);
  }
  EXPECT_EQ(countRows(db, "SELECT count(*) FROM rungs"), 2);
  EXPECT_EQ(countRows(db, "SELECT count(*) FROM run_targets"), 3);
}

TEST(RunStore, GarbageFileIsAClearErrorNamingTheFileAndIsLeftAlone) {
  TempDir dir;
  std::string garbage;
  for (int i = 0; i < 300; ++i) garbage.append("this is not a database, it is a text file. ");
  const auto db = dir.write("runs.sqlite", garbage);
  const auto e = catchError([&] { (void)RunStore::open(db); });
  EXPECT_EQ(e.kind(), engine::ErrorKind::BadInput);
  const std::string message = e.what();
  EXPECT_NE(message.find(db.string()), std::string::npos) << message;
  EXPECT_NE(message.find("not a database"), std::string::npos) << message;
  EXPECT_EQ(readFile(db), garbage);
  EXPECT_FALSE(std::filesystem::exists(dir / "runs.sqlite-wal"));
}

TEST(RunStore, ForeignSqliteDatabaseIsRefusedUntouched) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  {
    engine::SqliteDb other(db, engine::SqliteDb::OpenMode::ReadWriteCreate);
    other.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL)");
  }
  const auto before = readFile(db);
  const auto e = catchError([&] { (void)RunStore::open(db); });
  EXPECT_EQ(e.kind(), engine::ErrorKind::BadInput);
  EXPECT_NE(std::string(e.what()).find(db.string() + ": not a Wandscope run store"), std::string::npos) << e.what();
  EXPECT_EQ(readFile(db), before) << "not switched to WAL, no tables added";

  // Another application's id, even without tables.
  const auto db2 = dir / "other.sqlite";
  {
    engine::SqliteDb other(db2, engine::SqliteDb::OpenMode::ReadWriteCreate);
    other.exec("PRAGMA application_id = 42");
  }
  const auto e2 = catchError([&] { (void)RunStore::open(db2); });
  EXPECT_EQ(e2.kind(), engine::ErrorKind::BadInput);
  EXPECT_NE(std::string(e2.what()).find("application id 42"), std::string::npos) << e2.what();
}

TEST(RunStore, DamagedStoreIsABadInputErrorNotACrash) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  {
    auto store = RunStore::open(db);
    for (int i = 0; i < 20; ++i) store.finishRun(makeReport(std::string("run-") + std::to_string(i), 5));
  }
  // Keep page 1 (the header and the schema), overwrite every later page.
  std::string bytes = readFile(db);
  ASSERT_GT(bytes.size(), 8192u);
  for (std::size_t i = 4096; i < bytes.size(); ++i) bytes[i] = static_cast<char>(0xA5 ^ (i & 0xff));
  std::ofstream(db, std::ios::binary | std::ios::trunc) << bytes;
  const auto e = catchError([&] {
    auto store = RunStore::open(db);
    for (const auto& s : store.listRuns()) (void)store.loadRun(s.runId);
  });
  EXPECT_EQ(e.kind(), engine::ErrorKind::BadInput) << e.what();
  EXPECT_NE(std::string(e.what()).find(db.string()), std::string::npos) << e.what();
}

// Review: `runs export --format json` wrote a run whose stored rung said "completed": "many" with
// exit 0, while show and the CSV export refused it. exportRun reads the documents through the
// codec as loadRun does, and refuses the same way, naming the store and the run.
TEST(RunStore, ExportRefusesADamagedRungAsLoadDoes) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  RunStore::open(db).finishRun(makeReport("damaged", 2));
  {
    engine::SqliteDb raw(db, engine::SqliteDb::OpenMode::ReadWrite);
    raw.exec("UPDATE rungs SET rung_json = json_set(rung_json, '$.completed', 'many') WHERE seq = "
             "(SELECT MAX(seq) FROM rungs)");
  }
  const auto store = RunStore::open(db);
  const auto loaded = catchError([&] { (void)store.loadRun("damaged"); });
  EXPECT_EQ(loaded.kind(), engine::ErrorKind::BadInput) << loaded.what();
  const auto exported = catchError([&] { (void)store.exportRun("damaged"); });
  EXPECT_EQ(exported.kind(), engine::ErrorKind::BadInput) << exported.what();
  for (const auto* e : {&loaded, &exported}) {
    EXPECT_NE(std::string(e->what()).find(db.string() + ": run damaged, rung #1 (2nd of 2 stored): completed"), std::string::npos)
        << e->what();
  }
}

// Damages the stored document of rung `position` (0-based) of run `runId`: `sql` is the new
// rung_json, an SQL expression over the old one.
void damageRung(const std::filesystem::path& db, const std::string& runId, int position, const std::string& sql) {
  engine::SqliteDb raw(db, engine::SqliteDb::OpenMode::ReadWrite);
  const std::string update = "UPDATE rungs SET rung_json = " + sql + " WHERE run = (SELECT id FROM runs WHERE run_id = '" + runId +
           "') AND seq = (SELECT seq FROM rungs r WHERE r.run = rungs.run ORDER BY seq LIMIT 1 OFFSET " +
                             std::to_string(position) + ")";
  raw.exec(update.c_str());
}

// One damaged rung made the whole run unreadable: the History page and `runs show` refused it, the
// other rungs out of sight. Viewing leaves it out, marks the run partial and says which rung and why.
TEST(RunStore, ViewingARunLeavesOutADamagedRungAndSaysWhichAndWhy) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  const auto report = makeReport("damaged", 4);
  RunStore::open(db).finishRun(report);
  damageRung(db, "damaged", 1, "json_set(rung_json, '$.completed', 'many')");
  damageRung(db, "damaged", 3, "'{not json'");
  const auto store = RunStore::open(db);

  const auto loaded = store.loadRun("damaged", engine::DamagedParts::LeaveOut);
  ASSERT_EQ(loaded.rungs.size(), 2u);
  expectSameRung(report.rungs[0], loaded.rungs[0]);
  expectSameRung(report.rungs[2], loaded.rungs[1]);
  EXPECT_TRUE(loaded.partial);
  EXPECT_EQ(loaded.partsLeftOut, 2u);
  EXPECT_EQ(loaded.rungsLeftOut, 2u);
  EXPECT_EQ(loaded.capacity.size(), report.capacity.size()) << "the run's end is intact";
  ASSERT_EQ(loaded.warnings.size(), report.warnings.size() + 2);
  const std::string& second = loaded.warnings[report.warnings.size()];
  EXPECT_NE(second.find("rung #1 (2nd of 4 stored) could not be read from the store and is left out"), std::string::npos) << second;
  EXPECT_NE(second.find(db.string() + ": run damaged, rung #1 (2nd of 4 stored): completed"), std::string::npos) << second;
  const std::string& fourth = loaded.warnings.back();
  EXPECT_NE(fourth.find("rung #3 (4th of 4 stored) could not be read"), std::string::npos) << fourth;
  EXPECT_NE(fourth.find("is not a JSON object"), std::string::npos) << fourth;

  // The JSON view says the same, and `runs import` reads it back as what was shown.
  const auto exported = store.exportRun("damaged", engine::DamagedParts::LeaveOut);
  EXPECT_EQ(exported["rungs"].size(), 2u);
  EXPECT_EQ(exported["partial"], true);
  expectSameReport(loaded, engine::RunCodec::reportFromJson(exported, "export"));

  // A copy (export, CSV) still refuses: it must not pass for the whole run.
  EXPECT_EQ(catchError([&] { (void)store.exportRun("damaged"); }).kind(), engine::ErrorKind::BadInput);
  EXPECT_EQ(catchError([&] { (void)store.loadRun("damaged"); }).kind(), engine::ErrorKind::BadInput);
}

TEST(RunStore, ViewingARunWithADamagedEndKeepsItsRungsAndDropsOnlyTheEnd) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  const auto report = makeReport("end", 3);
  RunStore::open(db).finishRun(report);
  engine::SqliteDb(db, engine::SqliteDb::OpenMode::ReadWrite)
      .exec("UPDATE runs SET result_json = json_set(result_json, '$.capacity', 'lots')");
  const auto store = RunStore::open(db);
  const auto loaded = store.loadRun("end", engine::DamagedParts::LeaveOut);
  ASSERT_EQ(loaded.rungs.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) expectSameRung(report.rungs[i], loaded.rungs[i]);
  EXPECT_TRUE(loaded.partial);
  EXPECT_EQ(loaded.partsLeftOut, 1u);
  EXPECT_EQ(loaded.rungsLeftOut, 0u);
  EXPECT_TRUE(loaded.capacity.empty()) << "nothing of a refused end is half-read";
  ASSERT_EQ(loaded.warnings.size(), 1u) << "the end's own warnings went with it";
  EXPECT_NE(loaded.warnings[0].find("the run's end (capacity, calibration, saturation rule, warnings) could not be read"),
            std::string::npos)
      << loaded.warnings[0];
  EXPECT_NE(loaded.warnings[0].find("capacity"), std::string::npos) << loaded.warnings[0];
  const auto exported = store.exportRun("end", engine::DamagedParts::LeaveOut);
  expectSameReport(loaded, engine::RunCodec::reportFromJson(exported, "export"));
  // Refused, the message names the part as it names a rung (it said "run end: capacity ...").
  for (const auto& e : {catchError([&] { (void)store.loadRun("end"); }), catchError([&] { (void)store.exportRun("end"); })}) {
    EXPECT_NE(std::string(e.what()).find(": run end, the run's end (capacity, calibration, saturation rule, warnings): capacity"),
              std::string::npos)
        << e.what();
  }
}

TEST(RunStore, ADamagedHeaderIsRefusedEvenWhenViewing) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  RunStore::open(db).finishRun(makeReport("head", 2));
  engine::SqliteDb(db, engine::SqliteDb::OpenMode::ReadWrite).exec("UPDATE runs SET header_json = '[]'");
  const auto store = RunStore::open(db);
  for (const auto damaged : {engine::DamagedParts::Refuse, engine::DamagedParts::LeaveOut}) {
    const auto e = catchError([&] { (void)store.loadRun("head", damaged); });
    EXPECT_EQ(e.kind(), engine::ErrorKind::BadInput);
    EXPECT_NE(std::string(e.what()).find("the stored header is not a JSON object"), std::string::npos) << e.what();
    EXPECT_EQ(catchError([&] { (void)store.exportRun("head", damaged); }).kind(), engine::ErrorKind::BadInput);
  }
}

// A store missing one of its tables (an older tool's damage, a hand edit) failed `runs list` as an
// internal error ("no such table: rungs", exit code 1): it is a bad input file naming the store
// and what is missing.
TEST(RunStore, StoreMissingATableIsBadInputNamingFileAndTable) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  RunStore::open(db).finishRun(makeReport("kept", 2));
  {
    engine::SqliteDb raw(db, engine::SqliteDb::OpenMode::ReadWrite);
    raw.exec("DROP TABLE rungs");
  }
  const auto e = catchError([&] { (void)RunStore::open(db).listRuns(); });
  EXPECT_EQ(e.kind(), engine::ErrorKind::BadInput) << e.what();
  EXPECT_NE(std::string(e.what()).find(db.string() + ": cannot read: no such table: rungs"), std::string::npos)
      << e.what();
  EXPECT_NE(std::string(e.what()).find("damaged run store"), std::string::npos) << e.what();
}

// In WAL mode SQLite must create runs.sqlite-wal and -shm beside the store even to read it: in a
// directory the user may not write, `runs list` failed with "attempt to write a readonly database"
// (exit code 1), which points at the file. The directory is named instead. Run in a child as an
// ordinary user when the tests run as root (root writes anywhere).
TEST(RunStore, UnwritableDirectoryIsSaidNamingIt) {
  constexpr uid_t kStoreTestNobody = 65534;
  TempDir dir;
  ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);
  const auto sub = dir / "readonly";
  std::filesystem::create_directory(sub);
  const auto db = sub / "runs.sqlite";
  RunStore::open(db).finishRun(makeReport("kept", 2));
  ASSERT_FALSE(std::filesystem::exists(sub / "runs.sqlite-wal")) << "closed cleanly: no WAL left to read";
  const bool root = ::geteuid() == 0;
  if (root) {
    ASSERT_EQ(::chown(sub.c_str(), kStoreTestNobody, kStoreTestNobody), 0);
    ASSERT_EQ(::chown(db.c_str(), kStoreTestNobody, kStoreTestNobody), 0);
  }
  ASSERT_EQ(::chmod(sub.c_str(), 0555), 0);
  // A forked child (the helper's limit, 1024 open files, is one the store never nears).
  const auto r = runWithResourceLimit(RLIMIT_NOFILE, 1024, [&] {
    if (root && (::setgid(kStoreTestNobody) != 0 || ::setuid(kStoreTestNobody) != 0)) {
      throw std::runtime_error("setuid is not allowed here");
    }
    (void)RunStore::open(db).listRuns();
  });
  ::chmod(sub.c_str(), 0755);
  if (r.exitCode == 2 && root) GTEST_SKIP() << "cannot act as an ordinary user here";
  EXPECT_EQ(r.exitCode, 1) << r.out;
  EXPECT_EQ(r.out.rfind("i/o: " + db.string() + ": cannot open the run store: its directory " + sub.string() +
                            " is not writable",
                        0),
            0u)
      << r.out;
  EXPECT_NE(r.out.find("runs.sqlite-wal"), std::string::npos) << r.out;
  EXPECT_EQ(RunStore::open(db).listRuns().size(), 1u) << "the store is untouched";
}

TEST(RunStore, EmptyFileIsANewStore) {
  TempDir dir;
  const auto db = dir.write("runs.sqlite", "");
  auto store = RunStore::open(db);
  EXPECT_EQ(store.schemaVersion(), engine::runStoreSchemaVersion());
  EXPECT_TRUE(store.listRuns().empty());
}

TEST(RunStore, ConcurrentReaderSeesWholeRungsWhileAWriterCommits) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  constexpr std::uint32_t kRungs = 60;
  const auto report = makeReport("concurrent", kRungs);
  auto writerStore = RunStore::open(db);
  writerStore.beginRun(report.header);
  std::atomic<bool> done{false};
  std::size_t readerPasses = 0;
  std::size_t lastSeen = 0;
  std::string readerFailure;
  std::thread reader([&] {
    try {
      auto store = RunStore::open(db);  // its own connection
      bool last = false;
      while (!last) {
        last = done.load();  // one more pass after the writer finished
        const auto loaded = store.loadRun("concurrent");
        const auto summary = store.findRun("concurrent");
        if (loaded.rungs.size() < lastSeen) readerFailure = "rung count went backwards";
        lastSeen = loaded.rungs.size();
        for (std::size_t i = 0; i < loaded.rungs.size(); ++i) {
          if (engine::RunCodec::toJson(loaded.rungs[i]) != engine::RunCodec::toJson(report.rungs[i])) {
            readerFailure = std::string("rung ") + std::to_string(i) + " differs";
          }
        }
        if (!summary || summary->rungs < loaded.rungs.size()) readerFailure = "summary behind the report";
        ++readerPasses;
      }
    } catch (const std::exception& e) {
      readerFailure = e.what();
    }
  });
  for (const auto& rung : report.rungs) writerStore.addRung("concurrent", rung);
  writerStore.finishRun(report);
  done = true;
  reader.join();
  EXPECT_EQ(readerFailure, "");
  EXPECT_GE(readerPasses, 1u);
  EXPECT_EQ(lastSeen, kRungs);
  expectSameReport(report, writerStore.loadRun("concurrent"));
}

TEST(RunStore, TwoWritersInterleaveRunsWithoutLoss) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  std::string failure;
  auto write = [&](const std::string& id) {
    try {
      const auto report = makeReport(id, 25);
      recordRun(db, report);
    } catch (const std::exception& e) {
      failure = e.what();
    }
  };
  std::thread a(write, "writer-a");
  std::thread b(write, "writer-b");
  a.join();
  b.join();
  ASSERT_EQ(failure, "");
  auto store = RunStore::open(db);
  expectSameReport(makeReport("writer-a", 25), store.loadRun("writer-a"));
  expectSameReport(makeReport("writer-b", 25), store.loadRun("writer-b"));
}

TEST(RunStore, DefaultPathFollowsXdgDataHome) {
  const char* old = std::getenv("XDG_DATA_HOME");
  const std::string saved = old != nullptr ? old : "";
  ::setenv("XDG_DATA_HOME", "/tmp/xdg-test-data", 1);
  EXPECT_EQ(RunStore::defaultPath(), std::filesystem::path("/tmp/xdg-test-data/wandscope/runs.sqlite"));
  if (old != nullptr) {
    ::setenv("XDG_DATA_HOME", saved.c_str(), 1);
  } else {
    ::unsetenv("XDG_DATA_HOME");
  }
}

}  // namespace
}  // namespace wandscope::test
