// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/search_request.h"

#include "engine/core/error.h"
#include "engine/corpus/text_fields.h"

#include <array>
#include <cstdint>
#include <string>
#include <utility>

namespace wandscope::engine {
namespace {

constexpr std::array<std::pair<Algorithm, const char*>, 9> kAlgorithms{{
    {Algorithm::Auto, "auto"},
    {Algorithm::Exhaustive, "exhaustive"},
    {Algorithm::Wand, "wand"},
    {Algorithm::Bmw, "bmw"},
    {Algorithm::MaxScore, "maxscore"},
    {Algorithm::Bmm, "bmm"},
    {Algorithm::BlockMaxAnd, "block-max-and"},
    {Algorithm::BulkAnd, "bulk-and"},
    {Algorithm::Taat, "taat"},
}};

}  // namespace

Operator parseOperator(std::string_view name) {
  if (name == "or" || name == "OR") return Operator::Or;
  if (name == "and" || name == "AND") return Operator::And;
  throwUsage("unknown operator '" + std::string(name) + "' (expected or or and)");
}

const char* operatorName(Operator op) noexcept { return op == Operator::Or ? "or" : "and"; }

Algorithm parseAlgorithm(std::string_view name) {
  for (const auto& [algo, text] : kAlgorithms) {
    if (name == text) return algo;
  }
  std::string valid;
  for (const auto& [algo, text] : kAlgorithms) valid += (valid.empty() ? "" : ", ") + std::string(text);
  throwUsage("unknown algorithm '" + std::string(name) + "' (expected one of " + valid + ")");
}

std::string algorithmsFor(Operator op) {
  std::string names;
  for (const auto& [algo, text] : kAlgorithms) {
    if (algorithmSupports(algo, op)) names += (names.empty() ? "" : ", ") + std::string(text);
  }
  return std::string(op == Operator::Or ? "OR" : "AND") + " queries take " + names;
}

const char* algorithmName(Algorithm algo) noexcept {
  for (const auto& [a, text] : kAlgorithms) {
    if (a == algo) return text;
  }
  return "unknown";
}

bool algorithmSupports(Algorithm algo, Operator op) noexcept {
  switch (algo) {
    case Algorithm::Auto:
    case Algorithm::Exhaustive:
      return true;
    case Algorithm::Wand:
    case Algorithm::Bmw:
    case Algorithm::MaxScore:
    case Algorithm::Bmm:
    case Algorithm::Taat:
      return op == Operator::Or;
    case Algorithm::BlockMaxAnd:
    case Algorithm::BulkAnd:
      return op == Operator::And;
  }
  return false;
}

const std::vector<Algorithm>& allAlgorithms() {
  static const std::vector<Algorithm> all = [] {
    std::vector<Algorithm> v;
    for (const auto& [algo, text] : kAlgorithms) v.push_back(algo);
    return v;
  }();
  return all;
}

std::uint32_t SearchOptions::apply(std::string_view spec) {
  // Called per query by the plugin API: nothing is allocated unless the spec is refused.
  const std::string_view whole = spec;
  std::uint32_t given = 0;  // bit i: the i-th switch (visit order) was named in this spec
  while (!spec.empty()) {
    const std::size_t comma = spec.find(',');
    // Blanks around items, names and values are ignored, as in a --target spec ("a=off, b=off").
    const std::string_view item = trimAsciiSpace(spec.substr(0, comma));
    const bool more = comma != std::string_view::npos;
    spec = more ? spec.substr(comma + 1) : std::string_view{};
    if (item.empty() || (more && spec.empty())) {
      throwUsage("optimisation switches '" + std::string(whole) +
                 "': an empty item (write name=on|off, separated by commas)");
    }
    std::string_view name = item;
    std::string_view value = "on";
    if (const std::size_t eq = item.find('='); eq != std::string_view::npos) {
      name = trimAsciiSpace(item.substr(0, eq));
      value = trimAsciiSpace(item.substr(eq + 1));
    }
    // The name first: "bar=baz" is an unknown switch, not a bad value of one.
    int index = -1;
    int position = 0;
    bool* field = nullptr;
    auto find = [&](const char* key, bool& f) {
      if (name == key) {
        field = &f;
        index = position;
      }
      ++position;
    };
    visit(*this, find);
    if (index < 0) throwUsage("unknown optimisation '" + std::string(name) + "' (valid: " + names() + ")");
    if (value == "on" || value == "1" || value == "true") {
      *field = true;
    } else if (value == "off" || value == "0" || value == "false") {
      *field = false;
    } else {
      throwUsage("optimisation " + std::string(name) + ": expected on or off, got '" + std::string(value) + "'");
    }
    const std::uint32_t bit = std::uint32_t{1} << index;
    if ((given & bit) != 0) {
      throwUsage("optimisation '" + std::string(name) + "' is given twice in '" + std::string(whole) + "'");
    }
    given |= bit;
  }
  return given;
}

std::string SearchOptions::names() {
  std::string out;
  SearchOptions().forEach([&](const char* name, bool) {
    if (!out.empty()) out += ", ";
    out += name;
  });
  return out;
}

std::string SearchOptions::toString() const {
  std::string out;
  forEach([&](const char* name, bool on) {
    if (!out.empty()) out += ',';
    out += name;
    out += on ? "=on" : "=off";
  });
  return out;
}

std::string SearchOptions::switchesOff() const {
  std::string out;
  forEach([&](const char* name, bool on) {
    if (on) return;
    if (!out.empty()) out += ", ";
    out.append(name).append("=off");
  });
  return out;
}

void checkRequest(const SearchRequest& request) {
  if (request.k > kMaxK) {
    throwUsage("k = " + std::to_string(request.k) + " is over the limit of " + std::to_string(kMaxK));
  }
  if (!algorithmSupports(request.algorithm, request.op)) {
    throwUsage(std::string("algorithm ") + algorithmName(request.algorithm) + " does not evaluate " +
               (request.op == Operator::Or ? "OR" : "AND") + " queries (" + algorithmsFor(request.op) + ")");
  }
}

}  // namespace wandscope::engine
