// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/core/wording.h"

#include <fmt/format.h>

namespace wandscope::engine {

std::string counted(std::uint64_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

}  // namespace wandscope::engine
