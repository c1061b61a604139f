// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/store/schema_migrations.h"

#include "engine/core/error.h"
#include "engine/store/sqlite_db.h"
#include "engine/store/sqlite_statement.h"

#include <sqlite3.h>

#include <array>
#include <string>

namespace wandscope::engine {
namespace {

// Pragmas take no bound parameters; this literal is kRunStoreApplicationId (checked by a test).
constexpr const char* kSetApplicationId = "PRAGMA application_id = 1465074514";
static_assert(kRunStoreApplicationId == 1465074514);

// Version 1. Every run keeps the documents the codec wrote (header_json, result_json and each
// rung's rung_json) next to a few indexed columns: the documents are what loadRun() and export
// read, so fields added to the run types later are stored and exported without a schema change;
// the columns only serve listing, searching and sorting.
//
// No json_valid() CHECKs: the connection runs with trusted_schema=OFF (files of unknown origin),
// under which SQLite 3.40 refuses JSON functions in the schema. The codec is the only writer.
//
// Rungs are keyed by arrival order (`seq`), not by RungResult::index, so a runner that repeats or
// leaves indexes unset still loses nothing. Runs are deleted with their rungs and targets
// (ON DELETE CASCADE; the connection enables foreign keys).
void migrateToV1(SqliteDb& db) {
  db.exec(R"sql(
    CREATE TABLE runs (
      id            INTEGER PRIMARY KEY,
      run_id        TEXT NOT NULL UNIQUE,
      profile_name  TEXT NOT NULL,
      profile_json  TEXT NOT NULL,
      started_utc   TEXT NOT NULL,
      hostname      TEXT NOT NULL,
      git_commit    TEXT NOT NULL,
      status        TEXT NOT NULL CHECK (status IN ('running', 'partial', 'complete')),
      header_json   TEXT NOT NULL,
      result_json   TEXT,
      stored_utc    TEXT NOT NULL,
      finished_utc  TEXT
    ) STRICT;
    CREATE INDEX runs_by_started ON runs (started_utc);
    CREATE INDEX runs_by_profile ON runs (profile_name, started_utc);

    CREATE TABLE run_targets (
      run       INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
      position  INTEGER NOT NULL,
      target    TEXT NOT NULL,
      PRIMARY KEY (run, position)
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE rungs (
      run               INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
      seq               INTEGER NOT NULL,
      rung_index        INTEGER NOT NULL,
      target            TEXT NOT NULL,
      mode              TEXT NOT NULL,
      target_rate       REAL,
      concurrency       INTEGER NOT NULL,
      achieved_rate     REAL,
      completed         INTEGER NOT NULL,
      shed              INTEGER NOT NULL,
      errors            INTEGER NOT NULL,
      duration_s        REAL,
      p50_ms            REAL,
      p99_ms            REAL,
      p999_ms           REAL,
      cpu_ms_per_query  REAL,
      valid             INTEGER NOT NULL,
      verdict           TEXT NOT NULL,
      rung_json         TEXT NOT NULL,
      stored_utc        TEXT NOT NULL,
      PRIMARY KEY (run, seq)
    ) STRICT;
  )sql");
}

// Version 2. A/B comparisons (`wandscope-cli compare`, the workbench's Compare page): as with
// runs, the document is the compare report.json itself (report_json, rendered again as md, csv
// and html on export), next to the columns the listing shows. A comparison is one document
// written once when it ends (finished or interrupted: partial = 1), so it needs no child tables.
void migrateToV2(SqliteDb& db) {
  db.exec(R"sql(
    CREATE TABLE comparisons (
      id              INTEGER PRIMARY KEY,
      compare_id      TEXT NOT NULL UNIQUE,
      profile_name    TEXT NOT NULL,
      started_utc     TEXT NOT NULL,
      mode            TEXT NOT NULL,
      a_spec          TEXT NOT NULL,
      a_build_id      TEXT NOT NULL,
      b_spec          TEXT NOT NULL,
      b_build_id      TEXT NOT NULL,
      aa              INTEGER NOT NULL,
      partial         INTEGER NOT NULL,
      scenarios       INTEGER NOT NULL,
      results_differ  INTEGER NOT NULL,
      hostname        TEXT NOT NULL,
      git_commit      TEXT NOT NULL,
      report_json     TEXT NOT NULL,
      stored_utc      TEXT NOT NULL
    ) STRICT;
    CREATE INDEX comparisons_by_started ON comparisons (started_utc);
  )sql");
}

// Version 3. Comparisons of more than two targets: the specs of B2, B3, ... for the listing, as a
// JSON array ('' for a two-target comparison, as every row written before has). The document
// (report_json) has them all already.
void migrateToV3(SqliteDb& db) {
  db.exec(R"sql(
    ALTER TABLE comparisons ADD COLUMN more_specs TEXT NOT NULL DEFAULT '';
  )sql");
}

constexpr std::array kMigrations{
    SchemaMigration{1, "runs, run_targets, rungs (documents plus indexed columns)", &migrateToV1},
    SchemaMigration{2, "comparisons (compare report documents plus indexed columns)", &migrateToV2},
    SchemaMigration{3, "comparisons.more_specs (the further targets of n-target comparisons)", &migrateToV3},
};

[[noreturn]] void refuseNewer(const SqliteDb& db, int found, int latest) {
  std::string message = db.path().string();
  message.append(": written by a newer Wandscope (run store schema version ");
  message.append(std::to_string(found));
  message.append(", this build knows up to ");
  message.append(std::to_string(latest));
  message.append("); use a newer wandscope-cli or another --db");
  throwBadInput(message);
}

[[noreturn]] void refuseForeign(const SqliteDb& db, const std::string& why) {
  std::string message = db.path().string();
  message.append(": not a Wandscope run store (");
  message.append(why);
  message.append(")");
  throwBadInput(message);
}

}  // namespace

std::span<const SchemaMigration> runStoreMigrations() { return kMigrations; }

int runStoreSchemaVersion() { return kMigrations.back().version; }

int readSchemaVersion(SqliteDb& db) {
  // The first read of the file: a file that is not a database fails here (SQLITE_NOTADB), before
  // anything could be written to it.
  const std::int64_t applicationId = db.queryInt("PRAGMA application_id");
  const std::int64_t objects = db.queryInt("SELECT count(*) FROM sqlite_schema");
  if (objects == 0 && (applicationId == 0 || applicationId == kRunStoreApplicationId)) {
    return 0;  // a new, empty database: version 0
  }
  if (applicationId != kRunStoreApplicationId) {
    if (applicationId != 0) {
      std::string why = "SQLite application id ";
      why.append(std::to_string(applicationId));
      refuseForeign(db, why);
    }
    refuseForeign(db, "a SQLite database with other tables");
  }
  std::int64_t rows = 0;
  std::int64_t version = 0;
  try {
    auto st = db.prepare("SELECT count(*), coalesce(max(version), 0) FROM schema_version");
    if (st.step()) {
      rows = st.columnInt(0);
      version = st.columnInt(1);
    }
  } catch (const Error& e) {
    // I/O trouble or corruption: already named. A statement that does not compile (no such table,
    // a BadInput since SqliteDb::failToPrepare) is the case for the message below.
    if (e.kind() != ErrorKind::Internal && db.lastFailure() != SQLITE_ERROR) throw;
    refuseForeign(db, "a damaged run store without a readable schema_version table");
  }
  if (rows == 0) refuseForeign(db, "its schema_version table is empty");
  if (version < 1 || version > 1000000) refuseForeign(db, "its schema_version table is damaged");
  return static_cast<int>(version);
}

int migrateSchema(SqliteDb& db, std::span<const SchemaMigration> migrations) {
  if (migrations.empty()) throwInternal("migrateSchema: no migrations");
  for (std::size_t i = 0; i < migrations.size(); ++i) {
    if (migrations[i].version != static_cast<int>(i) + 1) {
      throwInternal("migrateSchema: migration versions must be 1, 2, 3, ... in order");
    }
  }
  const int latest = migrations.back().version;
  int found = 0;
  bool recheckUnderLock = false;
  try {
    // One read snapshot for the check: outside a transaction the application id and the table
    // count are two reads, and a process migrating between them makes a new store look foreign.
    SqliteTransaction snapshot(db, SqliteTransaction::Kind::Read);
    found = readSchemaVersion(db);
    snapshot.commit();
  } catch (const Error& e) {
    // A store another process is creating right now can still look foreign to a reader (the
    // switch to WAL and the first migration are separate commits); only the write lock, which
    // waits for that process, gives the final answer.
    if (e.kind() != ErrorKind::BadInput) throw;
    recheckUnderLock = true;
  }
  if (!recheckUnderLock) {
    if (found > latest) refuseNewer(db, found, latest);
    if (found == latest) return found;
  }

  SqliteTransaction transaction(db);
  found = readSchemaVersion(db);  // another process may have migrated while we waited for the lock
  if (found > latest) refuseNewer(db, found, latest);
  if (found == latest) return found;
  db.exec(R"sql(
    CREATE TABLE IF NOT EXISTS schema_version (
      version      INTEGER PRIMARY KEY,
      description  TEXT NOT NULL,
      applied_utc  TEXT NOT NULL
    ) STRICT
  )sql");
  auto record = db.prepare(
      "INSERT INTO schema_version (version, description, applied_utc) "
      "VALUES (?1, ?2, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))");
  for (const auto& step : migrations) {
    if (step.version <= found) continue;
    try {
      step.apply(db);
    } catch (const Error& e) {
      std::string message = "cannot migrate the run store to schema version ";
      message.append(std::to_string(step.version));
      message.append(": ");
      message.append(e.what());
      throw Error(e.kind(), message);
    }
    record.reset();
    record.bindInt(1, step.version).bindText(2, step.description).run();
  }
  db.exec(kSetApplicationId);
  transaction.commit();
  return found;
}

}  // namespace wandscope::engine
