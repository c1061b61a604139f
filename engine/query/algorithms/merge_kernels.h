// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/types.h"

#include <cstddef>
#include <cstdint>

namespace wandscope::engine {

// Intersection kernels of the bulk AND. Each clause contributes a sorted slice [begin, end) of
// one decoded block (at most 128 doc ids). The kernels write the common doc ids to `out` and, for
// each clause c and match m, the match's index in the clause's block to offsets[c * 128 + m]
// (a byte each: blocks hold at most 128 postings). They return the number of matches.
// These are the scalar references; engine/codec/simd adds vectorised versions.
struct MergeSlice {
  const DocId* docs;     // the decoded block
  std::uint32_t begin;
  std::uint32_t end;
};

std::size_t intersect2(const MergeSlice& a, const MergeSlice& b, DocId* out, std::uint8_t* offsets);
std::size_t intersect3(const MergeSlice& a, const MergeSlice& b, const MergeSlice& c, DocId* out,
                       std::uint8_t* offsets);
// Any number of clauses (>= 1); slices[0] drives.
std::size_t intersectN(const MergeSlice* slices, std::size_t n, DocId* out, std::uint8_t* offsets);

// Two runs of any length (the bulk AND's long windows): a[0, la) and b[0, lb), each strictly
// increasing. For every common doc id, its index in a goes to posA and its index in b to posB, in
// ascending order; both have room for min(la, lb) + kIntersectRunsSlack entries (a vectorised
// kernel may store whole vectors past its matches). Returns the number of common ids.
inline constexpr std::size_t kIntersectRunsSlack = 64;
std::size_t intersectRuns(const DocId* a, std::uint32_t la, const DocId* b, std::uint32_t lb, std::uint32_t* posA,
                          std::uint32_t* posB);

}  // namespace wandscope::engine
