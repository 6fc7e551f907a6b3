// Progress of a long command on standard error (simulate, compare, sweep): nothing until `quiet_seconds` have
// passed (a short run stays silent), then on a terminal one line redrawn in place at most five times a second
// (ended or erased by finish()), otherwise a plain line every 10 s. Standard output is never touched, so the
// report and --json stay byte-identical.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

#include "schedlab/base/progress_text.h"

namespace schedlab::cli {

class Progress {
 public:
  // `what`: the command ("simulate"); `unit`: what is counted ("jobs", "runs"). `keep`: leave the last line on a
  // terminal (a sweep's summary) instead of erasing it.
  Progress(std::string what, std::string unit, double quiet_seconds, bool keep);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Thread-safe. `done` of `total` units.
  void update(size_t done, size_t total);
  // The last line (kept or erased). The destructor calls it, except while an error unwinds the command: then a
  // shown line is erased and no final count is printed above the error (a sweep whose log could not be read
  // printed "0/0 runs done" before saying so).
  void finish();

 private:
  std::string what_, unit_;
  double quiet_;
  bool keep_, tty_, shown_ = false, finished_ = false;
  std::chrono::steady_clock::time_point start_, last_;
  size_t done_ = 0, total_ = 0;
  size_t printed_done_ = SIZE_MAX;  // the count of the last plain line, not repeated by finish()
  int uncaught_ = 0;  // std::uncaught_exceptions() when made
  std::mutex mu_;
  void print(bool end);
};

using base::duration_text;  // "1h02m", "3m05s", "42s"

}  // namespace schedlab::cli
