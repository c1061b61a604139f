// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>
#include <vector>

namespace wandscope::engine {

// A buffered, append-only file writer that keeps a running CRC-32 of everything written.
// Every failure (including a full disk) throws Error(Io) naming the file. `finish()` flushes and
// fsyncs; a writer destroyed without `finish()` leaves a partial file (callers write into a
// temporary directory that is only renamed into place when complete). With `sync` false the file
// is opened for appending, without truncation, and `finish()` does not fsync: for writing into a
// device, a FIFO or a redirected descriptor (/dev/null, a pipe, /dev/stdout after `>>`), which
// cannot be synced (OutputTarget, fs_util.h).
class FileWriter {
 public:
  explicit FileWriter(const std::filesystem::path& path, bool sync = true);
  ~FileWriter();
  FileWriter(const FileWriter&) = delete;
  FileWriter& operator=(const FileWriter&) = delete;

  void write(std::span<const std::byte> bytes);
  void write(const void* data, std::size_t size);
  void writeString(std::string_view text) { write(text.data(), text.size()); }
  template <typename T>
  void writePod(const T& value) {
    write(&value, sizeof(T));
  }
  // Pads with zero bytes up to a multiple of `alignment` (a power of two).
  void alignTo(std::size_t alignment);

  std::uint64_t position() const noexcept { return m_position; }
  std::uint32_t crc() const noexcept { return m_crc; }
  // Resets the running CRC: the next bytes start a new checksummed region.
  void resetCrc() noexcept { m_crc = 0; }
  const std::filesystem::path& path() const noexcept { return m_path; }

  void finish();

 private:
  void flush();

  std::filesystem::path m_path;
  int m_fd = -1;
  std::vector<std::byte> m_buffer;
  std::uint64_t m_position = 0;
  std::uint32_t m_crc = 0;
  bool m_sync = true;
};

}  // namespace wandscope::engine
