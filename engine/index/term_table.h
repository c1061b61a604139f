// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace wandscope::engine {

// A fast non-cryptographic hash of a short string (one multiply-mix per 8 bytes).
std::uint64_t hashTerm(std::string_view s) noexcept;

// Term string -> dense id (0, 1, 2, ... in first-seen order): open addressing with linear probing
// over (hash, id) slots, strings copied into an arena. Built for the inner loop of inversion (one
// lookup per token), where a node-based std::unordered_map spent most of the build's time in cache
// misses and allocation; an open index looks its query terms up in one too (Index::findTerm).
class TermTable {
 public:
  TermTable();

  // The id of `term`, inserting it if new.
  std::uint32_t intern(std::string_view term) { return intern(term, hashOf(term)); }
  // Same, with the term's hash (hashOf) computed beforehand.
  std::uint32_t intern(std::string_view term, std::uint32_t hash);
  // The id of `term` if it was interned, else kNotFound. Never inserts.
  std::uint32_t find(std::string_view term) const noexcept;
  static constexpr std::uint32_t kNotFound = 0xFFFFFFFFu;
  static std::uint32_t hashOf(std::string_view term) noexcept {
    return static_cast<std::uint32_t>(hashTerm(term));
  }
  // Starts loading the slot a term with this hash probes first: callers hash a batch of tokens,
  // then intern them with prefetches running a few tokens ahead, hiding the cache misses.
  void prefetch(std::uint32_t hash) const noexcept { __builtin_prefetch(&m_slots[hash & m_mask]); }
  std::size_t size() const noexcept { return m_terms.size(); }
  std::string_view term(std::uint32_t id) const noexcept { return m_terms[id]; }
  // Forgets every term (keeps the allocated capacity).
  void clear();
  std::size_t memoryBytes() const noexcept;

 private:
  // Short terms live in the slot itself, so a lookup costs one cache miss instead of three
  // (slot, term view, term bytes). Longer ones compare through m_terms.
  static constexpr std::size_t kInline = 22;
  struct Slot {
    std::uint32_t hash;
    std::uint32_t id;  // kEmpty when free
    std::uint8_t length;
    char bytes[kInline + 1];
  };
  static_assert(sizeof(Slot) == 32);
  static constexpr std::uint32_t kEmpty = kNotFound;
  // The slot holding `term` (hash h), or the free slot ending its probe sequence.
  std::size_t probe(std::string_view term, std::uint32_t h) const noexcept;
  void grow();
  std::string_view store(std::string_view term);

  std::vector<Slot> m_slots;
  std::size_t m_mask = 0;
  std::vector<std::string_view> m_terms;
  std::vector<std::unique_ptr<char[]>> m_arena;
  std::size_t m_arenaUsed = 0;
  std::size_t m_arenaCapacity = 0;
};

}  // namespace wandscope::engine
