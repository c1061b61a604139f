// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/query_counters.h"

namespace wandscope::engine {

QueryCounters& QueryCounters::operator+=(const QueryCounters& o) noexcept {
  postingsDecoded += o.postingsDecoded;
  docBlocksDecoded += o.docBlocksDecoded;
  freqBlocksDecoded += o.freqBlocksDecoded;
  blocksSkipped += o.blocksSkipped;
  windowsTotal += o.windowsTotal;
  windowsSkippedEmpty += o.windowsSkippedEmpty;
  windowsSkippedBound += o.windowsSkippedBound;
  windowsJumped += o.windowsJumped;
  candidatesSeen += o.candidatesSeen;
  candidatesPrunedTable += o.candidatesPrunedTable;
  candidatesPrunedLimit += o.candidatesPrunedLimit;
  fullScores += o.fullScores;
  heapInserts += o.heapInserts;
  thresholdRaises += o.thresholdRaises;
  wandPivots += o.wandPivots;
  shallowAdvances += o.shallowAdvances;
  pruneTableRebuilds += o.pruneTableRebuilds;
  maxscoreEssential += o.maxscoreEssential;
  maxscoreNonEssential += o.maxscoreNonEssential;
  windowsBoundFirst += o.windowsBoundFirst;
  return *this;
}

}  // namespace wandscope::engine
