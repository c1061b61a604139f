// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/search_request.h"

#include "engine/core/error.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

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

void SearchOptions::apply(std::string_view spec) {
  const std::string whole(spec);
  std::vector<std::string_view> given;  // names seen in this spec: each at most once
  while (!spec.empty()) {
    const std::size_t comma = spec.find(',');
    std::string_view item = spec.substr(0, comma);
    const bool more = comma != std::string_view::npos;
    spec = more ? spec.substr(comma + 1) : std::string_view{};
    if (item.empty() || (more && spec.empty())) {
      throwUsage("optimisation switches '" + whole + "': an empty item (write name=on|off, separated by commas)");
    }
    std::string_view name = item;
    std::string_view value = "on";
    if (const std::size_t eq = item.find('='); eq != std::string_view::npos) {
      name = item.substr(0, eq);
      value = item.substr(eq + 1);
    }
    bool on = true;
    if (value == "on" || value == "1" || value == "true") {
      on = true;
    } else if (value == "off" || value == "0" || value == "false") {
      on = false;
    } else {
      throwUsage("option " + std::string(name) + ": expected on or off, got '" + std::string(value) + "'");
    }
    bool found = false;
    std::string valid;
    auto set = [&](const char* key, bool& field) {
      valid += (valid.empty() ? "" : ", ") + std::string(key);
      if (name == key) {
        field = on;
        found = true;
      }
    };
    visit(*this, set);
    if (!found) throwUsage("unknown optimisation '" + std::string(name) + "' (valid: " + valid + ")");
    if (std::find(given.begin(), given.end(), name) != given.end()) {
      throwUsage("optimisation '" + std::string(name) + "' is given twice in '" + whole + "'");
    }
    given.push_back(name);
  }
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

}  // namespace wandscope::engine
