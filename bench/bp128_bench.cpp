// SPDX-License-Identifier: GPL-3.0-or-later
// BP128 unpack, unpack + delta (doc ids) and pack, in integers per second, per width and target.
// 64 packed blocks (up to 32 KiB) are decoded in turn into one 128-value buffer, as a cursor does.
#include "bench/bench_registry.h"
#include "engine/codec/bp128.h"
#include "engine/codec/simd/bp128_simd.h"

#include <array>
#include <cstdint>
#include <random>
#include <vector>

namespace wandscope::bench {
namespace {

namespace codec = engine::codec;
namespace simd = engine::simd;

constexpr std::size_t kBlocks = 64;
const std::uint32_t kWidths[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 20, 24, 28, 32};

std::vector<std::uint32_t> packedBlocks(std::uint32_t width) {
  std::mt19937_64 rng(width);
  std::vector<std::uint32_t> words(kBlocks * codec::bp128Words(width) + 1);
  std::array<std::uint32_t, 128> values{};
  const std::uint64_t max = width == 32 ? 0xFFFFFFFFull : (1ull << width) - 1;
  for (std::size_t b = 0; b < kBlocks; ++b) {
    for (auto& v : values) v = static_cast<std::uint32_t>(rng() & max);
    codec::packBp128(values.data(), width, words.data() + b * codec::bp128Words(width));
  }
  return words;
}

void unpackDelta(benchmark::State& state, simd::Target target, std::uint32_t width) {
  useTarget(state, target);
  const std::vector<std::uint32_t> words = packedBlocks(width);
  const simd::Bp128Kernels& k = simd::bp128Kernels();
  alignas(64) std::array<std::uint32_t, 128> out{};
  // Each block's base comes from the skip table in the index, not from the previous block's
  // output (reading that back would measure a store-forwarding stall).
  std::array<std::uint32_t, kBlocks> bases{};
  for (std::size_t b = 0; b < kBlocks; ++b) bases[b] = static_cast<std::uint32_t>(b * 100'000);
  for (auto _ : state) {
    for (std::size_t b = 0; b < kBlocks; ++b) {
      k.unpackDelta[width](words.data() + b * codec::bp128Words(width), bases[b], out.data());
      benchmark::ClobberMemory();
    }
  }
  state.counters["ints"] = benchmark::Counter(static_cast<double>(kBlocks * 128),
                                              benchmark::Counter::kIsIterationInvariantRate);
}

// Frequencies are stored minus one: `plain` is the bare unpack, `fused` the plus-one kernel the
// index uses, `separate` the bare unpack followed by a +1 pass (the way before the fused kernel).
enum class PlusOne { plain, fused, separate };

void unpack(benchmark::State& state, simd::Target target, std::uint32_t width, PlusOne plusOne) {
  useTarget(state, target);
  const std::vector<std::uint32_t> words = packedBlocks(width);
  const simd::Bp128Kernels& k = simd::bp128Kernels();
  alignas(64) std::array<std::uint32_t, 128> out{};
  for (auto _ : state) {
    for (std::size_t b = 0; b < kBlocks; ++b) {
      const std::uint32_t* in = words.data() + b * codec::bp128Words(width);
      if (plusOne == PlusOne::fused) {
        k.unpackPlusOne[width](in, out.data());
      } else {
        k.unpack[width](in, out.data());
        if (plusOne == PlusOne::separate) {
          for (auto& v : out) v += 1u;
        }
      }
      benchmark::ClobberMemory();
    }
  }
  state.counters["ints"] = benchmark::Counter(static_cast<double>(kBlocks * 128),
                                              benchmark::Counter::kIsIterationInvariantRate);
}

void pack(benchmark::State& state, simd::Target target, std::uint32_t width) {
  useTarget(state, target);
  std::mt19937_64 rng(width);
  const std::uint64_t max = width == 32 ? 0xFFFFFFFFull : (1ull << width) - 1;
  std::vector<std::uint32_t> values(kBlocks * 128);
  for (auto& v : values) v = static_cast<std::uint32_t>(rng() & max);
  std::vector<std::uint32_t> words(codec::bp128Words(width) + 1);
  for (auto _ : state) {
    for (std::size_t b = 0; b < kBlocks; ++b) {
      simd::packBp128(values.data() + b * 128, width, words.data());
      benchmark::ClobberMemory();
    }
  }
  state.counters["ints"] = benchmark::Counter(static_cast<double>(kBlocks * 128),
                                              benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace

void registerBp128Benchmarks(simd::Target target) {
  for (const std::uint32_t w : kWidths) {
    std::string what("w");
    what.append(std::to_string(w));
    benchmark::RegisterBenchmark(benchName("unpack_delta", target, what).c_str(), unpackDelta, target, w);
  }
  for (const std::uint32_t w : kWidths) {
    std::string what("w");
    what.append(std::to_string(w));
    benchmark::RegisterBenchmark(benchName("unpack", target, what).c_str(), unpack, target, w,
                                 PlusOne::plain);
  }
  for (const std::uint32_t w : {1u, 2u, 4u, 8u}) {  // the widths frequency blocks have
    std::string what("w");
    what.append(std::to_string(w));
    benchmark::RegisterBenchmark(benchName("unpack_plus_one", target, what).c_str(), unpack,
                                 target, w, PlusOne::fused);
    benchmark::RegisterBenchmark(benchName("unpack_then_add_one", target, what).c_str(), unpack,
                                 target, w, PlusOne::separate);
  }
  for (const std::uint32_t w : {1u, 8u, 16u, 24u}) {
    std::string what("w");
    what.append(std::to_string(w));
    benchmark::RegisterBenchmark(benchName("pack", target, what).c_str(), pack, target, w);
  }
}

}  // namespace wandscope::bench
