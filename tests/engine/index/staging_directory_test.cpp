// SPDX-License-Identifier: GPL-3.0-or-later
// The staging directory of an index build: a dead build's leftovers (directory and unheld lock)
// are removed by the next build of the same target; a live one's never are, nor anything else.
#include "engine/index/staging_directory.h"

#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace wandscope::test {
namespace {

namespace fs = std::filesystem;

std::set<std::string> namesIn(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

TEST(StagingDirectory, IsLockedWhileAliveAndGoneAfterwards) {
  TempDir dir;
  std::string name;
  {
    const engine::StagingDirectory staging(dir / "index");
    name = staging.path().filename().string();
    EXPECT_EQ(name.rfind(".index.building-", 0), 0u) << name;
    EXPECT_TRUE(fs::is_directory(staging.path()));
    EXPECT_EQ(namesIn(dir.path()), (std::set<std::string>{name, name + ".lock"}));
    // A second build of the same target (here in the same process) leaves the live one alone.
    const engine::StagingDirectory second(dir / "index");
    EXPECT_EQ(second.staleRemoved(), 0u);
    EXPECT_TRUE(fs::is_directory(staging.path()));
    EXPECT_TRUE(fs::exists(dir / (name + ".lock")));
  }
  EXPECT_TRUE(namesIn(dir.path()).empty());
}

TEST(StagingDirectory, RemovesOnlyTheLeftoversOfDeadBuildsOfTheSameTarget) {
  TempDir dir;
  // A dead build of "index": its directory (with a file) and its lock, which nobody holds.
  fs::create_directories(dir / ".index.building-dead01" / "sub");
  dir.write(".index.building-dead01/seg-000000.post", "partial");
  dir.write(".index.building-dead01.lock", "");
  // Not removed: a directory without a lock (nothing says its builder died), another target's
  // dead build, and unrelated files.
  fs::create_directories(dir / ".index.building-nolock");
  fs::create_directories(dir / ".other.building-dead02");
  dir.write(".other.building-dead02.lock", "");
  dir.write("index.building-x.lock", "");
  const engine::StagingDirectory staging(dir / "index");
  EXPECT_EQ(staging.staleRemoved(), 1u);
  const std::string mine = staging.path().filename().string();
  EXPECT_EQ(namesIn(dir.path()), (std::set<std::string>{mine, mine + ".lock", ".index.building-nolock",
                                                         ".other.building-dead02", ".other.building-dead02.lock",
                                                         "index.building-x.lock"}));
}

// A build killed between renaming its lock into place and creating its directory leaves the lock
// alone: the next build removes it too.
TEST(StagingDirectory, RemovesALockWhoseDirectoryWasNeverCreated) {
  TempDir dir;
  dir.write(".index.building-dead04.lock", "");
  const engine::StagingDirectory staging(dir / "index");
  EXPECT_EQ(staging.staleRemoved(), 1u);
  const std::string mine = staging.path().filename().string();
  EXPECT_EQ(namesIn(dir.path()), (std::set<std::string>{mine, mine + ".lock"}));
}

}  // namespace
}  // namespace wandscope::test
