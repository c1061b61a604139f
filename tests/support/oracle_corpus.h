// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "tests/support/brute_force.h"
#include "tests/support/test_index.h"

#include <cstdint>
#include <memory>

namespace wandscope::test {

// A random corpus (randomCorpus) indexed in segments of `segmentDocs` documents: the parity
// suites' test case. Print the seed (SCOPED_TRACE) where it is used.
struct CorpusCase {
  std::uint64_t seed;
  RandomCorpusParams params;
  std::uint32_t segmentDocs;
};

// The case's index and the brute-force oracle over the same documents, which every evaluation
// path must equal bit for bit.
struct OracleCorpus {
  std::unique_ptr<TestIndex> index;
  BruteForce oracle;
};

OracleCorpus buildOracleCorpus(const CorpusCase& c);

}  // namespace wandscope::test
