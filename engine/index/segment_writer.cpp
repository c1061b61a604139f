// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/index/segment_writer.h"

#include "engine/codec/bp128.h"
#include "engine/codec/simd/bp128_simd.h"
#include "engine/codec/varint.h"
#include "engine/core/error.h"
#include "engine/index/checked_file.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace wandscope::engine {
namespace {

template <typename T>
void appendPod(std::vector<std::byte>& out, const T& value) {
  const auto* p = reinterpret_cast<const std::byte*>(&value);
  out.insert(out.end(), p, p + sizeof(T));
}

void appendWords(std::vector<std::byte>& out, const std::uint32_t* words, std::size_t count) {
  const auto* p = reinterpret_cast<const std::byte*>(words);
  out.insert(out.end(), p, p + count * sizeof(std::uint32_t));
}

SegmentFileInfo fileInfo(const std::filesystem::path& dir, std::uint32_t segmentId,
                         format::FileKind kind, CheckedFileWriter& writer) {
  SegmentFileInfo info;
  info.bytes = writer.finish();
  info.crc32 = writer.crc();
  info.name = segmentFileName(segmentId, kind);
  (void)dir;
  return info;
}

}  // namespace

std::vector<std::byte> encodePostingList(const std::vector<DocId>& docs,
                                         const std::vector<std::uint32_t>& freqs, DocId docBase) {
  const std::size_t n = docs.size();
  const std::size_t blocks = (n + kBlockSize - 1) / kBlockSize;
  std::vector<format::SkipEntry> skips(blocks);
  std::vector<std::byte> data;
  std::array<std::uint32_t, kBlockSize> values{};
  std::array<std::uint32_t, kBlockSize> packed{};
  DocId prev = docBase - 1;  // wraps for docBase 0; decoding wraps back
  const std::size_t tableBytes = blocks * sizeof(format::SkipEntry);
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::size_t begin = b * kBlockSize;
    const std::size_t count = std::min<std::size_t>(kBlockSize, n - begin);
    format::SkipEntry& skip = skips[b];
    skip.lastDoc = docs[begin + count - 1];
    skip.dataOffset = static_cast<std::uint32_t>(tableBytes + data.size());
    skip.countMinus1 = static_cast<std::uint8_t>(count - 1);
    const std::size_t dataStart = data.size();
    if (count >= format::kPackedTailMinPostings) {
      // A full block, or a packed tail: the same two streams with the values past `count` 0, each
      // cut after the rows the postings fill (the words dropped hold only those zeros).
      if (count < kBlockSize) skip.flags = format::kSkipPackedTail;
      values.fill(0);
      for (std::size_t i = 0; i < count; ++i) {
        values[i] = docs[begin + i] - prev - 1;
        prev = docs[begin + i];
      }
      skip.docWidth = static_cast<std::uint8_t>(codec::requiredWidth(values.data(), count));
      simd::packBp128(values.data(), skip.docWidth, packed.data());
      appendWords(data, packed.data(), codec::bp128PrefixWords(skip.docWidth, count));
      for (std::size_t i = 0; i < count; ++i) values[i] = freqs[begin + i] - 1;
      skip.freqWidth = static_cast<std::uint8_t>(codec::requiredWidth(values.data(), count));
      simd::packBp128(values.data(), skip.freqWidth, packed.data());
      appendWords(data, packed.data(), codec::bp128PrefixWords(skip.freqWidth, count));
    } else {
      // Varint tail, Lucene-style: the gap code carries "tf == 1" in its low bit, so the common
      // single occurrence costs no frequency byte.
      skip.flags = format::kSkipVarintTail;
      std::vector<std::uint8_t> bytes;
      for (std::size_t i = 0; i < count; ++i) {
        const std::uint64_t gap = docs[begin + i] - prev - 1;
        const std::uint32_t tf = freqs[begin + i];
        codec::appendVarint64(bytes, (gap << 1) | (tf == 1 ? 1u : 0u));
        if (tf != 1) codec::appendVarint(bytes, tf - 2);
        prev = docs[begin + i];
      }
      const auto* p = reinterpret_cast<const std::byte*>(bytes.data());
      data.insert(data.end(), p, p + bytes.size());
    }
    const std::size_t blockBytes = data.size() - dataStart;
    if (tableBytes + data.size() > UINT32_MAX) throwInternal("posting list over 4 GiB");
    skip.dataBytes = static_cast<std::uint32_t>(blockBytes);
  }
  std::vector<std::byte> out;
  out.reserve(tableBytes + data.size());
  for (const auto& skip : skips) appendPod(out, skip);
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

SegmentInfo writeSegment(const std::filesystem::path& dir, std::uint32_t id,
                         const std::vector<const InvertedChunk*>& chunks, bool storeText) {
  if (chunks.empty()) throwInternal("a segment needs at least one chunk");
  SegmentInfo info;
  info.id = id;
  info.docBase = chunks.front()->docBase;
  for (const InvertedChunk* c : chunks) {
    if (c->docBase != info.docBase + info.docCount) throwInternal("segment chunks are not consecutive");
    info.docCount += c->docCount();
    info.totalTokens += c->totalTokens;
    info.postings += c->postingCount();
  }

  // .post and .terms together: the term entries need the postings offsets. The chunks' sorted
  // term lists are merged (k-way, by bytes); each term's postings are the chunks' in doc order.
  CheckedFileWriter post(dir / segmentFileName(id, format::FileKind::Postings), format::FileKind::Postings, id);
  std::vector<format::TermEntry> entries;
  std::string pool;
  std::uint64_t firstBlock = 0;
  std::vector<std::uint32_t> cursor(chunks.size(), 0);
  using HeapItem = std::pair<std::string_view, std::size_t>;  // (term, chunk)
  auto greater = [](const HeapItem& a, const HeapItem& b) {
    return a.first != b.first ? a.first > b.first : a.second > b.second;
  };
  std::vector<HeapItem> heap;
  for (std::size_t c = 0; c < chunks.size(); ++c) {
    if (chunks[c]->termCount() > 0) heap.emplace_back(chunks[c]->term(0), c);
  }
  std::make_heap(heap.begin(), heap.end(), greater);
  std::vector<DocId> docs;
  std::vector<std::uint32_t> freqs;
  std::vector<std::size_t> holders;
  while (!heap.empty()) {
    const std::string_view term = heap.front().first;
    holders.clear();
    while (!heap.empty() && heap.front().first == term) {
      std::pop_heap(heap.begin(), heap.end(), greater);
      holders.push_back(heap.back().second);
      heap.pop_back();
    }
    std::sort(holders.begin(), holders.end());  // doc order
    docs.clear();
    freqs.clear();
    std::uint64_t cf = 0;
    for (const std::size_t c : holders) {
      const InvertedChunk& chunk = *chunks[c];
      const std::uint32_t t = cursor[c];
      for (std::uint32_t p = chunk.postingStart[t]; p < chunk.postingStart[t + 1]; ++p) {
        docs.push_back(chunk.docs[p]);
        freqs.push_back(chunk.freqs[p]);
        cf += chunk.freqs[p];
      }
    }
    if (docs.size() > UINT32_MAX || entries.size() == UINT32_MAX) throwBadInput("segment too large");
    // Lists with a full BP128 block start 16-byte aligned (their block data must be); a list that
    // is only a tail needs 4 (its skip entry's alignment: a packed tail is copied before it is
    // unpacked) and saves the padding.
    post.writer().alignTo(docs.size() >= kBlockSize ? 16 : 4);
    format::TermEntry entry{};
    entry.postingsOffset = post.position();
    entry.cf = cf;
    entry.stringOffset = pool.size();
    entry.stringLength = static_cast<std::uint32_t>(term.size());
    entry.df = static_cast<std::uint32_t>(docs.size());
    entry.blockCount = static_cast<std::uint32_t>((docs.size() + kBlockSize - 1) / kBlockSize);
    if (firstBlock > UINT32_MAX) throwBadInput("more than 2^32 posting blocks in one segment");
    entry.firstBlock = static_cast<std::uint32_t>(firstBlock);
    firstBlock += entry.blockCount;
    pool.append(term);
    entries.push_back(entry);
    post.writer().write(encodePostingList(docs, freqs, info.docBase));
    // Advance the holders past this term (the string views stay valid: chunks are not modified).
    for (const std::size_t c : holders) {
      if (++cursor[c] < chunks[c]->termCount()) {
        heap.emplace_back(chunks[c]->term(cursor[c]), c);
        std::push_heap(heap.begin(), heap.end(), greater);
      }
    }
  }
  info.terms = entries.size();
  info.blocks = firstBlock;
  info.files["postings"] = fileInfo(dir, id, format::FileKind::Postings, post);

  CheckedFileWriter termsFile(dir / segmentFileName(id, format::FileKind::Terms), format::FileKind::Terms, id);
  format::TermsHeader termsHeader{};
  termsHeader.termCount = static_cast<std::uint32_t>(entries.size());
  termsHeader.totalBlocks = firstBlock;
  termsHeader.poolBytes = pool.size();
  termsFile.writer().writePod(termsHeader);
  termsFile.writer().write(entries.data(), entries.size() * sizeof(format::TermEntry));
  termsFile.writer().writeString(pool);
  info.files["terms"] = fileInfo(dir, id, format::FileKind::Terms, termsFile);

  CheckedFileWriter docsFile(dir / segmentFileName(id, format::FileKind::Docs), format::FileKind::Docs, id);
  format::DocsHeader docsHeader{};
  docsHeader.docCount = info.docCount;
  docsHeader.docBase = info.docBase;
  docsHeader.totalTokens = info.totalTokens;
  for (const InvertedChunk* c : chunks) {
    for (const auto& ext : c->externalIds) docsHeader.idBytes += ext.size();
  }
  docsFile.writer().writePod(docsHeader);
  for (const InvertedChunk* c : chunks) {
    docsFile.writer().write(c->docLengths.data(), c->docLengths.size() * sizeof(std::uint32_t));
  }
  docsFile.writer().alignTo(8);
  std::uint64_t offset = 0;
  docsFile.writer().writePod(offset);
  for (const InvertedChunk* c : chunks) {
    for (const auto& ext : c->externalIds) {
      offset += ext.size();
      docsFile.writer().writePod(offset);
    }
  }
  for (const InvertedChunk* c : chunks) {
    for (const auto& ext : c->externalIds) docsFile.writer().writeString(ext);
  }
  info.files["docs"] = fileInfo(dir, id, format::FileKind::Docs, docsFile);

  // .store: the chunks' zlib chunks back to back (every inverted chunk but the segment's last holds
  // a multiple of kDocsPerStoreChunk documents, so store chunks stay uniform).
  CheckedFileWriter storeFile(dir / segmentFileName(id, format::FileKind::Store), format::FileKind::Store, id);
  format::StoreHeader storeHeader{};
  storeHeader.docsPerChunk = format::kDocsPerStoreChunk;
  std::vector<std::uint64_t> offsets{0};
  if (storeText) {
    for (std::size_t c = 0; c < chunks.size(); ++c) {
      if (c + 1 < chunks.size() && chunks[c]->docCount() % format::kDocsPerStoreChunk != 0) {
        throwInternal("inverted chunk size is not a multiple of the store chunk size");
      }
      const std::uint64_t base = offsets.back();
      for (std::size_t i = 1; i < chunks[c]->storeOffsets.size(); ++i) offsets.push_back(base + chunks[c]->storeOffsets[i]);
      storeHeader.rawBytes += chunks[c]->storeRaw;
    }
    storeHeader.chunkCount = static_cast<std::uint32_t>(offsets.size() - 1);
  }
  storeFile.writer().writePod(storeHeader);
  storeFile.writer().write(offsets.data(), offsets.size() * sizeof(std::uint64_t));
  if (storeText) {
    for (const InvertedChunk* c : chunks) storeFile.writer().write(c->store.data(), c->store.size());
  }
  info.files["store"] = fileInfo(dir, id, format::FileKind::Store, storeFile);
  return info;
}

}  // namespace wandscope::engine
