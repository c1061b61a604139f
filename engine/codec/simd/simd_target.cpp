// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/codec/simd/simd_target.h"

#include "engine/codec/simd/intersect_vp2.h"
#include "engine/core/error.h"

#include <fmt/format.h>
#include <hwy/targets.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <mutex>

namespace wandscope::engine::simd {
namespace {

constexpr Target kAllTargets[] = {Target::Scalar, Target::Sse4, Target::Avx2, Target::Avx3, Target::Avx3Vp2};

// The Highway target bit behind each of ours (0 for the scalar reference, which is plain C++).
// HWY_TARGETS here is the set every kernel translation unit compiles: they share the flags.
constexpr std::int64_t hwyBit(Target target) noexcept {
  switch (target) {
    case Target::Scalar: return 0;
#if HWY_ARCH_X86
    case Target::Sse4: return HWY_SSE4;
    case Target::Avx2: return HWY_AVX2;
    case Target::Avx3:
    case Target::Avx3Vp2: return HWY_AVX3;  // its other kernels are avx3's
#else
    default: return 0;
#endif
  }
  return 0;
}

bool compiledIn(Target target) noexcept {
  return target == Target::Scalar || (hwyBit(target) & HWY_TARGETS) != 0;
}

// What the CPU supports, detected once with any test mock switched off.
std::int64_t cpuTargets() {
  static const std::int64_t bits = [] {
    hwy::SetSupportedTargetsForTest(0);
    return hwy::SupportedTargets();
  }();
  return bits;
}

bool supported(Target target) {
  if (target == Target::Avx3Vp2 && !cpuHasVp2intersect()) return false;
  return target == Target::Scalar || (compiledIn(target) && (hwyBit(target) & cpuTargets()) != 0);
}

std::mutex g_mutex;
std::atomic<bool> g_ready{false};  // the environment was applied or a target set explicitly
std::atomic<Target> g_current{Target::Scalar};
std::atomic<bool> g_forced{false};

std::string joinNames(const std::vector<Target>& targets) {
  std::string s;
  for (const Target t : targets) {
    if (!s.empty()) s.append(", ");
    s.append(targetName(t));
  }
  return s;
}

// Validates a request ("best" = nullopt target) and returns the target to use.
Target resolve(std::string_view name, std::string_view origin) {
  std::string prefix;
  if (!origin.empty()) prefix = fmt::format("{}={}: ", origin, name);
  if (name == "best") return bestTarget();
  const auto target = parseTarget(name);
  if (!target) {
    throwUsage(fmt::format("{}unknown SIMD target '{}' (expected scalar, sse4, avx2, avx3, avx3_vp2 or best)",
                           prefix, name));
  }
  if (!compiledIn(*target)) {
    throwUsage(fmt::format("{}SIMD target {} is not compiled into this build (compiled: {})", prefix,
                           name, joinNames(compiledTargets())));
  }
  if (!supported(*target)) {
    throwUsage(fmt::format("{}SIMD target {} is not supported by this CPU (supported: {})", prefix,
                           name, joinNames(supportedTargets())));
  }
  return *target;
}

// Caller holds g_mutex. Points Highway's dispatch at the target: the scalar reference needs no
// Highway target (the kernel tables route it to the plain C++ code), so it leaves Highway's own
// choice alone, as does the automatic choice.
void setLocked(Target target, bool forced) {
  const std::int64_t bit = forced ? hwyBit(target) : 0;
  hwy::SetSupportedTargetsForTest(bit);  // 0 switches the mock off: real detection
  g_current.store(target, std::memory_order_release);
  g_forced.store(forced, std::memory_order_release);
  g_ready.store(true, std::memory_order_release);
}

void applyEnvironmentLocked() {
  const char* value = std::getenv(kTargetEnvVar);
  if (value == nullptr || *value == '\0') {
    setLocked(bestTarget(), false);
    return;
  }
  const std::string_view name(value);
  const Target target = resolve(name, kTargetEnvVar);
  setLocked(target, name != "best");
}

void ensureReady() {
  if (g_ready.load(std::memory_order_acquire)) return;
  std::lock_guard lock(g_mutex);
  if (g_ready.load(std::memory_order_relaxed)) return;
  applyEnvironmentLocked();  // throws (and stays unready) for a bad value
}

}  // namespace

const char* targetName(Target target) noexcept {
  switch (target) {
    case Target::Scalar: return "scalar";
    case Target::Sse4: return "sse4";
    case Target::Avx2: return "avx2";
    case Target::Avx3: return "avx3";
    case Target::Avx3Vp2: return "avx3_vp2";
  }
  return "unknown";
}

std::optional<Target> parseTarget(std::string_view name) noexcept {
  for (const Target t : kAllTargets) {
    if (name == targetName(t)) return t;
  }
  return std::nullopt;
}

Target currentTarget() {
  ensureReady();
  return g_current.load(std::memory_order_acquire);
}

Target bestTarget() {
  Target best = Target::Scalar;
  for (const Target t : kAllTargets) {
    if (supported(t) && (t != Target::Avx3Vp2 || cpuPrefersVp2intersect())) best = t;
  }
  return best;
}

std::vector<Target> compiledTargets() {
  std::vector<Target> out;
  for (const Target t : kAllTargets) {
    if (compiledIn(t)) out.push_back(t);
  }
  return out;
}

std::vector<Target> supportedTargets() {
  std::vector<Target> out;
  for (const Target t : kAllTargets) {
    if (supported(t)) out.push_back(t);
  }
  return out;
}

bool targetForced() {
  ensureReady();
  return g_forced.load(std::memory_order_acquire);
}

void forceTarget(std::string_view name) {
  const Target target = resolve(name, {});
  std::lock_guard lock(g_mutex);
  setLocked(target, name != "best");
}

void forceTarget(Target target) { forceTarget(targetName(target)); }

void applyEnvironment() {
  std::lock_guard lock(g_mutex);
  applyEnvironmentLocked();
}

}  // namespace wandscope::engine::simd
