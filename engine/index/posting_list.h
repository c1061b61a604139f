// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/types.h"
#include "engine/index/format.h"

#include <cstddef>
#include <cstdint>
#include <span>

namespace wandscope::engine {

// One term's posting list inside one segment: its skip table and block data (validated when the
// segment was opened, so offsets and widths are in range), plus the block-max weights.
struct PostingList {
  const std::byte* base = nullptr;             // start of the skip table
  std::span<const format::SkipEntry> skips;    // one per block
  std::span<const float> blockMaxWeight;       // parallel to skips
  float maxWeight = 0.0f;                      // max over the list
  // The kRankWeightRanks[i]-th largest weights (0 when the list is shorter); empty when the
  // bounds file has none (format.h).
  std::span<const float> rankWeights;
  std::uint32_t df = 0;
  DocId docBase = 0;                           // the segment's first doc id
  std::uint32_t segmentIndex = 0;              // position of the segment in the index

  std::uint32_t blockCount() const noexcept { return static_cast<std::uint32_t>(skips.size()); }
  std::uint32_t blockSize(std::uint32_t block) const noexcept { return skips[block].countMinus1 + 1u; }
  // The doc id before the block's first posting (mod 2^32): where its gaps start.
  DocId blockBase(std::uint32_t block) const noexcept {
    return block == 0 ? docBase - 1 : skips[block - 1].lastDoc;
  }
  // Requests the cache lines of the first `bytes` of the block's data (at most its dataBytes),
  // so that decoding it later does not wait on memory. Changes nothing else.
  void prefetchBlock(std::uint32_t block, std::size_t bytes) const noexcept {
    constexpr std::size_t kLineBytes = 64;
    const std::byte* data = base + skips[block].dataOffset;
    for (std::size_t at = 0; at < bytes; at += kLineBytes) __builtin_prefetch(data + at);
  }
};

// Decodes a block's doc ids into docs[0..count). For a tail (varint or packed) the frequencies
// are decoded too (into freqs[0..count); returns true in tailFreqs). Throws Error(Index) if the
// data does not decode to the skip entry's last doc id (a damaged file).
std::uint32_t decodeBlockDocs(const PostingList& list, std::uint32_t block, DocId* docs,
                              std::uint32_t* freqs, bool& tailFreqs);

// The bytes a packed tail with this skip entry's count and widths takes (its dataBytes when valid).
std::size_t packedTailBytes(const format::SkipEntry& skip) noexcept;

// Unpacks a packed tail's doc ids, the block's data at `data` and the doc id before it `base`,
// into out[0..128): the first count are the postings', the rest meaningless. No checks (the
// reader validates packed tails when it opens a segment).
void unpackPackedTailDocs(const std::byte* data, const format::SkipEntry& skip, DocId base, DocId* out) noexcept;

// Decodes a full (BP128) block's frequencies into freqs[0..128). Not for tails.
void decodeBlockFreqs(const PostingList& list, std::uint32_t block, std::uint32_t* freqs);

}  // namespace wandscope::engine
