// schedlab sweep SPEC.toml -o OUT: many simulations from one spec (experiments/sweep.h), on local threads, as one
// shard of a Slurm job array (--shard i/K), or written as a Slurm array script (--slurm DIR [--submit]);
// schedlab sweep collect DIR -o OUT merges the shards of such an array.
#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>

#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/text_util.h"
#include "schedlab/experiments/sweep.h"
#include "schedlab/experiments/sweep_array.h"

namespace schedlab::cli {
namespace {

std::atomic<bool> g_stop{false};
extern "C" void on_signal(int) { g_stop = true; }

struct SweepCliOptions {
  std::string spec, output, format = "csv", shard, runs_digest, slurm_dir, partition, time;
  int threads = 0, array_size = 0, cpus_per_task = 1;
  bool submit = false;
};

std::pair<int, int> parse_shard(const std::string& text) {
  // Whole numbers only (std::stoi took "1x/4" as 1/4).
  const auto slash = text.find('/');
  if (slash != std::string::npos) {
    try {
      const int64_t i = parse_int_option("--shard", std::string_view(text).substr(0, slash), 0, INT32_MAX);
      const int64_t k = parse_int_option("--shard", std::string_view(text).substr(slash + 1), 1, INT32_MAX);
      if (i < k) return {static_cast<int>(i), static_cast<int>(k)};
    } catch (const std::invalid_argument&) {
    }
  }
  throw std::invalid_argument(fmt::format("--shard {}: expected i/K with 0 <= i < K (e.g. 3/10)", text));
}

std::string self_path() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("schedlab") : exe.string();
}

void write_slurm(const SweepCliOptions& opt, const std::vector<experiments::SweepRun>& runs) {
  experiments::SweepArrayOptions ao;
  ao.dir = opt.slurm_dir;
  ao.spec_path = opt.spec;
  ao.executable = self_path();
  ao.jsonl = opt.format == "jsonl";
  ao.array_size = opt.array_size;
  ao.cpus_per_task = opt.cpus_per_task;
  ao.partition = opt.partition;
  ao.time = opt.time;
  const experiments::SweepArray a = experiments::write_sweep_array(ao, runs);
  fmt::print("{}: {} in a {}-task array (shard-i.{} per task)\n", a.script,
             counted(static_cast<int64_t>(a.manifest.runs), "run"), a.manifest.shards, opt.format);
  if (!opt.submit) {
    fmt::print("submit with: sbatch {}\n", a.script);
    return;
  }
  fmt::print("submitted: job {}\n", experiments::submit_sweep_array(a.script));
}

void run_sweep_command(const SweepCliOptions& opt) {
  if (opt.format != "csv" && opt.format != "jsonl")
    throw std::invalid_argument(fmt::format("--format {}: csv or jsonl", opt.format));
  const experiments::SweepSpec spec = experiments::read_sweep_spec(opt.spec);
  const std::vector<experiments::SweepRun> runs = experiments::expand_sweep(spec);
  if (!opt.slurm_dir.empty()) {
    // Said before the array is submitted (its tasks say it again in their logs).
    if (std::string w = experiments::sweep_seeds_warning(spec, runs); !w.empty())
      fmt::print(stderr, "schedlab: warning: {}\n", w);
    write_slurm(opt, runs);
    return;
  }
  if (!opt.runs_digest.empty()) experiments::check_sweep_runs_digest(spec, runs, opt.runs_digest);
  if (opt.output.empty()) 
    throw CLI::RequiredError("--output is required: -o FILE for the results (or --slurm DIR)",
                             CLI::ExitCodes::RequiredError);
  experiments::SweepOptions so;
  so.threads = opt.threads;
  if (!opt.shard.empty()) std::tie(so.shard, so.shards) = parse_shard(opt.shard);
  so.on_warning = [](const std::string& w) { fmt::print(stderr, "schedlab: warning: {}\n", w); };
  Progress progress("sweep", "runs", 0, true);
  so.progress = [&](size_t done, size_t total) { progress.update(done, total); };
  g_stop = false;
  so.stop = &g_stop;
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  const experiments::SweepSummary sum =
      experiments::run_sweep_to_file(spec, runs, opt.output, opt.format == "jsonl", so);
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  progress.finish();
  if (sum.stopped) {
    if (opt.output == "-")
      fmt::print(stderr, "sweep: stopped after {} (standard output has their rows)\n",
                 counted(static_cast<int64_t>(sum.run), "run"));
    else
      fmt::print(stderr, "sweep: stopped after {}; {} holds whole rows: run the same command to resume\n",
                 counted(static_cast<int64_t>(sum.run + sum.skipped), "run"), opt.output);
    std::fflush(stderr);
    std::_Exit(130);
  }
  const size_t mine = sum.run + sum.skipped;
  // With the rows on standard output, the summary goes beside the progress.
  fmt::print(opt.output == "-" ? stderr : stdout,
             "{}: {}{}: {} run now, {} already there; {} failed; wall time {:.1f} s\n",
             output_name(opt.output), counted(static_cast<int64_t>(mine), "run"),
             so.shards > 1 ? fmt::format(" of shard {}/{} ({} in all)", so.shard, so.shards, sum.total) : "", sum.run,
             sum.skipped, sum.failed, sum.seconds);
}

struct CollectCliOptions {
  std::string dir, output;
};

void run_collect(const CollectCliOptions& opt) {
  const experiments::SweepCollectSummary sum = experiments::collect_sweep_array(opt.dir, opt.output);
  fmt::print(opt.output == "-" ? stderr : stdout, "{}: {} from {}\n", output_name(opt.output),
             counted(static_cast<int64_t>(sum.runs), "run"), counted(static_cast<int64_t>(sum.shards), "shard"));
}

}  // namespace

void add_sweep_command(CLI::App& app) {
  auto opt = std::make_shared<SweepCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "sweep", "Many simulations from one TOML spec, on threads or as a Slurm job array");
  cmd->footer("The spec's product of logs x schedulers x predictors x loads x estimate models x seeds ...: every log "
              "read once, runs on threads, one row per run in a fixed order, resumable; or a Slurm job array "
              "(--slurm DIR) whose shards `sweep collect` merges. Format: docs/sweeps.md");
  cmd->add_option("SPEC", opt->spec, "the sweep spec (TOML)");
  cmd->add_option("-o,--output", opt->output,
                  "results file (re-running with it skips the runs already there; - = standard output, no resuming)");
  cmd->add_option("--format", opt->format, "csv or jsonl")->capture_default_str();
  cmd->add_option("--threads", opt->threads, "runs in parallel (0 = all cores; the rows do not depend on it)")
      ->capture_default_str();
  cmd->add_option("--shard", opt->shard, "run only shard i of K (runs whose index % K == i), as a Slurm array task");
  cmd->add_option("--runs-digest", opt->runs_digest,
                  "refuse to run unless the spec gives this run set (the array script passes the manifest's digest)");
  cmd->add_option("--slurm", opt->slurm_dir, "write DIR/sweep.sbatch, a Slurm job array running the shards");
  cmd->add_option("--array-size", opt->array_size, "tasks in the array (default: the runs, at most 100)");
  cmd->add_option("--partition", opt->partition, "Slurm partition of the array");
  cmd->add_option("--time", opt->time, "Slurm time limit of each task (e.g. 1:00:00)");
  cmd->add_option("--cpus-per-task", opt->cpus_per_task, "CPUs (and threads) of each task")->capture_default_str();
  cmd->add_flag("--submit", opt->submit, "with --slurm: submit the array with sbatch and print its job id");
  cmd->callback([opt, cmd] {
    if (cmd->got_subcommand("collect")) return;
    if (opt->spec.empty())  // a missing argument: a usage error (exit 2)
      throw CLI::RequiredError("SPEC is required: schedlab sweep SPEC.toml -o FILE", CLI::ExitCodes::RequiredError);
    run_sweep_command(*opt);
  });

  auto co = std::make_shared<CollectCliOptions>();
  CLI::App* col = cmd->add_subcommand("collect", "Merge the shards of a `sweep --slurm DIR` array into one file (the "
                                                 "same rows as a local run); lists missing or incomplete shards");
  col->add_option("DIR", co->dir, "the --slurm directory")->required();
  col->add_option("-o,--output", co->output, "merged results (- = standard output)")->required();
  col->callback([co] { run_collect(*co); });
}

}  // namespace schedlab::cli
