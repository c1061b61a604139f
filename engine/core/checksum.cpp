// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/core/checksum.h"

#include <zlib.h>

#include <algorithm>
#include <limits>

namespace wandscope::engine {

std::uint32_t crc32Update(std::uint32_t crc, std::span<const std::byte> bytes) noexcept {
  uLong value = crc;
  const auto* data = reinterpret_cast<const Bytef*>(bytes.data());
  std::size_t remaining = bytes.size();
  // zlib takes uInt lengths: feed very large spans in chunks.
  while (remaining > 0) {
    const std::size_t chunk = std::min<std::size_t>(remaining, std::numeric_limits<uInt>::max());
    value = ::crc32(value, data, static_cast<uInt>(chunk));
    data += chunk;
    remaining -= chunk;
  }
  return static_cast<std::uint32_t>(value);
}

}  // namespace wandscope::engine
