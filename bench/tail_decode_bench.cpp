// SPDX-License-Identifier: GPL-3.0-or-later
// Varint tails (a list's last block, fewer than 128 postings: FORMAT.md), decoded with their
// frequencies by decodeBlockDocs, in postings per second. Scalar code: registered once, not per
// target. 64 lists of one tail each, decoded in turn as a rare query's lists are. The gaps are
// those of a rare term (mean 1,500: two-byte codes) or a common one (mean 20: one byte); "tf1" has
// every frequency 1 (no frequency varint), "mixed" a quarter above 1.
#include "bench/bench_registry.h"
#include "engine/index/posting_list.h"
#include "engine/index/segment_writer.h"

#include <array>
#include <cstdint>
#include <random>
#include <vector>

namespace wandscope::bench {
namespace {

namespace eng = engine;

constexpr std::size_t kLists = 64;
constexpr std::size_t kTail = 127;

struct TailFixture {
  std::vector<std::vector<std::byte>> bytes;
  std::vector<eng::PostingList> lists;
};

TailFixture makeTails(std::uint32_t meanGap, bool mixedFreqs) {
  TailFixture f;
  std::mt19937_64 rng(meanGap * 2 + (mixedFreqs ? 1 : 0));
  std::geometric_distribution<std::uint32_t> gap(1.0 / meanGap);
  for (std::size_t l = 0; l < kLists; ++l) {
    std::vector<eng::DocId> docs;
    std::vector<std::uint32_t> freqs;
    eng::DocId d = 0;
    for (std::size_t i = 0; i < kTail; ++i) {
      d += 1 + gap(rng);
      docs.push_back(d);
      freqs.push_back(mixedFreqs && rng() % 4 == 0 ? 2 + static_cast<std::uint32_t>(rng() % 5) : 1);
    }
    f.bytes.push_back(eng::encodePostingList(docs, freqs, 0));
  }
  for (const auto& b : f.bytes) {
    eng::PostingList list;
    list.base = b.data();
    list.skips = {reinterpret_cast<const eng::format::SkipEntry*>(b.data()), 1};
    f.lists.push_back(list);
  }
  return f;
}

void tailDecode(benchmark::State& state, std::uint32_t meanGap, bool mixedFreqs) {
  const TailFixture f = makeTails(meanGap, mixedFreqs);
  alignas(64) std::array<eng::DocId, 128> docs{};
  alignas(64) std::array<std::uint32_t, 128> freqs{};
  for (auto _ : state) {
    for (const eng::PostingList& list : f.lists) {
      bool tail = false;
      benchmark::DoNotOptimize(eng::decodeBlockDocs(list, 0, docs.data(), freqs.data(), tail));
      benchmark::ClobberMemory();
    }
  }
  state.counters["postings"] = benchmark::Counter(static_cast<double>(kLists * kTail),
                                                  benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace

void registerTailDecodeBenchmarks() {
  benchmark::RegisterBenchmark("tail_decode/rare/tf1", tailDecode, 1500u, false);
  benchmark::RegisterBenchmark("tail_decode/rare/mixed", tailDecode, 1500u, true);
  benchmark::RegisterBenchmark("tail_decode/common/tf1", tailDecode, 20u, false);
  benchmark::RegisterBenchmark("tail_decode/common/mixed", tailDecode, 20u, true);
}

}  // namespace wandscope::bench
