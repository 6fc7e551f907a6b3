// Helpers shared by the analysis commands (analyze *, flurries, sessions): duration option values, reading
// a log with the usual --skip-invalid handling, and writing CSV files.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "schedlab/swf/reader.h"

namespace schedlab::cli {

// "90" or "90s" (seconds), "20m", "6h", "3d", "1w" -> seconds (> 0 unless allow_zero). Throws
// std::invalid_argument naming `option` on anything else.
int64_t parse_duration(std::string_view option, std::string_view text, bool allow_zero = false);

// Reads the whole log (ReadOptions::skip_invalid as given).
swf::Log read_log_for_analysis(const std::string& path, bool skip_invalid);

// Writes `rows` (already formatted CSV lines, header first) to `path` ("-" = standard output).
// Throws std::runtime_error when the file cannot be written.
void write_csv_lines(const std::string& path, const std::vector<std::string>& rows);

// Throws std::invalid_argument when both --json and a CSV output go to standard output ("-").
void check_one_stdout_document(bool json, const std::string& csv_path);

// Shortest round-trip text of a double for CSV ("nan" for NaN).
std::string csv_number(double v);

}  // namespace schedlab::cli
