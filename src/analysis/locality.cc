#include "schedlab/analysis/locality.h"

#include <array>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <tuple>

#include <fmt/core.h>

#include "schedlab/base/choice.h"
#include "schedlab/analysis/distribution.h"
#include "schedlab/base/memory.h"
#include "schedlab/base/random.h"
#include "schedlab/base/threads.h"

namespace schedlab::analysis {

std::string_view expected_counts_name(ExpectedCounts e) {
  return e == ExpectedCounts::kShare ? "share" : "uniform";
}

int Bins::bin_of(double value) const {
  return static_cast<int>(std::upper_bound(bounds.begin(), bounds.end(), value) - bounds.begin());
}

Bins make_bins(std::span<const double> values, int r, std::span<const double> weights) {
  if (values.empty()) throw std::invalid_argument("no values to bin");
  if (r < 2) throw std::invalid_argument(fmt::format("the number of bins must be at least 2 (got {})", r));
  if (!weights.empty() && weights.size() != values.size())
    throw std::invalid_argument("make_bins: one weight per value is needed");
  std::vector<size_t> order(values.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values[a] < values[b]; });
  const auto weight = [&](size_t i) { return weights.empty() ? 1.0 : weights[i]; };
  double total = 0;
  for (size_t i = 0; i < values.size(); ++i) total += weight(i);

  Bins bins;
  bins.bounds.reserve(static_cast<size_t>(r - 1));
  double cumulative = 0;
  size_t pos = 0;
  for (int k = 1; k < r; ++k) {
    // Smallest value whose cumulative weight (values <= it) exceeds k/r of the total.
    const double target = total * k / r;
    while (pos < order.size()) {
      const double value = values[order[pos]];
      double through = cumulative;  // weight of all values <= value
      size_t end = pos;
      while (end < order.size() && values[order[end]] == value) through += weight(order[end++]);
      if (through > target * (1 + 1e-12)) break;
      cumulative = through;
      pos = end;
    }
    bins.bounds.push_back(pos < order.size() ? values[order[pos]] : values[order.back()]);
  }
  bins.shares.assign(static_cast<size_t>(r), 0.0);
  for (size_t i = 0; i < values.size(); ++i) bins.shares[static_cast<size_t>(bins.bin_of(values[i]))] += weight(i);
  for (double& s : bins.shares) s /= total;
  return bins;
}

namespace {

// m and the bin reaching it.
std::pair<double, int> deviation(std::span<const int64_t> counts, int64_t n, const Bins& bins,
                                 ExpectedCounts expected) {
  if (n <= 0) return {0.0, -1};
  const double nd = static_cast<double>(n);
  const int r = bins.count();
  double best = -1;
  int best_bin = -1;
  for (int j = 0; j < r; ++j) {
    const double o = static_cast<double>(counts[static_cast<size_t>(j)]);
    double m = 0;
    if (expected == ExpectedCounts::kUniform) {
      const double e = nd / r;
      m = std::abs(o - e) / (nd - e);
    } else {
      const double p = bins.shares[static_cast<size_t>(j)];
      if (p <= 0) continue;
      m = p >= 1 ? 0.0 : std::abs(o - nd * p) / (nd * (1 - p));
    }
    if (m > best) {
      best = m;
      best_bin = j;
    }
  }
  return {std::max(best, 0.0), best_bin};
}

struct Group {
  size_t begin = 0, end = 0;
};

// M'_max and M'_med of the usable groups for the job bins `job_bin`.
std::pair<double, double> summarize(const std::vector<uint16_t>& job_bin, const std::vector<Group>& groups,
                                    const Bins& bins, ExpectedCounts expected, std::vector<int64_t>& counts,
                                    std::vector<double>& ms) {
  ms.clear();
  for (const Group& g : groups) {
    std::fill(counts.begin(), counts.end(), 0);
    for (size_t i = g.begin; i < g.end; ++i) ++counts[job_bin[i]];
    ms.push_back(deviation(counts, static_cast<int64_t>(g.end - g.begin), bins, expected).first);
  }
  std::sort(ms.begin(), ms.end());
  return {ms.back(), quantile_sorted(ms, 0.5)};
}

}  // namespace

double max_deviation(std::span<const int64_t> counts, int64_t n, const Bins& bins, ExpectedCounts expected) {
  return deviation(counts, n, bins, expected).first;
}

constexpr std::array<std::string_view, 2> kExpectedNames = {"share", "uniform"};  // in ExpectedCounts order

std::optional<ExpectedCounts> parse_expected_counts(std::string_view name) {
  return base::parse_choice<ExpectedCounts>(kExpectedNames, name);
}
std::vector<std::string> expected_counts_names() { return base::choice_names(kExpectedNames); }

void check_bins_and_rounds(int bins, int rounds) {
  if (bins < 2 || bins > 65535) throw std::invalid_argument(fmt::format("bins must be 2 to 65535 (got {})", bins));
  if (rounds < 0) throw std::invalid_argument(fmt::format("the number of bootstrap rounds must be >= 0 (got {})", rounds));
  base::check_fits_in_memory(static_cast<double>(rounds) * 2 * sizeof(double),
                             fmt::format("{} bootstrap rounds (16 bytes per round)", rounds));
}

LocalityResult locality(std::span<const int64_t> times, std::span<const double> values,
                        const LocalityOptions& options) {
  if (options.slice_seconds <= 0) throw std::invalid_argument("the slice length must be positive");
  check_bins_and_rounds(options.bins, options.rounds);
  base::check_threads(options.threads);
  if (options.shift < 0) throw std::invalid_argument("the shift must be >= 0");
  if (times.size() != values.size()) throw std::invalid_argument("locality: times and values differ in length");
  if (values.empty()) throw std::invalid_argument("no jobs with a known value of the attribute");
  if (!std::is_sorted(times.begin(), times.end()))
    throw std::invalid_argument("locality: times must be ascending");

  LocalityResult res;
  res.jobs = static_cast<int64_t>(values.size());
  res.bins = make_bins(values, options.bins);
  std::vector<uint16_t> job_bin(values.size());
  for (size_t i = 0; i < values.size(); ++i) job_bin[i] = static_cast<uint16_t>(res.bins.bin_of(values[i]));

  const int64_t first = times.front();
  const auto slice_of = [&](int64_t t) {
    const int64_t d = t - first - options.shift;
    return d >= 0 ? d / options.slice_seconds : -((-d + options.slice_seconds - 1) / options.slice_seconds);
  };
  res.slice_count = slice_of(times.back()) - slice_of(times.front()) + 1;
  std::vector<Group> usable;
  std::vector<int64_t> counts(static_cast<size_t>(options.bins));
  for (size_t pos = 0; pos < times.size();) {  // one slice holding jobs per pass; empty ones are skipped
    const int64_t s = slice_of(times[pos]);
    Slice slice;
    slice.index = s;
    slice.start = first + options.shift + s * options.slice_seconds;
    const size_t begin = pos;
    while (pos < times.size() && slice_of(times[pos]) == s) ++pos;
    slice.jobs = static_cast<int64_t>(pos - begin);
    slice.usable = static_cast<double>(slice.jobs) / options.bins >= options.min_expected;
    if (slice.usable) {
      std::fill(counts.begin(), counts.end(), 0);
      for (size_t i = begin; i < pos; ++i) ++counts[job_bin[i]];
      const auto [m, bin] = deviation(counts, slice.jobs, res.bins, options.expected);
      slice.m = m;
      slice.top_bin = bin;
      usable.push_back({begin, pos});
      ++res.usable_slices;
      res.jobs_in_usable += slice.jobs;
    }
    res.slices.push_back(slice);
  }
  if (usable.empty())
    throw std::invalid_argument(fmt::format(
        "no usable slice: every slice has fewer than {} jobs ({} bins x {} expected per bin)",
        static_cast<int64_t>(std::ceil(options.min_expected * options.bins)), options.bins, options.min_expected));
  // One slice holding every job (a --slice as long as the log) is the log itself and deviates from it by nothing,
  // whatever the log: M' = 0 and p = 1 read as "no locality" when the test could not see any.
  if (usable.size() == 1 && res.jobs_in_usable == res.jobs)
    throw std::invalid_argument(fmt::format(
        "one slice holds all {} jobs (slices of {} s; the log spans {} s): locality of sampling compares slices with "
        "the whole log, so it needs more than one; give a shorter --slice",
        res.jobs, options.slice_seconds, times.back() - times.front()));

  std::vector<double> ms;
  std::tie(res.m_max_prime, res.m_med_prime) = summarize(job_bin, usable, res.bins, options.expected, counts, ms);

  if (options.rounds > 0) {
    const auto rounds = static_cast<size_t>(options.rounds);
    res.boot_max.assign(rounds, 0.0);
    res.boot_med.assign(rounds, 0.0);
    const unsigned threads = base::worker_threads(options.threads, rounds);
    struct Buffers {  // one per thread, reused round after round
      std::vector<uint16_t> shuffled;
      std::vector<int64_t> counts;
      std::vector<double> ms;
    };
    std::vector<Buffers> buffers(threads);
    for (auto& b : buffers) b.counts.resize(static_cast<size_t>(options.bins));
    std::atomic<size_t> done{0};
    base::parallel_for(threads, rounds, [&](size_t k, unsigned worker) {
      Buffers& b = buffers[worker];
      base::Rng rng = base::Rng::stream(options.seed, k);
      b.shuffled = job_bin;
      base::shuffle(b.shuffled.begin(), b.shuffled.end(), rng);
      std::tie(res.boot_max[k], res.boot_med[k]) = summarize(b.shuffled, usable, res.bins, options.expected, b.counts,
                                                             b.ms);
      const size_t finished = ++done;
      if (options.progress && (finished % 64 == 0 || finished == rounds)) options.progress(finished, rounds);
    });

    const auto describe_rounds = [&](const std::vector<double>& v, double observed, double& median, double& p05,
                                     double& p95, double& p) {
      std::vector<double> sorted = v;
      std::sort(sorted.begin(), sorted.end());
      median = quantile_sorted(sorted, 0.5);
      p05 = quantile_sorted(sorted, 0.05);
      p95 = quantile_sorted(sorted, 0.95);
      const auto ge = sorted.end() - std::lower_bound(sorted.begin(), sorted.end(), observed);
      p = static_cast<double>(ge) / static_cast<double>(sorted.size());
    };
    describe_rounds(res.boot_max, res.m_max_prime, res.g_max, res.boot_max_p05, res.boot_max_p95, res.p_max);
    describe_rounds(res.boot_med, res.m_med_prime, res.g_med, res.boot_med_p05, res.boot_med_p95, res.p_med);
    res.m_max = res.m_max_prime - res.g_max;
    res.m_med = res.m_med_prime - res.g_med;
  }
  return res;
}

}  // namespace schedlab::analysis
