// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wandscope::engine::simd {

// The instruction sets the SIMD kernels (engine/codec/simd) run on. One binary carries a Highway
// kernel for each x86 target it was compiled for and picks the best one the CPU supports at run
// time; a user can force any supported one to compare them side by side.
//
//  - scalar: the plain C++ reference implementations (engine/codec/bp128.h,
//    engine/query/algorithms/merge_kernels.h, ...), the test oracle of every kernel;
//  - sse4:   Highway's SSE4 target (128-bit vectors);
//  - avx2:   Highway's AVX2 target (256-bit vectors, BMI2, FMA);
//  - avx3:   Highway's AVX3 target (AVX-512 F/BW/DQ/VL);
//  - avx3_vp2: avx3 with the long-run intersection (the bulk AND's long windows, taat's pairs) on
//    AVX-512 VP2INTERSECT (intersect_vp2.h); every other kernel is avx3's. "best" picks it only where that instruction
//    is fast (AMD Zen 5); Intel's Tiger Lake has it microcoded, so there it must be forced.
//
// "best" is not a target but a request: the best supported target (the default).
enum class Target { Scalar, Sse4, Avx2, Avx3, Avx3Vp2 };

// The environment variable read once, before the first kernel call (or by applyEnvironment()):
// WANDSCOPE_SIMD=scalar|sse4|avx2|avx3|avx3_vp2|best. Lets CI run any test suite per target.
inline constexpr const char* kTargetEnvVar = "WANDSCOPE_SIMD";

// "scalar", "sse4", "avx2", "avx3", "avx3_vp2".
const char* targetName(Target target) noexcept;
// The target of a name ("best" and unknown names give nullopt).
std::optional<Target> parseTarget(std::string_view name) noexcept;

// The target the kernels run on now.
Target currentTarget();
// The best target compiled in and supported by this CPU (what "best" selects; avx3_vp2 only where
// VP2INTERSECT is fast, see above).
Target bestTarget();
// Every target compiled into this binary, scalar first.
std::vector<Target> compiledTargets();
// The compiled-in targets this CPU can run, scalar first, best last.
std::vector<Target> supportedTargets();
// True when a target was forced (by forceTarget or the environment) rather than chosen.
bool targetForced();

// Makes every kernel run on the named target: "scalar", "sse4", "avx2", "avx3", "avx3_vp2" or "best" (back to
// automatic choice). Throws Error(Usage) for an unknown name or a target that is not compiled in
// or not supported by this CPU; the message lists the supported ones. Not thread-safe with
// respect to running kernels: switch targets between queries, not during them. Kernel tables
// fetched earlier (bp128Kernels(), ...) keep pointing at the previous target.
void forceTarget(std::string_view name);
void forceTarget(Target target);

// Re-reads WANDSCOPE_SIMD and applies it (unset or empty means "best"). Throws Error(Usage) like
// forceTarget, naming the variable. Called automatically once before the first kernel runs.
void applyEnvironment();

}  // namespace wandscope::engine::simd
