// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/index/inverted_chunk.h"
#include "engine/index/segment_files.h"

#include <filesystem>

namespace wandscope::engine {

// Writes a segment made of consecutive inverted chunks (in doc order) into `dir`: its
// statistics-independent files (.terms, .post, .docs, .store), merging the chunks' sorted term
// lists and concatenating each term's postings. Returns what the manifest needs to know. The
// .bounds file comes later, once the collection-wide statistics are known (writeSegmentBounds).
SegmentInfo writeSegment(const std::filesystem::path& dir, std::uint32_t segmentId,
                         const std::vector<const InvertedChunk*>& chunks, bool storeText);

// Encodes one posting list (ascending global doc ids, tf >= 1) exactly as the .post file stores it:
// skip table then blocks, relative to the list start. `docBase` is the segment's first doc id.
// Exposed for tests and tools.
std::vector<std::byte> encodePostingList(const std::vector<DocId>& docs,
                                         const std::vector<std::uint32_t>& freqs, DocId docBase);

}  // namespace wandscope::engine
