// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/index/posting_list.h"

#include "engine/codec/bp128.h"
#include "engine/codec/simd/bp128_simd.h"
#include "engine/codec/varint.h"
#include "engine/core/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>

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

// One code of a varint tail, at most 5 bytes (see decodeBlockDocs). Returns the position after
// it, or nullptr if the input ends early or the code runs past 5 bytes. The loop has a fixed
// bound and no end check per byte: near the end the bytes left are read from a zero-padded copy,
// where a code cut short ends in the padding, past `end`.
const std::uint8_t* readTailCode(const std::uint8_t* p, const std::uint8_t* end, std::uint64_t& code) noexcept {
  constexpr std::ptrdiff_t kMaxBytes = 5;
  const std::ptrdiff_t left = end - p;
  if (left < kMaxBytes) {
    std::array<std::uint8_t, kMaxBytes> padded{};
    std::copy(p, end, padded.begin());
    const std::uint8_t* after = readTailCode(padded.data(), padded.data() + kMaxBytes, code);
    return after == nullptr || after - padded.data() > left ? nullptr : p + (after - padded.data());
  }
  std::uint64_t result = 0;
  for (std::ptrdiff_t i = 0; i < kMaxBytes; ++i) {
    const std::uint64_t byte = p[i];
    result |= (byte & 0x7Fu) << (7 * i);
    if (byte < 0x80u) {
      code = result;
      return p + i + 1;
    }
  }
  return nullptr;
}

// The 32-bit words of a packed tail's two streams (codec::bp128PrefixWords at its count).
struct PackedStreams {
  std::size_t docWords;
  std::size_t freqWords;
};
PackedStreams packedStreams(const format::SkipEntry& skip) noexcept {
  const std::uint32_t count = skip.countMinus1 + 1u;
  return {codec::bp128PrefixWords(skip.docWidth, count), codec::bp128PrefixWords(skip.freqWidth, count)};
}

// Copies the first `words` words of a BP128 stream of `width` to `out` (aligned, 4 * width
// words) and zeroes the rest: a packed tail's stream made whole for the full-block kernels.
void wholeStream(const std::byte* data, std::size_t words, std::uint32_t width, std::uint32_t* out) noexcept {
  std::memcpy(out, data, words * sizeof(std::uint32_t));
  std::fill(out + words, out + codec::bp128Words(width), 0u);
}

}  // namespace

std::size_t packedTailBytes(const format::SkipEntry& skip) noexcept {
  const PackedStreams streams = packedStreams(skip);
  return (streams.docWords + streams.freqWords) * sizeof(std::uint32_t);
}

void unpackPackedTailDocs(const std::byte* data, const format::SkipEntry& skip, DocId base, DocId* out) noexcept {
  alignas(64) std::uint32_t words[codec::bp128Words(32)];
  wholeStream(data, packedStreams(skip).docWords, skip.docWidth, words);
  simd::bp128Kernels().unpackDelta[skip.docWidth](words, base, out);
}

std::uint32_t decodeBlockDocs(const PostingList& list, std::uint32_t block, DocId* docs,
                              std::uint32_t* freqs, bool& tailFreqs) {
  const format::SkipEntry& skip = list.skips[block];
  const std::byte* data = list.base + skip.dataOffset;
  const DocId base = list.blockBase(block);
  if (skip.flags == 0) {  // a full block (validated at open: the flags are one kind)
    // The runtime-dispatched kernel of the current SIMD target (engine/codec/simd).
    simd::bp128Kernels().unpackDelta[skip.docWidth](wordsAt(data), base, docs);
    if (docs[kBlockSize - 1] != skip.lastDoc) damaged(list, block);
    tailFreqs = false;
    return kBlockSize;
  }
  const std::uint32_t count = skip.countMinus1 + 1u;
  if (skip.flags == format::kSkipPackedTail) {
    // Unpacked whole into local arrays, since the caller's hold only `count` (validated at open
    // like a full block: the doc ids ascend inside the segment). Its frequencies come with it.
    alignas(64) DocId all[kBlockSize];
    unpackPackedTailDocs(data, skip, base, all);
    if (all[count - 1] != skip.lastDoc) damaged(list, block);
    std::copy_n(all, count, docs);
    const PackedStreams streams = packedStreams(skip);
    alignas(64) std::uint32_t words[codec::bp128Words(32)];
    wholeStream(data + streams.docWords * sizeof(std::uint32_t), streams.freqWords, skip.freqWidth, words);
    simd::bp128Kernels().unpackPlusOne[skip.freqWidth](words, all);  // stored minus one
    std::copy_n(all, count, freqs);
    tailFreqs = true;
    return count;
  }
  // Each code is (gap << 1) | (frequency == 1) with gap = doc - previous doc - 1, so a valid one
  // has at most 33 bits (5 bytes). Doc ids are summed in 64 bits, where 128 codes of at most 35
  // bits cannot wrap: every step adds at least 1, so ending exactly on the skip entry's last doc
  // (validated against the segment when the index was opened) puts every doc id in order inside
  // the segment, and one check after the loop stands for a range check per posting.
  const auto* p = reinterpret_cast<const std::uint8_t*>(data);
  const auto* end = p + skip.dataBytes;
  std::uint64_t next = static_cast<DocId>(base + 1u);  // block 0's base is doc_base - 1 (mod 2^32)
  std::uint64_t wide = 0;  // the bits of any code above bit 32
  for (std::uint32_t i = 0; i < count; ++i) {
    std::uint64_t code = 0;
    p = readTailCode(p, end, code);
    if (p == nullptr) damaged(list, block);
    wide |= code >> 33;
    const std::uint64_t doc = next + (code >> 1);
    docs[i] = static_cast<DocId>(doc);
    next = doc + 1;
    if ((code & 1u) != 0) {
      freqs[i] = 1;
    } else {
      std::uint32_t f = 0;
      p = codec::readVarint(p, end, f);
      if (p == nullptr || f > UINT32_MAX - 2) damaged(list, block);
      freqs[i] = f + 2u;
    }
  }
  if (p != end || wide != 0 || next - 1 != skip.lastDoc) damaged(list, block);
  tailFreqs = true;
  return count;
}

void decodeBlockFreqs(const PostingList& list, std::uint32_t block, std::uint32_t* freqs) {
  const format::SkipEntry& skip = list.skips[block];
  const std::byte* data = list.base + skip.dataOffset + codec::bp128Words(skip.docWidth) * 4;
  simd::bp128Kernels().unpackPlusOne[skip.freqWidth](wordsAt(data), freqs);  // stored minus one
}

}  // namespace wandscope::engine
