// SPDX-License-Identifier: GPL-3.0-or-later
// Intersection kernels of the bulk AND for one Highway target; re-included once per target by
// intersect.cpp. Contract and strategy: engine/codec/simd/intersect.h.
#include "engine/codec/simd/intersect.h"
#include "engine/codec/simd/intersect_vp2.h"
#include "engine/query/algorithms/merge_kernels.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#if defined(WANDSCOPE_CODEC_SIMD_INTERSECT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef WANDSCOPE_CODEC_SIMD_INTERSECT_INL_H_
#undef WANDSCOPE_CODEC_SIMD_INTERSECT_INL_H_
#else
#define WANDSCOPE_CODEC_SIMD_INTERSECT_INL_H_
#endif

#include "engine/codec/simd/simd_common-inl.h"

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace wandscope::engine::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_EMU128

inline std::size_t intersect2Impl(const MergeSlice& a, const MergeSlice& b, DocId* out,
                                  std::uint8_t* offsets) {
  return engine::intersect2(a, b, out, offsets);
}
inline std::size_t intersect3Impl(const MergeSlice& a, const MergeSlice& b, const MergeSlice& c,
                                  DocId* out, std::uint8_t* offsets) {
  return engine::intersect3(a, b, c, out, offsets);
}
inline std::size_t intersectNImpl(const MergeSlice* slices, std::size_t n, DocId* out,
                                  std::uint8_t* offsets) {
  return engine::intersectN(slices, n, out, offsets);
}
inline std::size_t intersectRunsImpl(const DocId* a, std::uint32_t la, const DocId* b, std::uint32_t lb,
                                     std::uint32_t* posA, std::uint32_t* posB) {
  return engine::intersectRuns(a, la, b, lb, posA, posB);
}

#else

// A row of the offsets array, and the capacity of out: one block.
constexpr std::size_t kRow = kBlockSize;
// One slice at least this many times longer than the other: look each short value up in the
// long slice (V1) instead of walking both (measured in bench/intersect_bench.cpp).
constexpr std::uint32_t kSkew = 8;
// Lanes per block step (at most; SSE4 has 4): 16 on AVX-512 measured no faster than 8 on the
// mid-df lists and leaves longer scalar tails.
constexpr std::size_t kMergeLanes = 8;

// Lanes of x equal to some lane of y. x is paired with L permutations of y that together put
// every lane of y against every lane of x: the four rotations inside each 128-bit block (pshufd),
// applied to y and to y with its blocks swapped in pairs and halves (one cross-block shuffle
// each), cheaper than L - 1 full-width lane permutes (vpermd).
//
// Below AVX-512 each pairing is a compare and an or. On AVX-512 compares write mask registers,
// whose ors compete for few ports; there each pairing is folded in as min(acc, x ^ y') instead
// (a lane equals some y' exactly when the final minimum is 0): measured 1.3x faster there, and
// slower than compare + or on AVX2.
template <class D, class V>
HWY_INLINE hn::Mask<D> anyEqualInBlocks(D /*d*/, V x, V y) {
  const auto m01 = hn::Or(hn::Eq(x, y), hn::Eq(x, hn::Shuffle0321(y)));
  const auto m23 = hn::Or(hn::Eq(x, hn::Shuffle1032(y)), hn::Eq(x, hn::Shuffle2103(y)));
  return hn::Or(m01, m23);
}

template <class V>
HWY_INLINE V minXorInBlocks(V acc, V x, V y) {
  const V a = hn::Min(hn::Xor(x, y), hn::Xor(x, hn::Shuffle0321(y)));
  const V b = hn::Min(hn::Xor(x, hn::Shuffle1032(y)), hn::Xor(x, hn::Shuffle2103(y)));
  return hn::Min(acc, hn::Min(a, b));
}

template <class D, class V>
HWY_INLINE hn::Mask<D> anyEqual(D d, V x, V y) {
  constexpr std::size_t kLanes = hn::MaxLanes(D());
  static_assert(kLanes == 4 || kLanes == 8 || kLanes == 16, "4, 8 or 16 lanes");
#if HWY_TARGET <= HWY_AVX3
  V acc = minXorInBlocks(hn::Set(d, ~0u), x, y);
  if constexpr (kLanes >= 8) acc = minXorInBlocks(acc, x, hn::SwapAdjacentBlocks(y));
  if constexpr (kLanes == 16) {
    const V halves = hn::ConcatLowerUpper(d, y, y);
    acc = minXorInBlocks(acc, x, halves);
    acc = minXorInBlocks(acc, x, hn::SwapAdjacentBlocks(halves));
  }
  return hn::Eq(acc, hn::Zero(d));
#else
  auto m = anyEqualInBlocks(d, x, y);
  if constexpr (kLanes >= 8) m = hn::Or(m, anyEqualInBlocks(d, x, hn::SwapAdjacentBlocks(y)));
  if constexpr (kLanes == 16) {
    const V halves = hn::ConcatLowerUpper(d, y, y);
    m = hn::Or(m, hn::Or(anyEqualInBlocks(d, x, halves), anyEqualInBlocks(d, x, hn::SwapAdjacentBlocks(halves))));
  }
  return m;
#endif
}

// Advances the side(s) whose last loaded value is the smaller (both on a tie) by one vector of
// 2^shift lanes, without a branch: on random doc ids the comparison goes either way half the time,
// and g++ 12 compiles `x <= y ? n : 0` here as a branch that mispredicts as often (in the bulk AND's
// long windows: 2.6 TSC ticks per posting with the branch, 2.2 without). The sign bit of the
// 64-bit difference is the comparison.
HWY_INLINE void advanceSmaller(std::uint32_t& i, std::uint32_t& j, DocId lastA, DocId lastB, std::uint32_t shift) {
  const auto aAhead = static_cast<std::uint32_t>((std::uint64_t{lastB} - std::uint64_t{lastA}) >> 63);  // lastA > lastB
  const auto bAhead = static_cast<std::uint32_t>((std::uint64_t{lastA} - std::uint64_t{lastB}) >> 63);  // lastB > lastA
  i += (aAhead ^ 1u) << shift;
  j += (bAhead ^ 1u) << shift;
#if HWY_TARGET <= HWY_AVX3
  // Keeps i and j in general registers. With AVX-512 enabled, g++ 12 at -O3 SLP-vectorised the
  // four interleaved parts' advances in intersectRuns (vpinsrd/vpextrd around a packed subtract),
  // which joined their four independent chains into one through vector-to-GPR moves:
  // intersect_runs/avx3/mid/8192 35.5 us against 18.3 with the barrier, as fast as AVX2 (AMD
  // EPYC family 26, wandscope_bench, 2026-12-06); the other targets were not vectorised so.
  asm("" : "+r"(i), "+r"(j));
#endif
}

struct MergeState {
  std::uint32_t i;  // next index in a
  std::uint32_t j;  // next index in b
  std::size_t m;    // matches so far
};

// One all-pairs block step at (i, j), the building block of every merge below: a vector of each
// run; every match found in it (a match is found in the one step where both its blocks are
// loaded) goes to emit(bitsA, bitsB), where the k-th set lane of a pairs with the k-th set lane of
// b (both ascending); then the side whose last value is the smaller advances, both on a tie, so
// matches come out ascending. Matches are rare in the mid-df case, so they are handed over as bits
// for a bit loop: cheaper here than compress-stores, whose table-driven emulation below AVX-512
// costs more than a match (and which Zen 4 runs slowly to memory even on AVX-512).
template <class D, class Emit>
HWY_INLINE void blockStep(D d, const DocId* HWY_RESTRICT a, const DocId* HWY_RESTRICT b, std::uint32_t& i,
                          std::uint32_t& j, Emit&& emit) {
  constexpr auto kLanes = static_cast<std::uint32_t>(hn::MaxLanes(D()));
  constexpr std::uint32_t kShift = kLanes == 16 ? 4 : kLanes == 8 ? 3 : 2;
  static_assert((1u << kShift) == kLanes, "4, 8 or 16 lanes");
  const auto va = hn::LoadU(d, a + i);
  const auto vb = hn::LoadU(d, b + j);
  const auto inB = anyEqual(d, va, vb);
  if (HWY_UNLIKELY(!hn::AllFalse(d, inB))) emit(maskBits(d, inB), maskBits(d, anyEqual(d, vb, va)));
  advanceSmaller(i, j, a[i + kLanes - 1], b[j + kLanes - 1], kShift);
}

// The reference's branch-free scalar merge, for what is left after the vector steps:
// store(m, i, j) at every step, the match count m moving on only when a[i] == b[j].
template <class Store>
HWY_INLINE std::size_t scalarMerge(const DocId* HWY_RESTRICT a, std::uint32_t ea, const DocId* HWY_RESTRICT b,
                                   std::uint32_t eb, std::uint32_t& i, std::uint32_t& j, std::size_t m,
                                   Store&& store) {
  while (i < ea && j < eb) {
    const DocId x = a[i];
    const DocId y = b[j];
    store(m, i, j);
    m += x == y ? 1u : 0u;
    i += x <= y ? 1u : 0u;
    j += y <= x ? 1u : 0u;
  }
  return m;
}

// All-pairs block merge of two slices while both have a full vector left.
template <class D>
HWY_INLINE void mergeBlocks(D d, const DocId* HWY_RESTRICT a, std::uint32_t ea,
                            const DocId* HWY_RESTRICT b, std::uint32_t eb, DocId* HWY_RESTRICT out,
                            std::uint8_t* HWY_RESTRICT offA, std::uint8_t* HWY_RESTRICT offB,
                            MergeState& s) {
  constexpr std::uint32_t kLanes = static_cast<std::uint32_t>(hn::MaxLanes(D()));
  std::uint32_t i = s.i;
  std::uint32_t j = s.j;
  std::size_t m = s.m;
  while (i + kLanes <= ea && j + kLanes <= eb) {
    blockStep(d, a, b, i, j, [&](std::uint64_t bitsA, std::uint64_t bitsB) {
      do {
        const auto ka = static_cast<std::uint32_t>(hwy::Num0BitsBelowLS1Bit_Nonzero64(bitsA));
        const auto kb = static_cast<std::uint32_t>(hwy::Num0BitsBelowLS1Bit_Nonzero64(bitsB));
        out[m] = a[i + ka];
        offA[m] = static_cast<std::uint8_t>(i + ka);
        offB[m] = static_cast<std::uint8_t>(j + kb);
        ++m;
        bitsA &= bitsA - 1;
        bitsB &= bitsB - 1;
      } while (bitsA != 0);
    });
  }
  s = MergeState{i, j, m};
}

// The scalar rest of a slice merge (offsets and doc ids out).
HWY_INLINE void mergeScalar(const DocId* HWY_RESTRICT a, std::uint32_t ea, const DocId* HWY_RESTRICT b,
                            std::uint32_t eb, DocId* HWY_RESTRICT out, std::uint8_t* HWY_RESTRICT offA,
                            std::uint8_t* HWY_RESTRICT offB, MergeState& s) {
  s.m = scalarMerge(a, ea, b, eb, s.i, s.j, s.m, [&](std::size_t m, std::uint32_t i, std::uint32_t j) {
    out[m] = a[i];
    offA[m] = static_cast<std::uint8_t>(i);
    offB[m] = static_cast<std::uint8_t>(j);
  });
}

// Lemire's V1: each value of s[is, es) is looked up in l[il, el) a vector at a time (skip whole
// vectors whose last value is smaller, then one compare); emit(is, pos) for every match, in order.
template <class D, class Emit>
HWY_INLINE void lookupValues(D d, const DocId* HWY_RESTRICT s, std::uint32_t is, std::uint32_t es,
                             const DocId* HWY_RESTRICT l, std::uint32_t il, std::uint32_t el, Emit&& emit) {
  constexpr std::uint32_t kLanes = static_cast<std::uint32_t>(hn::MaxLanes(D()));
  for (; is < es; ++is) {
    const DocId x = s[is];
    while (il + kLanes <= el && l[il + kLanes - 1] < x) il += kLanes;
    std::uint32_t pos = 0;
    if (il + kLanes <= el) {
      const auto eq = hn::Eq(hn::LoadU(d, l + il), hn::Set(d, x));
      if (hn::AllFalse(d, eq)) continue;
      pos = il + static_cast<std::uint32_t>(hn::FindKnownFirstTrue(d, eq));
    } else {
      while (il < el && l[il] < x) ++il;
      if (il == el) break;
      if (l[il] != x) continue;
      pos = il;
    }
    emit(is, pos);
    il = pos + 1;
  }
}

// V1 for skewed slices: the short slice s looked up in the long slice l.
template <class D>
HWY_INLINE std::size_t lookupEach(D d, const DocId* HWY_RESTRICT s, std::uint32_t is, std::uint32_t es,
                                  const DocId* HWY_RESTRICT l, std::uint32_t il, std::uint32_t el,
                                  DocId* HWY_RESTRICT out, std::uint8_t* HWY_RESTRICT offS,
                                  std::uint8_t* HWY_RESTRICT offL) {
  std::size_t m = 0;
  lookupValues(d, s, is, es, l, il, el, [&](std::uint32_t i, std::uint32_t pos) {
    out[m] = s[i];
    offS[m] = static_cast<std::uint8_t>(i);
    offL[m] = static_cast<std::uint8_t>(pos);
    ++m;
  });
  return m;
}

inline std::size_t intersect2Impl(const MergeSlice& a, const MergeSlice& b, DocId* HWY_RESTRICT out,
                                  std::uint8_t* HWY_RESTRICT offsets) {
  if (a.begin >= a.end || b.begin >= b.end) return 0;
  const hn::CappedTag<std::uint32_t, kMergeLanes> d;
  std::uint8_t* offA = offsets;
  std::uint8_t* offB = offsets + kRow;
  const std::uint32_t la = a.end - a.begin;
  const std::uint32_t lb = b.end - b.begin;
  if (la * kSkew <= lb) return lookupEach(d, a.docs, a.begin, a.end, b.docs, b.begin, b.end, out, offA, offB);
  if (lb * kSkew <= la) return lookupEach(d, b.docs, b.begin, b.end, a.docs, a.begin, a.end, out, offB, offA);
  MergeState s{a.begin, b.begin, 0};
  mergeBlocks(d, a.docs, a.end, b.docs, b.end, out, offA, offB, s);
  if constexpr (hn::MaxLanes(decltype(d)()) > 4) {
    const hn::Full128<std::uint32_t> d4;
    mergeBlocks(d4, a.docs, a.end, b.docs, b.end, out, offA, offB, s);
  }
  mergeScalar(a.docs, a.end, b.docs, b.end, out, offA, offB, s);
  return s.m;
}

// Long runs (intersectRuns): the block steps of mergeBlocks, with the runs cut by value into
// kRunParts independent parts whose steps are interleaved, so that the processor can overlap their
// loop-carried chains (each step's loads wait on the comparison of the previous step's last
// values). In the bulk AND's mid-df-2 long windows (AMD EPYC family 25, AVX3 target, first touch
// of freshly decoded postings) the kernel took 1.9-2.0 TSC ticks per posting interleaved against
// 2.1-2.5 one part at a time, and 2.6 before the advance was made branch-free.
constexpr std::size_t kRunParts = 4;

struct RunOut {
  std::uint32_t* posA;  // this part's output: room for the smaller of its two lengths
  std::uint32_t* posB;
  std::uint32_t m;
};

// Writes the matches of one block step: the k-th set lane of bitsA pairs with the k-th of bitsB.
HWY_NOINLINE void runEmit(std::uint64_t bitsA, std::uint64_t bitsB, std::uint32_t i, std::uint32_t j, RunOut& out) {
  do {
    out.posA[out.m] = i + static_cast<std::uint32_t>(hwy::Num0BitsBelowLS1Bit_Nonzero64(bitsA));
    out.posB[out.m] = j + static_cast<std::uint32_t>(hwy::Num0BitsBelowLS1Bit_Nonzero64(bitsB));
    ++out.m;
    bitsA &= bitsA - 1;
    bitsB &= bitsB - 1;
  } while (bitsA != 0);
}

// One block step of a part, writing the matches' indices.
template <class D>
HWY_INLINE void runStep(D d, const DocId* HWY_RESTRICT a, const DocId* HWY_RESTRICT b, std::uint32_t& i,
                        std::uint32_t& j, RunOut& out) {
  blockStep(d, a, b, i, j, [&](std::uint64_t bitsA, std::uint64_t bitsB) { runEmit(bitsA, bitsB, i, j, out); });
}

// What a part has left after the interleaved steps: full vectors, 128-bit vectors, then scalar.
template <class D>
HWY_INLINE void runFinish(D d, const DocId* HWY_RESTRICT a, std::uint32_t i, std::uint32_t iEnd,
                          const DocId* HWY_RESTRICT b, std::uint32_t j, std::uint32_t jEnd, RunOut& out) {
  constexpr auto kLanes = static_cast<std::uint32_t>(hn::MaxLanes(D()));
  while (i + kLanes <= iEnd && j + kLanes <= jEnd) runStep(d, a, b, i, j, out);
  if constexpr (kLanes > 4) {
    const hn::Full128<std::uint32_t> d4;
    while (i + 4 <= iEnd && j + 4 <= jEnd) runStep(d4, a, b, i, j, out);
  }
  out.m = static_cast<std::uint32_t>(scalarMerge(a, iEnd, b, jEnd, i, j, out.m,
                                                 [&](std::size_t m, std::uint32_t x, std::uint32_t y) {
                                                   out.posA[m] = x;
                                                   out.posB[m] = y;
                                                 }));
}

// V1 for skewed runs: the short run s looked up in the long run l.
template <class D>
HWY_INLINE std::size_t lookupRuns(D d, const DocId* HWY_RESTRICT s, std::uint32_t ls, const DocId* HWY_RESTRICT l,
                                  std::uint32_t ll, std::uint32_t* HWY_RESTRICT posS, std::uint32_t* HWY_RESTRICT posL) {
  std::size_t m = 0;
  lookupValues(d, s, 0, ls, l, 0, ll, [&](std::uint32_t i, std::uint32_t pos) {
    posS[m] = i;
    posL[m] = pos;
    ++m;
  });
  return m;
}

// The long-run kernels' first decision: empty runs match nothing, and a run kSkew times shorter
// than the other is looked up in it (V1). Returns true with the matches' count in m when it
// decided; false for runs of similar length, left to the caller's merge.
HWY_INLINE bool emptyOrSkewedRuns(const DocId* HWY_RESTRICT a, std::uint32_t la, const DocId* HWY_RESTRICT b,
                                  std::uint32_t lb, std::uint32_t* HWY_RESTRICT posA,
                                  std::uint32_t* HWY_RESTRICT posB, std::size_t& m) {
  const hn::CappedTag<std::uint32_t, kMergeLanes> d;
  if (la == 0 || lb == 0) {
    m = 0;
  } else if (std::uint64_t{la} * kSkew <= lb) {
    m = lookupRuns(d, a, la, b, lb, posA, posB);
  } else if (std::uint64_t{lb} * kSkew <= la) {
    m = lookupRuns(d, b, lb, a, la, posB, posA);
  } else {
    return false;
  }
  return true;
}

inline std::size_t intersectRunsImpl(const DocId* HWY_RESTRICT a, std::uint32_t la, const DocId* HWY_RESTRICT b,
                                     std::uint32_t lb, std::uint32_t* HWY_RESTRICT posA,
                                     std::uint32_t* HWY_RESTRICT posB) {
  if (std::size_t m = 0; emptyOrSkewedRuns(a, la, b, lb, posA, posB, m)) return m;
  const hn::CappedTag<std::uint32_t, kMergeLanes> d;
  // Parts cut at a's quantiles, b's cut at the same values; part p writes from the sum of the
  // smaller lengths of the parts before it (at most min(la, lb) in all).
  constexpr auto kLanes = static_cast<std::uint32_t>(hn::MaxLanes(decltype(d)()));
  std::array<std::uint32_t, kRunParts> i{};
  std::array<std::uint32_t, kRunParts> iEnd{};
  std::array<std::uint32_t, kRunParts> j{};
  std::array<std::uint32_t, kRunParts> jEnd{};
  std::array<RunOut, kRunParts> out{};
  std::uint32_t room = 0;
  for (std::size_t p = 0; p < kRunParts; ++p) {
    i[p] = p == 0 ? 0 : iEnd[p - 1];
    j[p] = p == 0 ? 0 : jEnd[p - 1];
    iEnd[p] = la;
    jEnd[p] = lb;
    if (p + 1 < kRunParts) {
      iEnd[p] = static_cast<std::uint32_t>(std::uint64_t{la} * (p + 1) / kRunParts);
      jEnd[p] = iEnd[p] < la ? static_cast<std::uint32_t>(std::lower_bound(b + j[p], b + lb, a[iEnd[p]]) - b) : lb;
    }
    out[p] = RunOut{posA + room, posB + room, 0};
    room += std::min(iEnd[p] - i[p], jEnd[p] - j[p]);
  }
  // The four parts' positions in named locals: kept in registers (in an array they were stored and
  // reloaded every step, which put a store-to-load forwarding in each chain).
  static_assert(kRunParts == 4, "the interleaved loop below names four parts");
  std::uint32_t i0 = i[0], j0 = j[0], i1 = i[1], j1 = j[1], i2 = i[2], j2 = j[2], i3 = i[3], j3 = j[3];
  while (i0 + kLanes <= iEnd[0] && j0 + kLanes <= jEnd[0] && i1 + kLanes <= iEnd[1] && j1 + kLanes <= jEnd[1] &&
         i2 + kLanes <= iEnd[2] && j2 + kLanes <= jEnd[2] && i3 + kLanes <= iEnd[3] && j3 + kLanes <= jEnd[3]) {
    runStep(d, a, b, i0, j0, out[0]);
    runStep(d, a, b, i1, j1, out[1]);
    runStep(d, a, b, i2, j2, out[2]);
    runStep(d, a, b, i3, j3, out[3]);
  }
  i = {i0, i1, i2, i3};
  j = {j0, j1, j2, j3};
  std::size_t m = 0;
  for (std::size_t p = 0; p < kRunParts; ++p) {
    runFinish(d, a, i[p], iEnd[p], b, j[p], jEnd[p], out[p]);
    // Parts follow each other: moving part p's matches down never overwrites one not yet moved.
    std::copy_n(out[p].posA, out[p].m, posA + m);
    std::copy_n(out[p].posB, out[p].m, posB + m);
    m += out[p].m;
  }
  return m;
}

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3  // AVX3 and any later AVX-512 target Highway may pick
// The avx3_vp2 target's long runs: skewed ones looked up as above (V1), similar ones by the
// VP2INTERSECT kernel (intersect_vp2.h).
inline std::size_t intersectRunsVp2Impl(const DocId* HWY_RESTRICT a, std::uint32_t la, const DocId* HWY_RESTRICT b,
                                        std::uint32_t lb, std::uint32_t* HWY_RESTRICT posA,
                                        std::uint32_t* HWY_RESTRICT posB) {
  if (std::size_t m = 0; emptyOrSkewedRuns(a, la, b, lb, posA, posB, m)) return m;
  return intersectRunsVp2(a, la, b, lb, posA, posB);
}
#endif

// n-way (n >= 1) by stages: slices 0 and 1 first, then the match set against each further slice.
// After stage k the rows 0..k-1 of offsets are compacted to the surviving matches in place: the
// match q of a stage came from entry prev[q] >= q of the previous set, so reading ascending never
// reads an entry already overwritten.
inline std::size_t intersectNImpl(const MergeSlice* slices, std::size_t n, DocId* HWY_RESTRICT out,
                                  std::uint8_t* HWY_RESTRICT offsets) {
  if (n == 0) return 0;
  if (n == 1) {
    const MergeSlice& s = slices[0];
    std::size_t m = 0;
    for (std::uint32_t i = s.begin; i < s.end; ++i, ++m) {
      out[m] = s.docs[i];
      offsets[m] = static_cast<std::uint8_t>(i);
    }
    return m;
  }
  std::size_t m = intersect2Impl(slices[0], slices[1], out, offsets);
  alignas(64) DocId docs[kRow];
  alignas(64) std::uint8_t stage[2 * kRow];
  for (std::size_t k = 2; k < n && m > 0; ++k) {
    const MergeSlice current{out, 0, static_cast<std::uint32_t>(m)};
    const std::size_t next = intersect2Impl(current, slices[k], docs, stage);
    for (std::size_t r = 0; r < k; ++r) {
      std::uint8_t* row = offsets + r * kRow;
      for (std::size_t q = 0; q < next; ++q) row[q] = row[stage[q]];
    }
    std::uint8_t* row = offsets + k * kRow;
    for (std::size_t q = 0; q < next; ++q) {
      row[q] = stage[kRow + q];
      out[q] = docs[q];
    }
    m = next;
  }
  return m;
}

inline std::size_t intersect3Impl(const MergeSlice& a, const MergeSlice& b, const MergeSlice& c,
                                  DocId* out, std::uint8_t* offsets) {
  const MergeSlice slices[3] = {a, b, c};
  return intersectNImpl(slices, 3, out, offsets);
}

#endif  // HWY_TARGET

}  // namespace HWY_NAMESPACE
}  // namespace wandscope::engine::simd
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
