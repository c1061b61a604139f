// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/peers/xapian_peer.h"

#include "engine/core/error.h"

#include <fmt/format.h>
#include <xapian.h>

#include <cstdlib>

namespace wandscope::engine {
namespace fs = std::filesystem;
namespace {

// Documents between explicit commits during the build (Xapian's default auto-flush is every
// 10,000 documents; fewer, larger batches build faster at ~1 GiB of buffered postings).
constexpr std::uint64_t kXapianCommitEvery = 50'000;

[[noreturn]] void rethrowXapian(const fs::path& where, const Xapian::Error& e) {
  const std::string message = fmt::format("{}: Xapian: {}: {}", where.string(), e.get_type(), e.get_msg());
  const std::string type = e.get_type();  // Xapian::Error is not polymorphic: compare type names
  if (type == "DatabaseOpeningError" || type == "DatabaseNotFoundError" || type == "DatabaseCorruptError" ||
      type == "DatabaseVersionError") {
    throwIndex(message);
  }
  throwIo(message);
}

class XapianWriter final : public PeerIndexWriter {
 public:
  explicit XapianWriter(const fs::path& dir) : m_dir(dir), m_raw(dir / "xapian.raw") {
    // Read when the WritableDatabase opens; an explicit setting in the environment wins.
    ::setenv("XAPIAN_FLUSH_THRESHOLD", std::to_string(kXapianCommitEvery).c_str(), 0);
    try {
      m_db = Xapian::WritableDatabase(m_raw.string(), Xapian::DB_CREATE_OR_OVERWRITE | Xapian::DB_BACKEND_GLASS);
    } catch (const Xapian::Error& e) {
      rethrowXapian(m_raw, e);
    }
  }

  void add(const std::vector<std::string>& tokens) override {
    try {
      Xapian::Document doc;
      for (const auto& t : tokens) doc.add_term(t);
      m_db.add_document(doc);
      if (++m_docs % kXapianCommitEvery == 0) m_db.commit();
    } catch (const Xapian::Error& e) {
      rethrowXapian(m_raw, e);
    }
  }

  void finish() override {
    try {
      m_db.commit();
      m_db.close();
      // Compaction packs the B-trees full (the state a production index would be searched in).
      Xapian::Database raw(m_raw.string());
      raw.compact((m_dir / "xapian").string(), Xapian::DBCOMPACT_NO_RENUMBER);
      raw.close();
      fs::remove_all(m_raw);
    } catch (const Xapian::Error& e) {
      rethrowXapian(m_dir, e);
    }
  }

  std::string peerVersion() const override { return std::string("Xapian ") + Xapian::version_string(); }
  std::string settings() const override {
    return "glass, compacted; add_term per token (wdf = tf, no positions); BM25Weight(1.2, 0, 1, 0.75, 0)";
  }

 private:
  fs::path m_dir;
  fs::path m_raw;
  Xapian::WritableDatabase m_db;
  std::uint64_t m_docs = 0;
};

class XapianSearcher final : public PeerSearcher {
 public:
  explicit XapianSearcher(const fs::path& path) : m_path(path) {
    try {
      m_db = Xapian::Database(path.string());
      m_enquire = std::make_unique<Xapian::Enquire>(m_db);
      m_enquire->set_weighting_scheme(Xapian::BM25Weight(XapianPeer::kK1, 0, 1, XapianPeer::kB, 0));
    } catch (const Xapian::Error& e) {
      rethrowXapian(path, e);
    }
  }

  void search(const std::vector<std::string>& terms, Operator op, std::size_t k, std::vector<PeerHit>& out) override {
    out.clear();
    if (terms.empty() || k == 0) return;
    try {
      const Xapian::Query query(op == Operator::And ? Xapian::Query::OP_AND : Xapian::Query::OP_OR, terms.begin(),
                                terms.end());
      m_enquire->set_query(query);
      const Xapian::MSet mset = m_enquire->get_mset(0, static_cast<Xapian::doccount>(k));
      out.reserve(mset.size());
      for (auto it = mset.begin(); it != mset.end(); ++it) {
        out.push_back({static_cast<std::uint32_t>(*it - 1), it.get_weight()});
      }
    } catch (const Xapian::Error& e) {
      rethrowXapian(m_path, e);
    }
  }

 private:
  fs::path m_path;
  Xapian::Database m_db;
  std::unique_ptr<Xapian::Enquire> m_enquire;
};

}  // namespace

XapianPeer::XapianPeer(fs::path dir, PeerManifest manifest) : PeerEngine(std::move(dir), std::move(manifest)) {}

std::shared_ptr<const XapianPeer> XapianPeer::open(const fs::path& dir) {
  PeerManifest m = PeerManifest::read(dir, PeerKind::Xapian);
  std::shared_ptr<const XapianPeer> peer(new XapianPeer(dir, std::move(m)));
  (void)peer->openSearcher();  // fails now, naming the directory, rather than on the first query
  return peer;
}

std::unique_ptr<PeerIndexWriter> XapianPeer::createWriter(const fs::path& dir) {
  return std::make_unique<XapianWriter>(dir);
}

std::unique_ptr<PeerSearcher> XapianPeer::openSearcher() const {
  return std::make_unique<XapianSearcher>(databasePath());
}

}  // namespace wandscope::engine
