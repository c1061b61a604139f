// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/index/checked_file.h"

#include "engine/core/checksum.h"
#include "engine/core/error.h"

#include <fmt/format.h>

#include <cstring>

namespace wandscope::engine {

CheckedFileWriter::CheckedFileWriter(const std::filesystem::path& path, format::FileKind kind,
                                     std::uint32_t segmentId)
    : m_writer(path) {
  format::FileHeader header{};
  std::memcpy(header.magic, format::kMagic, sizeof(header.magic));
  header.formatVersion = format::kFormatVersion;
  header.fileKind = static_cast<std::uint32_t>(kind);
  header.segmentId = segmentId;
  header.headerBytes = sizeof(format::FileHeader);
  m_writer.writePod(header);
}

std::uint64_t CheckedFileWriter::finish() {
  format::FileFooter footer{};
  footer.payloadBytes = m_writer.position() - sizeof(format::FileHeader);
  footer.crc32 = m_writer.crc();
  footer.magic = format::kFooterMagic;
  m_crc = footer.crc32;
  m_writer.writePod(footer);
  m_writer.finish();
  return footer.payloadBytes + sizeof(format::FileHeader) + sizeof(format::FileFooter);
}

void CheckedFile::corrupt(const std::string& what) const {
  throwIndex(file.path().filename().string() + ": " + what + " (the index is corrupt)");
}

CheckedFile openCheckedFile(const std::filesystem::path& path, format::FileKind kind,
                            std::uint32_t segmentId, bool verifyChecksum) {
  const std::string name = path.filename().string();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    throwIndex(fmt::format("{}: missing {} file", path.string(), format::fileKindName(kind)));
  }
  CheckedFile out;
  try {
    out.file = MappedFile(path);
  } catch (const Error& e) {
    throwIndex(e.what());
  }
  const std::size_t size = out.file.size();
  constexpr std::size_t kMin = sizeof(format::FileHeader) + sizeof(format::FileFooter);
  if (size < kMin) {
    throwIndex(fmt::format("{}: truncated ({} bytes, a {} file has at least {})", name, size,
                           format::fileKindName(kind), kMin));
  }
  format::FileHeader header;
  std::memcpy(&header, out.file.data(), sizeof(header));
  if (std::memcmp(header.magic, format::kMagic, sizeof(header.magic)) != 0) {
    throwIndex(name + ": not a wandscope index file (bad magic)");
  }
  if (header.formatVersion != format::kFormatVersion) {
    throwIndex(fmt::format("{}: index format version {}, this build reads version {} (rebuild the index)",
                           name, header.formatVersion, format::kFormatVersion));
  }
  if (header.fileKind != static_cast<std::uint32_t>(kind)) {
    throwIndex(fmt::format("{}: expected a {} file, found kind {}", name, format::fileKindName(kind),
                           header.fileKind));
  }
  if (header.segmentId != segmentId) {
    throwIndex(fmt::format("{}: belongs to segment {}, expected segment {}", name, header.segmentId,
                           segmentId));
  }
  if (header.headerBytes != sizeof(format::FileHeader)) {
    throwIndex(name + ": unexpected header size (the index is corrupt)");
  }
  format::FileFooter footer;
  std::memcpy(&footer, out.file.data() + size - sizeof(footer), sizeof(footer));
  const std::uint64_t expected = sizeof(format::FileHeader) + footer.payloadBytes + sizeof(footer);
  if (footer.magic != format::kFooterMagic || footer.payloadBytes > size || expected != size) {
    throwIndex(fmt::format("{}: truncated or damaged at the end ({} bytes; the footer is not valid)",
                           name, size));
  }
  const auto covered = out.file.bytes().first(sizeof(format::FileHeader) + footer.payloadBytes);
  if (verifyChecksum && crc32Of(covered) != footer.crc32) {
    throwIndex(name + ": checksum mismatch, the file is corrupt");
  }
  out.crc = footer.crc32;
  out.payload = out.file.bytes().subspan(sizeof(format::FileHeader), footer.payloadBytes);
  return out;
}

}  // namespace wandscope::engine
