// A number as every schedlab CSV file writes it: the shortest text that reads back as the same double, and
// "nan" for NaN (a value the analysis could not compute).
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/core.h>

namespace schedlab::base {

inline std::string csv_number(double v) { return std::isnan(v) ? "nan" : fmt::format("{}", v); }

// And back: the value when the whole cell is a decimal number ("12", "-0.5", "1e-3", "nan", "inf"), read
// without the locale; nullopt for anything else ("", "12abc", "0x10", " 12").
std::optional<double> parse_csv_number(std::string_view s);

}  // namespace schedlab::base
