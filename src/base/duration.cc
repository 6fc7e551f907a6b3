#include "schedlab/base/duration.h"

#include <cctype>
#include <charconv>
#include <cmath>

#include <fmt/core.h>

namespace schedlab::base {

namespace {

double unit_seconds(char c) {
  switch (c) {
    case 's': return 1;
    case 'm': return 60;
    case 'h': return 3600;
    case 'd': return 86400;
    case 'w': return 7 * 86400;
    default: return 0;
  }
}

}  // namespace

std::optional<int64_t> parse_duration(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  if (text.empty()) return std::nullopt;
  // One or more NUMBER[UNIT] parts ("90", "1.5h", "1m30s"); only the last may leave out its unit.
  double total = 0;
  while (!text.empty()) {
    if (text.front() == '+' || text.front() == '-') return std::nullopt;
    double v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr == text.data() || !std::isfinite(v)) return std::nullopt;
    text.remove_prefix(static_cast<size_t>(ptr - text.data()));
    double scale = 1;
    if (!text.empty()) {
      scale = unit_seconds(text.front());
      if (scale == 0) return std::nullopt;
      text.remove_prefix(1);
    }
    total += v * scale;
  }
  const double seconds = std::round(total);
  if (!(seconds >= 0 && seconds <= 9007199254740992.0)) return std::nullopt;
  return static_cast<int64_t>(seconds);
}

std::string format_duration(int64_t s) {
  if (s == 0) return "0s";  // not "0h": no unit is more exact than another, and seconds are the base one
  if (s % 3600 == 0) return fmt::format("{}h", s / 3600);
  if (s < 3600 && s % 60 == 0) return fmt::format("{}m", s / 60);
  if (s < 3600) return s >= 60 ? fmt::format("{}m{:02}s", s / 60, s % 60) : fmt::format("{}s", s);
  if (s % 60 == 0) return fmt::format("{}:{:02}", s / 3600, (s % 3600) / 60);
  return fmt::format("{}:{:02}:{:02}", s / 3600, (s % 3600) / 60, s % 60);
}

}  // namespace schedlab::base
