#include "schedlab/experiments/locality_report.h"

#include <cmath>

#include <fmt/core.h>

#include "schedlab/base/csv_number.h"

namespace schedlab::experiments {

std::string locality_csv(const analysis::LocalityResult& r) {
  std::string out = "slice,start,jobs,usable,m,top_bin\n";
  for (const auto& s : r.slices)
    out += fmt::format("{},{},{},{},{},{}\n", s.index, s.start, s.jobs, s.usable ? 1 : 0,
                       s.usable ? base::csv_number(s.m) : "",
                       s.usable ? std::to_string(s.top_bin) : "");
  return out;
}

nlohmann::ordered_json to_json(const analysis::LocalityResult& r, const analysis::LocalityOptions& lo,
                               const analysis::AttributeSeries& series, analysis::Attribute attribute) {
  nlohmann::ordered_json j;
  j["attribute"] = analysis::attribute_name(attribute);
  j["options"] = {{"slice_seconds", lo.slice_seconds}, {"bins", lo.bins},         {"bootstrap", lo.rounds},
                  {"seed", lo.seed},                   {"shift_seconds", lo.shift}, {"min_expected", lo.min_expected},
                  {"expected_counts", analysis::expected_counts_name(lo.expected)}};
  j["jobs"] = r.jobs;
  j["unknown_submit"] = series.unknown_submit;
  j["unknown_value"] = series.unknown_value;
  if (attribute == analysis::Attribute::kEstimate) j["estimate_from_runtime"] = series.estimate_from_runtime;
  j["slices"] = r.slice_count;
  j["usable_slices"] = r.usable_slices;
  j["jobs_in_usable_slices"] = r.jobs_in_usable;
  j["m_prime"] = {{"max", r.m_max_prime}, {"median", r.m_med_prime}};
  if (lo.rounds > 0) {
    j["baseline"] = {{"rounds", lo.rounds},
                     {"max", {{"median", r.g_max}, {"p05", r.boot_max_p05}, {"p95", r.boot_max_p95}}},
                     {"median", {{"median", r.g_med}, {"p05", r.boot_med_p05}, {"p95", r.boot_med_p95}}}};
    j["m"] = {{"max", r.m_max}, {"median", r.m_med}};
    j["p_value"] = {{"max", r.p_max}, {"median", r.p_med}};
  }
  j["bins"] = {{"bounds", r.bins.bounds}, {"shares", r.bins.shares}};
  nlohmann::ordered_json slices = nlohmann::ordered_json::array();
  for (const auto& s : r.slices) {
    nlohmann::ordered_json e = {{"index", s.index}, {"start", s.start}, {"jobs", s.jobs}, {"usable", s.usable}};
    if (s.usable) {
      e["m"] = s.m;
      e["top_bin"] = s.top_bin;
    }
    slices.push_back(e);
  }
  j["series"] = slices;
  return j;
}

}  // namespace schedlab::experiments
