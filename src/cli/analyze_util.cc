#include "cli/analyze_util.h"
#include "cli/read_input.h"

#include <stdexcept>

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

}  // namespace schedlab::cli
