// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/peers/peer_manifest.h"

#include "engine/core/error.h"
#include "engine/core/fs_util.h"

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
  try {
    const auto j = nlohmann::json::parse(readWholeFile(file));
    if (j.at("format_version").get<int>() != kFormatVersion) {
      throwIndex(fmt::format("{}: format_version {} (this build reads {})", file.string(),
                             j.at("format_version").get<int>(), kFormatVersion));
    }
    const auto kind = j.at("kind").get<std::string>();
    if (kind != peerKindName(expected)) {
      throwIndex(fmt::format("{}: a {} peer index, not {}", file.string(), kind, peerKindName(expected)));
    }
    m.kind = expected;
    m.analyzer = j.at("analyzer").get<std::string>();
    m.corpus = j.value("corpus", "");
    m.docs = j.at("docs").get<std::uint64_t>();
    m.tokens = j.at("tokens").get<std::uint64_t>();
    m.postings = j.at("postings").get<std::uint64_t>();
    m.buildSeconds = j.value("build_seconds", 0.0);
    m.indexBytes = j.value("index_bytes", std::uint64_t{0});
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
