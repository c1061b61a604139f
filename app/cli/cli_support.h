// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/core/progress.h"
#include "engine/corpus/query_reader.h"
#include "engine/query/search_request.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

namespace wandscope::app {

// Each command group registers its subcommands; the callback runs after a successful parse and
// returns the exit code.
using CommandAction = std::function<int()>;
void setAction(CLI::App* command, CommandAction action);

// Progress for long operations: a single updating line on stderr when stdout is a terminal,
// nothing otherwise (so redirected runs and CI logs stay clean).
engine::ProgressFn terminalProgress(const std::string& label);
// Ends the progress line (prints a newline if one was drawn).
void endProgress();
bool stdoutIsTerminal();

// For --help: "auto | exhaustive | ..." (every --algo name, with the operator each applies to) and
// the --opt switch names, from the engine's own lists.
std::string algorithmHelp();
std::string optionSwitchHelp();
// A count option read as a signed integer, so that "-1" is refused rather than wrapped: its
// value, or a usage error "--k must be between 0 and MAX, got V".
std::size_t countOption(const std::string& option, std::int64_t value, std::size_t max);
// The same with a lower bound: "--docs must be between 1 and MAX, got V" (CLI::PositiveNumber
// said "Value 0 not in range 0.000000 to 1797693134862315708...").
std::size_t countOption(const std::string& option, std::int64_t value, std::size_t min, std::size_t max);
// A warm-up in seconds given on the command line: its value, or a usage error unless it is finite
// and from 0 to kMaxWarmupSeconds (the profiles' limit; 1e308 once spun until killed).
inline constexpr double kMaxWarmupSeconds = 3600;
double warmupOption(const std::string& option, double value);
// --algo's path for --op's operator: a usage error names --algo and lists the paths that apply
// ("--algo bmw does not evaluate AND queries (AND queries take auto, exhaustive, ...)").
engine::Algorithm algorithmOption(const std::string& name, engine::Operator op);
// Applies the values of a repeated --opt in turn; a switch named in two of them is a usage error.
void applyOptionSpecs(engine::SearchOptions& options, const std::vector<std::string>& specs);
// The queries of a query file; one that holds none is a bad input file (exit 3), as a run or a
// study of nothing would report only zeros.
std::vector<engine::QueryRecord> readQueryFile(const std::string& path);
// How a message names one query of a query file, as `run` names it: "query q1 (the 2nd query of
// the file)" for queries[1] with id q1 (`index` counts from 0).
std::string queryOfFile(const engine::QueryRecord& query, std::size_t index);

// SIGINT (Ctrl-C) and SIGTERM for a command that writes files (corpus gen, queries gen, index
// build). Killed by either, it left its temporaries behind: a 700 MB "c.jsonl.tmp.<pid>", an
// index's ".<name>.building-XXXXXX" and its lock. While this object lives, the first of them
// requests stop on token() instead (within 50 ms, from a watcher thread: a signal handler may do
// no more than set a flag); the work checks the token, throws, and removes what it made as it
// unwinds. A second signal kills the process at once, as it would without this object. One object
// at a time; the previous handlers are back when it is destroyed.
class StopOnSignal {
 public:
  StopOnSignal();
  ~StopOnSignal();
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;

  std::stop_token token() const noexcept { return m_stop.get_token(); }
  // The signal that asked for the stop ("SIGINT", "SIGTERM"), or nothing ("") when none came.
  std::string signalName() const;

 private:
  std::stop_source m_stop;
  std::jthread m_watcher;
};

// Runs `work` with a StopOnSignal's token. When a signal stopped it (the work threw after the
// signal came), whatever it threw gives way to one line on stderr, "wandscope-cli: <what>
// interrupted by SIGINT; its partial output was removed", and exit code 1. Otherwise returns what
// `work` returns, or lets its exception through (a signal after the work completed changes nothing).
int runStoppable(const std::string& what, const std::function<int(std::stop_token)>& work);
// The end of a run command's last line: "" for a complete run, " (partial: interrupted by SIGTERM)"
// when `signal` (StopOnSignal::signalName()) stopped it, " (partial: interrupted)" otherwise.
std::string partialNote(bool partial, const std::string& signal);
// A progress function that throws (unwinding the work) once `stop` is requested and otherwise
// calls `inner` (which may be empty), for work whose only hook is its progress callback.
engine::ProgressFn stoppableProgress(engine::ProgressFn inner, std::stop_token stop);

std::string humanBytes(std::uint64_t bytes);
std::string floatBits(float value);  // 8 lower-case hex digits

// JSON text (indent -1: one line). Bytes of a string that are not UTF-8 (a query typed in
// another encoding, an id of an old index) become U+FFFD instead of failing the command.
std::string jsonText(const nlohmann::json& j, int indent = -1);
// Writes JSON (pretty when stdout is a terminal) followed by a newline.
void printJson(const nlohmann::json& j);

// Runs the whole CLI; returns the process exit code. Errors print one line on stderr.
int runCli(int argc, char** argv);

// Registration functions, one per command group.
void addCorpusCommands(CLI::App& app);
void addIndexCommands(CLI::App& app);
void addSearchCommand(CLI::App& app);
void addRunCommand(CLI::App& app);
void addEvalCommand(CLI::App& app);
void addDefaultCommand(CLI::App& app);
void addBenchCommand(CLI::App& app);
void addRunsCommand(CLI::App& app);
void addCompareCommand(CLI::App& app);
void addPeersCommand(CLI::App& app);
void addSimdCommand(CLI::App& app);
// The global --simd TARGET option (applied as soon as it is parsed).
void addSimdOption(CLI::App& app);

}  // namespace wandscope::app
