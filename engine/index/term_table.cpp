// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/index/term_table.h"

#include <cstring>

namespace wandscope::engine {
namespace {
constexpr std::size_t kArenaBlock = 1 << 20;

inline std::uint64_t mix(std::uint64_t x) noexcept {
  x ^= x >> 32;
  x *= 0xD6E8FEB86659FD93ull;
  x ^= x >> 32;
  x *= 0xD6E8FEB86659FD93ull;
  x ^= x >> 32;
  return x;
}
}  // namespace

std::uint64_t hashTerm(std::string_view s) noexcept {
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ s.size();
  const char* p = s.data();
  std::size_t n = s.size();
  while (n >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    h = mix(h ^ w);
    p += 8;
    n -= 8;
  }
  if (n > 0) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = mix(h ^ w ^ (std::uint64_t{n} << 56));
  }
  return h;
}

TermTable::TermTable() : m_slots(1024, Slot{0, kEmpty, 0, {}}), m_mask(1023) {}

void TermTable::clear() {
  for (auto& s : m_slots) s.id = kEmpty;
  m_terms.clear();
  m_arena.clear();
  m_arenaUsed = 0;
  m_arenaCapacity = 0;
}

std::size_t TermTable::memoryBytes() const noexcept {
  return m_slots.size() * sizeof(Slot) + m_terms.capacity() * sizeof(std::string_view) +
         m_arena.size() * kArenaBlock;
}

std::string_view TermTable::store(std::string_view term) {
  if (term.empty()) return {};  // (with no arena block yet, back() below would be undefined)
  if (m_arenaUsed + term.size() > m_arenaCapacity) {
    const std::size_t size = term.size() > kArenaBlock ? term.size() : kArenaBlock;
    m_arena.push_back(std::make_unique<char[]>(size));
    m_arenaUsed = 0;
    m_arenaCapacity = size;
  }
  char* dst = m_arena.back().get() + m_arenaUsed;
  std::memcpy(dst, term.data(), term.size());
  m_arenaUsed += term.size();
  return {dst, term.size()};
}

void TermTable::grow() {
  std::vector<Slot> old(m_slots.size() * 2, Slot{0, kEmpty, 0, {}});
  old.swap(m_slots);
  m_mask = m_slots.size() - 1;
  for (const Slot& s : old) {
    if (s.id == kEmpty) continue;
    std::size_t i = s.hash & m_mask;
    while (m_slots[i].id != kEmpty) i = (i + 1) & m_mask;
    m_slots[i] = s;
  }
}

std::size_t TermTable::probe(std::string_view term, std::uint32_t h) const noexcept {
  std::size_t i = h & m_mask;
  const bool inlined = term.size() <= kInline;
  for (;;) {
    const Slot& s = m_slots[i];
    if (s.id == kEmpty) return i;
    if (s.hash == h) {
      if (inlined) {
        if (s.length == term.size() && (term.empty() || std::memcmp(s.bytes, term.data(), term.size()) == 0)) return i;
      } else if (m_terms[s.id] == term) {
        return i;
      }
    }
    i = (i + 1) & m_mask;
  }
}

std::uint32_t TermTable::find(std::string_view term) const noexcept {
  return m_slots[probe(term, hashOf(term))].id;  // kEmpty == kNotFound
}

std::uint32_t TermTable::intern(std::string_view term, std::uint32_t h) {
  const std::size_t i = probe(term, h);
  if (m_slots[i].id != kEmpty) return m_slots[i].id;
  const bool inlined = term.size() <= kInline;
  const auto id = static_cast<std::uint32_t>(m_terms.size());
  m_terms.push_back(store(term));
  Slot& slot = m_slots[i];
  slot.hash = h;
  slot.id = id;
  // Length kInline + 1 marks "not inline" (never equal to an inline term's length).
  slot.length = static_cast<std::uint8_t>(inlined ? term.size() : kInline + 1);
  if (inlined && !term.empty()) std::memcpy(slot.bytes, term.data(), term.size());
  // Keep the load factor at or below 1/2.
  if (m_terms.size() * 2 > m_slots.size()) grow();
  return id;
}

}  // namespace wandscope::engine
