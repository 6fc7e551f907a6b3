// A count and its noun in a message: "1 job", "2 jobs", "0 jobs". One rule for every command's text, which printed
// "1 jobs" and "1 records" wherever a log, a filter or a run left a single one.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace schedlab::base {

// `singular` when n is 1 or -1, else `plural` (default: `singular` + "s").
std::string noun(int64_t n, std::string_view singular, std::string_view plural = {});

// "1 job", "28489 jobs".
std::string counted(int64_t n, std::string_view singular, std::string_view plural = {});

// "1 job", "28,489 jobs" (group_thousands).
std::string counted_grouped(int64_t n, std::string_view singular, std::string_view plural = {});

}  // namespace schedlab::base
