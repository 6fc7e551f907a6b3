#include "schedlab/experiments/diversity_study.h"

#include <cmath>
#include <stdexcept>

#include <fmt/core.h>

#include "schedlab/base/csv_number.h"
#include "schedlab/base/file_name.h"

namespace schedlab::experiments {
namespace {


}  // namespace

DiversityLog diversity_log(std::string name, const swf::Log& log, analysis::Attribute attribute) {
  analysis::AttributeSeries s = analysis::attribute_series(log.records, attribute);
  if (s.values.empty())
    throw std::invalid_argument(fmt::format("{}: no job has a known {}", name, analysis::attribute_name(attribute)));
  const int64_t first_job = attribute == analysis::Attribute::kInterarrival ? 1 : 0;  // (values not empty: it exists)
  return {std::move(name),      std::move(s.values),          s.unknown_value + s.unknown_submit,
          s.unknown_submit,     s.unknown_value - first_job, s.estimate_from_runtime};
}

DiversityStudy run_diversity_study(std::vector<DiversityLog> logs, analysis::Attribute attribute,
                                   const analysis::DiversityOptions& options) {
  DiversityStudy st;
  st.attribute = attribute;
  st.options = options;
  std::vector<std::vector<double>> values;
  for (auto& l : logs) {
    st.names.push_back(std::move(l.name));
    st.without_value.push_back(l.without_value);
    st.without_submit.push_back(l.without_submit);
    st.unknown_value.push_back(l.unknown_value);
    st.estimate_from_runtime.push_back(l.estimate_from_runtime);
    values.push_back(std::move(l.values));
  }
  st.result = analysis::diversity(values, options);
  return st;
}

std::string diversity_csv(const DiversityStudy& st) {
  std::string out =
      "log,jobs,job_weighted,same_weight,baseline_job_weighted,baseline_same_weight,top_bin_job_weighted,"
      "top_bin_same_weight\n";
  for (size_t i = 0; i < st.result.rows.size(); ++i) {
    const auto& row = st.result.rows[i];
    out += fmt::format("{},{},{},{},{},{},{},{}\n", base::file_name(st.names[i]), row.jobs,
                       base::csv_number(row.job_weighted), base::csv_number(row.same_weight),
                       base::csv_number(row.baseline_job_weighted), base::csv_number(row.baseline_same_weight),
                       row.top_bin_job_weighted, row.top_bin_same_weight);
  }
  return out;
}

nlohmann::ordered_json to_json(const DiversityStudy& st) {
  const auto& d = st.options;
  const auto& r = st.result;
  nlohmann::ordered_json j;
  j["attribute"] = analysis::attribute_name(st.attribute);
  j["options"] = {{"bins", d.bins},
                  {"bootstrap", d.rounds},
                  {"seed", d.seed},
                  {"expected_counts", analysis::expected_counts_name(d.expected)}};
  j["logs"] = nlohmann::ordered_json::array();
  for (size_t i = 0; i < r.rows.size(); ++i) {
    const auto& row = r.rows[i];
    j["logs"].push_back({{"path", st.names[i]},
                         {"jobs", row.jobs},
                         {"jobs_without_value", st.without_value[i]},
                         {"jobs_without_submit_time", st.without_submit[i]},
                         {"jobs_unknown_value", st.unknown_value[i]},
                         {"job_weighted", row.job_weighted},
                         {"same_weight", row.same_weight},
                         {"baseline_job_weighted", row.baseline_job_weighted},
                         {"baseline_same_weight", row.baseline_same_weight},
                         {"top_bin_job_weighted", row.top_bin_job_weighted},
                         {"top_bin_same_weight", row.top_bin_same_weight}});
    if (st.attribute == analysis::Attribute::kEstimate)
      j["logs"].back()["jobs_estimate_from_runtime"] = st.estimate_from_runtime[i];
  }
  j["bins"] = {{"job_weighted", {{"bounds", r.job_weighted_bins.bounds}, {"shares", r.job_weighted_bins.shares}}},
               {"same_weight", {{"bounds", r.same_weight_bins.bounds}, {"shares", r.same_weight_bins.shares}}}};
  return j;
}

}  // namespace schedlab::experiments
