// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/support/oracle_corpus.h"

namespace wandscope::test {

OracleCorpus buildOracleCorpus(const CorpusCase& c) {
  const auto docs = randomCorpus(c.seed, c.params);
  engine::IndexBuildOptions options;
  options.segmentDocs = c.segmentDocs;
  return OracleCorpus{buildTestIndex(docs, options), BruteForce(docs, engine::AnalyzerKind::Plain, options.bm25)};
}

}  // namespace wandscope::test
