// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/index/staging_directory.h"

#include "engine/core/error.h"

#include <fcntl.h>
#include <stdio.h>  // renameat2
#include <sys/stat.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <system_error>
#include <vector>

namespace wandscope::engine {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kLockSuffix = ".lock";

}  // namespace

StagingDirectory::StagingDirectory(const fs::path& target) {
  const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const std::string name = target.filename().string();
  const std::string prefix = "." + name + ".building-";

  // 1. The lock, locked under a name no other builder looks at.
  std::string pending = (parent / ("." + name + ".locking-XXXXXX")).string();
  m_lockFd = ::mkostemp(pending.data(), O_CLOEXEC);
  if (m_lockFd < 0) throwErrno("cannot create a lock file in " + parent.string());
  // Undoes step 1 (or 2) and throws, keeping the failing call's errno for the message.
  auto abandon = [&](const std::string& lock, const std::string& what) {
    const int saved = errno;
    ::close(m_lockFd);
    ::unlink(lock.c_str());
    errno = saved;
    throwErrno(what);
  };
  if (::flock(m_lockFd, LOCK_EX) != 0) abandon(pending, "cannot lock " + pending);
  // 2. The lock renamed into place (never over another), and only then the directory it guards,
  // under the same random suffix: a kill after the rename leaves a lock the next build can take
  // (with or without its directory), never a directory without a lock.
  m_path = parent / (prefix + pending.substr(pending.size() - 6));
  m_lock = m_path;
  m_lock += kLockSuffix;
  if (::renameat2(AT_FDCWD, pending.c_str(), AT_FDCWD, m_lock.c_str(), RENAME_NOREPLACE) != 0) {
    abandon(pending, "cannot rename " + pending + " to " + m_lock.string());
  }
  if (::mkdir(m_path.c_str(), 0700) != 0) abandon(m_lock.string(), "cannot create " + m_path.string());

  // 3. Dead builds' leftovers: a staging lock nobody holds.
  std::error_code ec;
  std::vector<fs::path> stale;
  for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string file = it->path().filename().string();
    if (!file.starts_with(prefix) || !file.ends_with(kLockSuffix) || it->path() == m_lock) continue;
    stale.push_back(it->path());
  }
  for (const fs::path& lock : stale) {
    const int fd = ::open(lock.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) continue;
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
      std::string dir = lock.string();
      dir.resize(dir.size() - kLockSuffix.size());
      fs::remove_all(dir, ec);
      if (!ec && ::unlink(lock.c_str()) == 0) ++m_staleRemoved;
    }
    ::close(fd);
  }
}

StagingDirectory::~StagingDirectory() {
  std::error_code ec;
  fs::remove_all(m_path, ec);
  ::unlink(m_lock.c_str());
  ::close(m_lockFd);
}

}  // namespace wandscope::engine
