#include "schedlab/experiments/temporal_report.h"

#include <cmath>

#include <fmt/core.h>

#include "schedlab/base/csv_number.h"

namespace schedlab::experiments {
namespace {

nlohmann::ordered_json number(double v) { return std::isnan(v) ? nlohmann::ordered_json() : nlohmann::ordered_json(v); }
std::string_view series_name(int k) { return analysis::temporal_series_name(static_cast<analysis::TemporalSeries>(k)); }

}  // namespace

std::string temporal_csv(const analysis::TemporalResult& r) {
  std::string out =
      "series,lag1_15m,lag1_150m,daily_12h,daily_24h,weekly_7d,hurst_variance_time,hurst_rs,hurst_periodogram,"
      "hurst_average\n";
  for (int k = 0; k < analysis::kTemporalSeries; ++k) {
    const auto& row = r.rows[static_cast<size_t>(k)];
    out += fmt::format("{},{},{},{},{},{},{},{},{},{}\n", series_name(k), base::csv_number(row.lag1_15m),
                       base::csv_number(row.lag1_150m), base::csv_number(row.daily_12h), base::csv_number(row.daily_24h),
                       base::csv_number(row.weekly_7d), base::csv_number(row.hurst.variance_time), base::csv_number(row.hurst.rs),
                       base::csv_number(row.hurst.periodogram), base::csv_number(row.hurst.average));
  }
  return out;
}

std::string temporal_bins_csv(const analysis::TemporalBins& b) {
  std::string out = "bin,start,value\n";
  for (size_t i = 0; i < b.bins.value.size(); ++i)
    out += fmt::format("{},{},{}\n", i, static_cast<int64_t>(i) * b.width + b.origin,
                       b.bins.present[i] ? base::csv_number(b.bins.value[i]) : "");
  return out;
}

nlohmann::ordered_json to_json(const analysis::TemporalResult& r, bool with_hurst) {
  nlohmann::ordered_json j;
  j["records"] = r.records;
  j["jobs"] = r.jobs;
  j["excluded"] = {{"unknown_submit_time", r.unknown_submit}};
  j["span_days"] = static_cast<double>(r.span_seconds) / 86400.0;
  for (int k = 0; k < analysis::kTemporalSeries; ++k) {
    const auto& row = r.rows[static_cast<size_t>(k)];
    nlohmann::ordered_json e = {
        {"excluded_unknown_value", row.unknown_value},
        {"locality", {{"lag1_15m", number(row.lag1_15m)}, {"lag1_150m", number(row.lag1_150m)}}},
        {"daily", {{"lag_12h", number(row.daily_12h)}, {"lag_24h", number(row.daily_24h)}}},
        {"weekly", {{"lag_7d", number(row.weekly_7d)}}}};
    if (with_hurst)
      e["hurst"] = {{"variance_time", number(row.hurst.variance_time)},
                    {"rs", number(row.hurst.rs)},
                    {"periodogram", number(row.hurst.periodogram)},
                    {"average", number(row.hurst.average)}};
    j["series"][std::string(series_name(k))] = e;
  }
  return j;
}

}  // namespace schedlab::experiments
