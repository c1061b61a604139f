// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/loadgen/builtin_target.h"

#include "engine/core/error.h"
#include "engine/query/parsed_query.h"
#include "engine/query/query_counters.h"
#include "engine/query/searcher.h"
#include "engine/text/analyzer.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <string_view>

namespace wandscope::engine {

void BuiltinQueryOptions::applySpec(const TargetSpec& spec) {
  for (const auto& [key, value] : spec.options) {
    try {
      if (key == "algo") {
        algorithm = parseAlgorithm(value);
      } else if (key == "op") {
        op = parseOperator(value);
      } else if (key == "k") {
        std::size_t v = 0;
        const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
        if (ec != std::errc() || ptr != value.data() + value.size() || v == 0 || v > kMaxK) {
          throwUsage(fmt::format("k must be an integer in [1, {}], got '{}'", kMaxK, value));
        }
        k = v;
      } else {
        std::string item = key;
        item.append("=").append(value);
        options.apply(item);
      }
    } catch (const Error& e) {
      std::string message = "target '";
      message.append(spec.text).append("': ").append(e.what());
      throwUsage(message);
    }
  }
  if (!algorithmSupports(algorithm, op)) {
    // Say where the operator came from: a profile's op=and met by a target's algo=wand read as a
    // fault of the target alone.
    const bool ownOp = std::any_of(spec.options.begin(), spec.options.end(), [](const auto& kv) { return kv.first == "op"; });
    const char* other = op == Operator::And ? "or" : "and";
    throwUsage(fmt::format("target '{}': algorithm {} does not evaluate {} queries ({}; op={} on the target evaluates "
                           "{} queries; {})",
                           spec.text, algorithmName(algorithm), operatorName(op),
                           ownOp ? "the target's own op" : fmt::format("op={} comes from the profile", operatorName(op)),
                           other, other == std::string_view("or") ? "OR" : "AND", algorithmsFor(op)));
  }
}

std::string BuiltinQueryOptions::describe() const {
  std::string out = "op=";
  out.append(operatorName(op)).append(" k=").append(std::to_string(k));
  out.append(" algo=").append(algorithmName(algorithm)).append(" ").append(options.toString());
  return out;
}

BuiltinTarget::BuiltinTarget(std::string specText, std::shared_ptr<const Index> index, const Workload& workload,
                             const BuiltinQueryOptions& options)
    : m_spec(std::move(specText)), m_index(std::move(index)), m_options(options) {
  // Every query is checked before anything runs: a query the engine refuses (more than
  // kMaxQueryTerms terms) failed every request of a bench, which reported the run as valid
  // (review, stop 32); `run` refuses the same file as a bad input.
  const std::shared_ptr<const Index> current = m_index.load();
  Analyzer analyzer(current->analyzerKind());
  for (const auto& set : workload.sets()) {
    std::vector<SearchRequest> requests;
    requests.reserve(set.texts.size());
    for (std::size_t i = 0; i < set.texts.size(); ++i) {
      const std::string& text = set.texts[i];
      usageAsBadInput([&] { (void)parseQuery(*current, text, analyzer); },
                      [&] {
                        return fmt::format("query set '{}': query {} (number {} of the set)", set.name,
                                           i < set.ids.size() ? set.ids[i] : std::string("?"), i + 1);
                      });
      SearchRequest r;
      r.text = text;
      r.op = options.op;
      r.k = options.k;
      r.algorithm = options.algorithm;
      r.options = options.options;
      r.describePlan = false;  // timed: the words are never read
      requests.push_back(std::move(r));
    }
    m_requests.push_back(std::move(requests));
  }
  QueryCounters{}.forEach([this](const char* name, std::uint64_t) { m_counterNames.emplace_back(name); });
}

void BuiltinTarget::setIndex(std::shared_ptr<const Index> index) { m_index.store(std::move(index)); }

bool BuiltinTarget::execute(const WorkItem& item, std::span<std::uint64_t> counters) {
  if (item.querySet >= m_requests.size() || item.query >= m_requests[item.querySet].size()) return false;
  const std::shared_ptr<const Index> index = m_index.load();
  const SearchResult result = search(*index, m_requests[item.querySet][item.query]);
  std::size_t c = 0;
  result.counters.forEach([&](const char*, std::uint64_t v) {
    if (c < counters.size()) counters[c] = v;
    ++c;
  });
  return true;
}

bool BuiltinTarget::hits(const WorkItem& item, std::vector<TargetHit>& out) {
  out.clear();
  if (item.querySet >= m_requests.size() || item.query >= m_requests[item.querySet].size()) return false;
  const std::shared_ptr<const Index> index = m_index.load();
  const SearchResult result = search(*index, m_requests[item.querySet][item.query]);
  out.reserve(result.hits.size());
  for (const auto& h : result.hits) out.push_back({h.doc, h.score});
  return true;
}

}  // namespace wandscope::engine
