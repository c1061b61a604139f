// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Small pieces of English the engine and its front ends share, so a message reads the same
// wherever it is printed.

#include <cstdint>
#include <string>
#include <string_view>

namespace wandscope::engine {

// A count with its noun in the right number: counted(1, "token", "tokens") is "1 token",
// counted(3, "known term", "known terms") is "3 known terms".
std::string counted(std::uint64_t n, std::string_view one, std::string_view many);

}  // namespace wandscope::engine
