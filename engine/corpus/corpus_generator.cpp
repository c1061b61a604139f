// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/corpus/corpus_generator.h"

#include "engine/core/error.h"
#include "engine/core/file_writer.h"
#include "engine/core/fs_util.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <numbers>
#include <thread>
#include <vector>

// The model (docs/GENERATOR.md has the long form):
//  * document n (id "d<n>", n from 0) is generated from its own random stream, seeded from
//    (seed, n) with the splitmix64 mixer. Output therefore depends on nothing but (seed, n, the
//    distribution parameters): not on the thread count, not on how documents are batched, not even
//    on `docs` (a 1,000-document corpus is the first 1,000 lines of the 1,000,000-document one).
//  * text length ~ round(LogNormal(mu, 0.5)) with mean meanLength, clamped to [1, 8 * meanLength];
//  * text words ~ Zipf(s) over ranks [0, vocabulary): P(r) proportional to 1 / (r + 1)^s, sampled
//    with a Walker/Vose alias table over the first 2^20 ranks plus one bucket for the rest, which
//    is sampled exactly by rejection-inversion (Hoermann & Derflinger), so no table ever exceeds
//    2^20 entries even for a 2^31-word vocabulary;
//  * title: 2..8 words (uniform), each the rarer of two Zipf draws.

namespace wandscope::engine {
namespace {

// ---------------------------------------------------------------------------------------------
// Random numbers. Our own generators and transforms (never std:: distributions, whose algorithms
// differ between standard libraries) so the corpus is the same with libstdc++ and libc++.

constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ULL;

constexpr std::uint64_t mix64(std::uint64_t z) noexcept {  // splitmix64's finaliser
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

constexpr std::uint64_t rotl(std::uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }

// xoshiro256** seeded through splitmix64: fast, and 2^256 period makes overlapping streams of
// different documents a non-issue.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) noexcept {
    std::uint64_t x = seed;
    for (std::uint64_t& s : m_s) {
      x += kGolden;
      s = mix64(x);
    }
  }

  std::uint64_t next() noexcept {
    const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
    const std::uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
  }

  // Uniform in [0, 1) with 53 random bits.
  double uniform() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // Uniform in [0, n) for small n (multiply-shift on 32 bits; bias <= n / 2^32).
  std::uint32_t below(std::uint32_t n) noexcept {
    return static_cast<std::uint32_t>(((next() >> 32) * n) >> 32);
  }

 private:
  std::uint64_t m_s[4];
};

std::uint64_t documentSeed(std::uint64_t seed, std::uint64_t doc) noexcept {
  return mix64(mix64(seed + kGolden) ^ (doc * 0xD1B54A32D192ED03ULL + 0x632BE59BD9B4E019ULL));
}

// ---------------------------------------------------------------------------------------------
// Words: rank -> consonant-vowel syllables. Ranks are laid out in blocks by syllable count
// (100 one-syllable words, then 100^2 two-syllable words, ...), and within a block the rank's
// offset is written in base 100, one syllable per digit. Every syllable is exactly one consonant
// and one vowel, so a word parses back uniquely: distinct ranks give distinct words, frequent ranks
// give short words, and 5 syllables (10 letters) cover every uint32 rank.

constexpr char kConsonants[] = "bdfghjklmnprstvzcwxy";  // 20
constexpr char kVowels[] = "aeiou";                       // 5
constexpr std::uint32_t kSyllables = 100;
constexpr std::size_t kMaxWordLetters = 10;

// Writes the word for `rank` at `p` (no terminator) and returns the end.
char* writeWord(char* p, std::uint32_t rank) noexcept {
  std::uint64_t offset = rank;
  std::uint64_t blockSize = kSyllables;
  int syllables = 1;
  while (offset >= blockSize) {
    offset -= blockSize;
    blockSize *= kSyllables;
    ++syllables;
  }
  char* end = p + 2 * syllables;
  char* q = end;
  for (int i = 0; i < syllables; ++i) {
    // A fixed permutation of the digit (37 is coprime with 100) so the most frequent words do not
    // all start with the same consonant.
    const auto digit = static_cast<std::uint32_t>((offset % kSyllables) * 37 + 11) % kSyllables;
    offset /= kSyllables;
    *--q = kVowels[digit % 5];
    *--q = kConsonants[digit / 5];
  }
  return end;
}

// ---------------------------------------------------------------------------------------------
// Zipf sampling.

// Ranks [0, kHeadRanks) live in the alias table; anything beyond is one "tail" bucket.
constexpr std::uint32_t kHeadRanks = 1U << 20;

// Rejection-inversion sampling (Hoermann & Derflinger 1996, as in Apache Commons RNG) of
// k in [first, last] (1-based ranks, first >= 2) with P(k) proportional to k^-s. Expected O(1)
// iterations, no table.
class ZipfTailSampler {
 public:
  ZipfTailSampler() = default;
  ZipfTailSampler(std::uint64_t first, std::uint64_t last, double exponent)
      : m_first(first), m_last(last), m_exponent(exponent) {
    m_hLow = hIntegral(static_cast<double>(first) - 0.5);
    m_hHigh = hIntegral(static_cast<double>(last) + 0.5);
    m_quickAccept = 2.0 - hIntegralInverse(hIntegral(2.5) - h(2.0));
  }

  std::uint64_t sample(Rng& rng) const noexcept {
    for (;;) {
      const double u = m_hHigh + rng.uniform() * (m_hLow - m_hHigh);
      const double x = hIntegralInverse(u);
      double kd = std::floor(x + 0.5);
      kd = std::clamp(kd, static_cast<double>(m_first), static_cast<double>(m_last));
      if (kd - x <= m_quickAccept || u >= hIntegral(kd + 0.5) - h(kd)) {
        return static_cast<std::uint64_t>(kd);
      }
    }
  }

 private:
  double h(double x) const noexcept { return std::exp(-m_exponent * std::log(x)); }
  // Integral of h: (x^(1-s) - 1) / (1 - s), log(x) for s = 1, computed stably near s = 1.
  double hIntegral(double x) const noexcept {
    const double logX = std::log(x);
    return helper2((1.0 - m_exponent) * logX) * logX;
  }
  double hIntegralInverse(double x) const noexcept {
    double t = x * (1.0 - m_exponent);
    if (t < -1.0) t = -1.0;  // rounding; the true value is >= -1
    return std::exp(helper1(t) * x);
  }
  static double helper1(double x) noexcept {  // log1p(x) / x
    return std::abs(x) > 1e-8 ? std::log1p(x) / x : 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x));
  }
  static double helper2(double x) noexcept {  // expm1(x) / x
    return std::abs(x) > 1e-8 ? std::expm1(x) / x : 1.0 + x * 0.5 * (1.0 + x / 3.0 * (1.0 + 0.25 * x));
  }

  std::uint64_t m_first = 2;
  std::uint64_t m_last = 2;
  double m_exponent = 1.0;
  double m_hLow = 0.0;
  double m_hHigh = 0.0;
  double m_quickAccept = 0.0;
};

// Sum of k^-s for k in [a, b] (1-based, a large) by Euler-Maclaurin; for a >= 2^20 the first
// omitted term is below 1e-20 relative. The integral is written as
// a^(1-s) * log(b/a) * expm1(t) / t with t = (1-s) log(b/a), which stays accurate near s = 1.
double powerSumTail(double a, double b, double s) {
  const double logRatio = std::log(b / a);
  const double t = (1.0 - s) * logRatio;
  const double expm1OverT = std::abs(t) > 1e-8 ? std::expm1(t) / t : 1.0 + 0.5 * t;
  const double integral = std::pow(a, 1.0 - s) * logRatio * expm1OverT;
  return integral + 0.5 * (std::pow(a, -s) + std::pow(b, -s)) +
         s / 12.0 * (std::pow(a, -s - 1.0) - std::pow(b, -s - 1.0));
}

class ZipfSampler {
 public:
  ZipfSampler(std::uint32_t vocabulary, double exponent) {
    const std::uint32_t head = std::min(vocabulary, kHeadRanks);
    const bool hasTail = vocabulary > head;
    const std::size_t n = head + (hasTail ? 1U : 0U);
    std::vector<double> weights(n);
    double total = 0.0;
    for (std::uint32_t r = 0; r < head; ++r) {
      weights[r] = std::pow(static_cast<double>(r) + 1.0, -exponent);
      total += weights[r];
    }
    if (hasTail) {
      weights[head] = powerSumTail(static_cast<double>(head) + 1.0, static_cast<double>(vocabulary), exponent);
      total += weights[head];
      m_tail = ZipfTailSampler(std::uint64_t{head} + 1, vocabulary, exponent);
      m_tailBucket = head;
    }
    buildAlias(weights, total);
  }

  std::uint32_t sample(Rng& rng) const noexcept {
    const std::uint64_t x = rng.next();
    const auto column = static_cast<std::uint32_t>(((x >> 32) * m_size) >> 32);
    const Entry& e = m_entries[column];
    const std::uint32_t bucket = static_cast<std::uint32_t>(x) < e.threshold ? column : e.alias;
    if (bucket != m_tailBucket) return bucket;
    return static_cast<std::uint32_t>(m_tail.sample(rng) - 1);
  }

 private:
  struct Entry {
    std::uint32_t threshold;  // keep the column when the low 32 random bits are below this
    std::uint32_t alias;
  };

  // Vose's alias method.
  void buildAlias(const std::vector<double>& weights, double total) {
    m_size = weights.size();
    m_entries.assign(m_size, Entry{0, 0});
    std::vector<double> scaled(m_size);
    std::vector<std::uint32_t> small;
    std::vector<std::uint32_t> large;
    for (std::size_t i = 0; i < m_size; ++i) {
      scaled[i] = weights[i] * static_cast<double>(m_size) / total;
      (scaled[i] < 1.0 ? small : large).push_back(static_cast<std::uint32_t>(i));
    }
    while (!small.empty() && !large.empty()) {
      const std::uint32_t s = small.back();
      small.pop_back();
      const std::uint32_t l = large.back();
      m_entries[s] = Entry{static_cast<std::uint32_t>(std::min(scaled[s] * 0x1.0p32, 4294967295.0)), l};
      scaled[l] = (scaled[l] + scaled[s]) - 1.0;
      if (scaled[l] < 1.0) {
        large.pop_back();
        small.push_back(l);
      }
    }
    // Leftovers are 1 up to rounding: they always keep their own column.
    for (const std::uint32_t i : large) m_entries[i] = Entry{0xFFFFFFFFU, i};
    for (const std::uint32_t i : small) m_entries[i] = Entry{0xFFFFFFFFU, i};
  }

  std::vector<Entry> m_entries;
  std::uint64_t m_size = 0;
  std::uint32_t m_tailBucket = 0xFFFFFFFFU;  // no tail: never matches a bucket
  ZipfTailSampler m_tail;
};

// ---------------------------------------------------------------------------------------------
// Output buffer without per-token allocation: capacity is ensured once per document for the worst
// case, then words are copied with fixed 16-byte stores.

class Buffer {
 public:
  void clear() noexcept { m_size = 0; }
  std::size_t size() const noexcept { return m_size; }
  const char* data() const noexcept { return m_data.get(); }
  // Guarantees `extra` writable bytes after the end; returns the end.
  char* reserveTail(std::size_t extra) {
    if (m_size + extra > m_capacity) {
      const std::size_t capacity = std::max(m_capacity * 2, m_size + extra);
      auto data = std::make_unique_for_overwrite<char[]>(capacity);
      if (m_size > 0) std::memcpy(data.get(), m_data.get(), m_size);
      m_data = std::move(data);
      m_capacity = capacity;
    }
    return m_data.get() + m_size;
  }
  void setEnd(const char* end) noexcept { m_size = static_cast<std::size_t>(end - m_data.get()); }

 private:
  std::unique_ptr<char[]> m_data;
  std::size_t m_size = 0;
  std::size_t m_capacity = 0;
};

constexpr std::size_t kSlot = 16;  // bytes per precomputed word: letters, ' ', padding, length
static_assert(kMaxWordLetters + 1 < kSlot);

constexpr double kLengthSigma = 0.5;     // log-normal shape of document lengths
constexpr std::uint32_t kMaxLengthFactor = 8;  // lengths clamped to 8 x mean
constexpr std::uint32_t kMinTitleWords = 2;
constexpr std::uint32_t kMaxTitleWords = 8;

class DocumentWriter {
 public:
  explicit DocumentWriter(const CorpusGeneratorParams& params)
      : m_seed(params.seed),
        m_sampler(params.vocabulary, params.zipf),
        m_topicWords(params.topicWords),
        m_topicShare(params.topicShare),
        m_topicRun(params.topicRun) {
    const double sigma2 = kLengthSigma * kLengthSigma;
    m_logMean = std::log(static_cast<double>(params.meanLength)) - 0.5 * sigma2;
    m_maxLength = static_cast<double>(params.meanLength) * kMaxLengthFactor;
    m_headWords = std::min(params.vocabulary, kHeadRanks);
    m_words = std::make_unique<char[]>(std::size_t{m_headWords} * kSlot);
    for (std::uint32_t r = 0; r < m_headWords; ++r) {
      char* slot = m_words.get() + std::size_t{r} * kSlot;
      char* end = writeWord(slot, r);
      *end++ = ' ';
      slot[kSlot - 1] = static_cast<char>(end - slot);
    }
  }

  // The words of the topic run last drawn by one generating thread: consecutive documents of a
  // batch mostly share a run, so each run's topic is drawn (and its storage allocated) once per
  // thread rather than once per document. The words depend only on the run, never on the cache.
  struct TopicCache {
    std::uint64_t run = std::numeric_limits<std::uint64_t>::max();
    std::vector<std::uint32_t> words;
  };

  void write(std::uint64_t doc, Buffer& out, TopicCache& topicCache) const {
    Rng rng(documentSeed(m_seed, doc));
    const std::uint32_t titleWords = kMinTitleWords + rng.below(kMaxTitleWords - kMinTitleWords + 1);
    const std::uint64_t textWords = sampleLength(rng);
    // Worst case: a 16-byte store per word plus the fixed JSON parts and the id.
    char* p = out.reserveTail((titleWords + textWords) * kSlot + 64);
    p = put(p, "{\"_id\":\"d");
    p = putDecimal(p, doc);
    p = put(p, "\",\"title\":\"");
    for (std::uint32_t i = 0; i < titleWords; ++i) {
      const std::uint32_t a = m_sampler.sample(rng);
      const std::uint32_t b = m_sampler.sample(rng);
      p = putWord(p, std::max(a, b));
    }
    --p;  // the last word's space
    p = put(p, "\",\"text\":\"");
    if (m_topicWords == 0) {
      for (std::uint64_t i = 0; i < textWords; ++i) p = putWord(p, m_sampler.sample(rng));
    } else {
      const std::vector<std::uint32_t>& topic = topicWords(doc / m_topicRun, topicCache);
      for (std::uint64_t i = 0; i < textWords; ++i) {
        const bool fromTopic = rng.uniform() < m_topicShare;
        p = putWord(p, fromTopic ? topic[rng.below(m_topicWords)] : m_sampler.sample(rng));
      }
    }
    --p;
    p = put(p, "\"}\n");
    out.setEnd(p);
  }

 private:
  // The topic of run `run`: its own stream, so every document of the run draws the same words
  // whatever thread or batch generates it.
  const std::vector<std::uint32_t>& topicWords(std::uint64_t run, TopicCache& cache) const {
    if (cache.run != run) {
      Rng topicRng(documentSeed(m_seed ^ kTopicSeedSalt, run));
      cache.words.resize(m_topicWords);
      for (std::uint32_t& w : cache.words) w = m_sampler.sample(topicRng);
      cache.run = run;
    }
    return cache.words;
  }

  std::uint64_t sampleLength(Rng& rng) const noexcept {
    // Box-Muller: one standard normal (the second is discarded; one draw per document is cheap).
    const double u1 = 1.0 - rng.uniform();  // (0, 1]
    const double u2 = rng.uniform();
    const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
    const double length = std::round(std::exp(m_logMean + kLengthSigma * z));
    return static_cast<std::uint64_t>(std::clamp(length, 1.0, m_maxLength));
  }

  template <std::size_t N>
  static char* put(char* p, const char (&literal)[N]) noexcept {
    std::memcpy(p, literal, N - 1);
    return p + N - 1;
  }

  static char* putDecimal(char* p, std::uint64_t value) noexcept {
    char digits[20];
    int n = 0;
    do {
      digits[n++] = static_cast<char>('0' + value % 10);
      value /= 10;
    } while (value != 0);
    while (n > 0) *p++ = digits[--n];
    return p;
  }

  // The word followed by a space.
  char* putWord(char* p, std::uint32_t rank) const noexcept {
    if (rank < m_headWords) {
      const char* slot = m_words.get() + std::size_t{rank} * kSlot;
      std::memcpy(p, slot, kSlot);
      return p + static_cast<unsigned char>(slot[kSlot - 1]);
    }
    p = writeWord(p, rank);
    *p++ = ' ';
    return p;
  }

  static constexpr std::uint64_t kTopicSeedSalt = 0x7091C5EEDULL;

  std::uint64_t m_seed;
  ZipfSampler m_sampler;
  std::uint32_t m_topicWords = 0;
  double m_topicShare = 0.0;
  std::uint64_t m_topicRun = 1;
  double m_logMean = 0.0;
  double m_maxLength = 1.0;
  std::uint32_t m_headWords = 0;
  std::unique_ptr<char[]> m_words;  // kSlot bytes per head rank
};

void validate(const CorpusGeneratorParams& params) {
  if (params.docs == 0) throwUsage("corpus generator: docs must be at least 1");
  if (params.docs > kMaxCorpusDocs) {
    throwUsage("corpus generator: docs must be at most " + std::to_string(kMaxCorpusDocs) +
               " (what an index can hold), got " + std::to_string(params.docs));
  }
  if (params.meanLength == 0) throwUsage("corpus generator: meanLength must be at least 1");
  if (params.vocabulary == 0) throwUsage("corpus generator: vocabulary must be at least 1");
  if (params.vocabulary > kMaxVocabulary) {
    throwUsage("corpus generator: vocabulary must be at most 2^31 (2147483648), got " +
               std::to_string(params.vocabulary));
  }
  if (!std::isfinite(params.zipf) || params.zipf <= 0.0) {
    throwUsage("corpus generator: zipf exponent must be a finite number > 0, got " + std::to_string(params.zipf));
  }
  if (params.topicWords > (1U << 20)) {
    throwUsage("corpus generator: topicWords must be at most 2^20 (1048576), got " + std::to_string(params.topicWords));
  }
  if (!(params.topicShare >= 0.0 && params.topicShare <= 1.0)) {
    throwUsage("corpus generator: topicShare must be a number in [0, 1], got " + std::to_string(params.topicShare));
  }
  if (params.topicRun == 0) throwUsage("corpus generator: topicRun must be at least 1");
}

// ---------------------------------------------------------------------------------------------
// The pipeline: workers generate batches of consecutive documents into a ring of slots; the
// calling thread writes the batches in order. Batches only bound memory and work granularity; they
// do not influence the content (each document has its own random stream).

constexpr std::size_t kTargetBatchBytes = 4U << 20;
constexpr std::uint64_t kMaxBatchDocs = 4096;

// a / b rounded up, without the overflow of (a + b - 1) / b near 2^64.
constexpr std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) noexcept { return a / b + (a % b != 0 ? 1 : 0); }

class Pipeline {
 public:
  Pipeline(const DocumentWriter& writer, std::uint64_t docs, std::uint64_t batchDocs, unsigned workers)
      : m_writer(writer),
        m_docs(docs),
        m_batchDocs(batchDocs),
        m_batches(ceilDiv(docs, batchDocs)),
        m_slots(2 * std::size_t{workers}) {
    m_threads.reserve(workers);
    try {
      for (unsigned i = 0; i < workers; ++i) m_threads.emplace_back([this] { work(); });
    } catch (...) {
      stopAndJoin();
      throw;
    }
  }

  ~Pipeline() { stopAndJoin(); }
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  std::uint64_t batches() const noexcept { return m_batches; }
  std::uint64_t docsBefore(std::uint64_t batch) const noexcept { return std::min(m_docs, batch * m_batchDocs); }

  // Waits for batch `batch` (called in order 0, 1, ...), hands it to `consume`, frees its slot.
  template <typename Consume>
  void take(std::uint64_t batch, Consume&& consume) {
    Slot& slot = m_slots[batch % m_slots.size()];
    {
      std::unique_lock lock(m_mutex);
      m_readyCv.wait(lock, [&] { return slot.ready || m_error != nullptr; });
      if (m_error != nullptr) std::rethrow_exception(m_error);
    }
    consume(slot.buffer);
    {
      std::lock_guard lock(m_mutex);
      slot.ready = false;
      ++m_written;
    }
    m_freeCv.notify_all();
  }

 private:
  struct Slot {
    Buffer buffer;
    bool ready = false;
  };

  void work() {
    DocumentWriter::TopicCache topicCache;
    try {
      for (;;) {
        std::uint64_t batch = 0;
        {
          std::unique_lock lock(m_mutex);
          if (m_stop || m_next >= m_batches) return;
          batch = m_next++;
          m_freeCv.wait(lock, [&] { return m_stop || batch < m_written + m_slots.size(); });
          if (m_stop) return;
        }
        Slot& slot = m_slots[batch % m_slots.size()];
        slot.buffer.clear();
        const std::uint64_t end = docsBefore(batch + 1);
        for (std::uint64_t doc = docsBefore(batch); doc < end; ++doc) m_writer.write(doc, slot.buffer, topicCache);
        {
          std::lock_guard lock(m_mutex);
          slot.ready = true;
        }
        m_readyCv.notify_one();
      }
    } catch (...) {
      {
        std::lock_guard lock(m_mutex);
        if (m_error == nullptr) m_error = std::current_exception();
        m_stop = true;
      }
      m_readyCv.notify_all();
      m_freeCv.notify_all();
    }
  }

  void stopAndJoin() noexcept {
    {
      std::lock_guard lock(m_mutex);
      m_stop = true;
    }
    m_freeCv.notify_all();
    for (std::thread& t : m_threads) {
      if (t.joinable()) t.join();
    }
  }

  const DocumentWriter& m_writer;
  const std::uint64_t m_docs;
  const std::uint64_t m_batchDocs;
  const std::uint64_t m_batches;
  std::vector<Slot> m_slots;
  std::vector<std::thread> m_threads;
  std::mutex m_mutex;
  std::condition_variable m_readyCv;  // the writer waits for its next batch
  std::condition_variable m_freeCv;   // workers wait for a free slot
  std::uint64_t m_next = 0;           // next batch to claim
  std::uint64_t m_written = 0;        // batches consumed by the writer
  bool m_stop = false;
  std::exception_ptr m_error;
};

// Removes the temporary file unless released.
class TempFileGuard {
 public:
  explicit TempFileGuard(std::filesystem::path path) : m_path(std::move(path)) {}
  ~TempFileGuard() {
    if (!m_path.empty()) ::unlink(m_path.c_str());
  }
  TempFileGuard(const TempFileGuard&) = delete;
  TempFileGuard& operator=(const TempFileGuard&) = delete;
  void release() noexcept { m_path.clear(); }

 private:
  std::filesystem::path m_path;
};

}  // namespace

std::string syntheticWord(std::uint32_t rank) {
  char buffer[kMaxWordLetters];
  const char* end = writeWord(buffer, rank);
  return std::string(buffer, static_cast<std::size_t>(end - buffer));
}

void generateCorpus(const CorpusGeneratorParams& params, const std::filesystem::path& out,
                    const ProgressFn& progress, std::stop_token stop) {
  validate(params);
  const DocumentWriter writer(params);

  // Batches of about 4 MiB of output (at most 4096 documents); ~4.5 bytes per token on average.
  const std::uint64_t bytesPerDoc = std::uint64_t{params.meanLength} * 5 + 64;
  const std::uint64_t batchDocs = std::clamp<std::uint64_t>(kTargetBatchBytes / bytesPerDoc, 1, kMaxBatchDocs);
  const std::uint64_t batches = ceilDiv(params.docs, batchDocs);
  unsigned workers = params.threads != 0 ? params.threads : std::max(1U, std::thread::hardware_concurrency());
  workers = static_cast<unsigned>(std::min<std::uint64_t>({workers, batches, 256}));

  // A missing or read-only directory is said naming `out`, before any work: opening the temporary
  // would fail naming "<out>.tmp.<pid>", a file the user never named.
  checkOutputWritable(out);
  // A device or FIFO (corpus gen --out /dev/stdout) is written into; a file (links followed) is
  // written beside and renamed into place when complete.
  const OutputTarget target = resolveOutputTarget(out);
  const std::filesystem::path tmp = target.special ? target.path : temporaryBeside(target);
  TempFileGuard guard(tmp);
  if (target.special) guard.release();  // never unlink a device
  {
    FileWriter file(tmp, /*sync=*/!target.special);
    Pipeline pipeline(writer, params.docs, batchDocs, workers);
    using Clock = std::chrono::steady_clock;
    auto lastReport = Clock::now();
    if (progress) progress(Progress{"generating", 0, params.docs});
    for (std::uint64_t batch = 0; batch < pipeline.batches(); ++batch) {
      // The unwinding stops the workers and removes the temporary (TempFileGuard).
      if (stop.stop_requested()) throwUsage("corpus generation cancelled");
      pipeline.take(batch, [&](const Buffer& buffer) { file.write(buffer.data(), buffer.size()); });
      if (progress) {
        const auto now = Clock::now();
        if (now - lastReport >= std::chrono::milliseconds(100)) {
          lastReport = now;
          progress(Progress{"generating", pipeline.docsBefore(batch + 1), params.docs});
        }
      }
    }
    file.finish();
  }
  if (!target.special) {
    installTemporary(tmp, target);
    guard.release();
  }
  if (progress) progress(Progress{"generating", params.docs, params.docs});
}

}  // namespace wandscope::engine
