// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace wandscope::engine {

// Reads a text file line by line, transparently gunzipping when the file starts with the gzip
// magic (whatever its name). Lines end at '\n'; a trailing '\r' is removed. Throws Error(Io) when
// the file cannot be read and Error(BadInput) "file: corrupt gzip stream" on a damaged .gz.
class LineReader {
 public:
  explicit LineReader(const std::filesystem::path& path);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line without its terminator, valid until the next call; false at end of file.
  bool next(std::string_view& line);

  std::uint64_t lineNumber() const noexcept { return m_lineNumber; }  // 1-based, of the last line
  std::uint64_t bytesConsumed() const noexcept;
  std::uint64_t fileSize() const noexcept { return m_fileSize; }
  const std::filesystem::path& path() const noexcept { return m_path; }

 private:
  bool fill();

  std::filesystem::path m_path;
  void* m_gz = nullptr;  // gzFile
  int m_fd = -1;
  bool m_eof = false;
  std::string m_buffer;
  std::size_t m_start = 0;
  std::string m_line;
  std::uint64_t m_lineNumber = 0;
  std::uint64_t m_fileSize = 0;
  std::uint64_t m_rawConsumed = 0;
};

}  // namespace wandscope::engine
