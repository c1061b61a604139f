// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/store/sqlite_db.h"

#include "engine/core/error.h"
#include "engine/store/sqlite_statement.h"

#include <sqlite3.h>

namespace wandscope::engine {
namespace {

// A writer holds the lock for one rung's transaction (milliseconds); ten seconds of patience means
// only a stuck process, never ordinary contention, surfaces as an error.
constexpr int kBusyTimeoutMs = 10000;

}  // namespace

SqliteDb::SqliteDb(const std::filesystem::path& path, OpenMode mode) : m_path(path) {
  int flags = SQLITE_OPEN_READWRITE;
  if (mode == OpenMode::ReadWriteCreate) flags |= SQLITE_OPEN_CREATE;
  const int rc = sqlite3_open_v2(m_path.c_str(), &m_db, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = m_path.string();
    message.append(": cannot open the run store: ");
    message.append(m_db != nullptr ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc));
    sqlite3_close(m_db);
    m_db = nullptr;
    throwIo(message);
  }
  sqlite3_extended_result_codes(m_db, 1);
  sqlite3_busy_timeout(m_db, kBusyTimeoutMs);
  // The file may come from anywhere (a copied store, a wrong --db): refuse schema edits through
  // pragmas and keep schema objects (views, triggers) from calling side-effecting functions.
  sqlite3_db_config(m_db, SQLITE_DBCONFIG_DEFENSIVE, 1, static_cast<int*>(nullptr));
  sqlite3_db_config(m_db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, static_cast<int*>(nullptr));
  sqlite3_db_config(m_db, SQLITE_DBCONFIG_ENABLE_FKEY, 1, static_cast<int*>(nullptr));
}

SqliteDb::~SqliteDb() {
  // sqlite3_close_v2 finalises lazily if a statement were still alive; all of ours are RAII.
  if (m_db != nullptr) sqlite3_close_v2(m_db);
}

void SqliteDb::exec(const char* sql) {
  const int rc = sqlite3_exec(m_db, sql, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) fail(rc, "cannot update");
}

SqliteStatement SqliteDb::prepare(std::string_view sql) { return SqliteStatement(*this, sql); }

std::string SqliteDb::queryText(const char* sql) {
  auto st = prepare(sql);
  return st.step() ? st.columnText(0) : std::string();
}

std::int64_t SqliteDb::queryInt(const char* sql) {
  auto st = prepare(sql);
  return st.step() ? st.columnInt(0) : 0;
}

std::int64_t SqliteDb::changes() const noexcept { return sqlite3_changes64(m_db); }

bool SqliteDb::inTransaction() const noexcept { return sqlite3_get_autocommit(m_db) == 0; }

void SqliteDb::fail(int rc, std::string_view what) const {
  m_lastFailure = rc & 0xff;
  std::string message = m_path.string();
  message.append(": ");
  message.append(what);
  message.append(": ");
  message.append(m_db != nullptr ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc));
  switch (rc & 0xff) {
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
    case SQLITE_FORMAT:
      message.append(" (not a Wandscope run store, or a damaged one)");
      throwBadInput(message);
    case SQLITE_CANTOPEN:
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_NOLFS:
    case SQLITE_PROTOCOL:
      throwIo(message);
    default:
      throwInternal(message);
  }
}

void SqliteDb::failToPrepare(int rc) const {
  if ((rc & 0xff) != SQLITE_ERROR) fail(rc, "cannot read");
  m_lastFailure = SQLITE_ERROR;
  std::string message = m_path.string();
  message.append(": cannot read: ");
  message.append(sqlite3_errmsg(m_db));
  message.append(" (a damaged run store, or not one)");
  throwBadInput(message);
}

SqliteTransaction::SqliteTransaction(SqliteDb& db, Kind kind) : m_db(db) {
  m_db.exec(kind == Kind::Write ? "BEGIN IMMEDIATE" : "BEGIN");
}

SqliteTransaction::~SqliteTransaction() {
  if (!m_done && m_db.inTransaction()) {
    // Nothing useful can be done about a failed rollback here; SQLite rolls back the hot journal
    // (WAL frames without a commit record) on the next open in any case.
    sqlite3_exec(m_db.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
  }
}

void SqliteTransaction::commit() {
  m_db.exec("COMMIT");
  m_done = true;
}

}  // namespace wandscope::engine
