// Runs of equivalent jobs (Feitelson, locality paper Sec. 4, Fig. 9; docs/analysis.md).
//
// Contract of find_runs():
// - The jobs of each user (field 12) are taken in submit order (stable for ties). A run is a maximal
//   sequence of consecutive jobs of one user that are equivalent: same executable (field 14) and same size
//   (trace::job_size); with `match_executable` false, same size only.
// - Jobs that cannot be placed are left out before the streams are built and counted by reason: unknown
//   submit time (< 0), unknown user (< 0), no size (<= 0), unknown executable (< 0, only when matching
//   executables). They neither join nor break a run.
//
// Fits of the run-length distribution P(R = r) ~ r^-theta:
// - theta_mle: maximum likelihood for the discrete power law truncated to 1..r_max, r_max = max(1000,
//   longest run) (the paper's model draws from 1..1000): solves mean(ln r) = E_theta[ln R] by bisection
//   over theta in [0.01, 20].
// - theta_loglog: minus the least-squares slope of log density vs log r over logarithmic bins [2^k, 2^k+1)
//   (density = runs in the bin / bin width), bins with at least one run — the paper's "slope of the
//   log-log histogram".
// Both are NaN when there are fewer than two distinct run lengths; theta_loglog also when every length falls in
// one bin (e.g. runs of 16 and 17 jobs): a line needs two points.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "schedlab/swf/record.h"

namespace schedlab::analysis {

struct RunsResult {
  int64_t jobs = 0;  // jobs placed in runs
  int64_t runs = 0;
  int64_t unknown_submit = 0, unknown_user = 0, no_size = 0, unknown_executable = 0;
  std::map<int64_t, int64_t> histogram;  // run length -> number of runs
  int64_t longest = 0;
  double mean_length = 0;
  double jobs_in_repeated_share = 0;  // share of jobs in runs of length >= 2
  double theta_mle = 0, theta_loglog = 0;
  int64_t r_max = 0;  // truncation of the MLE
};

RunsResult find_runs(const std::vector<swf::Record>& records, bool match_executable = true);

// The histogram in logarithmic groups of run lengths [1], [2, 3], [4, 7], ... up to the longest run: the
// short table of `schedlab analyze runs`.
struct RunLengthGroup {
  int64_t from = 0, to = 0;  // lengths, inclusive
  int64_t runs = 0;
};
std::vector<RunLengthGroup> run_length_groups(const RunsResult& r);

// MLE of theta for run lengths given as a histogram, truncated to 1..r_max (see above).
double fit_theta_mle(const std::map<int64_t, int64_t>& histogram, int64_t r_max);
// Log-log histogram slope fit (see above).
double fit_theta_loglog(const std::map<int64_t, int64_t>& histogram);

}  // namespace schedlab::analysis
