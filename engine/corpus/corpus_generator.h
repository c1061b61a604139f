// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/progress.h"
#include "engine/core/types.h"

#include <cstdint>
#include <filesystem>
#include <stop_token>
#include <string>

namespace wandscope::engine {

// The most documents a corpus may have: what one index can hold (doc ids are 32-bit, and
// kNoMoreDocs is reserved), so that every generated corpus can be indexed.
inline constexpr std::uint64_t kMaxCorpusDocs = kMaxDocs;
// The largest vocabulary, in word ranks (2^31).
inline constexpr std::uint32_t kMaxVocabulary = 1U << 31;

// Parameters of the synthetic corpus (in the spirit of the first seed's "mmlb" corpus: long
// documents over a modest vocabulary with Zipfian term frequencies, hence long posting lists).
struct CorpusGeneratorParams {
  std::uint64_t docs = 200'000;
  std::uint32_t meanLength = 300;   // mean tokens per document (text only)
  std::uint32_t vocabulary = 100'000;
  double zipf = 1.0;                // exponent s: P(rank r) proportional to 1 / (r + 1)^s, r from 0
  // Topical locality (docs/GENERATOR.md, "Topics"), off unless topicWords > 0: runs of topicRun
  // consecutive documents share a topic of topicWords words (drawn from the Zipf law), and each
  // text token is one of them with probability topicShare. Real collections are bursty (a word
  // that occurs once in a document tends to occur again) and ordered by source or time, which is
  // what makes block maxima vary along a posting list. Off, the corpus is byte-identical to one
  // generated before topics existed.
  std::uint32_t topicWords = 0;
  double topicShare = 0.25;
  std::uint64_t topicRun = 64;
  std::uint64_t seed = 42;
  unsigned threads = 0;             // 0 = hardware concurrency; output does not depend on it
};

// Writes a BEIR JSON-lines corpus ({"_id","title","text"}) to `out`, streaming, deterministic for
// given params (independent of thread count). Ids are "d0", "d1", ...; document n depends only on
// (seed, n) and the distribution parameters, so a smaller corpus is a prefix of a larger one. Words
// are pronounceable pseudo-words made from the rank (so vocabulary rank r always spells the same
// word), all lowercase ASCII letters. Writes to "<out>.tmp.<pid>" and renames it into place when
// complete; on any error (including an exception thrown by `progress`) the temporary file is
// removed and `out` is untouched. `stop` cancels: it is checked before each batch of documents (a
// few MiB), and a requested stop throws Error(Usage) "corpus generation cancelled", the temporary
// removed, so a caller that turns SIGINT into a stop leaves nothing behind. Throws Error(Usage)
// for impossible parameters (docs, meanLength or vocabulary 0, docs > kMaxCorpusDocs, vocabulary
// > kMaxVocabulary, zipf not > 0), and Error(Io) naming `out` (never the temporary) when its
// directory is missing or not writable, before any work. The model is described in
// docs/GENERATOR.md.
void generateCorpus(const CorpusGeneratorParams& params, const std::filesystem::path& out,
                    const ProgressFn& progress = {}, std::stop_token stop = {});

// The word for vocabulary rank `rank` (0 = most frequent). Distinct ranks give distinct words.
// Consonant-vowel syllables: ranks 0..99 have 2 letters, the next 10,000 have 4, the next 10^6
// have 6, ... (at most 10 letters for any rank). The plain analyzer reads each as one token.
std::string syntheticWord(std::uint32_t rank);

}  // namespace wandscope::engine
