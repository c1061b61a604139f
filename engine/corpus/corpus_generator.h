// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/progress.h"

#include <cstdint>
#include <filesystem>
#include <string>

namespace wandscope::engine {

// Parameters of the synthetic corpus (in the spirit of the first seed's "mmlb" corpus: long
// documents over a modest vocabulary with Zipfian term frequencies, hence long posting lists).
struct CorpusGeneratorParams {
  std::uint64_t docs = 200'000;
  std::uint32_t meanLength = 300;   // mean tokens per document (text only)
  std::uint32_t vocabulary = 100'000;
  double zipf = 1.0;                // exponent s: P(rank r) proportional to 1 / r^s
  std::uint64_t seed = 42;
  unsigned threads = 0;             // 0 = hardware concurrency; output does not depend on it
};

// Writes a BEIR JSON-lines corpus ({"_id","title","text"}) to `out`, streaming, deterministic for
// given params (independent of thread count). Words are pronounceable pseudo-words made from the
// rank (so vocabulary rank r always spells the same word), all lowercase ASCII letters.
// Writes to a temporary file beside `out` and renames it into place when complete.
void generateCorpus(const CorpusGeneratorParams& params, const std::filesystem::path& out,
                    const ProgressFn& progress = {});

// The word for vocabulary rank `rank` (0 = most frequent). Distinct ranks give distinct words.
std::string syntheticWord(std::uint32_t rank);

}  // namespace wandscope::engine
