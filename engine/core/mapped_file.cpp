// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/core/mapped_file.h"

#include "engine/core/error.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <utility>

namespace wandscope::engine {

MappedFile::MappedFile(const std::filesystem::path& path) : m_path(path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throwErrno("cannot open " + path.string());
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    throwErrno("cannot stat " + path.string());
  }
  m_size = static_cast<std::size_t>(st.st_size);
  if (m_size > 0) {
    void* addr = ::mmap(nullptr, m_size, PROT_READ, MAP_SHARED, fd, 0);
    if (addr == MAP_FAILED) {
      ::close(fd);
      m_size = 0;
      throwErrno("cannot map " + path.string());
    }
    m_data = static_cast<const std::byte*>(addr);
  }
  ::close(fd);
}

MappedFile::~MappedFile() { reset(); }

MappedFile::MappedFile(MappedFile&& other) noexcept
    : m_path(std::move(other.m_path)),
      m_data(std::exchange(other.m_data, nullptr)),
      m_size(std::exchange(other.m_size, 0)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    reset();
    m_path = std::move(other.m_path);
    m_data = std::exchange(other.m_data, nullptr);
    m_size = std::exchange(other.m_size, 0);
  }
  return *this;
}

void MappedFile::prefetch() const noexcept {
  if (m_data != nullptr) {
    ::madvise(const_cast<std::byte*>(m_data), m_size, MADV_WILLNEED);
  }
}

void MappedFile::reset() noexcept {
  if (m_data != nullptr) {
    ::munmap(const_cast<std::byte*>(m_data), m_size);
    m_data = nullptr;
    m_size = 0;
  }
}

}  // namespace wandscope::engine
