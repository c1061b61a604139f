// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/trace_json.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace wandscope::engine {
namespace {
nlohmann::json number(float v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }
nlohmann::json doc(DocId d) { return d == kNoMoreDocs ? nlohmann::json(nullptr) : nlohmann::json(d); }
}  // namespace

std::string traceToJson(const TraceRecorder& trace, bool pretty, const SearchRequest* request) {
  // Written event by event rather than as one document: a document of 100,000 events held many
  // times the memory of its text (and a failed allocation while freeing it ended the process).
  nlohmann::ordered_json head;
  if (request != nullptr) {
    head["request"] = {{"query", request->text},
                       {"op", operatorName(request->op)},
                       {"k", request->k},
                       {"algorithm", algorithmName(request->algorithm)},
                       {"opts", request->options.toString()}};
  }
  head["algorithm"] = trace.algorithm;
  head["long_windows"] = trace.longWindows;
  head["cursors_walked"] = trace.cursorsWalked;
  head["terms"] = trace.terms();
  head["max_events"] = trace.eventLimit();
  head["truncated"] = trace.truncated();
  head["dropped_events"] = trace.dropped();
  const int indent = pretty ? 1 : -1;
  std::string text = head.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
  text.pop_back();  // the closing brace: the events follow
  text += pretty ? ",\n \"events\": [" : ",\"events\":[";
  const auto& all = trace.events();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const TraceEvent& e = all[i];
    nlohmann::json cursors = nlohmann::json::array();
    for (std::size_t t = 0; t < trace.terms().size(); ++t) cursors.push_back(doc(trace.position(i, t)));
    nlohmann::json j = {{"kind", traceEventKindName(e.kind)}};
    if (e.reason != TraceReason::None) j["reason"] = traceReasonName(e.reason);
    if (e.term >= 0) j["term"] = e.term;
    j["doc"] = doc(e.doc);
    j["doc_end"] = doc(e.docEnd);
    j["score"] = number(e.score);
    j["bound"] = number(e.bound);
    j["floor"] = number(e.floor);
    j["cursors"] = std::move(cursors);
    if (i > 0) text += ',';
    if (pretty) text += "\n  ";
    text += j.dump();
  }
  text += pretty ? (all.empty() ? "]\n}\n" : "\n ]\n}\n") : "]}\n";
  return text;
}

}  // namespace wandscope::engine
