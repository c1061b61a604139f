// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/index/index_writer.h"

#include "engine/core/error.h"
#include "engine/core/fs_util.h"
#include "engine/core/log.h"
#include "engine/index/bounds_writer.h"
#include "engine/index/chunk_inverter.h"
#include "engine/index/format.h"
#include "engine/index/segment_reader.h"
#include "engine/index/segment_writer.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <set>
#include <thread>

namespace wandscope::engine {
namespace {
using Clock = std::chrono::steady_clock;
constexpr std::size_t kCommitChunkDocs = 8192;  // a multiple of format::kDocsPerStoreChunk
}  // namespace

IndexWriter::IndexWriter(const std::filesystem::path& dir, unsigned threads)
    : m_dir(dir), m_threads(threads == 0 ? std::max(1u, std::thread::hardware_concurrency()) : threads) {
  m_manifest = readCurrentManifest(dir);
  const auto lockPath = dir / "LOCK";
  m_lockFd = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (m_lockFd < 0) throwErrno("cannot open " + lockPath.string());
  if (::flock(m_lockFd, LOCK_EX | LOCK_NB) != 0) {
    ::close(m_lockFd);
    m_lockFd = -1;
    throwIndex(dir.string() + ": another writer holds the index (LOCK)");
  }
  // The CURRENT we read before taking the lock may be stale: read it again under the lock.
  m_manifest = readCurrentManifest(dir);
  for (std::size_t s = 0; s < m_manifest.segments.size(); ++s) {
    SegmentReader seg(dir, m_manifest.segments[s], static_cast<std::uint32_t>(s), false);
    for (DocId d = seg.docBase(); d < seg.docBase() + seg.docCount(); ++d) m_ids.emplace(seg.externalId(d));
  }
  removeUnreferencedFiles();
}

IndexWriter::~IndexWriter() {
  if (m_lockFd >= 0) ::close(m_lockFd);  // releases the flock
}

void IndexWriter::addDocument(Document doc) {
  if (doc.id.empty()) throwBadInput("a document added to " + m_dir.string() + " has an empty id");
  if (!m_ids.insert(doc.id).second) {
    throwBadInput("document id " + doc.id + " is already in " + m_dir.string());
  }
  if (m_manifest.docs + m_pending.size() >= kMaxDocs) throwBadInput("the index is full (2^32 - 2 documents)");
  m_pending.push_back(std::move(doc));
}

CommitStats IndexWriter::commit() {
  CommitStats stats;
  stats.lockAcquired = Clock::now();
  Manifest next = m_manifest;
  next.generation = m_manifest.generation + 1;
  stats.generation = next.generation;
  stats.documentsAdded = m_pending.size();

  try {
    // 1. The new documents as one segment.
    if (!m_pending.empty()) {
      std::uint32_t id = 0;
      for (const auto& s : next.segments) id = std::max(id, s.id + 1);
      stats.segmentId = id;
      ChunkInverter inverter(Analyzer::kindFromIdentity(next.analyzer), next.storeText);
      std::vector<std::unique_ptr<InvertedChunk>> chunks;
      const auto docBase = static_cast<DocId>(next.docs);
      for (std::size_t begin = 0; begin < m_pending.size(); begin += kCommitChunkDocs) {
        const std::size_t end = std::min(m_pending.size(), begin + kCommitChunkDocs);
        const std::vector<Document> batch(std::make_move_iterator(m_pending.begin() + static_cast<std::ptrdiff_t>(begin)),
                                          std::make_move_iterator(m_pending.begin() + static_cast<std::ptrdiff_t>(end)));
        chunks.push_back(inverter.invert(batch, docBase + static_cast<DocId>(begin)));
      }
      std::vector<const InvertedChunk*> view;
      for (const auto& c : chunks) view.push_back(c.get());
      SegmentInfo info = writeSegment(m_dir, id, view, next.storeText);
      next.docs += info.docCount;
      next.totalTokens += info.totalTokens;
      next.segments.push_back(std::move(info));
    }
    stats.invertSeconds = std::chrono::duration<double>(Clock::now() - stats.lockAcquired).count();

    // 2. Block maxima of every segment for the new statistics, segments in parallel.
    const auto boundsStart = Clock::now();
    const Bm25 bm25(next.bm25, next.docs, next.totalTokens);
    std::atomic<std::size_t> nextSegment{0};
    std::vector<std::exception_ptr> errors(next.segments.size());
    {
      std::vector<std::jthread> workers;
      const unsigned n = std::min<unsigned>(m_threads, static_cast<unsigned>(std::max<std::size_t>(1, next.segments.size())));
      for (unsigned w = 0; w < n; ++w) {
        workers.emplace_back([&] {
          for (std::size_t s = nextSegment++; s < next.segments.size(); s = nextSegment++) {
            try {
              SegmentReader seg(m_dir, next.segments[s], static_cast<std::uint32_t>(s), false);
              next.segments[s].files["bounds"] = writeSegmentBounds(m_dir, seg, bm25, next.generation);
            } catch (...) {
              errors[s] = std::current_exception();
            }
          }
        });
      }
    }
    for (const auto& e : errors) {
      if (e) std::rethrow_exception(e);
    }
    stats.boundsSeconds = std::chrono::duration<double>(Clock::now() - boundsStart).count();

    // 3. The new generation becomes visible in one atomic rename of CURRENT.
    writeManifest(m_dir, next);
  } catch (...) {
    // Nothing references the new files: the previous generation stays live; tidy up.
    m_pending.clear();
    try {
      removeUnreferencedFiles();
    } catch (...) {
    }
    throw;
  }
  m_manifest = std::move(next);
  m_pending.clear();
  stats.lockReleased = Clock::now();
  stats.totalSeconds = std::chrono::duration<double>(stats.lockReleased - stats.lockAcquired).count();
  removeUnreferencedFiles();
  return stats;
}

void IndexWriter::removeUnreferencedFiles() {
  // Keep the live generation and the one before it (a reader may have read CURRENT just before
  // the switch and still be opening the previous manifest's files).
  std::set<std::string> keep = {"CURRENT", "LOCK", manifestFileName(m_manifest.generation)};
  auto keepManifest = [&](const Manifest& m) {
    for (const auto& s : m.segments) {
      for (const auto& [kind, f] : s.files) keep.insert(f.name);
    }
  };
  keepManifest(m_manifest);
  if (m_manifest.generation > 1) {
    const std::string previous = manifestFileName(m_manifest.generation - 1);
    std::error_code ec;
    if (std::filesystem::exists(m_dir / previous, ec)) {
      try {
        keepManifest(Manifest::parse(readWholeFile(m_dir / previous), previous));
        keep.insert(previous);
      } catch (const Error&) {
        // An unreadable previous manifest is garbage like any other.
      }
    }
  }
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(m_dir, ec)) {
    const std::string name = entry.path().filename().string();
    const bool ours = name.rfind("seg-", 0) == 0 || name.rfind("MANIFEST-", 0) == 0 ||
                      name.find(".tmp.") != std::string::npos;
    if (ours && keep.count(name) == 0) {
      std::filesystem::remove(entry.path(), ec);
      if (ec) log::warn("cannot remove " + entry.path().string() + ": " + ec.message());
    }
  }
}

}  // namespace wandscope::engine
