// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/corpus/document.h"
#include "engine/index/manifest.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

namespace wandscope::engine {

// What a commit did and how long it held the index's write lock.
struct CommitStats {
  std::uint64_t generation = 0;
  std::uint64_t documentsAdded = 0;
  std::uint32_t segmentId = 0;  // the new segment (meaningless when nothing was added)
  double invertSeconds = 0;     // inverting and writing the new segment
  double boundsSeconds = 0;     // recomputing every segment's block maxima for the new statistics
  double totalSeconds = 0;      // the whole commit: the lock window
  std::chrono::steady_clock::time_point lockAcquired;
  std::chrono::steady_clock::time_point lockReleased;
};

// Adds documents to an existing index. Documents are buffered in memory; commit() writes them as a
// new segment, recomputes the block maxima of every segment for the new collection statistics
// (new bounds files, named by generation), writes MANIFEST-<g+1> and switches CURRENT atomically.
// A commit is all or nothing: killed at any point, the index opens as the previous generation
// (or the new one once CURRENT names it); files of an interrupted commit are removed by the next
// writer. Readers are never blocked: an opened Index is a snapshot and keeps working while a
// commit runs and after it (its files stay mapped even once they are deleted); Index::open after
// the commit sees the new generation. One writer per index: the constructor takes an exclusive
// lock (flock on <dir>/LOCK) and throws Error(Index) if another process holds it.
class IndexWriter {
 public:
  explicit IndexWriter(const std::filesystem::path& dir, unsigned threads = 0);
  ~IndexWriter();
  IndexWriter(const IndexWriter&) = delete;
  IndexWriter& operator=(const IndexWriter&) = delete;

  // Buffers a document; a duplicate or empty id is Error(BadInput).
  void addDocument(Document doc);
  std::size_t pendingDocuments() const noexcept { return m_pending.size(); }
  CommitStats commit();

  const Manifest& manifest() const noexcept { return m_manifest; }

 private:
  void removeUnreferencedFiles();

  std::filesystem::path m_dir;
  unsigned m_threads;
  int m_lockFd = -1;
  Manifest m_manifest;
  std::unordered_set<std::string> m_ids;
  std::vector<Document> m_pending;
};

}  // namespace wandscope::engine
