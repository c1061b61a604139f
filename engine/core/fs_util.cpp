// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/core/fs_util.h"

#include "engine/core/error.h"
#include "engine/core/file_writer.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/stat.h>
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

namespace {

fs::path directoryOf(const fs::path& file) { return file.has_parent_path() ? file.parent_path() : fs::path("."); }

// In a sticky directory (/tmp) only the file's owner, the directory's owner or root may rename
// over a file; anyone else's rename fails with EPERM, which must be said before a long run, not
// after it.
void refuseStickyReplace(const fs::path& named, const OutputTarget& t) {
  const uid_t me = ::geteuid();
  if (me == 0 || me == t.uid) return;
  const fs::path dir = directoryOf(t.path);
  struct stat st{};
  if (::stat(dir.c_str(), &st) != 0 || (st.st_mode & S_ISVTX) == 0 || st.st_uid == me) return;
  throwIo("cannot replace " + named.string() + ": it belongs to another user (uid " + std::to_string(t.uid) +
          ") in the sticky directory " + dir.string() + "; choose another file name");
}

}  // namespace

OutputTarget resolveOutputTarget(const fs::path& path) {
  if (path.empty()) throwIo("an output file name is empty");
  OutputTarget t;
  t.path = path;
  // /dev/stdout, /dev/fd/N, /proc/self/fd/N: the descriptor's own file, whatever it is (a pipe's
  // link names no file, and a redirected file must be appended to, not replaced by a rename).
  const std::string normal = fs::absolute(path).lexically_normal().string();
  if (normal.rfind("/dev/", 0) == 0 || normal.rfind("/proc/", 0) == 0) {
    struct stat st{};
    if (::stat(path.c_str(), &st) == 0) {
      if (S_ISDIR(st.st_mode)) throwIo("cannot write " + path.string() + ": it is a directory");
      t.special = true;
      return t;
    }
  }
  // Follow links by hand so that a dangling one still names the file it would create.
  for (int hops = 0;; ++hops) {
    struct stat st{};
    if (::lstat(t.path.c_str(), &st) != 0) {
      if (errno == ENOENT) return t;  // a new file
      throwErrno("cannot inspect " + t.path.string());
    }
    if (S_ISLNK(st.st_mode)) {
      if (hops >= 40) throwIo(path.string() + ": too many levels of symbolic links");
      const fs::path target = fs::read_symlink(t.path);
      t.path = target.is_absolute() ? target : t.path.parent_path() / target;
      continue;
    }
    if (S_ISDIR(st.st_mode)) throwIo("cannot write " + path.string() + ": it is a directory");
    if (S_ISREG(st.st_mode)) {
      // The bits for root (whom access() lets write anything), access() for everyone else.
      if ((st.st_mode & 0222) == 0 || ::access(t.path.c_str(), W_OK) != 0) throwIo("cannot write " + path.string() + ": the file is read-only");
      t.exists = true;
      t.mode = st.st_mode & 07777;
      t.uid = st.st_uid;
      t.gid = st.st_gid;
      refuseStickyReplace(path, t);
      return t;
    }
    if (S_ISSOCK(st.st_mode)) throwIo("cannot write " + path.string() + ": it is a socket");
    t.special = true;  // a character or block device, or a FIFO
    return t;
  }
}

void checkOutputWritable(const fs::path& path) {
  const OutputTarget t = resolveOutputTarget(path);
  if (t.special) {
    if (::access(t.path.c_str(), W_OK) != 0) throwErrno("cannot write " + path.string());
    return;
  }
  const fs::path dir = directoryOf(t.path);
  struct stat st{};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    throwIo("cannot write " + path.string() + ": directory " + dir.string() + " does not exist");
  }
  if (::access(dir.c_str(), W_OK | X_OK) != 0) throwErrno("cannot write " + path.string() + " in " + dir.string());
}

fs::path temporaryBeside(const OutputTarget& target) {
  return directoryOf(target.path) / (target.path.filename().string() + ".tmp." + std::to_string(::getpid()));
}

void installTemporary(const fs::path& tmp, const OutputTarget& target) {
  if (target.exists) {
    // Owner and group first (chown clears set-id bits; chmod then restores them). Only root may
    // give a file away; anyone may keep a group they belong to. Where neither is allowed the new
    // file is the caller's, as any file it writes.
    struct stat st{};
    if (::stat(tmp.c_str(), &st) == 0 && (st.st_uid != target.uid || st.st_gid != target.gid)) {
      if (::chown(tmp.c_str(), target.uid, target.gid) != 0) {
        [[maybe_unused]] const int ignored = ::chown(tmp.c_str(), static_cast<uid_t>(-1), target.gid);
      }
    }
    if (::chmod(tmp.c_str(), target.mode) != 0) throwErrno("cannot set the mode of " + tmp.string());
  }
  if (::rename(tmp.c_str(), target.path.c_str()) != 0) {
    throwErrno("cannot rename " + tmp.string() + " to " + target.path.string());
  }
  fsyncDirectory(directoryOf(target.path));
}

void writeFilesTogether(const std::vector<OutputFile>& files) {
  std::vector<OutputTarget> targets;
  for (const auto& f : files) targets.push_back(resolveOutputTarget(f.path));
  std::vector<fs::path> staged(files.size());
  try {
    for (std::size_t i = 0; i < files.size(); ++i) {
      if (targets[i].special) continue;
      staged[i] = temporaryBeside(targets[i]);
      FileWriter writer(staged[i]);
      writer.writeString(files[i].content);
      writer.finish();
    }
    for (std::size_t i = 0; i < files.size(); ++i) {
      if (!targets[i].special) continue;
      FileWriter writer(targets[i].path, /*sync=*/false);
      writer.writeString(files[i].content);
      writer.finish();
    }
    for (std::size_t i = 0; i < files.size(); ++i) {
      if (targets[i].special) continue;
      installTemporary(staged[i], targets[i]);
      staged[i].clear();
    }
  } catch (...) {
    for (const auto& tmp : staged) {
      if (!tmp.empty()) ::unlink(tmp.c_str());
    }
    throw;
  }
}

void writeFileAtomically(const fs::path& path, std::string_view content) {
  writeFilesTogether({{path, content}});
}

namespace {

// The file a path names, for comparing two names: links resolved as far as they exist, the rest
// made absolute and normalised.
fs::path identityOf(const fs::path& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(path, ec);
  if (ec) p = fs::absolute(path, ec).lexically_normal();
  return p;
}

}  // namespace

void checkDistinctFiles(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs) {
  std::vector<std::pair<const NamedPath*, fs::path>> seen;
  for (const auto& out : outputs) {
    if (out.path.empty() || resolveOutputTarget(out.path).special) continue;
    const fs::path id = identityOf(out.path);
    for (const auto& [earlier, earlierId] : seen) {
      if (earlierId == id) {
        throwUsage(fmt::format("{} and {} name the same file ({}): give each output its own file", earlier->option,
                               out.option, out.path.string()));
      }
    }
    for (const auto& in : inputs) {
      std::error_code ec;
      if (!in.path.empty() && (identityOf(in.path) == id || fs::equivalent(in.path, out.path, ec))) {
        throwUsage(fmt::format("{} names the input of {} ({}): writing it would replace that input", out.option,
                               in.option, out.path.string()));
      }
    }
    seen.emplace_back(&out, id);
  }
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

void requireReplaceable(const fs::path& target, const fs::path& marker, std::string_view what) {
  std::error_code ec;
  if (!fs::exists(target, ec) || fs::exists(target / marker, ec)) return;
  if (fs::is_directory(target, ec) && fs::is_empty(target, ec)) return;
  throwUsage(fmt::format("{} exists and is not a {}; refusing to replace it", target.string(), what));
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
