// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The on-disk index format, version 1. docs/FORMAT.md is the prose version of this file; keep the
// two in step. All integers are little-endian (the only byte order this code runs on; checked at
// compile time below), every structure is naturally aligned inside a mapped file.

#include <bit>
#include <cstdint>
#include <string_view>

namespace wandscope::engine::format {

static_assert(std::endian::native == std::endian::little, "the index format is little-endian");

inline constexpr std::uint32_t kFormatVersion = 2;  // 2: packed tails
inline constexpr char kMagic[8] = {'W', 'S', 'C', 'O', 'P', 'E', 'I', 'X'};
inline constexpr std::uint32_t kFooterMagic = 0x444E4557u;  // "WEND"

// The kinds of file a segment is made of. A segment is self-contained: its files hold everything
// about its documents; only the bounds file depends on collection-wide statistics.
enum class FileKind : std::uint32_t {
  Terms = 1,     // term dictionary: sorted terms with df, cf and where their postings are
  Postings = 2,  // posting lists: skip table + BP128 blocks (+ a packed or varint tail)
  Bounds = 3,    // block-max and list-max BM25 weights, for one set of global statistics
  Docs = 4,      // document lengths and external ids
  Store = 5,     // stored title and text, zlib-compressed in chunks
};

std::string_view fileKindName(FileKind kind) noexcept;      // "terms", "postings", ...
std::string_view fileKindExtension(FileKind kind) noexcept; // ".terms", ".post", ...

// Every file starts with this header and ends with a footer. The CRC-32 covers the header and the
// payload, so any flipped bit is found; the footer's payload size finds truncation.
struct FileHeader {
  char magic[8];
  std::uint32_t formatVersion;
  std::uint32_t fileKind;
  std::uint32_t segmentId;
  std::uint32_t headerBytes;  // sizeof(FileHeader)
  std::uint64_t reserved;     // 0
};
static_assert(sizeof(FileHeader) == 32);

struct FileFooter {
  std::uint64_t payloadBytes;
  std::uint32_t crc32;  // of header + payload
  std::uint32_t magic;  // kFooterMagic
};
static_assert(sizeof(FileFooter) == 16);

// ---- .terms --------------------------------------------------------------------------------
// payload: TermsHeader, TermEntry[termCount] sorted by term bytes, then the term string pool.
struct TermsHeader {
  std::uint32_t termCount;
  std::uint32_t reserved;
  std::uint64_t totalBlocks;
  std::uint64_t poolBytes;
  std::uint64_t reserved2;
};
static_assert(sizeof(TermsHeader) == 32);

struct TermEntry {
  std::uint64_t postingsOffset;  // file offset of the term's skip table in the .post file
  std::uint64_t cf;              // collection frequency in this segment (sum of tf)
  std::uint64_t stringOffset;    // offset of the term bytes in the pool
  std::uint32_t stringLength;
  std::uint32_t df;              // documents in this segment containing the term
  std::uint32_t blockCount;      // ceil(df / 128)
  std::uint32_t firstBlock;      // index of the term's first block in the segment's block order
};
static_assert(sizeof(TermEntry) == 40);

// ---- .post ---------------------------------------------------------------------------------
// Each list starts with its skip table (one entry per block), then the blocks; 16-byte aligned
// when it holds a full block (df >= 128), else 4-byte aligned.
// A full block is BP128 doc gaps (stored as gap - 1) followed by BP128 (tf - 1), each
// 16 * width bytes. The last block of a list holds the remaining 1..128 postings. With fewer than
// 128 it is a tail: from kPackedTailMinPostings postings on a packed tail, the two BP128 streams of
// a full block whose later values are 0, each cut after the rows its postings fill
// (codec::bp128PrefixWords); with fewer a varint tail: per posting a varint of
// ((gap - 1) << 1) | (tf == 1), then, only when tf > 1, a varint of (tf - 2) (docs/FORMAT.md).
// The first gap of a list is taken from (docBase - 1), mod 2^32.
struct SkipEntry {
  std::uint32_t lastDoc;     // global doc id of the block's last posting
  std::uint32_t dataOffset;  // byte offset of the block's data from the start of the skip table
  std::uint32_t dataBytes;   // bytes of doc + frequency data
  std::uint8_t docWidth;     // BP128 width of the doc gaps (0..32); 0 for a varint tail
  std::uint8_t freqWidth;    // BP128 width of tf - 1 (0..32); 0 for a varint tail
  std::uint8_t countMinus1;  // postings in the block minus one (0..127)
  std::uint8_t flags;        // 0 (a full block), kSkipVarintTail or kSkipPackedTail
};
static_assert(sizeof(SkipEntry) == 16);
inline constexpr std::uint8_t kSkipVarintTail = 1;
inline constexpr std::uint8_t kSkipPackedTail = 2;
// A tail of this many postings or more is packed, a shorter one is a varint tail. Unpacking a
// BP128 block costs about as much as decoding this many varints (wandscope_bench tail_decode).
inline constexpr std::uint32_t kPackedTailMinPostings = 32;

// ---- .bounds -------------------------------------------------------------------------------
// payload: BoundsHeader, f32 listMaxWeight[termCount], f32 blockMaxWeight[totalBlocks], then,
// when rankCount == kRankWeightCount, f32 rankWeight[termCount][kRankWeightCount].
// A weight is BM25's W(tf, dl) (docs/SCORING.md); the score bound is idf * weight, exact because
// f32 multiplication by a positive constant is monotone. The header stamps the statistics the
// weights were computed with; a reader whose statistics differ must not use them.
// rankWeight[t][i] is the kRankWeightRanks[i]-th largest weight of term t's list (0 when the list
// is shorter): that many documents score at least idf * it on t alone, a floor for OR top-k
// (docs/ALGORITHMS.md, "The rank floor"). Files written before it have rankCount 0.
inline constexpr std::uint32_t kRankWeightCount = 3;
inline constexpr std::uint32_t kRankWeightRanks[kRankWeightCount] = {10, 100, 1000};
struct BoundsHeader {
  float k1;
  float b;
  float avgdl;
  std::uint32_t termCount;
  std::uint64_t totalBlocks;
  std::uint32_t rankCount;  // 0 (no rank weights) or kRankWeightCount
  std::uint32_t reserved;
};
static_assert(sizeof(BoundsHeader) == 32);

// ---- .docs ---------------------------------------------------------------------------------
// payload: DocsHeader, u32 length[docCount], (8-aligned) u64 idOffset[docCount + 1], id bytes.
struct DocsHeader {
  std::uint32_t docCount;
  std::uint32_t docBase;      // global id of the segment's first document
  std::uint64_t totalTokens;  // sum of lengths
  std::uint64_t idBytes;
  std::uint64_t reserved;
};
static_assert(sizeof(DocsHeader) == 32);

// ---- .store --------------------------------------------------------------------------------
// payload: StoreHeader, u64 chunkOffset[chunkCount + 1] (relative to the first chunk), chunks.
// A chunk is one zlib stream of `docsPerChunk` documents (fewer in the last), each as
// varint(title bytes), title, varint(text bytes), text. An index built without stored text has
// chunkCount 0.
struct StoreHeader {
  std::uint32_t chunkCount;
  std::uint32_t docsPerChunk;
  std::uint64_t rawBytes;  // uncompressed
  std::uint64_t reserved;
  std::uint64_t reserved2;
};
static_assert(sizeof(StoreHeader) == 32);

inline constexpr std::uint32_t kDocsPerStoreChunk = 32;

}  // namespace wandscope::engine::format
