// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/peers/fts5_peer.h"

#include "engine/core/error.h"

#include <fmt/format.h>
#include <sqlite3.h>

namespace wandscope::engine {
namespace fs = std::filesystem;
namespace {

constexpr std::uint64_t kFts5CommitEvery = 50'000;

[[noreturn]] void fail(const fs::path& file, sqlite3* db, const std::string& what) {
  throwIo(fmt::format("{}: SQLite: {}: {}", file.string(), what, db != nullptr ? sqlite3_errmsg(db) : "out of memory"));
}

void exec(const fs::path& file, sqlite3* db, const char* sql) {
  char* error = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string message = error != nullptr ? error : sqlite3_errmsg(db);
    sqlite3_free(error);
    throwIo(fmt::format("{}: SQLite: {}: {}", file.string(), sql, message));
  }
}

class Fts5Writer final : public PeerIndexWriter {
 public:
  explicit Fts5Writer(const fs::path& dir) : m_file(dir / "fts5.db") {
    if (sqlite3_open_v2(m_file.c_str(), &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK) {
      const std::string message = m_db != nullptr ? sqlite3_errmsg(m_db) : "out of memory";
      sqlite3_close(m_db);
      m_db = nullptr;
      throwIo(fmt::format("{}: SQLite: cannot create: {}", m_file.string(), message));
    }
    exec(m_file, m_db, "PRAGMA journal_mode=OFF");
    exec(m_file, m_db, "PRAGMA synchronous=OFF");
    exec(m_file, m_db, "PRAGMA cache_size=-262144");
    exec(m_file, m_db, "CREATE VIRTUAL TABLE docs USING fts5(body, tokenize='ascii', detail=full)");
    exec(m_file, m_db, "BEGIN");
    if (sqlite3_prepare_v2(m_db, "INSERT INTO docs(rowid, body) VALUES(?1, ?2)", -1, &m_insert, nullptr) != SQLITE_OK) {
      fail(m_file, m_db, "prepare insert");
    }
  }
  ~Fts5Writer() override {
    sqlite3_finalize(m_insert);
    sqlite3_close(m_db);
  }
  Fts5Writer(const Fts5Writer&) = delete;
  Fts5Writer& operator=(const Fts5Writer&) = delete;

  void add(const std::vector<std::string>& tokens) override {
    m_body.clear();
    for (const auto& t : tokens) {
      if (!m_body.empty()) m_body.push_back(' ');
      m_body.append(t);
    }
    ++m_docs;
    sqlite3_bind_int64(m_insert, 1, static_cast<sqlite3_int64>(m_docs));
    sqlite3_bind_text(m_insert, 2, m_body.data(), static_cast<int>(m_body.size()), SQLITE_STATIC);
    if (sqlite3_step(m_insert) != SQLITE_DONE) fail(m_file, m_db, "insert");
    sqlite3_reset(m_insert);
    if (m_docs % kFts5CommitEvery == 0) {
      exec(m_file, m_db, "COMMIT");
      exec(m_file, m_db, "BEGIN");
    }
  }

  void finish() override {
    exec(m_file, m_db, "COMMIT");
    // One merged b-tree segment: the state a production index would be searched in.
    exec(m_file, m_db, "INSERT INTO docs(docs) VALUES('optimize')");
    exec(m_file, m_db, "VACUUM");
    sqlite3_finalize(m_insert);
    m_insert = nullptr;
    if (sqlite3_close(m_db) != SQLITE_OK) fail(m_file, m_db, "close");
    m_db = nullptr;
  }

  std::string peerVersion() const override { return std::string("SQLite ") + sqlite3_libversion(); }
  std::string settings() const override {
    return "fts5(body, tokenize='ascii', detail=full), optimized; ORDER BY rank (bm25, k1 = 1.2, b = 0.75)";
  }

 private:
  fs::path m_file;
  sqlite3* m_db = nullptr;
  sqlite3_stmt* m_insert = nullptr;
  std::string m_body;
  std::uint64_t m_docs = 0;
};

class Fts5Searcher final : public PeerSearcher {
 public:
  explicit Fts5Searcher(const fs::path& file) : m_file(file) {
    if (sqlite3_open_v2(file.c_str(), &m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
      const std::string message = m_db != nullptr ? sqlite3_errmsg(m_db) : "out of memory";
      sqlite3_close(m_db);
      m_db = nullptr;
      throwIndex(fmt::format("{}: SQLite: cannot open: {}", file.string(), message));
    }
    try {
      // Map the file (as our engine does) instead of copying pages into SQLite's cache.
      exec(file, m_db, "PRAGMA mmap_size=68719476736");
      if (sqlite3_prepare_v3(m_db, "SELECT rowid, rank FROM docs WHERE docs MATCH ?1 ORDER BY rank LIMIT ?2", -1,
                             SQLITE_PREPARE_PERSISTENT, &m_select, nullptr) != SQLITE_OK) {
        throwIndex(fmt::format("{}: SQLite: not an FTS5 peer index: {}", file.string(), sqlite3_errmsg(m_db)));
      }
    } catch (...) {
      sqlite3_close(m_db);
      throw;
    }
  }
  ~Fts5Searcher() override {
    sqlite3_finalize(m_select);
    sqlite3_close(m_db);
  }
  Fts5Searcher(const Fts5Searcher&) = delete;
  Fts5Searcher& operator=(const Fts5Searcher&) = delete;

  void search(const std::vector<std::string>& terms, Operator op, std::size_t k, std::vector<PeerHit>& out) override {
    out.clear();
    if (terms.empty() || k == 0) return;
    m_match = Fts5Peer::matchExpression(terms, op);
    sqlite3_bind_text(m_select, 1, m_match.data(), static_cast<int>(m_match.size()), SQLITE_STATIC);
    sqlite3_bind_int64(m_select, 2, static_cast<sqlite3_int64>(k));
    int rc = 0;
    while ((rc = sqlite3_step(m_select)) == SQLITE_ROW) {
      out.push_back({static_cast<std::uint32_t>(sqlite3_column_int64(m_select, 0) - 1), -sqlite3_column_double(m_select, 1)});
    }
    sqlite3_reset(m_select);
    if (rc != SQLITE_DONE) fail(m_file, m_db, "query '" + m_match + "'");
  }

 private:
  fs::path m_file;
  sqlite3* m_db = nullptr;
  sqlite3_stmt* m_select = nullptr;
  std::string m_match;
};

}  // namespace

Fts5Peer::Fts5Peer(fs::path dir, PeerManifest manifest) : PeerEngine(std::move(dir), std::move(manifest)) {}

std::shared_ptr<const Fts5Peer> Fts5Peer::open(const fs::path& dir) {
  PeerManifest m = PeerManifest::read(dir, PeerKind::Fts5);
  std::shared_ptr<const Fts5Peer> peer(new Fts5Peer(dir, std::move(m)));
  (void)peer->openSearcher();
  return peer;
}

std::unique_ptr<PeerIndexWriter> Fts5Peer::createWriter(const fs::path& dir) { return std::make_unique<Fts5Writer>(dir); }

std::unique_ptr<PeerSearcher> Fts5Peer::openSearcher() const {
  std::error_code ec;
  if (!fs::exists(databasePath(), ec)) throwIndex(fmt::format("{}: missing", databasePath().string()));
  return std::make_unique<Fts5Searcher>(databasePath());
}

std::string Fts5Peer::matchExpression(const std::vector<std::string>& terms, Operator op) {
  std::string out;
  for (const auto& t : terms) {
    if (!out.empty()) out.append(op == Operator::And ? " AND " : " OR ");
    out.push_back('"');
    for (const char c : t) {
      if (c == '"') out.push_back('"');
      out.push_back(c);
    }
    out.push_back('"');
  }
  return out;
}

}  // namespace wandscope::engine
