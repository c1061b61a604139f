// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/index/segment_files.h"
#include "engine/index/segment_reader.h"
#include "engine/score/bm25.h"

#include <filesystem>

namespace wandscope::engine {

// Computes every block's and every list's maximum BM25 weight W(tf, dl) for the collection-wide
// statistics in `bm25` (the same function the query uses, so the maxima are exact) and writes the
// segment's bounds file for index generation `generation` into `dir` (boundsFileName). Decodes
// the whole segment once.
SegmentFileInfo writeSegmentBounds(const std::filesystem::path& dir, const SegmentReader& segment,
                                   const Bm25& bm25, std::uint64_t generation);

}  // namespace wandscope::engine
