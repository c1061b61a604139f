// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/corpus/corpus_reader.h"

#include "engine/core/error.h"
#include "engine/corpus/line_reader.h"
#include "engine/corpus/text_fields.h"
#include "engine/text/utf8.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>

namespace wandscope::engine {

namespace {

// What a wanted key held on a line.
enum class ValueKind : std::uint8_t { Missing, String, Integer, Null, Other };

struct BeirFields {
  ValueKind id = ValueKind::Missing;
  ValueKind title = ValueKind::Missing;
  ValueKind text = ValueKind::Missing;
};

// Bytes that can be copied verbatim from a JSON string: printable ASCII except '"' and '\\'.
constexpr std::array<bool, 256> kPlainByte = [] {
  std::array<bool, 256> table{};
  for (int c = 0x20; c < 0x80; ++c) table[static_cast<std::size_t>(c)] = c != '"' && c != '\\';
  return table;
}();

constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
constexpr std::uint64_t kHighs = 0x8080808080808080ULL;

// True when one of the 8 bytes of `w` is not a plain byte (< 0x20, '"', '\\' or >= 0x80). Exact
// for "any": the classic has-zero-byte / has-less-than bit tricks.
constexpr bool hasSpecialByte(std::uint64_t w) noexcept {
  const std::uint64_t control = (w - kOnes * 0x20) & ~w & kHighs;
  const std::uint64_t q = w ^ (kOnes * '"');
  const std::uint64_t quote = (q - kOnes) & ~q & kHighs;
  const std::uint64_t b = w ^ (kOnes * '\\');
  const std::uint64_t backslash = (b - kOnes) & ~b & kHighs;
  return (control | quote | backslash | (w & kHighs)) != 0;
}

// A strict JSON parser for the common case of one flat object per line. It decodes `_id`, `title`
// and `text` straight into the Document (no DOM, no per-key allocation) and validates everything
// else (nested values of other keys included) exactly as RFC 8259 and nlohmann do: escapes,
// surrogate pairs, UTF-8, number grammar, trailing content. Whenever it returns false - a syntax
// error, or something it chooses not to handle such as an integer too large to copy verbatim -
// the caller re-parses the line with nlohmann, which either succeeds or produces the error
// message. So this parser only has to be right when it says yes.
class FlatJsonParser {
 public:
  explicit FlatJsonParser(std::string_view text)
      : m_p(text.data()), m_end(text.data() + text.size()) {}

  bool parseDocument(Document& doc, BeirFields& fields) {
    skipSpace();
    if (!consume('{')) return false;
    skipSpace();
    if (consume('}')) return atEnd();
    for (;;) {
      if (m_p == m_end || *m_p != '"') return false;
      m_key.clear();
      if (!parseString(&m_key)) return false;
      skipSpace();
      if (!consume(':')) return false;
      skipSpace();
      if (m_p == m_end) return false;
      std::string* target = nullptr;
      ValueKind* kind = nullptr;
      if (m_key == "_id") {
        target = &doc.id;
        kind = &fields.id;
      } else if (m_key == "text") {
        target = &doc.text;
        kind = &fields.text;
      } else if (m_key == "title") {
        target = &doc.title;
        kind = &fields.title;
      }
      // A repeated key overwrites the earlier value, as in nlohmann.
      if (target == nullptr) {
        if (!skipValue(0)) return false;
      } else if (*m_p == '"') {
        target->clear();
        if (!parseString(target)) return false;
        *kind = ValueKind::String;
      } else if (*m_p == '-' || isDigit(*m_p)) {
        std::string_view token;
        bool integer = false;
        if (!parseNumber(token, integer)) return false;
        if (integer) {
          if (token == "-0") token = "0";  // nlohmann reads -0 as the integer 0
          target->assign(token);
          *kind = ValueKind::Integer;
        } else {
          *kind = ValueKind::Other;
        }
      } else if (*m_p == 'n') {
        if (!parseLiteral("null")) return false;
        *kind = ValueKind::Null;
      } else {
        if (!skipValue(0)) return false;
        *kind = ValueKind::Other;
      }
      skipSpace();
      if (consume(',')) {
        skipSpace();
        continue;
      }
      if (consume('}')) return atEnd();
      return false;
    }
  }

 private:
  static bool isDigit(char c) noexcept { return c >= '0' && c <= '9'; }

  void skipSpace() noexcept {
    while (m_p != m_end && (*m_p == ' ' || *m_p == '\t' || *m_p == '\n' || *m_p == '\r')) ++m_p;
  }
  bool consume(char c) noexcept {
    if (m_p == m_end || *m_p != c) return false;
    ++m_p;
    return true;
  }
  bool atEnd() noexcept {
    skipSpace();
    return m_p == m_end;
  }
  bool parseLiteral(std::string_view word) noexcept {
    if (static_cast<std::size_t>(m_end - m_p) < word.size()) return false;
    if (std::memcmp(m_p, word.data(), word.size()) != 0) return false;
    m_p += word.size();
    return true;
  }

  // Length of the well-formed UTF-8 sequence at p (Unicode 15 table 3-7), 0 when ill-formed.
  std::size_t utf8Length(const char* p) const noexcept {
    const auto at = [&](std::size_t i) { return static_cast<unsigned char>(p[i]); };
    const auto avail = static_cast<std::size_t>(m_end - p);
    const auto cont = [&](std::size_t i, unsigned lo = 0x80, unsigned hi = 0xBF) {
      return i < avail && at(i) >= lo && at(i) <= hi;
    };
    const unsigned c = at(0);
    if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
    if (c == 0xE0) return cont(1, 0xA0) && cont(2) ? 3 : 0;
    if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) return cont(1) && cont(2) ? 3 : 0;
    if (c == 0xED) return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0;
    if (c == 0xF0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
    if (c >= 0xF1 && c <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
    if (c == 0xF4) return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0;
    return 0;
  }

  // At the opening quote. Appends the decoded string to *out (nullptr: validate only).
  bool parseString(std::string* out) {
    ++m_p;
    for (;;) {
      const char* run = m_p;
      for (;;) {
        while (m_end - m_p >= 8) {
          std::uint64_t word = 0;
          std::memcpy(&word, m_p, sizeof word);
          if (hasSpecialByte(word)) break;
          m_p += 8;
        }
        while (m_p != m_end && kPlainByte[static_cast<unsigned char>(*m_p)]) ++m_p;
        if (m_p == m_end || static_cast<unsigned char>(*m_p) < 0x80) break;
        const std::size_t n = utf8Length(m_p);
        if (n == 0) return false;
        m_p += n;
      }
      if (out != nullptr) out->append(run, static_cast<std::size_t>(m_p - run));
      if (m_p == m_end) return false;
      if (*m_p == '"') {
        ++m_p;
        return true;
      }
      if (*m_p != '\\') return false;  // a control character
      if (!parseEscape(out)) return false;
    }
  }

  bool parseHex4(std::uint32_t& value) noexcept {
    if (m_end - m_p < 4) return false;
    value = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = *m_p++;
      std::uint32_t digit = 0;
      if (c >= '0' && c <= '9') {
        digit = static_cast<std::uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        digit = static_cast<std::uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        digit = static_cast<std::uint32_t>(c - 'A' + 10);
      } else {
        return false;
      }
      value = value * 16 + digit;
    }
    return true;
  }

  static void appendUtf8(std::string& out, std::uint32_t cp) {
    const auto byte = [](std::uint32_t v) { return static_cast<char>(static_cast<unsigned char>(v)); };
    if (cp < 0x80) {
      out.push_back(byte(cp));
    } else if (cp < 0x800) {
      out.push_back(byte(0xC0 | (cp >> 6)));
      out.push_back(byte(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out.push_back(byte(0xE0 | (cp >> 12)));
      out.push_back(byte(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(byte(0x80 | (cp & 0x3F)));
    } else {
      out.push_back(byte(0xF0 | (cp >> 18)));
      out.push_back(byte(0x80 | ((cp >> 12) & 0x3F)));
      out.push_back(byte(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(byte(0x80 | (cp & 0x3F)));
    }
  }

  // At the backslash.
  bool parseEscape(std::string* out) {
    ++m_p;
    if (m_p == m_end) return false;
    char decoded = 0;
    switch (*m_p++) {
      case '"': decoded = '"'; break;
      case '\\': decoded = '\\'; break;
      case '/': decoded = '/'; break;
      case 'b': decoded = '\b'; break;
      case 'f': decoded = '\f'; break;
      case 'n': decoded = '\n'; break;
      case 'r': decoded = '\r'; break;
      case 't': decoded = '\t'; break;
      case 'u': {
        std::uint32_t cp = 0;
        if (!parseHex4(cp)) return false;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          // A high surrogate must be followed by an escaped low surrogate.
          if (m_end - m_p < 2 || m_p[0] != '\\' || m_p[1] != 'u') return false;
          m_p += 2;
          std::uint32_t low = 0;
          if (!parseHex4(low) || low < 0xDC00 || low > 0xDFFF) return false;
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          return false;  // a lone low surrogate
        }
        if (out != nullptr) appendUtf8(*out, cp);
        return true;
      }
      default:
        return false;
    }
    if (out != nullptr) out->push_back(decoded);
    return true;
  }

  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  bool parseNumber(std::string_view& token, bool& integer) noexcept {
    const char* start = m_p;
    consume('-');
    if (m_p == m_end) return false;
    if (*m_p == '0') {
      ++m_p;
    } else if (isDigit(*m_p)) {
      while (m_p != m_end && isDigit(*m_p)) ++m_p;
    } else {
      return false;
    }
    integer = true;
    if (consume('.')) {
      integer = false;
      if (m_p == m_end || !isDigit(*m_p)) return false;
      while (m_p != m_end && isDigit(*m_p)) ++m_p;
    }
    if (m_p != m_end && (*m_p == 'e' || *m_p == 'E')) {
      ++m_p;
      integer = false;
      if (m_p != m_end && (*m_p == '+' || *m_p == '-')) ++m_p;
      if (m_p == m_end || !isDigit(*m_p)) return false;
      while (m_p != m_end && isDigit(*m_p)) ++m_p;
    }
    token = std::string_view(start, static_cast<std::size_t>(m_p - start));
    // Numbers nlohmann might read differently or reject (an integer too long for 64 bits becomes
    // a double; a double that overflows is an error) are left to it.
    if (integer) return token.size() <= 18;
    double value = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    return ec == std::errc() && end == token.data() + token.size();
  }

  // Validates and skips any value. Deep nesting is left to nlohmann.
  bool skipValue(int depth) {
    if (m_p == m_end || depth > 64) return false;
    switch (*m_p) {
      case '"':
        return parseString(nullptr);
      case 't':
        return parseLiteral("true");
      case 'f':
        return parseLiteral("false");
      case 'n':
        return parseLiteral("null");
      case '{': {
        ++m_p;
        skipSpace();
        if (consume('}')) return true;
        for (;;) {
          if (m_p == m_end || *m_p != '"' || !parseString(nullptr)) return false;
          skipSpace();
          if (!consume(':')) return false;
          skipSpace();
          if (!skipValue(depth + 1)) return false;
          skipSpace();
          if (consume('}')) return true;
          if (!consume(',')) return false;
          skipSpace();
        }
      }
      case '[': {
        ++m_p;
        skipSpace();
        if (consume(']')) return true;
        for (;;) {
          if (!skipValue(depth + 1)) return false;
          skipSpace();
          if (consume(']')) return true;
          if (!consume(',')) return false;
          skipSpace();
        }
      }
      default: {
        std::string_view token;
        bool integer = false;
        return parseNumber(token, integer);
      }
    }
  }

  const char* m_p;
  const char* m_end;
  std::string m_key;
};

// The slow path: nlohmann's DOM. Extracts one wanted key.
ValueKind extractField(const nlohmann::json& object, const char* key, std::string& out) {
  const auto it = object.find(key);
  if (it == object.end()) return ValueKind::Missing;
  if (it->is_string()) {
    out = it->get_ref<const std::string&>();
    return ValueKind::String;
  }
  if (it->is_number_unsigned()) {
    out = std::to_string(it->get<std::uint64_t>());
    return ValueKind::Integer;
  }
  if (it->is_number_integer()) {
    out = std::to_string(it->get<std::int64_t>());
    return ValueKind::Integer;
  }
  if (it->is_null()) return ValueKind::Null;
  return ValueKind::Other;
}

// nlohmann's message without its "[json.exception.out_of_range.406] " prefix.
std::string nlohmannReason(const nlohmann::json::exception& e) {
  std::string_view what = e.what();
  const std::size_t bracket = what.find("] ");
  if (what.starts_with("[") && bracket != std::string_view::npos) what.remove_prefix(bracket + 2);
  return std::string(what);
}

}  // namespace

bool fileNameEndsWith(const std::filesystem::path& path, std::initializer_list<std::string_view> suffixes) {
  std::string name = path.filename().string();
  for (char& c : name) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return std::any_of(suffixes.begin(), suffixes.end(), [&](std::string_view s) {
    return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
  });
}

CorpusFormat parseCorpusFormat(std::string_view name) {
  if (name == "beir") return CorpusFormat::Beir;
  if (name == "msmarco") return CorpusFormat::MsMarco;
  throwUsage("unknown corpus format '" + std::string(name) + "' (expected beir or msmarco)");
}

const char* corpusFormatName(CorpusFormat format) noexcept {
  switch (format) {
    case CorpusFormat::Beir:
      return "beir";
    case CorpusFormat::MsMarco:
      return "msmarco";
  }
  return "unknown";
}

CorpusFormat guessCorpusFormat(const std::filesystem::path& path) {
  return fileNameEndsWith(path, {".tsv", ".tsv.gz"}) ? CorpusFormat::MsMarco : CorpusFormat::Beir;
}

CorpusReader::CorpusReader(const std::filesystem::path& path, CorpusFormat format,
                           BadLinePolicy policy, std::uint64_t maxDocumentBytes)
    : m_path(path), m_format(format), m_policy(policy), m_lines(std::make_unique<LineReader>(path, maxDocumentBytes)),
      m_maxDocumentBytes(maxDocumentBytes) {
  if (maxDocumentBytes == 0) throwUsage("the document size limit (--max-doc-bytes) must be at least 1 byte");
}

CorpusReader::~CorpusReader() = default;

bool CorpusReader::next(Document& doc) {
  std::string_view line;
  while (m_lines->next(line)) {
    // LineReader applies the limit (a line over it is not even kept in memory).
    if (m_lines->lineTooLong()) {
      fail("document of " + std::to_string(m_lines->lineBytes()) + " bytes is over the limit of " +
           std::to_string(m_maxDocumentBytes) + " bytes (--max-doc-bytes)");
      continue;
    }
    if (line.empty() || isBlankLine(line)) continue;
    const bool ok = m_format == CorpusFormat::Beir ? parseBeir(line, doc) : parseMsMarco(line, doc);
    if (ok && !isValidUtf8(doc.id)) {
      // Ids go verbatim into JSON and the runs; text is analysed, its bad bytes replaced and counted.
      std::size_t at = 0;
      for (Utf8Char c = decodeUtf8(doc.id, at); c.valid; c = decodeUtf8(doc.id, at)) at += c.length;
      fail(fmt::format("the id is not valid UTF-8 (byte 0x{:02X} at byte {} of it)",
                       static_cast<unsigned char>(doc.id[at]), at + 1));
      continue;
    }
    if (ok) return true;
  }
  return false;
}

std::uint64_t CorpusReader::lineNumber() const noexcept { return m_lines->lineNumber(); }
std::uint64_t CorpusReader::skippedLines() const noexcept { return m_skipped; }
std::uint64_t CorpusReader::bytesConsumed() const noexcept { return m_lines->bytesConsumed(); }
std::uint64_t CorpusReader::fileSize() const noexcept { return m_lines->fileSize(); }

bool CorpusReader::fail(const std::string& what) {
  if (m_policy == BadLinePolicy::Stop) {
    throwBadInput(m_path.string() + ":" + std::to_string(m_lines->lineNumber()) + ": " + what);
  }
  ++m_skipped;
  return false;
}

// `_id` and `text` are required; `_id` may be a JSON integer (some corpora write numeric ids),
// which becomes its decimal string. `title` is optional (absent or null: ""). Other keys are
// ignored whatever their value.
bool CorpusReader::parseBeir(std::string_view line, Document& doc) {
  BeirFields fields;
  FlatJsonParser fast(line);
  if (!fast.parseDocument(doc, fields)) {
    fields = BeirFields{};
    nlohmann::json object;
    try {
      object = nlohmann::json::parse(line.begin(), line.end());
    } catch (const nlohmann::json::parse_error& e) {
      return fail("invalid JSON (syntax error at byte " + std::to_string(e.byte) + ")");
    } catch (const nlohmann::json::exception& e) {
      return fail("invalid JSON (" + nlohmannReason(e) + ")");  // e.g. a number overflow
    }
    if (!object.is_object()) return fail("not a JSON object");
    fields.id = extractField(object, "_id", doc.id);
    fields.title = extractField(object, "title", doc.title);
    fields.text = extractField(object, "text", doc.text);
  }
  if (fields.id == ValueKind::Missing) return fail("missing field _id");
  if (fields.id != ValueKind::String && fields.id != ValueKind::Integer) {
    return fail("field _id is not a string");
  }
  if (fields.text == ValueKind::Missing) return fail("missing field text");
  if (fields.text != ValueKind::String) return fail("field text is not a string");
  if (fields.title == ValueKind::Missing || fields.title == ValueKind::Null) {
    doc.title.clear();
  } else if (fields.title != ValueKind::String) {
    return fail("field title is not a string");
  }
  return true;
}

// "id<TAB>text": everything after the first tab is the text, tabs included.
bool CorpusReader::parseMsMarco(std::string_view line, Document& doc) {
  const std::size_t tab = line.find('\t');
  if (tab == std::string_view::npos) return fail("missing tab between id and text");
  doc.id.assign(line.substr(0, tab));
  doc.title.clear();
  doc.text.assign(line.substr(tab + 1));
  return true;
}

}  // namespace wandscope::engine
