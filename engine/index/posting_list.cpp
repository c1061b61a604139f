// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/index/posting_list.h"

#include "engine/codec/bp128.h"
#include "engine/codec/simd/bp128_simd.h"
#include "engine/codec/varint.h"
#include "engine/core/error.h"

#include <fmt/format.h>

namespace wandscope::engine {
namespace {

[[noreturn]] void damaged(const PostingList& list, std::uint32_t block) {
  throwIndex(fmt::format("posting block {} of segment #{} does not decode consistently (the index "
                         "is corrupt)", block, list.segmentIndex));
}

const std::uint32_t* wordsAt(const std::byte* p) noexcept {
  // Block data is 16-byte aligned in the mapped file (the format guarantees it).
  return reinterpret_cast<const std::uint32_t*>(p);
}

}  // namespace

std::uint32_t decodeBlockDocs(const PostingList& list, std::uint32_t block, DocId* docs,
                              std::uint32_t* freqs, bool& tailFreqs) {
  const format::SkipEntry& skip = list.skips[block];
  const std::byte* data = list.base + skip.dataOffset;
  const DocId base = list.blockBase(block);
  if ((skip.flags & format::kSkipVarintTail) == 0) {
    // The runtime-dispatched kernel of the current SIMD target (engine/codec/simd).
    simd::bp128Kernels().unpackDelta[skip.docWidth](wordsAt(data), base, docs);
    if (docs[kBlockSize - 1] != skip.lastDoc) damaged(list, block);
    tailFreqs = false;
    return kBlockSize;
  }
  const std::uint32_t count = skip.countMinus1 + 1u;
  const auto* p = reinterpret_cast<const std::uint8_t*>(data);
  const auto* end = p + skip.dataBytes;
  DocId prev = base;
  for (std::uint32_t i = 0; i < count; ++i) {
    std::uint64_t code = 0;
    p = codec::readVarint64(p, end, code);
    if (p == nullptr || (code >> 1) > UINT32_MAX) damaged(list, block);
    prev = prev + static_cast<std::uint32_t>(code >> 1) + 1u;
    if (prev < list.docBase || prev > skip.lastDoc || (i > 0 && prev <= docs[i - 1])) {
      damaged(list, block);
    }
    docs[i] = prev;
    if ((code & 1u) != 0) {
      freqs[i] = 1;
    } else {
      std::uint32_t f = 0;
      p = codec::readVarint(p, end, f);
      if (p == nullptr || f > UINT32_MAX - 2) damaged(list, block);
      freqs[i] = f + 2u;
    }
  }
  if (p != end || docs[count - 1] != skip.lastDoc) damaged(list, block);
  tailFreqs = true;
  return count;
}

void decodeBlockFreqs(const PostingList& list, std::uint32_t block, std::uint32_t* freqs) {
  const format::SkipEntry& skip = list.skips[block];
  const std::byte* data = list.base + skip.dataOffset + codec::bp128Words(skip.docWidth) * 4;
  simd::bp128Kernels().unpack[skip.freqWidth](wordsAt(data), freqs);
  for (std::uint32_t i = 0; i < kBlockSize; ++i) freqs[i] += 1u;
}

}  // namespace wandscope::engine
