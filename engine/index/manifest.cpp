// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/index/manifest.h"

#include "engine/core/checksum.h"
#include "engine/core/error.h"
#include "engine/core/fs_util.h"
#include "engine/core/json_number.h"
#include "engine/core/wording.h"
#include "engine/index/format.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <string_view>

namespace wandscope::engine {
namespace {

using nlohmann::json;

constexpr const char* kCrcPrefix = "# crc32 ";

std::uint32_t crcOf(const std::string& text) {
  return crc32Of(std::as_bytes(std::span<const char>(text.data(), text.size())));
}

// A CRC-32 as serialize() writes it: exactly eight hex digits.
bool isCrcText(std::string_view text) {
  return text.size() == 8 &&
         std::all_of(text.begin(), text.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

constexpr std::uint64_t kMaxU32 = std::numeric_limits<std::uint32_t>::max();

// Reads one object's fields, refusing a value of the wrong kind with the manifest's name and the
// field's JSON path ("MANIFEST-000001: segments[0].docs must be ..."). A count is an integer, never
// a float: nlohmann converts 3e31 to an integer type as undefined behaviour (CI's fuzzer, stop 33).
struct FieldReader {
  const std::string& file;
  std::string path;

  [[noreturn]] void fail(const char* key, const json& value, const std::string& what) const {
    throwIndex(fmt::format("{}: {}{} {}, found {}", file, path, key, what, jsonSnippet(value)));
  }
  std::uint64_t count(const json& object, const char* key,
                      std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) const {
    const json& value = object.at(key);
    const auto n = jsonUnsigned(value, max);
    if (!n) fail(key, value, fmt::format("must be a whole number from 0 to {}", grouped(max)));
    return *n;
  }
  std::uint64_t optionalCount(const json& object, const char* key,
                              std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) const {
    return object.contains(key) ? count(object, key, max) : 0;
  }
  double figure(const json& object, const char* key) const {
    const json& value = object.at(key);
    const auto d = jsonFinite(value);
    if (!d) fail(key, value, "must be a finite number");
    return *d;
  }
  // A BM25 parameter: also within f32's range (converting a larger double to f32 is undefined).
  float figure32(const json& object, const char* key) const {
    const double d = figure(object, key);
    if (std::fabs(d) > std::numeric_limits<float>::max()) fail(key, object.at(key), "must be within f32's range");
    return static_cast<float>(d);
  }
  // Exactly eight hex digits, as serialize() writes them (stoul took "-1", "12zz" and 64 bits).
  std::uint32_t crc(const json& object, const char* key) const {
    const json& value = object.at(key);
    const std::string* text = value.is_string() ? &value.get_ref<const std::string&>() : nullptr;
    if (text == nullptr || !isCrcText(*text)) fail(key, value, "must be eight hex digits");
    return static_cast<std::uint32_t>(std::stoul(*text, nullptr, 16));
  }
};

}  // namespace

std::string manifestFileName(std::uint64_t generation) {
  return fmt::format("MANIFEST-{:06d}", generation);
}

std::string Manifest::serialize() const {
  json j;
  j["format"] = "wandscope-index";
  j["format_version"] = formatVersion;
  j["generation"] = generation;
  j["analyzer"] = analyzer;
  j["bm25"] = {{"k1", bm25.k1}, {"b", bm25.b}};
  j["docs"] = docs;
  j["total_tokens"] = totalTokens;
  j["store_text"] = storeText;
  json segs = json::array();
  for (const auto& s : segments) {
    json files = json::object();
    for (const auto& [kind, f] : s.files) {
      files[kind] = {{"name", f.name}, {"bytes", f.bytes}, {"crc32", fmt::format("{:08x}", f.crc32)}};
    }
    segs.push_back({{"id", s.id}, {"doc_base", s.docBase}, {"docs", s.docCount},
                    {"tokens", s.totalTokens}, {"postings", s.postings}, {"terms", s.terms},
                    {"blocks", s.blocks}, {"files", files}});
  }
  j["segments"] = segs;
  j["build"] = {{"corpus", build.corpus}, {"corpus_bytes", build.corpusBytes},
                {"threads", build.threads}, {"seconds", build.seconds},
                {"created_utc", build.createdUtc}, {"tool", build.tool},
                {"invalid_utf8_bytes", build.invalidUtf8Bytes},
                {"overlong_tokens", build.overlongTokens}, {"stop_words", build.stopWords},
                {"skipped_lines", build.skippedLines}};
  std::string body = j.dump(2) + "\n";
  return body + fmt::format("{}{:08x}\n", kCrcPrefix, crcOf(body));
}

Manifest Manifest::parse(const std::string& text, const std::string& name) {
  const std::size_t marker = text.rfind(kCrcPrefix);
  if (marker == std::string::npos) throwIndex(name + ": missing checksum line (truncated?)");
  const std::string body = text.substr(0, marker);
  const std::string crcText = text.substr(marker + std::string(kCrcPrefix).size());
  // Exactly eight hex digits and the final newline: bytes appended after the checksum line are
  // damage like any other.
  const bool wellFormed = crcText.size() == 9 && crcText[8] == '\n' && isCrcText(std::string_view(crcText).substr(0, 8));
  if (!wellFormed) throwIndex(name + ": malformed checksum line (truncated, or bytes after it)");
  const auto expected = static_cast<std::uint32_t>(std::stoul(crcText.substr(0, 8), nullptr, 16));
  if (crcOf(body) != expected) throwIndex(name + ": checksum mismatch, the manifest is corrupt");
  Manifest m;
  try {
    const json j = json::parse(body);
    if (j.at("format").get<std::string>() != "wandscope-index") throwIndex(name + ": not a wandscope manifest");
    const FieldReader top{name, ""};
    m.formatVersion = static_cast<std::uint32_t>(top.count(j, "format_version", kMaxU32));
    if (m.formatVersion != format::kFormatVersion) {
      throwIndex(fmt::format("{}: index format version {}, this build reads version {} (rebuild the index)",
                             name, m.formatVersion, format::kFormatVersion));
    }
    m.generation = top.count(j, "generation");
    m.analyzer = j.at("analyzer").get<std::string>();
    const FieldReader bm25{name, "bm25."};
    m.bm25.k1 = bm25.figure32(j.at("bm25"), "k1");
    m.bm25.b = bm25.figure32(j.at("bm25"), "b");
    m.docs = top.count(j, "docs");
    m.totalTokens = top.count(j, "total_tokens");
    m.storeText = j.at("store_text").get<bool>();
    std::size_t index = 0;
    for (const auto& s : j.at("segments")) {
      const FieldReader seg{name, fmt::format("segments[{}].", index++)};
      SegmentInfo info;
      info.id = static_cast<std::uint32_t>(seg.count(s, "id", kMaxU32));
      info.docBase = static_cast<DocId>(seg.count(s, "doc_base", std::numeric_limits<DocId>::max()));
      info.docCount = static_cast<std::uint32_t>(seg.count(s, "docs", kMaxU32));
      info.totalTokens = seg.count(s, "tokens");
      info.postings = seg.count(s, "postings");
      info.terms = seg.count(s, "terms");
      info.blocks = seg.count(s, "blocks");
      for (const auto& [kind, f] : s.at("files").items()) {
        const FieldReader file{name, fmt::format("{}files.{}.", seg.path, kind)};
        SegmentFileInfo fi;
        fi.name = f.at("name").get<std::string>();
        fi.bytes = file.count(f, "bytes");
        fi.crc32 = file.crc(f, "crc32");
        info.files[kind] = fi;
      }
      m.segments.push_back(std::move(info));
    }
    const json& b = j.at("build");
    const FieldReader build{name, "build."};
    m.build.corpus = b.value("corpus", "");
    m.build.corpusBytes = build.optionalCount(b, "corpus_bytes");
    m.build.threads = static_cast<unsigned>(build.optionalCount(b, "threads", kMaxU32));
    m.build.seconds = b.contains("seconds") ? build.figure(b, "seconds") : 0.0;
    m.build.createdUtc = b.value("created_utc", "");
    m.build.tool = b.value("tool", "");
    m.build.invalidUtf8Bytes = build.optionalCount(b, "invalid_utf8_bytes");
    m.build.overlongTokens = build.optionalCount(b, "overlong_tokens");
    m.build.stopWords = build.optionalCount(b, "stop_words");
    m.build.skippedLines = build.optionalCount(b, "skipped_lines");
  } catch (const json::exception& e) {
    throwIndex(name + ": malformed manifest (" + e.what() + ")");
  }
  // Segments must tile [0, docs) in order: doc ids follow corpus order.
  std::uint64_t next = 0;
  std::uint64_t tokens = 0;
  for (const auto& s : m.segments) {
    if (s.docBase != next) throwIndex(name + ": segments do not cover the documents in order");
    next += s.docCount;
    tokens += s.totalTokens;
  }
  if (next != m.docs || tokens != m.totalTokens) {
    throwIndex(name + ": segment document or token counts do not add up");
  }
  return m;
}

void writeManifest(const std::filesystem::path& dir, const Manifest& manifest) {
  const std::string name = manifestFileName(manifest.generation);
  writeFileAtomically(dir / name, manifest.serialize());
  writeFileAtomically(dir / "CURRENT", name + "\n");
}

Manifest readCurrentManifest(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) throwIndex(dir.string() + ": no such index directory");
  const auto current = dir / "CURRENT";
  if (!std::filesystem::exists(current, ec)) {
    throwIndex(dir.string() + ": not a wandscope index (no CURRENT file)");
  }
  std::string name = readWholeFile(current);
  while (!name.empty() && (name.back() == '\n' || name.back() == '\r')) name.pop_back();
  const bool printable = std::all_of(name.begin(), name.end(), [](char c) { return c > 0x20 && c < 0x7f; });
  if (name.rfind("MANIFEST-", 0) != 0 || name.find('/') != std::string::npos || !printable) {
    throwIndex((dir / "CURRENT").string() + ": does not name a manifest");
  }
  if (!std::filesystem::exists(dir / name, ec)) {
    // Name CURRENT too: a damaged CURRENT (a flipped digit, a cut name) is the likelier cause.
    throwIndex(fmt::format("{}: names the manifest '{}', which is missing (CURRENT or the index is damaged)",
                           current.string(), name));
  }
  return Manifest::parse(readWholeFile(dir / name), name);
}

}  // namespace wandscope::engine
