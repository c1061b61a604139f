// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace wandscope::engine {

struct RunHit {
  std::string docId;  // external document id
  float score = 0.0f;
};

// A ranked run: query id -> hits in rank order (rank 1 first).
struct Run {
  std::map<std::string, std::vector<RunHit>> queries;
};

// One TREC run line: "qid Q0 docid rank score tag" (rank 1-based, score with %.6f... see .cpp:
// scores are written with enough digits to round-trip an f32, "%.9g").
void writeTrecRunQuery(std::ostream& out, const std::string& queryId,
                       const std::vector<RunHit>& hits, const std::string& tag);

// One dump line (JSON): {"qid":..., "hits":[{"doc":"<id>","score":<float>,"bits":"<8 hex>"}]}.
// Scores are printed with "%.9g" so they round-trip; "bits" is the f32 bit pattern, lower-case hex.
void writeDumpQuery(std::ostream& out, const std::string& queryId, const std::vector<RunHit>& hits);

// Reads a TREC run file ("qid Q0 docid rank score tag", whitespace separated). Hits are ordered
// by rank as written in the file (not re-sorted). Errors name file, line and field.
Run readTrecRun(const std::filesystem::path& path);

// Reads a dump file written by writeDumpQuery (scores restored from "bits", exactly).
Run readDumpRun(const std::filesystem::path& path);

// Reads either format, told apart by the first character ('{' = dump).
Run readRun(const std::filesystem::path& path);

}  // namespace wandscope::engine
