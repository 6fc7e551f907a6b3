#include "cli/progress.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <exception>

#include <fmt/core.h>

#include "cli/text_util.h"

namespace schedlab::cli {

std::string duration_text(double s) {
  if (!(s >= 0) || s > 1e7) return "?";
  const auto t = static_cast<int64_t>(s + 0.5);
  return t >= 3600 ? fmt::format("{}h{:02}m", t / 3600, t / 60 % 60)
         : t >= 60 ? fmt::format("{}m{:02}s", t / 60, t % 60)
                   : fmt::format("{}s", t);
}

Progress::Progress(std::string what, std::string unit, double quiet_seconds, bool keep)
    : what_(std::move(what)),
      unit_(std::move(unit)),
      quiet_(quiet_seconds),
      keep_(keep),
      tty_(::isatty(2) != 0),
      start_(std::chrono::steady_clock::now()),
      last_(start_),
      uncaught_(std::uncaught_exceptions()) {}

Progress::~Progress() {
  if (std::uncaught_exceptions() <= uncaught_) {
    finish();
    return;
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (!finished_ && shown_ && tty_) fmt::print(stderr, "\r\033[K");
  finished_ = true;
}

void Progress::update(size_t done, size_t total) {
  std::lock_guard<std::mutex> lock(mu_);
  if (finished_) return;
  done_ = done;
  total_ = total;
  const auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - start_).count() < quiet_) return;
  if (shown_ && std::chrono::duration<double>(now - last_).count() < (tty_ ? 0.2 : 10.0)) return;
  last_ = now;
  print(false);
}

void Progress::finish() {
  std::lock_guard<std::mutex> lock(mu_);
  if (finished_) return;
  finished_ = true;
  if (keep_ && (shown_ || quiet_ <= 0)) {
    print(true);
  } else if (shown_ && tty_) {
    fmt::print(stderr, "\r\033[K");  // erased (ANSI: clear to the end of the line): the report follows cleanly
    std::fflush(stderr);
  }
}

void Progress::print(bool end) {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done_) / elapsed : 0;
  const double eta = rate > 0 ? static_cast<double>(total_ - done_) / rate : -1;
  const std::string counts = fmt::format("{}/{} {} done", group_thousands(static_cast<int64_t>(done_)),
                                         group_thousands(static_cast<int64_t>(total_)), unit_);
  const std::string per_second = fmt::format("{:.{}f} {}/s", rate, rate >= 100 ? 0 : 1, unit_);
  if (tty_) {
    const int width = 30;
    const int filled = total_ ? static_cast<int>(width * done_ / total_) : width;
    fmt::print(stderr, "\r{}: [{}{}] {}, ETA {}   ", what_, std::string(static_cast<size_t>(filled), '#'),
               std::string(static_cast<size_t>(width - filled), '.'), counts, duration_text(eta));
    if (end) fmt::print(stderr, "\n");
  } else {
    fmt::print(stderr, "{}: {}, {}, ETA {}\n", what_, counts, per_second, duration_text(eta));
  }
  std::fflush(stderr);
  shown_ = true;
}

}  // namespace schedlab::cli
