// SPDX-License-Identifier: GPL-3.0-or-later
// Faults in the middle of `index build` over an existing index, in child processes:
// - kill -9: the child rebuilds the index from a different corpus and is killed with SIGKILL
//   after delays that sweep the whole build (reading, inverting, writing segments, bounds,
//   manifest, the directory exchange, removing the old index). After every kill the target must
//   open as the previous index or as the new one, complete and answering exactly as it should,
//   never as a mixture or not at all, and the next build must succeed despite whatever temporary
//   directory the kill left behind.
// - a full disk: the child's file size limit (RLIMIT_FSIZE) makes a write fail part-way, as ENOSPC
//   would; the build must fail with an I/O error naming the file, remove its temporary directory
//   and leave the previous index untouched.
#include "engine/core/error.h"
#include "engine/index/index.h"
#include "engine/index/index_builder.h"
#include "engine/query/searcher.h"
#include "tests/support/process.h"
#include "tests/support/test_index.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <thread>

namespace wandscope::test {
namespace {

namespace fs = std::filesystem;

std::vector<engine::Hit> hits(const engine::Index& index, const std::string& q) {
  engine::SearchRequest r;
  r.text = q;
  r.k = 20;
  return engine::search(index, r).hits;
}

engine::IndexBuildOptions buildOptions(const fs::path& corpus) {
  engine::IndexBuildOptions options;
  options.corpus = corpus;
  options.threads = 2;
  options.segmentDocs = 1500;
  return options;
}

TEST(IndexBuildFault, AKillAtAnyPointLeavesThePreviousIndexOrTheNewOne) {
  TempDir dir;
  const auto oldDocs = randomCorpus(901, {.docs = 2000, .vocabulary = 150, .maxLength = 40});
  const auto newDocs = randomCorpus(902, {.docs = 6000, .vocabulary = 150, .maxLength = 40});
  writeCorpus(dir / "old.jsonl", oldDocs);
  writeCorpus(dir / "new.jsonl", newDocs);
  const fs::path target = dir / "index";
  const std::string query = "w0 w3 w11";

  // The answers of each complete index, and how long a rebuild takes on this machine (so the
  // kill delays sweep it whatever the build type or sanitizer).
  engine::buildIndex(buildOptions(dir / "new.jsonl"), target);
  const auto newHits = hits(*engine::Index::open(target), query);
  engine::buildIndex(buildOptions(dir / "old.jsonl"), target);
  const auto oldHits = hits(*engine::Index::open(target), query);
  ASSERT_NE(oldHits, newHits);
  // Time a whole rebuild the way the trials run it (in a forked child, which is slower than in
  // this process), so the kill delays sweep it whatever the build type, sanitizer or load.
  const auto start = std::chrono::steady_clock::now();
  const pid_t timed = ::fork();
  ASSERT_GE(timed, 0);
  if (timed == 0) {
    try {
      engine::buildIndex(buildOptions(dir / "new.jsonl"), target);
    } catch (...) {
      ::_exit(3);
    }
    ::_exit(0);
  }
  int timedStatus = 0;
  ASSERT_EQ(::waitpid(timed, &timedStatus, 0), timed);
  ASSERT_TRUE(WIFEXITED(timedStatus) && WEXITSTATUS(timedStatus) == 0);
  const auto buildUs =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
  engine::buildIndex(buildOptions(dir / "old.jsonl"), target);

  constexpr int kTrials = 16;
  int sawOld = 0;
  int sawNew = 0;
  int killedMidBuild = 0;
  std::size_t leftBehind = 0;  // staging directories the kills left (each removed by the next build)
  for (int trial = 0; trial < kTrials; ++trial) {
    // Old index in place; rebuild it from the new corpus in a child and kill it. The child is
    // forked from this (multi-threaded) process and only builds, then _exits.
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      try {
        engine::buildIndex(buildOptions(dir / "new.jsonl"), target);
      } catch (...) {
        ::_exit(3);
      }
      ::_exit(0);
    }
    // Delays from 0 to 1.25 x the build time (every phase), then 2, 3, 4 and 5 x (kills that land
    // after the switch, or after the end, even when this machine is loaded).
    const long long permille = trial < kTrials - 4 ? 1250LL * trial / (kTrials - 5) : 1000LL * (trial - kTrials + 6);
    const auto delay = std::chrono::microseconds(buildUs * permille / 1000);
    std::this_thread::sleep_for(delay);
    ::kill(pid, SIGKILL);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) ++killedMidBuild;
    if (WIFEXITED(status)) {
      EXPECT_EQ(WEXITSTATUS(status), 0) << "trial " << trial << ": the build itself failed";
    }

    std::shared_ptr<const engine::Index> index;
    ASSERT_NO_THROW(index = engine::Index::open(target)) << "trial " << trial << " (delay " << delay.count() << " us)";
    if (index->docCount() == oldDocs.size()) {
      ++sawOld;
      EXPECT_EQ(hits(*index, query), oldHits) << "trial " << trial;
    } else {
      ++sawNew;
      EXPECT_EQ(index->docCount(), newDocs.size()) << "trial " << trial;
      EXPECT_EQ(hits(*index, query), newHits) << "trial " << trial;
    }
    index.reset();
    // Whatever the kill left behind (a .index.building-* directory and its lock), the next build
    // succeeds, removes it, and puts the old index back for the next trial.
    for (const auto& e : fs::directory_iterator(dir.path())) {
      if (e.is_directory() && e.path().filename().string().rfind(".index.building-", 0) == 0) ++leftBehind;
    }
    ASSERT_NO_THROW(engine::buildIndex(buildOptions(dir / "old.jsonl"), target)) << "trial " << trial;
    EXPECT_EQ(hits(*engine::Index::open(target), query), oldHits);
    for (const auto& e : fs::directory_iterator(dir.path())) {
      EXPECT_NE(e.path().filename().string().rfind(".index.building-", 0), 0u)
          << "trial " << trial << ": the next build left " << e.path();
    }
  }
  std::printf("index build kill test: build %lld us, %d trials, %d killed mid-build, %d saw the old index, "
              "%d the new one, %zu staging directories left by kills (each removed by the next build)\n",
              static_cast<long long>(buildUs), kTrials, killedMidBuild, sawOld, sawNew, leftBehind);
  EXPECT_GT(sawOld, 0) << "some kill must land before the switch";
  EXPECT_GT(killedMidBuild, 0) << "the kills must land during the build";
}

TEST(IndexBuildFault, ADiskFullBuildFailsCleanlyAndKeepsThePreviousIndex) {
  TempDir dir;
  const auto oldDocs = randomCorpus(903, {.docs = 300, .vocabulary = 80, .maxLength = 30});
  const auto newDocs = randomCorpus(904, {.docs = 3000, .vocabulary = 150, .maxLength = 40});
  writeCorpus(dir / "old.jsonl", oldDocs);
  writeCorpus(dir / "new.jsonl", newDocs);
  const fs::path target = dir / "index";
  engine::buildIndex(buildOptions(dir / "old.jsonl"), target);
  const auto oldHits = hits(*engine::Index::open(target), "w0 w3 w11");

  // Limits from "nothing fits" to "the small files fit" (the limit is per file).
  for (const std::uint64_t limit : {0, 100, 4096, 12000}) {
    const ProcessResult child =
        runWithResourceLimit(RLIMIT_FSIZE, limit, [&] { engine::buildIndex(buildOptions(dir / "new.jsonl"), target); });
    const std::string& message = child.out;
    ASSERT_EQ(child.signal, 0) << "limit " << limit << ": the child crashed";
    EXPECT_EQ(child.exitCode, 1) << "limit " << limit << ": " << message;
    EXPECT_NE(message.find(engine::errorKindName(engine::ErrorKind::Io)), std::string::npos) << message;
    EXPECT_NE(message.find(".index.building-"), std::string::npos) << "names the file: " << message;
    std::printf("disk full at %llu bytes: %s\n", static_cast<unsigned long long>(limit), message.c_str());
    // The previous index is intact and nothing is left behind.
    const auto index = engine::Index::open(target);
    EXPECT_EQ(index->docCount(), oldDocs.size());
    EXPECT_EQ(hits(*index, "w0 w3 w11"), oldHits);
    for (const auto& e : fs::directory_iterator(dir.path())) {
      EXPECT_NE(e.path().filename().string().rfind(".index.building-", 0), 0u) << "left behind: " << e.path();
    }
  }
}

}  // namespace
}  // namespace wandscope::test
