// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace wandscope::engine {

// overlap@k of two rankings (external document ids, best first): |A_k ∩ B_k| / max(|A_k|, |B_k|),
// where X_k is the first k entries of X; 1 when both are empty. Order inside the top k does not
// matter, so it compares engines whose scores differ (docs/PEERS.md) by what they return.
double overlapAtK(const std::vector<std::string>& a, const std::vector<std::string>& b, std::size_t k);

}  // namespace wandscope::engine
