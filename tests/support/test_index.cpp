// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/support/test_index.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <stdexcept>

namespace wandscope::test {
namespace {
std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\n");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\n");
  return s.substr(b, e - b + 1);
}
}  // namespace

std::vector<engine::Document> corpusFromDsl(const std::string& dsl) {
  std::vector<engine::Document> docs;
  std::size_t start = 0;
  while (start <= dsl.size()) {
    std::size_t end = dsl.find('/', start);
    if (end == std::string::npos) end = dsl.size();
    const std::string part = dsl.substr(start, end - start);
    const auto colon = part.find(':');
    if (colon == std::string::npos) throw std::invalid_argument("corpus DSL entry without ':' : " + part);
    docs.push_back({trim(part.substr(0, colon)), "", trim(part.substr(colon + 1))});
    start = end + 1;
  }
  return docs;
}

void writeCorpus(const std::filesystem::path& path, const std::vector<engine::Document>& docs) {
  std::ofstream out(path, std::ios::binary);
  for (const auto& d : docs) {
    out << nlohmann::json({{"_id", d.id}, {"title", d.title}, {"text", d.text}}).dump() << '\n';
  }
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::unique_ptr<TestIndex> buildTestIndex(const std::vector<engine::Document>& docs,
                                          engine::IndexBuildOptions options) {
  auto t = std::make_unique<TestIndex>();
  t->docs = docs;
  t->corpusPath = t->dir / "corpus.jsonl";
  t->indexPath = t->dir / "index";
  writeCorpus(t->corpusPath, docs);
  options.corpus = t->corpusPath;
  if (options.threads == 0) options.threads = 2;
  engine::buildIndex(options, t->indexPath);
  t->index = engine::Index::open(t->indexPath);
  return t;
}

std::vector<engine::Document> randomCorpus(std::uint64_t seed, const RandomCorpusParams& p) {
  std::mt19937_64 rng(seed);
  std::vector<engine::Document> docs;
  // Word rank r has weight 1/(r+1): a Zipf-like skew, so some lists span many blocks and most
  // words are rare.
  std::vector<double> weights(p.vocabulary);
  for (std::size_t r = 0; r < p.vocabulary; ++r) weights[r] = 1.0 / static_cast<double>(r + 1);
  std::discrete_distribution<std::size_t> word(weights.begin(), weights.end());
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (std::size_t d = 0; d < p.docs; ++d) {
    engine::Document doc;
    doc.id = "doc" + std::to_string(d);
    if (d > 0 && unit(rng) < p.duplicateFraction) {
      doc.text = docs[std::uniform_int_distribution<std::size_t>(0, d - 1)(rng)].text;
    } else {
      // Skewed lengths: mostly short, a tail of long documents.
      const double u = unit(rng);
      const auto len = static_cast<std::size_t>(1 + u * u * u * static_cast<double>(p.maxLength - 1));
      for (std::size_t i = 0; i < len; ++i) {
        if (i > 0) doc.text += ' ';
        doc.text += "w" + std::to_string(word(rng));
      }
    }
    docs.push_back(std::move(doc));
  }
  return docs;
}

std::string randomQuery(std::mt19937_64& rng, const RandomCorpusParams& p, std::size_t maxTerms) {
  const std::size_t n = std::uniform_int_distribution<std::size_t>(1, maxTerms)(rng);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::string q;
  for (std::size_t i = 0; i < n; ++i) {
    if (!q.empty()) q += ' ';
    const double u = unit(rng);
    if (u < 0.03) {
      q += "unknownword";
    } else {
      // Mix frequent and rare words.
      const auto r = static_cast<std::size_t>(std::pow(unit(rng), 2.0) * static_cast<double>(p.vocabulary));
      q += "w" + std::to_string(std::min(r, p.vocabulary - 1));
    }
  }
  return q;
}

}  // namespace wandscope::test
