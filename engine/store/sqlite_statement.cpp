// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/store/sqlite_statement.h"

#include "engine/store/sqlite_db.h"

#include <sqlite3.h>

#include <cstdint>
#include <utility>

namespace wandscope::engine {
namespace {

// SQLITE_TRANSIENT without the old-style cast of its macro: SQLite copies the bound value.
sqlite3_destructor_type transient() {
  return reinterpret_cast<sqlite3_destructor_type>(static_cast<std::intptr_t>(-1));
}

}  // namespace

SqliteStatement::SqliteStatement(SqliteDb& db, std::string_view sql) : m_db(&db) {
  const int rc = sqlite3_prepare_v2(db.handle(), sql.data(), static_cast<int>(sql.size()), &m_stmt, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(m_stmt);
    m_stmt = nullptr;
    db.failToPrepare(rc);
  }
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(m_stmt); }

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : m_db(other.m_db), m_stmt(std::exchange(other.m_stmt, nullptr)) {}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(m_stmt);
    m_db = other.m_db;
    m_stmt = std::exchange(other.m_stmt, nullptr);
  }
  return *this;
}

SqliteStatement& SqliteStatement::bindInt(int index, std::int64_t value) {
  const int rc = sqlite3_bind_int64(m_stmt, index, value);
  if (rc != SQLITE_OK) m_db->fail(rc, "cannot bind a parameter");
  return *this;
}

SqliteStatement& SqliteStatement::bindDouble(int index, double value) {
  const int rc = sqlite3_bind_double(m_stmt, index, value);
  if (rc != SQLITE_OK) m_db->fail(rc, "cannot bind a parameter");
  return *this;
}

SqliteStatement& SqliteStatement::bindOptionalDouble(int index, const std::optional<double>& value) {
  return value ? bindDouble(index, *value) : bindNull(index);
}

SqliteStatement& SqliteStatement::bindText(int index, std::string_view value) {
  // A null data pointer would bind NULL, not the empty string.
  const char* data = value.data() != nullptr ? value.data() : "";
  const int rc = sqlite3_bind_text64(m_stmt, index, data, value.size(), transient(), SQLITE_UTF8);
  if (rc != SQLITE_OK) m_db->fail(rc, "cannot bind a parameter");
  return *this;
}

SqliteStatement& SqliteStatement::bindNull(int index) {
  const int rc = sqlite3_bind_null(m_stmt, index);
  if (rc != SQLITE_OK) m_db->fail(rc, "cannot bind a parameter");
  return *this;
}

bool SqliteStatement::step() {
  const int rc = sqlite3_step(m_stmt);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  const bool reading = sqlite3_stmt_readonly(m_stmt) != 0;
  m_db->fail(rc, reading ? "cannot read" : "cannot write");
}

void SqliteStatement::run() {
  while (step()) {
  }
}

void SqliteStatement::reset() { sqlite3_reset(m_stmt); }

bool SqliteStatement::columnIsNull(int column) const {
  return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

std::int64_t SqliteStatement::columnInt(int column) const { return sqlite3_column_int64(m_stmt, column); }

double SqliteStatement::columnDouble(int column) const { return sqlite3_column_double(m_stmt, column); }

std::string SqliteStatement::columnText(int column) const {
  const unsigned char* text = sqlite3_column_text(m_stmt, column);
  if (text == nullptr) return {};
  const int bytes = sqlite3_column_bytes(m_stmt, column);
  return std::string(reinterpret_cast<const char*>(text), static_cast<std::size_t>(bytes));
}

}  // namespace wandscope::engine
