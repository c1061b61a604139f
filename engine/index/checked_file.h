// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/file_writer.h"
#include "engine/core/mapped_file.h"
#include "engine/index/format.h"

#include <cstdint>
#include <filesystem>
#include <span>

namespace wandscope::engine {

// Writes one index file: header, payload (through writer()), footer with size and CRC-32.
class CheckedFileWriter {
 public:
  CheckedFileWriter(const std::filesystem::path& path, format::FileKind kind, std::uint32_t segmentId);

  FileWriter& writer() noexcept { return m_writer; }
  // Offset of the next payload byte from the start of the file (structures align to it).
  std::uint64_t position() const noexcept { return m_writer.position(); }
  // Writes the footer and fsyncs. Returns the total file size.
  std::uint64_t finish();
  std::uint32_t crc() const noexcept { return m_crc; }

 private:
  FileWriter m_writer;
  std::uint32_t m_crc = 0;
};

// An opened and verified index file. The payload span starts right after the header; offsets
// inside the format are file offsets, so `file` is kept for them.
struct CheckedFile {
  MappedFile file;
  std::span<const std::byte> payload;
  std::uint32_t crc = 0;

  // Bounds-checked typed view of `count` T at file offset `offset`; throws Error(Index) naming the
  // file and `what` when it does not fit in the payload or is misaligned.
  template <typename T>
  std::span<const T> array(std::uint64_t offset, std::uint64_t count, const char* what) const;
  template <typename T>
  const T& object(std::uint64_t offset, const char* what) const {
    return array<T>(offset, 1, what)[0];
  }
  [[noreturn]] void corrupt(const std::string& what) const;
};

// Opens, maps and verifies `path`: magic, format version, kind, segment id, size against the
// footer (truncation) and, when `verifyChecksum`, the CRC-32. Every failure is Error(Index) with a
// message that names the file: "seg-000002.post: checksum mismatch, the file is corrupt".
CheckedFile openCheckedFile(const std::filesystem::path& path, format::FileKind kind,
                            std::uint32_t segmentId, bool verifyChecksum = true);

template <typename T>
std::span<const T> CheckedFile::array(std::uint64_t offset, std::uint64_t count, const char* what) const {
  const std::uint64_t begin = static_cast<std::uint64_t>(payload.data() - file.data());
  const std::uint64_t end = begin + payload.size();
  if (offset < begin || offset > end || count > (end - offset) / sizeof(T) ||
      offset % alignof(T) != 0) {
    corrupt(std::string(what) + " lies outside the file or is misaligned");
  }
  return {reinterpret_cast<const T*>(file.data() + offset), static_cast<std::size_t>(count)};
}

}  // namespace wandscope::engine
