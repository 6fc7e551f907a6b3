// A number as every schedlab CSV file writes it: the shortest text that reads back as the same double, and
// "nan" for NaN (a value the analysis could not compute).
#pragma once

#include <cmath>
#include <string>

#include <fmt/core.h>

namespace schedlab::base {

inline std::string csv_number(double v) { return std::isnan(v) ? "nan" : fmt::format("{}", v); }

}  // namespace schedlab::base
