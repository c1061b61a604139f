// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace wandscope::engine {

// Writes `content` to `path` atomically: a temporary file beside it, fsync, rename, fsync of the
// directory. Readers see the old content or the new, never a mix.
void writeFileAtomically(const std::filesystem::path& path, std::string_view content);

// Reads a whole (small) file; throws Error(Io) naming it on failure.
std::string readWholeFile(const std::filesystem::path& path);

// Creates a fresh, uniquely named directory `<parent>/<prefix>XXXXXX` and returns it.
std::filesystem::path makeTempDirectory(const std::filesystem::path& parent, const std::string& prefix);

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
