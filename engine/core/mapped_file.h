// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>

namespace wandscope::engine {

// A read-only memory mapping of a whole file. Move-only; unmaps on destruction. An empty file
// maps to an empty span (mmap of length 0 is not allowed, so nothing is mapped).
class MappedFile {
 public:
  MappedFile() = default;
  // Throws Error(Io) naming the path when the file cannot be opened or mapped.
  explicit MappedFile(const std::filesystem::path& path);
  ~MappedFile();
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::span<const std::byte> bytes() const noexcept { return {m_data, m_size}; }
  const std::byte* data() const noexcept { return m_data; }
  std::size_t size() const noexcept { return m_size; }
  const std::filesystem::path& path() const noexcept { return m_path; }

  // Hints the kernel to read the whole mapping ahead (MADV_WILLNEED); a no-op when empty.
  void prefetch() const noexcept;

 private:
  void reset() noexcept;

  std::filesystem::path m_path;
  const std::byte* m_data = nullptr;
  std::size_t m_size = 0;
};

}  // namespace wandscope::engine
