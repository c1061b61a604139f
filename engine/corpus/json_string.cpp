// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/corpus/json_string.h"

#include "engine/text/utf8.h"

namespace wandscope::engine {

void appendJsonString(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  for (std::size_t at = 0; at < s.size();) {
    const char c = s[at];
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x80) {
      const Utf8Char ch = decodeUtf8(s, at);
      if (ch.valid) {
        out.append(s.substr(at, ch.length));
      } else {
        appendUtf8(out, kReplacementChar);
      }
      at += ch.length;
      continue;
    }
    ++at;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (u < 0x20 || u == 0x7F) {
          out += "\\u00";
          out.push_back(kHex[u >> 4]);
          out.push_back(kHex[u & 0xF]);
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
}

}  // namespace wandscope::engine
