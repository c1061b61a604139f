// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <filesystem>
#include <string>

namespace wandscope::test {

// Compares `actual` with the checked-in file tests/data/golden/<name>. On mismatch writes
// <name>.actual beside it, adds a gtest failure with a unified diff. With UPDATE_GOLDEN=1 in the
// environment the golden file is rewritten instead (and the test passes).
void expectGolden(const std::string& name, const std::string& actual);
// The same for a golden file anywhere in the source tree (the teaching traces live in
// tests/golden/traces); a stale .actual from an earlier failure is removed on a match. The older
// WANDSCOPE_UPDATE_GOLDEN=1 is honoured too.
void expectGoldenFile(const std::filesystem::path& golden, const std::string& actual);

// The source tree's tests/data directory.
std::string testDataDir();

}  // namespace wandscope::test
