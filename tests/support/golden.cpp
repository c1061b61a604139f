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
  expectGoldenFile(std::filesystem::path(testDataDir()) / "golden" / name, actual);
}

void expectGoldenFile(const std::filesystem::path& golden, const std::string& actual) {
  auto set = [](const char* variable) {
    const char* v = std::getenv(variable);
    return v != nullptr && std::string(v) == "1";
  };
  if (set("UPDATE_GOLDEN") || set("WANDSCOPE_UPDATE_GOLDEN")) {
    std::filesystem::create_directories(golden.parent_path());
    std::ofstream(golden, std::ios::binary) << actual;
    return;
  }
  if (!std::filesystem::exists(golden)) {
    ADD_FAILURE() << "golden file " << golden << " is missing; run with UPDATE_GOLDEN=1 to create it";
    return;
  }
  const std::string expected = readFile(golden);
  const std::filesystem::path actualPath = golden.string() + ".actual";
  if (expected == actual) {
    std::error_code ec;
    std::filesystem::remove(actualPath, ec);  // a stale .actual from an earlier failure
    return;
  }
  std::ofstream(actualPath, std::ios::binary) << actual;
  ADD_FAILURE() << "output differs from golden file " << golden << " (actual written to "
                << actualPath << "):\n"
                << diffOf(golden, actualPath);
}

}  // namespace wandscope::test
