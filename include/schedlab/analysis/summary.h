// Everything `schedlab stats` reports about a log, computed into a plain struct (no printing here).
//
// Definitions (all figures are over the log's records in file order, unless stated):
// - Valid jobs: records that can be simulated on the machine, i.e. trace::simulation_exclusion(r, procs)
//   is kNone; the others are counted per exclusion reason. `without_estimate` counts records with no
//   estimate (field 9 <= 0, see trace::has_estimate), whatever their exclusion.
// - Machine size: trace::machine_size (the --procs option, else MaxProcs, else MaxNodes, else the largest job).
// - Distinct users, groups, executables, queues, partitions: distinct values >= 0 of fields 12..16
//   (-1 = unknown, and any other negative value, is ignored).
// - Submit span: first_submit and last_submit are the smallest and largest submit time (field 2) over
//   records whose submit time is known (>= 0); span = last_submit - first_submit seconds;
//   span_days = span / 86400; jobs_per_day = records with known submit / span_days (NaN if span is 0).
// - Offered load = sum over valid jobs of size x runtime / (machine procs x the valid jobs' arrival
//   span: their last submit - their first submit), the simulator's offered load for the same log and
//   machine (the one `--load X` scales to X), which excluded records at either end of the log would
//   otherwise dilute. Not last end - first submit as for the simulator's utilization. NaN when that
//   span is 0.
// - Distributions (analysis::Distribution; type-7 quantiles), each over the records where the value is
//   known; `count` says how many:
//     runtime       field 4, records with runtime >= 0 (-1 = unknown; other negatives are invalid)
//     size          trace::job_size, records with size > 0
//     estimate      field 9, records with an estimate (> 0); the runtime stand-in is NOT used here
//     interarrival  differences between consecutive submit times after sorting the known (>= 0) ones
//     wait          field 3 (the wait logged by the machine), records with wait >= 0
//     accuracy      runtime / estimate, records with runtime >= 0 and an estimate
// - runtime_over_estimate_share: among the `accuracy` records, the fraction with runtime > estimate.
// - power_of_two_share: among records with size > 0, the fraction whose size is a power of two (1, 2, 4, ...).
// - Estimate popularity: distinct_estimates = number of distinct field-9 values among records with an
//   estimate; estimates_for_50 / estimates_for_90 = the smallest number of the most popular values whose
//   jobs together make at least 50% / 90% of the records with an estimate. estimate_limit: the log's limit
//   (estimate_limit in analysis/distribution.h), largest_estimate the largest value.
// - Dependencies (SWF fields 17-18, what `simulate --feedback` follows): `dependent` records name a preceding job
//   (field 17 >= 0); of those, `preceding_earlier` name the number of a record earlier in (submit, job number)
//   order (the links --feedback can follow, whether or not that job can be simulated), and `think_given` give a
//   think time (field 18 >= 0).
// - Shares are fractions in [0, 1]; NaN when their denominator is 0.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "schedlab/analysis/distribution.h"
#include "schedlab/swf/header.h"
#include "schedlab/swf/reader.h"
#include "schedlab/swf/record.h"
#include "schedlab/trace/conventions.h"

namespace schedlab::analysis {

struct Summary {
  int64_t records = 0;
  int64_t valid_jobs = 0;
  // Records per trace::Exclusion (index = static_cast<int>(Exclusion)); [kNone] equals valid_jobs.
  std::array<int64_t, trace::kExclusionKinds> excluded{};
  int64_t without_estimate = 0;

  int64_t users = 0, groups = 0, executables = 0, queues = 0, partitions = 0;
  int64_t dependent = 0, preceding_earlier = 0, think_given = 0;

  trace::MachineSize machine;

  int64_t submit_known = 0;  // records with submit time >= 0
  int64_t first_submit = -1, last_submit = -1;  // -1 when no submit time is known
  double span_days = 0;
  double jobs_per_day = 0;
  double offered_load = 0;  // NaN without a span, a machine size or a valid job

  Distribution runtime, size, estimate, interarrival, wait, accuracy;
  double runtime_over_estimate_share = 0;
  double power_of_two_share = 0;

  int64_t distinct_estimates = 0;
  int64_t estimates_for_50 = 0;
  int64_t estimates_for_90 = 0;
  EstimateLimit estimate_limit;
  int32_t largest_estimate = 0;  // 0 when no record has an estimate

  swf::ReadReport read;  // the reader's counts (decimals rounded, skipped lines, warnings), copied
};

// Summarizes records (with the header for the machine size). `procs` overrides the machine size.
Summary summarize(const swf::Header& header, const std::vector<swf::Record>& records,
                  std::optional<int64_t> procs = std::nullopt);

// Same, for a log read with swf::read_log; also copies log.report into Summary::read.
Summary summarize(const swf::Log& log, std::optional<int64_t> procs = std::nullopt);

}  // namespace schedlab::analysis
