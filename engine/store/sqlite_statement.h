// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A prepared statement of a SqliteDb. Parameters are numbered from 1 as in SQL (`?1`, `?2`);
// columns from 0. Typical use:
//
//   auto st = db.prepare("SELECT profile_name FROM runs WHERE run_id = ?1");
//   st.bindText(1, runId);
//   while (st.step()) use(st.columnText(0));

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3_stmt;

namespace wandscope::engine {

class SqliteDb;

class SqliteStatement {
 public:
  SqliteStatement(SqliteDb& db, std::string_view sql);
  ~SqliteStatement();
  SqliteStatement(SqliteStatement&& other) noexcept;
  SqliteStatement& operator=(SqliteStatement&& other) noexcept;
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  // Binding copies the value (SQLITE_TRANSIENT), so temporaries are fine. A NaN double is stored
  // as NULL (SQLite's rule).
  SqliteStatement& bindInt(int index, std::int64_t value);
  SqliteStatement& bindDouble(int index, double value);
  SqliteStatement& bindOptionalDouble(int index, const std::optional<double>& value);
  SqliteStatement& bindText(int index, std::string_view value);
  SqliteStatement& bindNull(int index);

  // Advances to the next row: true when a row is available, false when the statement is done.
  bool step();
  // Runs a statement that returns no rows (INSERT/UPDATE/DELETE/DDL) to completion.
  void run();
  // Makes the statement runnable again, keeping its bindings.
  void reset();

  bool columnIsNull(int column) const;
  std::int64_t columnInt(int column) const;
  double columnDouble(int column) const;
  std::string columnText(int column) const;  // "" for NULL

 private:
  SqliteDb* m_db = nullptr;
  sqlite3_stmt* m_stmt = nullptr;
};

}  // namespace wandscope::engine
