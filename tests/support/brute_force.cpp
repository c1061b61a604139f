// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/support/brute_force.h"

#include <algorithm>

namespace wandscope::test {

BruteForce::BruteForce(const std::vector<engine::Document>& docs, engine::AnalyzerKind analyzer,
                       engine::Bm25Params params)
    : m_kind(analyzer) {
  engine::Analyzer a(analyzer);
  std::uint64_t total = 0;
  for (const auto& d : docs) {
    std::vector<std::string> tokens;
    a.analyze(d.title, tokens);
    a.analyze(d.text, tokens);
    std::map<std::string, std::uint32_t> tf;
    for (const auto& t : tokens) ++tf[t];
    for (const auto& [t, n] : tf) ++m_df[t];
    m_length.push_back(static_cast<std::uint32_t>(tokens.size()));
    total += tokens.size();
    m_tf.push_back(std::move(tf));
  }
  m_bm25 = engine::Bm25(params, docs.size(), total);
}

std::uint64_t BruteForce::df(const std::string& term) const {
  const auto it = m_df.find(term);
  return it == m_df.end() ? 0 : it->second;
}

std::vector<engine::Hit> BruteForce::all(const std::string& query, engine::Operator op) const {
  engine::Analyzer a(m_kind);
  std::vector<std::string> tokens;
  a.analyze(query, tokens);
  std::vector<std::string> terms;
  for (const auto& t : tokens) {
    if (std::find(terms.begin(), terms.end(), t) == terms.end()) terms.push_back(t);
  }
  std::vector<engine::Hit> hits;
  if (terms.empty()) return hits;
  for (std::size_t d = 0; d < m_tf.size(); ++d) {
    float score = 0.0f;
    std::size_t matched = 0;
    for (const auto& t : terms) {
      const auto it = m_tf[d].find(t);
      if (it == m_tf[d].end()) continue;
      ++matched;
      const float idf = m_bm25.idf(df(t));
      score += engine::Bm25::contribution(idf, m_bm25.weight(it->second, m_bm25.lengthNorm(m_length[d])));
    }
    const bool match = op == engine::Operator::Or ? matched > 0 : matched == terms.size();
    if (match) hits.push_back({static_cast<engine::DocId>(d), score});
  }
  std::sort(hits.begin(), hits.end(), engine::ranksBefore);
  return hits;
}

std::vector<engine::Hit> BruteForce::search(const std::string& query, engine::Operator op, std::size_t k) const {
  auto hits = all(query, op);
  if (hits.size() > k) hits.resize(k);
  return hits;
}

}  // namespace wandscope::test
