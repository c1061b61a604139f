// SPDX-License-Identifier: GPL-3.0-or-later
// Damaged indexes: every file kind flipped or truncated at many offsets must be reported as an
// index error naming the file, never crash, never answer silently.
#include "engine/core/error.h"
#include "engine/index/index.h"
#include "engine/query/searcher.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_index.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>

namespace wandscope::test {
namespace {

namespace fs = std::filesystem;

// Opens the index and runs a query; returns the error message or "" if everything worked.
std::string openAndQueryError(const fs::path& dir) {
  try {
    const auto index = engine::Index::open(dir);
    engine::SearchRequest r;
    r.text = "w0 w1 w2 w3";
    r.k = 20;
    (void)engine::search(*index, r);
    return "";
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::Index) << e.what();
    return e.what();
  }
}

class CorruptionTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    engine::IndexBuildOptions options;
    options.segmentDocs = 200;
    m_index = buildTestIndex(randomCorpus(21, {.docs = 500, .vocabulary = 80}), options);
    m_file = m_index->indexPath / ("seg-000001" + GetParam());
    ASSERT_TRUE(fs::exists(m_file));
    m_original = readFileBytes(m_file);
  }
  std::unique_ptr<TestIndex> m_index;
  fs::path m_file;
  std::vector<char> m_original;
};

TEST_P(CorruptionTest, EveryFlippedByteIsReportedNamingTheFile) {
  const std::uint64_t seed = 8;
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::vector<std::size_t> offsets = {0, 8, 12, 16, 31, 32, 40, 64, m_original.size() / 2, m_original.size() - 17,
                                      m_original.size() - 16, m_original.size() - 5, m_original.size() - 1};
  for (int i = 0; i < 40; ++i) offsets.push_back(rng() % m_original.size());
  for (const std::size_t offset : offsets) {
    auto bytes = m_original;
    bytes[offset] = static_cast<char>(bytes[offset] ^ (1 << (rng() % 8)));
    writeFileBytes(m_file, bytes);
    const std::string message = openAndQueryError(m_index->indexPath);
    ASSERT_FALSE(message.empty()) << "flipping a bit at offset " << offset << " went unnoticed";
    EXPECT_NE(message.find(m_file.filename().string()), std::string::npos) << message;
  }
  writeFileBytes(m_file, m_original);
  EXPECT_EQ(openAndQueryError(m_index->indexPath), "");
}

TEST_P(CorruptionTest, EveryTruncationIsReportedNamingTheFile) {
  std::vector<std::size_t> lengths = {0, 1, 31, 32, 47, 48, m_original.size() / 3, m_original.size() - 16,
                                      m_original.size() - 1};
  for (const std::size_t length : lengths) {
    auto bytes = m_original;
    bytes.resize(length);
    writeFileBytes(m_file, bytes);
    const std::string message = openAndQueryError(m_index->indexPath);
    ASSERT_FALSE(message.empty()) << "truncating to " << length << " bytes went unnoticed";
    EXPECT_NE(message.find(m_file.filename().string()), std::string::npos) << message;
  }
  // Appended garbage is damage too.
  auto longer = m_original;
  longer.push_back('x');
  writeFileBytes(m_file, longer);
  EXPECT_FALSE(openAndQueryError(m_index->indexPath).empty());
}

TEST_P(CorruptionTest, AMissingFileIsReported) {
  fs::remove(m_file);
  const auto message = openAndQueryError(m_index->indexPath);
  EXPECT_NE(message.find(m_file.filename().string()), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(FileKinds, CorruptionTest,
                         ::testing::Values(".terms", ".post", ".g000001.bounds", ".docs", ".store"),
                         [](const auto& info) { return info.param.substr(info.param.rfind('.') + 1); });

TEST(Corruption, ManifestAndCurrent) {
  const auto t = buildTestIndex(randomCorpus(22, {.docs = 50}));
  const fs::path manifest = t->indexPath / "MANIFEST-000001";
  const auto original = readFileBytes(manifest);
  auto flipped = original;
  flipped[40] = static_cast<char>(flipped[40] ^ 4);
  writeFileBytes(manifest, flipped);
  EXPECT_NE(openAndQueryError(t->indexPath).find("MANIFEST-000001"), std::string::npos);
  auto cut = original;
  cut.resize(original.size() / 2);
  writeFileBytes(manifest, cut);
  EXPECT_NE(openAndQueryError(t->indexPath).find("MANIFEST-000001"), std::string::npos);
  writeFileBytes(manifest, original);
  EXPECT_EQ(openAndQueryError(t->indexPath), "");
  std::ofstream(t->indexPath / "CURRENT") << "../../etc/passwd\n";
  EXPECT_NE(openAndQueryError(t->indexPath).find("CURRENT"), std::string::npos);
  fs::remove(t->indexPath / "CURRENT");
  EXPECT_NE(openAndQueryError(t->indexPath).find("not a wandscope index"), std::string::npos);
  EXPECT_NE(openAndQueryError(t->dir / "nonexistent").find("no such index"), std::string::npos);
}

TEST(Corruption, FormatVersionMismatchSaysRebuild) {
  const auto t = buildTestIndex(randomCorpus(23, {.docs = 50}));
  const fs::path post = t->indexPath / "seg-000000.post";
  auto bytes = readFileBytes(post);
  bytes[8] = 99;  // format version field of the header
  writeFileBytes(post, bytes);
  const auto message = openAndQueryError(t->indexPath);
  EXPECT_NE(message.find("version 99"), std::string::npos) << message;
  EXPECT_NE(message.find("rebuild"), std::string::npos) << message;
}

}  // namespace
}  // namespace wandscope::test
