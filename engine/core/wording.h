// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Small pieces of English the engine and its front ends share, so a message reads the same
// wherever it is printed.

#include <cstdint>
#include <string>
#include <string_view>

namespace wandscope::engine {

// A count with its noun in the right number: counted(1, "token", "tokens") is "1 token",
// counted(3, "known term", "known terms") is "3 known terms"; digits grouped as grouped() does.
std::string counted(std::uint64_t n, std::string_view one, std::string_view many);

// A count with its digits grouped by thousands: "1,234,567".
std::string grouped(std::uint64_t n);
// An ordinal number, grouped as grouped() does: "1st", "2nd", "3rd", "11th", "21st", "1,000th".
std::string ordinal(std::uint64_t n);
// A number to four significant digits as people write it, never in exponent notation: whole and
// grouped from 1,000 up ("102,790"), "150.4", "0.02203", "0.0001234". Reports printed rates as
// "1e+04/s" and times as "3e-05 ms" (review, stop 32). "nan" / "inf" as such.
std::string significant(double value);
// An f32 figure (a score, idf, contribution) exactly: the shortest decimal that reads back as the
// same f32, never in exponent notation ("1146.3198", "3" beside "3.0000002", "0.0000249991");
// "nan", "inf", "-inf" for the rest. Where four significant digits would hide a one-ulp difference.
std::string exactFigure(float value);
// A rate: significant(perSecond) + "/s" ("10,000/s", "0.5/s").
std::string formatRate(double perSecond);

}  // namespace wandscope::engine
