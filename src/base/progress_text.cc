#include "schedlab/base/progress_text.h"

#include <fmt/core.h>

namespace schedlab::base {

std::string group_thousands(int64_t n) {
  const uint64_t magnitude = n < 0 ? 0 - static_cast<uint64_t>(n) : static_cast<uint64_t>(n);
  const std::string digits = std::to_string(magnitude);
  std::string out;
  const size_t len = digits.size();
  for (size_t i = 0; i < len; ++i) {
    if (i > 0 && (len - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

std::string duration_text(double s) {
  if (!(s >= 0) || s > 1e7) return "?";
  const auto t = static_cast<int64_t>(s + 0.5);
  return t >= 3600 ? fmt::format("{}h{:02}m", t / 3600, t / 60 % 60)
         : t >= 60 ? fmt::format("{}m{:02}s", t / 60, t % 60)
                   : fmt::format("{}s", t);
}

std::string progress_text(std::string_view what, std::string_view unit, size_t done, size_t total, double elapsed,
                          bool bar) {
  const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0;
  const double eta = rate > 0 && total >= done ? static_cast<double>(total - done) / rate : -1;
  const std::string counts = fmt::format("{}/{} {} done", group_thousands(static_cast<int64_t>(done)),
                                         group_thousands(static_cast<int64_t>(total)), unit);
  if (bar) {
    const size_t width = 30;
    const size_t filled = total ? std::min(width, width * done / total) : width;
    return fmt::format("{}: [{}{}] {}, ETA {}", what, std::string(filled, '#'), std::string(width - filled, '.'),
                       counts, duration_text(eta));
  }
  return fmt::format("{}: {}, {:.{}f} {}/s, ETA {}", what, counts, rate, rate >= 100 ? 0 : 1, unit,
                     duration_text(eta));
}

}  // namespace schedlab::base
