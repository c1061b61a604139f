// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/peers/peer_manifest.h"

#include "engine/core/error.h"
#include "engine/core/fs_util.h"
#include "engine/core/json_number.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace wandscope::engine {

PeerManifest PeerManifest::read(const std::filesystem::path& dir, PeerKind expected) {
  const std::filesystem::path file = dir / kFileName;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    throwIndex(fmt::format("{}: no {} peer index there (not a directory); build one with `wandscope-cli peers build "
                           "--engine {} --corpus FILE --out {}` or give the target corpus=FILE",
                           dir.string(), peerKindName(expected), peerKindName(expected), dir.string()));
  }
  if (!std::filesystem::exists(file, ec)) {
    throwIndex(fmt::format("{}: missing; {} is not a finished {} peer index", file.string(), dir.string(),
                           peerKindName(expected)));
  }
  PeerManifest m;
  // Counts are integers, never floats: nlohmann converts 3e31 to an integer type as undefined
  // behaviour (engine/core/json_number.h).
  const auto count = [&](const nlohmann::json& j, const char* key, bool required) -> std::uint64_t {
    if (!required && !j.contains(key)) return 0;
    const auto& value = j.at(key);
    const auto n = jsonUnsigned(value);
    if (!n) throwIndex(fmt::format("{}: {} must be a whole number, found {}", file.string(), key, jsonSnippet(value)));
    return *n;
  };
  try {
    const auto j = nlohmann::json::parse(readWholeFile(file));
    const auto& version = j.at("format_version");
    if (jsonUnsigned(version) != std::optional<std::uint64_t>(kFormatVersion)) {
      throwIndex(fmt::format("{}: format_version {} (this build reads {})", file.string(), jsonSnippet(version),
                             kFormatVersion));
    }
    const auto kind = j.at("kind").get<std::string>();
    if (kind != peerKindName(expected)) {
      throwIndex(fmt::format("{}: a {} peer index, not {}", file.string(), kind, peerKindName(expected)));
    }
    m.kind = expected;
    m.analyzer = j.at("analyzer").get<std::string>();
    m.corpus = j.value("corpus", "");
    m.docs = count(j, "docs", true);
    m.tokens = count(j, "tokens", true);
    m.postings = count(j, "postings", true);
    if (j.contains("build_seconds")) {
      const auto seconds = jsonFinite(j.at("build_seconds"));
      if (!seconds) {
        throwIndex(fmt::format("{}: build_seconds must be a finite number, found {}", file.string(),
                               jsonSnippet(j.at("build_seconds"))));
      }
      m.buildSeconds = *seconds;
    }
    m.indexBytes = count(j, "index_bytes", false);
    m.peerVersion = j.value("peer_version", "");
    m.settings = j.value("settings", "");
  } catch (const nlohmann::json::exception& e) {
    throwIndex(fmt::format("{}: malformed: {}", file.string(), e.what()));
  }
  return m;
}

void PeerManifest::write(const std::filesystem::path& dir) const {
  const nlohmann::json j = {{"format_version", kFormatVersion},
                            {"kind", peerKindName(kind)},
                            {"analyzer", analyzer},
                            {"corpus", corpus},
                            {"docs", docs},
                            {"tokens", tokens},
                            {"postings", postings},
                            {"build_seconds", buildSeconds},
                            {"index_bytes", indexBytes},
                            {"bits_per_posting", bitsPerPosting()},
                            {"peer_version", peerVersion},
                            {"settings", settings}};
  writeFileAtomically(dir / kFileName, j.dump(2) + "\n");
}

}  // namespace wandscope::engine
