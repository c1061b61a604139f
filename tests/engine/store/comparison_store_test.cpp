// SPDX-License-Identifier: GPL-3.0-or-later
// Comparisons in the run store (schema version 2; version 3 adds the further targets of n-target
// comparisons): save, list, load and export round trips, the upgrade of version 1 and 2 stores,
// and the codec that reads a compare report.json back, old two-target ones included.
#include "engine/store/run_store.h"

#include "engine/bench/compare_report_writer.h"
#include "engine/core/error.h"
#include "engine/store/run_codec.h"
#include "engine/store/schema_migrations.h"
#include "engine/store/sqlite_db.h"
#include "engine/store/sqlite_statement.h"
#include "tests/engine/bench/compare_test_data.h"
#include "tests/engine/store/store_test_data.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace wandscope::test {
namespace {

using engine::RunStore;

TEST(ComparisonStore, SavedComparisonLoadsBackAndRendersTheSameReports) {
  TempDir dir;
  auto store = RunStore::open(dir / "runs.sqlite");
  for (const char* mode : {"closed", "open"}) {
    SCOPED_TRACE(mode);
    const auto report = makeCompareReport(std::string("cmp-") + mode, mode);
    store.saveComparison(report);
    const auto loaded = store.loadComparison(report.runId);
    // Every field the writer writes survives: all four renderings are identical.
    EXPECT_EQ(engine::compareReportJson(loaded), engine::compareReportJson(report));
    EXPECT_EQ(engine::compareReportMarkdown(loaded), engine::compareReportMarkdown(report));
    EXPECT_EQ(engine::compareReportCsv(loaded), engine::compareReportCsv(report));
    EXPECT_EQ(engine::compareReportHtml(loaded), engine::compareReportHtml(report));
    EXPECT_EQ(store.exportComparison(report.runId), nlohmann::json::parse(engine::compareReportJson(report)));
  }
}

TEST(ComparisonStore, ListShowsTheIndexedColumnsNewestFirst) {
  TempDir dir;
  auto store = RunStore::open(dir / "runs.sqlite");
  EXPECT_TRUE(store.listComparisons().empty());
  auto older = makeCompareReport("cmp-older");
  older.environment.startedUtc = "2024-12-31T00:00:00Z";
  older.partial = true;
  store.saveComparison(older);
  auto newer = makeCompareReport("cmp-newer", "open");
  store.saveComparison(newer);
  store.finishRun(makeReport("a-run", 1));  // runs and comparisons do not mix
  const auto list = store.listComparisons();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(store.listRuns().size(), 1u);
  EXPECT_EQ(list[0].compareId, "cmp-newer");
  EXPECT_EQ(list[0].mode, "open");
  EXPECT_FALSE(list[0].partial);
  EXPECT_FALSE(list[0].aa);
  EXPECT_TRUE(list[0].resultsDiffer);  // one query set's equality row differs
  const auto& c = list[1];
  EXPECT_EQ(c.compareId, "cmp-older");
  EXPECT_EQ(c.startedUtc, "2024-12-31T00:00:00Z");
  EXPECT_EQ(c.profileName, older.profileName);
  EXPECT_EQ(c.mode, "closed");
  EXPECT_EQ(c.aSpec, "builtin");
  EXPECT_EQ(c.aBuildId, older.a.buildId);
  EXPECT_EQ(c.bSpec, older.b.spec);
  EXPECT_EQ(c.bBuildId, older.b.buildId);
  EXPECT_TRUE(c.aa);
  EXPECT_TRUE(c.partial);
  EXPECT_EQ(c.scenarios, 4u);
  EXPECT_TRUE(c.resultsDiffer);
  EXPECT_FALSE(c.storedUtc.empty());
  EXPECT_EQ(store.listComparisons(1).size(), 1u);
  EXPECT_TRUE(store.loadComparison("cmp-older").partial);
}

TEST(ComparisonStore, SavingAgainReplacesAndIdsResolveLikeRunIds) {
  TempDir dir;
  auto store = RunStore::open(dir / "runs.sqlite");
  auto report = makeCompareReport("cmp-20250102-aaaa");
  report.partial = true;
  store.saveComparison(report);
  report.partial = false;
  store.saveComparison(report);
  ASSERT_EQ(store.listComparisons().size(), 1u);
  EXPECT_FALSE(store.listComparisons()[0].partial);
  store.saveComparison(makeCompareReport("cmp-20250102-bbbb"));
  EXPECT_EQ(store.resolveComparisonId("cmp-20250102-a"), "cmp-20250102-aaaa");
  EXPECT_EQ(store.resolveComparisonId("cmp-20250102-aaaa"), "cmp-20250102-aaaa");
  for (const char* bad : {"cmp-2025", "nothing", ""}) {
    try {
      (void)store.resolveComparisonId(bad);
      ADD_FAILURE() << bad;
    } catch (const engine::Error& e) {
      EXPECT_EQ(e.kind(), engine::ErrorKind::Usage) << e.what();
    }
  }
  try {
    (void)store.loadComparison("nothing");
    ADD_FAILURE();
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("no comparison 'nothing'"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(store.deleteComparison("cmp-20250102-aaaa"));
  EXPECT_FALSE(store.deleteComparison("cmp-20250102-aaaa"));
  EXPECT_EQ(store.listComparisons().size(), 1u);
}

TEST(ComparisonStore, DamagedDocumentIsBadInputNamingTheStore) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  RunStore::open(db).saveComparison(makeCompareReport("cmp-bad"));
  {
    engine::SqliteDb raw(db, engine::SqliteDb::OpenMode::ReadWrite);
    raw.exec("UPDATE comparisons SET report_json = '{\"kind\": \"compare\", \"scenarios\": 7}'");
  }
  try {
    (void)RunStore::open(db).loadComparison("cmp-bad");
    ADD_FAILURE();
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::BadInput);
    EXPECT_NE(std::string(e.what()).find(db.string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("scenarios must be an array"), std::string::npos) << e.what();
  }
}

// A comparison of three targets: stored, listed with every B, loaded back whole, deleted.
TEST(ComparisonStore, ThreeTargetComparisonRoundTripsAndLists) {
  TempDir dir;
  auto store = RunStore::open(dir / "runs.sqlite");
  for (const char* mode : {"closed", "open"}) {
    SCOPED_TRACE(mode);
    const auto report = makeCompareReport3(std::string("cmp3-") + mode, mode);
    store.saveComparison(report);
    const auto loaded = store.loadComparison(report.runId);
    ASSERT_EQ(loaded.targetCount(), 3u);
    EXPECT_EQ(loaded.more[0].spec, "builtin:bulk_and=off");
    EXPECT_EQ(engine::compareReportJson(loaded), engine::compareReportJson(report));
    EXPECT_EQ(engine::compareReportMarkdown(loaded), engine::compareReportMarkdown(report));
    EXPECT_EQ(engine::compareReportCsv(loaded), engine::compareReportCsv(report));
  }
  store.saveComparison(makeCompareReport("cmp2"));
  const auto list = store.listComparisons();
  ASSERT_EQ(list.size(), 3u);
  for (const auto& c : list) {
    SCOPED_TRACE(c.compareId);
    EXPECT_EQ(c.moreSpecs, c.compareId == "cmp2" ? std::vector<std::string>{}
                                                 : std::vector<std::string>{"builtin:bulk_and=off"});
  }
  EXPECT_TRUE(store.deleteComparison("cmp3-closed"));
  EXPECT_EQ(store.listComparisons().size(), 2u);
}

// report.json as the two-target build wrote it (schema 1: no targets[], no scenario `target`):
// read as A against its one B, rendered as before.
TEST(ComparisonStore, SchemaOneTwoTargetReportStillReads) {
  const auto j = nlohmann::json::parse(R"({
    "schema_version": 1, "kind": "compare", "run_id": "cmp-old", "profile": "old",
    "a": {"spec": "builtin", "build_id": "0.3.0+abc", "detail": "gcc"},
    "b": {"spec": "builtin:bulk_and=off", "build_id": "0.3.0+abc", "detail": "gcc"},
    "method": {"text": "ABBA", "repetitions": 3, "warmup_s": 1, "bootstrap_samples": 2000, "noise_floor": 0.02,
               "aa": false},
    "scenarios": [
      {"name": "mid-df-2, CPU ms/query", "query_set": "mid-df-2", "metric": "cpu_ms_per_query",
       "offered_rate": null, "a": 0.5, "b": 0.4, "a_geomean": 0.45, "b_geomean": 0.36, "ratio": 1.25,
       "ci_low": 1.2, "ci_high": 1.3, "noise_floor": 0.02, "verdict": "faster", "queries": 30,
       "samples_per_query": 6, "row_set_diff": 0, "score_bit_diff": 0, "order_diff": 0, "failed_queries": 0,
       "first_diverging_rank": null, "differing_queries": [], "results_differ": false}],
    "aa_scenarios": [], "warnings": [], "partial": false, "mode": "closed"})");
  const auto r = engine::RunCodec::compareReportFromJson(j, "old.json");
  EXPECT_EQ(r.targetCount(), 2u);
  EXPECT_EQ(r.warmPasses, 0u) << "no warm passes were run before they existed";
  EXPECT_EQ(r.b.spec, "builtin:bulk_and=off");
  ASSERT_EQ(r.scenarios.size(), 1u);
  EXPECT_EQ(r.scenarios[0].target, 1u);
  const std::string md = engine::compareReportMarkdown(r);
  EXPECT_NE(md.find("| Scenario / metric | A: builtin | B: builtin:bulk_and=off | Benefit vs A | 95 % CI | Verdict |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| mid-df-2, CPU ms/query | 0.5 ms | 0.4 ms | 1.250x speedup"), std::string::npos) << md;

  // Stored by the two-target build (a version 2 store, its row without more_specs): upgraded,
  // listed, opened and deleted as before.
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  {
    engine::SqliteDb raw(db, engine::SqliteDb::OpenMode::ReadWriteCreate);
    ASSERT_EQ(engine::migrateSchema(raw, engine::runStoreMigrations().first(2)), 0);
    auto st = raw.prepare(
        "INSERT INTO comparisons (compare_id, profile_name, started_utc, mode, a_spec, a_build_id, b_spec, "
        "b_build_id, aa, partial, scenarios, results_differ, hostname, git_commit, report_json, stored_utc) VALUES "
        "('cmp-old', 'old', '2025-01-01T00:00:00Z', 'closed', 'builtin', '0.3.0+abc', 'builtin:bulk_and=off', "
        "'0.3.0+abc', 0, 0, 1, 0, 'host', 'abc', ?1, '2025-01-01T00:00:00Z')");
    st.bindText(1, j.dump()).run();
  }
  auto store = RunStore::open(db);
  EXPECT_EQ(store.schemaVersion(), engine::runStoreSchemaVersion());
  const auto list = store.listComparisons();
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].bSpec, "builtin:bulk_and=off");
  EXPECT_TRUE(list[0].moreSpecs.empty());
  EXPECT_EQ(engine::compareReportMarkdown(store.loadComparison("cmp-old")), md);
  EXPECT_TRUE(store.deleteComparison("cmp-old"));
}

TEST(ComparisonStore, CodecRefusesARunReportAndANewerSchema) {
  EXPECT_THROW((void)engine::RunCodec::compareReportFromJson({{"kind", "run"}}, "x.json"), engine::Error);
  EXPECT_THROW((void)engine::RunCodec::compareReportFromJson(
                   {{"kind", "compare"}, {"schema_version", engine::CompareReport::kSchemaVersion + 1}}, "x.json"),
               engine::Error);
}

// A store as the build before comparisons wrote it: schema version 1 only, holding `run` in the
// version 1 tables (the run's documents plus their indexed columns, as RunStore wrote them).
void makeVersionOneStore(const std::filesystem::path& db, const engine::RunReport& run) {
  engine::SqliteDb raw(db, engine::SqliteDb::OpenMode::ReadWriteCreate);
  ASSERT_EQ(engine::migrateSchema(raw, engine::runStoreMigrations().first(1)), 0);
  ASSERT_EQ(engine::readSchemaVersion(raw), 1);
  const auto& h = run.header;
  auto st = raw.prepare(
      "INSERT INTO runs (run_id, profile_name, profile_json, started_utc, hostname, git_commit, status, "
      "header_json, result_json, stored_utc, finished_utc) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'complete', ?7, ?8, "
      "'2025-01-01T00:00:00Z', '2025-01-01T00:01:00Z')");
  st.bindText(1, h.runId)
      .bindText(2, h.profileName)
      .bindText(3, h.profileJson)
      .bindText(4, h.environment.startedUtc)
      .bindText(5, h.environment.hostname)
      .bindText(6, h.environment.gitCommit)
      .bindText(7, engine::RunCodec::toJson(h).dump())
      .bindText(8, engine::RunCodec::runEndToJson(run).dump())
      .run();
  const std::int64_t id = raw.queryInt("SELECT id FROM runs");
  for (std::size_t i = 0; i < h.targets.size(); ++i) {
    auto t = raw.prepare("INSERT INTO run_targets (run, position, target) VALUES (?1, ?2, ?3)");
    t.bindInt(1, id).bindInt(2, static_cast<std::int64_t>(i)).bindText(3, h.targets[i]).run();
  }
  for (std::size_t i = 0; i < run.rungs.size(); ++i) {
    const auto& r = run.rungs[i];
    auto g = raw.prepare(
        "INSERT INTO rungs (run, seq, rung_index, target, mode, concurrency, completed, shed, errors, "
        "cpu_ms_per_query, valid, verdict, rung_json, stored_utc) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, 0, 0, 0, 1, ?7, "
        "?8, '2025-01-01T00:00:30Z')");
    g.bindInt(1, id)
        .bindInt(2, static_cast<std::int64_t>(i))
        .bindInt(3, r.index)
        .bindText(4, r.target)
        .bindText(5, r.mode)
        .bindInt(6, r.concurrency)
        .bindText(7, r.verdict)
        .bindText(8, engine::RunCodec::toJson(r).dump())
        .run();
  }
}

// Opening a version 1 store upgrades it to the latest version: its runs untouched, comparisons
// storable.
TEST(ComparisonStore, VersionOneStoreIsUpgradedKeepingItsRuns) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  const auto run = makeReport("old-run", 3);
  makeVersionOneStore(db, run);
  {
    engine::SqliteDb raw(db, engine::SqliteDb::OpenMode::ReadWrite);
    EXPECT_EQ(raw.queryInt("SELECT count(*) FROM sqlite_schema WHERE name = 'comparisons'"), 0);
  }
  auto store = RunStore::open(db);
  EXPECT_EQ(store.schemaVersion(), engine::runStoreSchemaVersion());
  ASSERT_EQ(store.listRuns().size(), 1u);
  expectSameReport(run, store.loadRun("old-run"));
  EXPECT_TRUE(store.listComparisons().empty());
  store.saveComparison(makeCompareReport("cmp-after-upgrade"));
  EXPECT_EQ(store.listComparisons().size(), 1u);
  EXPECT_EQ(store.integrityCheck(), "ok");
  engine::SqliteDb raw(db, engine::SqliteDb::OpenMode::ReadWrite);
  EXPECT_EQ(raw.queryInt("SELECT count(*) FROM schema_version"), engine::runStoreSchemaVersion());
  EXPECT_EQ(raw.queryText("SELECT description FROM schema_version WHERE version = 2"),
            engine::runStoreMigrations()[1].description);
}

}  // namespace
}  // namespace wandscope::test
