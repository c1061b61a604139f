// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/index/segment_files.h"

#include <fmt/format.h>

namespace wandscope::engine {

std::string segmentFileName(std::uint32_t segmentId, format::FileKind kind) {
  return fmt::format("seg-{:06d}{}", segmentId, format::fileKindExtension(kind));
}

std::string boundsFileName(std::uint32_t segmentId, std::uint64_t generation) {
  return fmt::format("seg-{:06d}.g{:06d}{}", segmentId, generation, format::fileKindExtension(format::FileKind::Bounds));
}

}  // namespace wandscope::engine
