#include "schedlab/experiments/log_summary.h"

#include <optional>
#include <string>

#include "schedlab/trace/log_time.h"

namespace schedlab::experiments {

nlohmann::ordered_json to_json(const analysis::Distribution& d) {
  return {{"count", d.count}, {"min", d.min},   {"p10", d.p10}, {"p25", d.p25},   {"median", d.median},
          {"p75", d.p75},     {"p90", d.p90},   {"p99", d.p99}, {"max", d.max},   {"mean", d.mean},
          {"cv", d.cv}};
}

nlohmann::ordered_json to_json(const analysis::Summary& s, const swf::Header& header) {
  nlohmann::ordered_json j;
  j["records"] = s.records;
  j["valid_jobs"] = s.valid_jobs;
  nlohmann::ordered_json excluded = nlohmann::ordered_json::object();
  for (int i = 1; i < trace::kExclusionKinds; ++i)
    excluded[std::string(trace::exclusion_name(static_cast<trace::Exclusion>(i)))] = s.excluded[i];
  j["excluded"] = excluded;
  j["without_estimate"] = s.without_estimate;
  j["machine"] = {{"procs", s.machine.procs}, {"source", trace::machine_size_source_name(s.machine.source)}};
  j["distinct"] = {{"users", s.users},
                   {"groups", s.groups},
                   {"executables", s.executables},
                   {"queues", s.queues},
                   {"partitions", s.partitions}};
  j["dependencies"] = {
      {"jobs", s.dependent}, {"preceding_earlier", s.preceding_earlier}, {"think_given", s.think_given}};
  nlohmann::ordered_json submit = {{"known", s.submit_known},
                           {"first", s.first_submit},
                           {"last", s.last_submit},
                           {"span_days", s.span_days},
                           {"jobs_per_day", s.jobs_per_day}};
  if (s.submit_known > 0) {
    if (auto d = trace::format_log_time_if_known(s.first_submit, header)) submit["first_date"] = *d;
    if (auto d = trace::format_log_time_if_known(s.last_submit, header)) submit["last_date"] = *d;
    submit["time_zone"] = trace::log_time_zone(header);
  }
  j["submit"] = submit;
  j["offered_load"] = s.offered_load;
  j["distributions"] = {{"runtime", to_json(s.runtime)},
                        {"size", to_json(s.size)},
                        {"estimate", to_json(s.estimate)},
                        {"interarrival", to_json(s.interarrival)},
                        {"wait", to_json(s.wait)},
                        {"accuracy", to_json(s.accuracy)}};
  j["estimates"] = {{"runtime_over_estimate_share", s.runtime_over_estimate_share},
                    {"distinct", s.distinct_estimates},
                    {"popular_for_50pct", s.estimates_for_50},
                    {"popular_for_90pct", s.estimates_for_90},
                    {"limit", s.estimate_limit.value},
                    {"at_limit", s.estimate_limit.jobs},
                    {"above_limit", s.estimate_limit.above},
                    {"largest", s.largest_estimate}};
  j["power_of_two_share"] = s.power_of_two_share;
  nlohmann::ordered_json warnings = nlohmann::ordered_json::object();
  for (int i = 0; i < swf::kWarningKinds; ++i) {
    const auto& w = s.read.warnings[static_cast<size_t>(i)];
    warnings[std::string(swf::warning_name(static_cast<swf::Warning>(i)))] = {{"count", w.count},
                                                                               {"first_line", w.first_line}};
  }
  nlohmann::ordered_json skipped = nlohmann::ordered_json::object();
  for (const auto& [reason, count] : s.read.skipped) skipped[reason] = count;
  j["read"] = {{"lines", s.read.lines},
               {"header_lines", s.read.header_lines},
               {"blank_lines", s.read.blank_lines},
               {"decimal_fields", s.read.decimal_fields},
               {"skipped", skipped},
               {"partial_executions", {{"count", s.read.partial_executions.count},
                                       {"first_line", s.read.partial_executions.first_line},
                                       {"kept", s.read.partial_executions_kept}}},
               {"warnings", warnings},
               {"header_problems", header.problems}};
  return j;
}

nlohmann::ordered_json to_json(const swf::SacctReport& r) {
  nlohmann::ordered_json states = nlohmann::ordered_json::object();
  for (const auto& [state, n] : r.states) states[state] = n;
  return {{"rows", r.rows},          {"jobs", r.jobs},   {"unstarted", r.unstarted},
          {"unfinished", r.unfinished}, {"steps", r.steps}, {"het_components", r.het_components},
          {"requeued_jobs", r.requeued_jobs}, {"requeued_rows", r.requeued_rows},
          {"partial_executions", r.partial_executions}, {"het_requeued_rows", r.het_requeued_rows},
          {"reused_ids", r.reused_ids},
          {"held", r.held}, {"states", states},
          {"start_before_submit", r.start_before_submit}, {"end_before_start", r.end_before_start}};
}

}  // namespace schedlab::experiments
