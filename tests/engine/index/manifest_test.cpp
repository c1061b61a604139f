// SPDX-License-Identifier: GPL-3.0-or-later
// Manifest::parse on manifests whose CRC line is right but whose fields are not: what a buggy or
// malicious writer could produce. Every such field is refused naming the file and the field's JSON
// path; nothing is converted silently. CI's fuzzer found "docs": 3e31, which nlohmann turned into
// an integer as undefined behaviour (crash input tests/fuzz/corpus/index_manifest/crash-float-count).
#include "engine/core/checksum.h"
#include "engine/core/error.h"
#include "engine/index/format.h"
#include "engine/index/manifest.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <functional>

namespace wandscope::test {
namespace {

using nlohmann::json;

constexpr const char* kName = "MANIFEST-000001";

engine::Manifest twoSegments() {
  engine::Manifest m;
  m.formatVersion = engine::format::kFormatVersion;
  m.generation = 1;
  m.analyzer = "plain/1";
  m.docs = 300;
  m.totalTokens = 900;
  for (std::uint32_t s = 0; s < 2; ++s) {
    engine::SegmentInfo info;
    info.id = s;
    info.docBase = s * 200;
    info.docCount = s == 0 ? 200 : 100;
    info.totalTokens = s == 0 ? 600 : 300;
    info.postings = 500;
    info.terms = 40;
    info.blocks = 45;
    info.files["docs"] = {fmt::format("seg-{:06d}.docs", s), 1234, 0x0badf00d};
    m.segments.push_back(info);
  }
  m.build.threads = 2;
  m.build.seconds = 0.25;
  return m;
}

// The manifest's JSON after `edit`, with a correct CRC line, as a writer with that bug would save it.
std::string edited(const std::function<void(json&)>& edit) {
  const std::string text = twoSegments().serialize();
  json j = json::parse(text.substr(0, text.rfind("# crc32 ")));
  edit(j);
  const std::string body = j.dump(2) + "\n";
  const auto crc = engine::crc32Of(std::as_bytes(std::span<const char>(body.data(), body.size())));
  return body + fmt::format("# crc32 {:08x}\n", crc);
}

// Parses `text`; returns the Index error's message, or "" when it was accepted.
std::string parseError(const std::string& text) {
  try {
    (void)engine::Manifest::parse(text, kName);
    return "";
  } catch (const engine::Error& e) {
    EXPECT_EQ(e.kind(), engine::ErrorKind::Index) << e.what();
    return e.what();
  }
}

TEST(Manifest, ASerializedManifestReadsBackAsWritten) {
  const engine::Manifest m = engine::Manifest::parse(twoSegments().serialize(), kName);
  EXPECT_EQ(m.serialize(), twoSegments().serialize());
  EXPECT_EQ(parseError(edited([](json&) {})), "");
}

TEST(Manifest, ACountThatIsNotAWholeNumberInRangeIsRefusedNamingTheField) {
  // 200.0 was read as 200 and 4294967496 as 200 (wrapped to 32 bits): both silently.
  const std::vector<json> bad = {json(200.0), json(3.01e31), json(-1), json(4294967496ULL), json("200"),
                                 json(nullptr)};
  for (const auto& value : bad) {
    SCOPED_TRACE(value.dump());
    const std::string message = parseError(edited([&](json& j) { j["segments"][0]["docs"] = value; }));
    EXPECT_NE(message.find(kName), std::string::npos) << message;
    EXPECT_NE(message.find("segments[0].docs must be a whole number from 0 to 4,294,967,295"), std::string::npos)
        << message;
  }
  const std::string top = parseError(edited([](json& j) { j["docs"] = 300.5; }));
  EXPECT_NE(top.find("MANIFEST-000001: docs must be a whole number"), std::string::npos) << top;
  EXPECT_NE(top.find("found 300.5"), std::string::npos) << top;
  const std::string file = parseError(edited([](json& j) { j["segments"][1]["files"]["docs"]["bytes"] = 1e300; }));
  EXPECT_NE(file.find("segments[1].files.docs.bytes must be a whole number"), std::string::npos) << file;
  const std::string version = parseError(edited([](json& j) { j["format_version"] = 1.0; }));
  EXPECT_NE(version.find("format_version must be a whole number"), std::string::npos) << version;
}

TEST(Manifest, OptionalBuildFiguresAreCheckedWhenPresent) {
  const std::string threads = parseError(edited([](json& j) { j["build"]["threads"] = 2.5; }));
  EXPECT_NE(threads.find("build.threads must be a whole number"), std::string::npos) << threads;
  const std::string seconds = parseError(edited([](json& j) { j["build"]["seconds"] = "fast"; }));
  EXPECT_NE(seconds.find("build.seconds must be a finite number"), std::string::npos) << seconds;
  // Absent build figures are zero, as manifests written before they existed.
  const engine::Manifest m = engine::Manifest::parse(edited([](json& j) {
                                                       j["build"].erase("threads");
                                                       j["build"].erase("seconds");
                                                     }),
                                                     kName);
  EXPECT_EQ(m.build.threads, 0u);
  EXPECT_EQ(m.build.seconds, 0.0);
}

TEST(Manifest, Bm25ParametersMustBeFiniteF32Numbers) {
  const std::string huge = parseError(edited([](json& j) { j["bm25"]["k1"] = 1e39; }));
  EXPECT_NE(huge.find("bm25.k1 must be within f32's range"), std::string::npos) << huge;
  const std::string text = parseError(edited([](json& j) { j["bm25"]["b"] = "0.75"; }));
  EXPECT_NE(text.find("bm25.b must be a finite number"), std::string::npos) << text;
}

TEST(Manifest, AFileCrcMustBeEightHexDigits) {
  // std::stoul took "-1" (as 0xffffffff), a 64-bit value (cut to 32 bits) and trailing junk.
  for (const char* crc : {"-1", "1ffffffff", "0badf00dzz", "0badf0 d", "0BADF00"}) {
    SCOPED_TRACE(crc);
    const std::string message = parseError(edited([&](json& j) { j["segments"][0]["files"]["docs"]["crc32"] = crc; }));
    EXPECT_NE(message.find("segments[0].files.docs.crc32 must be eight hex digits"), std::string::npos) << message;
  }
  const engine::Manifest upper =
      engine::Manifest::parse(edited([](json& j) { j["segments"][0]["files"]["docs"]["crc32"] = "0BADF00D"; }), kName);
  EXPECT_EQ(upper.segments[0].files.at("docs").crc32, 0x0badf00du);
}

}  // namespace
}  // namespace wandscope::test
