// SPDX-License-Identifier: GPL-3.0-or-later
// Corpus readers: BEIR JSON lines, MS MARCO TSV, and either one gzipped (LineReader gunzips any
// file that starts with the gzip magic).
#include "engine/core/error.h"
#include "engine/corpus/corpus_reader.h"
#include "tests/fuzz/fuzz_support.h"
#include "tests/fuzz/fuzz_targets.h"

#include <cstdlib>

namespace wandscope::test {
namespace {

void readAll(const std::filesystem::path& path, engine::CorpusFormat format) {
  for (const auto policy : {engine::BadLinePolicy::Stop, engine::BadLinePolicy::Skip}) {
    try {
      engine::CorpusReader reader(path, format, policy);
      engine::Document doc;
      std::uint64_t previousLine = 0;
      while (reader.next(doc)) {
        if (reader.lineNumber() <= previousLine) std::abort();  // lines advance
        previousLine = reader.lineNumber();
      }
      if (policy == engine::BadLinePolicy::Stop && reader.skippedLines() != 0) std::abort();
    } catch (const engine::Error&) {
      // The reported failure: a bad line (Stop), a damaged gzip stream (both policies).
    }
  }
}

int run(const std::uint8_t* data, std::size_t size, const char* name, engine::CorpusFormat format) {
  const auto path = fuzzScratchDir() / name;
  writeFuzzFile(path, data, size);
  readAll(path, format);
  return 0;
}

}  // namespace

int fuzzCorpusJsonl(const std::uint8_t* data, std::size_t size) {
  return run(data, size, "corpus.jsonl", engine::CorpusFormat::Beir);
}

int fuzzCorpusTsv(const std::uint8_t* data, std::size_t size) {
  return run(data, size, "collection.tsv", engine::CorpusFormat::MsMarco);
}

int fuzzCorpusGzip(const std::uint8_t* data, std::size_t size) {
  // The first byte picks the format of the decompressed lines; the rest is the .gz file.
  if (size == 0) return 0;
  const auto format = (data[0] & 1) != 0 ? engine::CorpusFormat::MsMarco : engine::CorpusFormat::Beir;
  return run(data + 1, size - 1, "corpus.gz", format);
}

}  // namespace wandscope::test
