// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace wandscope::test {

// A fresh directory under $TMPDIR, removed (recursively) on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return m_path; }
  std::filesystem::path operator/(const std::string& name) const { return m_path / name; }

  // Writes `content` to a file in this directory and returns its path.
  std::filesystem::path write(const std::string& name, const std::string& content) const;

 private:
  std::filesystem::path m_path;
};

// The whole content of a file ("" when it cannot be read).
std::string readFile(const std::filesystem::path& path);
// Replaces the content of a file with `content` (a failed write fails the current test).
void writeFile(const std::filesystem::path& path, const std::string& content);

// The same as bytes, for tests that flip and cut them.
std::vector<char> readFileBytes(const std::filesystem::path& path);
void writeFileBytes(const std::filesystem::path& path, const std::vector<char>& bytes);

}  // namespace wandscope::test
