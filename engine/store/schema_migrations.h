// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The run store's schema history. A database records the steps applied to it in its
// `schema_version` table (one row per step: version, description, when); its version is the
// largest of them. Opening a store applies the missing steps in order; a file whose version is
// newer than this build knows is refused, never touched. docs/STORE.md lists the versions.
//
// Adding schema version N = writing one function `migrateToVN(SqliteDb&)` (ALTER TABLE, new
// tables, backfills; constant SQL plus bound statements) and appending {N, "...", migrateToVN} to
// the list in schema_migrations.cpp (version 2 added the comparisons table this way). Steps never change once released.

#include <cstdint>
#include <span>

namespace wandscope::engine {

class SqliteDb;

struct SchemaMigration {
  int version;              // the version the database has after this step: 1, 2, 3, ... in order
  const char* description;  // recorded in schema_version
  void (*apply)(SqliteDb& db);  // runs inside the migration's transaction
};

// SQLite's header field `application_id` ("WSCR"): marks a file as a Wandscope run store so a
// foreign database is recognised before anything is written to it.
inline constexpr std::int32_t kRunStoreApplicationId = 0x57534352;

// The run store's steps, in order; the last one's version is the current schema version.
std::span<const SchemaMigration> runStoreMigrations();
int runStoreSchemaVersion();

// The schema version of an open database: 0 for an empty one (no tables). A file that is not a
// SQLite database, carries another application id or has tables but is not a run store throws
// ErrorKind::BadInput naming the file.
int readSchemaVersion(SqliteDb& db);

// Brings `db` to the version of the last step of `migrations` and returns the version it found.
// All missing steps run in one IMMEDIATE transaction together with their schema_version rows and
// the application id, so a crash or a failing step leaves the previous version intact, and a
// second process opening the same file at the same moment waits and then finds the work done.
// A version newer than the last step throws ErrorKind::BadInput naming the file (nothing written).
int migrateSchema(SqliteDb& db, std::span<const SchemaMigration> migrations);

}  // namespace wandscope::engine
