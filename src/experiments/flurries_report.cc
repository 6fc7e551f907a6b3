#include "schedlab/experiments/flurries_report.h"

#include <cmath>

#include <fmt/core.h>

#include "schedlab/base/csv_number.h"
#include "schedlab/trace/id_names.h"
#include "schedlab/trace/log_time.h"

namespace schedlab::experiments {

std::string flurries_csv(const std::vector<trace::Flurry>& flurries) {
  std::string out = "user,week,week_start,jobs,runner_up,runner_up_jobs,ratio\n";
  for (const auto& f : flurries)
    out += fmt::format("{},{},{},{},{},{},{}\n", f.user, f.week, f.week_start, f.jobs, f.runner_up, f.runner_up_jobs,
                       base::csv_number(f.ratio));
  return out;
}

int64_t flurry_jobs(const std::vector<trace::Flurry>& flurries) {
  int64_t jobs = 0;
  for (const auto& f : flurries) jobs += f.jobs;
  return jobs;
}

nlohmann::ordered_json to_json(const std::vector<trace::Flurry>& flurries, const trace::FlurryOptions& options,
                               const swf::Log& log) {
  nlohmann::ordered_json j;
  j["rule"] = {{"factor", options.factor}, {"min_jobs", options.min_jobs}, {"week_seconds", options.week_seconds}};
  j["records"] = static_cast<int64_t>(log.records.size());
  j["unattributed"] = trace::unattributed_jobs(log.records);  // no user or submit time: in no flurry
  j["flurry_jobs"] = flurry_jobs(flurries);
  j["flurries"] = nlohmann::ordered_json::array();
  // A log converted from sacct names its users (trace/id_names.h): the names too, for the site that knows them.
  const auto names = trace::header_names_by_id(log.header, "users");
  for (const auto& f : flurries) {
    nlohmann::ordered_json row = {
        {"user", f.user},
        {"week", f.week},
        {"week_start", f.week_start},
        {"week_start_date", trace::format_log_time_if_known(f.week_start, log.header).value_or("")},
        {"jobs", f.jobs},
        {"runner_up", f.runner_up},
        {"runner_up_jobs", f.runner_up_jobs},
        {"ratio", f.ratio}};
    if (!names.empty()) {
      row["user_name"] = trace::name_of(names, f.user);
      row["runner_up_name"] = trace::name_of(names, f.runner_up);
    }
    j["flurries"].push_back(std::move(row));
  }
  return j;
}

}  // namespace schedlab::experiments
