// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/index/segment_writer.h"

#include "engine/codec/bp128.h"
#include "engine/codec/varint.h"
#include "engine/core/error.h"
#include "engine/index/checked_file.h"

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
    if (count == kBlockSize) {
      for (std::size_t i = 0; i < count; ++i) {
        values[i] = docs[begin + i] - prev - 1;
        prev = docs[begin + i];
      }
      skip.docWidth = static_cast<std::uint8_t>(codec::requiredWidth(values.data(), count));
      codec::packBp128(values.data(), skip.docWidth, packed.data());
      appendWords(data, packed.data(), codec::bp128Words(skip.docWidth));
      for (std::size_t i = 0; i < count; ++i) values[i] = freqs[begin + i] - 1;
      skip.freqWidth = static_cast<std::uint8_t>(codec::requiredWidth(values.data(), count));
      codec::packBp128(values.data(), skip.freqWidth, packed.data());
      appendWords(data, packed.data(), codec::bp128Words(skip.freqWidth));
    } else {
      skip.flags = format::kSkipVarintTail;
      std::vector<std::uint8_t> bytes;
      for (std::size_t i = 0; i < count; ++i) {
        codec::appendVarint(bytes, docs[begin + i] - prev - 1);
        prev = docs[begin + i];
      }
      for (std::size_t i = 0; i < count; ++i) codec::appendVarint(bytes, freqs[begin + i] - 1);
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

SegmentInfo writeSegment(const std::filesystem::path& dir, const SegmentAccumulator& segment) {
  SegmentInfo info;
  info.id = segment.segmentId();
  info.docBase = segment.docBase();
  info.docCount = segment.docCount();
  info.totalTokens = segment.totalTokens();
  info.postings = segment.postingCount();
  const std::uint32_t id = segment.segmentId();
  const auto terms = segment.sortedTerms();
  info.terms = terms.size();
  if (terms.size() > UINT32_MAX) throwBadInput("more than 2^32 distinct terms in one segment");

  // .post and .terms together: the term entries need the postings offsets.
  CheckedFileWriter post(dir / segmentFileName(id, format::FileKind::Postings),
                         format::FileKind::Postings, id);
  std::vector<format::TermEntry> entries(terms.size());
  std::string pool;
  std::uint64_t firstBlock = 0;
  for (std::size_t t = 0; t < terms.size(); ++t) {
    const auto& [term, postings] = terms[t];
    post.writer().alignTo(16);
    format::TermEntry& entry = entries[t];
    entry.postingsOffset = post.position();
    entry.cf = postings->cf;
    entry.stringOffset = pool.size();
    entry.stringLength = static_cast<std::uint32_t>(term.size());
    entry.df = static_cast<std::uint32_t>(postings->docs.size());
    entry.blockCount = static_cast<std::uint32_t>((postings->docs.size() + kBlockSize - 1) / kBlockSize);
    if (firstBlock > UINT32_MAX) throwBadInput("more than 2^32 posting blocks in one segment");
    entry.firstBlock = static_cast<std::uint32_t>(firstBlock);
    firstBlock += entry.blockCount;
    pool.append(term);
    const auto bytes = encodePostingList(postings->docs, postings->freqs, segment.docBase());
    post.writer().write(bytes);
  }
  info.blocks = firstBlock;
  info.files["postings"] = fileInfo(dir, id, format::FileKind::Postings, post);

  CheckedFileWriter termsFile(dir / segmentFileName(id, format::FileKind::Terms),
                              format::FileKind::Terms, id);
  format::TermsHeader termsHeader{};
  termsHeader.termCount = static_cast<std::uint32_t>(terms.size());
  termsHeader.totalBlocks = firstBlock;
  termsHeader.poolBytes = pool.size();
  termsFile.writer().writePod(termsHeader);
  termsFile.writer().write(entries.data(), entries.size() * sizeof(format::TermEntry));
  termsFile.writer().writeString(pool);
  info.files["terms"] = fileInfo(dir, id, format::FileKind::Terms, termsFile);

  CheckedFileWriter docsFile(dir / segmentFileName(id, format::FileKind::Docs), format::FileKind::Docs, id);
  format::DocsHeader docsHeader{};
  docsHeader.docCount = segment.docCount();
  docsHeader.docBase = segment.docBase();
  docsHeader.totalTokens = segment.totalTokens();
  std::uint64_t idBytes = 0;
  for (const auto& ext : segment.externalIds()) idBytes += ext.size();
  docsHeader.idBytes = idBytes;
  docsFile.writer().writePod(docsHeader);
  const auto& lengths = segment.docLengths();
  docsFile.writer().write(lengths.data(), lengths.size() * sizeof(std::uint32_t));
  docsFile.writer().alignTo(8);
  std::uint64_t offset = 0;
  docsFile.writer().writePod(offset);
  for (const auto& ext : segment.externalIds()) {
    offset += ext.size();
    docsFile.writer().writePod(offset);
  }
  for (const auto& ext : segment.externalIds()) docsFile.writer().writeString(ext);
  info.files["docs"] = fileInfo(dir, id, format::FileKind::Docs, docsFile);

  CheckedFileWriter storeFile(dir / segmentFileName(id, format::FileKind::Store), format::FileKind::Store, id);
  format::StoreHeader storeHeader{};
  const auto& offsets = segment.storeChunkOffsets();
  storeHeader.chunkCount = segment.storeText() ? static_cast<std::uint32_t>(offsets.size() - 1) : 0;
  storeHeader.docsPerChunk = format::kDocsPerStoreChunk;
  storeHeader.rawBytes = segment.storeRawBytes();
  storeFile.writer().writePod(storeHeader);
  if (segment.storeText()) {
    storeFile.writer().write(offsets.data(), offsets.size() * sizeof(std::uint64_t));
    const auto& chunks = segment.storeChunks();
    storeFile.writer().write(chunks.data(), chunks.size());
  } else {
    const std::uint64_t zero = 0;
    storeFile.writer().writePod(zero);
  }
  info.files["store"] = fileInfo(dir, id, format::FileKind::Store, storeFile);
  return info;
}

}  // namespace wandscope::engine
