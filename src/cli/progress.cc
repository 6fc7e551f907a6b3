#include "cli/progress.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <exception>

#include <fmt/core.h>

#include "cli/text_util.h"

namespace schedlab::cli {

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
  if (keep_ && (shown_ || (quiet_ <= 0 && total_ > 0))) {  // nothing to do (a resumed sweep): no "0/0" line
    // Off a terminal, a line with the final count already printed stands (a one-run sweep said "1/1" twice).
    if (!tty_ && printed_done_ == done_) return;
    print(true);
  } else if (shown_ && tty_) {
    fmt::print(stderr, "\r\033[K");  // erased (ANSI: clear to the end of the line): the report follows cleanly
    std::fflush(stderr);
  }
}

void Progress::print(bool end) {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (tty_) {
    fmt::print(stderr, "\r{}   ", base::progress_text(what_, unit_, done_, total_, elapsed, true));
    if (end) fmt::print(stderr, "\n");
  } else {
    fmt::print(stderr, "{}\n", base::progress_text(what_, unit_, done_, total_, elapsed, false));
    printed_done_ = done_;
  }
  std::fflush(stderr);
  shown_ = true;
}

}  // namespace schedlab::cli
