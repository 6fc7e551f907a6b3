#include "schedlab/base/csv_number.h"

#include <charconv>

namespace schedlab::base {

std::optional<double> parse_csv_number(std::string_view s) {
  if (s.empty()) return std::nullopt;
  const char* begin = s.data() + (s.front() == '+' ? 1 : 0);  // from_chars refuses a leading '+'
  double v = 0;
  const auto [end, ec] = std::from_chars(begin, s.data() + s.size(), v, std::chars_format::general);
  if (ec != std::errc() || end != s.data() + s.size() || begin == s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace schedlab::base
