// Diversity between logs (Feitelson, locality paper Sec. 5; docs/analysis.md): the
// locality measure m (analysis/locality.h) with each log's whole data as one slice, against the pooled
// distribution of all the logs given.
//
// Two pools: job-weighted (every job of every log weighs 1, so big logs dominate) and same-weight (an
// equal mixture: a job of log l weighs 1 / N_l). Each pool gets its own global bins (make_bins with those
// weights) and shares; a log's m is max_deviation of its counts against them.
//
// Random baseline (what sampling alone gives): `rounds` times, N_l values are drawn with replacement
// from the pool (bin by bin, with the pool's shares) and m is recomputed; the median over rounds is
// reported. Round k of log l draws from Rng::stream(seed, l * 2^20 + k) (job-weighted) and
// Rng::stream(seed ^ 1, ...) (same-weight), so the output depends on the seed only: the rounds run on
// `threads` threads (0: every core) with the same result on any number.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "schedlab/analysis/locality.h"

namespace schedlab::analysis {

struct DiversityOptions {
  int bins = 24;
  ExpectedCounts expected = ExpectedCounts::kShare;
  int rounds = 100;  // baseline rounds (0 = none)
  uint64_t seed = 1;
  int threads = 0;
  // Baseline rounds done of `total` (logs x 2 pools x rounds), from the worker threads (so thread-safe): for a
  // long baseline's progress display.
  std::function<void(size_t done, size_t total)> progress;
};

struct DiversityRow {
  int64_t jobs = 0;
  double job_weighted = 0, same_weight = 0;                    // m against each pool
  int top_bin_job_weighted = -1, top_bin_same_weight = -1;     // bin reaching m
  double baseline_job_weighted = 0, baseline_same_weight = 0;  // median m of random samples (0 if no rounds)
};

struct DiversityResult {
  Bins job_weighted_bins, same_weight_bins;
  std::vector<DiversityRow> rows;  // one per log, in the order given
};

// `logs`: the attribute values of each log (each non-empty; at least two logs). Throws
// std::invalid_argument otherwise.
DiversityResult diversity(const std::vector<std::vector<double>>& logs, const DiversityOptions& options);

}  // namespace schedlab::analysis
