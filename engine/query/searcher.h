// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/index/index.h"
#include "engine/query/search_request.h"
#include "engine/query/search_result.h"

namespace wandscope::engine {

// Runs one query against an index: analysis, planning (`auto`), evaluation on the chosen path,
// explain. Thread-safe: any number of threads may search the same Index at once (each keeps its
// own analyzer). Throws Error(Usage) for impossible requests (k over kMaxK, an algorithm that does
// not apply to the operator, too many terms).
SearchResult search(const Index& index, const SearchRequest& request);

// SearchResult::tieAtK made exact for a finished search of `request` (SearchRequest::exactTie
// describes how); what search() gives with exactTie set. For callers that time search() and
// want the exact value afterwards, untimed (the workbench).
bool exactTieAtK(const Index& index, const SearchRequest& request, const SearchResult& result);

// Explains given hits of a parsed query: per-term tf and contribution. Independent of the path
// that found them (it looks every term up again).
std::vector<HitExplain> explainHits(const Index& index, const ParsedQuery& query,
                                    const std::vector<Hit>& hits);

}  // namespace wandscope::engine
