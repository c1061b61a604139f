// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/index/segment_accumulator.h"
#include "engine/index/segment_files.h"

#include <filesystem>

namespace wandscope::engine {

// Writes an accumulated segment's statistics-independent files (.terms, .post, .docs, .store) into
// `dir` and returns what the manifest needs to know about them. The .bounds file comes later, once
// the collection-wide statistics are known (writeSegmentBounds).
SegmentInfo writeSegment(const std::filesystem::path& dir, const SegmentAccumulator& segment);

// Encodes one posting list (ascending global doc ids, tf >= 1) exactly as the .post file stores it:
// skip table then blocks, relative to the list start. `docBase` is the segment's first doc id.
// Exposed for tests and tools.
std::vector<std::byte> encodePostingList(const std::vector<DocId>& docs,
                                         const std::vector<std::uint32_t>& freqs, DocId docBase);

}  // namespace wandscope::engine
