// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <limits>

namespace wandscope::engine {

// Document ids are dense, global and follow corpus order (0 = the corpus's first document),
// whatever the number of segments or build threads.
using DocId = std::uint32_t;
// A term's id in an index snapshot's lexicon (sorted term order).
using TermId = std::uint32_t;
// Scores are f32 end to end: every path must reproduce the oracle's bits exactly.
using Score = float;

// Sentinel doc id a cursor reports once it is exhausted. Larger than every real doc id; code that
// adds to doc ids must saturate rather than wrap (see docs/SCORING.md).
inline constexpr DocId kNoMoreDocs = std::numeric_limits<DocId>::max();
// Real doc ids stay below this, so kNoMoreDocs never collides with a document.
inline constexpr DocId kMaxDocs = kNoMoreDocs - 1;

// Posting lists are cut into blocks of this many documents: the BP128 width, the SIMD-friendly
// size every PISA codec and Lance use. Changing it changes the index format.
inline constexpr std::uint32_t kBlockSize = 128;

}  // namespace wandscope::engine
