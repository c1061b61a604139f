// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Numbers read from JSON that a user, a damaged file or another build wrote. nlohmann's
// get<std::uint32_t>() converts whatever number it finds: a float that does not fit the integer
// type is undefined behaviour (CI's fuzzer found "docs": 3e31 in a manifest), a negative or too
// large integer wraps silently. These refuse instead: nullopt when the value is not what the
// field needs, for the caller to name the file and field.

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace wandscope::engine {

// A JSON integer in [0, max]; nullopt for a float (even 2.0), a negative, a larger integer, or a
// non-number.
std::optional<std::uint64_t> jsonUnsigned(const nlohmann::json& value,
                                          std::uint64_t max = std::numeric_limits<std::uint64_t>::max());
// A JSON number (integer or float) that is finite as a double; nullopt otherwise.
std::optional<double> jsonFinite(const nlohmann::json& value);
// The value as its JSON text cut to 40 characters, for messages that say what was found.
std::string jsonSnippet(const nlohmann::json& value);

}  // namespace wandscope::engine
