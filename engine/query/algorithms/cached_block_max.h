// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A list's block pointer as last read, cached by Block-Max WAND and Block-Max MaxScore: the
// documents before blockEnd (and from the target it was read for) are in a block whose maximum is
// blockMax. Their targets only grow, so shallowAdvance() is called only when a target crosses
// blockEnd.

#include "engine/core/types.h"

namespace wandscope::engine {

inline DocId firstDocAfter(DocId lastDoc) noexcept { return lastDoc == kNoMoreDocs ? kNoMoreDocs : lastDoc + 1; }

// Entry has `cursor`, `blockEnd` (0 before the first read) and `blockMax`.
template <class Entry>
inline void shallowTo(Entry& e, DocId target) {
  if (target < e.blockEnd) return;
  e.cursor->shallowAdvance(target);
  e.blockEnd = firstDocAfter(e.cursor->blockLastDoc());
  e.blockMax = static_cast<double>(e.cursor->blockMaxScore());
}

}  // namespace wandscope::engine
