// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/types.h"
#include "engine/index/format.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

namespace wandscope::engine {

// What the manifest records about one file of a segment.
struct SegmentFileInfo {
  std::string name;
  std::uint64_t bytes = 0;
  std::uint32_t crc32 = 0;
};

// What the manifest records about one segment.
struct SegmentInfo {
  std::uint32_t id = 0;
  DocId docBase = 0;
  std::uint32_t docCount = 0;
  std::uint64_t totalTokens = 0;
  std::uint64_t postings = 0;
  std::uint64_t terms = 0;
  std::uint64_t blocks = 0;
  std::map<std::string, SegmentFileInfo> files;  // keyed by format::fileKindName
};

// "seg-000042.post" for segment 42's postings file. Bounds files depend on the collection
// statistics of a generation and carry it: "seg-000042.g000003.bounds".
std::string segmentFileName(std::uint32_t segmentId, format::FileKind kind);
std::string boundsFileName(std::uint32_t segmentId, std::uint64_t generation);

}  // namespace wandscope::engine
