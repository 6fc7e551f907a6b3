// A sweep output as the schedlab before the `feedback` column wrote it (that column taken out of every line), for
// the tests of reading, resuming and collecting such outputs in today's columns.
#pragma once

#include <algorithm>
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "schedlab/base/csv_field.h"
#include "schedlab/experiments/sweep.h"

namespace schedlab::testing {

inline std::string without_feedback(const std::string& text, bool jsonl) {
  const auto& cols = experiments::sweep_columns();
  const size_t f = static_cast<size_t>(std::find(cols.begin(), cols.end(), "feedback") - cols.begin());
  std::string out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (jsonl) {
      nlohmann::ordered_json j = nlohmann::ordered_json::parse(line);
      j.erase("feedback");
      out += j.dump() + "\n";
      continue;
    }
    std::vector<std::string> cells = base::split_csv_line(line);
    cells.erase(cells.begin() + static_cast<std::ptrdiff_t>(f));
    std::string row;
    for (size_t i = 0; i < cells.size(); ++i) {
      if (i > 0) row += ',';
      row += base::csv_field(cells[i]);
    }
    out += row + "\n";
  }
  return out;
}

}  // namespace schedlab::testing
