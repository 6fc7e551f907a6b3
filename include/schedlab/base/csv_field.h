// A text cell as every schedlab CSV file writes it (RFC 4180): as is, or in double quotes (inner quotes doubled)
// when it holds a comma, a quote or a line break — scheduler specs such as "pbas:candidates=easy,flex" do.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace schedlab::base {

inline std::string csv_field(std::string_view s) {
  if (s.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(s);
  std::string q(1, '"');
  for (const char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  q += '"';
  return q;
}

// The cells of one CSV line written by csv_field (RFC 4180 quoting; no line break inside a cell): the reader
// of schedlab's own CSV outputs (sweep resumption, report --sweep).
std::vector<std::string> split_csv_line(std::string_view line);

}  // namespace schedlab::base
