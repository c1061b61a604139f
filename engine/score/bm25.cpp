// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/score/bm25.h"

#include "engine/core/error.h"

#include <fmt/format.h>

#include <limits>

namespace wandscope::engine {

void validateBm25Params(const Bm25Params& params) {
  if (!(params.k1 >= 0.0f && params.k1 <= kMaxBm25K1)) {  // (NaN fails both)
    throwUsage(fmt::format("BM25 k1 must be in [0, {}] (got {}): beyond it (k1 + 1) x tf can overflow f32",
                           kMaxBm25K1, params.k1));
  }
  if (!std::isfinite(params.b) || params.b < 0.0f || params.b > 1.0f) {
    throwUsage(fmt::format("BM25 b must be in [0, 1] (got {})", params.b));
  }
}

Bm25::Bm25(Bm25Params params, std::uint64_t docs, std::uint64_t totalTokens)
    : m_params(params), m_docs(docs) {
  // An empty collection has no documents to score; keep avgdl finite and positive regardless.
  const double avg = docs == 0 ? 1.0 : static_cast<double>(totalTokens) / static_cast<double>(docs);
  m_avgdl = avg > 0.0 ? static_cast<float>(avg) : 1.0f;
  m_oneMinusB = 1.0f - params.b;
  m_k1Plus1 = params.k1 + 1.0f;
  const float inf = std::numeric_limits<float>::infinity();
  m_weightCeiling = std::nextafter(std::nextafter(m_k1Plus1, inf), inf);
}

float Bm25::idf(std::uint64_t df) const noexcept {
  const double n = static_cast<double>(m_docs);
  const double d = static_cast<double>(df);
  return static_cast<float>(std::log(1.0 + (n - d + 0.5) / (d + 0.5)));
}

}  // namespace wandscope::engine
