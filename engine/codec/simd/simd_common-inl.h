// SPDX-License-Identifier: GPL-3.0-or-later
// Shared per-target helpers of the kernel families; re-included once per Highway target (through
// each family's -inl.h), hence the toggle guard instead of #pragma once.
#include "engine/codec/simd/simd_target.h"

#include <cstdint>
#include <cstring>

#if defined(WANDSCOPE_CODEC_SIMD_COMMON_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef WANDSCOPE_CODEC_SIMD_COMMON_INL_H_
#undef WANDSCOPE_CODEC_SIMD_COMMON_INL_H_
#else
#define WANDSCOPE_CODEC_SIMD_COMMON_INL_H_
#endif

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace wandscope::engine::simd {
namespace HWY_NAMESPACE {

// Our name of the target being compiled. Highway's emulation fallbacks (HWY_SCALAR, HWY_EMU128)
// compile no vector kernels: every family forwards them to its scalar reference, so they are
// "scalar" too.
constexpr Target thisTarget() noexcept {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  return Target::Avx3;
#elif HWY_ARCH_X86 && HWY_TARGET == HWY_AVX2
  return Target::Avx2;
#elif HWY_ARCH_X86 && HWY_TARGET == HWY_SSE4
  return Target::Sse4;
#else
  return Target::Scalar;
#endif
}

#if HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
// The mask as bits (lane i = bit i). For emitting the few selected lanes with a bit loop:
// Highway 1.0.3's Compress below AVX-512 builds its index table on the stack at every call
// (GCC copies the 1 KiB constexpr local), which costs more than the loop.
template <class D, class M>
HWY_INLINE std::uint64_t maskBits(D d, M m) {
  std::uint8_t bytes[8] = {};
  hwy::HWY_NAMESPACE::StoreMaskBits(d, m, bytes);
  std::uint64_t bits = 0;
  std::memcpy(&bits, bytes, sizeof bits);
  return bits;
}
#endif

}  // namespace HWY_NAMESPACE
}  // namespace wandscope::engine::simd
HWY_AFTER_NAMESPACE();

#endif  // toggle guard
