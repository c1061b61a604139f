// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/core/file_writer.h"

#include "engine/core/checksum.h"
#include "engine/core/error.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace wandscope::engine {
namespace {
constexpr std::size_t kBufferSize = 1 << 20;
}

FileWriter::FileWriter(const std::filesystem::path& path, bool sync) : m_path(path), m_sync(sync) {
  m_fd = sync ? ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)
              : ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (m_fd < 0) throwErrno((sync ? "cannot create " : "cannot open ") + path.string());
  m_buffer.reserve(kBufferSize);
}

FileWriter::~FileWriter() {
  if (m_fd >= 0) ::close(m_fd);
}

void FileWriter::write(const void* data, std::size_t size) {
  write(std::span<const std::byte>(static_cast<const std::byte*>(data), size));
}

void FileWriter::write(std::span<const std::byte> bytes) {
  m_crc = crc32Update(m_crc, bytes);
  m_position += bytes.size();
  if (m_buffer.size() + bytes.size() > kBufferSize) flush();
  if (bytes.size() >= kBufferSize) {
    // Large writes bypass the buffer.
    const std::byte* p = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
      const ssize_t n = ::write(m_fd, p, left);
      if (n < 0) {
        if (errno == EINTR) continue;
        throwErrno("cannot write " + m_path.string());
      }
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    return;
  }
  m_buffer.insert(m_buffer.end(), bytes.begin(), bytes.end());
}

void FileWriter::alignTo(std::size_t alignment) {
  static constexpr std::byte kZeros[64] = {};
  while (m_position % alignment != 0) {
    const std::size_t pad = alignment - static_cast<std::size_t>(m_position % alignment);
    write(kZeros, pad < sizeof(kZeros) ? pad : sizeof(kZeros));
  }
}

void FileWriter::flush() {
  const std::byte* p = m_buffer.data();
  std::size_t left = m_buffer.size();
  while (left > 0) {
    const ssize_t n = ::write(m_fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      throwErrno("cannot write " + m_path.string());
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  m_buffer.clear();
}

void FileWriter::finish() {
  flush();
  if (m_sync && ::fsync(m_fd) != 0) throwErrno("cannot sync " + m_path.string());
  const int fd = m_fd;
  m_fd = -1;
  if (::close(fd) != 0) throwErrno("cannot close " + m_path.string());
}

}  // namespace wandscope::engine
