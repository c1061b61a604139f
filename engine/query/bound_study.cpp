// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/query/bound_study.h"

#include "engine/core/error.h"
#include "engine/query/posting_cursor.h"
#include "engine/query/searcher.h"
#include "engine/score/score_bounds.h"

#include <algorithm>
#include <cmath>

namespace wandscope::engine {
namespace {

struct TermPosting {
  DocId doc;
  std::uint32_t term;   // query-order index among the known terms
  std::uint32_t part;   // the segment's list holding it (PostingCursor::blockId() >> 32)
  std::uint32_t index;  // the posting's index in that list
  Score contribution;
  std::uint32_t run;    // index into the term's runs for the current granularity (set per pass)
};

}  // namespace

BoundStudy studyBounds(const Index& index, const std::vector<std::string>& queries, const BoundStudyOptions& options,
                       const ProgressFn& progress) {
  if (options.k == 0) throwUsage("the bound study needs k >= 1 (a k-th score)");
  if (options.granularities.empty()) throwUsage("the bound study needs at least one granularity");
  for (const auto g : options.granularities) {
    if (g == 0) throwUsage("a granularity (postings per bound) must be >= 1");
  }
  BoundStudy study;
  for (const auto g : options.granularities) study.rows.push_back({g, 0, 0.0});
  std::vector<double> shareSum(options.granularities.size(), 0.0);

  for (std::size_t q = 0; q < queries.size(); ++q) {
    if (progress) progress({"bound study", q, queries.size()});
    ++study.queries;
    SearchRequest request;
    request.text = queries[q];
    request.op = options.op;
    request.k = options.k;
    request.algorithm = Algorithm::Exhaustive;
    request.describePlan = false;
    const SearchResult result = search(index, request);
    if (std::isnan(result.kthScore)) continue;  // fewer than k hits: no floor
    ++study.withKth;
    const auto kth = static_cast<double>(result.kthScore);

    // Every posting of every known term, with its place in its segment's list (every block but a
    // list's last holds kBlockSize postings) and its contribution.
    std::vector<TermPosting> postings;
    QueryCounters counters;
    std::uint32_t terms = 0;
    for (const auto& t : result.query.terms) {
      if (!t.id) continue;
      for (PostingCursor c(index, *t.id, counters); c.docId() != kNoMoreDocs; c.next()) {
        const std::uint64_t block = c.blockId();
        const auto inList = static_cast<std::uint32_t>(block) * kBlockSize + c.blockPosition();
        postings.push_back({c.docId(), terms, static_cast<std::uint32_t>(block >> 32), inList, c.score(), 0});
      }
      ++terms;
    }
    std::sort(postings.begin(), postings.end(),
              [](const TermPosting& a, const TermPosting& b) { return a.doc < b.doc || (a.doc == b.doc && a.term < b.term); });
    // The documents considered: runs of postings of one document ([begin, end) into `postings`).
    std::vector<std::pair<std::size_t, std::size_t>> docs;
    for (std::size_t i = 0; i < postings.size();) {
      std::size_t j = i;
      while (j < postings.size() && postings[j].doc == postings[i].doc) ++j;
      if (options.op == Operator::Or || j - i == terms) docs.emplace_back(i, j);
      i = j;
    }
    study.considered += docs.size();

    for (std::size_t r = 0; r < options.granularities.size(); ++r) {
      const std::uint32_t g = options.granularities[r];
      // Per term, the maximum of each run of g postings of one segment's list: a new run starts
      // with a new segment or at the next multiple of g. `postings` is in doc-id order, so each
      // term's postings come in list order.
      std::vector<std::vector<double>> runMax(terms);
      std::vector<const TermPosting*> last(terms, nullptr);  // each term's previous posting
      for (auto& p : postings) {
        const TermPosting*& previous = last[p.term];
        if (previous == nullptr || p.part != previous->part || p.index / g != previous->index / g) {
          runMax[p.term].push_back(0.0);
        }
        previous = &p;
        runMax[p.term].back() = std::max(runMax[p.term].back(), static_cast<double>(p.contribution));
        p.run = static_cast<std::uint32_t>(runMax[p.term].size() - 1);
      }
      std::uint64_t reaching = 0;
      for (const auto& [begin, end] : docs) {
        double bound = 0.0;
        for (std::size_t i = begin; i < end; ++i) bound += runMax[postings[i].term][postings[i].run];
        // Widened and rounded outward as the pruning paths compare bounds with the floor.
        if (!(static_cast<double>(conservativeBound(bound, sumUpperBoundFactor(end - begin))) < kth)) ++reaching;
      }
      study.rows[r].reaching += reaching;
      shareSum[r] += docs.empty() ? 0.0 : static_cast<double>(reaching) / static_cast<double>(docs.size());
    }
  }
  if (progress) progress({"bound study", queries.size(), queries.size()});
  for (std::size_t r = 0; r < study.rows.size(); ++r) {
    study.rows[r].meanQueryShare = study.withKth == 0 ? 0.0 : shareSum[r] / static_cast<double>(study.withKth);
  }
  return study;
}

}  // namespace wandscope::engine
