// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/peers/peer_engine.h"

#include "engine/core/error.h"
#include "engine/core/fs_util.h"
#include "engine/corpus/corpus_reader.h"
#include "engine/peers/fts5_peer.h"
#include "engine/peers/peer_index_writer.h"
#include "engine/peers/xapian_peer.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <fstream>
#include <mutex>
#include <string_view>
#include <thread>

namespace wandscope::engine {
namespace fs = std::filesystem;
namespace {

// Analyzed documents travel from the reading thread to the writing thread in batches, so the
// analyzer and the peer's indexer run on two cores.
struct Batch {
  std::vector<std::string> ids;
  std::vector<std::vector<std::string>> tokens;
  std::uint64_t bytesConsumed = 0;
};

class BatchQueue {
 public:
  // False when cancelled (the consumer failed): the producer stops.
  bool push(Batch b) {
    std::unique_lock lock(m_mutex);
    m_notFull.wait(lock, [&] { return m_items.size() < kCapacity || m_cancelled; });
    if (m_cancelled) return false;
    m_items.push_back(std::move(b));
    m_notEmpty.notify_one();
    return true;
  }
  // False at the end (closed and drained) or when cancelled.
  bool pop(Batch& out) {
    std::unique_lock lock(m_mutex);
    m_notEmpty.wait(lock, [&] { return !m_items.empty() || m_closed || m_cancelled; });
    if (m_cancelled || m_items.empty()) return false;
    out = std::move(m_items.front());
    m_items.pop_front();
    m_notFull.notify_one();
    return true;
  }
  void close() {
    std::lock_guard lock(m_mutex);
    m_closed = true;
    m_notEmpty.notify_all();
  }
  void cancel() {
    std::lock_guard lock(m_mutex);
    m_cancelled = true;
    m_notEmpty.notify_all();
    m_notFull.notify_all();
  }

 private:
  static constexpr std::size_t kCapacity = 8;
  std::mutex m_mutex;
  std::condition_variable m_notEmpty, m_notFull;
  std::deque<Batch> m_items;
  bool m_closed = false;
  bool m_cancelled = false;
};

std::uint64_t distinctCount(const std::vector<std::string>& tokens, std::vector<std::string_view>& scratch) {
  scratch.assign(tokens.begin(), tokens.end());
  std::sort(scratch.begin(), scratch.end());
  return static_cast<std::uint64_t>(std::unique(scratch.begin(), scratch.end()) - scratch.begin());
}

std::uint64_t directoryBytes(const fs::path& dir) {
  std::uint64_t total = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const auto name = e.path().filename().string();
    if (name == PeerManifest::kIdsFileName || name == PeerManifest::kFileName) continue;
    total += e.file_size();
  }
  return total;
}

}  // namespace

PeerEngine::PeerEngine(fs::path dir, PeerManifest manifest) : m_dir(std::move(dir)), m_manifest(std::move(manifest)) {
  m_analyzerKind = Analyzer::kindFromIdentity(m_manifest.analyzer);
  const fs::path idsFile = m_dir / PeerManifest::kIdsFileName;
  std::ifstream in(idsFile, std::ios::binary);
  if (!in) throwIndex(fmt::format("{}: missing or unreadable", idsFile.string()));
  m_ids.reserve(m_manifest.docs);
  std::string line;
  while (std::getline(in, line)) m_ids.push_back(line);
  if (m_ids.size() != m_manifest.docs) {
    throwIndex(fmt::format("{}: {} ids, but {} says {} documents", idsFile.string(), m_ids.size(),
                           PeerManifest::kFileName, m_manifest.docs));
  }
}

std::shared_ptr<const PeerEngine> PeerEngine::open(PeerKind kind, const fs::path& dir) {
  switch (kind) {
    case PeerKind::Xapian:
      return XapianPeer::open(dir);
    case PeerKind::Fts5:
      return Fts5Peer::open(dir);
  }
  throwInternal("unknown peer kind");
}

std::shared_ptr<const PeerEngine> PeerEngine::build(PeerKind kind, const PeerBuildOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  if (options.dir.empty()) throwUsage("a peer build needs an output directory");
  const fs::path target = fs::absolute(options.dir);
  // installDirectory swaps out whatever is at target: a user's folder (or one holding the corpus)
  // was deleted whole by "peers build --out" (review, stop 32). Only a peer index is replaced.
  requireReplaceable(target, PeerManifest::kFileName, fmt::format("{} peer index", peerKindName(kind)));
  const fs::path parent = target.parent_path();
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) throwIo(fmt::format("cannot create {}: {}", parent.string(), ec.message()));
  const fs::path staged = makeTempDirectory(parent, target.filename().string() + ".building-");
  try {
    CorpusReader reader(options.corpus, guessCorpusFormat(options.corpus));
    std::unique_ptr<PeerIndexWriter> writer =
        kind == PeerKind::Xapian ? XapianPeer::createWriter(staged) : Fts5Peer::createWriter(staged);
    std::ofstream ids(staged / PeerManifest::kIdsFileName, std::ios::binary);
    if (!ids) throwIo(fmt::format("cannot create {}", (staged / PeerManifest::kIdsFileName).string()));

    BatchQueue queue;
    std::exception_ptr readError;
    std::thread producer([&] {
      try {
        Analyzer analyzer(options.analyzer);
        Document doc;
        Batch batch;
        auto flush = [&] {
          batch.bytesConsumed = reader.bytesConsumed();
          const bool more = queue.push(std::move(batch));
          batch = Batch{};
          return more;
        };
        while (reader.next(doc)) {
          batch.ids.push_back(doc.id);
          auto& tokens = batch.tokens.emplace_back();
          analyzer.analyze(doc.title, tokens);
          analyzer.analyze(doc.text, tokens);
          if (batch.ids.size() == 512 && !flush()) break;
        }
        if (!batch.ids.empty()) (void)flush();
      } catch (...) {
        readError = std::current_exception();
      }
      queue.close();
    });

    PeerManifest m;
    m.kind = kind;
    m.analyzer = Analyzer(options.analyzer).identity();
    m.corpus = options.corpus.string();
    std::exception_ptr writeError;
    try {
      std::vector<std::string_view> scratch;
      Batch batch;
      while (queue.pop(batch)) {
        for (std::size_t i = 0; i < batch.ids.size(); ++i) {
          if (batch.ids[i].find('\n') != std::string::npos) {
            throwBadInput(fmt::format("{}: document id with a line break: '{}'", options.corpus.string(), batch.ids[i]));
          }
          ids << batch.ids[i] << '\n';
          writer->add(batch.tokens[i]);
          m.tokens += batch.tokens[i].size();
          m.postings += distinctCount(batch.tokens[i], scratch);
          ++m.docs;
        }
        if (options.progress) options.progress({"indexing", batch.bytesConsumed, reader.fileSize()});
      }
    } catch (...) {
      writeError = std::current_exception();
      queue.cancel();
    }
    producer.join();
    if (readError) std::rethrow_exception(readError);
    if (writeError) std::rethrow_exception(writeError);
    if (m.docs > 0xfffffffeULL) throwUsage(fmt::format("{}: more than 2^32-2 documents", options.corpus.string()));
    ids.close();
    if (!ids) throwIo(fmt::format("cannot write {}", (staged / PeerManifest::kIdsFileName).string()));
    if (options.progress) options.progress({"merging", 0, 0});
    writer->finish();
    m.peerVersion = writer->peerVersion();
    m.settings = writer->settings();
    writer.reset();
    m.indexBytes = directoryBytes(staged);
    m.buildSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    m.write(staged);
    installDirectory(staged, target);
  } catch (...) {
    fs::remove_all(staged, ec);
    throw;
  }
  return open(kind, target);
}

std::vector<std::string> peerQueryTerms(Analyzer& analyzer, std::string_view text) {
  std::vector<std::string> tokens;
  analyzer.analyze(text, tokens);
  std::vector<std::string> terms;
  for (auto& t : tokens) {
    if (std::find(terms.begin(), terms.end(), t) == terms.end()) terms.push_back(std::move(t));
  }
  return terms;
}

}  // namespace wandscope::engine
