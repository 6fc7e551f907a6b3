#include "schedlab/experiments/results_json.h"

namespace schedlab::experiments {

nlohmann::json to_json(const sim::Summary& s) {
  return {{"mean", s.mean}, {"median", s.median}, {"p90", s.p90}, {"max", s.max}};
}

nlohmann::json to_json(const predict::AccuracySummary& a) {
  return {{"jobs", a.jobs},
          {"absolute_error", {{"mean", a.mean_absolute_error}, {"median", a.median_absolute_error}}},
          {"relative_accuracy", {{"mean", a.mean_relative_accuracy}, {"median", a.median_relative_accuracy}}},
          {"underestimated_share", a.underestimated_share},
          {"predictions_per_job", a.mean_predictions}};
}

nlohmann::json to_json(const sim::EventCostSummary& s) {
  nlohmann::json buckets = nlohmann::json::array();
  for (const auto& b : s.buckets) {
    buckets.push_back({{"queue_from", b.queue_from}, {"queue_to", b.queue_to}, {"events", b.events},
                       {"mean_queue", b.mean_queue}, {"mean_us", b.mean_us}, {"us_per_queued_job", b.us_per_job},
                       {"fitted", b.fitted}});
  }
  return {{"events", s.events},
          {"scheduler_seconds", s.total_s},
          {"exponent", s.exponent ? nlohmann::json(*s.exponent) : nlohmann::json(nullptr)},
          {"buckets", buckets}};
}

nlohmann::json to_json(const sim::JobClassLimits& l) {
  return {{"limits", sim::job_class_limits_text(l)}, {"short_runtime", l.short_runtime}, {"narrow_procs", l.narrow_procs}};
}

nlohmann::json to_json(const std::vector<sim::JobClassMetrics>& classes) {
  nlohmann::json out = nlohmann::json::array();
  for (const sim::JobClassMetrics& c : classes) {
    out.push_back({{"class", c.name},
                   {"jobs", c.jobs},
                   {"share", c.share},
                   {"work_share", c.work_share},
                   {"wait_mean", c.wait_mean},
                   {"response_mean", c.response_mean},
                   {"slowdown_mean", c.slowdown_mean},
                   {"bounded_slowdown_mean", c.bounded_slowdown_mean},
                   {"backfilled", c.backfilled},
                   {"backfilled_share", c.backfilled_share}});
  }
  return out;
}

}  // namespace schedlab::experiments
