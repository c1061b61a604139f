// SPDX-License-Identifier: GPL-3.0-or-later
// BP128 unpack kernels (plain, plus one, and fused with the doc-id prefix sum) for one Highway
// target; re-included once per target by bp128_unpack.cpp. Layout: engine/codec/bp128.h.
#include "engine/codec/bp128.h"
#include "engine/codec/simd/bp128_simd.h"

#include <cstddef>
#include <cstdint>
#include <utility>

#if defined(WANDSCOPE_CODEC_SIMD_BP128_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef WANDSCOPE_CODEC_SIMD_BP128_INL_H_
#undef WANDSCOPE_CODEC_SIMD_BP128_INL_H_
#else
#define WANDSCOPE_CODEC_SIMD_BP128_INL_H_
#endif

#include "engine/codec/simd/simd_common-inl.h"

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace wandscope::engine::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_EMU128

// Highway's emulation fallback: the scalar reference.
template <std::uint32_t W>
void unpackKernel(const std::uint32_t* in, std::uint32_t* out) {
  codec::unpackBp128(in, W, out);
}
template <std::uint32_t W>
void unpackPlusOneKernel(const std::uint32_t* in, std::uint32_t* out) {
  codec::unpackBp128PlusOne(in, W, out);
}
template <std::uint32_t W>
void unpackDeltaKernel(const std::uint32_t* in, std::uint32_t base, std::uint32_t* out) {
  codec::unpackBp128Delta(in, W, base, out);
}

#else

// The SIMD-BP128 scheme of Lemire & Boytsov on 128-bit vectors, which every target has: a vector
// load reads word j of the four lanes, and row r (values 4r..4r+3) is the bits [r*W, r*W + W) of
// each lane. The width is a template parameter, so each of the 32 rows has constant word indices
// and shift counts: the whole block unrolls into immediate shifts, ands and ors.
using D4 = hn::Full128<std::uint32_t>;
using V4 = hn::Vec<D4>;

template <std::uint32_t W, std::uint32_t R>
HWY_INLINE V4 unpackRow(D4 d, const std::uint32_t* HWY_RESTRICT in) {
  constexpr std::uint32_t kBit = R * W;
  constexpr std::uint32_t kWord = kBit / 32;
  constexpr int kShift = static_cast<int>(kBit % 32);
  V4 v = hn::LoadU(d, in + 4 * kWord);
  if constexpr (kShift != 0) v = hn::ShiftRight<kShift>(v);
  if constexpr (kShift + W > 32) {
    // The row straddles two words: its high bits start the next one.
    v = hn::Or(v, hn::ShiftLeft<32 - kShift>(hn::LoadU(d, in + 4 * (kWord + 1))));
  }
  if constexpr (kShift + W != 32) v = hn::And(v, hn::Set(d, (1u << W) - 1u));
  return v;
}

template <std::uint32_t W, std::size_t... R>
HWY_INLINE void unpackRows(const std::uint32_t* HWY_RESTRICT in, std::uint32_t* HWY_RESTRICT out,
                           std::index_sequence<R...>) {
  const D4 d;
  (hn::StoreU(unpackRow<W, R>(d, in), d, out + 4 * R), ...);
}

// The same rows with 1 added to each value (frequencies are stored minus one): one vector add
// per row, where a separate pass over the block would load, add and store 128 values again.
template <std::uint32_t W, std::size_t... R>
HWY_INLINE void unpackRowsPlusOne(const std::uint32_t* HWY_RESTRICT in,
                                  std::uint32_t* HWY_RESTRICT out, std::index_sequence<R...>) {
  const D4 d;
  const V4 one = hn::Set(d, 1u);
  (hn::StoreU(hn::Add(unpackRow<W, R>(d, in), one), d, out + 4 * R), ...);
}

#if HWY_TARGET <= HWY_AVX2
// Wide kernels for AVX2 and AVX-512: one vector holds L/4 consecutive rows (2 or 4), i.e. L
// consecutive values. The rows' words sit in at most L/4 consecutive word groups (a "group" is
// the 4 words of one 128-bit load) from the first row's group q0, and their straddling high
// parts in the L/4 groups from q0 + 1; one full-width load of each and a lane permute (vpermd)
// gather them, per-lane variable shifts (vpsrlvd/vpsllvd; a count of 32 yields 0, which discards
// the high part of rows that do not straddle) and one mask finish the unpack; the prefix sum then
// runs over L values at once. Measured (bench/bp128_bench.cpp) for unpack + delta: 1.5x the
// 128-bit kernel on AVX-512, a few percent better on AVX2. The plain unpack (frequencies) stays
// on 128-bit rows: no faster wide at the small widths frequencies have.
template <std::uint32_t W, std::uint32_t G, std::size_t L>
struct WidePlan {
  static constexpr std::uint32_t kRows = static_cast<std::uint32_t>(L / 4);
  static constexpr std::uint32_t kQ0 = (G * kRows * W) / 32;
  struct Tables {
    alignas(64) std::int32_t lo[L];
    alignas(64) std::int32_t hi[L];
    alignas(64) std::uint32_t shr[L];
    alignas(64) std::uint32_t shl[L];
    bool anySpan;
  };
  static constexpr Tables make() {
    Tables t{};
    t.anySpan = false;
    for (std::uint32_t k = 0; k < kRows; ++k) {
      const std::uint32_t bit = (G * kRows + k) * W;
      const std::uint32_t q = bit / 32;
      const std::uint32_t shift = bit % 32;
      const bool span = shift + W > 32;
      t.anySpan = t.anySpan || span;
      for (std::uint32_t l = 0; l < 4; ++l) {
        t.lo[4 * k + l] = static_cast<std::int32_t>(4 * (q - kQ0) + l);
        t.hi[4 * k + l] = span ? static_cast<std::int32_t>(4 * (q - kQ0) + l) : 0;  // from q0 + 1
        t.shr[4 * k + l] = shift;
        t.shl[4 * k + l] = span ? 32 - shift : 32;
      }
    }
    return t;
  }
  static constexpr Tables kTables = make();
};

// L words from word group Q on; only the groups inside the block (W groups) are read: masked
// loads suppress faults on the lanes past the block's end.
template <std::uint32_t W, std::uint32_t Q, class D>
HWY_INLINE hn::Vec<D> loadGroups(D d, const std::uint32_t* HWY_RESTRICT in) {
  constexpr std::size_t kLanes = hn::MaxLanes(D());
  constexpr std::uint32_t kAvail = Q < W ? W - Q : 0;  // groups left in the block
  if constexpr (4 * kAvail >= kLanes) {
    return hn::LoadU(d, in + 4 * Q);
  } else if constexpr (kAvail == 0) {
    return hn::Zero(d);
  } else {
    return hn::MaskedLoad(hn::FirstN(d, 4 * kAvail), d, in + 4 * Q);
  }
}

template <std::uint32_t W, std::uint32_t G, class D>
HWY_INLINE hn::Vec<D> unpackWide(D d, const std::uint32_t* HWY_RESTRICT in) {
  constexpr std::size_t kLanes = hn::MaxLanes(D());
  using Plan = WidePlan<W, G, kLanes>;
  constexpr auto& t = Plan::kTables;
  if constexpr (W == 32) {
    return hn::LoadU(d, in + kLanes * G);  // rows are whole words
  } else {
    const auto lo = hn::TableLookupLanes(loadGroups<W, Plan::kQ0>(d, in), hn::SetTableIndices(d, t.lo));
    auto v = hn::Shr(lo, hn::Load(d, t.shr));
    if constexpr (t.anySpan) {
      const auto hi = hn::TableLookupLanes(loadGroups<W, Plan::kQ0 + 1>(d, in), hn::SetTableIndices(d, t.hi));
      v = hn::Or(v, hn::Shl(hi, hn::Load(d, t.shl)));
    }
    return hn::And(v, hn::Set(d, (1u << W) - 1u));
  }
}

// Lane k of block b takes lane 3 of block b - K (zero for b < K): the running total of the
// blocks K places before, for the cross-block part of the prefix sum.
template <std::size_t K, class D>
HWY_INLINE hn::Vec<D> blockTotalsBefore(D d, hn::Vec<D> v) {
  constexpr std::size_t kLanes = hn::MaxLanes(D());
  struct Idx {
    alignas(64) std::int32_t idx[kLanes];
  };
  static constexpr Idx kIdx = [] {
    Idx x{};
    for (std::size_t i = 0; i < kLanes; ++i) {
      const std::size_t block = i / 4;
      x.idx[i] = block >= K ? static_cast<std::int32_t>(4 * (block - K) + 3) : 0;
    }
    return x;
  }();
  const auto valid = hn::Not(hn::FirstN(d, 4 * K));
  return hn::IfThenElseZero(valid, hn::TableLookupLanes(v, hn::SetTableIndices(d, kIdx.idx)));
}

template <std::uint32_t W, std::uint32_t G, class D, class Indices>
HWY_INLINE void deltaWide(D d, const std::uint32_t* HWY_RESTRICT in, std::uint32_t* HWY_RESTRICT out,
                          hn::Vec<D> steps, Indices last, hn::Vec<D>& carry) {
  constexpr std::size_t kLanes = hn::MaxLanes(D());
  hn::Vec<D> v;
  if constexpr (W == 0) {
    (void)in;
    v = steps;
  } else {
    v = unpackWide<W, G>(d, in);
    v = hn::Add(v, hn::ShiftLeftLanes<1>(d, v));  // prefix inside each 128-bit block
    v = hn::Add(v, hn::ShiftLeftLanes<2>(d, v));
    auto before = blockTotalsBefore<1>(d, v);
    if constexpr (kLanes == 16) {
      before = hn::Add(before, hn::Add(blockTotalsBefore<2>(d, v), blockTotalsBefore<3>(d, v)));
    }
    v = hn::Add(hn::Add(v, before), steps);
  }
  hn::StoreU(hn::Add(v, carry), d, out + kLanes * G);
  carry = hn::Add(carry, hn::TableLookupLanes(v, last));
}

template <std::uint32_t W, std::size_t... G>
HWY_INLINE void deltaGroups(const std::uint32_t* HWY_RESTRICT in, std::uint32_t base,
                            std::uint32_t* HWY_RESTRICT out, std::index_sequence<G...>) {
  const hn::ScalableTag<std::uint32_t> d;
  const hn::RebindToSigned<decltype(d)> di;
  const auto steps = hn::Iota(d, 1);
  const auto last = hn::IndicesFromVec(d, hn::Set(di, static_cast<std::int32_t>(hn::MaxLanes(d) - 1)));
  auto carry = hn::Set(d, base);
  (deltaWide<W, static_cast<std::uint32_t>(G)>(d, in, out, steps, last, carry), ...);
}

#endif  // HWY_TARGET <= HWY_AVX2

template <std::uint32_t W>
void unpackKernel(const std::uint32_t* HWY_RESTRICT in, std::uint32_t* HWY_RESTRICT out) {
  if constexpr (W == 0) {
    const hn::ScalableTag<std::uint32_t> d;
    for (std::size_t i = 0; i < codec::kBp128Values; i += hn::Lanes(d)) hn::StoreU(hn::Zero(d), d, out + i);
  } else {
    unpackRows<W>(in, out, std::make_index_sequence<32>{});
  }
}

template <std::uint32_t W>
void unpackPlusOneKernel(const std::uint32_t* HWY_RESTRICT in, std::uint32_t* HWY_RESTRICT out) {
  if constexpr (W == 0) {
    const hn::ScalableTag<std::uint32_t> d;
    for (std::size_t i = 0; i < codec::kBp128Values; i += hn::Lanes(d)) {
      hn::StoreU(hn::Set(d, 1u), d, out + i);
    }
  } else {
    unpackRowsPlusOne<W>(in, out, std::make_index_sequence<32>{});
  }
}

// Row r of the fused delta: the in-vector inclusive prefix sum of the four gaps (two shifted
// adds) plus (1, 2, 3, 4) for the "+1" of each stored gap, all independent of other rows; then the
// running carry (the previous row's last doc id in every lane) is added. The next carry is the
// carry plus this row's total, so a single add per row sits on the dependency chain from row to
// row (carry = Broadcast(out) would put the add and the shuffle on it).
template <std::uint32_t W, std::uint32_t R>
HWY_INLINE void deltaRow(D4 d, const std::uint32_t* HWY_RESTRICT in, std::uint32_t* HWY_RESTRICT out,
                         V4 steps, V4& carry) {
  V4 v;
  if constexpr (W == 0) {
    (void)in;
    v = steps;
  } else {
    v = unpackRow<W, R>(d, in);
    v = hn::Add(v, hn::ShiftLeftLanes<1>(d, v));
    v = hn::Add(v, hn::ShiftLeftLanes<2>(d, v));
    v = hn::Add(v, steps);
  }
  hn::StoreU(hn::Add(v, carry), d, out + 4 * R);
  carry = hn::Add(carry, hn::Broadcast<3>(v));
}

template <std::uint32_t W, std::size_t... R>
HWY_INLINE void deltaRows(const std::uint32_t* HWY_RESTRICT in, std::uint32_t base,
                          std::uint32_t* HWY_RESTRICT out, std::index_sequence<R...>) {
  const D4 d;
  const V4 steps = hn::Iota(d, 1);
  V4 carry = hn::Set(d, base);
  (deltaRow<W, R>(d, in, out, steps, carry), ...);
}

template <std::uint32_t W>
void unpackDeltaKernel(const std::uint32_t* HWY_RESTRICT in, std::uint32_t base,
                       std::uint32_t* HWY_RESTRICT out) {
#if HWY_TARGET <= HWY_AVX2
  constexpr std::size_t kGroups = codec::kBp128Values / hn::MaxLanes(hn::ScalableTag<std::uint32_t>());
  deltaGroups<W>(in, base, out, std::make_index_sequence<kGroups>{});
#else
  deltaRows<W>(in, base, out, std::make_index_sequence<32>{});
#endif
}

#endif  // HWY_TARGET

}  // namespace HWY_NAMESPACE
}  // namespace wandscope::engine::simd
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
