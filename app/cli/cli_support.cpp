// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli_support.h"

#include "engine/core/error.h"
#include "engine/core/wording.h"
#include "engine/peers/peer_targets.h"
#include "engine/query/search_request.h"
#include "wandscope_git_revision.h"  // generated at build time (cmake/GitRevision.cmake)

#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <limits>
#include <iostream>
#include <mutex>
#include <string_view>

namespace wandscope::app {
namespace {

std::mutex g_progressMutex;
bool g_progressDrawn = false;
int g_exitCode = 0;

}  // namespace

void setAction(CLI::App* command, CommandAction action) {
  // CLI11 callbacks return nothing: the command's exit code is kept for runCli to return.
  command->callback([action = std::move(action)] { g_exitCode = action(); });
}

bool stdoutIsTerminal() { return ::isatty(STDOUT_FILENO) == 1; }

engine::ProgressFn terminalProgress(const std::string& label) {
  if (!stdoutIsTerminal() || ::isatty(STDERR_FILENO) != 1) return {};
  return [label](const engine::Progress& p) {
    std::lock_guard lock(g_progressMutex);
    std::string line;
    if (p.total > 0) {
      const double pct = 100.0 * static_cast<double>(p.done) / static_cast<double>(p.total);
      line = fmt::format("\r{}: {} {:5.1f}% ({}/{})", label, p.stage, pct, p.done, p.total);
    } else {
      line = fmt::format("\r{}: {} {}", label, p.stage, p.done);
    }
    std::fprintf(stderr, "%-79s", line.c_str());
    std::fflush(stderr);
    g_progressDrawn = true;
  };
}

void endProgress() {
  std::lock_guard lock(g_progressMutex);
  if (g_progressDrawn) {
    std::fprintf(stderr, "\n");
    g_progressDrawn = false;
  }
}

std::string algorithmHelp() {
  std::string orNames;
  std::string andNames;
  for (const auto algo : engine::allAlgorithms()) {
    if (algo == engine::Algorithm::Auto || algo == engine::Algorithm::Exhaustive) continue;
    std::string& list = engine::algorithmSupports(algo, engine::Operator::Or) ? orNames : andNames;
    list += (list.empty() ? "" : " | ") + std::string(engine::algorithmName(algo));
  }
  return "evaluation path: auto | exhaustive (both operators); " + orNames + " (or); " + andNames + " (and)";
}

std::string optionSwitchHelp() {
  return "optimisation switches, all on by default, as name=on|off separated by commas (repeatable; 1|0 and "
         "true|false too, and a bare name means on): " +
         engine::SearchOptions::names();
}

engine::Algorithm algorithmOption(const std::string& name, engine::Operator op) {
  engine::Algorithm algo{};
  try {
    algo = engine::parseAlgorithm(name);
  } catch (const engine::Error& e) {
    if (e.kind() != engine::ErrorKind::Usage) throw;
    engine::throwUsage(std::string("--algo: ") + e.what());
  }
  if (!engine::algorithmSupports(algo, op)) {
    engine::throwUsage(fmt::format("--algo {} does not evaluate {} queries ({})", name,
                                   op == engine::Operator::Or ? "OR" : "AND", engine::algorithmsFor(op)));
  }
  return algo;
}

std::size_t countOption(const std::string& option, std::int64_t value, std::size_t max) {
  return countOption(option, value, 0, max);
}

std::size_t countOption(const std::string& option, std::int64_t value, std::size_t min, std::size_t max) {
  if (value < 0 || static_cast<std::uint64_t>(value) < min || static_cast<std::uint64_t>(value) > max) {
    // The parser saturates a number beyond int64 at the limit: do not quote the limit as if the
    // user had typed it.
    const std::string got = value == std::numeric_limits<std::int64_t>::max() ? "a number too large"
                            : value == std::numeric_limits<std::int64_t>::min()
                                ? "a number too small"
                                : fmt::format("{}", value);
    engine::throwUsage(fmt::format("{} must be between {} and {}, got {}", option, min, max, got));
  }
  return static_cast<std::size_t>(value);
}

double warmupOption(const std::string& option, double value) {
  if (!std::isfinite(value) || value < 0 || value > kMaxWarmupSeconds) {
    engine::throwUsage(fmt::format("{} must be a number of seconds from 0 to {}, got {}", option, kMaxWarmupSeconds,
                                   value));
  }
  return value;
}

void applyOptionSpecs(engine::SearchOptions& options, const std::vector<std::string>& specs) {
  std::uint32_t seen = 0;  // the switches named so far (SearchOptions::apply's bits)
  for (const auto& spec : specs) {
    if (spec.empty()) engine::throwUsage("--opt needs name=on|off items, got an empty value");
    // One value at a time, so that an error quotes what the user typed, never a join of several.
    const std::uint32_t named = options.apply(spec);
    const std::uint32_t twice = named & seen;
    if (twice != 0) {
      std::string name;
      std::uint32_t bit = 1;
      options.forEach([&](const char* n, bool) {
        if (name.empty() && (twice & bit) != 0) name = n;
        bit <<= 1;
      });
      engine::throwUsage("optimisation '" + name + "' is given twice across --opt");
    }
    seen |= named;
  }
}

std::vector<engine::QueryRecord> readQueryFile(const std::string& path) {
  auto queries = engine::readQueries(path);
  if (queries.empty()) engine::throwBadInput(path + ": holds no queries");
  return queries;
}

std::string queryOfFile(const engine::QueryRecord& query, std::size_t index) {
  return fmt::format("query {} (the {} query of the file)", query.id, engine::ordinal(index + 1));
}

namespace {

// The signal a StopOnSignal caught, 0 before one came (lock-free: set from the handler).
std::atomic<int> g_stopSignal{0};
static_assert(std::atomic<int>::is_always_lock_free);
struct sigaction g_previousSigint {};
struct sigaction g_previousSigterm {};

extern "C" void onStopSignal(int signal) {
  int none = 0;
  if (!g_stopSignal.compare_exchange_strong(none, signal)) {
    // The second one: the default action (termination) as soon as this handler returns.
    struct sigaction fallback {};
    fallback.sa_handler = SIG_DFL;
    ::sigemptyset(&fallback.sa_mask);
    ::sigaction(signal, &fallback, nullptr);
    ::raise(signal);
  }
}

}  // namespace

StopOnSignal::StopOnSignal() {
  g_stopSignal.store(0);
  struct sigaction action {};
  action.sa_handler = onStopSignal;
  ::sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // reads and writes go on; the work stops at its next check
  ::sigaction(SIGINT, &action, &g_previousSigint);
  ::sigaction(SIGTERM, &action, &g_previousSigterm);
  m_watcher = std::jthread([this](std::stop_token done) {
    while (!done.stop_requested()) {
      if (g_stopSignal.load() != 0) {
        m_stop.request_stop();
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
}

StopOnSignal::~StopOnSignal() {
  m_watcher.request_stop();
  m_watcher.join();
  ::sigaction(SIGINT, &g_previousSigint, nullptr);
  ::sigaction(SIGTERM, &g_previousSigterm, nullptr);
}

std::string StopOnSignal::signalName() const {
  switch (g_stopSignal.load()) {
    case 0:
      return {};
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    default:
      return fmt::format("signal {}", g_stopSignal.load());
  }
}

int runStoppable(const std::string& what, const std::function<int(std::stop_token)>& work) {
  StopOnSignal signals;
  try {
    return work(signals.token());
  } catch (...) {
    // The work's temporaries went with the unwinding, before this handler runs.
    const std::string signal = signals.signalName();
    if (signal.empty()) throw;
    endProgress();
    std::cerr << fmt::format("wandscope-cli: {} interrupted by {}; its partial output was removed\n", what, signal);
    return 1;
  }
}

std::string partialNote(bool partial, const std::string& signal) {
  if (!partial) return {};
  return signal.empty() ? " (partial: interrupted)" : " (partial: interrupted by " + signal + ")";
}

engine::ProgressFn stoppableProgress(engine::ProgressFn inner, std::stop_token stop) {
  return [inner = std::move(inner), stop = std::move(stop)](const engine::Progress& p) {
    if (stop.stop_requested()) engine::throwUsage("cancelled");  // as index build's stop; runStoppable reports it
    if (inner) inner(p);
  };
}

std::string humanBytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024.0 && u < 4) {
    v /= 1024.0;
    ++u;
  }
  return u == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.1f} {}", v, units[u]);
}

std::string floatBits(float value) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return fmt::format("{:08x}", bits);
}

std::string jsonText(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

void printJson(const nlohmann::json& j) {
  std::cout << jsonText(j, stdoutIsTerminal() ? 2 : -1) << '\n';
}

namespace {

// CLI11 reads integers with strtoll base 0, so `--k 010` was k = 8 (octal) and `--warmup-s 0x10`
// sixteen seconds; an empty value became 0. Numbers are decimal here: every integer and float
// option of every command checks its text before CLI11 converts it.
bool isDecimal(const std::string& text, bool fraction) {
  std::size_t i = text.empty() || (text[0] != '-' && text[0] != '+') ? 0 : 1;
  // inf and nan pass as text, for the option's own range check to name them.
  if (fraction) {
    const std::string_view word = std::string_view(text).substr(i);
    if (word == "inf" || word == "infinity" || word == "nan") return true;
  }
  auto digits = [&] {
    const std::size_t from = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i - from;
  };
  std::size_t mantissa = digits();
  if (fraction && i < text.size() && text[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (fraction && i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
    if (digits() == 0) return false;
  }
  return i == text.size();
}

void requireDecimalNumbers(CLI::App& app) {
  for (CLI::Option* opt : app.get_options()) {
    const std::string type = opt->get_type_name();
    const bool integer = type == "INT" || type == "UINT";
    if (!integer && type != "FLOAT") continue;
    // A transform (it may rewrite the text): an integer's leading zeros are dropped, so that base 0
    // reads "010" as ten.
    opt->transform(CLI::Validator(
        [integer](std::string& value) {
          if (!isDecimal(value, !integer)) {
            return std::string(integer ? "expected a decimal integer" : "expected a decimal number") + ", got '" +
                   value + "'";
          }
          if (integer) {
            const std::size_t sign = value[0] == '-' || value[0] == '+' ? 1 : 0;
            const std::size_t first = std::min(value.find_first_not_of('0', sign), value.size() - 1);
            value.erase(sign, first - sign);
          }
          return std::string();
        },
        "", "decimal"));
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) requireDecimalNumbers(*sub);
}

}  // namespace

int runCli(int argc, char** argv) {
  CLI::App app{"wandscope-cli: build, query, evaluate and benchmark Wandscope search indexes.\n"
               "Exit codes: 0 success, 2 usage error, 3 bad input file, 4 index error, 1 other.",
               "wandscope-cli"};
  app.set_version_flag("--version", std::string("wandscope-cli ") + WANDSCOPE_VERSION + " (" +
                                        WANDSCOPE_GIT_COMMIT + ")");
  app.require_subcommand(1);
  // Subcommands pass options they do not know to the top level, so the global --simd works after
  // the command name too (`wandscope-cli run --simd scalar ...`).
  app.fallthrough(true);
  addSimdOption(app);
  addCorpusCommands(app);
  addIndexCommands(app);
  addSearchCommand(app);
  addRunCommand(app);
  addEvalCommand(app);
  addDefaultCommand(app);
  addBenchCommand(app);
  addCompareCommand(app);
  addRunsCommand(app);
  addPeersCommand(app);
  addSimdCommand(app);
  requireDecimalNumbers(app);
  engine::installPeerTargets();  // `bench --target xapian|sqlite-fts5`
  g_exitCode = 0;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    endProgress();
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  } catch (const engine::Error& e) {
    endProgress();
    std::cerr << "wandscope-cli: " << e.what() << '\n';
    return engine::exitCodeFor(e.kind());
  } catch (const std::bad_alloc&) {
    endProgress();
    std::cerr << "wandscope-cli: out of memory\n";
    return 1;
  } catch (const std::exception& e) {
    endProgress();
    std::cerr << "wandscope-cli: internal error: " << e.what() << '\n';
    return 1;
  }
  endProgress();
  return g_exitCode;
}

}  // namespace wandscope::app
