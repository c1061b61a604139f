// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <string_view>

namespace wandscope::engine {

// Reads a text file line by line, transparently gunzipping when the file starts with the gzip
// magic 1f 8b (whatever its name). Lines end at '\n'; a trailing '\r' is removed, and so is a
// UTF-8 byte order mark at the very start of the file. The last line needs no terminator. Reads
// in large blocks (no system call per line); lines up to `maxLineBytes` are returned whole, and
// every longer line is returned empty with lineTooLong() set and lineBytes() its length (one that
// does not fit in the buffer is read through without being kept, so memory stays within the limit
// plus one read block). Throws
// Error(Io) naming the file when it cannot be opened or read, and Error(BadInput)
// "file: corrupt gzip stream (<zlib's reason>)" on a damaged or truncated .gz.
class LineReader {
 public:
  explicit LineReader(const std::filesystem::path& path,
                      std::uint64_t maxLineBytes = std::numeric_limits<std::uint64_t>::max());
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line without its terminator, valid until the next call; false at end of file.
  bool next(std::string_view& line);

  std::uint64_t lineNumber() const noexcept { return m_lineNumber; }  // 1-based, of the last line
  // Of the last line: whether it was over maxLineBytes (and returned empty), and its length in
  // bytes without the terminator (for a line returned whole, its size).
  bool lineTooLong() const noexcept { return m_lineTooLong; }
  std::uint64_t lineBytes() const noexcept { return m_lineBytes; }
  // For progress: bytes of the file (compressed bytes for .gz) consumed so far. Approximate by
  // at most one read block, since it counts what was read ahead.
  std::uint64_t bytesConsumed() const noexcept;
  std::uint64_t fileSize() const noexcept { return m_fileSize; }
  const std::filesystem::path& path() const noexcept { return m_path; }

 private:
  bool fill();
  void skipLongLine();
  void close() noexcept;

  std::filesystem::path m_path;
  void* m_gz = nullptr;  // inflate state (GzState, see the .cpp) for gzip files, else null
  int m_fd = -1;
  bool m_eof = false;
  std::string m_buffer;     // m_buffer[m_start, m_end) holds data not yet returned
  std::size_t m_start = 0;
  std::size_t m_end = 0;
  std::uint64_t m_lineNumber = 0;
  std::uint64_t m_maxLineBytes;
  bool m_lineTooLong = false;
  std::uint64_t m_lineBytes = 0;
  std::uint64_t m_fileSize = 0;
  std::uint64_t m_rawConsumed = 0;
};

}  // namespace wandscope::engine
