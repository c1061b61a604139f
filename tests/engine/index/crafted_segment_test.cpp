// SPDX-License-Identifier: GPL-3.0-or-later
// Files with valid checksums but impossible structure: what a buggy or malicious writer produces,
// and what the CRCs cannot catch. Opening must refuse them naming the file, because after a
// successful open the query paths trust every offset and doc id (docs/FORMAT.md).
#include "engine/codec/bp128.h"
#include "engine/core/checksum.h"
#include "engine/core/error.h"
#include "engine/index/format.h"
#include "engine/index/index.h"
#include "engine/query/searcher.h"
#include "tests/support/test_index.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <fstream>

namespace wandscope::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::uint8_t> readSegmentFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Replaces the payload of an index file keeping it valid: header kept, footer (size, CRC)
// recomputed, the manifest's size and CRC of the file updated and its own CRC line rewritten.
void rewriteWithValidChecksums(const fs::path& dir, const std::string& fileName, std::vector<std::uint8_t> bytes) {
  namespace format = engine::format;
  bytes.resize(bytes.size() - sizeof(format::FileFooter));  // drop the old footer
  format::FileFooter footer{};
  footer.payloadBytes = bytes.size() - sizeof(format::FileHeader);
  footer.crc32 = engine::crc32Of(std::as_bytes(std::span<const std::uint8_t>(bytes)));
  footer.magic = format::kFooterMagic;
  const auto* f = reinterpret_cast<const std::uint8_t*>(&footer);
  bytes.insert(bytes.end(), f, f + sizeof(footer));
  std::ofstream(dir / fileName, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));

  engine::Manifest manifest = engine::readCurrentManifest(dir);
  bool found = false;
  for (auto& segment : manifest.segments) {
    for (auto& [kind, file] : segment.files) {
      if (file.name == fileName) {
        file.bytes = bytes.size();
        file.crc32 = footer.crc32;
        found = true;
      }
    }
  }
  ASSERT_TRUE(found) << fileName;
  engine::writeManifest(dir, manifest);
}

std::string openAndQuery(const fs::path& dir, const std::string& query) {
  try {
    const auto index = engine::Index::open(dir);
    for (const auto algo : {engine::Algorithm::Exhaustive, engine::Algorithm::Wand, engine::Algorithm::Bmw}) {
      engine::SearchRequest r;
      r.text = query;
      r.algorithm = algo;
      (void)engine::search(*index, r);
    }
    return "";
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::Index) << e.what();
    return e.what();
  }
}

// The skip entry of the first block of the list at `listStart` in segment 0's postings file.
engine::format::SkipEntry firstSkip(const TestIndex& t, std::uint64_t listStart) {
  const auto bytes = readSegmentFile(t.indexPath / "seg-000000.post");
  engine::format::SkipEntry skip;
  std::memcpy(&skip, bytes.data() + listStart, sizeof skip);
  return skip;
}

// Rewrites the only block of the last list of segment 0's postings file (at `listStart`, a full
// block or a packed tail) with its doc gaps (stored minus one) `gaps` packed at width 32 and its
// skip entry's last doc `lastDoc`; the count, the frequencies and the other fields as written,
// the checksums valid.
void rewriteDocsAtWidth32(const TestIndex& t, std::uint64_t listStart, const std::uint32_t (&gaps)[128],
                          engine::DocId lastDoc) {
  const std::string postName = "seg-000000.post";
  auto bytes = readSegmentFile(t.indexPath / postName);
  engine::format::SkipEntry skip;
  std::memcpy(&skip, bytes.data() + listStart, sizeof skip);
  const std::size_t count = skip.countMinus1 + 1u;
  const std::uint64_t dataStart = listStart + skip.dataOffset;
  const std::size_t docBytes = engine::codec::bp128PrefixWords(skip.docWidth, count) * 4;
  const std::vector<std::uint8_t> freqs(bytes.begin() + static_cast<std::ptrdiff_t>(dataStart + docBytes),
                                        bytes.begin() + static_cast<std::ptrdiff_t>(dataStart + skip.dataBytes));
  std::uint32_t packed[128];
  engine::codec::packBp128(gaps, 32, packed);
  const std::size_t packedBytes = engine::codec::bp128PrefixWords(32, count) * 4;
  skip.docWidth = 32;
  skip.lastDoc = lastDoc;
  skip.dataBytes = static_cast<std::uint32_t>(packedBytes + freqs.size());
  std::memcpy(bytes.data() + listStart, &skip, sizeof skip);
  bytes.resize(dataStart);
  const auto* p = reinterpret_cast<const std::uint8_t*>(packed);
  bytes.insert(bytes.end(), p, p + packedBytes);
  bytes.insert(bytes.end(), freqs.begin(), freqs.end());
  bytes.resize(bytes.size() + sizeof(engine::format::FileFooter));  // room for the footer
  rewriteWithValidChecksums(t.indexPath, postName, bytes);
}

// A full (BP128) block whose doc-id gaps wrap around 2^32: its last doc id still equals the skip
// entry's, which was the only check, but on the way it visits doc 5000 of a 200-document index
// and then goes backwards. Scoring that doc read past the document-length table.
TEST(CraftedSegment, AFullBlockWhoseGapsWrapAroundIsRefusedAtOpen) {
  std::vector<engine::Document> docs;
  for (int i = 0; i < 200; ++i) docs.push_back({"d" + std::to_string(i), "", i < 128 ? "a zzz" : "a"});
  auto t = buildTestIndex(docs);  // one segment; "zzz" (the last term) has exactly one full block
  const auto& segment = *t->index->segments().at(0);
  const auto zzz = segment.find("zzz");
  ASSERT_TRUE(zzz);
  ASSERT_EQ(*zzz + 1, segment.termCount()) << "its list must be the last one of the file";
  const std::uint64_t listStart = segment.entry(*zzz).postingsOffset;
  t->index.reset();

  const auto skip = firstSkip(*t, listStart);
  ASSERT_EQ(skip.countMinus1, 127);
  ASSERT_EQ(skip.flags, 0);
  // Doc ids 5000, 0, 1, ..., 126 from base 0xFFFFFFFF (doc base 0 minus one); stored as gap - 1.
  std::uint32_t gaps[128];
  gaps[0] = 5000;                       // 0xFFFFFFFF + 5001 = 5000
  gaps[1] = 0xFFFFFFFFu - 5000u;        // 5000 + (2^32 - 5000) = 0: wraps
  for (int i = 2; i < 128; ++i) gaps[i] = 0;  // 1, 2, ..., 126
  rewriteDocsAtWidth32(*t, listStart, gaps, 126);

  const std::string postName = "seg-000000.post";
  const std::string message = openAndQuery(t->indexPath, "zzz");
  ASSERT_FALSE(message.empty()) << "the wrapped block was accepted";
  EXPECT_NE(message.find(postName), std::string::npos) << message;
  EXPECT_NE(message.find("term 1"), std::string::npos) << message;
}

// The same block rewritten with gaps that stay in range is accepted: the check is not a false alarm
// on width-32 blocks.
TEST(CraftedSegment, AWideButValidFullBlockIsAccepted) {
  std::vector<engine::Document> docs;
  for (int i = 0; i < 200; ++i) docs.push_back({"d" + std::to_string(i), "", i < 128 ? "a zzz" : "a"});
  auto t = buildTestIndex(docs);
  engine::SearchRequest r;
  r.text = "zzz";
  r.k = 200;
  const auto before = engine::search(*t->index, r).hits;
  const auto& segment = *t->index->segments().at(0);
  const std::uint64_t listStart = segment.entry(*segment.find("zzz")).postingsOffset;
  t->index.reset();

  std::uint32_t gaps[128] = {};  // docs 0..127, as written, but at width 32
  rewriteDocsAtWidth32(*t, listStart, gaps, firstSkip(*t, listStart).lastDoc);

  const auto index = engine::Index::open(t->indexPath);
  EXPECT_EQ(engine::search(*index, r).hits, before);
}

// A packed tail (here the only block of "zzz", 40 postings) rewritten at width 32 and opened.
std::string rewritePackedTail(const TestIndex& t, std::uint64_t listStart, const std::uint32_t (&gaps)[128],
                              engine::DocId lastDoc) {
  const auto skip = firstSkip(t, listStart);
  EXPECT_EQ(skip.flags, engine::format::kSkipPackedTail);
  EXPECT_EQ(skip.countMinus1, 39);
  rewriteDocsAtWidth32(t, listStart, gaps, lastDoc);
  return openAndQuery(t.indexPath, "zzz");
}

// A packed tail whose gaps wrap around 2^32 (doc ids 5000, 0, 1, ..., 38 in a 100-document index)
// and still end on its skip entry's last doc is refused at open, as a full block is; the same tail
// with gaps in range at width 32 is accepted and answers as before.
TEST(CraftedSegment, APackedTailWhoseGapsWrapAroundIsRefusedAtOpenAndAWideValidOneIsAccepted) {
  std::vector<engine::Document> docs;
  for (int i = 0; i < 100; ++i) docs.push_back({"d" + std::to_string(i), "", i < 40 ? "a zzz" : "a"});
  auto t = buildTestIndex(docs);  // one segment; "zzz" (the last term) is one packed tail
  engine::SearchRequest r;
  r.text = "zzz";
  r.k = 100;
  const auto before = engine::search(*t->index, r).hits;
  ASSERT_EQ(before.size(), 40u);
  const auto& segment = *t->index->segments().at(0);
  ASSERT_EQ(*segment.find("zzz") + 1, segment.termCount()) << "its list must be the last one of the file";
  const std::uint64_t listStart = segment.entry(*segment.find("zzz")).postingsOffset;
  t->index.reset();

  std::uint32_t valid[128] = {};  // docs 0..39, as written, but at width 32
  EXPECT_EQ(rewritePackedTail(*t, listStart, valid, 39), "");
  EXPECT_EQ(engine::search(*engine::Index::open(t->indexPath), r).hits, before);

  std::uint32_t wrapped[128] = {};
  wrapped[0] = 5000;                 // 0xFFFFFFFF + 5001 = 5000
  wrapped[1] = 0xFFFFFFFFu - 5000u;  // 5000 + (2^32 - 5000) = 0: wraps; then 1, ..., 38
  const std::string message = rewritePackedTail(*t, listStart, wrapped, 38);
  ASSERT_FALSE(message.empty()) << "the wrapped packed tail was accepted";
  EXPECT_NE(message.find("seg-000000.post"), std::string::npos) << message;
  EXPECT_NE(message.find("does not decode to ascending doc ids"), std::string::npos) << message;
}

// Skip entries that break format 2's rules behind valid checksums, each refused at open naming
// the entry: every count has one encoding (a full block holds 128, 32-127 is a packed tail, fewer
// a varint tail), only the last block may hold fewer than 128, a width is at most 32 and a packed
// tail's data is exactly its two streams. The last one (a last block claiming 201 postings with
// the flags and sizes of a full block) used to pass the entry's checks and make the open-time
// decode read past its 128-entry buffer before the df check refused it.
TEST(CraftedSegment, SkipEntriesThatBreakTheTailRulesAreRefusedAtOpen) {
  namespace format = engine::format;
  struct Damage {
    const char* what;
    std::uint32_t postings;  // of "zzz", the last list: 40 is one packed tail, 168 a block and one
    std::uint32_t entry;     // the skip entry changed
    std::function<void(format::SkipEntry&)> edit;
  };
  const std::vector<Damage> damages = {
      {"40 postings flagged as a varint tail", 40, 0, [](auto& s) { s.flags = format::kSkipVarintTail; }},
      {"20 postings flagged as a packed tail", 40, 0, [](auto& s) { s.countMinus1 = 19; }},
      {"a doc width of 33", 40, 0, [](auto& s) { s.docWidth = 33; }},
      {"data bytes beyond the two streams", 40, 0, [](auto& s) { s.dataBytes += 16; }},
      {"a last block of 201 postings", 40, 0, [](auto& s) { s.countMinus1 = 200; s.flags = 0; }},
      {"a first block of 100 postings", 168, 0, [](auto& s) { s.countMinus1 = 99; }},
  };
  for (const auto& damage : damages) {
    SCOPED_TRACE(damage.what);
    std::vector<engine::Document> docs;
    for (std::uint32_t i = 0; i < 200; ++i) docs.push_back({"d" + std::to_string(i), "", i < damage.postings ? "a zzz" : "a"});
    auto t = buildTestIndex(docs);
    const auto& segment = *t->index->segments().at(0);
    const auto zzz = segment.find("zzz");
    ASSERT_TRUE(zzz);
    const std::uint64_t at = segment.entry(*zzz).postingsOffset + damage.entry * sizeof(format::SkipEntry);
    t->index.reset();
    const std::string postName = "seg-000000.post";
    auto bytes = readSegmentFile(t->indexPath / postName);
    format::SkipEntry skip;
    std::memcpy(&skip, bytes.data() + at, sizeof skip);
    damage.edit(skip);
    std::memcpy(bytes.data() + at, &skip, sizeof skip);
    rewriteWithValidChecksums(t->indexPath, postName, bytes);
    const std::string message = openAndQuery(t->indexPath, "zzz");
    EXPECT_NE(message.find(fmt::format("skip entry {} of term {} is invalid", damage.entry, *zzz)), std::string::npos)
        << message;
  }
}

// A stored chunk whose size field claims ~4 GiB: fetching a snippet allocated (and zeroed) that
// much before zlib refused the data (found by the index_segment fuzz target as a timeout). It is
// now refused from the compressed size, without the allocation.
TEST(CraftedSegment, AStoredChunkClaimingAnImpossibleSizeIsRefusedWithoutAllocatingIt) {
  std::vector<engine::Document> docs;
  for (int i = 0; i < 40; ++i) docs.push_back({"d" + std::to_string(i), "title", "some text " + std::to_string(i)});
  auto t = buildTestIndex(docs);
  t->index.reset();
  const std::string storeName = "seg-000000.store";
  auto bytes = readSegmentFile(t->indexPath / storeName);
  engine::format::StoreHeader header;
  std::memcpy(&header, bytes.data() + 32, sizeof header);
  ASSERT_EQ(header.chunkCount, 2u);
  const std::size_t firstChunk = 32 + sizeof header + 8 * (header.chunkCount + 1);
  const std::uint32_t claimed = 0xFFFFFFF0u;
  std::memcpy(bytes.data() + firstChunk, &claimed, 4);
  rewriteWithValidChecksums(t->indexPath, storeName, bytes);

  const auto index = engine::Index::open(t->indexPath);
  EXPECT_EQ(index->storedDocument(35).text, "some text 35") << "chunk 1 is intact";
  try {
    (void)index->storedDocument(3);
    FAIL() << "a chunk claiming 4 GiB was decompressed";
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::Index);
    EXPECT_NE(std::string(e.what()).find("seg-000000.store: stored chunk 0 claims an impossible size"),
              std::string::npos)
        << e.what();
  }
}

// The rank weights (format.h): a weight above its list's maximum would preset a floor some top-k
// document cannot beat, so it is refused at open, as is a rank count this version does not read;
// a file without them (rank count 0, as written before them) opens and answers without the floor.
TEST(CraftedSegment, RankWeightsAboveTheListMaximumAreRefusedAndMissingOnesAreFine) {
  namespace format = engine::format;
  std::vector<engine::Document> docs;
  for (int i = 0; i < 40; ++i) docs.push_back({"d" + std::to_string(i), "", i % 4 == 0 ? "a b b" : "a"});
  for (const int variant : {0, 1, 2}) {
    SCOPED_TRACE("variant " + std::to_string(variant));
    auto t = buildTestIndex(docs);
    const auto& segment = *t->index->segments().at(0);
    const std::string boundsName = segment.boundsFileName();
    const auto a = segment.find("a");
    ASSERT_TRUE(a);
    const std::uint32_t terms = segment.termCount();
    ASSERT_EQ(segment.postingList(*a).rankWeights.size(), format::kRankWeightCount);
    const std::string query = "a b";
    engine::SearchRequest request;
    request.text = query;
    request.algorithm = engine::Algorithm::Bmw;
    const auto expected = engine::search(*t->index, request).hits;
    t->index.reset();

    auto bytes = readSegmentFile(t->indexPath / boundsName);
    const std::size_t headerAt = sizeof(format::FileHeader);
    format::BoundsHeader header;
    std::memcpy(&header, bytes.data() + headerAt, sizeof header);
    ASSERT_EQ(header.rankCount, format::kRankWeightCount);
    const std::size_t listMaxAt = headerAt + sizeof header;
    const std::size_t rankAt = listMaxAt + 4u * (terms + header.totalBlocks);
    if (variant == 0) {  // term a's 10th-largest weight above its list maximum
      float listMax = 0.0f;
      std::memcpy(&listMax, bytes.data() + listMaxAt + 4u * *a, 4);
      const float above = listMax * 2.0f;
      std::memcpy(bytes.data() + rankAt + 4u * (*a * format::kRankWeightCount), &above, 4);
    } else {  // a rank count of 7, or 0 with the weights dropped (an older file)
      header.rankCount = variant == 1 ? 7 : 0;
      std::memcpy(bytes.data() + headerAt, &header, sizeof header);
      if (variant == 2) {
        bytes.erase(bytes.begin() + static_cast<std::ptrdiff_t>(rankAt),
                    bytes.begin() + static_cast<std::ptrdiff_t>(rankAt + 4u * terms * format::kRankWeightCount));
      }
    }
    rewriteWithValidChecksums(t->indexPath, boundsName, bytes);
    const std::string message = openAndQuery(t->indexPath, query);
    if (variant == 2) {
      EXPECT_EQ(message, "");
      const auto index = engine::Index::open(t->indexPath);
      EXPECT_TRUE(index->segments().at(0)->postingList(*a).rankWeights.empty());
      EXPECT_EQ(engine::search(*index, request).hits, expected);
    } else {
      EXPECT_NE(message.find(boundsName), std::string::npos) << message;
      EXPECT_NE(message.find(variant == 0 ? "rank weight 0 out of order or above the list maximum" : "7 rank weights"),
                std::string::npos)
          << message;
    }
  }
}

// A term's posting list ends where the next term's begins, so a bad offset of the next term was
// reported as "posting list of term T lies outside the file", naming the term before the damaged
// one. The damaged term is named now.
TEST(CraftedSegment, ABadPostingsOffsetNamesItsOwnTerm) {
  std::vector<engine::Document> docs;
  for (int i = 0; i < 200; ++i) docs.push_back({"d" + std::to_string(i), "", i < 128 ? "a zzz" : "a"});
  auto t = buildTestIndex(docs);
  const auto& segment = *t->index->segments().at(0);
  const auto zzz = segment.find("zzz");
  ASSERT_TRUE(zzz);
  ASSERT_GT(*zzz, 0u);
  const std::uint64_t offset = segment.entry(*zzz).postingsOffset;
  t->index.reset();

  const std::string termsName = "seg-000000.terms";
  auto bytes = readSegmentFile(t->indexPath / termsName);
  // The offset's eight bytes, found once in the term table.
  std::size_t at = bytes.size();
  for (std::size_t i = sizeof(engine::format::FileHeader); i + 8 <= bytes.size(); ++i) {
    if (std::memcmp(bytes.data() + i, &offset, 8) == 0) {
      ASSERT_EQ(at, bytes.size()) << "the offset's bytes occur twice; pick another corpus";
      at = i;
    }
  }
  ASSERT_LT(at, bytes.size());
  const std::uint64_t far = std::uint64_t{1} << 39;  // far past the end, aligned
  std::memcpy(bytes.data() + at, &far, 8);
  rewriteWithValidChecksums(t->indexPath, termsName, bytes);
  const std::string message = openAndQuery(t->indexPath, "zzz");
  EXPECT_NE(message.find(fmt::format("posting list of term {} starts outside the file", *zzz)), std::string::npos)
      << message;
}

// A manifest edited and its CRC line recomputed passes the checksum. Its per-segment posting,
// term and block counts feed `index info` (bits per posting), so each must agree with the
// segment's own files or the open is refused naming the manifest and the field.
TEST(CraftedSegment, AManifestWhoseSegmentCountsDisagreeWithTheFilesIsRefused) {
  std::vector<engine::Document> docs;
  for (int i = 0; i < 300; ++i) docs.push_back({"d" + std::to_string(i), "", i % 3 ? "a b" : "a c"});
  auto t = buildTestIndex(docs);
  t->index.reset();
  const engine::Manifest original = engine::readCurrentManifest(t->indexPath);
  ASSERT_EQ(original.segments.size(), 1u);
  EXPECT_EQ(original.segments[0].postings, 600u);
  EXPECT_EQ(original.segments[0].terms, 3u);
  for (const std::string field : {"postings", "terms", "blocks"}) {
    engine::Manifest m = original;
    auto& s = m.segments[0];
    (field == "postings" ? s.postings : field == "terms" ? s.terms : s.blocks) += 1;
    engine::writeManifest(t->indexPath, m);
    try {
      (void)engine::Index::open(t->indexPath);
      ADD_FAILURE() << "a manifest stating one " << field << " too many was accepted";
    } catch (const engine::Error& e) {
      const std::string message = e.what();
      EXPECT_EQ(e.kind(), engine::ErrorKind::Index) << message;
      EXPECT_NE(message.find("MANIFEST-"), std::string::npos) << message;
      EXPECT_NE(message.find(field), std::string::npos) << message;
    }
  }
  engine::writeManifest(t->indexPath, original);
  EXPECT_NO_THROW((void)engine::Index::open(t->indexPath));
}

}  // namespace
}  // namespace wandscope::test
