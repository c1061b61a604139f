// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace wandscope::engine {

// Where an output file named by the user really goes. Symbolic links are followed to the file
// they name (the link stays a link); a device or FIFO at the end (/dev/null, a named pipe) and
// anything under /dev or /proc (/dev/stdout, /dev/fd/N) is written into, never replaced. Throws
// Error(Io) naming `path` when it is a directory, a socket, a regular file the caller may not
// write (replacing it would defeat its permissions), or one it may not replace because it lies in
// a sticky directory (/tmp) and belongs to another user (the rename would fail after the work).
struct OutputTarget {
  std::filesystem::path path;  // the file to write or replace (links resolved)
  bool special = false;        // write into it in place (no temporary, no rename, no fsync)
  bool exists = false;         // a regular file is there (its permission bits and owner are kept)
  unsigned mode = 0;           // those bits
  unsigned uid = 0;            // its owner and group
  unsigned gid = 0;
};
OutputTarget resolveOutputTarget(const std::filesystem::path& path);

// For a non-special target: the temporary to write beside it, and putting that temporary in its
// place once complete (the target's permission bits and, where the caller may set them, its owner
// and group; rename; fsync of the directory). The caller
// removes the temporary if either throws.
std::filesystem::path temporaryBeside(const OutputTarget& target);
void installTemporary(const std::filesystem::path& tmp, const OutputTarget& target);

// Writes `content` to `path` atomically: a temporary file beside it, fsync, rename, fsync of the
// directory. Readers see the old content or the new, never a mix. A special file or a link is
// handled as resolveOutputTarget() says; an existing file keeps its permission bits.
void writeFileAtomically(const std::filesystem::path& path, std::string_view content);

// One output of a command that writes several (writeFilesTogether).
struct OutputFile {
  std::filesystem::path path;
  std::string_view content;
};
// Writes several outputs so that a failure leaves every one of them as it was: each regular file
// is written to its temporary first, then the special ones (devices, FIFOs) are written into,
// and only when all of that succeeded are the temporaries put in place (each atomically, as
// writeFileAtomically does). A full disk or an unwritable device on the last output no longer
// leaves the first replaced. The temporaries are removed if anything throws.
void writeFilesTogether(const std::vector<OutputFile>& files);

// One file named on a command line, by the option that names it.
struct NamedPath {
  std::string option;  // "--out"
  std::filesystem::path path;
};
// Throws Error(Usage) when two of `outputs`, or an output and one of `inputs`, are the same file
// (after links; an output that does not exist yet is compared by its absolute, normalised path):
// `run --out x --counters x` kept only the counters, and `--out` naming the query file replaced
// it. Empty paths are ignored, and so are special outputs (/dev/null may be named twice).
void checkDistinctFiles(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs = {});

// Checks, before a long run, that `path` can be written as resolveOutputTarget() describes: its
// directory exists and is writable. Throws Error(Io) naming it otherwise.
void checkOutputWritable(const std::filesystem::path& path);

// Reads a whole (small) file; throws Error(Io) naming it on failure.
std::string readWholeFile(const std::filesystem::path& path);

// Creates a fresh, uniquely named directory `<parent>/<prefix>XXXXXX` and returns it.
std::filesystem::path makeTempDirectory(const std::filesystem::path& parent, const std::string& prefix);

// Refuses (Error(Usage)) to let a build replace `target` unless it is absent, an empty directory,
// or a directory holding `marker` (the file that makes it `what`, e.g. CURRENT for an index):
// "<target> exists and is not a <what>; refusing to replace it". installDirectory replaces
// whatever is there, so every build that ends in it asks this first.
void requireReplaceable(const std::filesystem::path& target, const std::filesystem::path& marker, std::string_view what);

// Puts the complete directory `staged` at `target`. If `target` exists it is exchanged atomically
// (renameat2 RENAME_EXCHANGE) and the old content removed afterwards, so at every instant `target`
// is either the old complete directory or the new one.
void installDirectory(const std::filesystem::path& staged, const std::filesystem::path& target);

void fsyncDirectory(const std::filesystem::path& dir);

// $XDG_CACHE_HOME/wandscope (default ~/.cache/wandscope) and $XDG_DATA_HOME/wandscope
// (default ~/.local/share/wandscope). Not created here.
std::filesystem::path userCacheDir();
std::filesystem::path userDataDir();

}  // namespace wandscope::engine
