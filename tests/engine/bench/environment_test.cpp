// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/environment.h"

#include <gtest/gtest.h>

#include <iostream>
#include <string>

namespace wandscope::test {
namespace {

using engine::ptiWithoutPcid;

// The lines of the 2-core EPYC VM of stop 37 (kernel page-table isolation, no pcid flag), where
// two thread-CPU clock reads per query added 5.5 us to an 11 us query.
constexpr const char* kMeltdownPti = "Mitigation: PTI";
constexpr const char* kFlagsWithoutPcid =
    "flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ht "
    "syscall nx mmxext lm constant_tsc rep_good nopl xtopology pni pclmulqdq ssse3 fma cx16 sse4_1 sse4_2 "
    "x2apic movbe popcnt invpcid_single pti vmmcall bmi1 avx2";

TEST(Environment, SyscallsFlushTheTlbOnlyUnderPtiWithoutPcid) {
  EXPECT_TRUE(ptiWithoutPcid(kMeltdownPti, kFlagsWithoutPcid)) << "pti, and 'invpcid_single' is not 'pcid'";
  const std::string withPcid = std::string(kFlagsWithoutPcid) + " pcid avx512f";
  EXPECT_FALSE(ptiWithoutPcid(kMeltdownPti, withPcid)) << "PCID keeps user TLB entries across the switch";
  EXPECT_FALSE(ptiWithoutPcid(kMeltdownPti, "flags\t: pcid"));
  // Not affected, or mitigated otherwise, or the file absent (an empty line): no warning.
  EXPECT_FALSE(ptiWithoutPcid("Not affected", kFlagsWithoutPcid));
  EXPECT_FALSE(ptiWithoutPcid("Vulnerable", kFlagsWithoutPcid));
  EXPECT_FALSE(ptiWithoutPcid("", kFlagsWithoutPcid));
  // PTI with no flags line at all (no /proc/cpuinfo): nothing says PCID is there.
  EXPECT_TRUE(ptiWithoutPcid(kMeltdownPti, ""));
}

TEST(Environment, TheTlbWarningIsGivenOnlyWhereSyscallsFlushIt) {
  engine::Environment env;
  EXPECT_FALSE(engine::syscallTlbWarning(env));
  env.syscallsFlushTlb = true;
  const auto w = engine::syscallTlbWarning(env);
  ASSERT_TRUE(w);
  EXPECT_NE(w->find("without PCID"), std::string::npos) << *w;
  EXPECT_NE(w->find("run --repeat"), std::string::npos) << *w;
  // This machine's own answer, printed for the log (it depends on the host).
  std::cout << "this host: syscalls_flush_tlb = " << std::boolalpha << engine::collectEnvironment().syscallsFlushTlb
            << '\n';
}

}  // namespace
}  // namespace wandscope::test
