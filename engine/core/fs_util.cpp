// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/core/fs_util.h"

#include "engine/core/error.h"
#include "engine/core/file_writer.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

namespace wandscope::engine {
namespace fs = std::filesystem;

void fsyncDirectory(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throwErrno("cannot open directory " + dir.string());
  const int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) throwErrno("cannot sync directory " + dir.string());
}

void writeFileAtomically(const fs::path& path, std::string_view content) {
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  const fs::path tmp = dir / (path.filename().string() + ".tmp." + std::to_string(::getpid()));
  try {
    FileWriter writer(tmp);
    writer.writeString(content);
    writer.finish();
  } catch (...) {
    ::unlink(tmp.c_str());  // a full disk must not leave the partial temporary behind
    throw;
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int saved = errno;
    ::unlink(tmp.c_str());
    errno = saved;
    throwErrno("cannot rename " + tmp.string() + " to " + path.string());
  }
  fsyncDirectory(dir);
}

std::string readWholeFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throwErrno("cannot open " + path.string());
  std::ostringstream out;
  out << in.rdbuf();
  if (in.bad()) throwErrno("cannot read " + path.string());
  return out.str();
}

fs::path makeTempDirectory(const fs::path& parent, const std::string& prefix) {
  std::string pattern = (parent / (prefix + "XXXXXX")).string();
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (::mkdtemp(buffer.data()) == nullptr) throwErrno("cannot create a directory in " + parent.string());
  return fs::path(buffer.data());
}

void installDirectory(const fs::path& staged, const fs::path& target) {
  std::error_code ec;
  const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
  if (fs::exists(target, ec)) {
    if (::renameat2(AT_FDCWD, staged.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) != 0) {
      throwErrno("cannot exchange " + staged.string() + " with " + target.string());
    }
    fsyncDirectory(parent);
    fs::remove_all(staged, ec);  // now holds the previous content
    if (ec) throwIo("cannot remove the previous content moved to " + staged.string() + ": " + ec.message());
    return;
  }
  if (::rename(staged.c_str(), target.c_str()) != 0) {
    throwErrno("cannot rename " + staged.string() + " to " + target.string());
  }
  fsyncDirectory(parent);
}

namespace {
fs::path xdgDir(const char* variable, const char* fallbackUnderHome) {
  if (const char* value = std::getenv(variable); value != nullptr && value[0] == '/') {
    return fs::path(value) / "wandscope";
  }
  const char* home = std::getenv("HOME");
  const fs::path base = (home != nullptr && home[0] != '\0') ? fs::path(home) : fs::temp_directory_path();
  return base / fallbackUnderHome / "wandscope";
}
}  // namespace

fs::path userCacheDir() { return xdgDir("XDG_CACHE_HOME", ".cache"); }
fs::path userDataDir() { return xdgDir("XDG_DATA_HOME", ".local/share"); }

}  // namespace wandscope::engine
