#include "schedlab/base/csv_field.h"

#include <charconv>

#include "schedlab/base/csv_number.h"

namespace schedlab::base {

std::vector<std::string> split_csv_line(std::string_view line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c != '"') {
        cells.back() += c;
      } else if (i + 1 < line.size() && line[i + 1] == '"') {
        cells.back() += '"';
        ++i;
      } else {
        quoted = false;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  return cells;
}

std::optional<double> parse_csv_number(std::string_view s) {
  if (s.empty()) return std::nullopt;
  const char* begin = s.data() + (s.front() == '+' ? 1 : 0);  // from_chars refuses a leading '+'
  double v = 0;
  const auto [end, ec] = std::from_chars(begin, s.data() + s.size(), v, std::chars_format::general);
  if (ec != std::errc() || end != s.data() + s.size() || begin == s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace schedlab::base
