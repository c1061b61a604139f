// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench/saturation_rule.h"

#include "engine/core/wording.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

namespace wandscope::engine {

std::string SaturationRule::describe() const {
  return fmt::format(
      "An open-loop rung is invalid when fewer than {} requests were due in its window (too few to judge), when more "
      "than {:g} % of its requests were dispatched more than {:g} us late (the generator, not the target, was the "
      "limit) or it was cancelled. It fails when any of: shed > {:g} % of "
      "due requests; any request failed; admitted requests did not drain; achieved / offered rate < {:g}; the highest "
      "quantile shown in both it and the ladder's first rung (p99, else p90, else p50) > {:g}x the first rung's; the "
      "Theil-Sen slope of binned median latency x the window > {:g}x its median (a growing queue; judged on windows "
      "of at least {} bins of {:g} s, and named as not judged on shorter ones). Otherwise it passes. Maximum "
      "sustainable rate = [last passing rung, first failing or invalid rung].",
      kMinRequests, maxLateDispatchFraction * 100, lateDispatchUs, maxShedFraction * 100, minAchievedRatio,
      maxLatencyRatio, maxGrowth, kGrowthMinBins, kGrowthMinBinSeconds);
}

RungVerdict judgeRung(const SaturationRule& rule, const RungResult& rung, const RungResult* first, bool drained) {
  RungVerdict v;
  std::vector<std::string> invalid;
  const std::uint64_t dueRequests = rung.completed + rung.shed + rung.errors + rung.notRun;
  if (dueRequests < SaturationRule::kMinRequests) {
    invalid.push_back(fmt::format("too few requests to judge: {} due in the window, at least {} needed", dueRequests,
                                  SaturationRule::kMinRequests));
  }
  if (rung.partial) invalid.push_back("cancelled");
  if (rung.lateDispatchFraction > rule.maxLateDispatchFraction) {
    invalid.push_back(fmt::format("generator behind: {:.2f} % of dispatches > {:g} us late (limit {:g} %)",
                                  rung.lateDispatchFraction * 100, rule.lateDispatchUs,
                                  rule.maxLateDispatchFraction * 100));
  }
  std::vector<std::string> failed;
  const auto due = static_cast<double>(dueRequests);
  if (due > 0 && static_cast<double>(rung.shed) / due > rule.maxShedFraction) {
    failed.push_back(fmt::format("shed {:.2f} % > {:g} %", 100.0 * static_cast<double>(rung.shed) / due,
                                 rule.maxShedFraction * 100));
  }
  if (rung.errors > 0) failed.push_back(fmt::format("{} requests failed", rung.errors));
  if (!drained) failed.push_back(fmt::format("{} admitted requests did not drain", rung.notRun));
  // Against the rate actually offered in the window (a Poisson window holds a random number of
  // requests); the target rate when that is unknown.
  const double offered = rung.offeredRate > 0 ? rung.offeredRate : rung.targetRate;
  if (offered > 0 && rung.achievedRate / offered < rule.minAchievedRatio) {
    failed.push_back(fmt::format("achieved {} < {:g} x {} offered", formatRate(rung.achievedRate),
                                 rule.minAchievedRatio, formatRate(offered)));
  }
  if (first != nullptr && first != &rung) {
    const std::pair<const char*, std::optional<double> RungResult::*> quantiles[] = {
        {"p99", &RungResult::p99Ms}, {"p90", &RungResult::p90Ms}, {"p50", &RungResult::p50Ms}};
    for (const auto& [name, member] : quantiles) {
      const auto& mine = rung.*member;
      const auto& base = first->*member;
      if (!mine || !base) continue;
      if (*mine > rule.maxLatencyRatio * *base) {
        failed.push_back(fmt::format("{} {} ms > {:g} x first rung's {} ms", name, significant(*mine),
                                     rule.maxLatencyRatio, significant(*base)));
      }
      break;
    }
  }
  if (rung.latencyGrowth && *rung.latencyGrowth > rule.maxGrowth) {
    failed.push_back(fmt::format("latency growing: Theil-Sen rise over the window {:.3g} x median > {:g}",
                                 *rung.latencyGrowth, rule.maxGrowth));
  } else if (!rung.latencyGrowth) {
    v.unjudged = fmt::format("latency growth (a window of {:.3g} s; it needs {} bins of at least {:g} s)",
                             rung.durationSeconds, SaturationRule::kGrowthMinBins, SaturationRule::kGrowthMinBinSeconds);
  }
  auto join = [](const std::vector<std::string>& parts) {
    std::string out;
    for (const auto& p : parts) {
      if (!out.empty()) out += "; ";
      out += p;
    }
    return out;
  };
  if (!invalid.empty()) {
    v.verdict = "invalid";
    v.valid = false;
    std::vector<std::string> all = invalid;
    all.insert(all.end(), failed.begin(), failed.end());
    v.criterion = join(all);
  } else if (!failed.empty()) {
    v.verdict = "fail";
    v.criterion = join(failed);
  } else {
    v.verdict = "pass";
  }
  return v;
}

RunReport::Capacity capacityOf(const std::vector<const RungResult*>& ladder) {
  RunReport::Capacity c;
  for (const RungResult* r : ladder) {
    if (r->verdict == "pass") {
      c.lastPass = r->targetRate;
      continue;
    }
    c.firstFail = r->targetRate;
    c.criterion = r->verdict == "invalid" ? fmt::format("invalid: {}", r->criterion) : r->criterion;
    break;
  }
  return c;
}

std::string describeCapacity(const RunReport::Capacity& c) {
  auto rate = [](double r) { return formatRate(r); };
  const std::string lo = c.lastPass ? rate(*c.lastPass) : std::string("below the first rung");
  constexpr std::string_view kInvalid = "invalid: ";
  if (c.firstFail && c.criterion.compare(0, kInvalid.size(), kInvalid) == 0) {
    const std::string why = c.criterion.substr(kInvalid.size());
    if (!c.lastPass) {
      return fmt::format("not established: the first rung, {}, could not be judged (invalid: {})", rate(*c.firstFail),
                         why);
    }
    return fmt::format("at least {}; the next rung, {}, could not be judged (invalid: {})", lo, rate(*c.firstFail),
                       why);
  }
  const std::string hi = c.firstFail ? rate(*c.firstFail) : std::string("above the last rung");
  std::string text = fmt::format("[{}, {}]", lo, hi);
  if (!c.criterion.empty()) text += fmt::format(" (first failing rung: {})", c.criterion);
  return text;
}

std::optional<double> theilSenSlope(const std::vector<double>& x, const std::vector<double>& y) {
  const std::size_t n = std::min(x.size(), y.size());
  if (n < 2) return std::nullopt;
  std::vector<double> slopes;
  slopes.reserve(n * (n - 1) / 2);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      if (x[j] != x[i]) slopes.push_back((y[j] - y[i]) / (x[j] - x[i]));
    }
  }
  if (slopes.empty()) return std::nullopt;
  const std::size_t mid = slopes.size() / 2;
  std::nth_element(slopes.begin(), slopes.begin() + static_cast<std::ptrdiff_t>(mid), slopes.end());
  double m = slopes[mid];
  if (slopes.size() % 2 == 0) {
    const double below = *std::max_element(slopes.begin(), slopes.begin() + static_cast<std::ptrdiff_t>(mid));
    m = (m + below) / 2.0;
  }
  return m;
}

}  // namespace wandscope::engine
