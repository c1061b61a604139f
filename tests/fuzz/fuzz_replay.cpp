// SPDX-License-Identifier: GPL-3.0-or-later
// Replays the checked-in fuzz corpus without libFuzzer: `fuzz_replay <target> <dir>` feeds every
// file under <dir> (sorted, recursively) to the target, printing each file's name before running
// it so a crash names its input. Exit 0 when all ran; a crash or a failed property check aborts.
// `fuzz_replay --list` prints the target names; `fuzz_replay --write-index-seeds DIR` rewrites the
// index targets' seeds under DIR from the current writer (fuzz_targets.h). ctest runs one test per target
// (fuzz.replay.<target>), so seeds and every crash regression input run in the normal suite.
#include "tests/fuzz/fuzz_support.h"
#include "tests/fuzz/fuzz_targets.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>

int main(int argc, char** argv) {
  using namespace wandscope::test;
  if (argc == 2 && std::strcmp(argv[1], "--list") == 0) {
    for (const auto& t : allFuzzTargets()) std::printf("%.*s\n", static_cast<int>(t.name.size()), t.name.data());
    return 0;
  }
  if (argc == 3 && std::strcmp(argv[1], "--write-index-seeds") == 0) {
    writeIndexSeeds(argv[2]);
    std::printf("fuzz_replay: index seeds written under %s\n", argv[2]);
    return 0;
  }
  if (argc != 3) {
    std::fprintf(stderr, "usage: fuzz_replay <target> <corpus dir> | --list | --write-index-seeds <corpus dir>\n");
    return 2;
  }
  const auto& targets = allFuzzTargets();
  const auto it = std::find_if(targets.begin(), targets.end(), [&](const auto& t) { return t.name == argv[1]; });
  if (it == targets.end()) {
    std::fprintf(stderr, "fuzz_replay: unknown target %s\n", argv[1]);
    return 2;
  }
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(argv[2])) {
    if (e.is_regular_file()) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::fprintf(stderr, "fuzz_replay: no inputs under %s\n", argv[2]);
    return 1;
  }
  for (const auto& f : files) {
    std::printf("%s\n", f.c_str());
    std::fflush(stdout);
    const auto bytes = readFuzzFile(f);
    it->run(bytes.data(), bytes.size());
  }
  std::printf("fuzz_replay %s: %zu inputs ran\n", argv[1], files.size());
  return 0;
}
