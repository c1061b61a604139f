// SPDX-License-Identifier: GPL-3.0-or-later
// Output files as users name them: a link is written through (the link stays), a device or FIFO
// is written into (never replaced: `--out /dev/null` once turned /dev/null into a regular file
// when run as root), a read-only file or a directory is refused naming it, and a replaced file
// keeps its permission bits.
#include "engine/core/error.h"
#include "engine/core/fs_util.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <thread>

namespace wandscope::test {
namespace {

namespace fs = std::filesystem;
using engine::Error;
using engine::ErrorKind;

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

}  // namespace
}  // namespace wandscope::test
