// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/support/temp_dir.h"
#include "tests/support/golden.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#ifndef WANDSCOPE_TEST_DATA_DIR
#define WANDSCOPE_TEST_DATA_DIR WANDSCOPE_SOURCE_DIR_FOR_SUPPORT "/tests/data"
#endif

namespace wandscope::test {

std::string testDataDir() { return WANDSCOPE_TEST_DATA_DIR; }

namespace {
std::string diffOf(const std::filesystem::path& expected, const std::filesystem::path& actual) {
  const std::string cmd = "diff -u '" + expected.string() + "' '" + actual.string() + "' 2>&1";
  std::string out;
  if (FILE* pipe = ::popen(cmd.c_str(), "r")) {
    std::array<char, 4096> buf{};
    while (std::fgets(buf.data(), static_cast<int>(buf.size()), pipe) != nullptr) out += buf.data();
    ::pclose(pipe);
  }
  return out;
}
}  // namespace

void expectGolden(const std::string& name, const std::string& actual) {
  const std::filesystem::path golden = std::filesystem::path(testDataDir()) / "golden" / name;
  const char* update = std::getenv("UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::filesystem::create_directories(golden.parent_path());
    std::ofstream(golden, std::ios::binary) << actual;
    return;
  }
  if (!std::filesystem::exists(golden)) {
    ADD_FAILURE() << "golden file " << golden << " is missing; run with UPDATE_GOLDEN=1 to create it";
    return;
  }
  const std::string expected = readFile(golden);
  if (expected == actual) return;
  const std::filesystem::path actualPath = golden.string() + ".actual";
  std::ofstream(actualPath, std::ios::binary) << actual;
  ADD_FAILURE() << "output differs from golden file " << golden << " (actual written to "
                << actualPath << "):\n"
                << diffOf(golden, actualPath);
}

}  // namespace wandscope::test
