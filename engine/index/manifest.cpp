// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/index/manifest.h"

#include "engine/core/checksum.h"
#include "engine/core/error.h"
#include "engine/core/fs_util.h"
#include "engine/index/format.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace wandscope::engine {
namespace {

using nlohmann::json;

constexpr const char* kCrcPrefix = "# crc32 ";

std::uint32_t crcOf(const std::string& text) {
  return crc32Of(std::as_bytes(std::span<const char>(text.data(), text.size())));
}

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
  const bool wellFormed = crcText.size() == 9 && crcText[8] == '\n' &&
                          std::all_of(crcText.begin(), crcText.begin() + 8,
                                      [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
  if (!wellFormed) throwIndex(name + ": malformed checksum line (truncated, or bytes after it)");
  const auto expected = static_cast<std::uint32_t>(std::stoul(crcText.substr(0, 8), nullptr, 16));
  if (crcOf(body) != expected) throwIndex(name + ": checksum mismatch, the manifest is corrupt");
  Manifest m;
  try {
    const json j = json::parse(body);
    if (j.at("format").get<std::string>() != "wandscope-index") throwIndex(name + ": not a wandscope manifest");
    m.formatVersion = j.at("format_version").get<std::uint32_t>();
    if (m.formatVersion != format::kFormatVersion) {
      throwIndex(fmt::format("{}: index format version {}, this build reads version {} (rebuild the index)",
                             name, m.formatVersion, format::kFormatVersion));
    }
    m.generation = j.at("generation").get<std::uint64_t>();
    m.analyzer = j.at("analyzer").get<std::string>();
    m.bm25.k1 = j.at("bm25").at("k1").get<float>();
    m.bm25.b = j.at("bm25").at("b").get<float>();
    m.docs = j.at("docs").get<std::uint64_t>();
    m.totalTokens = j.at("total_tokens").get<std::uint64_t>();
    m.storeText = j.at("store_text").get<bool>();
    for (const auto& s : j.at("segments")) {
      SegmentInfo info;
      info.id = s.at("id").get<std::uint32_t>();
      info.docBase = s.at("doc_base").get<DocId>();
      info.docCount = s.at("docs").get<std::uint32_t>();
      info.totalTokens = s.at("tokens").get<std::uint64_t>();
      info.postings = s.at("postings").get<std::uint64_t>();
      info.terms = s.at("terms").get<std::uint64_t>();
      info.blocks = s.at("blocks").get<std::uint64_t>();
      for (const auto& [kind, f] : s.at("files").items()) {
        SegmentFileInfo fi;
        fi.name = f.at("name").get<std::string>();
        fi.bytes = f.at("bytes").get<std::uint64_t>();
        fi.crc32 = static_cast<std::uint32_t>(std::stoul(f.at("crc32").get<std::string>(), nullptr, 16));
        info.files[kind] = fi;
      }
      m.segments.push_back(std::move(info));
    }
    const json& b = j.at("build");
    m.build.corpus = b.value("corpus", "");
    m.build.corpusBytes = b.value("corpus_bytes", std::uint64_t{0});
    m.build.threads = b.value("threads", 0u);
    m.build.seconds = b.value("seconds", 0.0);
    m.build.createdUtc = b.value("created_utc", "");
    m.build.tool = b.value("tool", "");
    m.build.invalidUtf8Bytes = b.value("invalid_utf8_bytes", std::uint64_t{0});
    m.build.overlongTokens = b.value("overlong_tokens", std::uint64_t{0});
    m.build.stopWords = b.value("stop_words", std::uint64_t{0});
    m.build.skippedLines = b.value("skipped_lines", std::uint64_t{0});
  } catch (const json::exception& e) {
    throwIndex(name + ": malformed manifest (" + e.what() + ")");
  } catch (const std::invalid_argument&) {
    throwIndex(name + ": malformed manifest (bad number)");
  } catch (const std::out_of_range&) {
    throwIndex(name + ": malformed manifest (number out of range)");
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
