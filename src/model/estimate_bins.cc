#include "schedlab/model/estimate_bins.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <unordered_map>

#include <fmt/core.h>

#include "schedlab/trace/conventions.h"

namespace schedlab::model {

EstimateBins estimate_bins(const std::vector<swf::Record>& records, const std::vector<double>& fractions) {
  EstimateBins b;
  b.records = static_cast<int64_t>(records.size());
  std::unordered_map<int32_t, int64_t> counts;
  for (const auto& r : records) {
    if (!trace::has_estimate(r)) {
      ++b.without_estimate;
      continue;
    }
    ++b.jobs;
    ++counts[r.requested_time];
  }
  b.distinct = static_cast<int64_t>(counts.size());
  b.modes.reserve(counts.size());
  for (const auto& [value, jobs] : counts) b.modes.push_back({value, jobs, 0, 0, 0, 0});
  // Time ranks.
  std::sort(b.modes.begin(), b.modes.end(), [](const auto& x, const auto& y) { return x.value < y.value; });
  for (size_t i = 0; i < b.modes.size(); ++i) b.modes[i].time_rank = static_cast<int64_t>(i) + 1;
  // Popularity ranks.
  std::stable_sort(b.modes.begin(), b.modes.end(), [](const auto& x, const auto& y) { return x.jobs > y.jobs; });
  std::vector<int64_t> counts_desc;
  counts_desc.reserve(b.modes.size());
  double cumulative = 0;
  for (size_t i = 0; i < b.modes.size(); ++i) {
    auto& m = b.modes[i];
    m.popularity_rank = static_cast<int64_t>(i) + 1;
    m.share = static_cast<double>(m.jobs) / static_cast<double>(b.jobs);
    cumulative += m.share;
    m.cumulative_share = cumulative;
    counts_desc.push_back(m.jobs);
    if (m.value > b.t_max) {
      b.t_max = m.value;
      b.t_max_share = m.share;
      b.t_max_popularity_rank = m.popularity_rank;
    }
  }
  std::vector<std::pair<int32_t, int64_t>> value_jobs;
  value_jobs.reserve(b.modes.size());
  for (const auto& m : b.modes) value_jobs.emplace_back(m.value, m.jobs);
  const analysis::EstimateLimit limit = analysis::estimate_limit(value_jobs);
  b.limit = limit.value;
  b.above_limit = limit.above;
  for (const auto& m : b.modes) {
    if (m.value == b.limit) {
      b.limit_share = m.share;
      b.limit_popularity_rank = m.popularity_rank;
    }
  }
  b.fractions = fractions;
  for (const double f : fractions) b.cover.push_back(popular_cover(counts_desc, b.jobs, f));
  return b;
}

nlohmann::ordered_json to_json(const EstimateBins& b, size_t top) {
  nlohmann::ordered_json j;
  j["counting_rule"] = "jobs with an estimate (field 9 > 0)";
  j["records"] = b.records;
  j["jobs"] = b.jobs;
  j["without_estimate"] = b.without_estimate;
  j["distinct"] = b.distinct;
  j["t_max"] = b.t_max;
  j["t_max_share"] = b.t_max_share;
  j["t_max_popularity_rank"] = b.t_max_popularity_rank;
  j["limit"] = b.limit;
  j["limit_share"] = b.limit_share;
  j["limit_popularity_rank"] = b.limit_popularity_rank;
  j["above_limit"] = b.above_limit;
  auto cover = nlohmann::ordered_json::array();
  for (size_t i = 0; i < b.fractions.size(); ++i) cover.push_back({{"fraction", b.fractions[i]}, {"bins", b.cover[i]}});
  j["cover"] = cover;
  auto modes = nlohmann::ordered_json::array();
  for (size_t i = 0; i < b.modes.size() && i < top; ++i) {
    const auto& m = b.modes[i];
    modes.push_back({{"popularity_rank", m.popularity_rank},
                     {"value", m.value},
                     {"jobs", m.jobs},
                     {"share", m.share},
                     {"cumulative_share", m.cumulative_share},
                     {"time_rank", m.time_rank}});
  }
  j["modes"] = modes;
  return j;
}

nlohmann::ordered_json to_json(const EstimateComparison& c) {
  nlohmann::ordered_json j;
  j["paired"] = c.paired;
  j["real_jobs"] = c.real_jobs;
  j["model_jobs"] = c.model_jobs;
  j["ks"] = c.ks;
  j["sa_real"] = c.sa_real;
  j["sa_model"] = c.sa_model;
  j["d_sa"] = c.d_sa;
  j["real_bins"] = to_json(c.real, 20);
  j["model_bins"] = to_json(c.model, 20);
  return j;
}

int64_t drop_estimates_above(std::vector<swf::Record>& records, int64_t limit) {
  if (limit < 1 || limit > std::numeric_limits<int32_t>::max())
    throw std::invalid_argument(fmt::format("the estimate limit must be 1 s to 2^31 - 1 s, got {} s", limit));
  const auto before = records.size();
  std::erase_if(records, [limit](const swf::Record& r) { return r.requested_time > limit; });
  return static_cast<int64_t>(before - records.size());
}

EstimateComparison compare_estimates(const std::vector<swf::Record>& real, const std::vector<swf::Record>& model,
                                     std::string_view real_name, std::string_view model_name) {
  EstimateComparison c;
  c.paired = real.size() == model.size() &&
             std::equal(real.begin(), real.end(), model.begin(),
                        [](const auto& x, const auto& y) { return x.job_number == y.job_number; });
  std::vector<swf::Record> rs, ms;
  if (c.paired) {
    for (size_t i = 0; i < real.size(); ++i)
      if (trace::has_estimate(real[i]) && trace::has_estimate(model[i])) {
        rs.push_back(real[i]);
        ms.push_back(model[i]);
      }
  } else {
    for (const auto& r : real)
      if (trace::has_estimate(r)) rs.push_back(r);
    for (const auto& r : model)
      if (trace::has_estimate(r)) ms.push_back(r);
  }
  c.real_jobs = static_cast<int64_t>(rs.size());
  c.model_jobs = static_cast<int64_t>(ms.size());
  if (c.real_jobs == 0 || c.model_jobs == 0) {
    const auto none = [](const std::vector<swf::Record>& v) { return std::none_of(v.begin(), v.end(), trace::has_estimate); };
    if (none(real) || none(model))
      throw std::invalid_argument(fmt::format("{}: no job has an estimate (field 9 > 0): nothing to compare",
                                              none(real) ? real_name : model_name));
    throw std::invalid_argument(fmt::format("{} and {}: no job has an estimate in both (the logs are paired by job "
                                            "number): nothing to compare", real_name, model_name));
  }
  const auto side = [](const std::vector<swf::Record>& v, double& sa) {
    std::vector<double> e;
    e.reserve(v.size());
    sa = 0;
    for (const auto& r : v) {
      e.push_back(r.requested_time);
      const int32_t size = trace::job_size(r);
      if (size > 0) sa += static_cast<double>(size) * static_cast<double>(r.requested_time);
    }
    return e;
  };
  c.ks = analysis::ks_statistic(side(rs, c.sa_real), side(ms, c.sa_model));
  c.d_sa = c.sa_real > 0 ? (c.sa_model - c.sa_real) / c.sa_real : std::nan("");
  c.real = estimate_bins(rs);
  c.model = estimate_bins(ms);
  return c;
}

}  // namespace schedlab::model
