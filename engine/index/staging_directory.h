// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <filesystem>

namespace wandscope::engine {

// An index build's staging directory beside its target, `.<name>.building-XXXXXX`, with a lock
// file `.<name>.building-XXXXXX.lock` that this object holds (flock) for the directory's life.
// A builder killed mid-build leaves both behind; the next StagingDirectory for the same target
// removes every staging directory whose lock nobody holds any more, and its lock. A lock file
// appears already locked (it is created under another name, locked, then renamed into place), so
// a build still running, in this process or another, is never taken for a dead one; and it
// appears before its directory, so a kill never leaves a directory without a lock.
class StagingDirectory {
 public:
  // Creates the directory; throws Error(Io) naming the path when it cannot.
  explicit StagingDirectory(const std::filesystem::path& target);
  // Removes the directory if it is still there (a failed build, or what installing left) and then
  // the lock.
  ~StagingDirectory();
  StagingDirectory(const StagingDirectory&) = delete;
  StagingDirectory& operator=(const StagingDirectory&) = delete;

  const std::filesystem::path& path() const noexcept { return m_path; }
  // Staging directories of dead builds removed when this one was created.
  std::size_t staleRemoved() const noexcept { return m_staleRemoved; }

 private:
  std::filesystem::path m_path;
  std::filesystem::path m_lock;
  int m_lockFd = -1;
  std::size_t m_staleRemoved = 0;
};

}  // namespace wandscope::engine
