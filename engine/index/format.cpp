// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/index/format.h"

namespace wandscope::engine::format {

std::string_view fileKindName(FileKind kind) noexcept {
  switch (kind) {
    case FileKind::Terms:
      return "terms";
    case FileKind::Postings:
      return "postings";
    case FileKind::Bounds:
      return "bounds";
    case FileKind::Docs:
      return "docs";
    case FileKind::Store:
      return "store";
  }
  return "unknown";
}

std::string_view fileKindExtension(FileKind kind) noexcept {
  switch (kind) {
    case FileKind::Terms:
      return ".terms";
    case FileKind::Postings:
      return ".post";
    case FileKind::Bounds:
      return ".bounds";
    case FileKind::Docs:
      return ".docs";
    case FileKind::Store:
      return ".store";
  }
  return ".unknown";
}

}  // namespace wandscope::engine::format
