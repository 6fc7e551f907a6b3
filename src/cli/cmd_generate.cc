// schedlab generate <generator>: synthetic workloads written as SWF. Each generator is one subcommand of
// `generate` (add further ones beside profiler-experiment in this file, each with its own options struct).
// profiler-experiment: Gibbons 1997, Tables 6.1/6.2 (model/profiler_experiment.h); locality and scramble:
// Feitelson's model (model/locality_model.h); talby: Talby's user/session model (model/talby_model.h).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/data_files.h"
#include "cli/text_util.h"
#include "cli/read_input.h"
#include "schedlab/base/count_text.h"
#include "schedlab/base/json_text.h"
#include "schedlab/model/locality_model.h"
#include "schedlab/model/profiler_experiment.h"
#include "schedlab/model/talby_model.h"
#include "schedlab/swf/csv.h"
#include "schedlab/swf/reader.h"
#include "schedlab/swf/writer.h"

namespace schedlab::cli {
namespace {

struct ProfilerExperimentCliOptions {
  std::string output, training_out;
  uint64_t seed = 1;
  int64_t jobs = 200;
  int64_t training_runs = 0;  // 0 = not given
  double mean_interarrival = 150;
  bool json = false;
};

void run_profiler_experiment(const ProfilerExperimentCliOptions& opt) {
  model::ProfilerExperimentOptions o;
  o.seed = opt.seed;
  o.jobs = opt.jobs;
  o.mean_interarrival = opt.mean_interarrival;
  if (opt.training_runs < 0)
    throw std::invalid_argument(fmt::format("--training-runs must be >= 1 (got {})", opt.training_runs));
  if (opt.training_runs > 0 && opt.training_out.empty())
    throw std::invalid_argument("--training-runs needs --training-out FILE for the training log");
  // The thesis seeded the profiler with 25 runs of each executable: the default when only the file is named.
  const int64_t training_runs = opt.training_out.empty() ? 0 : (opt.training_runs > 0 ? opt.training_runs : 25);
  if (training_runs > 0 && opt.training_out == opt.output)
    throw std::invalid_argument("--training-out must differ from the experiment's output");

  const std::vector<swf::Record> jobs = model::generate_profiler_experiment(o);
  std::vector<swf::Record> training;
  if (training_runs > 0) training = model::generate_profiler_training(o, training_runs);
  swf::write_swf_or_csv(opt.output, model::profiler_experiment_header(o), jobs);
  if (training_runs > 0)
    swf::write_swf_or_csv(opt.training_out, model::profiler_training_header(o, training_runs), training);

  const model::ProfilerExperimentStats stats = model::profiler_experiment_stats(jobs, o);
  std::FILE* report_to = opt.output == "-" || (training_runs > 0 && opt.training_out == "-") ? stderr : stdout;

  if (opt.json) {
    nlohmann::ordered_json j;
    j["command"] = "generate profiler-experiment";
    j["output"] = opt.output;
    j["seed"] = opt.seed;
    j.update(model::to_json(stats, o, static_cast<int64_t>(jobs.size())));
    if (training_runs > 0)
      j["training"] = {{"output", opt.training_out},
                       {"runs_per_executable", training_runs},
                       {"records", static_cast<int64_t>(training.size())}};
    // With a log on standard output the report goes to standard error, so the SWF stays clean.
    fmt::print(report_to, "{}\n", base::json_text(j, 2));
    return;
  }
  if (opt.output == "-") return;
  std::string out = fmt::format(
      "{}: {} of the profiler experiment (Gibbons 1997, Tables 6.1/6.2), seed {}\n", opt.output,
      counted_grouped(static_cast<int64_t>(jobs.size()), "job"), opt.seed);
  // Every job submitted at 0 (one job) leaves no span to load: "nan%" was printed.
  out += fmt::format("submits 0..{} s (inter-arrival mean {} s); {}\n", group_thousands(stats.last_submit),
                     o.mean_interarrival,
                     std::isfinite(stats.offered_load)
                         ? fmt::format("offered load over that span {:.1f}% of {}", 100 * stats.offered_load,
                                       counted(o.machine_procs, "processor"))
                         : std::string("no offered load (every job submitted at 0: no span)"));
  out += fmt::format("{:<4} {:<7} {:>6} {:>12}\n", "exe", "name", "jobs", "mean t (s)");
  for (const auto& e : stats.executables)
    out += fmt::format("{:<4} {:<7} {:>6} {:>12}\n", e.number, e.name, e.jobs,
                       e.jobs > 0 ? fmt::format("{:.1f}", e.mean_runtime) : "-");
  if (training_runs > 0)
    out += fmt::format("training log {}: {} of each executable, {}\n", output_name(opt.training_out),
                       counted(training_runs, "run"), counted_grouped(static_cast<int64_t>(training.size()), "record"));
  fmt::print(report_to, "{}", out);
}

struct GenerateLocalityOptions {
  std::string from, output;
  double theta = 2.5;
  int64_t jobs = 0;
  int max_repetitions = 1000;
  std::string repeat = "job";
  std::string arrivals = "poisson";
  int64_t think = 0;
  bool cut_tail = false;
  uint64_t seed = 1;
};

void run_generate_locality(const GenerateLocalityOptions& opt) {
  model::LocalityModelOptions o;
  o.theta = opt.theta;
  o.jobs = opt.jobs;
  o.max_repetitions = opt.max_repetitions;
  o.repeat = model::parse_locality_repeat(opt.repeat).value();  // (CLI checked the names)
  o.arrivals = model::parse_locality_arrivals(opt.arrivals).value();
  o.think = opt.think;
  o.cut_tail = opt.cut_tail;
  o.seed = opt.seed;
  model::check_locality_options(o);  // bad options fail before the log is read
  swf::check_output_is_not_input(opt.output, {opt.from});
  const swf::Log log = read_input_log(opt.from);
  model::LocalityModelStats stats;
  const auto jobs = [&] {
    try {
      return model::generate_locality(log.records, o, &stats);
    } catch (const std::invalid_argument& e) {  // (options were checked: the log has nothing to sample, no arrival rate)
      throw std::invalid_argument(fmt::format("{}: {}", opt.from, e.what()));
    }
  }();
  swf::write_swf_or_csv(opt.output, model::locality_header(log.header, opt.from, o, stats), jobs);
  if (opt.output == "-") return;
  fmt::print("{}: {} in {} (the model's mean run length E[R] {:.3f}) from {} of {}{}, theta {}, seed {}\n",
             opt.output, counted_grouped(static_cast<int64_t>(jobs.size()), "job"), counted_grouped(stats.runs, "run"),
             stats.mean_run_length, counted_grouped(stats.pool, "job"), opt.from,
             stats.left_out.empty() ? "" : " (" + model::left_out_text(stats, true) + ")", o.theta, o.seed);
  if (stats.tail_jobs > 0) fmt::print("  {}\n", model::locality_tail_text(stats, o.cut_tail, "--cut-tail", true));
}

struct ScrambleCliOptions {
  std::string from, output;
  uint64_t seed = 1;
};

void run_scramble(const ScrambleCliOptions& opt) {
  swf::check_output_is_not_input(opt.output, {opt.from});
  const swf::Log log = read_input_log(opt.from);
  const auto jobs = model::scramble(log.records, opt.seed);
  swf::write_swf_or_csv(opt.output, model::scramble_header(log.header, log.records, opt.from, opt.seed), jobs);
  if (opt.output != "-") {
    fmt::print("{}: the {} of {} with their attributes permuted over the arrival times, seed {}\n", opt.output,
               base::counted_grouped(static_cast<int64_t>(jobs.size()), "job"), opt.from, opt.seed);
  }
}

struct TalbyCliOptions {
  std::string output, fit, job_model, save_job_model;
  std::optional<int64_t> procs;
  std::optional<double> cpu_work, jobs_per_day, load;
  int64_t weeks = 104;
  uint64_t seed = 1;
  int threads = 0;
  bool json = false;
};

std::string percent(int64_t part, int64_t whole) {
  return whole > 0 ? fmt::format("{:.1f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole)) : "-";
}

void run_talby(const TalbyCliOptions& opt) {
  model::TalbyOptions o;
  o.procs = opt.procs;
  o.cpu_work = opt.cpu_work;
  o.jobs_per_day = opt.jobs_per_day;
  o.load = opt.load;
  o.weeks = opt.weeks;
  o.seed = opt.seed;
  o.threads = opt.threads;
  if (opt.output.empty() && opt.save_job_model.empty())
    throw CLI::RequiredError(
        "--output is required: -o FILE for the generated log (or only --save-job-model FILE to fit and save)",
        CLI::ExitCodes::RequiredError);
  if (!opt.fit.empty() && !opt.job_model.empty())
    throw std::invalid_argument("--fit and --job-model both give the job layer: use one");
  // Bad parameters fail before the fit log is read (fitting and saving alone needs none).
  for (const std::string& out : {opt.output, opt.save_job_model})
    swf::check_output_is_not_input(out, {opt.fit, opt.job_model});
  if (opt.output == "-" && opt.save_job_model == "-")
    throw std::invalid_argument("-o and --save-job-model are both standard output: write one of them to a file");
  // With the log or the job layer on standard output, the report goes to standard error.
  std::FILE* report_to = opt.output == "-" || opt.save_job_model == "-" ? stderr : stdout;
  std::optional<model::TalbyParameters> resolved;
  if (!opt.output.empty()) resolved = model::resolve_talby_parameters(o);
  model::TalbyJobModel jm;
  if (!opt.job_model.empty()) {
    jm = model::read_talby_job_model(opt.job_model);
  } else {
    // The bundled log is named without its install path, so that the output is the same wherever schedlab is.
    const std::string fit = opt.fit.empty() ? data_file("KTH-SP2-1996-2.swf.gz") : opt.fit;
    jm = model::fit_talby_job_layer(read_input_log(fit), opt.fit.empty() ? "KTH-SP2-1996-2.swf.gz (bundled)" : fit);
  }
  if (!opt.save_job_model.empty()) model::write_talby_job_model(opt.save_job_model, jm);
  if (opt.output.empty()) {
    fmt::print(report_to, "{}: the job layer fitted on {} ({}, {})\n", output_name(opt.save_job_model), jm.source,
               counted_grouped(jm.sessions, "session"), counted_grouped(jm.jobs, "job"));
    return;
  }
  const model::TalbyParameters& p = *resolved;
  for (const std::string& w : model::talby_guideline_warnings(o, p))
    fmt::print(stderr, "schedlab: warning: {}\n", w);
  model::TalbyStats st;
  const auto jobs = model::generate_talby(o, jm, &st);
  swf::write_swf_or_csv(opt.output, model::talby_header(o, p, jm, st), jobs);
  for (const std::string& w : model::talby_outcome_warnings(p, st)) fmt::print(stderr, "schedlab: warning: {}\n", w);
  if (opt.json) {
    nlohmann::ordered_json j;
    j["command"] = "generate talby";
    j["output"] = opt.output;
    j.update(model::to_json(o, p, jm, st));
    fmt::print(report_to, "{}\n", base::json_text(j, 2));
    return;
  }
  if (opt.output == "-") return;
  std::string out = fmt::format("{}: {} over {} from Talby's user/session model, seed {}\n", opt.output,
                                counted_grouped(st.jobs, "job"), counted(o.weeks, "week"), o.seed);
  // Whole seconds, but two digits below 10 s (Table 28's work for a very large machine printed as "0 s") and
  // an exponent past a million (a --cpu-work of 1e300 printed 301 digits).
  const std::string cpu_work = p.cpu_work < 10    ? fmt::format("{:.2g}", p.cpu_work)
                               : p.cpu_work < 1e7 ? fmt::format("{:.0f}", p.cpu_work)
                                                  : fmt::format("{:.3g}", p.cpu_work);
  out += fmt::format("meta-model: procs {} ({}), cpu work {} s ({}), {:.1f} jobs/day ({}), load {:.3f} ({})\n",
                     p.procs, p.procs_from, cpu_work, p.cpu_work_from, p.jobs_per_day, p.jobs_per_day_from, p.load,
                     p.load_from);
  const int64_t users = st.users_at_start + st.new_users;
  out += fmt::format("users: {} at start + {} new;", st.users_at_start, st.new_users);
  for (int c = 0; c < analysis::kUserClasses; ++c)
    out += fmt::format(" {} {} ({}, Table 30 {:.1f}%)", analysis::user_class_name(static_cast<analysis::UserClass>(c)),
                       st.users_by_class[static_cast<size_t>(c)], percent(st.users_by_class[static_cast<size_t>(c)], users),
                       100 * st.user_class_shares[static_cast<size_t>(c)]);
  out += fmt::format("\nsessions: {};", group_thousands(st.sessions));
  for (int c = 0; c < analysis::kSessionClasses; ++c)
    out += fmt::format(" {} {}", analysis::session_class_name(static_cast<analysis::SessionClass>(c)),
                       percent(st.sessions_by_class[static_cast<size_t>(c)], st.sessions));
  if (st.sessions_dropped > 0)  // grouped as the sessions before it ("25,787 ...; 2,385 dropped")
    out += fmt::format("; {} dropped (no room in their week)", group_thousands(st.sessions_dropped));
  out += fmt::format("\njobs: {:.1f} per day (meta-model {:.1f}), offered load {:.3f} (meta-model {:.3f}), runtime "
                     "median {:.0f} s, size median {:.0f}\n",
                     st.jobs_per_day, p.jobs_per_day, st.offered_load, p.load, st.runtime_median, st.size_median);
  out += fmt::format("job layer: fitted on {} ({} processors, {} sessions){}\n", jm.source, jm.procs,
                     group_thousands(jm.sessions), opt.job_model.empty() ? "" : fmt::format(", read from {}", opt.job_model));
  fmt::print(report_to, "{}", out);
}

}  // namespace

void add_generate_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("generate", "Generate a synthetic workload as an SWF log");
  cmd->require_subcommand(1);

  auto pe = std::make_shared<ProfilerExperimentCliOptions>();
  CLI::App* exp = cmd->add_subcommand(
      "profiler-experiment",
      "The synthetic workload of Gibbons's profiler experiment (Tables 6.1/6.2): 13 executables, work W from "
      "Erlang/exponential/hyperexponential laws, t = W (D + (1-D)/p), p uniform 2..16, exponential inter-arrival "
      "times, a 16-processor machine; field 9 = the actual run time");
  exp->add_option("--seed", pe->seed, "random seed")->capture_default_str();
  exp->add_option("-o,--output", pe->output, kLogOutputHelp)->required();
  exp->add_option("--jobs", pe->jobs, "number of jobs")->capture_default_str();
  exp->add_option("--mean-interarrival", pe->mean_interarrival, "mean of the exponential inter-arrival time, s")
      ->capture_default_str();
  exp->add_option("--training-runs", pe->training_runs,
                  "runs of each executable in the training log (default 25 when --training-out is given)");
  exp->add_option("--training-out", pe->training_out,
                  "also write the profiler's training history (runs of every executable, back to back) to this SWF");
  exp->add_flag("--json", pe->json, "print a JSON report (on standard error when the log goes to standard output)");
  exp->callback([pe] { run_profiler_experiment(*pe); });

  auto lo = std::make_shared<GenerateLocalityOptions>();
  CLI::App* loc = cmd->add_subcommand(
      "locality",
      "Feitelson's model with locality of sampling: jobs drawn from a log, each repeated R times with "
      "P(R = r) ~ r^-theta, the repeats staggered by their runtime");
  loc->add_option("--from", lo->from, "the log whose jobs form the global distribution")->required();
  loc->add_option("-o,--output", lo->output, kLogOutputHelp)->required();
  loc->add_option("--theta", lo->theta, "run-length exponent, > 1 (2.5-3 fit real logs)")->capture_default_str();
  loc->add_option("--jobs", lo->jobs, "jobs to generate (default: as many as the log has)");
  loc->add_option("--max-repetitions", lo->max_repetitions, "longest run")->capture_default_str();
  loc->add_option("--repeat", lo->repeat, "what a run repeats: the whole job, its runtime (and estimate), or its size")
      ->check(CLI::IsMember(model::locality_repeat_names()))
      ->capture_default_str();
  loc->add_option("--arrivals", lo->arrivals,
                  "first jobs of runs: a Poisson process at the log's job rate / mean run length, or the log's own "
                  "submit times")
      ->check(CLI::IsMember(model::locality_arrivals_names()))
      ->capture_default_str();
  loc->add_option("--think", lo->think, "seconds between a repeat's end and the next repeat")->capture_default_str();
  loc->add_flag("--cut-tail", lo->cut_tail,
                "drop the repeats that arrive after the last run has started (a log's end cuts its runs too): "
                "whole-log jobs per day and load then come near the log's, with fewer jobs than --jobs");
  loc->add_option("--seed", lo->seed, "random seed")->capture_default_str();
  loc->callback([lo] { run_generate_locality(*lo); });

  auto sc = std::make_shared<ScrambleCliOptions>();
  CLI::App* scr = cmd->add_subcommand(
      "scramble", "A log's jobs with every field but the submit time permuted over the submit times (no locality)");
  scr->add_option("--from", sc->from, "the log to scramble")->required();
  scr->add_option("-o,--output", sc->output, kLogOutputHelp)->required();
  scr->add_option("--seed", sc->seed, "random seed")->capture_default_str();
  scr->callback([sc] { run_scramble(*sc); });

  auto ta = std::make_shared<TalbyCliOptions>();
  CLI::App* tal = cmd->add_subcommand(
      "talby",
      "Talby's user/session model (thesis §§10-13): users by class, weekly sessions by class with daily and weekly "
      "cycles, jobs per session class fitted on a log; inputs --procs, or --cpu-work with --jobs-per-day or --load");
  tal->add_option("-o,--output", ta->output, kLogOutputHelp);
  tal->add_option("--procs", ta->procs, "machine size MS (Table 28 gives the other inputs from it)");
  tal->add_option("--cpu-work", ta->cpu_work, "median CPU work Cm, seconds (Table 24)");
  tal->add_option("--jobs-per-day", ta->jobs_per_day, "jobs per day JD (Table 24)");
  tal->add_option("--load", ta->load, "CPU load CL as a fraction, e.g. 0.6 (Table 26)");
  tal->add_option("--weeks", ta->weeks, "weeks to generate (guideline: at most 104)")->capture_default_str();
  tal->add_option("--seed", ta->seed, "random seed")->capture_default_str();
  tal->add_option("--threads", ta->threads, "threads for the users' sessions (0 = all cores; same output)")
      ->capture_default_str();
  tal->add_option("--fit", ta->fit, "the log the job layer is fitted on (default: the bundled KTH-SP2-1996-2 log)");
  tal->add_option("--job-model", ta->job_model, "read the job layer from this file (written by --save-job-model)");
  tal->add_option("--save-job-model", ta->save_job_model, "write the fitted job layer to this JSON file");
  tal->add_flag("--json", ta->json, "print a JSON report (on standard error when the log goes to standard output)");
  tal->callback([ta] { run_talby(*ta); });
}

}  // namespace schedlab::cli
