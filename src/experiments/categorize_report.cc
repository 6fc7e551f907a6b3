#include "schedlab/experiments/categorize_report.h"

#include <string>

namespace schedlab::experiments {

nlohmann::ordered_json to_json(const analysis::Categorization& c, std::optional<analysis::CategoryKey> list_key,
                               int64_t top) {
  const analysis::CategorizeOptions& co = c.options;
  const auto lowest = c.lowest_cv();
  nlohmann::ordered_json j;
  j["records"] = c.records;
  j["rule"] = {{"quantity", "run time (field 4), seconds"},
               {"min_group_jobs", co.min_group_jobs},
               {"max_group_jobs", co.max_group_jobs},
               {"parallelism", analysis::parallelism_bucket_name(co.parallelism)},
               {"cv", "sample standard deviation / mean per group"},
               {"weights", "jobs per group"}};
  j["keys"] = nlohmann::ordered_json::array();
  for (const auto& r : c.keys) {
    nlohmann::ordered_json excluded;
    for (int e = 0; e < analysis::kCategoryExclusionKinds; ++e)
      excluded[std::string(analysis::category_exclusion_name(static_cast<analysis::CategoryExclusion>(e)))] =
          r.excluded[static_cast<size_t>(e)];
    j["keys"].push_back({{"key", analysis::category_key_name(r.key)},
                         {"groups", r.groups},
                         {"jobs", r.jobs},
                         {"mean_runtime", r.mean_runtime},
                         {"weighted_cv", r.weighted_cv},
                         {"excluded", excluded}});
  }
  j["lowest_cv_key"] = lowest ? nlohmann::ordered_json(analysis::category_key_name(*lowest)) : nullptr;
  if (list_key) {
    const auto& r = c[*list_key];
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& g : analysis::largest_groups(r, top)) {
      nlohmann::ordered_json row;
      if (g.executable >= 0) row["executable"] = g.executable;
      if (g.user >= 0) row["user"] = g.user;
      if (g.queue >= 0) row["queue"] = g.queue;
      if (g.parallelism >= 0) row["parallelism"] = g.parallelism;
      row["jobs"] = g.jobs;
      row["mean_runtime"] = g.mean;
      row["cv"] = g.cv;
      list.push_back(row);
    }
    j["groups"] = {{"key", analysis::category_key_name(*list_key)}, {"count", r.groups}, {"list", list}};
  }
  return j;
}

}  // namespace schedlab::experiments
