#include "cli/analyze_util.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <fmt/core.h>

#include "schedlab/swf/writer.h"

namespace schedlab::cli {

int64_t parse_duration(std::string_view option, std::string_view text, bool allow_zero) {
  int64_t value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  const std::string_view unit(ptr, static_cast<size_t>(text.data() + text.size() - ptr));
  int64_t scale = 0;
  if (unit.empty() || unit == "s") scale = 1;
  else if (unit == "m") scale = 60;
  else if (unit == "h") scale = 3600;
  else if (unit == "d") scale = 86400;
  else if (unit == "w") scale = 7 * 86400;
  if (text.empty() || ec != std::errc() || scale == 0 || value < 0 || (value == 0 && !allow_zero) ||
      value > INT64_MAX / scale / 4)
    throw std::invalid_argument(fmt::format(
        "{}: '{}' is not a {}duration (N, Ns, Nm, Nh, Nd or Nw with a whole number N)", option, text,
        allow_zero ? "" : "positive "));
  return value * scale;
}

swf::Log read_log_for_analysis(const std::string& path, bool skip_invalid) {
  swf::ReadOptions options;
  options.skip_invalid = skip_invalid;
  return swf::read_log(path, options);
}

void write_csv_lines(const std::string& path, const std::vector<std::string>& rows) {
  std::string text;
  for (const auto& row : rows) {
    text += row;
    text += '\n';
  }
  swf::write_text_file(path, text);
}

void check_one_stdout_document(bool json, const std::string& csv_path) {
  if (json && csv_path == "-")
    throw std::invalid_argument("--json and CSV to standard output ('-') cannot be combined: write the CSV to a file");
}

std::string csv_number(double v) {
  if (std::isnan(v)) return "nan";
  return fmt::format("{}", v);
}

}  // namespace schedlab::cli
