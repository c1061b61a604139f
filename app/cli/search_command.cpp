// SPDX-License-Identifier: GPL-3.0-or-later
// `search`: one query, its results, counters and (optionally) explain.
#include "app/cli/cli_support.h"

#include "engine/bench/query_set_timing.h"
#include "engine/core/error.h"
#include "engine/core/fs_util.h"
#include "engine/core/wording.h"
#include "engine/index/index.h"
#include "engine/query/searcher.h"
#include "engine/query/trace_json.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace wandscope::app {
namespace {

// Far beyond any lesson's needs (an event is some 40 bytes), short of exhausting memory.
constexpr std::size_t kMaxTraceLimit = 50'000'000;
// The text output's query line and term list stay a screenful whatever the query.
constexpr std::size_t kMaxEchoBytes = 200;
constexpr std::size_t kMaxTermLines = 32;

std::string shorten(std::string_view text, std::size_t max) {
  if (text.size() <= max) return std::string(text);
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0u) == 0x80u) --cut;  // UTF-8 boundary
  return std::string(text.substr(0, cut)) + "...";
}

// A term the index does not hold has no idf and no maximum: null, not 0.
nlohmann::json termsJson(const engine::ParsedQuery& query) {
  nlohmann::json terms = nlohmann::json::array();
  for (const auto& t : query.terms) {
    const bool known = t.id.has_value();
    terms.push_back({{"text", t.text}, {"known", known}, {"df", t.df},
                     {"idf", known ? nlohmann::json(t.idf) : nlohmann::json(nullptr)},
                     {"max_score", known ? nlohmann::json(t.maxScore) : nlohmann::json(nullptr)}, {"blocks", t.blocks}});
  }
  return terms;
}

}  // namespace

void addSearchCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("search", "Run one query and show its top-k, counters and (with --explain) why");
  struct Args {
    std::string dir, query, op = "or", algo = "auto", trace;
    std::vector<std::string> opts;
    std::int64_t traceLimit = 100'000;
    std::int64_t k = 10;
    bool json = false, explain = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("dir", a->dir, "index directory")->required();
  cmd->add_option("--query,-q", a->query, "query text")->required();
  cmd->add_option("--op", a->op, "or | and")->capture_default_str();
  cmd->add_option("--k", a->k, fmt::format("number of results (0 to {})", engine::kMaxK))
      ->capture_default_str();
  cmd->add_option("--algo", a->algo, algorithmHelp())->capture_default_str();
  cmd->add_option("--opt", a->opts, optionSwitchHelp() + "; e.g. freq_prune=off,lazy_freq=off");
  cmd->add_flag("--json", a->json, "print JSON");
  cmd->add_flag("--explain", a->explain, "per-term statistics and per-result contributions");
  cmd->add_option("--trace", a->trace, "record the evaluation step by step and write it as JSON to this file");
  cmd->add_option("--trace-limit", a->traceLimit,
                  fmt::format("events kept in the trace, 0 to {} (later ones are counted, not kept; needs --trace)",
                              kMaxTraceLimit))
      ->capture_default_str();
  setAction(cmd, [a, cmd] {
    if (cmd->count("--trace") > 0 && a->trace.empty()) engine::throwUsage("--trace needs a file name");
    if (cmd->count("--trace-limit") > 0 && a->trace.empty()) engine::throwUsage("--trace-limit needs --trace FILE");
    engine::SearchRequest request;
    request.text = a->query;
    request.op = engine::parseOperator(a->op);
    request.k = countOption("--k", a->k, engine::kMaxK);
    request.algorithm = algorithmOption(a->algo, request.op);
    applyOptionSpecs(request.options, a->opts);
    engine::checkRequest(request);
    const std::size_t traceLimit = countOption("--trace-limit", a->traceLimit, kMaxTraceLimit);
    if (!a->trace.empty()) engine::checkOutputWritable(a->trace);
    const auto index = engine::Index::open(a->dir);
    request.explain = a->explain;

    std::unique_ptr<engine::TraceRecorder> trace;
    if (!a->trace.empty()) {
      trace = std::make_unique<engine::TraceRecorder>(traceLimit);
      request.trace = trace.get();
    }
    const double cpu0 = engine::processCpuSeconds();
    const double wall0 = engine::monotonicSeconds();
    auto result = engine::search(*index, request);
    const double wallMs = (engine::monotonicSeconds() - wall0) * 1e3;
    const double cpuMs = (engine::processCpuSeconds() - cpu0) * 1e3;
    // Exact on every path, after the clock stopped (a pruning path is run once more, docs/COUNTERS.md).
    result.tieAtK = engine::exactTieAtK(*index, request, result);
    if (trace) {
      engine::writeFileAtomically(a->trace, engine::traceToJson(*trace, false, &request));
      std::string dropped;
      if (trace->truncated()) {
        dropped = trace->eventLimit() < trace->maxEvents()
                      ? fmt::format(" ({} more dropped: {} terms keep at most {} events, the trace's memory limit)",
                                    trace->dropped(), trace->terms().size(), trace->eventLimit())
                      : fmt::format(" ({} more dropped: raise --trace-limit)", trace->dropped());
      }
      std::cerr << fmt::format("wrote {} trace events to {}{}\n", trace->events().size(), a->trace, dropped);
    }

    const std::uint64_t served = std::min<std::uint64_t>(request.k, index->docCount());  // k beyond N
    if (a->json) {
      nlohmann::json hits = nlohmann::json::array();
      for (std::size_t i = 0; i < result.hits.size(); ++i) {
        const auto& h = result.hits[i];
        nlohmann::json hit = {{"rank", i + 1}, {"doc", std::string(index->externalId(h.doc))},
                              {"internal_doc", h.doc}, {"score", h.score}, {"bits", floatBits(h.score)}};
        if (!result.explain.empty()) {
          const auto& e = result.explain[i];
          hit["doc_length"] = e.docLength;
          hit["tf"] = e.tf;
          hit["contribution"] = e.contribution;
        }
        hits.push_back(std::move(hit));
      }
      nlohmann::json counters = nlohmann::json::object();
      result.counters.forEach([&](const char* name, std::uint64_t v) { counters[name] = v; });
      nlohmann::json j = {{"query", a->query},
                          {"op", engine::operatorName(request.op)},
                          {"k", request.k},
                          {"k_served", served},
                          {"tokens", result.query.tokens},
                          {"dropped", {{"stop_words", result.query.analysis.stopWords},
                                       {"overlong_tokens", result.query.analysis.overlongTokens},
                                       {"invalid_bytes", result.query.analysis.invalidBytes}}},
                          {"algorithm", engine::algorithmName(result.algorithm)},
                          {"reason", result.reason},
                          {"merge_kernels", result.mergeKernels.empty() ? nlohmann::json(nullptr)
                                                                        : nlohmann::json(result.mergeKernels)},
                          {"options", request.options.toString()},
                          {"terms", termsJson(result.query)},
                          {"hits", hits},
                          {"counters", counters},
                          {"tie_at_k", result.tieAtK},
                          {"wall_ms", wallMs},
                          {"cpu_ms", cpuMs}};
      j["kth_score"] = std::isnan(result.kthScore) ? nlohmann::json(nullptr) : nlohmann::json(result.kthScore);
      printJson(j);
      return 0;
    }

    // A long query is echoed in part (a 10,000-token query printed 60 KB here): the analysis that
    // follows counts its tokens and terms, and --json carries the whole text.
    const std::string echoed = a->query.size() <= kMaxEchoBytes
                                   ? fmt::format("\"{}\"", a->query)
                                   : fmt::format("\"{}\" [{} bytes]", shorten(a->query, kMaxEchoBytes),
                                                 engine::grouped(a->query.size()));
    std::cout << fmt::format("query   {} ({}, k {}{}, {})\n", echoed, engine::operatorName(request.op), request.k,
                             served < request.k ? fmt::format(" (the index holds {})", engine::counted(served, "document", "documents")) : "",
                             engine::describeAnalysis(result.query));
    std::size_t width = 20;
    // Without --explain a query of many terms lists its first ones; --explain and --json list every one.
    const std::size_t listed = a->explain ? result.query.terms.size() : std::min(result.query.terms.size(), kMaxTermLines);
    for (std::size_t i = 0; i < listed; ++i) width = std::max(width, result.query.terms[i].text.size());
    for (std::size_t i = 0; i < listed; ++i) {
      const auto& t = result.query.terms[i];
      if (t.id) {
        std::cout << fmt::format("  term  {:<{}} df {:<9} idf {:<10} max score {:<10} blocks {}\n", t.text, width,
                                 t.df, engine::exactFigure(t.idf), engine::exactFigure(t.maxScore), t.blocks);
      } else {
        std::cout << fmt::format("  term  {:<{}} not in the index\n", t.text, width);
      }
    }
    if (listed < result.query.terms.size()) {
      const std::size_t more = result.query.terms.size() - listed;
      std::cout << fmt::format("  ... and {} more {} (--explain or --json lists every term)\n", engine::grouped(more),
                               more == 1 ? "term" : "terms");
    }
    std::cout << fmt::format("path    {} ({})\n", engine::algorithmName(result.algorithm), result.reason);
    // The switches that were off, if any: the path's reason names one only when it changed the plan.
    const std::string off = request.options.switchesOff();
    if (!off.empty()) std::cout << fmt::format("opts    {} (the other switches on)\n", off);
    if (!result.mergeKernels.empty()) std::cout << fmt::format("kernels {} (block intersection)\n", result.mergeKernels);
    std::cout << fmt::format("time    {:.3f} ms wall, {:.3f} ms CPU (including analysis and cursor setup)\n\n",
                             wallMs, cpuMs);
    if (result.hits.empty()) std::cout << "no results\n";
    for (std::size_t i = 0; i < result.hits.size(); ++i) {
      const auto& h = result.hits[i];
      const auto stored = index->storedDocument(h.doc);
      const std::string label = !stored.title.empty() ? stored.title : stored.text;
      std::cout << fmt::format("{:>5}  {:<16} {:>12}  {}\n", i + 1, shorten(index->externalId(h.doc), 16),
                               engine::exactFigure(h.score), shorten(label, 60));
      if (!result.explain.empty()) {
        const auto& e = result.explain[i];
        std::string parts;
        for (std::size_t t = 0; t < result.query.terms.size(); ++t) {
          if (!result.query.terms[t].id) continue;  // not in the index: no contribution to show
          parts += fmt::format("  {}: tf {} -> {}", result.query.terms[t].text, e.tf[t], engine::exactFigure(e.contribution[t]));
        }
        std::cout << fmt::format("       length {}{}\n", e.docLength, parts);
      }
    }
    std::cout << '\n';
    std::string counters;
    result.counters.forEach([&](const char* name, std::uint64_t v) {
      if (v != 0) counters += fmt::format("{}{}={}", counters.empty() ? "" : " ", name, v);
    });
    std::cout << "counters " << (counters.empty() ? "(all 0)" : counters) << '\n';
    if (!std::isnan(result.kthScore)) {
      std::cout << fmt::format("k-th score {}{}\n", engine::exactFigure(result.kthScore),
                               result.tieAtK ? " (tied with a document outside the top k)" : "");
    }
    return 0;
  });
}

}  // namespace wandscope::app
