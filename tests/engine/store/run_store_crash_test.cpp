// SPDX-License-Identifier: GPL-3.0-or-later
// kill -9 in the middle of a run: a child process records rungs as fast as it can, reporting each
// commit that returned through a pipe; the parent kills it with SIGKILL at varying moments (often
// inside a transaction or an fsync), then checks that the file is intact and holds every rung
// whose commit the child saw return, exactly.
#include "engine/store/run_store.h"

#include "engine/store/run_codec.h"
#include "tests/engine/store/store_test_data.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <map>
#include <random>

namespace wandscope::test {
namespace {

constexpr std::uint32_t kMaxRungs = 100000;  // the child never gets there; it is killed

// The child: its own connection (nothing SQLite is shared across fork), one commit per rung.
[[noreturn]] void recordUntilKilled(const std::filesystem::path& db, const std::string& runId, int ackFd) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive a crashed test
  try {
    auto store = engine::RunStore::open(db);
    const auto report = makeReport(runId, 0);
    store.beginRun(report.header);
    for (std::uint32_t i = 0; i < kMaxRungs; ++i) {
      store.addRung(runId, makeRung(i));
      if (::write(ackFd, &i, sizeof i) != static_cast<ssize_t>(sizeof i)) ::_exit(3);
    }
  } catch (...) {
    ::_exit(2);
  }
  ::_exit(0);
}

bool readAck(int fd, std::uint32_t& value) {
  std::size_t got = 0;
  auto* bytes = reinterpret_cast<char*>(&value);
  while (got < sizeof value) {
    const ssize_t n = ::read(fd, bytes + got, sizeof value - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    got += static_cast<std::size_t>(n);
  }
  return true;
}

TEST(RunStoreCrash, KillNineMidRunKeepsEveryCommittedRung) {
  TempDir dir;
  const auto db = dir / "runs.sqlite";
  const std::uint64_t seed = std::random_device{}();
  SCOPED_TRACE(std::string("seed ") + std::to_string(seed));
  std::mt19937_64 random(seed);
  std::map<std::string, std::size_t> committed;  // run id -> rungs acknowledged before the kill

  for (int round = 0; round < 6; ++round) {
    SCOPED_TRACE(std::string("round ") + std::to_string(round));
    const std::string runId = std::string("crash-") + std::to_string(round);
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(fds[0]);
      recordUntilKilled(db, runId, fds[1]);
    }
    ::close(fds[1]);
    // Let it commit a few rungs, then kill it after a random extra delay so the signal lands at
    // arbitrary points of the next transaction.
    const std::uint32_t threshold = 2 + static_cast<std::uint32_t>(random() % 20);
    std::size_t acked = 0;
    std::uint32_t value = 0;
    while (acked < threshold && readAck(fds[0], value)) {
      ASSERT_EQ(value, acked);
      ++acked;
    }
    ASSERT_EQ(acked, threshold) << "the child stopped early";
    ::usleep(static_cast<useconds_t>(random() % 3000));
    ASSERT_EQ(::kill(pid, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status)) << "child exit status " << WEXITSTATUS(status);
    EXPECT_EQ(WTERMSIG(status), SIGKILL);
    while (readAck(fds[0], value)) {  // acknowledgements written before the kill
      ASSERT_EQ(value, acked);
      ++acked;
    }
    ::close(fds[0]);
    committed[runId] = acked;

    auto store = engine::RunStore::open(db);
    EXPECT_EQ(store.integrityCheck(), "ok");
    for (const auto& [id, count] : committed) {  // this run and every earlier one
      SCOPED_TRACE(id);
      const auto summary = store.findRun(id);
      ASSERT_TRUE(summary);
      EXPECT_EQ(summary->status, engine::RunStatus::Running);
      EXPECT_TRUE(summary->partial());
      const auto loaded = store.loadRun(id);
      EXPECT_TRUE(loaded.partial);
      // Every acknowledged commit is there; at most one more (committed, killed before the ack).
      ASSERT_GE(loaded.rungs.size(), count);
      ASSERT_LE(loaded.rungs.size(), count + 1);
      EXPECT_EQ(summary->rungs, loaded.rungs.size());
      for (std::size_t i = 0; i < loaded.rungs.size(); ++i) {
        expectSameRung(makeRung(static_cast<std::uint32_t>(i)), loaded.rungs[i]);
      }
      committed[id] = loaded.rungs.size();  // what later rounds must still find
    }
  }
}

}  // namespace
}  // namespace wandscope::test
