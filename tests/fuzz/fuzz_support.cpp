// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/fuzz/fuzz_support.h"

#include "engine/index/index_builder.h"
#include "engine/query/searcher.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <unistd.h>

namespace wandscope::test {
namespace {

namespace fs = std::filesystem;

struct Scratch {
  fs::path path;
  Scratch() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/wandscope-fuzz-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
      std::perror("mkdtemp");
      std::abort();
    }
    path = pattern;
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

}  // namespace

bool fuzzVerbose() {
  static const bool verbose = [] {
    const char* v = std::getenv("WANDSCOPE_FUZZ_VERBOSE");
    return v != nullptr && *v != '\0' && *v != '0';
  }();
  return verbose;
}

void fuzzNote(const std::string& what) {
  if (fuzzVerbose()) std::fprintf(stderr, "  -> %s\n", what.c_str());
}

const fs::path& fuzzScratchDir() {
  static Scratch scratch;
  return scratch.path;
}

void writeFuzzFile(const fs::path& path, const std::uint8_t* data, std::size_t size) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr || (size > 0 && std::fwrite(data, 1, size, f) != size) || std::fclose(f) != 0) {
    std::perror(path.c_str());
    std::abort();
  }
}

void writeFuzzFile(const fs::path& path, std::string_view text) {
  writeFuzzFile(path, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

std::vector<std::uint8_t> readFuzzFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const FuzzTemplateIndex& fuzzTemplateIndex() {
  static const FuzzTemplateIndex t = [] {
    FuzzTemplateIndex out;
    const fs::path corpus = fuzzScratchDir() / "template.jsonl";
    {
      std::ofstream c(corpus);
      std::uint64_t x = 12345;
      for (int d = 0; d < 300; ++d) {
        std::string text = d % 5 != 0 ? "w0" : "";
        const int length = 1 + d % 9;
        for (int i = 0; i < length; ++i) {
          x = x * 6364136223846793005ull + 1442695040888963407ull;
          text += " w" + std::to_string((x >> 33) % (1 + (x >> 20) % 50));
        }
        c << nlohmann::json({{"_id", "d" + std::to_string(d)}, {"title", "t" + std::to_string(d)}, {"text", text}}).dump()
          << '\n';
      }
    }
    engine::IndexBuildOptions options;
    options.corpus = corpus;
    options.threads = 1;
    options.segmentDocs = 200;
    out.dir = fuzzScratchDir() / "template";
    out.manifest = engine::buildIndex(options, out.dir);
    out.manifestName = engine::manifestFileName(out.manifest.generation);
    out.manifestBytes = readFuzzFile(out.dir / out.manifestName);
    out.currentBytes = readFuzzFile(out.dir / "CURRENT");
    return out;
  }();
  return t;
}

void queryEveryPath(const engine::Index& index, std::string_view text, bool checkParity) {
  using engine::Algorithm;
  using engine::Operator;
  static const std::pair<Algorithm, Operator> kPaths[] = {
      {Algorithm::Exhaustive, Operator::Or},  {Algorithm::Wand, Operator::Or},
      {Algorithm::Bmw, Operator::Or},         {Algorithm::MaxScore, Operator::Or},
      {Algorithm::Bmm, Operator::Or},         {Algorithm::Exhaustive, Operator::And},
      {Algorithm::BlockMaxAnd, Operator::And}, {Algorithm::BulkAnd, Operator::And},
      {Algorithm::Taat, Operator::Or},
  };
  std::vector<engine::Hit> reference[2];
  for (const auto& [algo, op] : kPaths) {
    engine::SearchRequest r;
    r.text = std::string(text);
    r.op = op;
    r.algorithm = algo;
    r.k = 10;
    const auto result = engine::search(index, r);
    // Every path of an operator returns the exhaustive path's top-k, whatever the index holds.
    auto& ref = reference[op == Operator::And ? 1 : 0];
    if (algo == Algorithm::Exhaustive) {
      ref = result.hits;
    } else if (checkParity && result.hits != ref) {
      std::fprintf(stderr, "fuzz: %s disagrees with exhaustive for '%.*s'\n", engine::algorithmName(algo),
                   static_cast<int>(text.size()), text.data());
      std::abort();
    }
    for (const auto& hit : result.hits) {
      if (hit.doc >= index.docCount()) std::abort();
      (void)index.externalId(hit.doc);
      (void)index.storedDocument(hit.doc);
    }
  }
}

}  // namespace wandscope::test
