// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/fuzz/fuzz_targets.h"

namespace wandscope::test {

const std::vector<NamedFuzzTarget>& allFuzzTargets() {
  static const std::vector<NamedFuzzTarget> targets = {
      {"corpus_jsonl", fuzzCorpusJsonl},   {"corpus_tsv", fuzzCorpusTsv},
      {"corpus_gzip", fuzzCorpusGzip},     {"analyzer", fuzzAnalyzer},
      {"query_parser", fuzzQueryParser},   {"index_segment", fuzzIndexSegment},
      {"index_manifest", fuzzIndexManifest}, {"bench_profile", fuzzBenchProfile},
      {"run_codec", fuzzRunCodec},         {"eval_files", fuzzEvalFiles},
  };
  return targets;
}

}  // namespace wandscope::test
