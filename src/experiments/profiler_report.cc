#include "schedlab/experiments/profiler_report.h"

#include <cmath>
#include <string>

namespace schedlab::experiments {

namespace pf = predict::profiler;

nlohmann::json to_json(const pf::Estimate& e, double confidence) {
  nlohmann::json j = {{"ok", e.ok}};
  if (!e.ok) {
    j["held"] = e.held;  // > 0: there is data, but it cannot answer at this size
    return j;
  }
  j["estimate"] = e.estimate;
  j["half_width"] = e.half_width;
  j["confidence"] = confidence;
  j["lower"] = e.estimate - e.half_width;
  j["upper"] = e.upper();
  j["std_error"] = e.std_error;
  j["dof"] = e.dof;
  j["corrected"] = e.corrected;
  if (e.corrected) j["uncorrected"] = e.uncorrected;
  j["level"] = std::string(pf::level_name(e.level));
  j["method"] = std::string(pf::method_name(e.method));
  j["samples"] = e.samples;
  j["buckets"] = e.buckets;
  if (e.function) {
    const auto& b = e.function->coefficients();
    j["function"] = {{"a", b[0]}, {"b", b[1]}, {"c", b[2]}};
  } else {
    j["sd"] = e.sd;
  }
  return j;
}

nlohmann::json to_json(const std::vector<pf::IngestReport>& reports, const pf::DbSummary& sum) {
  nlohmann::json logs = nlohmann::json::array();
  for (const auto& r : reports) {
    logs.push_back({{"trace", r.trace},
                    {"source", r.source},
                    {"new_source", r.new_source},
                    {"records", r.records},
                    {"added", r.added},
                    {"already_present", r.already},
                    {"skipped", r.skipped},
                    {"skipped_total", r.skipped_total},
                    {"entries_written", r.entries_written},
                    {"header_warnings", r.header_warnings}});
  }
  nlohmann::json sources = nlohmann::json::array();
  for (const auto& s : sum.sources) sources.push_back({{"identity", s.identity}, {"path", s.path}, {"jobs", s.jobs}});
  return {{"logs", logs}, {"database", {{"jobs", sum.jobs}, {"entries", sum.entries}, {"sources", sources}}}};
}

nlohmann::json to_json(const pf::Comparison& c, double difference, double confidence) {
  return {
      {"a", to_json(c.a, confidence)},
      {"b", to_json(c.b, confidence)},
      {"difference", difference},
      {"confidence", confidence},
      {"t", std::isfinite(c.test.t) ? nlohmann::json(c.test.t) : nlohmann::json(c.test.t > 0 ? "inf" : "-inf")},
      {"dof", std::isfinite(c.test.dof) ? nlohmann::json(c.test.dof) : nlohmann::json("inf")},
      {"critical", c.test.critical},
      {"accepted", c.test.accepted},
  };
}

}  // namespace schedlab::experiments
