// SPDX-License-Identifier: GPL-3.0-or-later
// Intersection kernels on realistic inputs, per target: random posting lists over 1M documents,
// cut into 128-doc blocks, and intersected window by window exactly as the bulk AND slices them
// (a window ends at the nearest block end of any clause; each clause contributes the part of its
// block inside the window). Items are the postings in the slices.
//   mid:     2 lists of density 3% (about 30k postings each)
//   skewed:  0.5% against 10% (short slices against full blocks: the V1 path)
//   mid3:    3 lists of density 3%, 4% and 5%
#include "bench/bench_registry.h"
#include "engine/codec/simd/intersect.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <vector>

namespace wandscope::bench {
namespace {

namespace simd = engine::simd;
using engine::DocId;
using engine::MergeSlice;

constexpr std::uint32_t kUniverse = 1'000'000;

struct List {
  std::vector<std::array<DocId, 128>> blocks;
  std::vector<std::uint32_t> sizes;
};

List makeList(std::mt19937_64& rng, double density) {
  List list;
  std::bernoulli_distribution in(density);
  std::array<DocId, 128> block{};
  std::uint32_t n = 0;
  for (DocId d = 0; d < kUniverse; ++d) {
    if (!in(rng)) continue;
    block[n++] = d;
    if (n == 128) {
      list.blocks.push_back(block);
      list.sizes.push_back(n);
      n = 0;
    }
  }
  if (n > 0) {
    list.blocks.push_back(block);
    list.sizes.push_back(n);
  }
  return list;
}

struct Windows {
  std::vector<List> lists;
  std::vector<std::vector<MergeSlice>> windows;
  std::size_t postings = 0;
};

Windows makeWindows(const std::vector<double>& densities) {
  Windows w;
  std::mt19937_64 rng(2026);
  for (const double d : densities) w.lists.push_back(makeList(rng, d));
  const std::size_t n = w.lists.size();
  std::vector<std::size_t> block(n, 0);
  DocId target = 0;
  for (;;) {
    DocId windowEnd = ~DocId{0};
    for (std::size_t c = 0; c < n; ++c) {
      const List& l = w.lists[c];
      while (block[c] < l.blocks.size() && l.blocks[block[c]][l.sizes[block[c]] - 1] < target) ++block[c];
      if (block[c] == l.blocks.size()) return w;
      windowEnd = std::min(windowEnd, l.blocks[block[c]][l.sizes[block[c]] - 1]);
    }
    std::vector<MergeSlice> slices;
    for (std::size_t c = 0; c < n; ++c) {
      const List& l = w.lists[c];
      const DocId* docs = l.blocks[block[c]].data();
      const DocId* end = docs + l.sizes[block[c]];
      const auto begin = static_cast<std::uint32_t>(std::lower_bound(docs, end, target) - docs);
      const auto stop = static_cast<std::uint32_t>(std::upper_bound(docs + begin, end, windowEnd) - docs);
      slices.push_back(MergeSlice{docs, begin, stop});
      w.postings += stop - begin;
    }
    w.windows.push_back(std::move(slices));
    target = windowEnd + 1;
  }
}

const Windows& fixture(int which) {
  static const Windows mid = makeWindows({0.03, 0.03});
  static const Windows skewed = makeWindows({0.005, 0.10});
  static const Windows mid3 = makeWindows({0.03, 0.04, 0.05});
  return which == 0 ? mid : which == 1 ? skewed : mid3;
}

void intersect(benchmark::State& state, simd::Target target, int which) {
  useTarget(state, target);
  const Windows& w = fixture(which);
  const simd::IntersectKernels& k = simd::intersectKernels();
  alignas(64) std::array<DocId, 128> out{};
  alignas(64) std::array<std::uint8_t, 3 * 128> offsets{};
  std::size_t matches = 0;
  for (auto _ : state) {
    for (const auto& s : w.windows) {
      matches += s.size() == 2 ? k.intersect2(s[0], s[1], out.data(), offsets.data())
                               : k.intersect3(s[0], s[1], s[2], out.data(), offsets.data());
    }
    benchmark::DoNotOptimize(matches);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(w.postings));
  state.counters["windows"] = static_cast<double>(w.windows.size());
  state.counters["matches"] = static_cast<double>(matches) / static_cast<double>(state.iterations());
}

// The long-run kernel over whole lists (the bulk AND's long windows), in runs of `run` lead
// postings: 2 lists of density 3% (mid) or 0.5% against 4% (skewed, V1 past 8x), and 64 different
// pairs of 250k-document lists of density 3% (many: 3.8 MB, more than the branch predictor can
// learn between iterations; the one pair of "mid" repeats the same branches every iteration, which
// flatters any kernel with a data-dependent branch).
struct Runs {
  std::vector<DocId> a;
  std::vector<DocId> b;
};

std::vector<DocId> flatList(std::mt19937_64& rng, double density) {
  std::vector<DocId> out;
  std::bernoulli_distribution in(density);
  for (DocId d = 0; d < kUniverse; ++d) {
    if (in(rng)) out.push_back(d);
  }
  return out;
}

const Runs& runsFixture(int which) {
  static const Runs mid = [] {
    std::mt19937_64 rng(2026);
    return Runs{flatList(rng, 0.03), flatList(rng, 0.03)};
  }();
  static const Runs skewed = [] {
    std::mt19937_64 rng(2026);
    return Runs{flatList(rng, 0.005), flatList(rng, 0.04)};
  }();
  static const Runs many = [] {
    std::mt19937_64 rng(7);
    Runs r;
    for (int pair = 0; pair < 64; ++pair) {
      std::bernoulli_distribution in(0.03);
      for (DocId d = 0; d < 250'000; ++d) {
        if (in(rng)) r.a.push_back(static_cast<DocId>(pair) * 250'000 + d);
      }
      for (DocId d = 0; d < 250'000; ++d) {
        if (in(rng)) r.b.push_back(static_cast<DocId>(pair) * 250'000 + d);
      }
    }
    return r;
  }();
  return which == 0 ? mid : which == 1 ? skewed : many;
}

void intersectRuns(benchmark::State& state, simd::Target target, int which, std::uint32_t run) {
  useTarget(state, target);
  const Runs& r = runsFixture(which);
  const simd::IntersectKernels& k = simd::intersectKernels();
  std::vector<std::uint32_t> posA(r.a.size() + engine::kIntersectRunsSlack);
  std::vector<std::uint32_t> posB(r.a.size() + engine::kIntersectRunsSlack);
  std::size_t matches = 0;
  for (auto _ : state) {
    // Runs of `run` postings of a against the part of b up to the run's last doc id.
    std::size_t j = 0;
    for (std::size_t i = 0; i < r.a.size(); i += run) {
      const std::size_t ie = std::min(r.a.size(), i + run);
      const std::size_t je = static_cast<std::size_t>(std::upper_bound(r.b.begin() + static_cast<std::ptrdiff_t>(j), r.b.end(), r.a[ie - 1]) - r.b.begin());
      matches += k.intersectRuns(r.a.data() + i, static_cast<std::uint32_t>(ie - i), r.b.data() + j,
                                 static_cast<std::uint32_t>(je - j), posA.data(), posB.data());
      j = je;
    }
    benchmark::DoNotOptimize(matches);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(r.a.size() + r.b.size()));
  state.counters["matches"] = static_cast<double>(matches) / static_cast<double>(state.iterations());
}

}  // namespace

void registerIntersectBenchmarks(simd::Target target) {
  benchmark::RegisterBenchmark(benchName("intersect_runs", target, "mid/8192").c_str(), intersectRuns, target, 0, 8192u);
  benchmark::RegisterBenchmark(benchName("intersect_runs", target, "mid/1024").c_str(), intersectRuns, target, 0, 1024u);
  benchmark::RegisterBenchmark(benchName("intersect_runs", target, "skewed/8192").c_str(), intersectRuns, target, 1, 8192u);
  benchmark::RegisterBenchmark(benchName("intersect_runs", target, "many/8192").c_str(), intersectRuns, target, 2, 8192u);
  if (target == simd::Target::Avx3Vp2) return;  // avx3's 2- and 3-way kernels (simd_target.h)
  benchmark::RegisterBenchmark(benchName("intersect2", target, "mid").c_str(), intersect, target, 0);
  benchmark::RegisterBenchmark(benchName("intersect2", target, "skewed").c_str(), intersect, target, 1);
  benchmark::RegisterBenchmark(benchName("intersect3", target, "mid3").c_str(), intersect, target, 2);
}

}  // namespace wandscope::bench
