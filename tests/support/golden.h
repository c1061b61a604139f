// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace wandscope::test {

// Compares `actual` with the checked-in file tests/data/golden/<name>. On mismatch writes
// <name>.actual beside it, adds a gtest failure with a unified diff. With UPDATE_GOLDEN=1 in the
// environment the golden file is rewritten instead (and the test passes).
void expectGolden(const std::string& name, const std::string& actual);

// The source tree's tests/data directory.
std::string testDataDir();

}  // namespace wandscope::test
