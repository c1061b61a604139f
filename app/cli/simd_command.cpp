// SPDX-License-Identifier: GPL-3.0-or-later
// `simd`: the SIMD targets compiled into this binary, which this CPU runs, and which one the
// kernels use; and the global `--simd TARGET` option that forces one for any command.
#include "app/cli/cli_support.h"

#include "engine/codec/simd/simd_target.h"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>

namespace wandscope::app {

namespace simd = engine::simd;

void addSimdOption(CLI::App& app) {
  // Applied as soon as it is parsed, so it holds for whichever command follows; an unknown or
  // unsupported target is a usage error listing the supported ones.
  app.add_option_function<std::string>(
         "--simd", [](const std::string& name) { simd::forceTarget(name); },
         "SIMD target for the kernels: scalar, sse4, avx2, avx3, avx3_vp2 or best (default best; "
         "`wandscope-cli simd` lists what this machine supports; env WANDSCOPE_SIMD)")
      ->trigger_on_parse()
      ->type_name("TARGET");
}

void addSimdCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("simd", "List the SIMD targets compiled in, supported by this CPU, and in use");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "print JSON");
  setAction(cmd, [json] {
    const auto compiled = simd::compiledTargets();
    const auto supported = simd::supportedTargets();
    const auto current = simd::currentTarget();
    const auto best = simd::bestTarget();
    if (*json) {
      nlohmann::json j = {{"current", simd::targetName(current)},
                          {"best", simd::targetName(best)},
                          {"forced", simd::targetForced()},
                          {"compiled", nlohmann::json::array()},
                          {"supported", nlohmann::json::array()}};
      for (auto t : compiled) j["compiled"].push_back(simd::targetName(t));
      for (auto t : supported) j["supported"].push_back(simd::targetName(t));
      printJson(j);
      return 0;
    }
    std::cout << fmt::format("{:<8} {:<9} {:<10} {}\n", "target", "compiled", "supported", "");
    for (auto t : compiled) {
      const bool ok = std::find(supported.begin(), supported.end(), t) != supported.end();
      std::string note;
      if (t == current) note = simd::targetForced() ? "in use (forced)" : "in use";
      if (t == best && t != current) note = "best";
      if (t == best && t == current && !simd::targetForced()) note = "in use (best)";
      std::cout << fmt::format("{:<8} {:<9} {:<10} {}\n", simd::targetName(t), "yes", ok ? "yes" : "no", note);
    }
    std::cout << "Force one with --simd TARGET (or WANDSCOPE_SIMD=TARGET); 'best' picks the best supported.\n";
    return 0;
  });
}

}  // namespace wandscope::app
