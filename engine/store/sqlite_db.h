// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A thin RAII layer over one SQLite connection, used only by the run store. It keeps sqlite3.h out
// of every other header and turns every SQLite failure into an engine Error that names the
// database file: "runs.sqlite: cannot read: file is not a database".

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

struct sqlite3;

namespace wandscope::engine {

class SqliteStatement;

class SqliteDb {
 public:
  enum class OpenMode {
    ReadWriteCreate,  // creates the file when it does not exist
    ReadWrite,        // the file must exist
  };

  // Opens `path` with extended result codes, a busy timeout (a concurrent writer holds the write
  // lock for one short transaction at a time, so waiting beats failing), foreign keys on and the
  // defensive settings for files of unknown origin (no writable schema, untrusted schema objects
  // may not call functions with side effects). Nothing is read from the file yet.
  SqliteDb(const std::filesystem::path& path, OpenMode mode);
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  // Runs constant SQL text (schema, pragmas, BEGIN/COMMIT). Never pass text that contains values:
  // values reach SQL only through SqliteStatement's bind calls.
  void exec(const char* sql);
  SqliteStatement prepare(std::string_view sql);

  // The first column of the first row of a constant query (e.g. "PRAGMA journal_mode=WAL").
  std::string queryText(const char* sql);
  std::int64_t queryInt(const char* sql);

  // Rows changed by the last INSERT/UPDATE/DELETE on this connection.
  std::int64_t changes() const noexcept;
  bool inTransaction() const noexcept;

  // Throws the Error for result code `rc` of an operation described by `what` ("cannot read"):
  // not-a-database and corruption are ErrorKind::BadInput, the operating system refusing
  // (open, I/O, full, read-only, locked) is Io, anything else Internal.
  [[noreturn]] void fail(int rc, std::string_view what) const;
  // For a statement that does not compile. Our SQL is constant and every statement is tested, so
  // SQLITE_ERROR here ("no such table: rungs", "no such column: ...") says the file's schema is
  // not the run store's: ErrorKind::BadInput, "runs.sqlite: cannot read: no such table: rungs (a
  // damaged run store, or not one)". Other codes as fail(rc, "cannot read").
  [[noreturn]] void failToPrepare(int rc) const;
  // The primary result code (SQLITE_BUSY, ...) of the last fail() on this connection, so callers
  // that retry decide on the code, never on the message text; SQLITE_OK when nothing failed.
  int lastFailure() const noexcept { return m_lastFailure; }

  const std::filesystem::path& path() const noexcept { return m_path; }
  sqlite3* handle() const noexcept { return m_db; }

 private:
  std::filesystem::path m_path;
  sqlite3* m_db = nullptr;
  mutable int m_lastFailure = 0;  // SQLITE_OK
};

// A transaction: ROLLBACK on destruction unless commit() was called. Not nestable.
// Write: BEGIN IMMEDIATE, taking the write lock up front so a transaction that reads before it
// writes never fails half-way with SQLITE_BUSY. Read: BEGIN (deferred): every statement inside
// sees the same snapshot of the file (WAL), whatever writers commit meanwhile.
class SqliteTransaction {
 public:
  enum class Kind { Read, Write };
  explicit SqliteTransaction(SqliteDb& db, Kind kind = Kind::Write);
  ~SqliteTransaction();
  SqliteTransaction(const SqliteTransaction&) = delete;
  SqliteTransaction& operator=(const SqliteTransaction&) = delete;

  void commit();

 private:
  SqliteDb& m_db;
  bool m_done = false;
};

}  // namespace wandscope::engine
