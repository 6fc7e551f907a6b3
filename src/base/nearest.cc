#include "schedlab/base/nearest.h"

#include <algorithm>
#include <cctype>

#include <fmt/core.h>

namespace schedlab::base {

size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment over three rows: d[i][j] from d[i-1][*], d[i][j-1] and, for a swap, d[i-2][j-2].
  std::vector<size_t> before(b.size() + 1), prev(b.size() + 1), row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      row[j] = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], before[j - 2] + 1);
    }
    std::swap(before, prev);
    std::swap(prev, row);
  }
  return prev[b.size()];
}

std::string nearest_name(std::string_view word, const std::vector<std::string>& names) {
  if (word.size() < 3) return "";  // "ez" is near too many names to mean one
  const auto lower = [](std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  const std::string w = lower(word);
  size_t best = std::clamp<size_t>(word.size() / 3, 1, 3) + 1;
  std::string nearest;
  for (const std::string& name : names) {
    if (name == word) return "";
    if (const size_t d = edit_distance(w, lower(name)); d < best) {
      best = d;
      nearest = name;
    }
  }
  return nearest;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& names) {
  const std::string n = nearest_name(word, names);
  return n.empty() ? "" : fmt::format("; did you mean '{}'?", n);
}

}  // namespace schedlab::base
