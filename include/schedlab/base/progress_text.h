// The text of a long computation's progress, one definition for the `schedlab` command (on standard error) and the
// Python module (on sys.stderr, where a notebook shows it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace schedlab::base {

// 28489 -> "28,489" (negative numbers keep their sign).
std::string group_thousands(int64_t n);

// "1h02m", "3m05s", "42s"; "?" when unknown (negative, NaN or beyond 10^7 s).
std::string duration_text(double seconds);

// `done` of `total` units after `elapsed` seconds. `bar`: a terminal's line redrawn in place,
// "what: [#########.....................] 1,200/4,000 jobs done, ETA 42s"; otherwise a line of a log,
// "what: 1,200/4,000 jobs done, 850 jobs/s, ETA 42s".
std::string progress_text(std::string_view what, std::string_view unit, size_t done, size_t total, double elapsed,
                          bool bar);

}  // namespace schedlab::base
