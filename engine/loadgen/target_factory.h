// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/progress.h"
#include "engine/index/index.h"
#include "engine/loadgen/target.h"
#include "engine/loadgen/target_spec.h"
#include "engine/loadgen/workload.h"
#include "engine/query/search_request.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace wandscope::engine {

// What a registered target factory gets from the bench runner besides the spec.
struct TargetContext {
  std::shared_ptr<const Index> index;  // the dataset's index (may be null)
  const Workload* workload = nullptr;  // the chosen query sets
  Operator op = Operator::And;         // the profile's operator and k (a spec may override)
  std::size_t k = 10;
  std::filesystem::path corpus;        // the dataset's corpus when known (the default dataset), else empty
  ProgressFn progress;                 // for work done while creating the target (a peer build)
};

using TargetFactory = std::function<std::unique_ptr<Target>(const TargetSpec& spec, const TargetContext& context)>;

// The hook for target kinds engine_core does not implement (the peers, engine/peers): a program
// that links them registers a factory per kind at start-up (installPeerTargets()); BenchRunner
// asks here for any kind other than builtin and synthetic. Thread-safe; a second registration of
// a kind replaces the first.
void registerTargetFactory(const std::string& kind, TargetFactory factory);
// The factory registered for `kind`, or an empty function.
TargetFactory findTargetFactory(std::string_view kind);

}  // namespace wandscope::engine
