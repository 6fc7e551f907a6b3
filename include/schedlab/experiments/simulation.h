// One simulation as a user asks for it: a log, a policy named as on the command line (a scheduler or a
// preset, a predictor spec, a correction), the workload and simulation options. This is `schedlab
// simulate`; the Python module and parameter sweeps call the same two functions.
//
//   auto prepared = prepare_simulation(spec);        // makes the scheduler and predictor: fails fast on a
//                                                    // bad name or parameter, before the log is read
//   Simulation s = run_simulation(prepared, log);    // builds the workload, simulates
//   nlohmann::json j = to_json(s);
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "schedlab/predict/predictor.h"
#include "schedlab/sim/event_cost.h"
#include "schedlab/sim/job_classes.h"
#include "schedlab/sim/scheduler.h"
#include "schedlab/sim/simulate.h"
#include "schedlab/workload/workload.h"
#include "schedlab/swf/reader.h"

namespace schedlab::experiments {

struct SimulationSpec {
  std::string scheduler;   // a scheduler spec or a preset (sim/scheduler_registry.h)
  std::string predictor;   // a predictor spec; empty: the default (estimate) or the preset's
  std::string correction;  // empty: none (a preset sets its own)
  workload::WorkloadOptions workload;
  sim::SimOptions sim;     // sim.seed also seeds the scheduler and predictor factories
  bool event_cost = false;  // time the scheduler at every event (sim/event_cost.h); decisions unchanged
  // The metrics by job class as well (sim/job_classes.h): Simulation::by_class and the JSON's "by_class".
  std::optional<sim::JobClassLimits> by_class = std::nullopt;
  // Where relative files are read from (a sweep spec's directory; empty: the working directory): a predictor's
  // file parameters and a scheduler or predictor given as "@PATH".
  std::string files_dir = {};
  // A predictor of the caller's own (written in Python, or in C++ against the installed library), used instead of
  // `predictor`, which must then be empty: the simulation runs a clone of it, with `correction` applied
  // (predict::with_correction). A preset refuses it as it refuses a predictor spec.
  std::shared_ptr<const predict::Predictor> predictor_object = {};
  // A scheduling policy of the caller's own (written in Python, or in C++ against the installed library), used
  // instead of a registered one: the simulation runs a clone of it, named `scheduler` in results (empty: its
  // name()). It has no preset's predictor: `predictor` (or the object) and `correction` apply as to any scheduler.
  std::shared_ptr<const sim::Scheduler> scheduler_object = {};
};

struct PreparedSimulation {
  SimulationSpec spec;
  std::string name;  // the scheduler as results name it (sim::Policy::name)
  std::unique_ptr<sim::Scheduler> scheduler;
  std::unique_ptr<predict::Predictor> predictor;
  const sim::EventCostRecorder* recorder = nullptr;  // inside `scheduler` when spec.event_cost
};

struct Simulation {
  SimulationSpec spec;
  workload::Workload workload;
  sim::SimResult result;  // result.scheduler: the name given (a preset's too), or a spec file's spec
  std::optional<sim::EventCostSummary> event_cost;
  std::vector<sim::JobClassMetrics> by_class;  // with spec.by_class: the four classes (sim::metrics_by_class)
  // What the user should know about the result (simulation_warnings).
  std::vector<std::string> warnings;
};

// What a simulation's result says about how it was asked for: a predictor other than the estimate that left jobs
// overdue (a deadline miss with no correction: Tsafrir et al. 2007 correct every miss, and without it EASY with
// `ruh` waits 8x longer on KTH) — the log's own overruns of the estimate are the papers' setting, not warned of —
// and a predictor that raised missed predictions by one second at a time (second_by_second_warning).
std::vector<std::string> simulation_warnings(const sim::SimResult& r);
// Those warnings for several results (compare): per predictor, how many times with each scheduler ("13513 times
// with easy, 14112 with fcfs").
std::vector<std::string> simulation_warnings(const std::vector<sim::SimResult>& results);
// The warning of `jobs` jobs whose predictions `predictor` raised by one second at a time for a minute or more
// (sim::SimResult::second_by_second_jobs): a no-estimate SBH capped below their runtimes. `schedlab predict` gives it
// too.
std::string second_by_second_warning(int64_t jobs, const std::string& predictor);

// Throws std::invalid_argument on an unknown scheduler, preset or predictor, a bad parameter, a preset given with
// a predictor or correction, or both a predictor spec and a predictor object.
PreparedSimulation prepare_simulation(const SimulationSpec& spec);

// A log that cannot be simulated as asked: no job left to simulate (or replay) — the averages over no job would
// read as zeros — or jobs that cannot be scaled to the asked load.
class NoJobLeft : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};
// "no job to VERB (the log has no job records)" when `records` is 0, else "no job to VERB (all N records were
// excluded: reason count, ...)", the reasons (trace::exclusion_name) in name order.
std::string no_job_left_message(const char* verb, int64_t records, const std::map<std::string, int64_t>& excluded);
// Throws NoJobLeft when the workload has no job, with no_job_left_message; `verb` is "simulate" or "replay".
void require_jobs(const workload::Workload& w, const char* verb = "simulate");
// workload::build_workload, then require_jobs: every problem of the log's own (no job left, no work to scale to a
// load, no estimate to kill at) as a NoJobLeft whose message starts with the log's path ("PATH: no job to ...").
workload::Workload workload_of(const swf::Log& log, const workload::WorkloadOptions& options,
                               const char* verb = "simulate");

// Throws std::invalid_argument on bad workload or simulation options, NoJobLeft when no job is left.
Simulation run_simulation(const PreparedSimulation& prepared, const swf::Log& log);
// The same, for a caller that has no further use for the log: its records are freed once the workload is built,
// before the simulation (on CEA-Curie a third of the peak memory), and the workload's record_index is left empty.
Simulation run_simulation(const PreparedSimulation& prepared, swf::Log&& log);

// An adaptive scheduler's report: per candidate the time it was active (seconds and share) and the switch
// points where it was chosen; the switch points and the switches taken (Talby Table 12's columns).
nlohmann::json to_json(const sim::AdaptiveStats& a);
// Everything `schedlab simulate --json` prints except the trace's path.
nlohmann::json to_json(const Simulation& s);

}  // namespace schedlab::experiments
