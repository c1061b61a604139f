// SPDX-License-Identifier: GPL-3.0-or-later
// Ctrl-C (SIGINT) and SIGTERM during `corpus gen`, `queries gen` and `index build`: the command
// stops, says "interrupted" (exit code 1) and removes what it made. Killed outright, corpus gen
// left a "c.jsonl.tmp.<pid>" of hundreds of MB that nothing removed, and index build its
// ".<name>.building-XXXXXX" directory and lock; never a half file at the final name.
#include "tests/cli/cli_runner.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wandscope::test {
namespace {

namespace fs = std::filesystem;
using SteadyClock = std::chrono::steady_clock;

// The entries of `dir` whose names start with `prefix`.
std::vector<std::string> entriesStartingWith(const fs::path& dir, const std::string& prefix) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.starts_with(prefix)) names.push_back(name);
  }
  return names;
}

// The size of the first entry of `dir` starting with `prefix`, if there is one.
std::optional<std::uintmax_t> sizeOfEntryStartingWith(const fs::path& dir, const std::string& prefix) {
  const auto names = entriesStartingWith(dir, prefix);
  if (names.empty()) return std::nullopt;
  std::error_code ec;
  const auto size = fs::file_size(dir / names.front(), ec);
  return ec ? std::optional<std::uintmax_t>() : size;
}

// A `ready` for runProcessAndSignal that also gives up waiting after `limit`: a command that never
// shows what the test waits for is signalled anyway rather than left to fill the disk.
template <typename Ready>
std::function<bool()> readyOrAfter(Ready ready, std::chrono::seconds limit) {
  const auto start = SteadyClock::now();
  return [ready, start, limit] { return ready() || SteadyClock::now() - start > limit; };
}

void expectInterrupted(const ProcessResult& r, const std::string& command, const char* signal) {
  EXPECT_TRUE(r.signalSent);
  EXPECT_EQ(r.signal, 0) << "killed by signal " << r.signal << " instead of stopping";
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_EQ(countLines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find(command + " interrupted by " + signal), std::string::npos) << r.err;
}

class InterruptCli : public ::testing::Test {
 protected:
  // A corpus whose scan and indexing take long enough to be interrupted (some 70 MB: a scan of
  // most of a second, checking for a stop ten times a second), made once for the suite.
  static void SetUpTestSuite() {
    s_dir = new TempDir();
    const auto r = cli({"corpus", "gen", "--docs", "300000", "--mean-len", "40", "--vocab", "20000", "--out",
                        (*s_dir / "corpus.jsonl").string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
  }
  static void TearDownTestSuite() {
    delete s_dir;
    s_dir = nullptr;
  }
  static fs::path corpus() { return *s_dir / "corpus.jsonl"; }

  TempDir m_dir;
  static TempDir* s_dir;
};

TempDir* InterruptCli::s_dir = nullptr;

TEST_F(InterruptCli, CorpusGenRemovesItsTemporaryOnSigintAndSigterm) {
  for (const auto& [signal, name] : {std::pair{SIGINT, "SIGINT"}, std::pair{SIGTERM, "SIGTERM"}}) {
    SCOPED_TRACE(name);
    const auto out = m_dir / "c.jsonl";
    // Some 7 GB if it ran to the end: signalled once its temporary holds a few MB.
    const auto r = runProcessAndSignal(WANDSCOPE_CLI,
                                       {"corpus", "gen", "--docs", "100000000", "--mean-len", "10", "--vocab", "100",
                                        "--threads", "1", "--out", out.string()},
                                       signal, readyOrAfter([&] {
                                         return sizeOfEntryStartingWith(m_dir.path(), "c.jsonl.tmp.").value_or(0) >
                                                (4u << 20);
                                       }, std::chrono::seconds(30)));
    expectInterrupted(r, "corpus gen", name);
    EXPECT_TRUE(entriesStartingWith(m_dir.path(), "c.jsonl").empty()) << "neither the temporary nor a half corpus";
  }
}

TEST_F(InterruptCli, IndexBuildRemovesItsStagingDirectoryAndLock) {
  const auto out = m_dir / "index";
  const auto r = runProcessAndSignal(WANDSCOPE_CLI,
                                     {"index", "build", "--corpus", corpus().string(), "--threads", "1",
                                      "--segment-docs", "20000", "--out", out.string()},
                                     SIGINT, readyOrAfter([&] {
                                       return !entriesStartingWith(m_dir.path(), ".index.building-").empty();
                                     }, std::chrono::seconds(30)));
  expectInterrupted(r, "index build", "SIGINT");
  EXPECT_TRUE(entriesStartingWith(m_dir.path(), ".index.").empty()) << "no staging directory, no lock";
  EXPECT_FALSE(fs::exists(out)) << "no index appeared";
}

TEST_F(InterruptCli, QueriesGenStopsDuringItsScanWritingNothing) {
  const auto out = m_dir / "q.jsonl";
  // The signal comes 150 ms after the start: after the handler is in place (at 50 ms a loaded machine
  // could deliver it before, killing the process), and well inside the scan (0.6 s idle on the
  // 2-core EPYC VM, 2026-12-06; slower under load, when the start is slower too).
  const auto start = SteadyClock::now();
  const auto r = runProcessAndSignal(WANDSCOPE_CLI,
                                     {"queries", "gen", "--corpus", corpus().string(), "--category", "sequential",
                                      "--tokens", "2", "--count", "10", "--out", out.string()},
                                     SIGINT, [&] { return SteadyClock::now() - start > std::chrono::milliseconds(150); });
  expectInterrupted(r, "queries gen", "SIGINT");
  EXPECT_TRUE(entriesStartingWith(m_dir.path(), "q.jsonl").empty());
}

}  // namespace
}  // namespace wandscope::test
