// schedlab simulate: replay a log under a scheduling policy and report wait/slowdown/utilization.
#include <optional>
#include <stdexcept>
#include <string>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "schedlab/experiments/simulation.h"
#include "schedlab/predict/registry.h"
#include "schedlab/sim/event_cost.h"
#include "schedlab/sim/job_output.h"
#include "schedlab/sim/scheduler_registry.h"
#include "schedlab/sim/simulate.h"
#include "schedlab/sim/workload.h"
#include "schedlab/swf/reader.h"

namespace schedlab::cli {

namespace {

struct SimulateArgs {
  std::string trace;
  std::string scheduler;
  std::string predictor{predict::kDefaultPredictor};
  bool predictor_given = false;
  std::string correction;
  bool extend_estimates = false;
  std::optional<int64_t> procs;
  bool kill_at_estimate = false;
  std::optional<double> load;
  double arrival_scale = 1.0;
  int64_t bsld_tau = 10;
  double warmup_fraction = 0.0;
  uint64_t seed = 0;
  bool json = false;
  std::string jobs_out;
  bool check = false;
  bool event_cost = false;
  bool list = false;
};

void print_list() {
  fmt::print("schedulers:\n");
  for (const auto& e : sim::schedulers()) {
    fmt::print("  {:<16} {}{}\n", e.name, e.description, e.params.empty() ? "" : fmt::format(" [{}]", e.params));
  }
  fmt::print("presets (scheduler + predictor, run as --scheduler NAME):\n");
  for (const auto& e : sim::presets()) {
    fmt::print("  {:<14} preset: {} + predictor {} ({})\n", e.name, e.scheduler, e.predictor, e.description);
  }
  fmt::print("predictors (spec NAME[:KEY=VALUE;...]; every predictor also takes correction=none|tsafrir|double|times10):\n");
  for (const auto& e : predict::predictors()) {
    fmt::print("  {:<14} {}\n", e.name, e.description);
    if (!e.parameters.empty()) fmt::print("  {:<14}   parameters: {}\n", "", e.parameters);
  }
}

void print_accuracy_text(const predict::AccuracySummary& a) {
  fmt::print("\nprediction accuracy (time-weighted over each job's life, {} jobs)\n", a.jobs);
  fmt::print("{:<26} {:>14.1f} {:>14.1f}   (mean, median)\n", "absolute error (s)", a.mean_absolute_error,
             a.median_absolute_error);
  fmt::print("{:<26} {:>14.4f} {:>14.4f}   (mean, median)\n", "relative accuracy", a.mean_relative_accuracy,
             a.median_relative_accuracy);
  fmt::print("{:<26} {:>14.4f}\n", "underestimated share", a.underestimated_share);
  fmt::print("{:<26} {:>14.3f}\n", "predictions per job", a.mean_predictions);
}

void print_event_cost_text(const sim::EventCostSummary& s) {
  fmt::print("\nscheduler cost per event by queue length ({:.3f} s in the scheduler over {} events)\n", s.total_s,
             s.events);
  fmt::print("{:<16} {:>10} {:>12} {:>14} {:>18}\n", "queue", "events", "mean queue", "us per event",
             "us per queued job");
  for (const auto& b : s.buckets) {
    const std::string range =
        b.queue_from == 0 ? "0" : fmt::format("[{}, {}){}", b.queue_from, b.queue_to, b.fitted ? " *" : "");
    fmt::print("{:<16} {:>10} {:>12.1f} {:>14.2f} {:>18.4f}\n", range, b.events, b.mean_queue, b.mean_us,
               b.us_per_job);
  }
  if (s.exponent) {
    fmt::print("growth exponent k in cost ~ queue^k, over the rows marked *: {:.2f}\n", *s.exponent);
  } else {
    fmt::print("growth exponent: not fitted (needs two rows from queue 16 with 100 events or more)\n");
  }
}

void print_json(const SimulateArgs& a, const experiments::Simulation& sim) {
  nlohmann::json doc = experiments::to_json(sim);
  doc["trace"] = a.trace;
  fmt::print("{}\n", doc.dump(2));
}

void print_text(const SimulateArgs& a, const experiments::Simulation& sim) {
  const sim::Workload& w = sim.workload;
  const sim::SimResult& r = sim.result;
  const auto& m = r.metrics;
  fmt::print("trace        {}\n", a.trace);
  fmt::print("scheduler    {} (predictor {}{})\n", r.scheduler, r.predictor,
             w.kill_at_estimate ? ", jobs killed at their estimate" : "");
  fmt::print("machine      {} processors ({})\n", r.procs, trace::machine_size_source_name(w.procs_source));
  fmt::print("jobs         {} simulated of {} records, {} excluded, {} without estimate, {} killed{}\n",
             w.jobs.size(), w.records, w.excluded_total, w.without_estimate, w.killed,
             a.extend_estimates ? fmt::format(", {} estimates extended", w.extended) : "");
  fmt::print("averages     over {} jobs ({} warm-up jobs excluded)\n", m.jobs, m.warmup_excluded);
  fmt::print("offered load {:.4f}{}\n", w.offered_load,
             w.arrival_scale != 1.0 ? fmt::format(" (inter-arrival times x {:.6g})", w.arrival_scale) : "");
  for (const auto& note : w.notes) fmt::print("note         {}\n", note);
  fmt::print("\n{:<26} {:>14} {:>14} {:>14} {:>14}\n", "metric", "mean", "median", "p90", "max");
  auto row = [](const char* name, const sim::Summary& s, double scale, int digits) {
    fmt::print("{:<26} {:>14.{}f} {:>14.{}f} {:>14.{}f} {:>14.{}f}\n", name, s.mean / scale, digits,
               s.median / scale, digits, s.p90 / scale, digits, s.max / scale, digits);
  };
  row("wait (s)", m.wait, 1, 1);
  row("wait (min)", m.wait, 60, 2);
  row("response (s)", m.response, 1, 1);
  row("slowdown", m.slowdown, 1, 2);
  row(fmt::format("bounded slowdown (tau={})", a.bsld_tau).c_str(), m.bounded_slowdown, 1, 2);
  fmt::print("\n{:<26} {:>14.4f}\n", "utilization", m.utilization);
  fmt::print("{:<26} {:>14} s ({:.2f} days)\n", "makespan", m.makespan, static_cast<double>(m.makespan) / 86400.0);
  print_accuracy_text(r.accuracy);
  fmt::print("{:<26} {:>14}\n", "deadline misses", r.deadline_misses);
  if (r.suspensions > 0 || r.kills > 0) {
    fmt::print("{:<26} {:>14}\n", "suspensions", r.suspensions);
    fmt::print("{:<26} {:>14}\n", "killed by the scheduler", r.kills);
  }
  fmt::print("{:<26} {:>14.3f} s{}\n", "simulation wall time", r.wall_time_s, a.check ? " (invariants checked)" : "");
  if (sim.event_cost) print_event_cost_text(*sim.event_cost);
}

void run(const SimulateArgs& a) {
  if (a.list) {
    print_list();
    return;
  }
  if (a.trace.empty()) throw std::invalid_argument("simulate: a TRACE file is required (or --list)");
  if (a.scheduler.empty()) throw std::invalid_argument("simulate: --scheduler is required (see --list)");
  experiments::SimulationSpec spec;
  spec.scheduler = a.scheduler;
  spec.predictor = a.predictor_given ? a.predictor : "";
  spec.correction = a.correction;
  spec.workload.procs = a.procs;
  spec.workload.kill_at_estimate = a.kill_at_estimate;
  spec.workload.extend_estimates = a.extend_estimates;
  spec.workload.load = a.load;
  spec.workload.arrival_scale = a.arrival_scale;
  spec.sim.check = a.check;
  spec.sim.bsld_tau = a.bsld_tau;
  spec.sim.warmup_fraction = a.warmup_fraction;
  spec.sim.seed = a.seed;
  spec.event_cost = a.event_cost;
  // Unknown names and bad parameters fail here, before the log is read.
  const experiments::PreparedSimulation prepared = experiments::prepare_simulation(spec);
  const swf::Log log = swf::read_log(a.trace);
  const experiments::Simulation sim = experiments::run_simulation(prepared, log);
  if (!a.jobs_out.empty()) sim::write_jobs(a.jobs_out, log.header, log.records, sim.workload, sim.result);
  if (a.json) {
    print_json(a, sim);
  } else {
    print_text(a, sim);
  }
}

}  // namespace

void add_simulate_command(CLI::App& app) {
  auto args = std::make_shared<SimulateArgs>();
  CLI::App* cmd = app.add_subcommand("simulate", "simulate a scheduling policy on a log (SWF, plain or gzip)");
  cmd->add_option("TRACE", args->trace, "the log to replay (\"-\" = standard input)");
  cmd->add_option("--scheduler,-s", args->scheduler, "scheduling policy (see --list)");
  auto* predictor = cmd->add_option("--predictor,-p", args->predictor,
                                     "runtime predictor spec NAME[:KEY=VALUE;...] (default: estimate; see --list)");
  predictor->each([args](const std::string&) { args->predictor_given = true; });
  cmd->add_option("--correction", args->correction,
                  "prediction correction when a job outlives its prediction: none (default), tsafrir, double, times10");
  cmd->add_flag("--extend-estimates", args->extend_estimates,
                "raise the estimate of jobs that ran longer than it to their runtime");
  cmd->add_option("--procs", args->procs, "machine size (default: MaxProcs, MaxNodes, largest job)");
  cmd->add_flag("--kill-at-estimate", args->kill_at_estimate, "cut jobs at their user estimate");
  auto* load = cmd->add_option("--load", args->load, "scale inter-arrival times to this offered load");
  auto* scale = cmd->add_option("--arrival-scale", args->arrival_scale, "multiply inter-arrival times by F");
  load->excludes(scale);
  cmd->add_option("--bsld-tau", args->bsld_tau, "bounded-slowdown threshold in seconds (default 10)");
  cmd->add_option("--warmup-fraction", args->warmup_fraction,
                  "leave the first fraction of terminated jobs out of the averages (default 0)");
  cmd->add_option("--seed", args->seed, "random seed (default 0)");
  cmd->add_flag("--json", args->json, "print one JSON document");
  cmd->add_option("--jobs-out", args->jobs_out, "write per-job results (.csv or .swf, optionally .gz)");
  cmd->add_flag("--check", args->check, "verify the simulator's invariants while simulating");
  cmd->add_flag("--event-cost", args->event_cost,
                "time the scheduler at every event and report its cost against the queue length");
  cmd->add_flag("--list,--list-schedulers", args->list, "list schedulers and predictors");
  cmd->callback([args]() { run(*args); });
}

}  // namespace schedlab::cli
