// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/types.h"

#include <cstddef>
#include <cstdint>

namespace wandscope::engine::simd {

// The long-run intersection (IntersectKernels::intersectRuns: the bulk AND's long windows and
// taat's pairwise intersections) with AVX-512 VP2INTERSECT: the kernel of the avx3_vp2 target
// (simd_target.h). Highway 1.0.3 has no operation for it, so this
// is the one kernel written with intrinsics, in functions compiled for the instruction; nothing
// calls it unless the CPU has it (cpuHasVp2intersect()).
//
// One VP2INTERSECTD compares 16 doc ids of each run all-pairs and gives both sides' match masks,
// where the Highway kernels pair 8 lanes through 8 rotations and min/xor folds, a second time for
// the other side's mask. The runs are cut into the same four interleaved parts as theirs; each
// 16-lane step writes the matches' indices branch-free (compressed in a register, stored whole),
// which measured faster than a branch on "any match in this step" in the bulk AND's calls; below
// one expected match in 50 steps (taat's pairs of rare terms, a few of the bulk AND's calls)
// through that branch (intersect_vp2.cpp).

// Whether this CPU reports AVX512_VP2INTERSECT (and AVX-512 F/VL, which it implies).
bool cpuHasVp2intersect() noexcept;

// Whether VP2INTERSECT is worth choosing automatically on this CPU: on AMD's (Zen 5) one
// instruction does a 16 x 16 compare in a few cycles; Intel's only implementation (Tiger Lake) is
// microcoded and slower than the Highway kernel's emulation, so "best" keeps avx3 there.
bool cpuPrefersVp2intersect() noexcept;

// intersectRuns for runs of similar length (neither 8x longer than the other): a[0, la) and
// b[0, lb), strictly increasing; the matches' indices go to posA and posB, in ascending order.
// Both need room for min(la, lb) + kIntersectRunsSlack entries (merge_kernels.h). Requires
// cpuHasVp2intersect().
std::size_t intersectRunsVp2(const DocId* a, std::uint32_t la, const DocId* b, std::uint32_t lb,
                             std::uint32_t* posA, std::uint32_t* posB);

}  // namespace wandscope::engine::simd
