// A text cell as every schedlab CSV file writes it (RFC 4180): as is, or in double quotes (inner quotes doubled)
// when it holds a comma, a quote or a line break — scheduler specs such as "pbas:candidates=easy,flex" do.
#pragma once

#include <string>
#include <string_view>

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

}  // namespace schedlab::base
