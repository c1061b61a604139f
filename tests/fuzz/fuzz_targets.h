// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The fuzz targets: one function per untrusted input the engine reads. Each takes arbitrary bytes
// and must return 0 without crashing, hanging, leaking, tripping a sanitizer or letting anything
// but engine::Error escape (the engine's one exception type; the targets catch it). Property
// checks that fail call std::abort(), which both libFuzzer and the replay runner report.
//
// The same functions are driven two ways (tests/fuzz/CMakeLists.txt):
//   - by libFuzzer (clang, WANDSCOPE_FUZZ=ON): one executable per target, scripts/fuzz.sh;
//   - by fuzz_replay (any compiler, every build): every file of tests/fuzz/corpus/<target>/ is fed
//     to the target, so seeds and crash regression inputs run in the normal ctest suite.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

namespace wandscope::test {

using FuzzTarget = int (*)(const std::uint8_t* data, std::size_t size);

int fuzzCorpusJsonl(const std::uint8_t* data, std::size_t size);   // BEIR JSON lines
int fuzzCorpusTsv(const std::uint8_t* data, std::size_t size);     // MS MARCO id<TAB>text
int fuzzCorpusGzip(const std::uint8_t* data, std::size_t size);    // the bytes as a .gz corpus
int fuzzAnalyzer(const std::uint8_t* data, std::size_t size);      // plain and english analysis
int fuzzQueryParser(const std::uint8_t* data, std::size_t size);   // parse + search, every path
int fuzzIndexSegment(const std::uint8_t* data, std::size_t size);  // one segment file of an index
int fuzzIndexManifest(const std::uint8_t* data, std::size_t size); // the manifest (and CURRENT)
int fuzzBenchProfile(const std::uint8_t* data, std::size_t size);  // benchmark profile JSON
int fuzzRunCodec(const std::uint8_t* data, std::size_t size);      // report.json / stored runs
int fuzzEvalFiles(const std::uint8_t* data, std::size_t size);     // queries, qrels, run files

struct NamedFuzzTarget {
  std::string_view name;  // also the seed corpus directory: tests/fuzz/corpus/<name>/
  FuzzTarget run;
};
const std::vector<NamedFuzzTarget>& allFuzzTargets();

// Writes the index targets' seeds into <corpusDir>/index_segment/ (each file of the template
// index's two segments as a payload seed, and segment 0's postings and docs as raw whole-file
// seeds) and <corpusDir>/index_manifest/seed-manifest, from the current writer: run it
// (`fuzz_replay --write-index-seeds tests/fuzz/corpus`) after a change to the index format, so
// the seeds stay valid files the fuzzer mutates rather than ones refused by the version check.
void writeIndexSeeds(const std::filesystem::path& corpusDir);

}  // namespace wandscope::test
