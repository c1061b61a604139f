// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/codec/simd/simd_target.h"

#include <cstddef>
#include <cstdint>

namespace wandscope::engine::simd {

// find_next_geq over a decoded block: the first index i < n with values[i] >= target, or n if
// there is none. Unsigned comparison over the whole u32 range (values near 2^31 and UINT32_MAX
// included). Works on any array (the vector kernels stop at the first vector holding a match,
// they do not assume sorted input); reads nothing outside values[0, n).
using FindNextGeqFn = std::size_t (*)(const std::uint32_t* values, std::size_t n, std::uint32_t target);

// The kernel of the current target; fetch once per cursor or query, outside per-block loops.
FindNextGeqFn findNextGeqKernel();
// One-call form (fetches the kernel on every call).
std::size_t findNextGeq(const std::uint32_t* values, std::size_t n, std::uint32_t target);

// count_below: how many of values[0, n) are below target (unsigned), every value compared, with no
// early exit. On ascending values it is findNextGeq's answer, without the mispredicted exit of a
// scan that stops at its match: the bulk AND looks each of a few candidates up in the decoded
// block that can hold it this way. Reads nothing outside values[0, n).
using CountBelowFn = std::size_t (*)(const std::uint32_t* values, std::size_t n, std::uint32_t target);

// The kernel of the current target; fetch once per query, outside per-block loops.
CountBelowFn countBelowKernel();

namespace scalar {
// The scalar reference (a plain linear scan): the test oracle and the "scalar" target.
std::size_t findNextGeq(const std::uint32_t* values, std::size_t n, std::uint32_t target) noexcept;
// The scalar reference of count_below.
std::size_t countBelow(const std::uint32_t* values, std::size_t n, std::uint32_t target) noexcept;
}  // namespace scalar

}  // namespace wandscope::engine::simd
