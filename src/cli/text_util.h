// Small helpers shared by the CLI commands for text output and option values.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "schedlab/base/count_text.h"
#include "schedlab/base/progress_text.h"

namespace schedlab::cli {

// The help of every log argument (swf::read_swf_or_csv reads either format, by name).
inline constexpr const char* kLogInputHelp =
    "the log: SWF (plain or gzip; - = standard input), or CSV for a .csv or .csv.gz name";

// The help of every -o that writes a log (swf::write_swf_or_csv chooses the format by name).
inline constexpr const char* kLogOutputHelp =
    "output log: SWF, or CSV for a .csv or .csv.gz name (.gz compresses; - = standard output SWF)";

// An output path as messages name it: "-" is "standard output".
inline std::string output_name(const std::string& path) { return path == "-" ? "standard output" : path; }

using base::group_thousands;  // 28489 -> "28,489"
using base::counted;          // "1 job", "2 jobs"
using base::counted_grouped;  // "1 job", "28,489 jobs"

// Parses a whole decimal integer option value; throws std::invalid_argument naming `option` otherwise.
int64_t parse_int_option(std::string_view option, std::string_view text, int64_t min_value, int64_t max_value);

// Parses a comma-separated list of integers ("3,17,42"); throws std::invalid_argument naming `option`.
std::set<int32_t> parse_int_list(std::string_view option, std::string_view text);

}  // namespace schedlab::cli
