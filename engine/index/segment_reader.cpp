// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/index/segment_reader.h"

#include "engine/codec/simd/bp128_simd.h"
#include "engine/codec/varint.h"
#include "engine/core/error.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>

namespace wandscope::engine {
namespace {
constexpr std::uint64_t kPayloadStart = sizeof(format::FileHeader);
}

SegmentReader::SegmentReader(const std::filesystem::path& dir, const SegmentInfo& info,
                             std::uint32_t index, bool withBounds)
    : m_id(info.id), m_index(index) {
  using format::FileKind;
  m_terms = openFile(dir, info, FileKind::Terms);
  m_postings = openFile(dir, info, FileKind::Postings);
  m_docs = openFile(dir, info, FileKind::Docs);
  m_store = openFile(dir, info, FileKind::Store);

  const auto& docsHeader = m_docs.object<format::DocsHeader>(kPayloadStart, "docs header");
  m_docBase = docsHeader.docBase;
  m_docCount = docsHeader.docCount;
  m_totalTokens = docsHeader.totalTokens;
  if (m_docBase != info.docBase || m_docCount != info.docCount || m_totalTokens != info.totalTokens) {
    m_docs.corrupt("document range or token count disagrees with the manifest");
  }
  if (static_cast<std::uint64_t>(m_docBase) + m_docCount > kMaxDocs) m_docs.corrupt("document range overflows");
  std::uint64_t offset = kPayloadStart + sizeof(format::DocsHeader);
  m_lengths = m_docs.array<std::uint32_t>(offset, m_docCount, "document lengths");
  offset += std::uint64_t{m_docCount} * 4;
  offset = (offset + 7) & ~std::uint64_t{7};
  m_idOffsets = m_docs.array<std::uint64_t>(offset, std::uint64_t{m_docCount} + 1, "id offsets");
  offset += (std::uint64_t{m_docCount} + 1) * 8;
  const auto idBytes = m_docs.array<char>(offset, docsHeader.idBytes, "external ids");
  m_idBytes = std::string_view(idBytes.data(), idBytes.size());
  std::uint64_t tokens = 0;
  for (std::uint32_t d = 0; d < m_docCount; ++d) {
    if (m_idOffsets[d] > m_idOffsets[d + 1]) m_docs.corrupt("external id offsets are not ascending");
    tokens += m_lengths[d];
  }
  if (m_idOffsets[0] != 0 || m_idOffsets[m_docCount] != docsHeader.idBytes) {
    m_docs.corrupt("external id offsets do not cover the id bytes");
  }
  if (tokens != m_totalTokens) m_docs.corrupt("document lengths do not add up to the token count");

  const auto& storeHeader = m_store.object<format::StoreHeader>(kPayloadStart, "store header");
  offset = kPayloadStart + sizeof(format::StoreHeader);
  if (storeHeader.chunkCount > 0) {
    if (storeHeader.docsPerChunk == 0 ||
        storeHeader.chunkCount != (m_docCount + storeHeader.docsPerChunk - 1) / storeHeader.docsPerChunk) {
      m_store.corrupt("chunk count does not match the document count");
    }
    m_chunkOffsets = m_store.array<std::uint64_t>(offset, std::uint64_t{storeHeader.chunkCount} + 1, "chunk offsets");
    offset += (std::uint64_t{storeHeader.chunkCount} + 1) * 8;
    const std::uint64_t chunkBytes = m_chunkOffsets.back();
    m_chunks = m_store.array<std::byte>(offset, chunkBytes, "stored chunks");
    for (std::size_t c = 0; c + 1 < m_chunkOffsets.size(); ++c) {
      if (m_chunkOffsets[c] > m_chunkOffsets[c + 1]) m_store.corrupt("chunk offsets are not ascending");
    }
  }
  validateTerms();
  validatePostings();
  if (withBounds) {
    const auto it = info.files.find(std::string(format::fileKindName(FileKind::Bounds)));
    if (it == info.files.end()) {
      throwIndex(fmt::format("segment {}: the manifest names no bounds file (the index is corrupt)", m_id));
    }
    loadBounds(dir, it->second);
  }
}

CheckedFile SegmentReader::openFile(const std::filesystem::path& dir, const SegmentInfo& info,
                                    format::FileKind kind) const {
  const auto it = info.files.find(std::string(format::fileKindName(kind)));
  const std::string name = it != info.files.end() ? it->second.name : segmentFileName(m_id, kind);
  if (name.find('/') != std::string::npos || name.empty()) {
    throwIndex(fmt::format("segment {}: bad file name '{}' in the manifest", m_id, name));
  }
  CheckedFile file = openCheckedFile(dir / name, kind, m_id);
  if (it != info.files.end() && (it->second.crc32 != file.crc || it->second.bytes != file.file.size())) {
    throwIndex(name + ": does not match the manifest (size or checksum differ: a file from another build?)");
  }
  return file;
}

void SegmentReader::validateTerms() {
  const auto& header = m_terms.object<format::TermsHeader>(kPayloadStart, "terms header");
  std::uint64_t offset = kPayloadStart + sizeof(format::TermsHeader);
  m_entries = m_terms.array<format::TermEntry>(offset, header.termCount, "term entries");
  offset += std::uint64_t{header.termCount} * sizeof(format::TermEntry);
  const auto pool = m_terms.array<char>(offset, header.poolBytes, "term strings");
  m_pool = std::string_view(pool.data(), pool.size());
  std::uint64_t blocks = 0;
  std::string_view previous;
  for (std::uint32_t t = 0; t < header.termCount; ++t) {
    const auto& e = m_entries[t];
    if (e.stringOffset > m_pool.size() || e.stringLength > m_pool.size() - e.stringOffset) {
      m_terms.corrupt(fmt::format("term {} lies outside the string pool", t));
    }
    const std::string_view current = m_pool.substr(e.stringOffset, e.stringLength);
    if (current.empty() || (t > 0 && current <= previous)) {
      m_terms.corrupt(fmt::format("term {} is empty or out of order", t));
    }
    if (e.df == 0 || e.df > m_docCount || e.blockCount != (e.df + kBlockSize - 1) / kBlockSize ||
        e.firstBlock != blocks || e.cf < e.df) {
      m_terms.corrupt(fmt::format("term {} has inconsistent statistics", t));
    }
    blocks += e.blockCount;
    previous = current;
  }
  if (blocks != header.totalBlocks) m_terms.corrupt("block count does not add up");
}

void SegmentReader::validatePostings() {
  const std::uint64_t payloadEnd = kPayloadStart + m_postings.payload.size();
  const DocId lastValid = m_docBase + m_docCount - 1;
  const simd::Bp128Kernels& kernels = simd::bp128Kernels();
  for (std::uint32_t t = 0; t < termCount(); ++t) {
    const auto& e = m_entries[t];
    const std::uint64_t listEnd = t + 1 < termCount() ? m_entries[t + 1].postingsOffset : payloadEnd;
    const std::uint64_t alignment = e.df >= kBlockSize ? 16 : 4;  // see segment_writer.cpp
    if (t + 1 < termCount()) {
      // A list ends where the next term's begins: a bad offset of term t + 1 is named as its own,
      // not as term t's list lying outside the file.
      if (listEnd > payloadEnd || listEnd < kPayloadStart) {
        m_postings.corrupt(fmt::format("posting list of term {} starts outside the file (offset {})", t + 1, listEnd));
      }
      if (listEnd < e.postingsOffset) {
        m_postings.corrupt(fmt::format("posting list of term {} starts before the one of term {} (offsets {} and {})",
                                       t + 1, t, listEnd, e.postingsOffset));
      }
    }
    if (e.postingsOffset % alignment != 0 || e.postingsOffset < kPayloadStart || listEnd > payloadEnd ||
        listEnd < e.postingsOffset) {
      m_postings.corrupt(fmt::format("posting list of term {} lies outside the file", t));
    }
    const std::uint64_t listBytes = listEnd - e.postingsOffset;
    const auto skips = m_postings.array<format::SkipEntry>(e.postingsOffset, e.blockCount, "skip table");
    std::uint64_t postings = 0;
    DocId previousLast = 0;
    for (std::uint32_t b = 0; b < e.blockCount; ++b) {
      const auto& s = skips[b];
      const std::uint32_t count = s.countMinus1 + 1u;
      const bool last = b + 1 == e.blockCount;
      // Each count has one encoding (format.h): full, packed tail or varint tail.
      const bool varintTail = count < format::kPackedTailMinPostings;
      const bool packedTail = !varintTail && count < kBlockSize;
      bool ok = s.lastDoc >= m_docBase && s.lastDoc <= lastValid && (b == 0 || s.lastDoc > previousLast);
      ok = ok && std::uint64_t{s.dataOffset} + s.dataBytes <= listBytes &&
           s.dataOffset >= std::uint64_t{e.blockCount} * sizeof(format::SkipEntry) && (last || count == kBlockSize);
      if (varintTail) {
        ok = ok && s.flags == format::kSkipVarintTail && s.docWidth == 0 && s.freqWidth == 0;
      } else if (packedTail) {
        ok = ok && s.flags == format::kSkipPackedTail && s.docWidth <= 32 && s.freqWidth <= 32 &&
             s.dataBytes == packedTailBytes(s);
      } else {
        ok = ok && count == kBlockSize && s.flags == 0 && s.docWidth <= 32 && s.freqWidth <= 32 &&
             s.dataBytes == 16u * (std::uint32_t{s.docWidth} + s.freqWidth) && s.dataOffset % 16 == 0;
      }
      if (!ok) m_postings.corrupt(fmt::format("skip entry {} of term {} is invalid", b, t));
      if (!varintTail) {
        // Decode the doc ids once: gaps that wrap around 2^32 can still end at the skip entry's
        // last doc (the only check on the query path) after visiting ids outside the segment.
        alignas(16) DocId docs[kBlockSize];
        const DocId base = b == 0 ? m_docBase - 1 : previousLast;
        const std::byte* data = m_postings.file.data() + e.postingsOffset + s.dataOffset;
        if (packedTail) {
          unpackPackedTailDocs(data, s, base, docs);
        } else {
          kernels.unpackDelta[s.docWidth](reinterpret_cast<const std::uint32_t*>(data), base, docs);
        }
        bool ascending = docs[0] >= m_docBase && (b == 0 || docs[0] > previousLast);
        for (std::uint32_t i = 1; i < count; ++i) ascending = ascending && docs[i] > docs[i - 1];
        if (!ascending || docs[count - 1] != s.lastDoc) {
          m_postings.corrupt(fmt::format("block {} of term {} does not decode to ascending doc ids", b, t));
        }
      }
      postings += count;
      previousLast = s.lastDoc;
    }
    if (postings != e.df) m_postings.corrupt(fmt::format("term {}: block sizes do not add up to df", t));
  }
}

void SegmentReader::loadBounds(const std::filesystem::path& dir, const SegmentFileInfo& fileInfo) {
  using format::FileKind;
  if (fileInfo.name.empty() || fileInfo.name.find('/') != std::string::npos) {
    throwIndex(fmt::format("segment {}: bad bounds file name '{}' in the manifest", m_id, fileInfo.name));
  }
  CheckedFile bounds = openCheckedFile(dir / fileInfo.name, FileKind::Bounds, m_id);
  if (fileInfo.crc32 != bounds.crc || fileInfo.bytes != bounds.file.size()) {
    throwIndex(fileInfo.name + ": does not match the manifest (size or checksum differ)");
  }
  const auto& header = bounds.object<format::BoundsHeader>(kPayloadStart, "bounds header");
  const auto& termsHeader = m_terms.object<format::TermsHeader>(kPayloadStart, "terms header");
  if (header.termCount != termCount() || header.totalBlocks != termsHeader.totalBlocks) {
    bounds.corrupt("term or block count disagrees with the terms file");
  }
  std::uint64_t offset = kPayloadStart + sizeof(format::BoundsHeader);
  m_listMax = bounds.array<float>(offset, header.termCount, "list maxima");
  offset += std::uint64_t{header.termCount} * 4;
  m_blockMax = bounds.array<float>(offset, header.totalBlocks, "block maxima");
  offset += header.totalBlocks * 4;
  for (float v : m_listMax) {
    if (!(v >= 0.0f) || !std::isfinite(v)) bounds.corrupt("a list maximum is negative or not finite");
  }
  m_rankWeights = {};
  if (header.rankCount != 0) {
    if (header.rankCount != format::kRankWeightCount) {
      bounds.corrupt(fmt::format("{} rank weights per term (this version reads {})", header.rankCount,
                                 format::kRankWeightCount));
    }
    m_rankWeights = bounds.array<float>(offset, std::uint64_t{header.termCount} * header.rankCount, "rank weights");
    // Each at most the list maximum and the next rank's at most it (0 for a shorter list): a
    // weight above what the list holds would let a pruning path drop a document of the top k.
    for (std::uint32_t t = 0; t < header.termCount; ++t) {
      float above = m_listMax[t];
      for (std::uint32_t i = 0; i < header.rankCount; ++i) {
        const float v = m_rankWeights[std::size_t{t} * header.rankCount + i];
        const bool present = m_entries[t].df >= format::kRankWeightRanks[i];
        if (!(v >= 0.0f) || v > above || (!present && v != 0.0f)) {
          bounds.corrupt(fmt::format("term {}: rank weight {} out of order or above the list maximum", t, i));
        }
        above = v;
      }
    }
  }
  m_bounds = std::move(bounds);
  m_boundsName = fileInfo.name;
  m_boundsHeader = &m_bounds->object<format::BoundsHeader>(kPayloadStart, "bounds header");
}

std::string_view SegmentReader::term(std::uint32_t t) const noexcept {
  return m_pool.substr(m_entries[t].stringOffset, m_entries[t].stringLength);
}

std::optional<std::uint32_t> SegmentReader::find(std::string_view needle) const noexcept {
  std::uint32_t lo = 0;
  std::uint32_t hi = termCount();
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (term(mid) < needle) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo < termCount() && term(lo) == needle) return lo;
  return std::nullopt;
}

PostingList SegmentReader::postingList(std::uint32_t t) const noexcept {
  const auto& e = m_entries[t];
  PostingList list;
  list.base = m_postings.file.data() + e.postingsOffset;
  list.skips = {reinterpret_cast<const format::SkipEntry*>(list.base), e.blockCount};
  if (m_bounds) {
    list.blockMaxWeight = m_blockMax.subspan(e.firstBlock, e.blockCount);
    list.maxWeight = m_listMax[t];
    if (!m_rankWeights.empty()) list.rankWeights = m_rankWeights.subspan(std::size_t{t} * format::kRankWeightCount, format::kRankWeightCount);
  }
  list.df = e.df;
  list.docBase = m_docBase;
  list.segmentIndex = m_index;
  return list;
}

std::string_view SegmentReader::externalId(DocId doc) const noexcept {
  const std::uint32_t local = doc - m_docBase;
  return m_idBytes.substr(m_idOffsets[local], m_idOffsets[local + 1] - m_idOffsets[local]);
}

StoredDocument SegmentReader::storedDocument(DocId doc) const {
  StoredDocument out;
  if (m_chunkOffsets.empty()) return out;
  const std::uint32_t local = doc - m_docBase;
  const std::uint32_t chunk = local / format::kDocsPerStoreChunk;
  const std::uint64_t begin = m_chunkOffsets[chunk];
  const std::uint64_t end = m_chunkOffsets[chunk + 1];
  if (end - begin < 4) m_store.corrupt(fmt::format("stored chunk {} is too short", chunk));
  std::uint32_t raw = 0;
  std::memcpy(&raw, m_chunks.data() + begin, 4);
  // zlib inflates at most ~1032 bytes per compressed byte: a larger claimed size is damage, and
  // must not become an allocation of up to 4 GiB per snippet (found by fuzzing).
  if (raw > (end - begin - 4) * 1032 + 64) m_store.corrupt(fmt::format("stored chunk {} claims an impossible size", chunk));
  std::string buffer(raw, '\0');
  uLongf rawLen = raw;
  const int rc = ::uncompress(reinterpret_cast<Bytef*>(buffer.data()), &rawLen,
                              reinterpret_cast<const Bytef*>(m_chunks.data() + begin + 4),
                              static_cast<uLong>(end - begin - 4));
  if (rc != Z_OK || rawLen != raw) m_store.corrupt(fmt::format("stored chunk {} does not decompress", chunk));
  const auto* p = reinterpret_cast<const std::uint8_t*>(buffer.data());
  const auto* stop = p + buffer.size();
  const std::uint32_t skip = local % format::kDocsPerStoreChunk;
  for (std::uint32_t i = 0; i <= skip; ++i) {
    std::uint32_t len = 0;
    for (int field = 0; field < 2; ++field) {
      p = codec::readVarint(p, stop, len);
      if (p == nullptr || len > static_cast<std::uint64_t>(stop - p)) {
        m_store.corrupt(fmt::format("stored chunk {} is damaged", chunk));
      }
      if (i == skip) {
        (field == 0 ? out.title : out.text).assign(reinterpret_cast<const char*>(p), len);
      }
      p += len;
    }
  }
  return out;
}

std::uint64_t SegmentReader::fileBytes(format::FileKind kind) const noexcept {
  switch (kind) {
    case format::FileKind::Terms:
      return m_terms.file.size();
    case format::FileKind::Postings:
      return m_postings.file.size();
    case format::FileKind::Bounds:
      return m_bounds ? m_bounds->file.size() : 0;
    case format::FileKind::Docs:
      return m_docs.file.size();
    case format::FileKind::Store:
      return m_store.file.size();
  }
  return 0;
}

}  // namespace wandscope::engine
