// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/codec/simd/simd_target.h"
#include "engine/core/types.h"
#include "engine/query/algorithms/merge_kernels.h"

#include <cstddef>
#include <cstdint>

namespace wandscope::engine::simd {

// Vectorised intersection kernels of the bulk AND, with the exact contract of the scalar
// references in engine/query/algorithms/merge_kernels.h: each slice is a strictly increasing run
// [begin, end) of a decoded block (end <= 128); the common doc ids go to out in ascending order,
// and for clause c and match m the match's index in clause c's block goes to
// offsets[c * 128 + m]. The return value is the number of matches.
//
// Buffers: out has room for 128 doc ids and offsets for n * 128 bytes (a block each), as in the
// bulk AND. Entries past the returned count may be overwritten (so do the references); nothing
// outside those buffers or the slices' [begin, end) is touched.
//
// Strategy (the same on every target; vectors of 4, 8 or 16 lanes):
//  - similar lengths: all-pairs block compares (Schlegel et al., Lemire et al.): a vector of each
//    list, every lane of one against every rotation of the other, matches compress-stored with
//    their indices; the block with the smaller last value advances; then the same with 128-bit
//    vectors, then a scalar merge for the last few values;
//  - skewed lengths (one slice far shorter): each value of the short slice is looked up in the
//    long one a vector at a time (Lemire's V1);
//  - 3-way and n-way: the 2-way kernel applied clause by clause to the shrinking match set (the
//    first two first: it usually leaves almost nothing), offsets composed through the stages;
//  - long runs (the bulk AND's long windows): the same block steps, the runs cut by value into
//    four parts whose steps are interleaved (independent loop-carried chains overlap), or V1 when
//    skewed; indices are written as 32-bit positions. The avx3_vp2 target (the one exception to
//    "the same on every target") compares 16 x 16 per step with VP2INTERSECT (intersect_vp2.h).
struct IntersectKernels {
  using Two = std::size_t (*)(const MergeSlice& a, const MergeSlice& b, DocId* out,
                              std::uint8_t* offsets);
  using Three = std::size_t (*)(const MergeSlice& a, const MergeSlice& b, const MergeSlice& c,
                                DocId* out, std::uint8_t* offsets);
  using Many = std::size_t (*)(const MergeSlice* slices, std::size_t n, DocId* out,
                               std::uint8_t* offsets);
  using Runs = std::size_t (*)(const DocId* a, std::uint32_t la, const DocId* b, std::uint32_t lb,
                               std::uint32_t* posA, std::uint32_t* posB);

  Two intersect2;
  Three intersect3;
  Many intersectN;  // any n >= 1
  Runs intersectRuns;  // two runs of any length, indices out (merge_kernels.h)
  Target target;
};

// The kernels of the current target; fetch once per query, outside the window loop.
const IntersectKernels& intersectKernels();

// One-call forms (fetch the kernels on every call).
std::size_t intersect2(const MergeSlice& a, const MergeSlice& b, DocId* out, std::uint8_t* offsets);
std::size_t intersect3(const MergeSlice& a, const MergeSlice& b, const MergeSlice& c, DocId* out,
                       std::uint8_t* offsets);
std::size_t intersectN(const MergeSlice* slices, std::size_t n, DocId* out, std::uint8_t* offsets);

}  // namespace wandscope::engine::simd
