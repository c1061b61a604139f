// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/query/query_context.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace wandscope::engine {

// taat_or() falls back to maxScore() beyond these: the pairwise intersections grow with the square
// of the number of lists, and every posting is held in memory (about 9 bytes each).
inline constexpr std::size_t kTaatMaxTerms = 16;
inline constexpr std::uint64_t kTaatMaxPostings = std::uint64_t{1} << 26;

// Term-at-a-time OR over whole decoded lists (`taat`, docs/ALGORITHMS.md), for queries whose lists
// are all sparse, where the document-at-a-time paths score nearly every posting anyway and each
// score waits on a length-normaliser cache miss:
//  1. every doc-id block of every list is decoded (all segments), frequencies stay encoded;
//  2. the documents held by two or more lists are found by pairwise intersections (the SIMD
//     target's 2-way kernel, chunk by chunk) and scored exactly, contributions added in query
//     order;
//  3. the blocks, in descending order of their block maximum, are scored with the SIMD block
//     scorer for the documents they alone hold (such a document's score is its one contribution,
//     never above the block maximum), stopping at the first block whose maximum is strictly below
//     the floor: no document of it or of any later block can enter the top k, whatever its doc id.
// Returns exactly the exhaustive OR top-k (doc ids and f32 score bits). Reads no switch (`taat`
// only steers `auto`). More than kTaatMaxTerms known terms or kTaatMaxPostings postings fall back
// to maxScore().
void taatOr(QueryContext& ctx);

// Whether taatOr() evaluates these cursors itself (at most kTaatMaxTerms lists, at most
// kTaatMaxPostings postings by their document frequencies) rather than falling back to maxScore():
// search() names the path that really ran.
bool taatEvaluates(const std::vector<PostingCursor>& cursors) noexcept;

}  // namespace wandscope::engine
