// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/index/index.h"
#include "engine/loadgen/target.h"
#include "engine/loadgen/target_spec.h"
#include "engine/loadgen/workload.h"
#include "engine/query/search_request.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace wandscope::engine {

// How the built-in engine runs the workload's queries.
struct BuiltinQueryOptions {
  Operator op = Operator::And;
  std::size_t k = 10;
  Algorithm algorithm = Algorithm::Auto;
  SearchOptions options;

  // Applies a builtin spec's options on top: "algo=NAME", "op=and|or", "k=N"; every other key is a
  // SearchOptions switch (SearchOptions::apply: "freq_prune=off", ...). Throws Usage naming the
  // spec.
  void applySpec(const TargetSpec& spec);
  // "op=and k=10 algo=auto freq_prune=on,..." for reports.
  std::string describe() const;
};

// The engine itself as a load-generator target: request (set, query) runs search() on the
// current index with the query's text and these options, and reports the engine's per-query
// counters (QueryCounters, docs/COUNTERS.md) in their forEach order.
class BuiltinTarget final : public Target {
 public:
  BuiltinTarget(std::string specText, std::shared_ptr<const Index> index, const Workload& workload,
                const BuiltinQueryOptions& options);

  const BuiltinQueryOptions& options() const noexcept { return m_options; }

  // The extension point for a writes arm: a writer that commits a new generation hands it over
  // here; requests that start afterwards search it, running ones keep theirs. Thread-safe.
  void setIndex(std::shared_ptr<const Index> index);
  std::shared_ptr<const Index> index() const { return m_index.load(); }

  const std::string& spec() const noexcept override { return m_spec; }
  const std::vector<std::string>& counterNames() const noexcept override { return m_counterNames; }
  bool execute(const WorkItem& item, std::span<std::uint64_t> counters) override;
  bool hits(const WorkItem& item, std::vector<TargetHit>& out) override;

 private:
  std::string m_spec;
  std::atomic<std::shared_ptr<const Index>> m_index;
  BuiltinQueryOptions m_options;
  std::vector<std::vector<SearchRequest>> m_requests;  // [set][query]
  std::vector<std::string> m_counterNames;
};

}  // namespace wandscope::engine
