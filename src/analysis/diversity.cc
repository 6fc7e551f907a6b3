#include "schedlab/analysis/diversity.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>

#include <fmt/core.h>

#include "schedlab/analysis/distribution.h"
#include "schedlab/base/random.h"

namespace schedlab::analysis {
namespace {

std::pair<double, int> deviation_of(const std::vector<double>& values, const Bins& bins, ExpectedCounts expected) {
  std::vector<int64_t> counts(static_cast<size_t>(bins.count()), 0);
  for (const double v : values) ++counts[static_cast<size_t>(bins.bin_of(v))];
  const auto n = static_cast<int64_t>(values.size());
  const double m = max_deviation(counts, n, bins, expected);
  int top = -1;
  double best = -1;
  for (int j = 0; j < bins.count(); ++j) {  // the bin with the largest absolute excess or shortfall
    const double d = std::abs(static_cast<double>(counts[static_cast<size_t>(j)]) -
                              static_cast<double>(n) * bins.shares[static_cast<size_t>(j)]);
    if (d > best) {
      best = d;
      top = j;
    }
  }
  return {m, top};
}

// Median m of `rounds` multinomial samples of size n from the bins' shares.
double baseline(int64_t n, const Bins& bins, const DiversityOptions& options, uint64_t seed, uint64_t log_index) {
  if (options.rounds <= 0) return 0.0;
  std::vector<double> cumulative(bins.shares.size());
  double c = 0;
  for (size_t j = 0; j < bins.shares.size(); ++j) cumulative[j] = (c += bins.shares[j]);
  std::vector<double> ms;
  std::vector<int64_t> counts(bins.shares.size());
  for (int k = 0; k < options.rounds; ++k) {
    base::Rng rng = base::Rng::stream(seed, (log_index << 20) + static_cast<uint64_t>(k));
    std::fill(counts.begin(), counts.end(), 0);
    for (int64_t i = 0; i < n; ++i) {
      const double u = rng.uniform() * c;
      auto j = static_cast<size_t>(std::upper_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin());
      if (j >= counts.size()) j = counts.size() - 1;
      ++counts[j];
    }
    ms.push_back(max_deviation(counts, n, bins, options.expected));
  }
  std::sort(ms.begin(), ms.end());
  return quantile_sorted(ms, 0.5);
}

}  // namespace

DiversityResult diversity(const std::vector<std::vector<double>>& logs, const DiversityOptions& options) {
  if (logs.size() < 2) throw std::invalid_argument("diversity needs at least two logs");
  check_bins_and_rounds(options.bins, options.rounds);
  std::vector<double> pooled, weights;
  for (size_t l = 0; l < logs.size(); ++l) {
    if (logs[l].empty()) throw std::invalid_argument(fmt::format("log {} has no values", l + 1));
    pooled.insert(pooled.end(), logs[l].begin(), logs[l].end());
    weights.insert(weights.end(), logs[l].size(), 1.0 / static_cast<double>(logs[l].size()));
  }
  DiversityResult res;
  res.job_weighted_bins = make_bins(pooled, options.bins);
  res.same_weight_bins = make_bins(pooled, options.bins, weights);
  for (size_t l = 0; l < logs.size(); ++l) {
    DiversityRow row;
    row.jobs = static_cast<int64_t>(logs[l].size());
    std::tie(row.job_weighted, row.top_bin_job_weighted) =
        deviation_of(logs[l], res.job_weighted_bins, options.expected);
    std::tie(row.same_weight, row.top_bin_same_weight) = deviation_of(logs[l], res.same_weight_bins, options.expected);
    row.baseline_job_weighted = baseline(row.jobs, res.job_weighted_bins, options, options.seed, l);
    row.baseline_same_weight = baseline(row.jobs, res.same_weight_bins, options, options.seed ^ 1, l);
    res.rows.push_back(row);
  }
  return res;
}

}  // namespace schedlab::analysis
