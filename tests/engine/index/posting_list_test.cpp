// SPDX-License-Identifier: GPL-3.0-or-later
// Posting-list encoding round trips at the block boundaries (0, 1, 127, 128, 129, 1000 postings).
#include "engine/index/posting_list.h"
#include "engine/index/segment_writer.h"

#include <gtest/gtest.h>

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
  for (std::size_t n : {0u, 1u, 127u, 128u, 129u, 255u, 256u, 1000u}) {
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
          const bool full = (b + 1) * 128 <= n;
          EXPECT_EQ((skips[b].flags & engine::format::kSkipVarintTail) != 0, !full) << "block " << b;
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

}  // namespace
}  // namespace wandscope::test
