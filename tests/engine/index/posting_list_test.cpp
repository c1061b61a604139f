// SPDX-License-Identifier: GPL-3.0-or-later
// Posting-list encoding round trips at the block and tail-kind boundaries (0, 1, 31, 32, 127, 128,
// 129, 1000 postings and more), random tails of both kinds, and damaged varint tails refused.
#include "engine/codec/varint.h"
#include "engine/core/error.h"
#include "engine/index/posting_list.h"
#include "engine/index/segment_writer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

namespace wandscope::test {
namespace {

using engine::DocId;
using engine::PostingList;

struct Decoded {
  std::vector<DocId> docs;
  std::vector<std::uint32_t> freqs;
};

Decoded decodeAll(const std::vector<std::byte>& bytes, std::size_t n, DocId docBase) {
  PostingList list;
  list.base = bytes.data();
  const std::size_t blocks = (n + 127) / 128;
  list.skips = {reinterpret_cast<const engine::format::SkipEntry*>(bytes.data()), blocks};
  list.docBase = docBase;
  Decoded out;
  std::vector<DocId> docs(128);
  std::vector<std::uint32_t> freqs(128);
  for (std::uint32_t b = 0; b < blocks; ++b) {
    bool tail = false;
    const auto count = engine::decodeBlockDocs(list, b, docs.data(), freqs.data(), tail);
    if (!tail) engine::decodeBlockFreqs(list, b, freqs.data());
    out.docs.insert(out.docs.end(), docs.begin(), docs.begin() + count);
    out.freqs.insert(out.freqs.end(), freqs.begin(), freqs.begin() + count);
  }
  return out;
}

TEST(PostingListCodec, RoundTripsAtBlockBoundaries) {
  const std::uint64_t seed = 5150;
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  namespace format = engine::format;
  for (std::size_t n : {0u, 1u, 31u, 32u, 33u, 127u, 128u, 129u, 159u, 160u, 255u, 256u, 1000u}) {
    for (DocId docBase : {0u, 1u, 70000u}) {
      for (std::uint32_t maxGap : {1u, 2u, 300u, 100000u}) {
        std::vector<DocId> docs;
        std::vector<std::uint32_t> freqs;
        DocId d = docBase + static_cast<DocId>(rng() % maxGap);
        for (std::size_t i = 0; i < n; ++i) {
          docs.push_back(d);
          d += 1 + static_cast<DocId>(rng() % maxGap);
          freqs.push_back(1 + static_cast<std::uint32_t>(rng() % (i % 3 == 0 ? 1000 : 3)));
        }
        const auto bytes = engine::encodePostingList(docs, freqs, docBase);
        const auto decoded = decodeAll(bytes, n, docBase);
        ASSERT_EQ(decoded.docs, docs) << "n " << n << " base " << docBase << " gap " << maxGap;
        ASSERT_EQ(decoded.freqs, freqs) << "n " << n;
        const auto* skips = reinterpret_cast<const engine::format::SkipEntry*>(bytes.data());
        for (std::size_t b = 0; b < (n + 127) / 128; ++b) {
          const std::size_t count = std::min<std::size_t>(128, n - b * 128);
          const std::uint8_t kind = count == 128                               ? 0
                                    : count >= format::kPackedTailMinPostings ? format::kSkipPackedTail
                                                                              : format::kSkipVarintTail;
          EXPECT_EQ(skips[b].flags, kind) << "block " << b << " of " << count << " postings";
          if (kind == format::kSkipPackedTail) {
            EXPECT_EQ(skips[b].dataBytes, engine::packedTailBytes(skips[b])) << "block " << b;
          }
          EXPECT_EQ(skips[b].lastDoc, docs[std::min(n, (b + 1) * 128) - 1]);
        }
      }
    }
  }
}

TEST(PostingListCodec, DenseListsPackToWidthZeroGaps) {
  std::vector<DocId> docs(128);
  std::vector<std::uint32_t> freqs(128, 1);
  for (DocId i = 0; i < 128; ++i) docs[i] = i;
  const auto bytes = engine::encodePostingList(docs, freqs, 0);
  const auto* skip = reinterpret_cast<const engine::format::SkipEntry*>(bytes.data());
  EXPECT_EQ(skip->docWidth, 0u);
  EXPECT_EQ(skip->freqWidth, 0u);
  EXPECT_EQ(bytes.size(), sizeof(engine::format::SkipEntry)) << "a fully dense block costs only its skip entry";
  EXPECT_EQ(decodeAll(bytes, 128, 0).docs, docs);
}

TEST(PostingListCodec, ExtremeDocIdsAndFrequencies) {
  const DocId top = engine::kMaxDocs - 1;
  std::vector<DocId> docs;
  std::vector<std::uint32_t> freqs;
  for (DocId i = 0; i < 200; ++i) {
    docs.push_back(top - 199 + i);
    freqs.push_back(i == 7 ? 0xFFFFFFFFu : 1u);
  }
  docs[0] = 0;  // one huge gap
  const auto bytes = engine::encodePostingList(docs, freqs, 0);
  const auto decoded = decodeAll(bytes, docs.size(), 0);
  EXPECT_EQ(decoded.docs, docs);
  EXPECT_EQ(decoded.freqs, freqs);
}

// Tails of both kinds (30 postings: varint, 100: packed) with a 32-bit gap and a 32-bit frequency
// (5-byte codes in a varint tail, width 32 in a packed one) at their start, middle and end
// (ExtremeDocIdsAndFrequencies has them in a full block only).
TEST(PostingListCodec, TailsWithWideCodesRoundTrip) {
  const DocId top = engine::kMaxDocs - 1;
  for (DocId n : {30u, 100u}) {
    for (DocId wideAt : {0u, 1u, n / 2, n - 3, n - 2, n - 1}) {
      std::vector<DocId> docs;
      std::vector<std::uint32_t> freqs;
      for (DocId i = 0; i < n; ++i) {
        docs.push_back(i < wideAt ? i * 3 : top - (n - 1) + i);
        freqs.push_back(i == wideAt ? 0xFFFFFFFFu : 1u + i % 3);
      }
      const auto bytes = engine::encodePostingList(docs, freqs, 0);
      const auto decoded = decodeAll(bytes, docs.size(), 0);
      EXPECT_EQ(decoded.docs, docs) << n << " postings, wide code at " << wideAt;
      EXPECT_EQ(decoded.freqs, freqs) << n << " postings, wide code at " << wideAt;
    }
  }
}

// A packed tail is a full block's two streams cut after the rows its postings fill: for 40
// postings at widths 13 and 2, 10 rows of 13 and 2 bits per lane, i.e. 5 and 1 words per lane.
// Its callers' arrays hold only `count` values: nothing is written past them.
TEST(PostingListCodec, PackedTailsTakeOnlyTheRowsTheirPostingsFill) {
  std::vector<DocId> docs;
  std::vector<std::uint32_t> freqs;
  for (DocId i = 0; i < 40; ++i) {
    docs.push_back(i * 5000);  // gap - 1 = 4999: 13 bits
    freqs.push_back(i == 3 ? 4 : 1);                   // tf - 1 up to 3: 2 bits
  }
  const auto bytes = engine::encodePostingList(docs, freqs, 0);
  const auto* skip = reinterpret_cast<const engine::format::SkipEntry*>(bytes.data());
  ASSERT_EQ(skip->flags, engine::format::kSkipPackedTail);
  EXPECT_EQ(skip->docWidth, 13u);
  EXPECT_EQ(skip->freqWidth, 2u);
  EXPECT_EQ(skip->dataBytes, 4u * 4 * (5 + 1));
  EXPECT_EQ(bytes.size(), sizeof *skip + skip->dataBytes);

  PostingList list;
  list.base = bytes.data();
  list.skips = {skip, 1};
  constexpr std::uint32_t kGuard = 0xA5A5A5A5u;
  std::vector<DocId> out(41, kGuard);
  std::vector<std::uint32_t> outFreqs(41, kGuard);
  bool tail = false;
  ASSERT_EQ(engine::decodeBlockDocs(list, 0, out.data(), outFreqs.data(), tail), 40u);
  EXPECT_TRUE(tail) << "a packed tail's frequencies come with its doc ids";
  EXPECT_EQ(std::vector<DocId>(out.begin(), out.begin() + 40), docs);
  EXPECT_EQ(std::vector<std::uint32_t>(outFreqs.begin(), outFreqs.begin() + 40), freqs);
  EXPECT_EQ(out[40], kGuard);
  EXPECT_EQ(outFreqs[40], kGuard);
}

// Random tails (1-127 postings, so both kinds) round trip: gaps and frequencies drawn so that codes
// of every length (1-5 bytes) and widths up to 32, tf 1 and tf > 1 alternate without a pattern.
// Seeds are printed on failure.
TEST(PostingListCodec, RandomTailsRoundTrip) {
  for (std::uint32_t seed = 1; seed <= 300; ++seed) {
    std::mt19937 rng(seed);
    const auto count = std::uniform_int_distribution<std::uint32_t>(1, 127)(rng);
    std::vector<DocId> docs;
    std::vector<std::uint32_t> freqs;
    std::uint64_t doc = std::uniform_int_distribution<std::uint32_t>(0, 3)(rng);
    // One posting in two tails takes a gap of 2^28 or more: a 5-byte code (the others are below
    // 2^24, so 127 of them and that one stay below kMaxDocs).
    const auto hugeAt = std::uniform_int_distribution<std::uint32_t>(0, 2 * count - 1)(rng);
    for (std::uint32_t i = 0; i < count; ++i) {
      const unsigned bits = i == hugeAt ? 30 : std::uniform_int_distribution<unsigned>(0, 24)(rng);
      const std::uint64_t least = i == hugeAt ? std::uint64_t{1} << 28 : 0;
      const std::uint64_t most = (std::uint64_t{1} << bits) - 1;
      doc += std::uniform_int_distribution<std::uint64_t>(least, most)(rng) + (i > 0 ? 1 : 0);
      docs.push_back(static_cast<DocId>(doc));
      const unsigned kind = std::uniform_int_distribution<unsigned>(0, 3)(rng);
      const std::uint32_t tfMost = kind == 2 ? 300u : 0xFFFFFFFFu;
      freqs.push_back(kind < 2 ? 1u : std::uniform_int_distribution<std::uint32_t>(2, tfMost)(rng));
    }
    const DocId docBase = docs.front() > 0 ? 1 : 0;
    const auto bytes = engine::encodePostingList(docs, freqs, docBase);
    const auto decoded = decodeAll(bytes, docs.size(), docBase);
    ASSERT_EQ(decoded.docs, docs) << "seed " << seed;
    ASSERT_EQ(decoded.freqs, freqs) << "seed " << seed;
  }
}

// A one-block list of `count` postings whose tail bytes are `data` (per posting varint(gap << 1 |
// (tf == 1)), then varint(tf - 2) when tf > 1; docs/FORMAT.md) and whose skip entry claims `lastDoc`.
std::vector<std::byte> craftedTail(const std::vector<std::uint8_t>& data, std::uint32_t count, DocId lastDoc) {
  engine::format::SkipEntry skip{};
  skip.lastDoc = lastDoc;
  skip.dataOffset = sizeof skip;
  skip.dataBytes = static_cast<std::uint32_t>(data.size());
  skip.countMinus1 = static_cast<std::uint8_t>(count - 1);
  skip.flags = engine::format::kSkipVarintTail;
  std::vector<std::byte> out(sizeof skip + data.size());
  std::memcpy(out.data(), &skip, sizeof skip);
  std::memcpy(out.data() + sizeof skip, data.data(), data.size());
  return out;
}

// Damaged varint tails behind valid checksums (a buggy writer): gaps that wrap around 2^32 and still end
// on the skip entry's last doc, a gap wider than 32 bits, a varint too long for 32 bits and a
// truncated one, a frequency varint too long for 32 bits and one whose tf - 2 leaves no room for
// the + 2, each early and late in the block (a faster tail decoder that reads several bytes at a
// time must keep every check, including near the end). Each is refused as an index error; the
// same tail undamaged decodes.
TEST(PostingListCodec, DamagedTailsAreRefused) {
  using engine::codec::appendVarint64;
  constexpr std::uint32_t kCount = engine::format::kPackedTailMinPostings - 1;
  for (const bool late : {false, true}) {
    const std::uint32_t at = late ? kCount - 2 : 1;  // the damaged posting
    for (int damage = 0; damage < 7; ++damage) {
      std::vector<std::uint8_t> data;
      std::uint32_t count = kCount;
      std::uint64_t doc = 0xFFFFFFFFu;  // the first block's base: doc base 0 minus one
      for (std::uint32_t i = 0; i < kCount; ++i) {
        std::uint64_t gap = 299;  // docs 299, 599, ... from the base 2^32 - 1
        if (damage == 1 && i == at) gap = 0xFFFFFFFFu - 600;  // wraps to below the previous doc
        if (damage == 1 && i == at + 1) gap = 600 + 299;       // ... and climbs back on the grid
        if (damage == 2 && i == at) gap = std::uint64_t{1} << 33;
        const bool badFreq = (damage == 5 || damage == 6) && i == at;
        appendVarint64(data, gap << 1 | (badFreq ? 0u : 1u));  // tf 1, or a frequency follows
        if (damage == 5 && badFreq) {
          data.insert(data.end(), {0x80u, 0x80u, 0x80u, 0x80u, 0x10u});  // 33 bits
        }
        if (damage == 6 && badFreq) appendVarint64(data, 0xFFFFFFFEu);  // tf - 2 = 2^32 - 2
        doc = (doc + gap + 1) & 0xFFFFFFFFu;
        if (damage == 3 && i == at) {
          data.back() |= 0x80u;  // the varint goes on for four more bytes: 6 in all, > 32 bits
          for (int b = 0; b < 4; ++b) data.push_back(0x80u);
          data.push_back(0x10u);
        }
      }
      if (damage == 4) {
        data.resize(late ? data.size() - 1 : 3);  // cut inside a varint (the high bit set)
        data.back() |= 0x80u;
        if (!late) count = 2;
      }
      // The last doc id as a 32-bit decoder sees it: the wrapped and the wide gaps end on the grid.
      const auto bytes = craftedTail(data, count, static_cast<DocId>(doc));
      SCOPED_TRACE("damage " + std::to_string(damage) + (late ? " late" : " early"));
      if (damage == 0) {
        const auto decoded = decodeAll(bytes, count, 0);
        ASSERT_EQ(decoded.docs.size(), kCount);
        EXPECT_EQ(decoded.docs.front(), 299u);
        EXPECT_EQ(decoded.docs.back(), 299u + 300u * (kCount - 1));
        continue;
      }
      try {
        (void)decodeAll(bytes, count, 0);
        ADD_FAILURE() << "the damaged tail decoded";
      } catch (const engine::Error& e) {
        EXPECT_EQ(e.kind(), engine::ErrorKind::Index) << e.what();
        EXPECT_NE(std::string(e.what()).find("corrupt"), std::string::npos) << e.what();
      }
    }
  }
}

}  // namespace
}  // namespace wandscope::test
