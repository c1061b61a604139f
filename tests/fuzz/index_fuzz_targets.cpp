// SPDX-License-Identifier: GPL-3.0-or-later
// The index file readers. CRC-32s catch random damage before any structure is read, so random
// bytes alone would only ever exercise the checksum check. These targets therefore repair what a
// checksum protects: the input becomes a file whose header, footer and CRC are valid and which the
// manifest lists with the right size and CRC (or a manifest with a valid CRC line), so the
// fuzzer reaches the structural validation behind them: what a malicious or buggy writer could
// produce. Opening must then fail with Error(Index), or the index must answer queries on every
// path without reading outside its files.
#include "engine/core/checksum.h"
#include "engine/core/error.h"
#include "engine/index/format.h"
#include "engine/index/index.h"
#include "tests/fuzz/fuzz_support.h"
#include "tests/fuzz/fuzz_targets.h"

#include <cstdlib>
#include <cstring>

namespace wandscope::test {
namespace {

namespace fs = std::filesystem;

std::uint32_t crcOf(const std::vector<std::uint8_t>& bytes) {
  return engine::crc32Of(std::as_bytes(std::span<const std::uint8_t>(bytes)));
}

void openAndSearch(const fs::path& dir) {
  try {
    const auto index = engine::Index::open(dir);
    queryEveryPath(*index, "w0 w1 w2", /*checkParity=*/false);
    queryEveryPath(*index, "w0 w7", /*checkParity=*/false);
    fuzzNote("opened and searched");
  } catch (const engine::Error& e) {
    fuzzNote(std::string("refused: ") + e.what());
    if (e.kind() != engine::ErrorKind::Index) std::abort();
  }
}

void restore(const FuzzTemplateIndex& t, const fs::path& file, const std::vector<std::uint8_t>& original) {
  writeFuzzFile(file, original.data(), original.size());
  writeFuzzFile(t.dir / t.manifestName, t.manifestBytes.data(), t.manifestBytes.size());
  writeFuzzFile(t.dir / "CURRENT", t.currentBytes.data(), t.currentBytes.size());
}

}  // namespace

// Input: one selector byte, then the file. Selector bits 0-2 pick the kind (terms, postings,
// bounds, docs, store) and bit 3 the segment (0 or 1); with bit 7 clear the rest is the payload
// and gets a valid header and footer, with bit 7 set it is the whole file as is.
int fuzzIndexSegment(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto& t = fuzzTemplateIndex();
  const auto kind = static_cast<engine::format::FileKind>(1 + (data[0] & 7) % 5);
  const std::uint32_t segment = (data[0] >> 3) & 1;
  const bool raw = (data[0] & 0x80) != 0;
  engine::Manifest manifest = t.manifest;
  auto& info = manifest.segments.at(segment).files.at(std::string(engine::format::fileKindName(kind)));
  const fs::path file = t.dir / info.name;
  static std::vector<std::uint8_t> originals[2][6];
  auto& original = originals[segment][static_cast<int>(kind)];
  if (original.empty()) original = readFuzzFile(file);

  std::vector<std::uint8_t> bytes;
  if (raw) {
    bytes.assign(data + 1, data + size);
    std::uint32_t footerCrc = 0;
    if (bytes.size() >= sizeof(engine::format::FileFooter)) {
      std::memcpy(&footerCrc, bytes.data() + bytes.size() - 8, 4);
    }
    info.crc32 = footerCrc;
  } else {
    engine::format::FileHeader header{};
    std::memcpy(header.magic, engine::format::kMagic, sizeof(header.magic));
    header.formatVersion = engine::format::kFormatVersion;
    header.fileKind = static_cast<std::uint32_t>(kind);
    header.segmentId = manifest.segments.at(segment).id;
    header.headerBytes = sizeof(header);
    const auto* h = reinterpret_cast<const std::uint8_t*>(&header);
    bytes.assign(h, h + sizeof(header));
    bytes.insert(bytes.end(), data + 1, data + size);
    engine::format::FileFooter footer{};
    footer.payloadBytes = size - 1;
    footer.crc32 = crcOf(bytes);
    footer.magic = engine::format::kFooterMagic;
    const auto* f = reinterpret_cast<const std::uint8_t*>(&footer);
    bytes.insert(bytes.end(), f, f + sizeof(footer));
    info.crc32 = footer.crc32;
  }
  info.bytes = bytes.size();
  writeFuzzFile(file, bytes.data(), bytes.size());
  writeFuzzFile(t.dir / t.manifestName, manifest.serialize());
  openAndSearch(t.dir);
  restore(t, file, original);
  return 0;
}

// Input: the manifest's JSON body (a valid CRC line is appended), or with a first byte 0x01 the
// rest is CURRENT as is.
int fuzzIndexManifest(const std::uint8_t* data, std::size_t size) {
  const auto& t = fuzzTemplateIndex();
  if (size > 0 && data[0] == 0x01) {
    writeFuzzFile(t.dir / "CURRENT", data + 1, size - 1);
  } else {
    std::vector<std::uint8_t> body(data, data + size);
    char line[32];
    std::snprintf(line, sizeof line, "# crc32 %08x\n", crcOf(body));
    body.insert(body.end(), line, line + std::strlen(line));
    writeFuzzFile(t.dir / t.manifestName, body.data(), body.size());
  }
  openAndSearch(t.dir);
  restore(t, t.dir / "CURRENT", t.currentBytes);
  return 0;
}

void writeIndexSeeds(const fs::path& corpusDir) {
  const auto& t = fuzzTemplateIndex();
  const fs::path segments = corpusDir / "index_segment";
  const fs::path manifests = corpusDir / "index_manifest";
  fs::create_directories(segments);
  fs::create_directories(manifests);
  constexpr std::size_t kHeader = sizeof(engine::format::FileHeader);
  constexpr std::size_t kFooter = sizeof(engine::format::FileFooter);
  static constexpr const char* kSeedNames[5] = {"terms", "post", "bounds", "docs", "store"};  // by selector
  for (std::uint32_t segment = 0; segment < 2; ++segment) {
    for (std::uint8_t k = 0; k < 5; ++k) {
      const auto kind = static_cast<engine::format::FileKind>(1 + k);
      const std::string kindName = kSeedNames[k];
      const auto& info = t.manifest.segments.at(segment).files.at(std::string(engine::format::fileKindName(kind)));
      const auto file = readFuzzFile(t.dir / info.name);
      const auto selector = static_cast<std::uint8_t>(k | (segment << 3));
      std::vector<std::uint8_t> seed{selector};  // the payload: the target adds header and footer
      seed.insert(seed.end(), file.begin() + kHeader, file.end() - kFooter);
      writeFuzzFile(segments / ("seed-seg" + std::to_string(segment) + "-" + kindName), seed.data(), seed.size());
      if (segment == 0 && (kind == engine::format::FileKind::Postings || kind == engine::format::FileKind::Docs)) {
        seed.assign(1, static_cast<std::uint8_t>(selector | 0x80));  // the whole file as is
        seed.insert(seed.end(), file.begin(), file.end());
        writeFuzzFile(segments / ("seed-raw-seg0-" + kindName), seed.data(), seed.size());
      }
    }
  }
  // The manifest's body without its CRC line (the target appends a valid one).
  std::string body(t.manifestBytes.begin(), t.manifestBytes.end());
  body.erase(body.rfind("# crc32 "));
  writeFuzzFile(manifests / "seed-manifest", body);
}

}  // namespace wandscope::test
