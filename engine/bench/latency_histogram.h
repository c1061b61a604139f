// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace wandscope::engine {

// A log-linear histogram of non-negative integer values (nanoseconds), HdrHistogram's layout with
// 3 significant digits: values below 2048 have a bucket each; above, every power-of-two range
// [2^k * 1024, 2^(k+1) * 1024) is cut into 1024 equal buckets, so a bucket is never wider than
// 1/1024 (< 0.1 %) of the values in it. Values above kMaxValue (100 s) are not dropped silently:
// they are counted in overflow() and still move max().
//
// Plain (not thread-safe). HistogramRecorder is the concurrent single-writer form that feeds it.
class LatencyHistogram {
 public:
  static constexpr unsigned kSubBucketBits = 10;
  static constexpr std::uint64_t kSubBuckets = std::uint64_t{1} << kSubBucketBits;  // 1024
  static constexpr std::uint64_t kMaxValue = 100'000'000'000;  // 100 s in ns
  // Index of kMaxValue's bucket + 1 (kMaxValue < 2^37: shift 26, (26 + 1) * 1024 + 1023).
  static constexpr std::size_t kBuckets = 28 * kSubBuckets;

  LatencyHistogram() : m_counts(kBuckets, 0) {}

  // The bucket holding `value` (value <= kMaxValue).
  static std::size_t bucketIndex(std::uint64_t value) noexcept;
  // The smallest and largest values that share bucket `index` ("equivalent" values).
  static std::uint64_t lowestEquivalent(std::size_t index) noexcept;
  static std::uint64_t highestEquivalent(std::size_t index) noexcept;

  void record(std::uint64_t value) noexcept;
  // Adds `count` samples to bucket `index` (merging from a recorder's raw counts).
  void addToBucket(std::size_t index, std::uint64_t count) noexcept;
  // Adds `count` samples above kMaxValue, the largest being `maxValue`.
  void addOverflow(std::uint64_t count, std::uint64_t maxValue) noexcept;
  void add(const LatencyHistogram& other) noexcept;
  void clear() noexcept;

  // Samples recorded, including overflowed ones.
  std::uint64_t count() const noexcept { return m_total; }
  std::uint64_t overflow() const noexcept { return m_overflow; }
  std::uint64_t bucketCount(std::size_t index) const noexcept { return m_counts[index]; }
  // Exact min and max of what was recorded (0 when empty).
  std::uint64_t min() const noexcept { return m_total == 0 ? 0 : m_min; }
  std::uint64_t max() const noexcept { return m_max; }
  void setMinMax(std::uint64_t min, std::uint64_t max) noexcept;

  // Nearest rank over the buckets: the highest equivalent value of the bucket holding rank
  // ceil(q n), clamped to the recorded max; q = 0 gives the recorded min, q = 1 the recorded max.
  // So the answer is at most 0.1 % above the sample at that rank and never below it. No thin-sample
  // rule here (live views decide); absent only when empty. An overflowed rank reports max().
  std::optional<std::uint64_t> quantile(double q) const noexcept;

 private:
  std::vector<std::uint64_t> m_counts;
  std::uint64_t m_total = 0;
  std::uint64_t m_overflow = 0;
  std::uint64_t m_min = ~std::uint64_t{0};
  std::uint64_t m_max = 0;
};

}  // namespace wandscope::engine
