// Helpers shared by the commands (analyze *, flurries, sessions; the standard-output checks also simulate and
// compare): duration option values, reading a log with the usual --skip-invalid handling, one standard output
// document at a time and no report option where a CSV replaces the report.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "schedlab/swf/reader.h"

namespace schedlab::cli {

// A duration (base/duration.h: "90", "20m", "1.5h", "1h30m", "1w") -> seconds (> 0 unless allow_zero). Throws
// std::invalid_argument naming `option` on anything else.
int64_t parse_duration(std::string_view option, std::string_view text, bool allow_zero = false);

// Reads the whole log (ReadOptions::skip_invalid as given).
swf::Log read_log_for_analysis(const std::string& path, bool skip_invalid);

// Throws std::invalid_argument when both --json and a CSV output go to standard output ("-").
void check_one_stdout_document(bool json, const std::string& csv_path);

// With its CSV on standard output ("-") a command prints no report, the CSV replaces it: an option that only adds
// to the report would do nothing. Throws CLI::ValidationError (a usage error, exit 2) naming the first of
// `report_options` (option name, given) that was given.
void check_no_report_options(const std::string& csv_option, const std::string& csv_path,
                             const std::vector<std::pair<std::string, bool>>& report_options);

}  // namespace schedlab::cli
