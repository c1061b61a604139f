// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Shared plumbing of the fuzz targets: a scratch directory per process and the template index
// the index and query targets damage or search.

#include "engine/index/index.h"
#include "engine/index/manifest.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace wandscope::test {

// WANDSCOPE_FUZZ_VERBOSE=1: targets print what each input led to (opened, refused and why), to
// check that seeds reach the paths they were written for.
bool fuzzVerbose();
void fuzzNote(const std::string& what);

// A directory private to this process (created on first use, removed at exit).
const std::filesystem::path& fuzzScratchDir();

// Writes bytes to `path` (truncating); aborts if the write fails (the harness, not the engine).
void writeFuzzFile(const std::filesystem::path& path, const std::uint8_t* data, std::size_t size);
void writeFuzzFile(const std::filesystem::path& path, std::string_view text);
std::vector<std::uint8_t> readFuzzFile(const std::filesystem::path& path);

// A small index built once per process in the scratch directory: 300 documents in two segments,
// posting lists of more than 128 postings (a full BP128 block and a tail, packed or varint by its
// count), stored text.
// Words are "w0".."w49"; "w0" is in four documents of five.
struct FuzzTemplateIndex {
  std::filesystem::path dir;
  engine::Manifest manifest;
  std::string manifestName;
  std::vector<std::uint8_t> manifestBytes;
  std::vector<std::uint8_t> currentBytes;
};
const FuzzTemplateIndex& fuzzTemplateIndex();

// Runs `text` on every evaluation path and reads the hits' ids and stored text. Any engine::Error
// propagates to the caller. With `checkParity` every path must return the exhaustive path's hits
// (aborts otherwise); not for damaged indexes, whose block maxima may be wrong undetectably.
void queryEveryPath(const engine::Index& index, std::string_view text, bool checkParity);

}  // namespace wandscope::test
