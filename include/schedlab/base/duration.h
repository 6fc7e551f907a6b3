// Durations as users write them, one rule for every command and parameter: a decimal number with an
// optional unit — s (default), m, h, d or w — e.g. "90", "90s", "15m", "1.5h", "2d", "1w", or several such
// parts ("1h30m", "1m30s"). The value is rounded to whole seconds, half away from zero. And back: the
// short form used in tables.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace schedlab::base {

// Seconds, or nullopt when `text` is not a duration (empty, no number, unknown unit, negative, infinite or
// beyond 2^53 s). Spaces around the text are ignored.
std::optional<int64_t> parse_duration(std::string_view text);

// The shortest exact form: 14400 -> "4h", 300 -> "5m", 45 -> "45s", 0 -> "0s", 90 -> "1m30s", 12000 -> "3:20" (h:mm),
// 5430 -> "1:30:30".
std::string format_duration(int64_t seconds);

}  // namespace schedlab::base
