// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/corpus/line_reader.h"

#include "engine/core/error.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <vector>

namespace wandscope::engine {

namespace {

// Why 1 MiB: large enough that read()/inflate() calls are a negligible cost next to parsing
// (one call per ~thousand lines of a typical corpus), small enough to stay cache-friendly. A
// line longer than the buffer doubles it.
constexpr std::size_t kReadBlock = std::size_t{1} << 20;
constexpr std::size_t kGzInputBlock = std::size_t{1} << 18;
// windowBits 15 (the maximum) + 16: gzip wrapper only, header and trailer (CRC-32, size) checked.
constexpr int kGzipWindowBits = 15 + 16;

// The decompression state when the file is gzip. We drive inflate() ourselves rather than use
// gzread() so that truncation is reported (gzread treats a truncated stream as a short read) and
// the count of compressed bytes consumed is exact.
struct GzState {
  z_stream stream{};
  std::vector<unsigned char> input;
  bool inputEof = false;
  bool memberEnded = false;   // the current gzip member ended; another may follow
  std::uint64_t members = 0;  // members started before the current one
  bool done = false;
};

GzState* gzState(void* p) noexcept { return static_cast<GzState*>(p); }

[[noreturn]] void throwCorrupt(const std::filesystem::path& path, const char* reason) {
  throwBadInput(path.string() + ": corrupt gzip stream (" + reason + ")");
}

}  // namespace

LineReader::LineReader(const std::filesystem::path& path, std::uint64_t maxLineBytes)
    : m_path(path), m_maxLineBytes(maxLineBytes) {
  m_fd = ::open(m_path.c_str(), O_RDONLY | O_CLOEXEC);
  // A missing or unreadable input is a bad input file (exit code 3, docs/RELIABILITY.md), not an
  // I/O failure of the run.
  if (m_fd < 0) {
    const int saved = errno;
    throwBadInput("cannot open " + m_path.string() + ": " + std::strerror(saved));
  }
  try {
    struct stat st {};
    if (::fstat(m_fd, &st) != 0) throwErrno("cannot stat " + m_path.string());
    if (S_ISDIR(st.st_mode)) throwBadInput("cannot read " + m_path.string() + ": is a directory");
    m_fileSize = S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;

    // Read the first block raw; its first two bytes tell plain from gzip. Reading (not pread)
    // keeps pipes and other unseekable inputs working. Small files get a small buffer (one byte
    // spare, so the whole file and its end are seen in two reads).
    m_buffer.resize(S_ISREG(st.st_mode)
                        ? static_cast<std::size_t>(std::clamp<std::uint64_t>(m_fileSize + 1, 4096, kReadBlock))
                        : kReadBlock);
    std::size_t have = 0;
    while (have < 2) {
      const ssize_t n = ::read(m_fd, m_buffer.data() + have, m_buffer.size() - have);
      if (n < 0) {
        if (errno == EINTR) continue;
        throwErrno("cannot read " + m_path.string());
      }
      if (n == 0) {
        m_eof = true;
        break;
      }
      have += static_cast<std::size_t>(n);
    }
    m_rawConsumed = have;
    const bool gzip = have >= 2 && static_cast<unsigned char>(m_buffer[0]) == 0x1f &&
                      static_cast<unsigned char>(m_buffer[1]) == 0x8b;
    if (!gzip) {
      m_end = have;
    } else {
      auto* gz = new GzState;
      m_gz = gz;
      if (inflateInit2(&gz->stream, kGzipWindowBits) != Z_OK) {
        delete gz;
        m_gz = nullptr;
        throwInternal("cannot initialise zlib for " + m_path.string());
      }
      gz->input.resize(std::max(kGzInputBlock, have));
      std::memcpy(gz->input.data(), m_buffer.data(), have);
      gz->stream.next_in = gz->input.data();
      gz->stream.avail_in = static_cast<uInt>(have);
      gz->inputEof = m_eof;
      m_eof = false;
      m_end = 0;
    }
  } catch (...) {
    close();
    throw;
  }
}

LineReader::~LineReader() { close(); }

void LineReader::close() noexcept {
  if (m_gz != nullptr) {
    inflateEnd(&gzState(m_gz)->stream);
    delete gzState(m_gz);
    m_gz = nullptr;
  }
  if (m_fd >= 0) {
    ::close(m_fd);
    m_fd = -1;
  }
}

bool LineReader::next(std::string_view& line) {
  for (;;) {
    if (m_start < m_end) {
      const char* base = m_buffer.data();
      const void* newline = std::memchr(base + m_start, '\n', m_end - m_start);
      std::size_t stop = 0;
      std::size_t resume = 0;
      if (newline != nullptr) {
        stop = static_cast<std::size_t>(static_cast<const char*>(newline) - base);
        resume = stop + 1;
      } else if (m_eof) {
        stop = m_end;  // the last line has no terminator
        resume = m_end;
      } else if (m_end - m_start > m_maxLineBytes) {
        skipLongLine();
        line = {};
        return true;
      } else {
        fill();
        continue;
      }
      std::string_view view(base + m_start, stop - m_start);
      m_start = resume;
      if (!view.empty() && view.back() == '\r') view.remove_suffix(1);
      if (m_lineNumber == 0 && view.starts_with("\xEF\xBB\xBF")) view.remove_prefix(3);
      ++m_lineNumber;
      m_lineBytes = view.size();
      m_lineTooLong = view.size() > m_maxLineBytes;  // one that fitted in the buffer after all
      line = m_lineTooLong ? std::string_view{} : view;
      return true;
    }
    if (m_eof) return false;
    fill();
  }
}

// The line starting at m_start is over the limit and holds no newline yet: counts its bytes up to
// the next newline (or the end of the file), dropping them read block by read block.
void LineReader::skipLongLine() {
  std::uint64_t bytes = m_end - m_start;
  char last = m_buffer[m_end - 1];
  m_start = m_end;
  while (!m_eof) {
    fill();
    if (m_start == m_end) continue;
    const char* base = m_buffer.data();
    const void* newline = std::memchr(base + m_start, '\n', m_end - m_start);
    const std::size_t stop = newline != nullptr ? static_cast<std::size_t>(static_cast<const char*>(newline) - base) : m_end;
    bytes += stop - m_start;
    if (stop > m_start) last = base[stop - 1];
    m_start = newline != nullptr ? stop + 1 : m_end;
    if (newline != nullptr) break;
  }
  if (last == '\r') --bytes;
  ++m_lineNumber;
  m_lineTooLong = true;
  m_lineBytes = bytes;
}

std::uint64_t LineReader::bytesConsumed() const noexcept {
  if (m_gz != nullptr) return m_rawConsumed - gzState(m_gz)->stream.avail_in;
  return m_rawConsumed - (m_end - m_start);
}

// Appends at least one byte of data at m_end, or sets m_eof.
bool LineReader::fill() {
  if (m_start > 0) {
    std::memmove(m_buffer.data(), m_buffer.data() + m_start, m_end - m_start);
    m_end -= m_start;
    m_start = 0;
  }
  if (m_end == m_buffer.size()) {
    m_buffer.resize(std::max(kReadBlock, m_buffer.size() * 2));
  } else if (m_gz != nullptr && m_buffer.size() < kReadBlock) {
    m_buffer.resize(kReadBlock);  // decompressed data outgrows the compressed file's size
  }

  char* out = m_buffer.data() + m_end;
  const std::size_t capacity = m_buffer.size() - m_end;

  if (m_gz == nullptr) {
    for (;;) {
      const ssize_t n = ::read(m_fd, out, capacity);
      if (n < 0) {
        if (errno == EINTR) continue;
        throwErrno("cannot read " + m_path.string());
      }
      if (n == 0) {
        m_eof = true;
        return false;
      }
      m_rawConsumed += static_cast<std::uint64_t>(n);
      m_end += static_cast<std::size_t>(n);
      return true;
    }
  }

  GzState& gz = *gzState(m_gz);
  z_stream& s = gz.stream;
  // Trailing bytes after a complete member that do not start a valid member are ignored, as
  // gzip(1) and zlib's gzread() do (tape padding, for instance).
  const auto garbageAfterMember = [&] { return gz.members > 0 && s.total_out == 0; };

  const auto avail = static_cast<uInt>(std::min<std::size_t>(capacity, std::numeric_limits<uInt>::max()));
  s.next_out = reinterpret_cast<Bytef*>(out);
  s.avail_out = avail;
  while (s.avail_out == avail && !gz.done) {
    if (s.avail_in == 0 && !gz.inputEof) {
      ssize_t n = 0;
      do {
        n = ::read(m_fd, gz.input.data(), gz.input.size());
      } while (n < 0 && errno == EINTR);
      if (n < 0) throwErrno("cannot read " + m_path.string());
      if (n == 0) {
        gz.inputEof = true;
      } else {
        m_rawConsumed += static_cast<std::uint64_t>(n);
        s.next_in = gz.input.data();
        s.avail_in = static_cast<uInt>(n);
      }
    }
    if (gz.memberEnded) {
      if (s.avail_in == 0) {
        if (gz.inputEof) gz.done = true;
        continue;
      }
      inflateReset(&s);
      gz.memberEnded = false;
      ++gz.members;
    }
    // Called even without new input: inflate may still hold output it could not deliver.
    const int rc = inflate(&s, Z_NO_FLUSH);
    switch (rc) {
      case Z_STREAM_END:
        gz.memberEnded = true;
        break;
      case Z_OK:
        break;
      case Z_BUF_ERROR:  // no progress possible: needs input (read at the top of the loop)
        if (s.avail_in == 0 && gz.inputEof) {
          if (!garbageAfterMember()) throwCorrupt(m_path, "unexpected end of file");
          gz.done = true;
        }
        break;
      case Z_DATA_ERROR:
        if (!garbageAfterMember()) throwCorrupt(m_path, s.msg != nullptr ? s.msg : "invalid data");
        gz.done = true;
        break;
      case Z_NEED_DICT:
        throwCorrupt(m_path, "needs a preset dictionary");
      case Z_MEM_ERROR:
        throwIo("out of memory while decompressing " + m_path.string());
      default:
        throwCorrupt(m_path, s.msg != nullptr ? s.msg : "zlib error");
    }
  }
  const std::size_t produced = avail - s.avail_out;
  m_end += produced;
  if (produced == 0) m_eof = true;
  return produced > 0;
}

}  // namespace wandscope::engine
