#include "schedlab/experiments/simulation.h"

#include <algorithm>
#include <filesystem>
#include <utility>

#include <fmt/core.h>

#include "schedlab/base/count_text.h"
#include "schedlab/experiments/results_json.h"
#include "schedlab/predict/correction.h"
#include "schedlab/predict/registry.h"
#include "schedlab/sim/scheduler_registry.h"

namespace schedlab::experiments {

PreparedSimulation prepare_simulation(const SimulationSpec& spec) {
  PreparedSimulation out;
  out.spec = spec;
  if (spec.predictor_object && !spec.predictor.empty())
    throw std::invalid_argument(fmt::format("give a predictor spec ('{}') or a predictor object ({}), not both",
                                            spec.predictor, spec.predictor_object->label()));
  // An object's label stands for its spec here: a preset, which sets its own predictor, refuses it by name.
  const std::string predictor = spec.predictor_object ? std::string(spec.predictor_object->label()) : spec.predictor;
  sim::Policy policy;
  if (spec.scheduler_object) {  // no preset: the predictor given, or the default, as for any named scheduler
    policy.name = spec.scheduler.empty() ? std::string(spec.scheduler_object->name()) : spec.scheduler;
    policy.predictor = predictor.empty() ? std::string(predict::kDefaultPredictor) : predictor;
    if (!spec.correction.empty()) policy.predictor_params.emplace("correction", spec.correction);
    out.scheduler = spec.scheduler_object->clone();
  } else {
    policy = sim::resolve_policy(spec.scheduler, predictor, spec.correction, spec.files_dir);
    out.scheduler =
        sim::make_scheduler(policy.scheduler, sim::SchedulerConfig{spec.sim.seed, {}, policy.scheduler_files_dir});
  }
  out.name = policy.name;
  if (spec.event_cost) {
    auto wrapped = std::make_unique<sim::EventCostRecorder>(std::move(out.scheduler));
    out.recorder = wrapped.get();
    out.scheduler = std::move(wrapped);
  }
  out.predictor = spec.predictor_object
                      ? predict::with_correction(spec.predictor_object->clone(), spec.correction)
                      : predict::make_predictor(policy.predictor, predict::PredictorConfig{spec.sim.seed,
                                                                                            policy.predictor_params,
                                                                                            spec.files_dir});
  return out;
}

std::string no_job_left_message(const char* verb, int64_t records, const std::map<std::string, int64_t>& excluded) {
  if (records == 0) return fmt::format("no job to {} (the log has no job records)", verb);
  std::string reasons;
  for (const auto& [reason, count] : excluded)
    reasons += fmt::format("{}{} {}", reasons.empty() ? "" : ", ", reason, count);
  const std::string all =
      records == 1 ? std::string("the one record was") : fmt::format("all {} records were", records);
  return fmt::format("no job to {} ({} excluded: {})", verb, all, reasons);
}

void require_jobs(const workload::Workload& w, const char* verb) {
  if (!w.jobs.empty()) return;
  throw NoJobLeft(no_job_left_message(verb, w.records, w.excluded));
}

workload::Workload workload_of(const swf::Log& log, const workload::WorkloadOptions& options, const char* verb) {
  workload::check_options(options);
  const auto named = [&](const char* what) { return log.path.empty() ? std::string(what) : log.path + ": " + what; };
  workload::Workload w;
  try {
    w = workload::build_workload(log.header, log.records, options);
  } catch (const std::invalid_argument& e) {
    throw NoJobLeft(named(e.what()));  // the options are sound: the problem is the log's
  }
  try {
    require_jobs(w, verb);
  } catch (const NoJobLeft& e) {
    throw NoJobLeft(named(e.what()));
  }
  return w;
}

namespace {

Simulation simulate_workload(const PreparedSimulation& prepared, Simulation out) {
  // The recorder's clones share its sample list, so the samples of this run are the new ones.
  const size_t samples_before = prepared.recorder != nullptr ? prepared.recorder->samples().size() : 0;
  out.result = sim::simulate(out.workload, *prepared.scheduler, *prepared.predictor, prepared.spec.sim);
  out.result.scheduler = prepared.name;
  out.warnings = simulation_warnings(out.result);
  if (prepared.spec.by_class)
    out.by_class = sim::metrics_by_class(out.workload, out.result, *prepared.spec.by_class, prepared.spec.sim.bsld_tau);
  if (prepared.recorder != nullptr) {
    const auto& all = prepared.recorder->samples();
    out.event_cost = sim::summarize_event_cost(
        std::vector<sim::EventCostSample>(all.begin() + static_cast<std::ptrdiff_t>(samples_before), all.end()));
  }
  return out;
}

// The log's own overruns of its estimates are the papers' setting (the estimate predictor), not warned of.
int64_t overdue_warned(const sim::SimResult& r) {
  return r.predictor.substr(0, r.predictor.find(':')) != "estimate" ? r.overdue_misses : 0;
}

std::string times(int64_t n) { return n == 1 ? "once" : fmt::format("{} times", n); }

std::string overdue_warning(const std::string& how_often, const std::string& predictor) {
  return fmt::format(
      "a job ran past its predicted end and the predictor ({}) gave it no longer prediction ({}): the scheduler "
      "took it to end at once until it did, so the reservations behind it promised nothing. A predictor that "
      "underestimates is used with a correction (Tsafrir et al. 2007): --correction tsafrir, or correction=tsafrir "
      "in its spec",
      predictor, how_often);
}

std::string jobs_text(int64_t n) { return base::counted(n, "job"); }

std::string second_by_second_text(const std::string& how_often, const std::string& predictor) {
  return fmt::format(
      "jobs ran past their predicted end and the predictor ({}) raised their predictions by one second at a time, "
      "for a minute or more ({}): a deadline miss every second, and the schedule behind them redone at each. A "
      "no-estimate predictor capped below the jobs' runtimes does this (sbh's noest=1 with cap=): give a cap above "
      "the longest runtimes",
      predictor, how_often);
}

// The one warning of each kind per predictor, with how often each scheduler met it ("13513 times with easy, 14112
// with fcfs"; a single result: "13513 times").
std::vector<std::string> warnings_by_predictor(const std::vector<const sim::SimResult*>& results, bool one,
                                               int64_t (*count)(const sim::SimResult&), std::string (*first)(int64_t),
                                               std::string (*text)(const std::string&, const std::string&)) {
  std::vector<std::pair<std::string, std::string>> by_predictor;  // (predictor, how often), in the results' order
  for (const sim::SimResult* r : results) {
    const int64_t n = count(*r);
    if (n <= 0) continue;
    auto it = std::find_if(by_predictor.begin(), by_predictor.end(),
                           [&](const auto& p) { return p.first == r->predictor; });
    if (it == by_predictor.end()) it = by_predictor.insert(by_predictor.end(), {r->predictor, ""});
    if (one) it->second = first(n);
    else it->second += it->second.empty() ? fmt::format("{} with {}", first(n), r->scheduler)
                                          : fmt::format(", {} with {}", n, r->scheduler);
  }
  std::vector<std::string> out;
  for (const auto& [predictor, how_often] : by_predictor) out.push_back(text(how_often, predictor));
  return out;
}

std::vector<std::string> all_warnings(const std::vector<const sim::SimResult*>& results, bool one) {
  std::vector<std::string> out = warnings_by_predictor(results, one, overdue_warned, times, overdue_warning);
  for (std::string& w : warnings_by_predictor(
           results, one, [](const sim::SimResult& r) { return r.second_by_second_jobs; }, jobs_text,
           second_by_second_text))
    out.push_back(std::move(w));
  return out;
}

}  // namespace

std::string second_by_second_warning(int64_t jobs, const std::string& predictor) {
  return second_by_second_text(jobs_text(jobs), predictor);
}

std::vector<std::string> simulation_warnings(const sim::SimResult& r) { return all_warnings({&r}, true); }

std::vector<std::string> simulation_warnings(const std::vector<sim::SimResult>& results) {
  std::vector<const sim::SimResult*> all;
  for (const sim::SimResult& r : results) all.push_back(&r);
  return all_warnings(all, false);
}

Simulation run_simulation(const PreparedSimulation& prepared, const swf::Log& log) {
  Simulation out;
  out.spec = prepared.spec;
  out.workload = workload_of(log, prepared.spec.workload);
  return simulate_workload(prepared, std::move(out));
}

Simulation run_simulation(const PreparedSimulation& prepared, swf::Log&& log) {
  Simulation out;
  out.spec = prepared.spec;
  out.workload = workload_of(log, prepared.spec.workload);
  // The records go, and with them the index into them (8 bytes a job): nothing can be looked up there any more.
  std::vector<swf::Record>().swap(log.records);
  std::vector<size_t>().swap(out.workload.record_index);
  return simulate_workload(prepared, std::move(out));
}

nlohmann::json to_json(const sim::AdaptiveStats& a) {
  int64_t total = 0;
  for (const auto& c : a.candidates) total += c.active_seconds;
  nlohmann::json candidates = nlohmann::json::array();
  for (const auto& c : a.candidates) {
    candidates.push_back({{"spec", c.spec},
                          {"active_seconds", c.active_seconds},
                          {"time_share", total > 0 ? static_cast<double>(c.active_seconds) / static_cast<double>(total) : 0.0},
                          {"chosen", c.chosen}});
  }
  return {{"kind", a.kind},
          {"switch_points", a.switch_points},
          {"switches", a.switches},
          {"switches_share", a.switch_points > 0 ? static_cast<double>(a.switches) / static_cast<double>(a.switch_points) : 0.0},
          {"candidates", candidates}};
}

nlohmann::json to_json(const Simulation& s) {
  const workload::Workload& w = s.workload;
  const sim::SimResult& r = s.result;
  const auto& m = r.metrics;
  nlohmann::json excluded = nlohmann::json::object();
  for (const auto& [reason, count] : w.excluded) excluded[reason] = count;
  nlohmann::json doc = {
      {"scheduler", r.scheduler},
      {"predictor", r.predictor},
      {"procs", r.procs},
      {"procs_source", std::string(trace::machine_size_source_name(w.procs_source))},
      {"kill_at_estimate", w.kill_at_estimate},
      {"extend_estimates", s.spec.workload.extend_estimates},
      {"arrival_scale", w.arrival_scale},
      {"offered_load", w.offered_load},
      {"feedback", s.spec.workload.feedback},
      {"bsld_tau", s.spec.sim.bsld_tau},
      {"warmup_fraction", s.spec.sim.warmup_fraction},
      {"jobs",
       {{"records", w.records},
        {"simulated", w.jobs.size()},
        {"killed", w.killed},
        {"extended", w.extended},
        {"excluded", excluded},
        {"excluded_total", w.excluded_total},
        {"without_estimate", w.without_estimate},
        {"dependent", w.dependent},
        {"following", w.following},
        {"think_from_log", w.think_from_log},
        {"feedback_dropped", w.feedback_dropped},
        {"warmup_excluded", m.warmup_excluded}}},
      {"metrics",
       {{"wait", to_json(m.wait)},
        {"response", to_json(m.response)},
        {"slowdown", to_json(m.slowdown)},
        {"bounded_slowdown", to_json(m.bounded_slowdown)},
        {"utilization", m.utilization},
        {"makespan", m.makespan},
        {"suspensions", r.suspensions},
        {"kills", r.kills},
        {"backfilled", r.backfilled},
        {"backfilled_share", r.backfilled_share()},
        {"loss_of_capacity", r.loss_of_capacity()}}},
      {"accuracy", to_json(r.accuracy)},
      {"deadline_misses", r.deadline_misses},
      {"overdue_misses", r.overdue_misses},
      {"second_by_second_jobs", r.second_by_second_jobs},
      {"notes", w.notes},
      {"warnings", s.warnings},
      {"checked", s.spec.sim.check},
      {"wall_time_s", r.wall_time_s},
  };
  if (s.event_cost) doc["event_cost"] = to_json(*s.event_cost);
  if (r.adaptive) doc["adaptive"] = to_json(*r.adaptive);
  if (s.spec.by_class) {
    doc["by_class"] = to_json(*s.spec.by_class);
    doc["by_class"]["classes"] = to_json(s.by_class);
  }
  return doc;
}

}  // namespace schedlab::experiments
