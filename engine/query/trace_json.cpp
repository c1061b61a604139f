// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/trace_json.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace wandscope::engine {
namespace {
nlohmann::json number(float v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }
nlohmann::json doc(DocId d) { return d == kNoMoreDocs ? nlohmann::json(nullptr) : nlohmann::json(d); }
}  // namespace

std::string traceToJson(const TraceRecorder& trace, bool pretty) {
  nlohmann::json events = nlohmann::json::array();
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
    events.push_back(std::move(j));
  }
  nlohmann::json out = {{"algorithm", trace.algorithm},
                        {"terms", trace.terms()},
                        {"max_events", trace.maxEvents()},
                        {"truncated", trace.truncated()},
                        {"dropped_events", trace.dropped()},
                        {"events", std::move(events)}};
  return pretty ? out.dump(1) + "\n" : out.dump() + "\n";
}

}  // namespace wandscope::engine
