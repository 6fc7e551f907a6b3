#include "cli/read_input.h"

#include <cstdio>

#include <fmt/core.h>

#include "schedlab/trace/log_time.h"

namespace schedlab::cli {

void warn_header_problems(const swf::Log& log) {
  for (const std::string& p : log.header.problems)
    fmt::print(stderr, "schedlab: warning: {}: header {} (ignored)\n", log.path, p);
  if (!trace::time_zone_known(log.header))
    fmt::print(stderr,
               "schedlab: warning: {}: the header's TimeZoneString '{}' is not in the time zone database: no dates "
               "or local times (commands that need them say so)\n",
               log.path, *log.header.time_zone_string);
}

swf::Log read_input_log(const std::string& path, swf::ReadOptions options) {
  swf::Log log = swf::read_log(path, options);
  warn_header_problems(log);
  return log;
}

}  // namespace schedlab::cli
