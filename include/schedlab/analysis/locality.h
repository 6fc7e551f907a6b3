// Locality of sampling (Feitelson, "Locality of Sampling and Diversity in Parallel System Workloads",
// Sec. 3; docs/analysis.md).
//
// Global bins (make_bins): r ranges that are as equally likely as ties allow. Boundary k (k = 1..r-1) is
// the smallest value x whose cumulative weight (all values <= x) exceeds k/r of the total (sorted[floor(kN/r)]
// unweighted); a value equal to a boundary goes to the upper bin, so the bins below hold exactly k/r when the
// values up to the boundary's predecessor reach it (KTH's inter-arrival times: 669 s at exactly 75%, the
// boundary is 670 s). Ties can make ranges empty or fat, so every bin also records its actual global share.
//
// Deviation of a slice from the global distribution (max_deviation), for N items with counts o_j:
// - ExpectedCounts::kShare (default, Decision of the spec): e_j = N p_j with p_j the global share of bin
//   j, m = max over bins with p_j > 0 of |o_j - e_j| / (N (1 - p_j)). With equal shares this is exactly
//   the paper's formula; m is in [0, 1] whenever every p_j <= 1/2.
// - ExpectedCounts::kUniform (the paper's formula taken literally): e = N / r for every bin,
//   m = max_j |o_j - e| / (N - e).
//
// Slices: slice i covers [first + shift + i t, first + shift + (i+1) t) where `first` is the first submit
// time of the series (so with a shift > 0 the jobs before first + shift form slice -1). A slice is usable
// when N_i / r >= min_expected (5, as for the chi-square test). M'_max / M'_med are the maximum and the
// median (type-7, analysis/distribution.h) of m_i over usable slices.
//
// Bootstrap baseline: `rounds` times, the bins of all jobs of the series are shuffled over the jobs
// (sampling without replacement, Fisher-Yates), the jobs keep their slices (so slice sizes are the real
// ones) and M'_max, M'_med are recomputed. M'_g is the median over rounds of each; M = M' - M'_g. Round k
// draws from Rng::stream(seed, k), so the result depends on the seed only, not on the number of threads
// (`threads` = 0 uses std::thread::hardware_concurrency()).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace schedlab::analysis {

enum class ExpectedCounts { kShare, kUniform };
// "share" / "uniform"; nullopt for anything else.
std::optional<ExpectedCounts> parse_expected_counts(std::string_view name);
std::vector<std::string> expected_counts_names();  // "share", "uniform"
// The histogram options locality and diversity share: throws std::invalid_argument unless 2 <= bins <= 65535,
// rounds >= 0 and the rounds' results (16 bytes each) fit in the memory this process may use (base/memory.h).
void check_bins_and_rounds(int bins, int rounds);
std::string_view expected_counts_name(ExpectedCounts e);  // "share", "uniform"

struct Bins {
  std::vector<double> bounds;  // r - 1 ascending boundaries
  std::vector<double> shares;  // r global shares (sum 1)
  int count() const { return static_cast<int>(shares.size()); }
  int bin_of(double value) const;  // number of boundaries <= value
};

// Bins of `values` (any order). `weights` empty = every value weight 1; otherwise one weight (> 0) per
// value. Throws std::invalid_argument when values is empty or r < 2.
Bins make_bins(std::span<const double> values, int r, std::span<const double> weights = {});

// m of one group of `n` items with per-bin `counts` against `bins`; 0 when n == 0.
double max_deviation(std::span<const int64_t> counts, int64_t n, const Bins& bins, ExpectedCounts expected);

struct LocalityOptions {
  int64_t slice_seconds = 3 * 86400;
  int bins = 24;
  int rounds = 1000;      // bootstrap rounds (0 = no baseline)
  uint64_t seed = 1;
  int64_t shift = 0;      // seconds, 0 <= shift
  int threads = 0;
  double min_expected = 5.0;
  ExpectedCounts expected = ExpectedCounts::kShare;
  // Bootstrap rounds done of `total`, every 64 rounds and at the end, called from the bootstrap's threads (so it
  // must be thread-safe): for a long bootstrap's progress display.
  std::function<void(size_t done, size_t total)> progress;
};

struct Slice {
  int64_t index = 0;
  int64_t start = 0;  // seconds from the log's start
  int64_t jobs = 0;
  bool usable = false;
  double m = 0;       // meaningful when usable
  int top_bin = -1;   // bin with the largest |o_j - e_j|
};

struct LocalityResult {
  Bins bins;
  // The slices holding at least one job, by index (an empty slice has none: its index is missing), so that
  // memory follows the jobs, not the log's span over the slice length (1 s slices of a year: 31 million).
  std::vector<Slice> slices;
  int64_t slice_count = 0;  // slices from the first job's to the last job's, empty ones included
  int64_t jobs = 0;
  int64_t usable_slices = 0;
  int64_t jobs_in_usable = 0;
  double m_max_prime = 0, m_med_prime = 0;  // M'_max, M'_med
  std::vector<double> boot_max, boot_med;   // per round
  double g_max = 0, g_med = 0;              // M'_g: medians over rounds
  double m_max = 0, m_med = 0;              // M = M' - M'_g
  double boot_med_p05 = 0, boot_med_p95 = 0, boot_max_p05 = 0, boot_max_p95 = 0;
  double p_max = 0, p_med = 0;              // share of rounds with a value >= the observed one
};

// `times` ascending (seconds), `values` one per time. Throws std::invalid_argument on bad options, an
// empty series, no usable slice, or one slice holding every job (it is the log: M' = 0 whatever the log).
LocalityResult locality(std::span<const int64_t> times, std::span<const double> values,
                        const LocalityOptions& options);

}  // namespace schedlab::analysis
