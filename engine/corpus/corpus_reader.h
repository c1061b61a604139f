// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/corpus/document.h"

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <string_view>

namespace wandscope::engine {

enum class CorpusFormat {
  // JSON lines {"_id": str, "title": str, "text": str}; plain or .gz. `title` is optional (absent
  // or null reads as ""), other keys are ignored. A numeric `_id` (an integer, as some corpora
  // write) is accepted and read as its decimal string: {"_id": 42} has id "42".
  Beir,
  MsMarco,  // id<TAB>text per line (MS MARCO collection.tsv); plain or .gz
};

// What to do with a malformed line.
enum class BadLinePolicy {
  Stop,  // throw Error(BadInput) "file:line: what" at the first bad line (default)
  Skip,  // skip it, count it (skippedLines()), go on
};

CorpusFormat parseCorpusFormat(std::string_view name);  // "beir" | "msmarco"; throws Usage
const char* corpusFormatName(CorpusFormat format) noexcept;
// From the file name: *.tsv[.gz] -> MsMarco, otherwise Beir.
CorpusFormat guessCorpusFormat(const std::filesystem::path& path);
// Whether the file's name ends with one of `suffixes` (lower case), ignoring ASCII case.
bool fileNameEndsWith(const std::filesystem::path& path, std::initializer_list<std::string_view> suffixes);

class LineReader;

// Documents (corpus lines) longer than this are refused as bad lines by default: a chunk of the
// stored text keeps 32 documents and sizes them in 32 bits, and one runaway line (a corpus
// without newlines, a binary file) should end in a message, not in an index build that eats
// memory. `index build --max-doc-bytes` changes it.
inline constexpr std::uint64_t kDefaultMaxDocumentBytes = 64ull << 20;

// Streams documents from a corpus file in file order. Errors name the file (as given), the 1-based
// line and the field: "corpus.jsonl:1042: missing field _id". Empty lines are skipped silently.
// Blank ids and duplicate ids are not checked here (the index builder checks duplicates).
class CorpusReader {
 public:
  // Lines over `maxDocumentBytes` bytes are bad lines: "corpus.jsonl:7: document of N bytes is
  // over the limit of M bytes (--max-doc-bytes)" (stop) or skipped and counted (skip).
  CorpusReader(const std::filesystem::path& path, CorpusFormat format,
               BadLinePolicy policy = BadLinePolicy::Stop,
               std::uint64_t maxDocumentBytes = kDefaultMaxDocumentBytes);
  ~CorpusReader();
  CorpusReader(const CorpusReader&) = delete;
  CorpusReader& operator=(const CorpusReader&) = delete;

  // Reads the next document into `doc`; false at the end of the file.
  bool next(Document& doc);

  std::uint64_t lineNumber() const noexcept;      // of the last line read
  std::uint64_t skippedLines() const noexcept;    // bad lines skipped under BadLinePolicy::Skip
  // For progress: bytes of the file consumed so far (compressed bytes for .gz) and its size.
  std::uint64_t bytesConsumed() const noexcept;
  std::uint64_t fileSize() const noexcept;
  const std::filesystem::path& path() const noexcept { return m_path; }

 private:
  bool parseBeir(std::string_view line, Document& doc);
  bool parseMsMarco(std::string_view line, Document& doc);
  bool fail(const std::string& what);

  std::filesystem::path m_path;
  CorpusFormat m_format;
  BadLinePolicy m_policy;
  std::unique_ptr<LineReader> m_lines;
  std::uint64_t m_skipped = 0;
  std::uint64_t m_maxDocumentBytes = kDefaultMaxDocumentBytes;
};

}  // namespace wandscope::engine
