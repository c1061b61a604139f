// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/codec/simd/intersect_vp2.h"

#include "engine/query/algorithms/merge_kernels.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define WANDSCOPE_VP2 1
// Every function that executes an AVX-512 instruction carries this attribute; the file itself is
// compiled for the baseline, so nothing here runs such an instruction before the CPU check.
#define WANDSCOPE_VP2_TARGET \
  __attribute__((target("avx512f,avx512vl,avx512vp2intersect,popcnt,bmi")))
#endif

namespace wandscope::engine::simd {

#if WANDSCOPE_VP2
namespace {

// The matches' indices are written with compressed stores: each 16-lane step compresses both
// sides' lane indices by their masks and stores them whole (room: kLanes past the part's matches),
// with no branch on whether the step matched; or, when matches are so rare that such a branch is
// almost never taken, through that branch. Expected matches per step, from the runs' densities:
// 16 * la * lb / (span * (la + lb)), `span` the doc ids the runs cover. Until stop 41 the
// branch was taken below 0.22, from a standalone prototype on uniform random runs of 8,192
// postings. Both modes timed on the same calls inside the queries (each call run both ways, the
// order alternating; AMD EPYC family 26, `run --repeat 20`, 2026-12-07) put the compressed stores
// ahead at every density the bulk AND's long windows meet, in TSC ticks per posting of both runs:
//   mid-df-2, 0.08-0.10 expected matches per step: branch 1.08, compressed 1.00
//   mid-df-2, 0.14-0.16:                           branch 0.94, compressed 0.74
//   mid-df-3, 0.08-0.10:                           branch 1.05, compressed 0.96
//   mid-df-3, 0.10-0.12:                           branch 0.95, compressed 0.86
//   sequential-3, 0.04-0.06:                       branch 1.07, compressed 1.03
//   sequential-2, below 0.02:                      branch 2.37, compressed 2.10
// The prototype still had the branch ahead at 1 % density (0.15 against 0.25 ns per posting).
// The windows' runs are shorter (a window starts at one lead block) and the terms co-occur more
// often than independent lists would (three of mid-df-3's pairs: 1.16x-1.19x the matches
// df_a * df_b / N predicts); which of the two makes the difference was not isolated. taat's pairs
// of rare terms (rare-3 OR: about 650 postings per term, 0.005 expected matches per step by the
// formula) are the exception: there the branch is almost never taken and the compressed stores are pure cost
// (rare-3 OR `auto`, `run --repeat 20`, medians of 11 alternating rounds: 7.84 us with compressed
// stores everywhere, 7.35 with the branch below 0.02, 7.18 below 0.05, 7.32 below 0.22). The
// bulk AND's few calls below 0.02 (sequential-2's, above) take the branch too; whole queries did
// not tell the two apart (`run --repeat 10`, medians of 9 alternating rounds, at 0, 0.02 and 0.05:
// sequential-2 AND 224.4, 227.6, 225.5 us; mid-df-3 AND 44.1, 43.7, 47.0 us).
constexpr double kBranchBelowMatchesPerStep = 0.02;
constexpr std::uint32_t kLanes = 16;
constexpr std::uint32_t kParts = 4;
static_assert(kParts * kLanes <= kIntersectRunsSlack,
              "each part may store a whole vector past its matches");

// A part's output. Its match count lives here, in memory, and is stored back every step: the
// parts' counts kept in named locals like their positions (as a review suggested) measured slower
// in the same harness, 0.148 -> 0.182 ns per posting at 1 % and 0.262 -> 0.277 at 3 %.
struct PartOut {
  std::uint32_t* posA;
  std::uint32_t* posB;
  std::uint32_t m;
};

// Advances the side whose last loaded value is the smaller (both on a tie) by 2^shift, without a
// branch (as the Highway kernels' advanceSmaller; the barrier keeps g++ from joining the parts'
// chains through vector registers).
inline void advance(std::uint32_t& i, std::uint32_t& j, DocId lastA, DocId lastB,
                    std::uint32_t shift) {
  const auto aAhead =
      static_cast<std::uint32_t>((std::uint64_t{lastB} - std::uint64_t{lastA}) >> 63);
  const auto bAhead =
      static_cast<std::uint32_t>((std::uint64_t{lastA} - std::uint64_t{lastB}) >> 63);
  i += (aAhead ^ 1u) << shift;
  j += (bAhead ^ 1u) << shift;
  asm("" : "+r"(i), "+r"(j));
}

// The k-th set bit of ma pairs with the k-th of mb (both runs ascend).
__attribute__((noinline)) void emitBits(std::uint32_t ma, std::uint32_t mb, std::uint32_t i,
                                        std::uint32_t j, PartOut& out) {
  do {
    out.posA[out.m] = i + static_cast<std::uint32_t>(__builtin_ctz(ma));
    out.posB[out.m] = j + static_cast<std::uint32_t>(__builtin_ctz(mb));
    ++out.m;
    ma &= ma - 1;
    mb &= mb - 1;
  } while (ma != 0);
}

template <bool kCompress>
WANDSCOPE_VP2_TARGET __attribute__((always_inline)) inline void step16(
    const DocId* a, const DocId* b, std::uint32_t& i, std::uint32_t& j, PartOut& out) {
  const __m512i va = _mm512_loadu_si512(a + i);
  const __m512i vb = _mm512_loadu_si512(b + j);
  __mmask16 ma;
  __mmask16 mb;
  _mm512_2intersect_epi32(va, vb, &ma, &mb);
  if constexpr (kCompress) {
    // All 16 lanes stored, the matches first: room is kLanes past the part's matches.
    const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const auto si = static_cast<int>(i);
    const auto sj = static_cast<int>(j);
    _mm512_storeu_si512(out.posA + out.m, _mm512_maskz_compress_epi32(
                                              ma, _mm512_add_epi32(iota, _mm512_set1_epi32(si))));
    _mm512_storeu_si512(out.posB + out.m, _mm512_maskz_compress_epi32(
                                              mb, _mm512_add_epi32(iota, _mm512_set1_epi32(sj))));
    out.m += static_cast<std::uint32_t>(__builtin_popcount(ma));
  } else {
    if (__builtin_expect(ma != 0, 0)) emitBits(ma, mb, i, j, out);
  }
  advance(i, j, a[i + kLanes - 1], b[j + kLanes - 1], 4);
}

// The 8-lane step for what a part has left after its 16-lane steps. (step8 and step4 stay two
// functions: one template for both made wandscope_bench's intersect_runs/avx3_vp2/many/8192 take
// 305 us against 220 in this project's build, though they ran alike built standalone; where the
// difference comes from was not looked into.)
WANDSCOPE_VP2_TARGET __attribute__((always_inline)) inline void step8(
    const DocId* a, const DocId* b, std::uint32_t& i, std::uint32_t& j, PartOut& out) {
  const __m256i va = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i));
  const __m256i vb = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + j));
  __mmask8 ma;
  __mmask8 mb;
  _mm256_2intersect_epi32(va, vb, &ma, &mb);
  if (ma != 0) emitBits(ma, mb, i, j, out);
  advance(i, j, a[i + 7], b[j + 7], 3);
}

// The 4-lane step after the 8-lane ones: without it a part whose shorter side has fewer than 8
// left merged the rest of the longer side one value at a time (rare+common-3 AND 1.09x slower
// than avx3, whose kernel has 4-lane steps too).
WANDSCOPE_VP2_TARGET __attribute__((always_inline)) inline void step4(
    const DocId* a, const DocId* b, std::uint32_t& i, std::uint32_t& j, PartOut& out) {
  const __m128i va = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i));
  const __m128i vb = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + j));
  __mmask8 ma;
  __mmask8 mb;
  _mm_2intersect_epi32(va, vb, &ma, &mb);
  if (ma != 0) emitBits(ma, mb, i, j, out);
  advance(i, j, a[i + 3], b[j + 3], 2);
}

// The first index in [from, to) of b whose value is at least x (to if none): a binary search
// without a branch on the comparisons (a conditional move per halving), for the parts' cuts. With
// std::lower_bound, whose halvings branch on the data, the three cuts per call were about 10 % of
// this kernel's samples on mid-df-3 AND, whose windows call it about 21 times a query.
inline std::uint32_t firstAtLeast(const DocId* b, std::uint32_t from, std::uint32_t to, DocId x) {
  const DocId* base = b + from;
  std::uint32_t len = to - from;
  if (len == 0) return from;
  while (len > 1) {
    const std::uint32_t half = len / 2;
    base = base[half] < x ? base + half : base;
    len -= half;
  }
  return static_cast<std::uint32_t>(base - b) + (*base < x ? 1u : 0u);
}

// Moves a part's n matches down to `to` (at or below where they are): 16 at a time, each vector
// loaded before it is stored, so no source entry is overwritten before it is read. It replaced a
// std::copy_n (a memmove call) per part and side; its gain was measured only together with
// firstAtLeast and the compressed stores, not on its own.
WANDSCOPE_VP2_TARGET inline void moveDown(const std::uint32_t* from, std::uint32_t n, std::uint32_t* to) {
  if (from == to) return;
  std::uint32_t k = 0;
  for (; k + kLanes <= n; k += kLanes) _mm512_storeu_si512(to + k, _mm512_loadu_si512(from + k));
  if (k < n) {
    const auto rest = static_cast<__mmask16>((1u << (n - k)) - 1u);
    _mm512_mask_storeu_epi32(to + k, rest, _mm512_maskz_loadu_epi32(rest, from + k));
  }
}

// GCC gives the parts' array below 64-byte alignment (a function compiled for AVX-512) and zeroes
// it with aligned 64-byte stores. AddressSanitizer's use-after-return checking moves a frame's
// arrays to its fake stack, aligned to 32 unless the array asks for more: without the explicit
// alignas(64) every long-run test crashed under scripts/sanitize.sh asan-engine. It is spelled out
// under ASan only: in the Release build it changed this function's code (many/8192 233 -> 314 us)
// though the array was 64-byte aligned either way.
#if defined(__SANITIZE_ADDRESS__)
#define WANDSCOPE_VP2_PARTS_ALIGNAS alignas(64)
#else
#define WANDSCOPE_VP2_PARTS_ALIGNAS
#endif

template <bool kCompress>
WANDSCOPE_VP2_TARGET std::size_t runs(const DocId* a, std::uint32_t la, const DocId* b,
                                      std::uint32_t lb, std::uint32_t* posA, std::uint32_t* posB) {
  // Parts cut at a's quantiles, b's at the same values. Part p writes from the sum of the smaller
  // lengths of the parts before it, plus kLanes per part before it with compressed stores.
  std::array<std::uint32_t, kParts> i{};
  std::array<std::uint32_t, kParts> iEnd{};
  std::array<std::uint32_t, kParts> j{};
  std::array<std::uint32_t, kParts> jEnd{};
  WANDSCOPE_VP2_PARTS_ALIGNAS std::array<PartOut, kParts> out{};
  std::uint32_t room = 0;
  for (std::uint32_t p = 0; p < kParts; ++p) {
    i[p] = p == 0 ? 0 : iEnd[p - 1];
    j[p] = p == 0 ? 0 : jEnd[p - 1];
    iEnd[p] = la;
    jEnd[p] = lb;
    if (p + 1 < kParts) {
      iEnd[p] = static_cast<std::uint32_t>(std::uint64_t{la} * (p + 1) / kParts);
      jEnd[p] = iEnd[p] < la
                    ? firstAtLeast(b, j[p], lb, a[iEnd[p]])
                    : lb;
    }
    out[p] = PartOut{posA + room, posB + room, 0};
    room += std::min(iEnd[p] - i[p], jEnd[p] - j[p]) + (kCompress ? kLanes : 0);
  }
  // The parts' positions in named locals, kept in registers (as in the Highway kernel).
  std::uint32_t i0 = i[0], j0 = j[0], i1 = i[1], j1 = j[1], i2 = i[2], j2 = j[2], i3 = i[3],
                j3 = j[3];
  while (i0 + kLanes <= iEnd[0] && j0 + kLanes <= jEnd[0] && i1 + kLanes <= iEnd[1] &&
         j1 + kLanes <= jEnd[1] && i2 + kLanes <= iEnd[2] && j2 + kLanes <= jEnd[2] &&
         i3 + kLanes <= iEnd[3] && j3 + kLanes <= jEnd[3]) {
    step16<kCompress>(a, b, i0, j0, out[0]);
    step16<kCompress>(a, b, i1, j1, out[1]);
    step16<kCompress>(a, b, i2, j2, out[2]);
    step16<kCompress>(a, b, i3, j3, out[3]);
  }
  i = {i0, i1, i2, i3};
  j = {j0, j1, j2, j3};
  std::size_t m = 0;
  for (std::uint32_t p = 0; p < kParts; ++p) {
    std::uint32_t x = i[p];
    std::uint32_t y = j[p];
    PartOut& o = out[p];
    while (x + kLanes <= iEnd[p] && y + kLanes <= jEnd[p]) step16<kCompress>(a, b, x, y, o);
    while (x + 8 <= iEnd[p] && y + 8 <= jEnd[p]) step8(a, b, x, y, o);
    while (x + 4 <= iEnd[p] && y + 4 <= jEnd[p]) step4(a, b, x, y, o);
    while (x < iEnd[p] && y < jEnd[p]) {  // the branch-free scalar merge of the Highway kernels
      const DocId u = a[x];
      const DocId v = b[y];
      o.posA[o.m] = x;
      o.posB[o.m] = y;
      o.m += u == v ? 1u : 0u;
      x += u <= v ? 1u : 0u;
      y += v <= u ? 1u : 0u;
    }
    // Parts follow each other: moving part p's matches down never overwrites one not yet moved.
    moveDown(o.posA, o.m, posA + m);
    moveDown(o.posB, o.m, posB + m);
    m += o.m;
  }
  return m;
}

}  // namespace

bool cpuHasVp2intersect() noexcept {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("avx512vp2intersect");
}

bool cpuPrefersVp2intersect() noexcept {
  return cpuHasVp2intersect() && __builtin_cpu_is("amd");
}

std::size_t intersectRunsVp2(const DocId* a, std::uint32_t la, const DocId* b, std::uint32_t lb,
                             std::uint32_t* posA, std::uint32_t* posB) {
  if (la == 0 || lb == 0) return 0;
  const DocId first = std::min(a[0], b[0]);
  const DocId last = std::max(a[la - 1], b[lb - 1]);
  const double span = static_cast<double>(last - first) + 1.0;
  const double perStep = kLanes * static_cast<double>(la) * static_cast<double>(lb) /
                         (span * (static_cast<double>(la) + static_cast<double>(lb)));
  return perStep >= kBranchBelowMatchesPerStep ? runs<true>(a, la, b, lb, posA, posB)
                                               : runs<false>(a, la, b, lb, posA, posB);
}

#else  // not x86-64 with GCC or Clang: never chosen (cpuHasVp2intersect() is false)

bool cpuHasVp2intersect() noexcept {
  return false;
}
bool cpuPrefersVp2intersect() noexcept {
  return false;
}
std::size_t intersectRunsVp2(const DocId* a, std::uint32_t la, const DocId* b, std::uint32_t lb,
                             std::uint32_t* posA, std::uint32_t* posB) {
  return intersectRuns(a, la, b, lb, posA, posB);
}

#endif

}  // namespace wandscope::engine::simd
