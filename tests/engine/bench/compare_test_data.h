// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A hand-made comparison for the compare report writer and run store tests: every field set to a
// distinctive value, and untrusted text (markup, quotes, commas, a newline) in the corpus-derived
// and plugin-reported strings: a query id, a query set name, a target spec, a build id, a host.

#include "engine/bench/compare_types.h"

#include <string>

namespace wandscope::test {

// The hostile text the report's untrusted strings carry.
inline constexpr const char* kHostileText = "<script>alert(\"x\")&'1'</script>";

// mode "closed": two query sets x {cpu_ms_per_query, p50_ms} plus the A/A rows, the second set's
// results differing (one differing query id is kHostileText). mode "open": p50 and p99 at two
// offered rates, capacity for A and B, one result-equality row per query set.
engine::CompareReport makeCompareReport(const std::string& id, const std::string& mode = "closed");

// The same with a third target, B2 (builtin:bulk_and=off): every scenario and result-equality row
// again for B2 (its figures 20 % higher than B's, its results identical to A's), and in open mode
// its capacity.
engine::CompareReport makeCompareReport3(const std::string& id, const std::string& mode = "closed");

}  // namespace wandscope::test
