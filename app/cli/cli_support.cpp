// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/cli_support.h"

#include "engine/core/error.h"
#include "engine/peers/peer_targets.h"
#include "wandscope_git_revision.h"  // generated at build time (cmake/GitRevision.cmake)

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <iostream>
#include <mutex>

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

void printJson(const nlohmann::json& j) {
  std::cout << (stdoutIsTerminal() ? j.dump(2) : j.dump()) << '\n';
}

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
