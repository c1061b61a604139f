// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/index/bounds_writer.h"

#include "engine/index/checked_file.h"

#include <algorithm>
#include <array>
#include <functional>
#include <vector>

namespace wandscope::engine {

SegmentFileInfo writeSegmentBounds(const std::filesystem::path& dir, const SegmentReader& segment,
                                   const Bm25& bm25, std::uint64_t generation) {
  std::vector<float> listMax(segment.termCount(), 0.0f);
  std::vector<float> blockMax;
  std::array<DocId, kBlockSize> docs{};
  std::array<std::uint32_t, kBlockSize> freqs{};
  const auto lengths = segment.docLengths();
  const DocId base = segment.docBase();
  // K(dl) once per document rather than once per posting.
  std::vector<float> norms(lengths.size());
  for (std::size_t d = 0; d < lengths.size(); ++d) norms[d] = bm25.lengthNorm(lengths[d]);
  std::vector<float> rankWeights(std::size_t{segment.termCount()} * format::kRankWeightCount, 0.0f);
  std::vector<float> weights;  // every weight of the current term's list
  for (std::uint32_t t = 0; t < segment.termCount(); ++t) {
    const PostingList list = segment.postingList(t);
    float termMax = 0.0f;
    weights.clear();
    for (std::uint32_t b = 0; b < list.blockCount(); ++b) {
      bool tailFreqs = false;
      const std::uint32_t n = decodeBlockDocs(list, b, docs.data(), freqs.data(), tailFreqs);
      if (!tailFreqs) decodeBlockFreqs(list, b, freqs.data());
      float m = 0.0f;
      for (std::uint32_t i = 0; i < n; ++i) {
        const float w = bm25.weight(freqs[i], norms[docs[i] - base]);
        weights.push_back(w);
        m = std::max(m, w);
      }
      blockMax.push_back(m);
      termMax = std::max(termMax, m);
    }
    listMax[t] = termMax;
    // The r-th largest weights, largest rank first: each nth_element works on the part the
    // previous one left in front.
    auto end = weights.end();
    for (std::uint32_t i = format::kRankWeightCount; i-- > 0;) {
      const std::size_t rank = format::kRankWeightRanks[i];
      if (weights.size() < rank) continue;
      const auto nth = weights.begin() + static_cast<std::ptrdiff_t>(rank - 1);
      std::nth_element(weights.begin(), nth, end, std::greater<float>());
      rankWeights[std::size_t{t} * format::kRankWeightCount + i] = *nth;
      end = nth;
    }
  }

  const std::uint32_t id = segment.id();
  const std::string name = boundsFileName(id, generation);
  CheckedFileWriter file(dir / name, format::FileKind::Bounds, id);
  format::BoundsHeader header{};
  header.k1 = bm25.params().k1;
  header.b = bm25.params().b;
  header.avgdl = bm25.avgdl();
  header.termCount = segment.termCount();
  header.totalBlocks = blockMax.size();
  header.rankCount = format::kRankWeightCount;
  file.writer().writePod(header);
  file.writer().write(listMax.data(), listMax.size() * sizeof(float));
  file.writer().write(blockMax.data(), blockMax.size() * sizeof(float));
  file.writer().write(rankWeights.data(), rankWeights.size() * sizeof(float));
  SegmentFileInfo info;
  info.bytes = file.finish();
  info.crc32 = file.crc();
  info.name = name;
  return info;
}

}  // namespace wandscope::engine
