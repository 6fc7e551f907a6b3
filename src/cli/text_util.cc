#include "cli/text_util.h"

#include <charconv>
#include <limits>
#include <stdexcept>

#include <fmt/core.h>

namespace schedlab::cli {

int64_t parse_int_option(std::string_view option, std::string_view text, int64_t min_value, int64_t max_value) {
  int64_t value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
    throw std::invalid_argument(fmt::format("{}: '{}' is not a whole number", option, text));
  if (value < min_value || value > max_value)
    throw std::invalid_argument(
        fmt::format("{}: {} is out of range (expected {} to {})", option, value, min_value, max_value));
  return value;
}

std::set<int32_t> parse_int_list(std::string_view option, std::string_view text) {
  std::set<int32_t> values;
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    const std::string_view item = text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
    if (item.empty())
      throw std::invalid_argument(
          fmt::format("{}: '{}' has an empty item; expected comma-separated integers like 3,17,42", option, text));
    int64_t value = 0;
    const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (ec != std::errc() || ptr != item.data() + item.size() || value < std::numeric_limits<int32_t>::min() ||
        value > std::numeric_limits<int32_t>::max())
      throw std::invalid_argument(fmt::format(
          "{}: '{}' is not an integer; expected comma-separated integers like 3,17,42", option, item));
    values.insert(static_cast<int32_t>(value));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return values;
}

}  // namespace schedlab::cli
