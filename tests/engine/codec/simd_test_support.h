// SPDX-License-Identifier: GPL-3.0-or-later
// Runs a test body once per SIMD target this binary has and this CPU supports, with the target
// forced, and restores the previous choice afterwards (so a suite run under WANDSCOPE_SIMD=... keeps
// its target for the next test).
#pragma once

#include "engine/codec/simd/simd_target.h"

#include <gtest/gtest.h>

#include <string>

namespace wandscope::test {

class ScopedSimdTarget {
 public:
  explicit ScopedSimdTarget(engine::simd::Target target)
      : m_previous(engine::simd::currentTarget()), m_wasForced(engine::simd::targetForced()) {
    engine::simd::forceTarget(target);
  }
  ~ScopedSimdTarget() {
    if (m_wasForced) {
      engine::simd::forceTarget(m_previous);
    } else {
      engine::simd::forceTarget("best");
    }
  }
  ScopedSimdTarget(const ScopedSimdTarget&) = delete;
  ScopedSimdTarget& operator=(const ScopedSimdTarget&) = delete;

 private:
  engine::simd::Target m_previous;
  bool m_wasForced;
};

// The target a kernel family other than the intersections was compiled for when `target` is
// forced: avx3_vp2 runs avx3's (simd_target.h).
inline engine::simd::Target compiledFor(engine::simd::Target target) {
  return target == engine::simd::Target::Avx3Vp2 ? engine::simd::Target::Avx3 : target;
}

// body(target) runs with the target forced; failures name the target.
template <class Body>
void forEachSimdTarget(Body&& body) {
  for (const engine::simd::Target target : engine::simd::supportedTargets()) {
    SCOPED_TRACE(std::string("SIMD target ") + engine::simd::targetName(target));
    ScopedSimdTarget scope(target);
    body(target);
  }
}

}  // namespace wandscope::test
