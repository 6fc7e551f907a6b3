// Parameter sweeps: many simulations from one spec, every log read once and shared read-only, runs on a pool of
// threads, one result row per run in a fixed order (docs/sweeps.md). `schedlab sweep`, the Python module and
// Slurm job arrays (one shard per array task) call this.
//
// Spec (TOML; parse_sweep_spec): lists whose cartesian product is the run set, each key named as the CLI's option
// (a single value stands for a one-element list):
//   logs (required), schedulers ["easy"], predictors [""] (= the default, estimate), corrections [""],
//   estimate_models ["real"] (a model of `schedlab estimates generate` applied to the log first: NAME or
//   NAME:k=v,k=v; "real" keeps the log's estimates), loads or arrival_scales [1.0] (not both), procs [from the
//   log], kill_at_estimate [false], extend_estimates [false], feedback [false] (simulate --feedback), warmup_fraction
//   [0.0], bsld_tau [10], seeds [0] (the simulation's seed, which also seeds the estimate model).
// [[exclude]] tables drop the runs that match every key they give (singular names: log, scheduler, predictor,
// correction, estimate_model, load, arrival_scale, procs, kill_at_estimate, extend_estimates, feedback,
// warmup_fraction, bsld_tau, seed); [[include]] tables add one run each after the product (keys not given: each
// list's first value). Unknown keys, wrong types, an unknown scheduler / predictor / correction / estimate model, a log that
// cannot be read: SweepError naming the spec file, the line and the key, before anything runs.
// Order: logs outermost, then the keys in the order above, seeds innermost; then the includes. Run i has index i.
//
// Rows (sweep_columns): run, the parameters, status ("ok" or the error of that run, e.g. an estimate model that
// cannot assign), the metrics of `simulate --json` flattened with "_" (wait_mean, bounded_slowdown_p90,
// utilization, accuracy_relative_accuracy_mean, ...), and wall_seconds. Rows come in run order whatever the
// number of threads; a row is written with one write(2) call, so a killed sweep leaves whole rows.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "schedlab/predict/predictor.h"
#include "schedlab/sim/scheduler.h"

namespace schedlab::experiments {

class SweepError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A run's parameters with some left open: an [[exclude]] or [[include]] table.
struct SweepPattern {
  int64_t line = 0;
  std::optional<std::string> log, scheduler, predictor, correction, estimate_model;
  std::optional<double> load, arrival_scale;
  std::optional<int64_t> procs;
  std::optional<bool> kill_at_estimate, extend_estimates, feedback;
  std::optional<double> warmup_fraction;
  std::optional<int64_t> bsld_tau;
  std::optional<uint64_t> seed;
};

struct SweepSpec {
  std::string name;  // the spec file (messages)
  // Relative logs are opened from here: the spec file's directory ("" = the working directory). A run's `log` is
  // the path as the spec writes it, so that its rows, its resume check and a Slurm array's digest do not depend on
  // how the spec's own path was spelt (`sweep.toml` or `/abs/dir/sweep.toml`), and a script finds its logs in the
  // rows by the names it wrote.
  std::string dir;
  std::vector<std::string> logs, schedulers{"easy"}, predictors{""}, corrections{""}, estimate_models{"real"};
  std::vector<double> loads, arrival_scales{1.0};
  std::vector<std::optional<int64_t>> procs{std::nullopt};
  std::vector<bool> kill_at_estimate{false}, extend_estimates{false}, feedback{false};
  std::vector<double> warmup_fraction{0.0};
  std::vector<int64_t> bsld_tau{10};
  std::vector<uint64_t> seeds{0};
  std::vector<SweepPattern> excludes, includes;
  std::vector<std::pair<std::string, int64_t>> lines;  // key -> its line in the spec (messages)
  // Schedulers and predictors of the caller's own (written in Python: the module's sweep), each under the name
  // `schedulers` / `predictors` give it: a run naming one runs a clone of it (SimulationSpec::scheduler_object,
  // predictor_object), its rows naming it by that name. Never read from a spec file. A name that is also a
  // built-in scheduler, preset or predictor is an error (two policies would share a row's name).
  std::map<std::string, std::shared_ptr<const sim::Scheduler>> scheduler_objects = {};
  std::map<std::string, std::shared_ptr<const predict::Predictor>> predictor_objects = {};
};

struct SweepRun {
  size_t index = 0;
  std::string log, scheduler, predictor, correction, estimate_model = "real";
  std::optional<double> load;
  double arrival_scale = 1.0;
  std::optional<int64_t> procs;
  bool kill_at_estimate = false, extend_estimates = false, feedback = false;
  double warmup_fraction = 0.0;
  int64_t bsld_tau = 10;
  uint64_t seed = 0;
};

// `text` is the TOML; `name` the file (messages). Throws SweepError.
SweepSpec parse_sweep_spec(const std::string& text, const std::string& name);
SweepSpec read_sweep_spec(const std::string& path);  // dir = the spec's directory

// The file a run's log names: a relative `log` joined to spec.dir.
std::string sweep_log_path(const SweepSpec& spec, const std::string& log);

// The run set (product minus excludes, plus includes), in order. Validates every scheduler, predictor,
// correction and estimate model, and refuses an empty run set and a product of more than kMaxSweepRuns runs
// (SweepError, naming the lists' sizes: four lists of a thousand values were a trillion runs that filled the
// memory without a word); does not read the logs.
inline constexpr int64_t kMaxSweepRuns = 10'000'000;
std::vector<SweepRun> expand_sweep(const SweepSpec& spec);

// A warning when the runs differ in their seeds but none draws a random number (every estimate model
// deterministic, no scheduler or predictor of the caller's own): each seed then repeats the same results. "" when
// the seeds matter or there is one. run_sweep gives it to on_warning.
std::string sweep_seeds_warning(const SweepSpec& spec, const std::vector<SweepRun>& runs);

// The output's columns, in order.
const std::vector<std::string>& sweep_columns();

// One result: the values of sweep_columns() (null when a metric does not apply: a failed run, no adaptive
// scheduler).
struct SweepRow {
  size_t index = 0;
  std::vector<nlohmann::json> values;  // one per column: number, string, bool or null
  // What the run's result says about how it was asked for (experiments::simulation_warnings), and the predictor
  // it is about; not a column.
  std::vector<std::string> warnings;
  std::string warned_predictor;
};

struct SweepOptions {
  int threads = 0;                  // 0 = all cores
  std::set<size_t> skip;            // run indices already done (resume)
  int shard = 0, shards = 1;        // run i belongs to shard i % shards
  std::function<void(const SweepRow&)> on_row;              // called in run order, from one thread at a time
  std::function<void(size_t done, size_t total)> progress;  // after each run (any thread, serialised)
  const std::atomic<bool>* stop = nullptr;                  // set: no new run starts; finished rows are written
  // Each log's header warnings (trace::header_warnings: a value that did not parse, an unknown time zone), called
  // from the calling thread once the logs are read, before the first run; and a run's warnings (a predictor that
  // left jobs overdue), the first run's of each predictor only, from one thread at a time.
  std::function<void(const std::string&)> on_warning;
};

struct SweepSummary {
  size_t total = 0, skipped = 0, run = 0, failed = 0;
  bool stopped = false;
  double seconds = 0;
};

// Reads every log once (SweepError naming a log that cannot be read), then runs the runs of this shard that are
// not skipped.
SweepSummary run_sweep(const SweepSpec& spec, const std::vector<SweepRun>& runs, const SweepOptions& options);

// CSV text of a row / of the header line (with the line end).
std::string sweep_csv_header();
std::string sweep_csv_line(const SweepRow& row);
// One JSON object per line: the columns as keys, numbers as numbers, empty cells as null.
std::string sweep_jsonl_line(const SweepRow& row);

// The complete rows of an existing output (CSV or JSON lines, by `jsonl`), after checking its header matches:
// each row's line, run index, parameter cells (as sweep_run_parameters writes them) and text. A partial last line
// (a write cut by a crash) is not a row; `cut_partial_line` also cuts it off the file. Throws SweepError naming
// the file and line when the file is not a sweep output of these columns, names a run outside 0..total_runs-1,
// or names a run twice.
struct SweepOutputRow {
  int64_t line = 0;
  size_t run = 0;
  std::string parameters, text;
};
std::vector<SweepOutputRow> read_sweep_output(const std::string& path, bool jsonl, size_t total_runs,
                                              bool cut_partial_line);
// The same from an output's text (`path` names it in messages).
std::vector<SweepOutputRow> parse_sweep_output(const std::string& text, const std::string& path, bool jsonl,
                                               size_t total_runs);

// An output written before some of today's columns existed (`feedback` came with SWF feedback; every run before
// it replayed the log open: false), in today's columns: each row given the value its run had. The text itself when
// it has today's columns; a partial last line is kept as it is. CSV or JSON lines by `jsonl`. Throws SweepError
// naming `name` and the line when the CSV header is not a sweep's of today or of before, or a row has not the
// header's number of cells (a JSON line is left to read_sweep_output to judge).
std::string upgraded_sweep_output(const std::string& text, bool jsonl, const std::string& name);

// A run's parameter cells (run, log, ..., seed) as one CSV text: what identifies the run in an output.
std::string sweep_run_parameters(const SweepRun& run);

// The run indices already in an output (read_sweep_output, the partial last line cut off), each row checked
// against the spec's run of that index: a row whose parameters differ (the spec changed since the output was
// written) is a SweepError naming the file, the line and both runs.
std::set<size_t> sweep_done_runs(const std::string& path, bool jsonl, const std::vector<SweepRun>& runs);

// A digest of the run set (FNV-1a of every run's parameters; 16 hex digits), the same on every machine: a Slurm
// array records it so that a task whose spec changed since refuses to run.
std::string sweep_runs_digest(const std::vector<SweepRun>& runs);
// The same digest from the runs' parameter cells in run order (read_sweep_output's `parameters`).
std::string sweep_parameters_digest(const std::vector<std::string>& parameters);
// Whether `digest` is the run set's as today's schedlab writes it or as the one before the later columns (see
// upgraded_sweep_output) wrote it: a Slurm array written by an earlier schedlab is still run and collected by
// today's, which it refused as "not the runs the array was written for".
bool sweep_runs_digest_matches(const std::vector<SweepRun>& runs, const std::string& digest);
bool sweep_parameters_digest_matches(const std::vector<std::string>& parameters, const std::string& digest);

// run_sweep into a file (CSV with its header, or JSON lines), resuming it: an output of an earlier schedlab is first
// rewritten in today's columns (upgraded_sweep_output; written beside it and renamed over it, with a warning), the
// runs already there are skipped (sweep_done_runs), each new row is appended with one write(2), then passed to
// options.on_row if set. Path "-" is standard output: the header and every row of the shard, nothing resumed or
// locked.
SweepSummary run_sweep_to_file(const SweepSpec& spec, const std::vector<SweepRun>& runs, const std::string& path,
                               bool jsonl, SweepOptions options);

}  // namespace schedlab::experiments
