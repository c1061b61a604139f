// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/store/schema_migrations.h"

#include "engine/core/error.h"
#include "engine/store/run_store.h"
#include "engine/store/sqlite_db.h"
#include "engine/store/sqlite_statement.h"
#include "tests/engine/store/store_test_data.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

namespace wandscope::test {
namespace {

using engine::SqliteDb;

// A made-up next version, as a future release would add it: a column with a backfill and a table.
void testMigrateToNext(SqliteDb& db) {
  db.exec("ALTER TABLE runs ADD COLUMN note TEXT NOT NULL DEFAULT ''");
  db.exec("UPDATE runs SET note = 'migrated from v1'");
  db.exec("CREATE TABLE run_tags (run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE, tag TEXT NOT NULL)");
}

void failingMigrateToNext(SqliteDb& db) {
  db.exec("CREATE TABLE half_done (x INTEGER)");
  engine::throwIo("disk full (simulated)");
}

// This build's version and the next one a test adds.
const int kCurrent = engine::runStoreSchemaVersion();
const int kNext = kCurrent + 1;

std::vector<engine::SchemaMigration> withNext(void (*next)(SqliteDb&)) {
  std::vector<engine::SchemaMigration> list(engine::runStoreMigrations().begin(), engine::runStoreMigrations().end());
  list.push_back({kNext, "test: runs.note, run_tags", next});
  return list;
}

void makeCurrentStore(const std::filesystem::path& db) {
  auto store = engine::RunStore::open(db);
  store.finishRun(makeReport("old-run", 3));
  ASSERT_EQ(store.schemaVersion(), kCurrent);
}

TEST(SchemaMigrations, NewStoreRecordsEveryStep) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  { auto store = engine::RunStore::open(db); }
  SqliteDb raw(db, SqliteDb::OpenMode::ReadWrite);
  EXPECT_EQ(engine::readSchemaVersion(raw), engine::runStoreSchemaVersion());
  EXPECT_EQ(raw.queryInt("SELECT count(*) FROM schema_version"),
            static_cast<std::int64_t>(engine::runStoreMigrations().size()));
  EXPECT_EQ(raw.queryText("SELECT description FROM schema_version WHERE version = 1"),
            engine::runStoreMigrations()[0].description);
  EXPECT_EQ(engine::migrateSchema(raw, engine::runStoreMigrations()), kCurrent) << "nothing to do the second time";
}

TEST(SchemaMigrations, OlderVersionIsMigratedKeepingItsRuns) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  makeCurrentStore(db);
  const auto list = withNext(&testMigrateToNext);
  {
    SqliteDb raw(db, SqliteDb::OpenMode::ReadWrite);
    EXPECT_EQ(engine::migrateSchema(raw, list), kCurrent);
    EXPECT_EQ(engine::readSchemaVersion(raw), kNext);
    EXPECT_EQ(raw.queryInt("SELECT count(*) FROM schema_version"), kNext);
    EXPECT_EQ(raw.queryText("SELECT note FROM runs WHERE run_id = 'old-run'"), "migrated from v1");
    EXPECT_EQ(raw.queryInt("SELECT count(*) FROM rungs"), 3);
    EXPECT_EQ(engine::migrateSchema(raw, list), kNext);
  }
  // This build does not know the next version: the migrated file is "newer" and refused untouched.
  const auto before = readFile(db);
  try {
    (void)engine::RunStore::open(db);
    FAIL() << "expected an error";
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::BadInput);
    EXPECT_NE(std::string(e.what()).find(db.string() + ": written by a newer Wandscope (run store schema version " +
                                         std::to_string(kNext) + ", this build knows up to " +
                                         std::to_string(kCurrent) + ")"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(readFile(db), before);
}

TEST(SchemaMigrations, FailingStepLeavesThePreviousVersionIntact) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  makeCurrentStore(db);
  {
    SqliteDb raw(db, SqliteDb::OpenMode::ReadWrite);
    try {
      (void)engine::migrateSchema(raw, withNext(&failingMigrateToNext));
      FAIL() << "expected an error";
    } catch (const engine::Error& e) {
      EXPECT_EQ(e.kind(), engine::ErrorKind::Io);
      EXPECT_NE(std::string(e.what()).find("schema version " + std::to_string(kNext)), std::string::npos)
          << e.what();
    }
    EXPECT_EQ(engine::readSchemaVersion(raw), kCurrent);
    EXPECT_EQ(raw.queryInt("SELECT count(*) FROM sqlite_schema WHERE name = 'half_done'"), 0);
  }
  auto store = engine::RunStore::open(db);
  expectSameReport(makeReport("old-run", 3), store.loadRun("old-run"));
}

TEST(SchemaMigrations, NewerVersionIsRefusedWithAMessage) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  makeCurrentStore(db);
  {
    SqliteDb raw(db, SqliteDb::OpenMode::ReadWrite);
    auto st = raw.prepare("INSERT INTO schema_version (version, description, applied_utc) VALUES (?1, ?2, ?3)");
    st.bindInt(1, 99).bindText(2, "from the future").bindText(3, "2099-01-01T00:00:00Z").run();
  }
  const auto before = readFile(db);
  try {
    (void)engine::RunStore::open(db);
    FAIL() << "expected an error";
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::BadInput);
    const std::string message = e.what();
    EXPECT_NE(message.find(db.string()), std::string::npos) << message;
    EXPECT_NE(message.find("newer Wandscope (run store schema version 99"), std::string::npos) << message;
  }
  EXPECT_EQ(readFile(db), before);
}

TEST(SchemaMigrations, HandMadeVersionZeroIsMigrated) {
  // Version 0: a SQLite file with no tables (here one marked as a run store, page size chosen).
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  {
    SqliteDb raw(db, SqliteDb::OpenMode::ReadWriteCreate);
    raw.exec("PRAGMA page_size = 8192");
    raw.exec("PRAGMA application_id = 1465074514");
    raw.exec("VACUUM");
    EXPECT_EQ(engine::readSchemaVersion(raw), 0);
  }
  auto store = engine::RunStore::open(db);
  EXPECT_EQ(store.schemaVersion(), engine::runStoreSchemaVersion());
  store.finishRun(makeReport("fresh", 1));
  EXPECT_EQ(store.listRuns().size(), 1u);
}

TEST(SchemaMigrations, StepsMustBeNumberedInOrder) {
  TempDir dir;
  SqliteDb raw(dir / "x.sqlite", SqliteDb::OpenMode::ReadWriteCreate);
  const std::vector<engine::SchemaMigration> gap = {engine::runStoreMigrations()[0], {3, "gap", &testMigrateToNext}};
  try {
    (void)engine::migrateSchema(raw, gap);
    FAIL() << "expected an error";
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::Internal);
  }
  EXPECT_EQ(engine::readSchemaVersion(raw), 0);
}

TEST(SchemaMigrations, ProcessesOpeningANewFileAtOnceMigrateItOnce) {
  for (int round = 0; round < 3; ++round) {
    TempDir dir;
    const auto db = dir / "runs.sqlite";
    std::vector<std::thread> threads;
    std::vector<std::string> failures(6);
    for (std::size_t t = 0; t < failures.size(); ++t) {
      threads.emplace_back([&, t] {
        try {
          auto store = engine::RunStore::open(db);
          store.finishRun(makeReport(std::string("opener-") + std::to_string(t), 1));
        } catch (const std::exception& e) {
          failures[t] = e.what();
        }
      });
    }
    for (auto& thread : threads) thread.join();
    for (const auto& f : failures) EXPECT_EQ(f, "");
    SqliteDb raw(db, SqliteDb::OpenMode::ReadWrite);
    EXPECT_EQ(raw.queryInt("SELECT count(*) FROM schema_version"), kCurrent);
    EXPECT_EQ(raw.queryInt("SELECT count(*) FROM runs"), 6);
  }
}

}  // namespace
}  // namespace wandscope::test
