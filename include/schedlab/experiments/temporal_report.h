// The outputs of `schedlab analyze temporal` (analysis/temporal.h) as text files and JSON, shared by the
// CLI, the Python module and the report.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "schedlab/analysis/temporal.h"

namespace schedlab::experiments {

// series,lag1_15m,lag1_150m,daily_12h,daily_24h,weekly_7d,hurst_variance_time,hurst_rs,hurst_periodogram,
// hurst_average — one row per series; NaN written as "nan".
std::string temporal_csv(const analysis::TemporalResult& r);

// bin,start,value — one row per bin; an absent bin (no job) has an empty value.
std::string temporal_bins_csv(const analysis::TemporalBins& b);

// {"jobs", "span_days", "series": {name: {"locality", "daily", "weekly"[, "hurst"]}}}; NaN as null.
nlohmann::ordered_json to_json(const analysis::TemporalResult& r, bool with_hurst);

}  // namespace schedlab::experiments
