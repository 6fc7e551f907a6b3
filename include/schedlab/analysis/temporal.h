// Temporal structure of a workload (Talby thesis §5 and Appendix C, Tables 37-40;
// docs/analysis.md "Temporal structure").
//
// Five series: jobs (number of jobs), runtime, procs (job size), cpu (runtime x size), interarrival; the
// per-job values come from analysis/attribute.h.
//
// Binned series (bins of `width` seconds from the first submit time): for "jobs" the number of jobs
// submitted in the bin (every bin counts, empty ones as 0); for the others the mean over the jobs
// submitted in the bin (Decision of the spec), and a bin without such jobs is absent.
// Autocorrelation at lag k (binned_autocorrelation): mean and variance over the present bins; the sum of
// products runs over the pairs of bins (t, t + k) that are both present, normalised by the number of such
// pairs: r(k) = [sum (x_t - mean)(x_t+k - mean) / pairs] / [sum (x_t - mean)^2 / present]. NaN when no pair
// exists or the variance is 0.
// - locality: lag 1 at 15-minute and 150-minute bins;
// - daily cycle: 6-hour bins, lags 2 (12 h) and 4 (24 h);
// - weekly cycle: 1-day bins, lag 7.
//
// Self-similarity (analysis/hurst.h), Decision of this project (the thesis does not say how a per-job
// attribute becomes a time series): base bins of 1 minute; "jobs" = jobs per minute; runtime, procs and
// cpu = their sum over the jobs submitted in the minute (0 when none), so that aggregation adds work up as
// in the thesis's Figure 6; interarrival = the sequence of inter-arrival times in job order. Variance-time
// and R/S use levels 100..50,000 (minutes, or jobs for interarrival); the periodogram uses the lowest 10%
// of the frequencies. H = average of the three (of those that are not NaN).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "schedlab/swf/record.h"

namespace schedlab::analysis {

enum class TemporalSeries { kRuntime, kProcs, kCpu, kInterarrival, kJobs };
inline constexpr int kTemporalSeries = 5;
std::string_view temporal_series_name(TemporalSeries s);  // "runtime", "procs", "cpu", "interarrival", "jobs"
std::optional<TemporalSeries> parse_temporal_series(std::string_view name);  // inverse of temporal_series_name

struct Binned {
  std::vector<double> value;
  std::vector<uint8_t> present;
};

// Bins jobs (times ascending, values one per time) of `width` seconds from `origin`; `count` = number of
// jobs per bin (every bin present), otherwise the mean (bins without jobs absent).
Binned bin_series(std::span<const int64_t> times, std::span<const double> values, int64_t origin,
                  int64_t width, bool count);

double binned_autocorrelation(const Binned& series, int64_t lag);

// One series binned as the autocorrelations see it: bins of `width` seconds (> 0) from the log's first
// known submit time (`origin`). Empty `bins` when the series has no job. Throws std::invalid_argument when
// no job has a known submit time.
struct TemporalBins {
  int64_t origin = 0;
  int64_t width = 0;
  Binned bins;
};
TemporalBins temporal_bins(const std::vector<swf::Record>& records, TemporalSeries series, int64_t width);

struct Hurst {
  double variance_time = 0, rs = 0, periodogram = 0, average = 0;
};

struct TemporalRow {
  int64_t unknown_value = 0;  // jobs with a submit time left out of this series: its attribute is unknown
  double lag1_15m = 0, lag1_150m = 0;  // locality
  double daily_12h = 0, daily_24h = 0;
  double weekly_7d = 0;
  Hurst hurst;
};

struct TemporalResult {
  int64_t records = 0;         // the records given
  int64_t unknown_submit = 0;  // of them, left out of every series: no known submit time
  int64_t jobs = 0;            // records - unknown_submit
  int64_t span_seconds = 0;
  std::array<TemporalRow, kTemporalSeries> rows{};  // index = static_cast<int>(TemporalSeries)
};

// Throws std::invalid_argument when no job has a known submit time. `progress`, when set, is called after each
// step (a series' autocorrelations, then each of its three Hurst estimators) with the steps done and their
// total: the 1-minute series of a log spanning decades are tens of millions of values, seconds per step. An
// exception it throws ends the computation (an interrupted caller).
TemporalResult temporal(const std::vector<swf::Record>& records, bool with_hurst = true,
                        const std::function<void(size_t done, size_t total)>& progress = {});

}  // namespace schedlab::analysis
