// JSON forms of the library's result types, shared by every command's --json output, the Python module and
// the report, so one result has one JSON shape everywhere.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "schedlab/predict/accuracy.h"
#include "schedlab/sim/event_cost.h"
#include "schedlab/sim/job_classes.h"
#include "schedlab/sim/metrics.h"

namespace schedlab::experiments {

// {"mean", "median", "p90", "max"}
nlohmann::json to_json(const sim::Summary& s);
// {"jobs", "absolute_error": {mean, median}, "relative_accuracy": {mean, median}, "underestimated_share",
//  "predictions_per_job"}
nlohmann::json to_json(const predict::AccuracySummary& a);
// {"events", "scheduler_seconds", "exponent" (null when not fitted), "buckets": [...]}
nlohmann::json to_json(const sim::EventCostSummary& s);
// {"limits": "1h,8", "short_runtime", "narrow_procs"}
nlohmann::json to_json(const sim::JobClassLimits& l);
// [{"class", "jobs", "share", "work_share", "wait_mean", "response_mean", "slowdown_mean", "bounded_slowdown_mean",
//   "backfilled", "backfilled_share"}, ...]
nlohmann::json to_json(const std::vector<sim::JobClassMetrics>& classes);

}  // namespace schedlab::experiments
