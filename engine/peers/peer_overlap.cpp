// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/peers/peer_overlap.h"

#include <algorithm>
#include <set>

namespace wandscope::engine {

double overlapAtK(const std::vector<std::string>& a, const std::vector<std::string>& b, std::size_t k) {
  const std::size_t na = std::min(a.size(), k);
  const std::size_t nb = std::min(b.size(), k);
  if (na == 0 && nb == 0) return 1.0;
  const std::set<std::string> sa(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(na));
  std::size_t common = 0;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < nb; ++i) {
    if (sa.count(b[i]) != 0 && seen.insert(b[i]).second) ++common;
  }
  return static_cast<double>(common) / static_cast<double>(std::max(na, nb));
}

}  // namespace wandscope::engine
