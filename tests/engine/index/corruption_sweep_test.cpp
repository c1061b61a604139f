// SPDX-License-Identifier: GPL-3.0-or-later
// The corruption sweep: every file of an index (each segment file kind, the manifest and CURRENT)
// is damaged at many offsets (a bit flipped, the file cut short, a 512-byte sector zeroed, bytes
// appended, a file swapped with another segment's) and the index is then opened and queried on
// every evaluation path. Each trial must end in exactly one of two ways:
//   - Error(Index) whose message names the damaged file, or
//   - (damage the format does not check, e.g. the newline after the manifest's CRC line) results
//     identical, doc and score bits, to the undamaged index's, which match the brute-force oracle.
// A crash, a hang (ctest's timeout) or a silently different answer fails the test. The offsets
// are deterministic (every 1/64th of the file, the 48 header bytes, the 16 last bytes) and the
// flipped bit comes from a printed seed, so a failure replays exactly.
#include "engine/core/error.h"
#include "engine/index/index.h"
#include "engine/query/searcher.h"
#include "tests/support/brute_force.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_index.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <set>

namespace wandscope::test {
namespace {

namespace fs = std::filesystem;
using engine::Algorithm;
using engine::Hit;
using engine::Operator;

constexpr std::uint64_t kSeed = 0x5eed'c0de;

const std::vector<std::pair<Algorithm, Operator>> kSweptPaths = {
    {Algorithm::Exhaustive, Operator::Or},  {Algorithm::Wand, Operator::Or},
    {Algorithm::Bmw, Operator::Or},         {Algorithm::MaxScore, Operator::Or},
    {Algorithm::Bmm, Operator::Or},         {Algorithm::Auto, Operator::Or},
    {Algorithm::Exhaustive, Operator::And}, {Algorithm::BlockMaxAnd, Operator::And},
    {Algorithm::BulkAnd, Operator::And},    {Algorithm::Auto, Operator::And},
    {Algorithm::Taat, Operator::Or},
};
// Frequent terms (lists of several blocks), rare ones, and one unknown word.
const std::vector<std::string> kQueries = {"w0 w1", "w0 w2 w5", "w3 w17 w40", "w1 w60 nosuchword", "w9"};

// Everything one trial observed: per (query, path) the hits, plus the external ids and stored
// texts of the hits (so the .docs and .store files are read too).
struct Answers {
  std::vector<std::vector<Hit>> hits;
  std::vector<std::string> documents;
  friend bool operator==(const Answers&, const Answers&) = default;
};

Answers queryEverything(const engine::Index& index) {
  Answers a;
  for (const auto& q : kQueries) {
    for (const auto& [algo, op] : kSweptPaths) {
      engine::SearchRequest r;
      r.text = q;
      r.op = op;
      r.algorithm = algo;
      r.k = 15;
      a.hits.push_back(engine::search(index, r).hits);
      if (algo != Algorithm::Exhaustive) continue;  // the others return the same documents
      for (const Hit& h : a.hits.back()) {
        const auto stored = index.storedDocument(h.doc);
        a.documents.push_back(std::string(index.externalId(h.doc)) + "|" + stored.title + "|" + stored.text);
      }
    }
  }
  return a;
}

// Exactly one of: `error` set (an engine Error was thrown), or `answers` set.
struct Outcome {
  std::optional<engine::Error> error;
  Answers answers;
};

Outcome openAndQuery(const fs::path& dir) {
  Outcome o;
  try {
    const auto index = engine::Index::open(dir);
    o.answers = queryEverything(*index);
  } catch (const engine::Error& e) {
    o.error = e;
  }
  return o;
}

class CorruptionSweep : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    engine::IndexBuildOptions options;
    options.segmentDocs = 250;  // three segments: the damaged one sits between two good ones
    s_docs = randomCorpus(kSeed, {.docs = 700, .vocabulary = 90, .maxLength = 50, .duplicateFraction = 0.1});
    s_index = buildTestIndex(s_docs, options).release();
    // The oracle: the undamaged index answers exactly what brute force answers.
    const BruteForce oracle(s_docs, engine::AnalyzerKind::Plain, engine::Bm25Params{});
    s_expected = new Answers(queryEverything(*s_index->index));
    std::size_t i = 0;
    for (const auto& q : kQueries) {
      for (const auto& [algo, op] : kSweptPaths) {
        EXPECT_EQ(s_expected->hits[i], oracle.search(q, op, 15)) << q << " " << engine::algorithmName(algo);
        ++i;
      }
    }
    s_index->index.reset();  // nothing may keep the files mapped while they are rewritten
  }
  static void TearDownTestSuite() {
    delete s_expected;
    delete s_index;
  }

  // The files of segment 1 by kind, then the manifest and CURRENT.
  static std::vector<fs::path> allFiles() {
    const auto index = engine::Index::open(s_index->indexPath);
    std::vector<fs::path> files;
    for (const auto& [kind, file] : index->manifest().segments.at(1).files) {
      files.push_back(s_index->indexPath / file.name);
    }
    files.push_back(s_index->indexPath / engine::manifestFileName(index->manifest().generation));
    files.push_back(s_index->indexPath / "CURRENT");
    return files;
  }

  // Writes `damaged` over `file`, opens and queries, restores the file, and checks the outcome.
  // Returns whether the damage was reported (as opposed to harmlessly ignored).
  bool trial(const fs::path& file, const std::vector<char>& damaged, const std::string& what) {
    writeFileBytes(file, damaged);
    const Outcome o = openAndQuery(s_index->indexPath);
    writeFileBytes(file, m_original);
    ++m_trials;
    if (o.error) {
      EXPECT_EQ(o.error->kind(), engine::ErrorKind::Index) << what << ": " << o.error->what();
      EXPECT_NE(std::string(o.error->what()).find(file.filename().string()), std::string::npos)
          << what << ": the message does not name the damaged file: " << o.error->what();
      return true;
    }
    EXPECT_TRUE(o.answers == *s_expected) << what << ": went unnoticed and changed the answers";
    m_unnoticed.push_back(what);
    return false;
  }

  // Offsets the sweep visits in a file of `size` bytes: every 1/64th, the header, the footer.
  static std::set<std::size_t> offsets(std::size_t size) {
    std::set<std::size_t> out;
    for (std::size_t i = 0; i < 64; ++i) out.insert(size * i / 64);
    for (std::size_t i = 0; i < 48 && i < size; ++i) out.insert(i);
    for (std::size_t i = 1; i <= 16 && i <= size; ++i) out.insert(size - i);
    return out;
  }

  static inline std::vector<engine::Document> s_docs;
  static inline TestIndex* s_index = nullptr;
  static inline Answers* s_expected = nullptr;
  std::vector<char> m_original;
  std::size_t m_trials = 0;
  std::vector<std::string> m_unnoticed;
};

TEST_F(CorruptionSweep, FlippedBitsAreReportedOrHarmless) {
  std::printf("corruption sweep seed %llu\n", static_cast<unsigned long long>(kSeed));
  std::mt19937_64 rng(kSeed);
  for (const fs::path& file : allFiles()) {
    m_original = readFileBytes(file);
    ASSERT_FALSE(m_original.empty()) << file;
    std::set<std::size_t> at = offsets(m_original.size());
    if (file.filename() == "CURRENT") {  // tiny: every byte
      for (std::size_t i = 0; i < m_original.size(); ++i) at.insert(i);
    }
    std::size_t reported = 0;
    for (const std::size_t offset : at) {
      const int bit = static_cast<int>(rng() % 8);
      auto bytes = m_original;
      bytes[offset] = static_cast<char>(bytes[offset] ^ (1 << bit));
      reported += trial(file, bytes, file.filename().string() + " bit " + std::to_string(bit) + " of byte " +
                                         std::to_string(offset));
    }
    std::printf("  %-28s %6zu bytes: %3zu flips, %3zu reported\n", file.filename().c_str(), m_original.size(),
                at.size(), reported);
    if (file.filename().string().rfind("seg-", 0) == 0) {
      EXPECT_EQ(reported, at.size()) << file << ": the CRC covers every byte of a segment file";
    }
  }
  std::printf("flip trials: %zu, unnoticed (answers identical): %zu\n", m_trials, m_unnoticed.size());
  for (const auto& u : m_unnoticed) std::printf("  unnoticed: %s\n", u.c_str());
  EXPECT_GE(m_trials, 7u * 64u);
  EXPECT_EQ(openAndQuery(s_index->indexPath).answers, *s_expected) << "the sweep must restore every file";
}

TEST_F(CorruptionSweep, TruncationsAreReportedOrHarmless) {
  for (const fs::path& file : allFiles()) {
    m_original = readFileBytes(file);
    std::size_t reported = 0;
    const auto at = offsets(m_original.size());
    for (const std::size_t length : at) {
      auto bytes = m_original;
      bytes.resize(length);
      reported += trial(file, bytes, file.filename().string() + " cut to " + std::to_string(length) + " bytes");
    }
    std::printf("  %-28s %6zu bytes: %3zu cuts, %3zu reported\n", file.filename().c_str(), m_original.size(),
                at.size(), reported);
    if (file.filename().string().rfind("seg-", 0) == 0) {
      EXPECT_EQ(reported, at.size()) << file;
    }
  }
  std::printf("truncation trials: %zu, unnoticed (answers identical): %zu\n", m_trials, m_unnoticed.size());
  for (const auto& u : m_unnoticed) std::printf("  unnoticed: %s\n", u.c_str());
  EXPECT_GE(m_trials, 7u * 64u);
}

// Lost or torn writes: a 512-byte sector of zeros at every 1/16th, and garbage appended.
TEST_F(CorruptionSweep, ZeroedSectorsAndAppendedBytesAreReportedOrHarmless) {
  for (const fs::path& file : allFiles()) {
    m_original = readFileBytes(file);
    for (std::size_t i = 0; i < 16; ++i) {
      const std::size_t begin = m_original.size() * i / 16;
      auto bytes = m_original;
      const std::size_t end = std::min(bytes.size(), begin + 512);
      if (std::all_of(bytes.begin() + static_cast<std::ptrdiff_t>(begin),
                      bytes.begin() + static_cast<std::ptrdiff_t>(end), [](char c) { return c == 0; })) {
        continue;  // already zero: not damage
      }
      std::fill(bytes.begin() + static_cast<std::ptrdiff_t>(begin), bytes.begin() + static_cast<std::ptrdiff_t>(end), 0);
      const bool reported = trial(file, bytes, file.filename().string() + " zeroed at " + std::to_string(begin));
      if (file.filename().string().rfind("seg-", 0) == 0) {
        EXPECT_TRUE(reported) << file << " at " << begin;
      }
    }
    for (const std::size_t extra : {1u, 16u, 4096u}) {
      auto bytes = m_original;
      bytes.insert(bytes.end(), extra, 'x');
      const bool reported = trial(file, bytes, file.filename().string() + " +" + std::to_string(extra) + " bytes");
      if (file.filename().string().rfind("seg-", 0) == 0) {
        EXPECT_TRUE(reported) << file << " +" << extra;
      }
    }
  }
  std::printf("zeroed/appended trials: %zu, unnoticed: %zu\n", m_trials, m_unnoticed.size());
  for (const auto& u : m_unnoticed) std::printf("  unnoticed: %s\n", u.c_str());
}

// A well-formed file in the wrong place (restored from another backup, copied by hand): segment
// 1's file replaced by segment 0's or 2's of the same kind.
TEST_F(CorruptionSweep, AFileFromAnotherSegmentIsReported) {
  const auto index = engine::Index::open(s_index->indexPath);
  const auto segments = index->manifest().segments;
  for (const auto& [kind, file] : segments.at(1).files) {
    const fs::path target = s_index->indexPath / file.name;
    m_original = readFileBytes(target);
    for (const std::size_t other : {0u, 2u}) {
      const auto replacement = readFileBytes(s_index->indexPath / segments.at(other).files.at(kind).name);
      EXPECT_TRUE(trial(target, replacement, file.name + " replaced by segment " + std::to_string(other) + "'s"));
    }
  }
  EXPECT_EQ(m_trials, 2 * segments.at(1).files.size());
}

// CURRENT damaged into the name of a manifest that does not exist (a flipped digit, a cut name):
// the message names CURRENT, the likelier culprit. Control characters (a flipped newline, a NUL
// the file system would cut the name at) make it name no manifest at all.
TEST(CorruptionOfCurrent, ADamagedNameIsReportedAsCurrent) {
  const auto t = buildTestIndex(randomCorpus(31, {.docs = 20}));
  const auto openError = [&](const std::string& content) -> std::string {
    std::ofstream(t->indexPath / "CURRENT", std::ios::trunc | std::ios::binary) << content;
    try {
      (void)engine::Index::open(t->indexPath);
      return "";
    } catch (const engine::Error& e) {
      EXPECT_EQ(e.kind(), engine::ErrorKind::Index);
      return e.what();
    }
  };
  for (const std::string& content : {std::string("MANIFEST-000003\n"), std::string("MANIFEST-00000")}) {
    const std::string message = openError(content);
    EXPECT_NE(message.find("CURRENT: names the manifest"), std::string::npos) << message;
    EXPECT_NE(message.find("which is missing"), std::string::npos) << message;
  }
  for (const std::string& content : {std::string("MANIFEST-000001\x0b\n"), std::string("MANIFEST-000001\0\n", 17),
                                     std::string("MANIFEST-000001 \n")}) {
    const std::string message = openError(content);
    EXPECT_NE(message.find("CURRENT: does not name a manifest"), std::string::npos) << message;
  }
  EXPECT_EQ(openError("MANIFEST-000001\n"), "");
  EXPECT_EQ(openError("MANIFEST-000001"), "") << "the newline is optional";
}

// The manifest's checksum line is exactly "# crc32 <8 hex digits>\n": bytes appended after it (or
// a cut newline) are damage, as appended bytes are for segment files.
TEST(CorruptionOfManifest, BytesAfterTheChecksumLineAreReported) {
  const auto t = buildTestIndex(randomCorpus(32, {.docs = 20}));
  const fs::path manifest = t->indexPath / "MANIFEST-000001";
  const auto original = readFileBytes(manifest);
  for (const std::string& extra : {std::string("x"), std::string("\n"), std::string(4096, ' ')}) {
    auto bytes = original;
    bytes.insert(bytes.end(), extra.begin(), extra.end());
    writeFileBytes(manifest, bytes);
    try {
      (void)engine::Index::open(t->indexPath);
      ADD_FAILURE() << extra.size() << " appended bytes went unnoticed";
    } catch (const engine::Error& e) {
      EXPECT_NE(std::string(e.what()).find("MANIFEST-000001: malformed checksum line"), std::string::npos) << e.what();
    }
  }
  auto cut = original;
  cut.pop_back();
  writeFileBytes(manifest, cut);
  EXPECT_THROW((void)engine::Index::open(t->indexPath), engine::Error);
  writeFileBytes(manifest, original);
  EXPECT_NO_THROW((void)engine::Index::open(t->indexPath));
}

}  // namespace
}  // namespace wandscope::test
