// Modal structure of user runtime estimates (Tsafrir, Etsion, Feitelson 2005, Tables 1, 2 and 5), and the
// comparison of two logs' estimate distributions (KS statistic, squashed-area difference; Song et al.).
//
// Counting rule (binding for every figure here):
// - A job counts when it has an estimate, i.e. field 9 > 0 (trace::has_estimate). Jobs without one are only
//   counted in `without_estimate`; the runtime stand-in of the project conventions is NOT used.
// - A bin (mode) is one distinct field-9 value; its share is its jobs / counted jobs.
// - Popularity rank: bins by descending job count, ties by ascending value (rank 1 = most popular).
//   Time rank: bins by ascending value (rank K = T_max, the largest estimate).
// - The limit: analysis::estimate_limit (the largest estimate at least 1 in 2,000 of the counted jobs used), the
//   T_max of the fitted Tsafrir model and the Song model's cap; every estimate above it is counted (`above_limit`).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "schedlab/analysis/distribution.h"
#include "schedlab/swf/record.h"

namespace schedlab::model {

// The coverage fractions of Table 2 of the paper.
inline const std::vector<double> kCoverFractions = {0.10, 0.50, 0.75, 0.90, 0.95, 0.98, 0.99, 1.00};
using analysis::kLimitMinShare;

struct EstimateMode {
  int32_t value = 0;          // estimate, seconds
  int64_t jobs = 0;
  double share = 0;           // fraction of counted jobs, in [0, 1]
  int64_t popularity_rank = 0;  // 1 = most popular
  int64_t time_rank = 0;        // 1 = shortest value, K = T_max
  double cumulative_share = 0;  // share of this bin and every more popular one
};

struct EstimateBins {
  int64_t records = 0;           // records examined
  int64_t jobs = 0;              // records with an estimate (> 0): N
  int64_t without_estimate = 0;  // records with field 9 <= 0
  int64_t distinct = 0;          // K: number of distinct estimate values
  std::vector<double> fractions;  // kCoverFractions
  std::vector<int64_t> cover;     // cover[i] = bins needed to cover fractions[i] of the jobs
  std::vector<EstimateMode> modes;  // every bin, by popularity rank
  int32_t t_max = 0;              // largest estimate (0 when no job has one)
  double t_max_share = 0;         // share of jobs at t_max
  int64_t t_max_popularity_rank = 0;
  int32_t limit = 0;              // the largest estimate at least kLimitMinShare of the jobs used (0: no job)
  double limit_share = 0;         // share of jobs at the limit
  int64_t limit_popularity_rank = 0;
  int64_t above_limit = 0;        // jobs whose estimate is above the limit
};

// The popularity cover shared with `stats` (analysis/distribution.h).
using analysis::popular_cover;

EstimateBins estimate_bins(const std::vector<swf::Record>& records,
                           const std::vector<double>& fractions = kCoverFractions);

// The bins as `schedlab estimates bins --json` prints them, with the `top` most popular modes.
nlohmann::ordered_json to_json(const EstimateBins& bins, size_t top);

// Removes the records whose estimate (field 9) is above `limit` seconds (e.g. KTH4H, the KTH jobs with an
// estimate of at most 4 h); returns how many were removed. Throws std::invalid_argument unless
// 1 <= limit <= 2^31 - 1 (an SWF field's range: any smaller limit would drop every job with an estimate).
int64_t drop_estimates_above(std::vector<swf::Record>& records, int64_t limit);

// Comparison of a log's estimates with a model's (or another log's).
// Pairing: when both logs have the same number of records and the same job numbers in the same order, the
// comparison is "paired": only jobs with an estimate in both logs count (so a model that filled in missing
// estimates is compared on the jobs whose real estimate is known). Otherwise each log counts its own jobs
// with an estimate.
// - ks: two-sample Kolmogorov-Smirnov statistic sup |F_real(x) - F_model(x)| of the estimate values.
// - squashed area SA = sum of job size (trace::job_size, jobs with size <= 0 skipped) x estimate;
//   d_sa = (SA_model - SA_real) / SA_real (Song et al.).
struct EstimateComparison {
  bool paired = false;
  int64_t real_jobs = 0, model_jobs = 0;  // jobs compared on each side
  double ks = 0;
  double sa_real = 0, sa_model = 0, d_sa = 0;
  EstimateBins real, model;  // modal structure of the compared jobs
};

// Throws std::invalid_argument, naming the log by `real_name` / `model_name`, when a side has no job with an
// estimate (when paired: no job with an estimate in both): there is nothing to compare, and a KS statistic of 0
// would read as "the same distribution". d_sa is NaN when the real jobs' squashed area is 0 (none has a size).
EstimateComparison compare_estimates(const std::vector<swf::Record>& real, const std::vector<swf::Record>& model,
                                     std::string_view real_name = "the real log",
                                     std::string_view model_name = "the model log");
// {"paired", "real_jobs", "model_jobs", "ks", "sa_real", "sa_model", "d_sa", "real_bins", "model_bins" (the 20
// most popular modes of each)}
nlohmann::ordered_json to_json(const EstimateComparison& c);


}  // namespace schedlab::model
