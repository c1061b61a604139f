// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/algorithms/merge_kernels.h"

#include <vector>

namespace wandscope::engine {

std::size_t intersect2(const MergeSlice& a, const MergeSlice& b, DocId* out, std::uint8_t* offsets) {
  // Branch-free merge: both cursors advance by comparison results and every step writes its
  // candidate, kept only when the ids are equal. Mispredicted branches were most of the cost.
  std::uint32_t i = a.begin;
  std::uint32_t j = b.begin;
  std::size_t m = 0;
  while (i < a.end && j < b.end) {
    const DocId x = a.docs[i];
    const DocId y = b.docs[j];
    out[m] = x;
    offsets[m] = static_cast<std::uint8_t>(i);
    offsets[128 + m] = static_cast<std::uint8_t>(j);
    m += x == y ? 1u : 0u;
    i += x <= y ? 1u : 0u;
    j += y <= x ? 1u : 0u;
  }
  return m;
}

std::size_t intersectRuns(const DocId* a, std::uint32_t la, const DocId* b, std::uint32_t lb, std::uint32_t* posA,
                          std::uint32_t* posB) {
  // The branch-free merge of intersect2, writing indices. Every slot written is below min(la, lb):
  // m <= min(i, j) inside the loop.
  std::uint32_t i = 0;
  std::uint32_t j = 0;
  std::size_t m = 0;
  while (i < la && j < lb) {
    const DocId x = a[i];
    const DocId y = b[j];
    posA[m] = i;
    posB[m] = j;
    m += x == y ? 1u : 0u;
    i += x <= y ? 1u : 0u;
    j += y <= x ? 1u : 0u;
  }
  return m;
}

std::size_t intersect3(const MergeSlice& a, const MergeSlice& b, const MergeSlice& c, DocId* out,
                       std::uint8_t* offsets) {
  std::uint32_t i = a.begin;
  std::uint32_t j = b.begin;
  std::uint32_t k = c.begin;
  std::size_t m = 0;
  while (i < a.end && j < b.end && k < c.end) {
    const DocId x = a.docs[i];
    while (j < b.end && b.docs[j] < x) ++j;
    if (j == b.end) break;
    if (b.docs[j] != x) {
      // b is ahead: catch a up to it.
      const DocId y = b.docs[j];
      while (i < a.end && a.docs[i] < y) ++i;
      continue;
    }
    while (k < c.end && c.docs[k] < x) ++k;
    if (k == c.end) break;
    if (c.docs[k] != x) {
      const DocId z = c.docs[k];
      while (i < a.end && a.docs[i] < z) ++i;
      continue;
    }
    out[m] = x;
    offsets[m] = static_cast<std::uint8_t>(i);
    offsets[128 + m] = static_cast<std::uint8_t>(j);
    offsets[256 + m] = static_cast<std::uint8_t>(k);
    ++m;
    ++i;
    ++j;
    ++k;
  }
  return m;
}

std::size_t intersectN(const MergeSlice* slices, std::size_t n, DocId* out, std::uint8_t* offsets) {
  // Positions live on the stack for the common small n.
  std::uint32_t stackPos[16];
  std::vector<std::uint32_t> heapPos;
  std::uint32_t* pos = stackPos;
  if (n > 16) {
    heapPos.resize(n);
    pos = heapPos.data();
  }
  for (std::size_t c = 0; c < n; ++c) pos[c] = slices[c].begin;
  std::size_t m = 0;
  const MergeSlice& lead = slices[0];
  for (std::uint32_t i = lead.begin; i < lead.end; ++i) {
    const DocId x = lead.docs[i];
    bool all = true;
    for (std::size_t c = 1; c < n; ++c) {
      const MergeSlice& s = slices[c];
      std::uint32_t p = pos[c];
      while (p < s.end && s.docs[p] < x) ++p;
      pos[c] = p;
      if (p == s.end) return m;
      if (s.docs[p] != x) {
        all = false;
        break;
      }
    }
    if (!all) continue;
    out[m] = x;
    offsets[m] = static_cast<std::uint8_t>(i);
    for (std::size_t c = 1; c < n; ++c) {
      offsets[c * 128 + m] = static_cast<std::uint8_t>(pos[c]);
      ++pos[c];
    }
    ++m;
  }
  return m;
}

}  // namespace wandscope::engine
