#include "schedlab/analysis/diversity.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <stdexcept>
#include <tuple>

#include <fmt/core.h>

#include "schedlab/analysis/distribution.h"
#include "schedlab/base/random.h"
#include "schedlab/base/threads.h"

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

// Draws bin indices from the bins' shares: the first j with cumulative[j] > u for u uniform in [0, total), as
// std::upper_bound finds it, started from a guide table (Chen and Asau's indexed search) so that a draw costs a
// comparison or two instead of a binary search. The same j for the same u, so the same samples.
class BinSampler {
 public:
  explicit BinSampler(const std::vector<double>& shares) {
    double c = 0;
    for (const double s : shares) cumulative_.push_back(c += s);
    total_ = c;
    guide_.resize(4 * cumulative_.size());
    for (size_t b = 0; b < guide_.size(); ++b) {
      const double lower = total_ * static_cast<double>(b) / static_cast<double>(guide_.size());
      guide_[b] = static_cast<size_t>(std::upper_bound(cumulative_.begin(), cumulative_.end(), lower) -
                                      cumulative_.begin());
    }
  }
  size_t draw(base::Rng& rng) const {
    const double u = rng.uniform() * total_;
    const double at = u / total_ * static_cast<double>(guide_.size());  // total_ > 0: shares of a non-empty pool
    const double last = static_cast<double>(guide_.size() - 1);
    size_t j = guide_[at > 0 ? static_cast<size_t>(std::min(at, last)) : 0];  // NaN and rounding stay in range
    while (j > 0 && cumulative_[j - 1] > u) --j;  // rounding put the bucket's start past u: step back
    while (j < cumulative_.size() && cumulative_[j] <= u) ++j;
    return std::min(j, cumulative_.size() - 1);
  }

 private:
  std::vector<double> cumulative_;
  std::vector<size_t> guide_;
  double total_ = 0;
};

// m of one multinomial sample of size n from the bins' shares (round k of log l's baseline on one pool).
double sample_deviation(int64_t n, const Bins& bins, const BinSampler& sampler, const DiversityOptions& options,
                        base::Rng rng, std::vector<int64_t>& counts) {
  std::fill(counts.begin(), counts.end(), 0);
  for (int64_t i = 0; i < n; ++i) ++counts[sampler.draw(rng)];
  return max_deviation(counts, n, bins, options.expected);
}

}  // namespace

DiversityResult diversity(const std::vector<std::vector<double>>& logs, const DiversityOptions& options) {
  if (logs.size() < 2) throw std::invalid_argument("diversity needs at least two logs");
  check_bins_and_rounds(options.bins, options.rounds);
  base::check_threads(options.threads);
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
    res.rows.push_back(row);
  }
  if (options.rounds <= 0) return res;

  // The baselines: round k of log l on pool p (0 job-weighted, 1 same-weight) is item (l * 2 + p) * rounds + k,
  // drawn from its own stream, so the threads only share the work out.
  const std::array<const Bins*, 2> pools = {&res.job_weighted_bins, &res.same_weight_bins};
  const std::array<BinSampler, 2> samplers = {BinSampler(res.job_weighted_bins.shares),
                                              BinSampler(res.same_weight_bins.shares)};
  const auto rounds = static_cast<size_t>(options.rounds);
  const size_t items = logs.size() * 2 * rounds;
  std::vector<double> ms(items);
  std::atomic<size_t> done{0};
  const unsigned threads = base::worker_threads(options.threads, items);
  std::vector<std::vector<int64_t>> counts(threads, std::vector<int64_t>(static_cast<size_t>(options.bins)));
  base::parallel_for(threads, items, [&](size_t t, unsigned worker) {
    const size_t k = t % rounds, p = t / rounds % 2, l = t / rounds / 2;
    const uint64_t seed = p == 0 ? options.seed : options.seed ^ 1;
    ms[t] = sample_deviation(res.rows[l].jobs, *pools[p], samplers[p], options,
                             base::Rng::stream(seed, (static_cast<uint64_t>(l) << 20) + k), counts[worker]);
    const size_t finished = ++done;
    if (options.progress && (finished % 64 == 0 || finished == items)) options.progress(finished, items);
  });
  for (size_t l = 0; l < logs.size(); ++l) {
    for (size_t p = 0; p < 2; ++p) {
      const auto first = ms.begin() + static_cast<std::ptrdiff_t>((l * 2 + p) * rounds);
      std::vector<double> one(first, first + static_cast<std::ptrdiff_t>(rounds));
      std::sort(one.begin(), one.end());
      (p == 0 ? res.rows[l].baseline_job_weighted : res.rows[l].baseline_same_weight) = quantile_sorted(one, 0.5);
    }
  }
  return res;
}

}  // namespace schedlab::analysis
