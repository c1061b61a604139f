// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>

namespace wandscope::engine::codec {

// BP128: 128 unsigned 32-bit values bit-packed at one width w (0..32) in the SIMD-BP128 layout of
// Lemire & Boytsov: value i lives in lane i % 4, row i / 4; each lane packs its 32 rows LSB-first
// into w 32-bit words, and the lanes' words are interleaved (word j of lane l is at index 4j + l).
// A block takes exactly 4 * w words (16 * w bytes), so width 0 takes no space at all. A 128-bit
// vector load reads word j of all four lanes, which is what lets any SIMD width decode it.
//
// These are the scalar reference implementations: the test oracle for the Highway kernels
// (engine/codec/simd) and the "scalar" SIMD target.
inline constexpr std::size_t kBp128Values = 128;

// Number of 32-bit words a block of the given width occupies.
constexpr std::size_t bp128Words(std::uint32_t width) noexcept { return 4u * width; }

// Number of 32-bit words the first `values` (1..128) values of a block take when the block is cut
// after the rows they fill: ceil(values / 4) rows, each lane's bits rounded up to whole words. The
// words dropped hold only later rows, so a block whose later values are 0 unpacks from this prefix
// followed by zero words (a packed tail, docs/FORMAT.md). For 128 values it is bp128Words(width).
constexpr std::size_t bp128PrefixWords(std::uint32_t width, std::size_t values) noexcept {
  const std::size_t rows = (values + 3) / 4;
  return 4u * ((rows * width + 31) / 32);
}

// Smallest width that holds every one of the n values (0 when all are 0).
std::uint32_t requiredWidth(const std::uint32_t* values, std::size_t n) noexcept;

// Packs 128 values (each must fit in `width` bits) into 4 * width words at `out`.
void packBp128(const std::uint32_t* in, std::uint32_t width, std::uint32_t* out) noexcept;

// Unpacks 128 values.
void unpackBp128(const std::uint32_t* in, std::uint32_t width, std::uint32_t* out) noexcept;

// Unpacks 128 values stored minus one (frequencies): out[i] = in[i] + 1, modulo 2^32.
void unpackBp128PlusOne(const std::uint32_t* in, std::uint32_t width, std::uint32_t* out) noexcept;

// Unpacks 128 doc-id gaps stored as (gap - 1) and turns them into doc ids:
// out[i] = base + sum_{j <= i} (in[j] + 1), modulo 2^32 (base is the previous doc id; for the
// first block of a list it is the list's start minus one, which may wrap).
void unpackBp128Delta(const std::uint32_t* in, std::uint32_t width, std::uint32_t base,
                      std::uint32_t* out) noexcept;

}  // namespace wandscope::engine::codec
