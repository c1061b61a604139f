// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/environment.h"

#include "engine/bench/process_stats.h"
#include "engine/codec/simd/simd_target.h"
#include "engine/loadgen/steady_time.h"
#include "wandscope_git_revision.h"  // generated at build time (cmake/GitRevision.cmake)

#include <fmt/format.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string_view>
#include <thread>

// Set on this file by engine/bench/CMakeLists.txt from the configure step.
#ifndef WANDSCOPE_BUILD_TYPE
#define WANDSCOPE_BUILD_TYPE "unknown"
#endif
#ifndef WANDSCOPE_CXX_FLAGS
#define WANDSCOPE_CXX_FLAGS "unknown"
#endif
#ifndef WANDSCOPE_BUILD_SANITIZE
#define WANDSCOPE_BUILD_SANITIZE ""
#endif
#ifndef WANDSCOPE_BUILD_VERSION
#define WANDSCOPE_BUILD_VERSION "unknown"
#endif

namespace wandscope::engine {
namespace {

std::mutex g_simdMutex;
std::function<std::string()> g_simdProvider;

std::string firstLine(const char* path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// The value of the first processor's `key` line in /proc/cpuinfo ("model name", "flags"), after
// its colon; "" when absent.
std::string cpuinfoValue(std::string_view key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    auto v = line.substr(colon + 1);
    while (!v.empty() && v.front() == ' ') v.erase(v.begin());
    return v;
  }
  return {};
}

std::string cpuModel() {
  std::string model = cpuinfoValue("model name");
  return model.empty() ? "unknown" : model;
}

double memTotalMib() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  double kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit) {
    if (key == "MemTotal:") return kib / 1024.0;
  }
  return 0;
}

std::string compilerName() {
#if defined(__clang__)
  return fmt::format("clang++ {}.{}.{}", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
  return fmt::format("g++ {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
  return "unknown";
#endif
}

std::string utcNow() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// Mean cost of one call, over enough calls to dwarf the clock's own resolution.
template <typename F>
double callCostNs(F&& f) {
  constexpr int kCalls = 20000;
  timespec a{}, b{};
  ::clock_gettime(CLOCK_MONOTONIC, &a);
  std::int64_t sink = 0;
  for (int i = 0; i < kCalls; ++i) sink += f();
  ::clock_gettime(CLOCK_MONOTONIC, &b);
  const double ns = static_cast<double>(b.tv_sec - a.tv_sec) * 1e9 + static_cast<double>(b.tv_nsec - a.tv_nsec);
  return sink == 42 ? 0.0 : ns / kCalls;
}

}  // namespace

void setSimdTargetProvider(std::function<std::string()> provider) {
  std::lock_guard lock(g_simdMutex);
  g_simdProvider = std::move(provider);
}

std::string currentSimdTarget() {
  std::lock_guard lock(g_simdMutex);
  if (!g_simdProvider) return simd::targetName(simd::currentTarget());
  std::string t = g_simdProvider();
  return t.empty() ? "unknown" : t;
}

Environment collectEnvironment() {
  Environment e;
  e.cpuModel = cpuModel();
  e.cores = std::thread::hardware_concurrency();
  utsname u{};
  if (::uname(&u) == 0) {
    e.kernel = fmt::format("{} {}", u.sysname, u.release);
    e.hostname = u.nodename;
  }
  e.compiler = compilerName();
  e.compilerFlags = WANDSCOPE_CXX_FLAGS;
  e.buildType = WANDSCOPE_BUILD_TYPE;
  e.gitCommit = WANDSCOPE_GIT_COMMIT;
  // "unknown" (no git at build time) counts as dirty: nothing proves the tree was clean.
  e.gitDirty = std::string(WANDSCOPE_GIT_DIRTY) != "clean";
  e.simdTarget = currentSimdTarget();
  e.wandscopeVersion = WANDSCOPE_BUILD_VERSION;
  e.startedUtc = utcNow();
  e.sanitizers = WANDSCOPE_BUILD_SANITIZE;
  e.governor = firstLine("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  e.aslr = firstLine("/proc/sys/kernel/randomize_va_space");
  double load[3] = {0, 0, 0};
  if (::getloadavg(load, 3) > 0) e.loadAverage1m = load[0];
  e.memTotalMib = memTotalMib();
  e.steadyClockCallNs = callCostNs([] { return steadyNowNs(); });
  e.threadCpuClockCallNs = callCostNs([] { return threadCpuNs(); });
  e.syscallsFlushTlb = ptiWithoutPcid(firstLine("/sys/devices/system/cpu/vulnerabilities/meltdown"), cpuinfoValue("flags"));
  return e;
}

bool ptiWithoutPcid(std::string_view meltdownStatus, std::string_view cpuFlags) {
  if (meltdownStatus.find("PTI") == std::string_view::npos) return false;
  // Whole words of the flags line: "pcid" and not, say, a future "pcid2".
  std::size_t at = 0;
  while (at < cpuFlags.size()) {
    const std::size_t end = std::min(cpuFlags.find_first_of(" \t", at), cpuFlags.size());
    if (cpuFlags.substr(at, end - at) == "pcid") return false;
    at = end + 1;
  }
  return true;
}

std::optional<std::string> syscallTlbWarning(const Environment& env) {
  if (!env.syscallsFlushTlb) return std::nullopt;
  return std::string(
      "this host isolates kernel page tables without PCID: every system call empties the TLB, the two thread-CPU "
      "clock reads around each request among them, so each request's CPU and latency include refilling it, more "
      "for requests that touch more pages (on the host of docs/PERF.md \"Clock reads and the TLB\", two reads "
      "added 5.5 us to an 11 us query, half of it beyond the reads' own cost); `wandscope-cli run --repeat` times "
      "whole passes, and `compare` blocks of queries, without them");
}

bool isReleaseBuild(const Environment& env) {
  return (env.buildType == "Release" || env.buildType == "RelWithDebInfo") && env.sanitizers.empty();
}

std::string indexFingerprint(const Index& index) {
  const std::string text = index.manifest().serialize();
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (char ch : text) {
    h ^= static_cast<unsigned char>(ch);
    h *= 0x100000001b3ull;
  }
  return fmt::format("fnv1a64:{:016x}", h);
}

std::span<const EnvironmentField> environmentFields() noexcept {
  static constexpr EnvironmentField kFields[] = {
      {"cpu_model", &Environment::cpuModel},
      {"cores", &Environment::cores},
      {"mem_total_mib", &Environment::memTotalMib},
      {"kernel", &Environment::kernel},
      {"hostname", &Environment::hostname},
      {"load_average_1m", &Environment::loadAverage1m},
      {"governor", &Environment::governor},
      {"aslr", &Environment::aslr},
      {"compiler", &Environment::compiler},
      {"compiler_flags", &Environment::compilerFlags},
      {"build_type", &Environment::buildType},
      {"sanitizers", &Environment::sanitizers},
      {"git_commit", &Environment::gitCommit},
      {"git_dirty", &Environment::gitDirty},
      {"simd_target", &Environment::simdTarget},
      {"wandscope_version", &Environment::wandscopeVersion},
      {"gui_attached", &Environment::guiAttached},
      {"started_utc", &Environment::startedUtc},
      {"steady_clock_call_ns", &Environment::steadyClockCallNs},
      {"thread_cpu_clock_call_ns", &Environment::threadCpuClockCallNs},
      {"syscalls_flush_tlb", &Environment::syscallsFlushTlb},
  };
  return kFields;
}

}  // namespace wandscope::engine
