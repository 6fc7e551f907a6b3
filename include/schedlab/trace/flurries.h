// Flurries: bursts of very high activity by one user (Talby thesis §4.2; docs/analysis.md,
// "Flurries and load", Decision).
//
// Rule: weeks are counted from the first known submit time of the log (week w = [first + w*7d,
// first + (w+1)*7d)). A (user, week) is a flurry when its job count is > factor x the largest count of any
// other user in that week AND > min_jobs. Jobs with an unknown submit time (< 0) or user (< 0) are not
// attributed to anyone: they never form a flurry and are never removed. The ratio reported is
// jobs / max(largest other count, 1).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "schedlab/swf/record.h"

namespace schedlab::trace {

struct FlurryOptions {
  double factor = 3.0;
  int64_t min_jobs = 500;
  int64_t week_seconds = 7 * 86400;
};

struct Flurry {
  int32_t user = -1;
  int64_t week = 0;        // index from the first submit
  int64_t week_start = 0;  // seconds from the log's start
  int64_t jobs = 0;
  int32_t runner_up = -1;  // the other user with the largest count that week (-1 if none)
  int64_t runner_up_jobs = 0;
  double ratio = 0;
};

// Throws std::invalid_argument unless factor >= 1, week_seconds > 0 and min_jobs >= 0 (find_flurries checks
// too; a command calls it first to fail before reading a log).
void check_flurry_options(const FlurryOptions& options);

// Flurries ordered by (week, user). Throws std::invalid_argument when factor < 1 or week_seconds <= 0.
std::vector<Flurry> find_flurries(const std::vector<swf::Record>& records, const FlurryOptions& options = {});

// The records of `records` that are not in one of `flurries` (same week rule, so `records` must be the
// log the flurries were found in, or a subset of it with the same first submit time via `first_submit`).
std::vector<swf::Record> drop_flurries(const std::vector<swf::Record>& records, const std::vector<Flurry>& flurries,
                                       int64_t first_submit, int64_t week_seconds);

// The records the rule attributes to no one (unknown submit time or user): never in a flurry, never removed.
int64_t unattributed_jobs(const std::vector<swf::Record>& records);

// First known submit time of `records` (-1 when none).
int64_t first_submit_time(const std::vector<swf::Record>& records);

// "; Note:" texts recording a flurry removal: the rule and one line per flurry.
std::vector<std::string> flurry_notes(const std::vector<Flurry>& flurries, const FlurryOptions& options,
                                      int64_t removed);

}  // namespace schedlab::trace
