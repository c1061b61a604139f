// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/codec/simd/simd_target.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace wandscope::engine::simd {

// Vectorised BP128 (engine/codec/bp128.h describes the layout; it is the index format and does
// not change here). Every kernel gives exactly the scalar reference's output on every target.
// Blocks are read with unaligned loads, so no alignment is required; nothing outside
// in[0, 4 * width) or out[0, 128) is read or written.
//
// One kernel per width (0..32): the table is fetched once (per cursor or per call site) and each
// block then costs one indirect call, with no dispatch and no switch on the width:
//
//   const simd::Bp128Kernels& k = simd::bp128Kernels();
//   for (...) k.unpackDelta[width](in, base, out);
struct Bp128Kernels {
  using Unpack = void (*)(const std::uint32_t* in, std::uint32_t* out);
  using UnpackDelta = void (*)(const std::uint32_t* in, std::uint32_t base, std::uint32_t* out);

  std::array<Unpack, 33> unpack;            // indexed by width
  std::array<Unpack, 33> unpackPlusOne;     // out[i] = value + 1 mod 2^32 (frequencies, stored - 1)
  std::array<UnpackDelta, 33> unpackDelta;  // indexed by width
  Target target;                            // the target these kernels were compiled for
};

// The kernels of the current target (simd_target.h). The reference stays valid for the life of
// the process; it does not follow later forceTarget() calls.
const Bp128Kernels& bp128Kernels();

// One-call forms with the reference functions' signatures (width <= 32): they fetch the table on
// every call, which costs an atomic load and an indirect call more than a hoisted table.
void unpackBp128(const std::uint32_t* in, std::uint32_t width, std::uint32_t* out);
// out[i] = base + sum_{j <= i} (in[j] + 1) mod 2^32 (gaps stored minus one), fused with the unpack.
void unpackBp128Delta(const std::uint32_t* in, std::uint32_t width, std::uint32_t base,
                      std::uint32_t* out);
// Packs 128 values (each must fit in `width` bits) into 4 * width words at out (the index builder).
void packBp128(const std::uint32_t* in, std::uint32_t width, std::uint32_t* out);

}  // namespace wandscope::engine::simd
