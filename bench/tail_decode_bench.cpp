// SPDX-License-Identifier: GPL-3.0-or-later
// Tails (a list's last block, fewer than 128 postings: FORMAT.md) decoded with their frequencies
// by decodeBlockDocs, in postings per second: varint tails (below kPackedTailMinPostings, scalar)
// at 31 postings and packed tails (the runtime-dispatched BP128 kernel after a copy) at 32 and 127,
// which is what chose the threshold between them. 64 lists of one tail each, decoded in turn as a
// rare query's lists are. The gaps are those of a rare term (mean 1,500: two-byte codes, 11-13
// bits) or a common one (mean 20: one byte); "tf1" has every frequency 1, "mixed" a quarter above 1.
#include "bench/bench_registry.h"
#include "engine/index/posting_list.h"
#include "engine/index/segment_writer.h"

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace wandscope::bench {
namespace {

namespace eng = engine;

constexpr std::size_t kLists = 64;

struct TailFixture {
  std::vector<std::vector<std::byte>> bytes;
  std::vector<eng::PostingList> lists;
};

TailFixture makeTails(std::size_t count, std::uint32_t meanGap, bool mixedFreqs) {
  TailFixture f;
  std::mt19937_64 rng(meanGap * 2 + (mixedFreqs ? 1 : 0));
  std::geometric_distribution<std::uint32_t> gap(1.0 / meanGap);
  for (std::size_t l = 0; l < kLists; ++l) {
    std::vector<eng::DocId> docs;
    std::vector<std::uint32_t> freqs;
    eng::DocId d = 0;
    for (std::size_t i = 0; i < count; ++i) {
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

void tailDecode(benchmark::State& state, std::size_t count, std::uint32_t meanGap, bool mixedFreqs) {
  const TailFixture f = makeTails(count, meanGap, mixedFreqs);
  alignas(64) std::array<eng::DocId, 128> docs{};
  alignas(64) std::array<std::uint32_t, 128> freqs{};
  for (auto _ : state) {
    for (const eng::PostingList& list : f.lists) {
      bool tail = false;
      benchmark::DoNotOptimize(eng::decodeBlockDocs(list, 0, docs.data(), freqs.data(), tail));
      benchmark::ClobberMemory();
    }
  }
  state.counters["postings"] = benchmark::Counter(static_cast<double>(kLists * count),
                                                  benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace

void registerTailDecodeBenchmarks() {
  for (const std::size_t count : {std::size_t{31}, std::size_t{32}, std::size_t{127}}) {
    const std::string kind = count < eng::format::kPackedTailMinPostings ? "varint" : "packed";
    const std::string prefix = "tail_decode/" + kind + "/" + std::to_string(count);
    benchmark::RegisterBenchmark((prefix + "/rare/tf1").c_str(), tailDecode, count, 1500u, false);
    benchmark::RegisterBenchmark((prefix + "/rare/mixed").c_str(), tailDecode, count, 1500u, true);
    benchmark::RegisterBenchmark((prefix + "/common/tf1").c_str(), tailDecode, count, 20u, false);
    benchmark::RegisterBenchmark((prefix + "/common/mixed").c_str(), tailDecode, count, 20u, true);
  }
}

}  // namespace wandscope::bench
