#include "schedlab/analysis/temporal.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/core.h>

#include "schedlab/analysis/attribute.h"
#include "schedlab/analysis/hurst.h"
#include "schedlab/base/memory.h"

namespace schedlab::analysis {

std::string_view temporal_series_name(TemporalSeries s) {
  switch (s) {
    case TemporalSeries::kRuntime: return "runtime";
    case TemporalSeries::kProcs: return "procs";
    case TemporalSeries::kCpu: return "cpu";
    case TemporalSeries::kInterarrival: return "interarrival";
    case TemporalSeries::kJobs: return "jobs";
  }
  return "?";
}

Binned bin_series(std::span<const int64_t> times, std::span<const double> values, int64_t origin, int64_t width,
                  bool count) {
  Binned b;
  if (times.empty()) return b;
  const auto bins = static_cast<size_t>((times.back() - origin) / width + 1);
  b.value.assign(bins, 0.0);
  std::vector<int64_t> n(bins, 0);
  for (size_t i = 0; i < times.size(); ++i) {
    const auto k = static_cast<size_t>((times[i] - origin) / width);
    b.value[k] += count ? 1.0 : values[i];
    ++n[k];
  }
  b.present.assign(bins, 1);
  if (!count)
    for (size_t k = 0; k < bins; ++k) {
      if (n[k] == 0) b.present[k] = 0;
      else b.value[k] /= static_cast<double>(n[k]);
    }
  return b;
}

double binned_autocorrelation(const Binned& s, int64_t lag) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  double sum = 0;
  int64_t present = 0;
  for (size_t i = 0; i < s.value.size(); ++i)
    if (s.present[i]) {
      sum += s.value[i];
      ++present;
    }
  if (present == 0 || lag < 0) return nan;
  const double mean = sum / static_cast<double>(present);
  double var = 0;
  for (size_t i = 0; i < s.value.size(); ++i)
    if (s.present[i]) var += (s.value[i] - mean) * (s.value[i] - mean);
  var /= static_cast<double>(present);
  double cov = 0;
  int64_t pairs = 0;
  const auto l = static_cast<size_t>(lag);
  for (size_t i = 0; i + l < s.value.size(); ++i)
    if (s.present[i] && s.present[i + l]) {
      cov += (s.value[i] - mean) * (s.value[i + l] - mean);
      ++pairs;
    }
  if (pairs == 0 || var <= 0) return nan;
  return cov / static_cast<double>(pairs) / var;
}

namespace {

// Consumes x: the periodogram, last, centres it in place (a long log's 1-minute series is 8 bytes a minute).
// `step` after each estimator.
Hurst estimate(std::vector<double>&& x, const std::function<void()>& step) {
  Hurst h;
  h.variance_time = hurst_variance_time(x, 100, 50000);
  step();
  h.rs = hurst_rs(x, 100, 50000);
  step();
  h.periodogram = hurst_periodogram(std::move(x), 0.1);
  step();
  double sum = 0;
  int n = 0;
  for (const double v : {h.variance_time, h.rs, h.periodogram})
    if (!std::isnan(v)) {
      sum += v;
      ++n;
    }
  h.average = n > 0 ? sum / n : std::numeric_limits<double>::quiet_NaN();
  return h;
}

}  // namespace

namespace {

// Submit times (known ones) in ascending order.
std::vector<int64_t> sorted_submit_times(const std::vector<swf::Record>& records) {
  std::vector<int64_t> out;
  for (const auto& r : records)
    if (r.submit_time >= 0) out.push_back(r.submit_time);
  std::sort(out.begin(), out.end());
  if (out.empty()) throw std::invalid_argument("no job has a known submit time");
  return out;
}

// The per-job points of a series: "jobs" is 1 at every submit time; the others are the attribute's series.
std::pair<std::vector<int64_t>, std::vector<double>> series_points(const std::vector<swf::Record>& records,
                                                                   TemporalSeries which,
                                                                   const std::vector<int64_t>& submit_times) {
  Attribute attribute = Attribute::kRuntime;
  switch (which) {
    case TemporalSeries::kJobs: return {submit_times, std::vector<double>(submit_times.size(), 1.0)};
    case TemporalSeries::kRuntime: attribute = Attribute::kRuntime; break;
    case TemporalSeries::kProcs: attribute = Attribute::kProcs; break;
    case TemporalSeries::kCpu: attribute = Attribute::kCpu; break;
    case TemporalSeries::kInterarrival: attribute = Attribute::kInterarrival; break;
  }
  AttributeSeries s = attribute_series(records, attribute);
  return {std::move(s.times), std::move(s.values)};
}

}  // namespace

std::optional<TemporalSeries> parse_temporal_series(std::string_view name) {
  for (int k = 0; k < kTemporalSeries; ++k)
    if (temporal_series_name(static_cast<TemporalSeries>(k)) == name) return static_cast<TemporalSeries>(k);
  return std::nullopt;
}

TemporalBins temporal_bins(const std::vector<swf::Record>& records, TemporalSeries series, int64_t width) {
  if (width <= 0) throw std::invalid_argument(fmt::format("bin width must be > 0 seconds, got {}", width));
  const std::vector<int64_t> submit_times = sorted_submit_times(records);
  TemporalBins out;
  out.origin = submit_times.front();
  out.width = width;
  const auto [times, values] = series_points(records, series, submit_times);
  if (times.empty()) return out;
  // One bin per `width` over the whole span, empty ones included (a series is regular): 1 s bins of a long log
  // are billions. About 40 bytes a bin: its value, count and presence, and its CSV line.
  const double bins = static_cast<double>((times.back() - out.origin) / width + 1);
  base::check_fits_in_memory(bins * 40, fmt::format("--bin {} s over the log's {} s: {:.3g} bins (40 bytes per bin)",
                                                    width, times.back() - out.origin, bins));
  out.bins = bin_series(times, values, out.origin, width, series == TemporalSeries::kJobs);
  return out;
}

TemporalResult temporal(const std::vector<swf::Record>& records, bool with_hurst,
                        const std::function<void(size_t done, size_t total)>& progress) {
  TemporalResult res;
  const size_t steps = kTemporalSeries * (with_hurst ? 4 : 1);
  size_t done = 0;
  const std::function<void()> step = [&] {
    ++done;
    if (progress) progress(done, steps);
  };
  // Every job with a known submit time defines the origin and the "jobs" series.
  const std::vector<int64_t> submit_times = sorted_submit_times(records);
  const int64_t origin = submit_times.front();
  res.records = static_cast<int64_t>(records.size());
  res.jobs = static_cast<int64_t>(submit_times.size());
  res.unknown_submit = res.records - res.jobs;
  res.span_seconds = submit_times.back() - origin;

  for (int k = 0; k < kTemporalSeries; ++k) {
    const auto which = static_cast<TemporalSeries>(k);
    const bool is_count = which == TemporalSeries::kJobs;
    // Plain references, not a structured binding: the lambda below captures them (clang 14 cannot capture
    // a binding).
    const auto points = series_points(records, which, submit_times);
    const std::vector<int64_t>& times = points.first;
    const std::vector<double>& values = points.second;
    TemporalRow& row = res.rows[static_cast<size_t>(k)];
    // (interarrival: the first job has none, which is not a job left out)
    row.unknown_value = res.jobs - static_cast<int64_t>(times.size()) - (which == TemporalSeries::kInterarrival);
    if (times.empty()) {
      const double nan = std::numeric_limits<double>::quiet_NaN();
      row = TemporalRow{row.unknown_value, nan, nan, nan, nan, nan, Hurst{nan, nan, nan, nan}};
      for (size_t i = 0; i < steps / kTemporalSeries; ++i) step();
      continue;
    }
    const auto acf = [&](int64_t width, int64_t lag) {
      return binned_autocorrelation(bin_series(times, values, origin, width, is_count), lag);
    };
    row.lag1_15m = acf(15 * 60, 1);
    row.lag1_150m = acf(150 * 60, 1);
    row.daily_12h = acf(6 * 3600, 2);
    row.daily_24h = acf(6 * 3600, 4);
    row.weekly_7d = acf(86400, 7);
    step();
    if (with_hurst) {
      if (which == TemporalSeries::kInterarrival) {
        row.hurst = estimate(std::vector<double>(values), step);
      } else {
        // 1-minute sums (counts for jobs), empty minutes 0.
        std::vector<double> sums(static_cast<size_t>((times.back() - origin) / 60 + 1), 0.0);
        for (size_t i = 0; i < times.size(); ++i) sums[static_cast<size_t>((times[i] - origin) / 60)] += values[i];
        row.hurst = estimate(std::move(sums), step);
      }
    }
  }
  return res;
}

}  // namespace schedlab::analysis
