// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/core/error.h"

#include <cerrno>
#include <cstring>

namespace wandscope::engine {

Error::Error(ErrorKind kind, const std::string& message)
    : std::runtime_error(message), m_kind(kind) {}

int exitCodeFor(ErrorKind kind) noexcept {
  switch (kind) {
    case ErrorKind::Usage:
      return 2;
    case ErrorKind::BadInput:
      return 3;
    case ErrorKind::Index:
      return 4;
    case ErrorKind::Io:
    case ErrorKind::Internal:
      return 1;
  }
  return 1;
}

const char* errorKindName(ErrorKind kind) noexcept {
  switch (kind) {
    case ErrorKind::Usage:
      return "usage";
    case ErrorKind::BadInput:
      return "bad input";
    case ErrorKind::Index:
      return "index";
    case ErrorKind::Io:
      return "i/o";
    case ErrorKind::Internal:
      return "internal";
  }
  return "unknown";
}

void throwUsage(const std::string& message) { throw Error(ErrorKind::Usage, message); }
void throwBadInput(const std::string& message) { throw Error(ErrorKind::BadInput, message); }
void throwIndex(const std::string& message) { throw Error(ErrorKind::Index, message); }
void throwIo(const std::string& message) { throw Error(ErrorKind::Io, message); }
void throwInternal(const std::string& message) { throw Error(ErrorKind::Internal, message); }

void throwErrno(const std::string& what) {
  const int saved = errno;
  // Built with append: g++ 12 warns falsely (-Wrestrict) on chained operator+ here at -O2.
  std::string message;
  message.reserve(what.size() + 64);
  message.append(what).append(": ").append(std::strerror(saved));
  throw Error(ErrorKind::Io, message);
}

}  // namespace wandscope::engine
