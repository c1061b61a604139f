// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/index/index_builder.h"

#include "engine/core/error.h"
#include "engine/core/fs_util.h"
#include "engine/core/log.h"
#include "engine/index/bounds_writer.h"
#include "engine/index/format.h"
#include "engine/index/chunk_inverter.h"
#include "engine/index/segment_reader.h"
#include "engine/index/segment_writer.h"
#include "engine/index/staging_directory.h"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <ctime>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>

#ifndef WANDSCOPE_VERSION
#define WANDSCOPE_VERSION "0.1.0"
#endif

namespace wandscope::engine {
namespace {

using Clock = std::chrono::steady_clock;

// Documents per inverted chunk, the unit of parallel work: big enough to amortise the per-chunk
// sort and merge, small enough to spread a segment over the threads. A multiple of the store
// chunk size, so store chunks stay uniform inside a segment.
constexpr std::uint32_t kChunkDocs = 8192;
static_assert(kChunkDocs % format::kDocsPerStoreChunk == 0);

struct Batch {
  std::uint32_t segmentId = 0;
  std::uint32_t chunkIndex = 0;  // within the segment
  DocId docBase = 0;
  std::vector<Document> docs;
};

// A segment whose chunks are being inverted. The reader closes it (fixing the chunk count) when
// it is full or the corpus ends; whoever completes its last chunk writes it.
struct PendingSegment {
  std::vector<std::unique_ptr<InvertedChunk>> chunks;
  std::uint32_t done = 0;
  std::uint32_t expected = 0;
  bool closed = false;
};

// A small bounded queue: the reader blocks when every worker is busy and one batch is waiting,
// which bounds memory to about (2 * threads) segments of raw text.
class BatchQueue {
 public:
  explicit BatchQueue(std::size_t capacity) : m_capacity(capacity) {}

  bool push(Batch&& batch, const std::atomic<bool>& abort) {
    std::unique_lock lock(m_mutex);
    m_notFull.wait(lock, [&] { return m_items.size() < m_capacity || abort.load(); });
    if (abort.load()) return false;
    m_items.push_back(std::move(batch));
    m_notEmpty.notify_one();
    return true;
  }
  std::optional<Batch> pop(const std::atomic<bool>& abort) {
    std::unique_lock lock(m_mutex);
    m_notEmpty.wait(lock, [&] { return !m_items.empty() || m_closed || abort.load(); });
    if (abort.load() || m_items.empty()) return std::nullopt;
    Batch b = std::move(m_items.front());
    m_items.pop_front();
    m_notFull.notify_one();
    return b;
  }
  void close() {
    std::lock_guard lock(m_mutex);
    m_closed = true;
    m_notEmpty.notify_all();
  }
  void wakeAll() {
    std::lock_guard lock(m_mutex);
    m_notEmpty.notify_all();
    m_notFull.notify_all();
  }

 private:
  std::mutex m_mutex;
  std::condition_variable m_notEmpty;
  std::condition_variable m_notFull;
  std::deque<Batch> m_items;
  std::size_t m_capacity;
  bool m_closed = false;
};

std::string nowUtc() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// Reports progress at most ten times a second.
class ProgressThrottle {
 public:
  explicit ProgressThrottle(const ProgressFn& fn) : m_fn(fn) {}
  void report(const std::string& stage, std::uint64_t done, std::uint64_t total, bool force = false) {
    if (!m_fn) return;
    const auto now = Clock::now();
    if (!force && now - m_last < std::chrono::milliseconds(100)) return;
    m_last = now;
    m_fn(Progress{stage, done, total});
  }

 private:
  const ProgressFn& m_fn;
  Clock::time_point m_last{};
};

}  // namespace

Manifest buildIndex(const IndexBuildOptions& options, const std::filesystem::path& out) {
  validateBm25Params(options.bm25);
  if (options.segmentDocs == 0) throwUsage("segment size must be at least 1 document");
  const unsigned threads = options.threads == 0 ? std::max(1u, std::thread::hardware_concurrency())
                                                : options.threads;
  if (threads > 256) throwUsage(fmt::format("--threads {} is more than 256", threads));
  const auto start = Clock::now();

  CorpusReader reader(options.corpus, options.format, options.badLines, options.maxDocumentBytes);
  const std::filesystem::path parent =
      out.has_parent_path() ? out.parent_path() : std::filesystem::path(".");
  std::error_code ec;
  std::filesystem::create_directories(parent, ec);
  if (ec) throwIo("cannot create " + parent.string() + ": " + ec.message());
  requireReplaceable(out, "CURRENT", "wandscope index");
  const StagingDirectory stagingDirectory(out);  // also removes dead builds' leftovers
  const std::filesystem::path& staging = stagingDirectory.path();

  std::atomic<bool> abort{false};
  std::mutex resultsMutex;
  std::vector<SegmentInfo> segments;
  std::map<std::uint32_t, PendingSegment> pending;
  AnalyzerStats analyzerTotals;
  std::exception_ptr failure;
  BatchQueue queue(2 * static_cast<std::size_t>(threads));
  ProgressThrottle progress(options.progress);

  auto fail = [&](std::exception_ptr e) {
    std::lock_guard lock(resultsMutex);
    if (!failure) failure = e;
    abort = true;
    queue.wakeAll();
  };
  // Writes segment `id` if it is closed and complete; takes its chunks out of `pending` first.
  // Call with resultsMutex held via `lock`; it is released while writing.
  auto writeIfComplete = [&](std::uint32_t id, std::unique_lock<std::mutex>& lock) {
    auto it = pending.find(id);
    if (it == pending.end() || !it->second.closed || it->second.done != it->second.expected) return;
    std::vector<std::unique_ptr<InvertedChunk>> chunks = std::move(it->second.chunks);
    pending.erase(it);
    lock.unlock();
    std::vector<const InvertedChunk*> view;
    AnalyzerStats stats;
    for (const auto& c : chunks) {
      view.push_back(c.get());
      stats.tokens += c->analyzerStats.tokens;
      stats.invalidBytes += c->analyzerStats.invalidBytes;
      stats.overlongTokens += c->analyzerStats.overlongTokens;
      stats.stopWords += c->analyzerStats.stopWords;
    }
    SegmentInfo info = writeSegment(staging, id, view, options.storeText);
    chunks.clear();
    lock.lock();
    segments.push_back(std::move(info));
    analyzerTotals.tokens += stats.tokens;
    analyzerTotals.invalidBytes += stats.invalidBytes;
    analyzerTotals.overlongTokens += stats.overlongTokens;
    analyzerTotals.stopWords += stats.stopWords;
  };

  std::vector<std::jthread> workers;
  for (unsigned w = 0; w < threads; ++w) {
    workers.emplace_back([&] {
      try {
        ChunkInverter inverter(options.analyzer, options.storeText);
        while (auto batch = queue.pop(abort)) {
          if (options.stop.stop_requested()) throwUsage("index build cancelled");
          auto chunk = inverter.invert(batch->docs, batch->docBase);
          batch->docs.clear();
          std::unique_lock lock(resultsMutex);
          auto& seg = pending[batch->segmentId];
          if (seg.chunks.size() <= batch->chunkIndex) seg.chunks.resize(batch->chunkIndex + 1);
          seg.chunks[batch->chunkIndex] = std::move(chunk);
          ++seg.done;
          writeIfComplete(batch->segmentId, lock);
        }
      } catch (...) {
        fail(std::current_exception());
      }
    });
  }

  // The calling thread reads the corpus and cuts it into chunks and segments.
  std::uint64_t docs = 0;
  try {
    std::unordered_map<std::string, std::uint64_t> seenIds;
    Batch batch;
    std::uint32_t segment = 0;
    std::uint32_t chunkIndex = 0;
    std::uint64_t segmentFill = 0;  // documents already in the current segment
    auto closeSegment = [&](std::uint32_t chunks) {
      std::unique_lock lock(resultsMutex);
      auto& seg = pending[segment];
      seg.closed = true;
      seg.expected = chunks;
      if (seg.chunks.size() < chunks) seg.chunks.resize(chunks);
      writeIfComplete(segment, lock);
    };
    Document doc;
    while (!abort.load() && reader.next(doc)) {
      if (options.stop.stop_requested()) throwUsage("index build cancelled");
      if (doc.id.empty()) {
        throwBadInput(fmt::format("{}:{}: empty document id", options.corpus.string(), reader.lineNumber()));
      }
      if (docs >= kMaxDocs) throwBadInput("the corpus has more documents than an index can hold (2^32 - 2)");
      const auto [it, inserted] = seenIds.emplace(doc.id, reader.lineNumber());
      if (!inserted) {
        throwBadInput(fmt::format("{}:{}: duplicate document id {} (first on line {})",
                                  options.corpus.string(), reader.lineNumber(), doc.id, it->second));
      }
      if (batch.docs.empty()) {
        batch.segmentId = segment;
        batch.chunkIndex = chunkIndex;
        batch.docBase = static_cast<DocId>(docs);
      }
      batch.docs.push_back(std::move(doc));
      ++docs;
      ++segmentFill;
      const bool segmentFull = segmentFill == options.segmentDocs;
      if (batch.docs.size() == kChunkDocs || segmentFull) {
        if (!queue.push(std::move(batch), abort)) break;
        batch = Batch{};
        ++chunkIndex;
        if (segmentFull) {
          closeSegment(chunkIndex);
          ++segment;
          chunkIndex = 0;
          segmentFill = 0;
        }
      }
      progress.report("indexing", reader.bytesConsumed(), reader.fileSize());
    }
    if (!abort.load() && !batch.docs.empty()) {
      if (queue.push(std::move(batch), abort)) closeSegment(chunkIndex + 1);
    }
  } catch (...) {
    fail(std::current_exception());
  }
  queue.close();
  workers.clear();  // joins

  // On any failure from here on, stagingDirectory's destructor removes what was staged.
  if (failure) std::rethrow_exception(failure);

  std::sort(segments.begin(), segments.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  Manifest manifest;
  manifest.formatVersion = format::kFormatVersion;
  manifest.generation = 1;
  manifest.analyzer = Analyzer(options.analyzer).identity();
  manifest.bm25 = options.bm25;
  manifest.docs = docs;
  manifest.storeText = options.storeText;
  for (const auto& s : segments) manifest.totalTokens += s.totalTokens;
  const Bm25 bm25(options.bm25, manifest.docs, manifest.totalTokens);

  // Phase 2: block maxima with the collection-wide statistics, segments in parallel.
  std::atomic<std::size_t> nextBounds{0};
  std::atomic<std::size_t> doneBounds{0};
  {
    std::vector<std::jthread> boundsWorkers;
    for (unsigned w = 0; w < std::min<std::size_t>(threads, std::max<std::size_t>(1, segments.size())); ++w) {
      boundsWorkers.emplace_back([&] {
        try {
          for (std::size_t s = nextBounds++; s < segments.size() && !abort.load(); s = nextBounds++) {
            if (options.stop.stop_requested()) throwUsage("index build cancelled");
            SegmentReader seg(staging, segments[s], static_cast<std::uint32_t>(s), false);
            SegmentFileInfo info = writeSegmentBounds(staging, seg, bm25, 1);
            std::lock_guard lock(resultsMutex);
            segments[s].files["bounds"] = std::move(info);
            ++doneBounds;
          }
        } catch (...) {
          fail(std::current_exception());
        }
      });
    }
  }
  if (failure) std::rethrow_exception(failure);
  progress.report("bounds", doneBounds.load(), segments.size(), true);

  manifest.segments = std::move(segments);
  manifest.build.corpus = options.corpus.string();
  manifest.build.corpusBytes = reader.fileSize();
  manifest.build.threads = threads;
  manifest.build.createdUtc = nowUtc();
  manifest.build.tool = std::string("wandscope ") + WANDSCOPE_VERSION;
  manifest.build.invalidUtf8Bytes = analyzerTotals.invalidBytes;
  manifest.build.overlongTokens = analyzerTotals.overlongTokens;
  manifest.build.stopWords = analyzerTotals.stopWords;
  manifest.build.skippedLines = reader.skippedLines();
  manifest.build.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  writeManifest(staging, manifest);
  installDirectory(staging, out);
  if (analyzerTotals.invalidBytes > 0) {
    log::warn(fmt::format("{}: {} invalid UTF-8 bytes were replaced", options.corpus.string(),
                          analyzerTotals.invalidBytes));
  }
  return manifest;
}

}  // namespace wandscope::engine
