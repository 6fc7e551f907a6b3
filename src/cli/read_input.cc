#include "cli/read_input.h"

#include <cstdio>

#include <fmt/core.h>

#include "schedlab/swf/csv.h"
#include "schedlab/trace/log_time.h"

namespace schedlab::cli {

swf::Log read_input_log(const std::string& path, swf::ReadOptions options) {
  swf::Log log = swf::read_swf_or_csv(path, options);
  for (const std::string& w : trace::header_warnings(log.header, log.path))
    fmt::print(stderr, "schedlab: warning: {}\n", w);
  if (const std::string note = swf::partial_executions_note(log); !note.empty())
    fmt::print(stderr, "schedlab: note: {}\n", note);
  // Every command that takes --skip-invalid says what it skipped (most said nothing: only stats and filter
  // reported the lines, in their own output).
  if (const std::string note = swf::skipped_lines_note(log); !note.empty())
    fmt::print(stderr, "schedlab: note: {}\n", note);
  return log;
}

}  // namespace schedlab::cli
