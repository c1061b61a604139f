// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/corpus/run_file.h"

#include "engine/core/error.h"
#include "engine/corpus/json_string.h"
#include "engine/corpus/line_reader.h"
#include "engine/corpus/text_fields.h"
#include "engine/text/utf8.h"

#include <nlohmann/json.hpp>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string_view>

namespace wandscope::engine {

bool isTrecField(std::string_view s) noexcept {
  if (s.empty()) return false;
  for (const char c : s) {
    if (isAsciiSpace(c)) return false;
  }
  return true;
}

namespace {


void checkWord(const std::string& s, const char* what) {
  if (!isTrecField(s)) {
    std::string quoted;
    appendJsonString(quoted, s);  // a newline in it shows as \n
    throwBadInput(std::string("cannot write a TREC run: ") + what + " " + quoted +
                  " is empty or contains whitespace (--format dump holds any id)");
  }
}

// "%.9g": nine significant digits are enough for any f32 to read back bit-identical.
std::string formatScore(float score) {
  char buffer[32];
  const int n = std::snprintf(buffer, sizeof buffer, "%.9g", static_cast<double>(score));
  return std::string(buffer, static_cast<std::size_t>(n));
}

[[noreturn]] void throwAtLine(const std::filesystem::path& path, const LineReader& lines,
                              const std::string& what) {
  throwBadInput(path.string() + ":" + std::to_string(lines.lineNumber()) + ": " + what);
}

bool parseBits(std::string_view text, std::uint32_t& bits) noexcept {
  if (text.size() != 8) return false;
  for (const char c : text) {
    const bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    if (!hex) return false;
  }
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), bits, 16);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

void writeTrecRunQuery(std::ostream& out, const std::string& queryId,
                       const std::vector<RunHit>& hits, const std::string& tag) {
  checkWord(queryId, "query id");
  checkWord(tag, "run tag");
  std::string text;
  for (std::size_t i = 0; i < hits.size(); ++i) {
    checkWord(hits[i].docId, "document id");
    text += queryId;
    text += " Q0 ";
    text += hits[i].docId;
    text += ' ';
    text += std::to_string(i + 1);
    text += ' ';
    text += formatScore(hits[i].score);
    text += ' ';
    text += tag;
    text += '\n';
  }
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

void writeDumpQuery(std::ostream& out, const std::string& queryId,
                    const std::vector<RunHit>& hits) {
  std::string text = "{\"qid\":";
  appendJsonString(text, queryId);
  text += ",\"hits\":[";
  for (std::size_t i = 0; i < hits.size(); ++i) {
    if (i > 0) text += ',';
    text += "{\"doc\":";
    appendJsonString(text, hits[i].docId);
    text += ",\"score\":";
    // JSON has no inf/nan; "bits" carries the exact value either way.
    text += std::isfinite(hits[i].score) ? formatScore(hits[i].score) : std::string("null");
    char bits[16];
    std::snprintf(bits, sizeof bits, "%08x", std::bit_cast<std::uint32_t>(hits[i].score));
    text += ",\"bits\":\"";
    text += bits;
    text += "\"}";
  }
  text += "]}\n";
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

Run readTrecRun(const std::filesystem::path& path, NonFiniteScores nonFinite) {
  LineReader lines(path);
  Run run;
  std::vector<std::string_view> fields;
  std::string_view line;
  while (lines.next(line)) {
    if (isBlankLine(line)) continue;
    splitAtAsciiSpace(line, fields);
    if (fields.size() != 6) {
      throwAtLine(path, lines, "expected 6 fields, found " + std::to_string(fields.size()));
    }
    long long rank = 0;
    const std::string_view rankText = fields[3];
    const auto rankResult = std::from_chars(rankText.data(), rankText.data() + rankText.size(), rank);
    if (rankResult.ec != std::errc() || rankResult.ptr != rankText.data() + rankText.size()) {
      throwAtLine(path, lines, "rank '" + std::string(rankText) + "' is not an integer");
    }
    float score = 0;
    const std::string_view scoreText = fields[4];
    const auto scoreResult = std::from_chars(scoreText.data(), scoreText.data() + scoreText.size(), score);
    if (scoreResult.ec != std::errc() || scoreResult.ptr != scoreText.data() + scoreText.size()) {
      throwAtLine(path, lines, "score '" + std::string(scoreText) + "' is not an f32 number");
    }
    if (nonFinite == NonFiniteScores::Refuse && !std::isfinite(score)) {
      throwAtLine(path, lines, "score '" + std::string(scoreText) + "' is not finite");
    }
    run.queries[std::string(fields[0])].push_back(RunHit{std::string(fields[2]), score});
  }
  return run;
}

Run readDumpRun(const std::filesystem::path& path, NonFiniteScores nonFinite) {
  LineReader lines(path);
  Run run;
  std::string_view line;
  while (lines.next(line)) {
    if (isBlankLine(line)) continue;
    const auto fail = [&](const std::string& what) { throwAtLine(path, lines, what); };
    nlohmann::json object;
    try {
      object = nlohmann::json::parse(line.begin(), line.end());
    } catch (const nlohmann::json::parse_error& e) {
      fail("invalid JSON (syntax error at byte " + std::to_string(e.byte) + ")");
    } catch (const nlohmann::json::exception& e) {
      std::string_view reason = e.what();  // without nlohmann's "[json.exception.x.n] " prefix
      if (const auto bracket = reason.find("] "); bracket != std::string_view::npos) {
        reason.remove_prefix(bracket + 2);
      }
      fail("invalid JSON (" + std::string(reason) + ")");
    }
    if (!object.is_object()) fail("not a JSON object");
    const auto qid = object.find("qid");
    if (qid == object.end()) fail("missing field qid");
    if (!qid->is_string()) fail("field qid is not a string");
    const auto hits = object.find("hits");
    if (hits == object.end()) fail("missing field hits");
    if (!hits->is_array()) fail("field hits is not an array");
    const std::string& queryId = qid->get_ref<const std::string&>();
    auto [slot, inserted] = run.queries.try_emplace(queryId);
    if (!inserted) fail("duplicate query id " + queryId);
    std::vector<RunHit>& out = slot->second;
    out.reserve(hits->size());
    for (std::size_t i = 0; i < hits->size(); ++i) {
      const nlohmann::json& hit = (*hits)[i];
      const std::string where = "hits[" + std::to_string(i) + "]";
      if (!hit.is_object()) fail(where + " is not an object");
      const auto doc = hit.find("doc");
      if (doc == hit.end()) fail(where + ": missing field doc");
      if (!doc->is_string()) fail(where + ": field doc is not a string");
      const auto bits = hit.find("bits");
      if (bits == hit.end()) fail(where + ": missing field bits");
      if (!bits->is_string()) fail(where + ": field bits is not a string");
      const std::string& bitsText = bits->get_ref<const std::string&>();
      std::uint32_t pattern = 0;
      if (!parseBits(bitsText, pattern)) fail(where + ": bits '" + bitsText + "' is not 8 hex digits");
      const auto score = std::bit_cast<float>(pattern);
      if (nonFinite == NonFiniteScores::Refuse && !std::isfinite(score)) {
        fail(where + ": score (bits '" + bitsText + "') is not finite");
      }
      out.push_back(RunHit{doc->get_ref<const std::string&>(), score});
    }
  }
  return run;
}

Run readRun(const std::filesystem::path& path, NonFiniteScores nonFinite) {
  bool dump = false;
  {
    LineReader lines(path);
    std::string_view line;
    bool found = false;
    while (!found && lines.next(line)) {
      for (const char c : line) {
        if (!isAsciiSpace(c)) {
          dump = c == '{';
          found = true;
          break;
        }
      }
    }
  }
  return dump ? readDumpRun(path, nonFinite) : readTrecRun(path, nonFinite);
}

}  // namespace wandscope::engine
