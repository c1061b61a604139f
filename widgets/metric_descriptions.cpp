// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/metric_descriptions.h"

#include <QHash>

namespace wandscope::widgets {
namespace {

struct Metric {
  const char* key;
  const char* title;
  const char* description;
};

// Counter definitions follow docs/COUNTERS.md; keep them in step.
constexpr Metric kMetrics[] = {
    // Query counters (engine/query/query_counters.h).
    {"postings_decoded", "Postings decoded",
     "Document ids decoded: the sizes of every doc-id block decoded, summed. The main cost of a query. "
     "All paths."},
    {"doc_blocks_decoded", "Doc blocks decoded",
     "Blocks whose document ids were decoded (full blocks of 128 and tails). All paths."},
    {"freq_blocks_decoded", "Freq blocks decoded",
     "Blocks whose term frequencies were used (decoded on demand, so pruned documents may never need "
     "them). All paths."},
    {"blocks_skipped", "Blocks skipped",
     "Blocks a cursor moved past without decoding them (nextGeq beyond the block). All paths; "
     "taat: blocks never scored because their maximum was below the floor (their doc ids were "
     "decoded); the bulk AND's long windows: lead blocks skipped on their bound and other "
     "clauses' blocks passed over undecoded. Not the number of a trace's block-max skips: a skip "
     "is one decision, which may land inside a block already decoded or pass several."},
    {"windows_total", "Windows examined",
     "Windows examined: the bulk AND's (the seed's: from the target to the nearest block end; long "
     "windows: runs of 1 to 64 lead blocks) and the windowed bmm's. bulk-and, bmm."},
    {"windows_skipped_empty", "Windows empty",
     "Windows holding no document common to all clauses. bulk-and only."},
    {"windows_skipped_bound", "Windows skipped by bound",
     "Windows (bulk AND, windowed bmm) or block ranges (block-max AND, bmm document at a time) "
     "skipped because the sum of block maxima could not beat the current k-th score."},
    {"windows_jumped", "Windows jumped",
     "After an empty window, the next one started beyond its end, at the furthest next posting of "
     "the clauses. bulk-and only."},
    {"candidates_seen", "Candidates seen",
     "Documents that reached candidate evaluation: in every list for AND; a pivot or essential-list "
     "document for OR. All paths."},
    {"candidates_pruned_table", "Pruned by table",
     "Candidates rejected by the frequency prune table (the lead term's tf bucket cannot beat the "
     "floor). bulk-and only."},
    {"candidates_pruned_limit", "Pruned by bound",
     "Candidates rejected by a partial-score upper bound before their full score was computed. "
     "bulk-and, bmw, maxscore, bmm."},
    {"full_scores", "Full scores",
     "Documents whose complete BM25 score (all query terms, query order) was computed. All paths."},
    {"heap_inserts", "Heap inserts", "Documents that entered the top-k. All paths."},
    {"threshold_raises", "Threshold raises",
     "Times the floor (the k-th score) rose, including when the heap first filled. All paths."},
    {"wand_pivots", "WAND pivots", "Pivots selected by WAND or Block-Max WAND."},
    {"shallow_advances", "Shallow advances",
     "Moves of a cursor's block pointer without decoding, to read block maxima. bmw, bmm, "
     "block-max-and, bulk-and."},
    {"prune_table_rebuilds", "Prune table rebuilds",
     "Times the bulk AND's frequency prune table was rebuilt because its key, limit or lead block "
     "maximum changed. bulk-and only."},
    {"maxscore_essential", "Essential postings",
     "MaxScore: postings visited in essential lists (those that can still lift a document into the "
     "top k). maxscore, bmm."},
    {"maxscore_non_essential", "Non-essential probes",
     "MaxScore: probes of non-essential lists for a candidate's remaining score. maxscore, bmm."},
    {"windows_bound_first", "Windows bounded first",
     "Windowed bmm: windows whose documents were bounded by the block maxima of the lists holding "
     "them, and only the documents whose bound beat the k-th score were scored. bmm only."},

    // Per query.
    {"wall_ms", "Wall time",
     "Elapsed time of analysis, planning and evaluation on the worker thread, in milliseconds "
     "(snippets and explain are not included). The median of warm repeats after the first run, as "
     "many as fit in 40 ms (at most 31; the label says how many): a first run alone mostly measures "
     "cold caches. A query too slow to repeat shows its one cold run."},
    {"cpu_ms", "CPU time",
     "CPU time the worker thread spent on the same span, in milliseconds "
     "(CLOCK_THREAD_CPUTIME_ID), measured as the wall time is."},
    {"kth_score", "k-th score",
     "Score of the k-th result: the final floor a document had to beat. Empty when fewer than k "
     "documents matched."},
    {"tie_at_k", "Tie at k",
     "A document outside the top k scores exactly the k-th score; the tie was decided by doc id "
     "(lower id first)."},
    {"path", "Path",
     "The evaluation algorithm that actually ran, and why (forced by the selector, or the planner's "
     "auto rule)."},

    {"hits", "Hits", "Results returned: at most k (fewer when fewer documents match)."},
    {"reason", "Reason", "Why this path: forced by the selector, or the planner's rule for auto."},

    // Results.
    {"rank", "Rank", "Position in the top-k: score descending, ties by ascending doc id."},
    {"doc", "Doc",
     "The document's external id (its _id in the corpus); the internal doc id is in the tooltip."},
    {"score", "Score",
     "BM25 score, f32: the sum of the per-term contributions in query order. The tooltip shows "
     "its exact bits."},
    {"title", "Title", "The stored title (empty when the corpus has none)."},
    {"snippet", "Snippet",
     "A window of the stored text around the first query term found, with every word that "
     "analyzes to a query term highlighted."},
    {"match", "Match",
     "Whether the compared path returned the same document with the same score bits at this rank."},

    // Query terms.
    {"term", "Term", "The analyzed query token (lowercased, stemmed by the english analyzer). "
                     "Repeated tokens count once."},
    {"df", "df", "Document frequency: documents containing the term, i.e. its posting-list length."},
    {"cf", "cf", "Collection frequency: occurrences of the term in all documents."},
    {"idf", "idf",
     "Inverse document frequency ln(1 + (N - df + 0.5) / (df + 0.5)), f32. Rare terms weigh more."},
    {"max_score", "Max score",
     "idf times the largest BM25 weight W in the list: no document can get more from this term. "
     "Pruning algorithms compare sums of these with the k-th score."},
    {"blocks", "Blocks",
     "128-document blocks of the term's posting list (all segments). Each has a stored block "
     "maximum used by the block-max paths."},

    // Explain.
    {"tf", "tf", "Term frequency: occurrences of the term in this document (0 if absent)."},
    {"doc_length", "Doc length", "Tokens in the document (title and text) after analysis."},
    {"weight", "W",
     "The saturating BM25 term weight ((k1 + 1) tf) / (tf + K(dl)), K(dl) = k1 ((1 - b) + b dl / "
     "avgdl); contribution = idf * W."},
    {"contribution", "Contribution",
     "idf * W(tf, dl): what this term adds to the document's score. The contributions, added in "
     "query order in f32, give exactly the score."},
    {"share", "Share", "The contribution as a fraction of the document's score."},

    // Index statistics.
    {"path_index", "Directory", "The index directory (the generation its CURRENT file names)."},
    {"docs", "Documents", "Documents in the index (N in the idf formula)."},
    {"terms", "Terms", "Distinct terms in the lexicon."},
    {"postings", "Postings", "(term, document) pairs: the sum of every term's df."},
    {"tokens", "Tokens", "Analyzed tokens over all documents (the sum of document lengths)."},
    {"avgdl", "Average doc length", "Tokens per document (avgdl in BM25's length normalisation)."},
    {"blocks_total", "Blocks", "Posting blocks of up to 128 documents, over all lists and segments."},
    {"segments", "Segments",
     "Segments: ranges of consecutive documents, each with its own lexicon, postings and block "
     "maxima. Queries visit them in doc order."},
    {"analyzer", "Analyzer",
     "How text becomes terms (plain: Unicode letter/digit runs lowercased; english: plus stop words "
     "and the Porter stemmer). Queries use the same analyzer."},
    {"k1", "BM25 k1", "Term-frequency saturation: higher k1 lets repeated terms count for longer."},
    {"b", "BM25 b", "Length normalisation: 0 ignores document length, 1 normalises fully."},
    {"bytes_total", "Size on disk", "Every file of the live generation."},
    {"bytes_terms", "Lexicon", "Term dictionaries of all segments."},
    {"bytes_postings", "Postings", "Posting lists: skip tables, BP128 blocks and tails (packed or varint)."},
    {"bytes_bounds", "Block maxima", "Per-block maximum BM25 weights (the block-max metadata)."},
    {"bytes_docs", "Doc table", "Document lengths and external ids."},
    {"bytes_store", "Stored text", "zlib-compressed titles and texts, for snippets."},
    {"bits_posting", "Bits / posting (lists)", "Posting-list bytes * 8 / postings."},
    {"bits_search", "Bits / posting (search)",
     "Everything a query reads (lexicon, postings, block maxima, doc table) * 8 / postings."},
    {"format", "Format version", "On-disk format version (docs/FORMAT.md)."},
    {"generation", "Generation", "Manifest generation; a commit of new documents makes a new one."},
    {"built_from", "Built from", "The corpus file given to the build."},
    {"build_threads", "Build threads", "Worker threads of the build."},
    {"build_seconds", "Build time", "Wall time of the build."},
    {"created", "Created", "When the build finished (UTC)."},
    {"tool", "Built by", "The tool and version that wrote the index."},
    // Load (benchmark runs, engine/bench/run_types.h).
    {"rung", "Rung", "One measured step of the run: an open-loop rate of the ladder, or a closed-loop cell "
     "(query set x clients x target)."},
    {"load", "Load", "Open loop: the arrival rate asked for (requests/s). Closed loop: the query set and the "
     "number of clients, each sending its next query when the previous one returns."},
    {"target", "Target", "What the requests were sent to: the built-in engine with its options, a synthetic "
     "service, or a peer engine."},
    {"mode", "Mode", "open: requests arrive on a schedule whatever the latency (an open loop, like real users); "
     "closed: a fixed number of clients wait for each answer."},
    {"achieved_rate", "Achieved/s", "Requests completed per second over the rung's measured window."},
    {"completed", "Completed", "Requests completed in the measured window."},
    {"shed", "Shed", "Open loop: requests that arrived while the in-flight cap was full and were dropped "
     "instead of queued (a sign of saturation). Never counted as completed."},
    {"p50_ms", "p50", "Median latency in ms (open loop: from the request's due time, so queueing counts; "
     "closed loop: request latency). Nearest rank over the measured window."},
    {"p99_ms", "p99", "99th-percentile latency in ms, nearest rank. Shown as absent (\u2014) when fewer than "
     "100 samples lie beyond it: such a quantile would be one or two samples, not a measurement."},
    {"cpu_ms_per_query", "CPU ms/query", "Process CPU time over the window divided by the requests "
     "completed: what one query costs, all threads included."},
    {"rss_mib", "RSS", "Resident memory of the process (peak over the rung), MiB."},
    {"verdict", "Verdict", "Open loop: whether the rung sustained its rate under the profile's saturation "
     "rule (pass), broke it (fail, with the criterion) or could not be judged because the generator fell "
     "behind (invalid)."},
    {"thin_quantile", "Absent quantile", "Too few samples for this quantile: the nearest-rank rule needs "
     "at least 100 samples beyond it, so it is shown as absent (\u2014), not as a number that would "
     "describe one or two requests."},
};

const QHash<QString, const Metric*>& table() {
  static const QHash<QString, const Metric*> t = [] {
    QHash<QString, const Metric*> h;
    for (const auto& m : kMetrics) h.insert(QString::fromLatin1(m.key), &m);
    return h;
  }();
  return t;
}

}  // namespace

QString metricDescription(QStringView key) {
  const auto* m = table().value(key.toString());
  return m ? QString::fromUtf8(m->description) : QString();
}

QString metricTitle(QStringView key) {
  const auto* m = table().value(key.toString());
  if (m) return QString::fromUtf8(m->title);
  QString s = key.toString();
  s.replace(QLatin1Char('_'), QLatin1Char(' '));
  if (!s.isEmpty()) s[0] = s[0].toUpper();
  return s;
}

}  // namespace wandscope::widgets
