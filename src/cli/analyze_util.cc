#include "cli/analyze_util.h"
#include "cli/read_input.h"

#include <stdexcept>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "schedlab/base/duration.h"

namespace schedlab::cli {

int64_t parse_duration(std::string_view option, std::string_view text, bool allow_zero) {
  const auto seconds = base::parse_duration(text);
  if (!seconds || (*seconds == 0 && !allow_zero))
    throw std::invalid_argument(fmt::format(
        "{}: '{}' is not a {}duration (a number with an optional unit s, m, h, d or w: 90, 15m, 1.5h, 2d)", option,
        text, allow_zero ? "" : "positive "));
  return *seconds;
}

swf::Log read_log_for_analysis(const std::string& path, bool skip_invalid) {
  swf::ReadOptions options;
  options.skip_invalid = skip_invalid;
  return read_input_log(path, options);
}

void check_one_stdout_document(bool json, const std::string& csv_path) {
  if (json && csv_path == "-")
    throw std::invalid_argument("--json and CSV to standard output ('-') cannot be combined: write the CSV to a file");
}

void check_no_report_options(const std::string& csv_option, const std::string& csv_path,
                             const std::vector<std::pair<std::string, bool>>& report_options) {
  if (csv_path != "-") return;
  for (const auto& [option, given] : report_options)
    if (given)
      throw CLI::ValidationError(fmt::format("{} adds to the report, which {} - replaces with the CSV: write the CSV "
                                             "to a file to have both, or leave {} out",
                                             option, csv_option, option));
}

}  // namespace schedlab::cli
