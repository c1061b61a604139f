// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
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

// Whether `s` can be a field of a TREC run line (non-empty, no whitespace: fields are split on it).
bool isTrecField(std::string_view s) noexcept;

// One TREC run line per hit: "qid Q0 docid rank score tag" (rank 1-based, scores written with
// "%.9g", enough digits for an f32 to read back bit-identical). Ids and the tag must be
// non-empty and free of whitespace, else Error(BadInput) (the line could not be read back).
void writeTrecRunQuery(std::ostream& out, const std::string& queryId,
                       const std::vector<RunHit>& hits, const std::string& tag);

// One dump line (JSON): {"qid":..., "hits":[{"doc":"<id>","score":<float>,"bits":"<8 hex>"}]}.
// Scores are printed with "%.9g" so they round-trip (null when not finite: JSON has no inf/nan);
// "bits" is the f32 bit pattern, lower-case hex. Strings are JSON-escaped; ids should be UTF-8.
void writeDumpQuery(std::ostream& out, const std::string& queryId, const std::vector<RunHit>& hits);

// What a reader does with a score that is not finite (inf, nan). A dump round-trips every f32 bit
// pattern, so reading keeps them by default; a run about to be ranked by score (`eval`) cannot
// order them and refuses them: "run.trec:3: score 'nan' is not finite".
enum class NonFiniteScores { Keep, Refuse };

// Reads a TREC run file ("qid Q0 docid rank score tag", whitespace separated). Hits keep the
// file's line order (rank and score are checked, not used to re-sort: evaluate() ranks by score);
// lines of one query need not be adjacent. Errors name file, line and field:
// "run.trec:2: expected 6 fields, found 4".
Run readTrecRun(const std::filesystem::path& path, NonFiniteScores nonFinite = NonFiniteScores::Keep);

// Reads a dump file written by writeDumpQuery (scores restored from "bits", exactly; "score" is
// not read). A query id on two lines is an error naming the second.
Run readDumpRun(const std::filesystem::path& path, NonFiniteScores nonFinite = NonFiniteScores::Keep);

// Reads either format, told apart by the first character ('{' = dump).
Run readRun(const std::filesystem::path& path, NonFiniteScores nonFinite = NonFiniteScores::Keep);

}  // namespace wandscope::engine
