// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace wandscope::engine {

// What went wrong, coarse enough to choose a CLI exit code and a GUI message style.
enum class ErrorKind {
  Usage,     // impossible parameters, unknown names (CLI exit 2)
  BadInput,  // malformed corpus, query, qrels or profile files (CLI exit 3)
  Index,     // missing, corrupt, truncated or incompatible index (CLI exit 4)
  Io,        // the operating system refused (disk full, permissions) (CLI exit 1)
  Internal,  // a bug: an invariant the engine relies on did not hold (CLI exit 1)
};

// The one exception type the engine throws. The message is a complete, single-line sentence that
// names the file, line and field where one is involved: "corpus.jsonl:1042: missing field _id".
class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message);

  ErrorKind kind() const noexcept { return m_kind; }

 private:
  ErrorKind m_kind;
};

// The CLI exit code for an error kind (0 is success, never returned here).
int exitCodeFor(ErrorKind kind) noexcept;
const char* errorKindName(ErrorKind kind) noexcept;

// Convenience throwers; they keep call sites to one line.
[[noreturn]] void throwUsage(const std::string& message);
[[noreturn]] void throwBadInput(const std::string& message);
[[noreturn]] void throwIndex(const std::string& message);
[[noreturn]] void throwIo(const std::string& message);
[[noreturn]] void throwInternal(const std::string& message);

// Throws ErrorKind::Io with "<what>: <strerror(errno)>" for the errno at the time of the call.
[[noreturn]] void throwErrno(const std::string& what);

// Runs `fn`. A Usage error from it (a query the engine refuses, e.g. more than kMaxQueryTerms
// terms) is a bad line of the file that held the input, so it is thrown again as BadInput,
// "<where()>: <message>"; `where` is called only then. Other errors pass unchanged.
template <class Fn, class Where>
decltype(auto) usageAsBadInput(Fn&& fn, Where&& where) {
  try {
    return std::forward<Fn>(fn)();
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::Usage) throw;
    throwBadInput(std::string(std::forward<Where>(where)()) + ": " + e.what());
  }
}

}  // namespace wandscope::engine
