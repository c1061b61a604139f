// SPDX-License-Identifier: GPL-3.0-or-later
// `wandscope --run-profile FILE --out DIR` (what scripts/gui-cost.sh measures), run as a script
// would (offscreen): the smoke profile on the Load page, its report bundle labelled as measured
// with the GUI attached.
#include "tests/app/app_test_support.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace wandscope::test {
namespace {

const std::string kSmoke = WANDSCOPE_SOURCE_DIR "/benchprofiles/smoke.json";

TEST(RunProfile, WritesAGuiAttachedReportOfTheSmokeProfile) {
  TempDir dir;
  const auto out = dir / "bundle";
  const auto r = runProcess(WANDSCOPE_GUI, {"--run-profile", kSmoke, "--out", out.string()}, workbenchEnv(dir));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (const char* file : {"report.json", "report.md", "rungs.csv", "report.html"}) {
    EXPECT_TRUE(std::filesystem::exists(out / file)) << file;
  }
  std::ifstream in(out / "report.json");
  const auto report = nlohmann::json::parse(in);
  EXPECT_EQ(report["profile"].get<std::string>(), "smoke");
  EXPECT_TRUE(report["environment"]["gui_attached"].get<bool>());
  EXPECT_FALSE(report["environment"]["simd_target"].get<std::string>().empty());
  ASSERT_FALSE(report["rungs"].empty());
  bool closed = false;
  for (const auto& rung : report["rungs"]) {
    if (rung["mode"] == "closed") {
      closed = true;
      EXPECT_GT(rung["completed"].get<std::uint64_t>(), 0u);
      EXPECT_GT(rung["cpu_ms_per_query"].get<double>(), 0.0);
    }
  }
  EXPECT_TRUE(closed);
  // Scripted runs leave the user's settings and run store alone.
  EXPECT_FALSE(std::filesystem::exists(dir / "config" / "wandscope"));
  EXPECT_FALSE(std::filesystem::exists(dir / "data" / "wandscope" / "runs.sqlite"));
}

TEST(RunProfile, RejectsBadArgumentsAndReportsFailures) {
  TempDir dir;
  const auto out = (dir / "o").string();
  EXPECT_EQ(runProcess(WANDSCOPE_GUI, {"--run-profile", kSmoke}, workbenchEnv(dir)).exitCode, 2);  // no --out
  EXPECT_EQ(runProcess(WANDSCOPE_GUI, {"--out", out}, workbenchEnv(dir)).exitCode, 2);
  EXPECT_EQ(runProcess(WANDSCOPE_GUI, {"--run-profile", (dir / "nope.json").string(), "--out", out}, workbenchEnv(dir)).exitCode, 2);
  EXPECT_EQ(runProcess(WANDSCOPE_GUI, {"--run-profile", kSmoke, "--out", out, "--simd", "neon"}, workbenchEnv(dir)).exitCode, 2);
  // A profile that does not parse: the run fails with a non-zero exit and says why.
  const auto bad = dir.write("bad.json", R"({"format_version": 1, "name": "bad"})");
  const auto r = runProcess(WANDSCOPE_GUI, {"--run-profile", bad.string(), "--out", out}, workbenchEnv(dir));
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_FALSE(r.err.empty());
  EXPECT_FALSE(std::filesystem::exists(dir / "o" / "report.json"));
  // --help documents it.
  const auto help = runProcess(WANDSCOPE_GUI, {"--help"}, workbenchEnv(dir));
  EXPECT_NE(help.out.find("--run-profile"), std::string::npos);
}

}  // namespace
}  // namespace wandscope::test
