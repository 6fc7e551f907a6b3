#include "schedlab/experiments/runs_report.h"

#include <fmt/core.h>

namespace schedlab::experiments {

std::string runs_csv(const analysis::RunsResult& r) {
  std::string out = "length,runs\n";
  for (const auto& [len, count] : r.histogram) out += fmt::format("{},{}\n", len, count);
  return out;
}

nlohmann::ordered_json to_json(const analysis::RunsResult& r, std::string_view equivalence) {
  nlohmann::ordered_json j;
  j["equivalence"] = equivalence;
  j["jobs"] = r.jobs;
  j["excluded"] = {{"unknown_submit", r.unknown_submit},
                   {"unknown_user", r.unknown_user},
                   {"no_size", r.no_size},
                   {"unknown_executable", r.unknown_executable}};
  j["runs"] = r.runs;
  j["mean_length"] = r.mean_length;
  j["longest"] = r.longest;
  j["jobs_in_repeated_runs_share"] = r.jobs_in_repeated_share;
  j["theta"] = {{"mle", r.theta_mle}, {"mle_r_max", r.r_max}, {"loglog_slope", r.theta_loglog}};
  nlohmann::ordered_json h = nlohmann::ordered_json::array();
  for (const auto& [len, count] : r.histogram) h.push_back({len, count});
  j["histogram"] = h;
  return j;
}

}  // namespace schedlab::experiments
