// SPDX-License-Identifier: GPL-3.0-or-later
// Output files as users name them: a link is written through (the link stays), a device or FIFO
// is written into (never replaced: `--out /dev/null` once turned /dev/null into a regular file
// when run as root), a read-only file, a directory or another user's file in a sticky directory
// is refused naming it, and a replaced file keeps its permission bits and owner.
#include "engine/core/error.h"
#include "engine/core/fs_util.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <string>
#include <thread>

namespace wandscope::test {
namespace {

namespace fs = std::filesystem;
using engine::Error;
using engine::ErrorKind;

// Two unprivileged ids for the ownership tests (no account needs to exist for them).
constexpr uid_t kOtherUid = 65533;
constexpr uid_t kThisUid = 65534;

std::string errorOf(const fs::path& path, const std::string& content) {
  try {
    engine::writeFileAtomically(path, content);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Io);
    return e.what();
  }
  return "(written)";
}

TEST(OutputFiles, ALinkIsWrittenThroughAndStaysALink) {
  TempDir dir;
  const fs::path target = dir.write("target.json", "old");
  fs::create_symlink("target.json", dir / "link.json");
  engine::writeFileAtomically(dir / "link.json", "new");
  EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
  EXPECT_EQ(readFile(target), "new");
  // A dangling link creates the file it names.
  fs::create_symlink("later.json", dir / "dangling.json");
  engine::writeFileAtomically(dir / "dangling.json", "made");
  EXPECT_TRUE(fs::is_symlink(dir / "dangling.json"));
  EXPECT_EQ(readFile(dir / "later.json"), "made");
}

TEST(OutputFiles, ADeviceIsWrittenIntoNotReplaced) {
  engine::writeFileAtomically("/dev/null", "discarded\n");
  struct stat st{};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "/dev/null must still be a character device";
  EXPECT_TRUE(engine::resolveOutputTarget("/dev/null").special);
}

// /dev/fd/N (and so /dev/stdout) is the descriptor's file: appended to after `>>`, not replaced
// by a rename (which lost the redirected file's earlier content).
TEST(OutputFiles, ADescriptorPathIsWrittenThroughTheDescriptor) {
  TempDir dir;
  const fs::path file = dir.write("redirected.txt", "header\n");
  const int fd = ::open(file.c_str(), O_WRONLY | O_APPEND);
  ASSERT_GE(fd, 0);
  const fs::path name = "/dev/fd/" + std::to_string(fd);
  EXPECT_TRUE(engine::resolveOutputTarget(name).special);
  engine::writeFileAtomically(name, "body\n");
  ::close(fd);
  EXPECT_EQ(readFile(file), "header\nbody\n");
}

TEST(OutputFiles, AFifoIsWrittenIntoNotReplaced) {
  TempDir dir;
  const fs::path fifo = dir / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = readFile(fifo); });
  engine::writeFileAtomically(fifo, "through the pipe");
  reader.join();
  EXPECT_EQ(received, "through the pipe");
  EXPECT_TRUE(fs::is_fifo(fifo));
}

TEST(OutputFiles, ReadOnlyFilesAndDirectoriesAreRefusedNamingThem) {
  TempDir dir;
  const fs::path locked = dir.write("locked.json", "keep me");
  ASSERT_EQ(::chmod(locked.c_str(), 0444), 0);
  EXPECT_NE(errorOf(locked, "x").find("locked.json: the file is read-only"), std::string::npos);
  EXPECT_EQ(readFile(locked), "keep me");
  EXPECT_NE(errorOf(dir.path(), "x").find("it is a directory"), std::string::npos);
  EXPECT_THROW(engine::checkOutputWritable(locked), Error);
  EXPECT_THROW(engine::checkOutputWritable(dir / "no-such-dir" / "x.json"), Error);
  EXPECT_NO_THROW(engine::checkOutputWritable(dir / "new.json"));
  EXPECT_FALSE(fs::exists(dir / "new.json")) << "checking creates nothing";
}

// Several outputs of one command: all written, or (when one cannot be) none replaced and no
// temporary left behind.
TEST(OutputFiles, OutputsWrittenTogetherAreAllOrNothing) {
  TempDir dir;
  const fs::path a = dir.write("a.txt", "old a");
  const fs::path b = dir / "b.txt";
  engine::writeFilesTogether({{a, "new a"}, {b, "new b"}, {"/dev/null", "discarded"}});
  EXPECT_EQ(readFile(a), "new a");
  EXPECT_EQ(readFile(b), "new b");
  EXPECT_THROW(engine::writeFilesTogether({{a, "newer a"}, {"/dev/full", "no room"}, {b, "newer b"}}), Error);
  EXPECT_EQ(readFile(a), "new a");
  EXPECT_EQ(readFile(b), "new b");
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir.path())) ++files;
  EXPECT_EQ(files, 2u) << "no temporary is left behind";
}

// Two outputs naming one file (directly, through "./", "..", or a link), or an output naming an
// input, are refused naming both options; devices and empty (absent) options are not compared.
TEST(OutputFiles, OutputsNamingOneFileOrAnInputAreRefused) {
  TempDir dir;
  const fs::path in = dir.write("queries.jsonl", "q");
  fs::create_directory(dir / "sub");
  fs::create_symlink("queries.jsonl", dir / "link.jsonl");
  auto usage = [](const std::vector<engine::NamedPath>& outs, const std::vector<engine::NamedPath>& ins) {
    try {
      engine::checkDistinctFiles(outs, ins);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage);
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_NE(usage({{"--out", dir / "x"}, {"--counters", dir / "sub" / ".." / "x"}}, {}).find("--out and --counters"),
            std::string::npos);
  EXPECT_NE(usage({{"--out", dir / "link.jsonl"}}, {{"--queries", in}}).find("--out names the input of --queries"),
            std::string::npos);
  EXPECT_NE(usage({{"--out", in}}, {{"--queries", dir / "link.jsonl"}}).find("--queries"), std::string::npos);
  EXPECT_EQ(usage({{"--out", dir / "x"}, {"--counters", dir / "y"}, {"--summary", ""}}, {{"--queries", in}}),
            "(accepted)");
  EXPECT_EQ(usage({{"--out", "/dev/null"}, {"--counters", "/dev/null"}}, {}), "(accepted)");
}

TEST(OutputFiles, AReplacedFileKeepsItsPermissionBits) {
  TempDir dir;
  const fs::path secret = dir.write("secret.json", "old");
  ASSERT_EQ(::chmod(secret.c_str(), 0600), 0);
  engine::writeFileAtomically(secret, "new");
  struct stat st{};
  ASSERT_EQ(::stat(secret.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_EQ(readFile(secret), "new");
}

// Root may give a file away: the replaced file keeps the owner and group it had (it became
// root's, so `sudo wandscope-cli ... --out ~/report.json` left the user a file they could not
// replace themselves).
TEST(OutputFiles, AReplacedFileKeepsItsOwnerWhereTheCallerMaySetIt) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to own a file as another user";
  TempDir dir;
  const fs::path theirs = dir.write("theirs.json", "old");
  ASSERT_EQ(::chown(theirs.c_str(), kOtherUid, kOtherUid), 0);
  engine::writeFileAtomically(theirs, "new");
  struct stat st{};
  ASSERT_EQ(::stat(theirs.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, kOtherUid);
  EXPECT_EQ(st.st_gid, kOtherUid);
  EXPECT_EQ(readFile(theirs), "new");
}

// In a sticky directory (/tmp) a file of another user cannot be renamed over even when its
// permission bits let anyone write it. The check says so before the work; without it the run
// finished and then failed to install its output. Run as an ordinary user (effective uid
// kThisUid) against the kernel's own answer: the rename the writer would do fails with EPERM.
TEST(OutputFiles, AnotherUsersFileInAStickyDirectoryIsRefusedBeforeTheWork) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to act as two other users";
  TempDir dir;
  ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);
  const fs::path sticky = dir / "sticky";
  fs::create_directory(sticky);
  ASSERT_EQ(::chmod(sticky.c_str(), 01777), 0);
  const fs::path theirs = sticky / "theirs.json";
  writeFile(theirs, "theirs");
  ASSERT_EQ(::chown(theirs.c_str(), kOtherUid, kOtherUid), 0);
  ASSERT_EQ(::chmod(theirs.c_str(), 0666), 0);
  const fs::path mine = sticky / "mine.json";
  writeFile(mine, "mine");
  ASSERT_EQ(::chown(mine.c_str(), kThisUid, kThisUid), 0);

  ASSERT_EQ(::setegid(kThisUid), 0);
  if (::seteuid(kThisUid) != 0) {
    ASSERT_EQ(::setegid(0), 0);
    GTEST_SKIP() << "seteuid is not allowed here";
  }
  std::string refused;
  try {
    engine::checkOutputWritable(theirs);
  } catch (const Error& e) {
    refused = e.what();
  }
  bool mineAccepted = true;
  try {
    engine::checkOutputWritable(mine);
    engine::writeFileAtomically(mine, "mine, new");
  } catch (const Error&) {
    mineAccepted = false;
  }
  const fs::path tmp = sticky / "probe.tmp";
  writeFile(tmp, "probe");
  const int renamed = ::rename(tmp.c_str(), theirs.c_str());
  const int renameErrno = errno;
  ::unlink(tmp.c_str());
  ASSERT_EQ(::seteuid(0), 0);
  ASSERT_EQ(::setegid(0), 0);

  EXPECT_NE(renamed, 0) << "the kernel let another user's file be replaced: the premise is wrong";
  EXPECT_EQ(renameErrno, EPERM);
  EXPECT_NE(refused.find("theirs.json: it belongs to another user"), std::string::npos) << refused;
  EXPECT_NE(refused.find("sticky directory"), std::string::npos) << refused;
  EXPECT_EQ(readFile(theirs), "theirs");
  EXPECT_TRUE(mineAccepted) << "the caller's own file in the same directory may be replaced";
  EXPECT_EQ(readFile(mine), "mine, new");
}

}  // namespace
}  // namespace wandscope::test
