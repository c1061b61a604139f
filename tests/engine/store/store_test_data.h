// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Fully populated run values for the run store tests, and a field-by-field comparison that names
// every member of the run types explicitly (independent of the codec's field tables, so a field
// the codec forgot fails here).

#include "engine/bench/run_types.h"

#include <cstdint>
#include <string>

namespace wandscope::test {

// Rung `index` of a test run: every field set to a distinctive value; the quantile optionals
// alternate between present and nullopt with the index, counters vary in number and names.
engine::RungResult makeRung(std::uint32_t index);

// A run with `rungs` rungs, every header and environment field set, capacity with present and
// absent bounds, awkward text (quotes, commas, newlines, non-ASCII, SQL) in strings and keys.
engine::RunReport makeReport(const std::string& runId, std::size_t rungs);

void expectSameRung(const engine::RungResult& expected, const engine::RungResult& actual);
void expectSameHeader(const engine::RunHeader& expected, const engine::RunHeader& actual);
void expectSameReport(const engine::RunReport& expected, const engine::RunReport& actual);

}  // namespace wandscope::test
