// SPDX-License-Identifier: GPL-3.0-or-later
// The SIMD target switch: names, forcing, errors, and the WANDSCOPE_SIMD environment variable.
#include "engine/codec/simd/bp128_simd.h"
#include "engine/codec/simd/intersect.h"
#include "engine/codec/simd/intersect_vp2.h"
#include "engine/codec/simd/simd_target.h"
#include "engine/core/error.h"
#include "tests/engine/codec/simd_test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>

namespace wandscope::test {
namespace {

namespace simd = engine::simd;
using simd::Target;

// Sets (or unsets) WANDSCOPE_SIMD for the scope and restores the variable and the target after.
class ScopedEnvironment {
 public:
  explicit ScopedEnvironment(const char* value)
      : m_target(simd::currentTarget()), m_forced(simd::targetForced()) {
    if (const char* old = std::getenv(simd::kTargetEnvVar)) m_old = old;
    if (value != nullptr) {
      ::setenv(simd::kTargetEnvVar, value, 1);
    } else {
      ::unsetenv(simd::kTargetEnvVar);
    }
  }
  ~ScopedEnvironment() {
    if (m_old) {
      ::setenv(simd::kTargetEnvVar, m_old->c_str(), 1);
    } else {
      ::unsetenv(simd::kTargetEnvVar);
    }
    simd::forceTarget(m_forced ? simd::targetName(m_target) : "best");
  }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

 private:
  std::optional<std::string> m_old;
  Target m_target;
  bool m_forced;
};

bool contains(const std::vector<Target>& v, Target t) { return std::find(v.begin(), v.end(), t) != v.end(); }

TEST(SimdTarget, NamesRoundTrip) {
  for (const Target t : {Target::Scalar, Target::Sse4, Target::Avx2, Target::Avx3, Target::Avx3Vp2}) {
    EXPECT_EQ(simd::parseTarget(simd::targetName(t)), t);
  }
  EXPECT_EQ(simd::parseTarget("best"), std::nullopt);
  EXPECT_EQ(simd::parseTarget("AVX2"), std::nullopt);
  EXPECT_EQ(simd::parseTarget(""), std::nullopt);
}

TEST(SimdTarget, SupportedTargetsAreCompiledInAndEndWithTheBest) {
  const auto compiled = simd::compiledTargets();
  const auto supported = simd::supportedTargets();
  ASSERT_FALSE(supported.empty());
  EXPECT_EQ(supported.front(), Target::Scalar);
  // The best is the last supported, except avx3_vp2 where VP2INTERSECT is slow (Intel's).
  const bool skipVp2 = supported.back() == Target::Avx3Vp2 && !simd::cpuPrefersVp2intersect();
  EXPECT_EQ(supported[supported.size() - (skipVp2 ? 2 : 1)], simd::bestTarget());
  for (const Target t : supported) EXPECT_TRUE(contains(compiled, t)) << simd::targetName(t);
  EXPECT_TRUE(std::is_sorted(supported.begin(), supported.end()));
}

TEST(SimdTarget, Avx3Vp2IsSupportedExactlyWhereAvx3AndTheInstructionAre) {
  const auto supported = simd::supportedTargets();
  const bool expected = contains(supported, Target::Avx3) && simd::cpuHasVp2intersect();
  EXPECT_EQ(contains(supported, Target::Avx3Vp2), expected)
      << "avx3 " << contains(supported, Target::Avx3) << ", VP2INTERSECT " << simd::cpuHasVp2intersect();
  if (!expected) GTEST_SKIP() << "this CPU has no AVX-512 VP2INTERSECT: the avx3_vp2 kernel is not run here";
  ScopedSimdTarget scope(Target::Avx3Vp2);
  EXPECT_EQ(simd::intersectKernels().target, Target::Avx3Vp2) << "the long runs' table of avx3_vp2";
  EXPECT_EQ(simd::bp128Kernels().target, Target::Avx3) << "every other kernel is avx3's";
}

TEST(SimdTarget, TheAutomaticChoiceOfAvx3Vp2RunsItsKernel) {
  // Chosen (not forced), Highway dispatches by its own detection: the table must still be avx3_vp2's.
  if (simd::bestTarget() != Target::Avx3Vp2) {
    GTEST_SKIP() << "best is " << simd::targetName(simd::bestTarget()) << " here, not avx3_vp2";
  }
  ScopedSimdTarget scope(Target::Scalar);
  simd::forceTarget("best");
  ASSERT_FALSE(simd::targetForced());
  EXPECT_EQ(simd::currentTarget(), Target::Avx3Vp2);
  EXPECT_EQ(simd::intersectKernels().target, Target::Avx3Vp2);
}

TEST(SimdTarget, ForcingEverySupportedTargetMakesItCurrent) {
  forEachSimdTarget([](Target t) {
    EXPECT_EQ(simd::currentTarget(), t);
    EXPECT_TRUE(simd::targetForced());
  });
}

TEST(SimdTarget, BestIsTheAutomaticChoice) {
  ScopedSimdTarget scope(Target::Scalar);
  simd::forceTarget("best");
  EXPECT_EQ(simd::currentTarget(), simd::bestTarget());
  EXPECT_FALSE(simd::targetForced());
}

TEST(SimdTarget, UnknownAndUnsupportedNamesAreUsageErrors) {
  const Target before = simd::currentTarget();
  try {
    simd::forceTarget("avx9");
    FAIL() << "no error";
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("unknown SIMD target 'avx9'"), std::string::npos) << e.what();
  }
  for (const Target t : {Target::Sse4, Target::Avx2, Target::Avx3, Target::Avx3Vp2}) {
    if (contains(simd::supportedTargets(), t)) continue;
    try {
      simd::forceTarget(t);
      FAIL() << "no error for " << simd::targetName(t);
    } catch (const engine::Error& e) {
      EXPECT_EQ(e.kind(), engine::ErrorKind::Usage);
      EXPECT_NE(std::string(e.what()).find(simd::targetName(t)), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(simd::currentTarget(), before) << "a failed request changed the target";
}

TEST(SimdTarget, EnvironmentSelectsTheTarget) {
  for (const Target t : simd::supportedTargets()) {
    ScopedEnvironment env(simd::targetName(t));
    simd::applyEnvironment();
    EXPECT_EQ(simd::currentTarget(), t);
    EXPECT_TRUE(simd::targetForced());
  }
  {
    ScopedEnvironment env("best");
    simd::applyEnvironment();
    EXPECT_EQ(simd::currentTarget(), simd::bestTarget());
    EXPECT_FALSE(simd::targetForced());
  }
  {
    ScopedEnvironment env(nullptr);
    simd::applyEnvironment();
    EXPECT_EQ(simd::currentTarget(), simd::bestTarget());
  }
}

TEST(SimdTarget, BadEnvironmentValueIsAUsageErrorNamingTheVariable) {
  ScopedEnvironment env("sse9");
  try {
    simd::applyEnvironment();
    FAIL() << "no error";
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("WANDSCOPE_SIMD=sse9"), std::string::npos) << e.what();
  }
}

// What CI relies on: a suite run with WANDSCOPE_SIMD=<target> really runs on that target.
TEST(SimdTarget, SuiteRunsOnTheTargetNamedInTheEnvironment) {
  const char* value = std::getenv(simd::kTargetEnvVar);
  if (value == nullptr || *value == '\0' || std::string(value) == "best") {
    EXPECT_EQ(simd::currentTarget(), simd::bestTarget());
    return;
  }
  EXPECT_EQ(simd::parseTarget(value), simd::currentTarget());
}

}  // namespace
}  // namespace wandscope::test
