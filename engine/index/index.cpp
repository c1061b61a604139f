// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/index/index.h"

#include "engine/core/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <thread>

namespace wandscope::engine {

std::shared_ptr<const Index> Index::open(const std::filesystem::path& dir) {
  std::shared_ptr<Index> index(new Index());
  index->m_dir = dir;
  index->m_manifest = readCurrentManifest(dir);
  const Manifest& m = index->m_manifest;
  index->m_analyzerKind = Analyzer::kindFromIdentity(m.analyzer);
  try {
    validateBm25Params(m.bm25);
  } catch (const Error& e) {
    throwIndex(dir.string() + ": manifest has invalid BM25 parameters: " + e.what());
  }
  index->m_bm25 = Bm25(m.bm25, m.docs, m.totalTokens);

  // Open (and checksum) segments in parallel: verification reads every byte.
  const std::size_t n = m.segments.size();
  index->m_segments.resize(n);
  std::vector<std::exception_ptr> errors(n);
  const unsigned workers = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(),
                                                             static_cast<unsigned>(n)));
  {
    std::vector<std::jthread> threads;
    for (unsigned w = 0; w < workers; ++w) {
      threads.emplace_back([&, w] {
        for (std::size_t s = w; s < n; s += workers) {
          try {
            index->m_segments[s] = std::make_unique<SegmentReader>(dir, m.segments[s],
                                                                   static_cast<std::uint32_t>(s), true);
          } catch (...) {
            errors[s] = std::current_exception();
          }
        }
      });
    }
  }
  for (const auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }

  const Bm25& bm25 = index->m_bm25;
  for (const auto& seg : index->m_segments) {
    const auto* h = seg->boundsHeader();
    if (h->k1 != bm25.params().k1 || h->b != bm25.params().b || h->avgdl != bm25.avgdl()) {
      throwIndex(fmt::format("{}: block maxima were computed for k1={} b={} avgdl={}, the index has "
                             "k1={} b={} avgdl={} (the index is inconsistent; rebuild it)",
                             seg->boundsFileName(), h->k1, h->b,
                             h->avgdl, bm25.params().k1, bm25.params().b, bm25.avgdl()));
    }
    index->m_segmentBases.push_back(seg->docBase());
  }
  // The manifest's CRC only proves it was not damaged after writing; its per-segment counts feed
  // statistics() (bits per posting in `index info`), so they must be the files' own.
  for (std::size_t s = 0; s < n; ++s) {
    const auto& seg = *index->m_segments[s];
    const SegmentInfo& info = m.segments[s];
    std::uint64_t postings = 0;
    std::uint64_t blocks = 0;
    for (std::uint32_t t = 0; t < seg.termCount(); ++t) {
      postings += seg.entry(t).df;
      blocks += seg.entry(t).blockCount;
    }
    const auto disagree = [&](std::string_view field, std::uint64_t stated, std::uint64_t actual) {
      throwIndex(fmt::format("{}: segment {} states {} {}, its files hold {} (the manifest is inconsistent; "
                             "rebuild the index)",
                             manifestFileName(m.generation), info.id, stated, field, actual));
    };
    if (info.postings != postings) disagree("postings", info.postings, postings);
    if (info.terms != seg.termCount()) disagree("terms", info.terms, seg.termCount());
    if (info.blocks != blocks) disagree("blocks", info.blocks, blocks);
  }

  // Global lexicon: merge the segments' sorted dictionaries.
  struct Ref {
    std::string_view text;
    std::uint32_t segment;
    std::uint32_t entry;
  };
  std::vector<Ref> refs;
  for (std::uint32_t s = 0; s < n; ++s) {
    const auto& seg = *index->m_segments[s];
    for (std::uint32_t t = 0; t < seg.termCount(); ++t) refs.push_back({seg.term(t), s, t});
  }
  std::sort(refs.begin(), refs.end(), [](const Ref& a, const Ref& b) {
    return a.text != b.text ? a.text < b.text : a.segment < b.segment;
  });
  for (std::size_t i = 0; i < refs.size();) {
    TermInfo info;
    info.text = refs[i].text;
    info.firstPart = static_cast<std::uint32_t>(index->m_parts.size());
    std::size_t j = i;
    for (; j < refs.size() && refs[j].text == refs[i].text; ++j) {
      const auto& seg = *index->m_segments[refs[j].segment];
      const auto& entry = seg.entry(refs[j].entry);
      info.df += entry.df;
      info.cf += entry.cf;
      info.blocks += entry.blockCount;
      info.maxWeight = std::max(info.maxWeight, seg.postingList(refs[j].entry).maxWeight);
      index->m_parts.push_back({refs[j].segment, refs[j].entry});
    }
    info.partCount = static_cast<std::uint32_t>(j - i);
    // Texts are unique here (grouped above), so the table's ids are m_terms' positions.
    if (index->m_lookup.intern(info.text) != index->m_terms.size()) {
      throwInternal("index term table out of step with the term list at '" + std::string(info.text) + "'");
    }
    index->m_terms.push_back(info);
    i = j;
  }

  index->m_norms.resize(m.docs);
  for (const auto& seg : index->m_segments) {
    const auto lengths = seg->docLengths();
    for (std::uint32_t d = 0; d < lengths.size(); ++d) {
      index->m_norms[seg->docBase() + d] = bm25.lengthNorm(lengths[d]);
    }
  }
  return index;
}

std::optional<TermId> Index::findTerm(std::string_view text) const {
  const std::uint32_t id = m_lookup.find(text);
  if (id == TermTable::kNotFound) return std::nullopt;
  return id;
}

const SegmentReader& Index::segmentOf(DocId doc) const noexcept {
  const auto it = std::upper_bound(m_segmentBases.begin(), m_segmentBases.end(), doc);
  return *m_segments[static_cast<std::size_t>(it - m_segmentBases.begin()) - 1];
}

IndexStatistics Index::statistics() const {
  IndexStatistics s;
  s.docs = m_manifest.docs;
  s.terms = m_terms.size();
  s.totalTokens = m_manifest.totalTokens;
  s.segments = static_cast<std::uint32_t>(m_segments.size());
  s.avgdl = m_bm25.avgdl();
  for (const auto& info : m_manifest.segments) {
    s.postings += info.postings;
    s.blocks += info.blocks;
  }
  for (const auto& seg : m_segments) {
    s.termsBytes += seg->fileBytes(format::FileKind::Terms);
    s.postingsBytes += seg->fileBytes(format::FileKind::Postings);
    s.boundsBytes += seg->fileBytes(format::FileKind::Bounds);
    s.docsBytes += seg->fileBytes(format::FileKind::Docs);
    s.storeBytes += seg->fileBytes(format::FileKind::Store);
  }
  return s;
}

}  // namespace wandscope::engine
