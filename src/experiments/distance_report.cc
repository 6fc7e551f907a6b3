#include "schedlab/experiments/distance_report.h"

#include <cmath>

namespace schedlab::experiments {
namespace {
nlohmann::ordered_json number(double v) { return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(); }
}  // namespace

nlohmann::ordered_json to_json(const analysis::LogDistance& d) {
  nlohmann::ordered_json j;
  j["a"] = {{"procs", d.procs_a},
            {"records", d.records_a},
            {"excluded_unknown_submit_time", d.unknown_submit_a},
            {"jobs_per_day", number(d.jobs_per_day_a)},
            {"offered_load", number(d.load_a)}};
  j["b"] = {{"procs", d.procs_b},
            {"records", d.records_b},
            {"excluded_unknown_submit_time", d.unknown_submit_b},
            {"jobs_per_day", number(d.jobs_per_day_b)},
            {"offered_load", number(d.load_b)}};
  nlohmann::ordered_json attrs = nlohmann::ordered_json::object();
  for (const auto& a : d.attributes) {
    nlohmann::ordered_json& x = attrs[std::string(analysis::attribute_name(a.attribute))];
    x = {{"ks", number(a.ks)},
         {"median_a", number(a.median_a)},
         {"median_b", number(a.median_b)},
         {"count_a", a.count_a},
         {"count_b", a.count_b}};
    if (a.attribute == analysis::Attribute::kEstimate) {  // the jobs whose runtime stood in for the estimate
      x["estimate_from_runtime_a"] = a.estimate_from_runtime_a;
      x["estimate_from_runtime_b"] = a.estimate_from_runtime_b;
    }
  }
  j["attributes"] = attrs;
  return j;
}

}  // namespace schedlab::experiments
