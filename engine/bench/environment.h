// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/bench/run_types.h"
#include "engine/index/index.h"

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

namespace wandscope::engine {

// Where and how this process runs: CPU model and cores (/proc/cpuinfo), kernel (uname), memory,
// load average, cpufreq governor and ASLR when exposed, the compiler, flags and build type this
// binary was built with, the git commit and dirty flag (as of CMake's configure step), the SIMD
// target (through the hook below) and the UTC time. Fingerprints are added by the runner.
Environment collectEnvironment();

// The SIMD target the kernels run on (engine/codec/simd: "scalar", "sse4", "avx2", "avx3", "avx3_vp2"). A
// provider overrides it: a report about a plugin build names that build's target. Thread-safe; an
// empty function restores the built-in kernels' target.
void setSimdTargetProvider(std::function<std::string()> provider);
std::string currentSimdTarget();

// Whether system calls empty the TLB: the kernel isolates its page tables (`meltdownStatus`, the
// line of /sys/devices/system/cpu/vulnerabilities/meltdown, says "PTI") and the CPU has no PCID
// (`cpuFlags`, the value of /proc/cpuinfo's flags line) to keep the user's TLB entries across the switch.
bool ptiWithoutPcid(std::string_view meltdownStatus, std::string_view cpuFlags);

// The report warning for a host whose system calls empty the TLB (nullopt elsewhere): the clock
// reads around each request of a load run then cost the request more than their own time
// (docs/PERF.md, "Clock reads and the TLB"; `compare` reads that clock per block, not per query).
std::optional<std::string> syscallTlbWarning(const Environment& env);

// The Environment's fields as report.json and the run store name them (docs/FORMAT.md), in that
// order: one table for the report writer and the store's codec. Environment::fingerprints is not
// in it: it is written apart, as "fingerprints": {name: hash}.
using EnvironmentMember = std::variant<std::string Environment::*, unsigned Environment::*,
                                       double Environment::*, bool Environment::*>;
struct EnvironmentField {
  const char* name;
  EnvironmentMember member;
};
std::span<const EnvironmentField> environmentFields() noexcept;

// Whether this binary is an optimised build without sanitizers (reports warn otherwise).
bool isReleaseBuild(const Environment& env);

// "fnv1a64:<hex>" of the index's current manifest (segments, checksums, statistics): two indexes
// with the same fingerprint hold the same postings.
std::string indexFingerprint(const Index& index);

}  // namespace wandscope::engine
