// Parameter sweeps (experiments/sweep.h): the spec, the run set, the rows and resuming.
#include "schedlab/experiments/sweep.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "schedlab/base/csv_field.h"
#include "schedlab/experiments/report.h"
#include "schedlab/experiments/simulation.h"
#include "schedlab/sim/scheduler_registry.h"
#include "earlier_sweep_output.h"
#include "fixed_predictor.h"
#include "schedlab/swf/reader.h"

#include "test_util.h"

namespace schedlab::experiments {
namespace {
using testing::bundled_kth;

std::string sweep_error_of(const std::string& toml) {
  try {
    expand_sweep(parse_sweep_spec(toml, "s.toml"));
  } catch (const SweepError& e) {
    return e.what();
  }
  return "";
}

TEST(SweepSpec, ListsScalarsDefaultsAndOrder) {
  const SweepSpec s = parse_sweep_spec(R"(
logs = "a.swf"
schedulers = ["easy", "fcfs"]
seeds = [1, 2, 3]
loads = 0.7
kill_at_estimate = [false, true]
)",
                                       "s.toml");
  const auto runs = expand_sweep(s);
  ASSERT_EQ(runs.size(), 12u);  // 2 schedulers x 2 kill x 3 seeds
  EXPECT_EQ(runs[0].scheduler, "easy");
  EXPECT_EQ(runs[0].seed, 1u);
  EXPECT_EQ(runs[1].seed, 2u);  // seeds innermost
  EXPECT_FALSE(runs[2].kill_at_estimate);
  EXPECT_TRUE(runs[3].kill_at_estimate);
  EXPECT_EQ(runs[6].scheduler, "fcfs");  // schedulers outside kill_at_estimate
  EXPECT_EQ(runs[11].index, 11u);
  EXPECT_DOUBLE_EQ(*runs[0].load, 0.7);
  EXPECT_EQ(runs[0].predictor, "");  // the default predictor
  EXPECT_EQ(runs[0].estimate_model, "real");
  EXPECT_FALSE(runs[0].procs.has_value());
}

TEST(SweepSpec, ASpecExcludingEveryRunIsAnError) {
  EXPECT_EQ(sweep_error_of("logs = 'a.swf'\nschedulers = ['easy']\n[[exclude]]\nscheduler = 'easy'\n"),
            "s.toml: the spec has no run (its [[exclude]] tables exclude every run of the product)");
  // An include alone still makes a run.
  EXPECT_EQ(sweep_error_of("logs = 'a.swf'\nschedulers = ['easy']\n[[exclude]]\nscheduler = 'easy'\n[[include]]\n"
                           "scheduler = 'fcfs'\n"),
            "");
}

TEST(SweepSpec, ExcludeAndInclude) {
  const auto runs = expand_sweep(parse_sweep_spec(R"(
logs = ["a.swf", "b.swf"]
schedulers = ["easy", "fcfs", "conservative"]
[[exclude]]
scheduler = "fcfs"
[[exclude]]
log = "b.swf"
scheduler = "conservative"
[[include]]
scheduler = "easy-sjbf"
seed = 9
)",
                                                  "s.toml"));
  ASSERT_EQ(runs.size(), 4u);  // a: easy, conservative; b: easy; + the include
  EXPECT_EQ(runs[0].scheduler, "easy");
  EXPECT_EQ(runs[1].scheduler, "conservative");
  EXPECT_EQ(runs[2].log, "b.swf");
  EXPECT_EQ(runs[3].scheduler, "easy-sjbf");
  EXPECT_EQ(runs[3].log, "a.swf");  // the first log
  EXPECT_EQ(runs[3].seed, 9u);
}

TEST(SweepSpec, AdaptiveSpecsWithOrWithoutTheirCliBrackets) {
  const auto runs = expand_sweep(parse_sweep_spec(
      "logs = 'a'\nschedulers = ['[pbas:candidates=easy,conservative;interval=1d]', 'wbas:maf=100']\n", "s.toml"));
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].scheduler, "pbas:candidates=easy,conservative;interval=1d");
  EXPECT_EQ(runs[1].scheduler, "wbas:maf=100");
}

TEST(SweepSpec, BadSpecsNameTheKeyAndLine) {
  EXPECT_EQ(sweep_error_of("logs = 'a'\nschedulerz = ['easy']\n").rfind("s.toml:2: schedulerz: unknown key", 0), 0u);
  const std::string seed = sweep_error_of("logs = 'a'\nseed = [1, 2]\n");  // the singular of a list key
  EXPECT_NE(seed.find("; did you mean 'seeds'?"), std::string::npos) << seed;
  const std::string pattern = sweep_error_of("logs = 'a'\n[[exclude]]\nseeds = 1\n");  // and the plural in a pattern
  EXPECT_NE(pattern.find("; did you mean 'seed'?"), std::string::npos) << pattern;
  EXPECT_EQ(sweep_error_of("logs = 'a'\nseeds = ['one']\n").rfind("s.toml:2: seeds: must be an integer", 0), 0u);
  EXPECT_EQ(sweep_error_of("logs = 'a'\nloads = [0.5, -1]\n").rfind("s.toml:2: loads: must be > 0", 0), 0u);
  EXPECT_EQ(sweep_error_of("logs = 'a'\nschedulers = []\n").rfind("s.toml:2: schedulers: is an empty list", 0), 0u);
  EXPECT_EQ(sweep_error_of("schedulers = ['easy']\n").rfind("s.toml: logs: missing", 0), 0u);
  EXPECT_EQ(sweep_error_of("logs = 'a'\nloads = 0.5\narrival_scales = 2\n").rfind("s.toml:2: loads: give loads or", 0),
            0u);
  EXPECT_EQ(
      sweep_error_of("logs = 'a'\n\nschedulers = ['easy', 'nosuch']\n").rfind("s.toml:3: schedulers: 'nosuch'", 0), 0u);
  EXPECT_EQ(sweep_error_of("logs = 'a'\npredictors = ['oracle']\n").rfind("s.toml:2: predictors: 'oracle'", 0), 0u);
  EXPECT_EQ(
      sweep_error_of("logs = 'a'\nestimate_models = ['tsafri']\n").rfind("s.toml:2: estimate_models: unknown model", 0),
      0u);
  // A model's parameters are checked with the spec, not run by run (each run's row said "error: ...").
  EXPECT_EQ(sweep_error_of("logs = 'a'\nestimate_models = ['tsafrir:colour=1']\n"),
            "s.toml:2: estimate_models: 'tsafrir:colour=1': tsafrir model: unknown parameter \"colour\" (known: tmax, "
            "tmax_share, bins, top, coefficients, k, info)");
  EXPECT_EQ(sweep_error_of("logs = 'a'\nestimate_models = ['f:f=-1']\n").rfind(
                "s.toml:2: estimate_models: 'f:f=-1': f model: parameter f must be a number >= 0", 0),
            0u);
  EXPECT_EQ(
      sweep_error_of("logs = 'a'\n[[exclude]]\nschedulr = 'x'\n").rfind("s.toml:3: exclude.schedulr: unknown key", 0),
      0u);
  // A value twice in a list, or an include of a run the spec has, would run the same run twice.
  EXPECT_EQ(sweep_error_of("logs = 'a'\nseeds = [1, 2, 1]\n"), "s.toml:2: seeds: 1 is given twice (items 1 and 3)");
  EXPECT_EQ(sweep_error_of("logs = 'a'\nschedulers = ['easy', 'fcfs', 'easy']\n"),
            "s.toml:2: schedulers: 'easy' is given twice (items 1 and 3)");
  EXPECT_EQ(sweep_error_of("logs = 'a'\nschedulers = ['easy', 'fcfs']\n[[include]]\nscheduler = 'fcfs'\n"),
            "s.toml:3: include: this [[include]] is a run the spec already has (the product's or an earlier "
            "include's)");
  // An exclude that matches nothing (a misspelt value) would leave the runs it meant to drop in the sweep.
  EXPECT_EQ(sweep_error_of("logs = 'a'\nschedulers = ['easy', 'fcfs']\n[[exclude]]\nscheduler = 'eazy'\n"),
            "s.toml:3: exclude: this [[exclude]] matches no run of the spec (a value that is not in the spec's lists, "
            "or misspelt?)");
  // Too many runs: refused by the lists' sizes before any run is made (four lists of a thousand values were a
  // trillion runs that filled the memory without a word); a repeat deep in a long list is still found.
  const auto list = [](int n, int repeat_at) {
    std::string l = "[";
    for (int i = 1; i <= n; ++i) l += std::to_string(i == repeat_at ? 1 : i) + (i < n ? "," : "]");
    return l;
  };
  EXPECT_EQ(sweep_error_of("logs = 'a'\nseeds = " + list(1000, 0) + "\nbsld_tau = " + list(1000, 0) +
                           "\nschedulers = ['easy', 'fcfs']\nprocs = " + list(1000, 0) + "\n"),
            "s.toml: the spec's lists make 2e+09 runs (schedulers 2 x procs 1000 x bsld_tau 1000 x seeds 1000), "
            "more than the 10000000 one sweep may hold: split it into several specs or give fewer values");
  EXPECT_EQ(sweep_error_of("logs = 'a'\nseeds = " + list(20000, 19999) + "\n"),
            "s.toml:2: seeds: 1 is given twice (items 1 and 19999)");
  // A long value is shown by its start and size (a 3 MB scheduler name was printed whole, twice).
  const std::string long_name = std::string(3000000, 'x');
  const std::string e = sweep_error_of("logs = 'a'\nschedulers = ['" + long_name + "']\n");
  EXPECT_LT(e.size(), 1000u) << e.size();
  EXPECT_EQ(e.rfind("s.toml:2: schedulers: '" + std::string(200, 'x') + "... (3000000 bytes)': unknown scheduler '" +
                        std::string(200, 'x') + "... (3000000 bytes)' (known: fcfs,",
                    0),
            0u)
      << e.substr(0, 600);
  EXPECT_EQ(sweep_error_of("logs = 'a'\nschedulers = ['" + long_name + "', '" + long_name + "']\n"),
            "s.toml:2: schedulers: '" + std::string(200, 'x') + "... (3000000 bytes)' is given twice (items 1 and 2)");
  EXPECT_EQ(sweep_error_of("logs = 'a'\nseeds = [1,\n").rfind("s.toml:", 0), 0u);  // not TOML
  EXPECT_NE(sweep_error_of("logs = 'a'\nseeds = [1,\n").find("not valid TOML"), std::string::npos);
}

struct Collected {
  std::vector<SweepRow> rows;
  SweepSummary summary;
};

Collected run(const SweepSpec& s, SweepOptions o = {}) {
  Collected c;
  o.on_row = [&](const SweepRow& r) { c.rows.push_back(r); };
  c.summary = run_sweep(s, expand_sweep(s), o);
  return c;
}

size_t column(const std::string& name) {
  const auto& cols = sweep_columns();
  return static_cast<size_t>(std::find(cols.begin(), cols.end(), name) - cols.begin());
}

// feedback = [false, true]: the same log simulated as logged and with each follower submitted after the job it
// follows (job 2 follows job 1 by 30 s: submitted at 130, not 10); an [[exclude]] can name the key.
TEST(SweepRun, FeedbackIsAKeyOfTheSpec) {
  const std::string log = ::testing::TempDir() + "sweep_feedback.swf";
  std::ofstream(log, std::ios::trunc) << "; MaxProcs: 4\n"
                                         "1 0 -1 100 4 -1 -1 4 100 -1 1 1 -1 -1 -1 -1 -1 -1\n"
                                         "2 10 -1 50 2 -1 -1 2 50 -1 1 2 -1 -1 -1 -1 1 30\n"
                                         "3 20 -1 50 2 -1 -1 2 50 -1 1 3 -1 -1 -1 -1 -1 -1\n";
  SweepSpec s = parse_sweep_spec("logs = 'x'\nschedulers = ['fcfs', 'easy']\nfeedback = [false, true]\n"
                                 "[[exclude]]\nscheduler = 'easy'\nfeedback = false\n",
                                 "s.toml");
  s.logs = {log};
  const auto runs = expand_sweep(s);
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_FALSE(runs[0].feedback);
  EXPECT_TRUE(runs[1].feedback);
  EXPECT_EQ(runs[2].scheduler, "easy");
  const Collected c = run(s);
  ASSERT_EQ(c.rows.size(), 3u);
  EXPECT_EQ(c.rows[0].values[column("feedback")], false);
  EXPECT_EQ(c.rows[1].values[column("feedback")], true);
  EXPECT_EQ(c.summary.failed, 0u);
  // FCFS: as logged, waits 0, 90 (job 2 from 10 to 100), 80; with feedback 0, 0 (130), 80.
  EXPECT_DOUBLE_EQ(c.rows[0].values[column("wait_mean")].get<double>(), 170.0 / 3);
  EXPECT_DOUBLE_EQ(c.rows[1].values[column("wait_mean")].get<double>(), 80.0 / 3);
  EXPECT_EQ(sweep_error_of("logs = 'a.swf'\nfeedback = 'yes'\n"),
            "s.toml:2: feedback: must be true or false (or a list of them)");
}

TEST(SweepRun, RowsAreTheSimulationsInRunOrderWhateverTheThreads) {
  SweepSpec s = parse_sweep_spec(
      "logs = 'x'\nschedulers = ['fcfs', 'easy', 'conservative']\nseeds = [1, 2]\nloads = [0.6, 0.9]\n", "s.toml");
  s.logs = {bundled_kth()};
  SweepOptions one;
  one.threads = 1;
  SweepOptions two;
  two.threads = 2;
  const Collected a = run(s, one), b = run(s, two);
  ASSERT_EQ(a.rows.size(), 12u);
  ASSERT_EQ(b.rows.size(), 12u);
  const swf::Log log = swf::read_log(bundled_kth());
  for (size_t i = 0; i < a.rows.size(); ++i) {
    EXPECT_EQ(a.rows[i].index, i);
    std::vector<nlohmann::json> va = a.rows[i].values, vb = b.rows[i].values;
    va.pop_back();  // wall_seconds
    vb.pop_back();
    EXPECT_EQ(va, vb) << i;
  }
  // A row holds what `simulate` reports for the same run (the same library call, one log read for all).
  SimulationSpec spec;
  spec.scheduler = "conservative";
  spec.workload.load = 0.9;
  spec.sim.seed = 2;
  const nlohmann::json direct = to_json(run_simulation(prepare_simulation(spec), log));
  const SweepRow& row = a.rows[11];  // conservative, load 0.9, seed 2
  EXPECT_EQ(row.values[column("scheduler")], "conservative");
  EXPECT_EQ(row.values[column("status")], "ok");
  EXPECT_EQ(row.values[column("wait_mean")], direct["metrics"]["wait"]["mean"]);
  EXPECT_EQ(row.values[column("bounded_slowdown_p90")], direct["metrics"]["bounded_slowdown"]["p90"]);
  EXPECT_EQ(row.values[column("utilization")], direct["metrics"]["utilization"]);
  EXPECT_EQ(row.values[column("jobs_simulated")], direct["jobs"]["simulated"]);
  // The job classes' columns: simulate --by-class's default classes.
  spec.by_class = sim::JobClassLimits{};
  const nlohmann::json classes = to_json(run_simulation(prepare_simulation(spec), log))["by_class"]["classes"];
  ASSERT_EQ(classes.size(), 4u);
  EXPECT_EQ(row.values[column("short_narrow_wait_mean")], classes[0]["wait_mean"]);
  EXPECT_EQ(row.values[column("short_wide_bounded_slowdown_mean")], classes[1]["bounded_slowdown_mean"]);
  EXPECT_EQ(row.values[column("long_narrow_wait_mean")], classes[2]["wait_mean"]);
  EXPECT_EQ(row.values[column("long_wide_bounded_slowdown_mean")], classes[3]["bounded_slowdown_mean"]);
  EXPECT_NE(row.values[column("short_narrow_wait_mean")], row.values[column("long_wide_wait_mean")]);
}

// An adaptive scheduler's columns: its switch points and switches, as simulate reports them; null for the others.
TEST(SweepRun, AdaptiveColumns) {
  SweepSpec s = parse_sweep_spec("logs = 'x'\nschedulers = ['easy', '[pbas:candidates=easy,conservative;interval=7d]']\n",
                                 "s.toml");
  s.logs = {bundled_kth()};
  const Collected c = run(s, SweepOptions{});
  ASSERT_EQ(c.rows.size(), 2u);
  EXPECT_TRUE(c.rows[0].values[column("adaptive_switch_points")].is_null());
  SimulationSpec spec;
  spec.scheduler = "pbas:candidates=easy,conservative;interval=7d";
  const nlohmann::json direct = to_json(run_simulation(prepare_simulation(spec), swf::read_log(bundled_kth())));
  ASSERT_TRUE(direct.contains("adaptive"));
  EXPECT_EQ(c.rows[1].values[column("adaptive_switch_points")], direct["adaptive"]["switch_points"]);
  EXPECT_EQ(c.rows[1].values[column("adaptive_switches")], direct["adaptive"]["switches"]);
  EXPECT_GT(c.rows[1].values[column("adaptive_switch_points")].get<int64_t>(), 40);
}

// Every run parameter a sweep spec may list reaches the simulation: warm-up fractions and bounded-slowdown
// thresholds (no test listed either before; a list read as its default would give the same rows twice).
TEST(SweepRun, WarmupFractionsAndBsldThresholdsReachTheRuns) {
  SweepSpec s = parse_sweep_spec("logs = 'x'\nschedulers = 'easy'\nwarmup_fraction = [0, 0.01]\nbsld_tau = [10, 60]\n",
                                 "s.toml");
  s.logs = {bundled_kth()};
  const Collected c = run(s, SweepOptions{});
  ASSERT_EQ(c.rows.size(), 4u);  // warmup_fraction outside bsld_tau
  const swf::Log log = swf::read_log(bundled_kth());
  for (size_t i = 0; i < 4; ++i) {
    SimulationSpec spec;
    spec.scheduler = "easy";
    spec.sim.warmup_fraction = i < 2 ? 0.0 : 0.01;
    spec.sim.bsld_tau = i % 2 == 0 ? 10 : 60;
    const nlohmann::json direct = to_json(run_simulation(prepare_simulation(spec), log));
    EXPECT_EQ(c.rows[i].values[column("wait_mean")], direct["metrics"]["wait"]["mean"]) << i;
    EXPECT_EQ(c.rows[i].values[column("bounded_slowdown_mean")], direct["metrics"]["bounded_slowdown"]["mean"]) << i;
  }
  EXPECT_NE(c.rows[0].values[column("wait_mean")], c.rows[2].values[column("wait_mean")]);
  EXPECT_NE(c.rows[0].values[column("bounded_slowdown_mean")], c.rows[1].values[column("bounded_slowdown_mean")]);
  EXPECT_EQ(sweep_error_of("logs = 'a'\nwarmup_fraction = [0, 1.5]\n"),
            "s.toml:2: warmup_fraction: must be in [0, 1) (got 1.5)");
}

// A predictor that leaves jobs overdue is warned of once, by its first run, however many runs it has; the rows keep
// their columns.
// The spec's sweep of KTH on two threads, its warnings collected.
Collected run_on_kth(const std::string& toml, std::vector<std::string>& warnings) {
  SweepSpec s = parse_sweep_spec("logs = 'x'\n" + toml, "s.toml");
  s.logs = {bundled_kth()};
  SweepOptions o;
  o.threads = 2;
  o.on_warning = [&](const std::string& w) { warnings.push_back(w); };
  return run(s, o);
}

TEST(SweepRun, AnUncorrectedPredictorIsWarnedOfOnce) {
  std::vector<std::string> warnings;
  const Collected c = run_on_kth("schedulers = ['easy', 'fcfs']\npredictors = ['ruh', 'estimate']\n"
                                 "loads = [0.6, 0.7]\n",
                                 warnings);
  ASSERT_EQ(c.rows.size(), 8u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("the predictor (ruh) gave it no longer prediction ("), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("(said once for this predictor)"), std::string::npos) << warnings[0];
  EXPECT_EQ(c.rows[0].warned_predictor, "ruh");
  EXPECT_FALSE(c.rows[0].warnings.empty());
  // The misses are in the rows (what the warning is about, per run): ruh's many, the estimate's few (KTH's own
  // overruns), each that of `simulate` for the same run.
  SimulationSpec spec;
  spec.scheduler = "easy";
  spec.predictor = "ruh";
  spec.workload.load = 0.6;
  const nlohmann::json direct = to_json(run_simulation(prepare_simulation(spec), swf::read_log(bundled_kth())));
  EXPECT_EQ(c.rows[0].values[column("overdue_misses")], direct["overdue_misses"]);
  EXPECT_EQ(c.rows[0].values[column("deadline_misses")], direct["deadline_misses"]);
  EXPECT_GT(c.rows[0].values[column("overdue_misses")].get<int64_t>(), 1000);
  EXPECT_LT(c.rows[2].values[column("overdue_misses")].get<int64_t>(), 1000);  // easy, estimate, 0.6
}

// Seeds that change nothing (no random estimate model, no policy of the caller's own) are said once: the runs of
// two seeds are the same results, computed twice.
TEST(SweepRun, SeedsThatChangeNothingAreWarnedOf) {
  const std::string toml = "schedulers = ['easy']\nestimate_models = ['real', 'x2']\nseeds = [1, 2]\n";
  std::vector<std::string> warnings;
  const Collected c = run_on_kth(toml, warnings);
  ASSERT_EQ(c.rows.size(), 4u);  // real × seeds, x2 × seeds
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "seeds: 2 seeds, but no run draws a random number (estimate models real, x2; the built-in "
                         "schedulers and predictors are deterministic), so every seed repeats the same results; "
                         "seeds vary the random estimate models (tsafrir, song, f, feit, shfl)");
  for (const char* m : {"wait_mean", "bounded_slowdown_mean", "utilization"}) {
    EXPECT_EQ(c.rows[0].values[column(m)], c.rows[1].values[column(m)]) << m;  // what the warning says
    EXPECT_EQ(c.rows[2].values[column(m)], c.rows[3].values[column(m)]) << m;
  }
  // A random model, one seed, or a policy of one's own: the seeds may matter, nothing is said.
  SweepSpec s = parse_sweep_spec("logs = 'x'\n" + toml, "s.toml");
  SweepSpec random = s;
  random.estimate_models = {"real", "f:f=1"};
  EXPECT_EQ(sweep_seeds_warning(random, expand_sweep(random)), "");
  SweepSpec one = s;
  one.seeds = {7};
  EXPECT_EQ(sweep_seeds_warning(one, expand_sweep(one)), "");
  SweepSpec own = s;
  own.schedulers = {"mine"};
  own.scheduler_objects["mine"] = sim::make_scheduler("easy");
  EXPECT_EQ(sweep_seeds_warning(own, expand_sweep(own)), "");
}

// Policies of the caller's own (the Python module's plug-ins) run under the names the lists give them, each run a
// clone, beside the built-in ones: their rows are those of the registered policies with the same rules.
TEST(SweepRun, ObjectsOfTheCallersOwnRunUnderTheirNames) {
  SweepSpec s = parse_sweep_spec("logs = 'x'\nschedulers = ['mine', 'easy']\n"
                                 "predictors = ['fixed', 'constant:value=600']\ncorrections = ['tsafrir']\n"
                                 "loads = [0.6, 0.8]\n",
                                 "s.toml");
  s.logs = {bundled_kth()};
  s.scheduler_objects["mine"] = sim::make_scheduler("easy");
  s.predictor_objects["fixed"] = std::make_shared<testing::FixedPredictor>(600);
  SweepOptions o;
  o.threads = 2;
  const Collected c = run(s, o);
  ASSERT_EQ(c.rows.size(), 8u);  // mine × (fixed, constant) × loads, then easy × ...
  for (size_t i = 0; i < 8; ++i) {
    SCOPED_TRACE(i);
    const SweepRow& row = c.rows[i];
    EXPECT_EQ(row.values[column("status")], "ok");
    EXPECT_EQ(row.values[column("scheduler")], i < 4 ? "mine" : "easy");
    EXPECT_EQ(row.values[column("predictor")], i % 4 < 2 ? "fixed" : "constant:value=600");
    // Every run is the same schedule: EASY with every job predicted 600 s, corrected alike.
    const SweepRow& same = c.rows[i % 2 == 0 ? 6 : 7];
    for (const char* m : {"wait_mean", "bounded_slowdown_p90", "utilization", "deadline_misses"})
      EXPECT_EQ(row.values[column(m)], same.values[column(m)]) << m;
  }
  EXPECT_NE(c.rows[0].values[column("wait_mean")], c.rows[1].values[column("wait_mean")]);  // the loads differ

  // A name that is a built-in one would give two policies one name in the rows.
  SweepSpec clash = s;
  clash.predictors = {"ruh"};
  clash.predictor_objects = {{"ruh", std::make_shared<testing::FixedPredictor>(600)}};
  try {
    (void)expand_sweep(clash);
    ADD_FAILURE() << "a predictor of one's own named as a built-in one was taken";
  } catch (const SweepError& e) {
    EXPECT_EQ(std::string(e.what()), "s.toml: predictors: 'ruh' names a built-in predictor, and a predictor of your "
                                     "own too; give yours another name (rows name a run by it)");
  }
  clash = s;
  clash.schedulers = {"easy++"};
  clash.scheduler_objects = {{"easy++", sim::make_scheduler("easy")}};
  EXPECT_THROW((void)expand_sweep(clash), SweepError);  // a preset's name
}

TEST(SweepRun, ARowThatCannotBeWrittenEndsTheSweepWithItsError) {
  // A full disk while two threads ran: the write's error left a worker thread and ended the process (abort).
  SweepSpec s = parse_sweep_spec("logs = 'x'\nschedulers = ['fcfs', 'easy']\nseeds = [1, 2, 3]\n", "s.toml");
  s.logs = {bundled_kth()};
  const auto runs = expand_sweep(s);
  for (const int threads : {1, 2}) {
    SweepOptions o;
    o.threads = threads;
    std::vector<size_t> written;
    o.on_row = [&](const SweepRow& row) {
      if (written.size() == 2) throw SweepError("r.csv: write failed: No space left on device");
      written.push_back(row.index);
    };
    try {
      run_sweep(s, runs, o);
      FAIL() << "no error";
    } catch (const SweepError& e) {
      EXPECT_STREQ(e.what(), "r.csv: write failed: No space left on device");
    }
    EXPECT_EQ(written, (std::vector<size_t>{0, 1})) << threads;  // the rows before it, in order
  }
}

TEST(SweepRun, ShardsSkipsStopAndFailedRuns) {
  SweepSpec s = parse_sweep_spec(
      "logs = 'x'\nschedulers = ['fcfs', 'easy']\nestimate_models = ['real', 'tsafrir:bins=30m:99.99']\n"
      "kill_at_estimate = true\n",
      "s.toml");
  s.logs = {bundled_kth()};
  const Collected all = run(s);
  ASSERT_EQ(all.rows.size(), 4u);
  // On KTH, a bin of 99.99% and T_max's own share exceed 100%: that run fails alone, with the reason.
  const std::string status = all.rows[1].values[column("status")].get<std::string>();
  EXPECT_EQ(status.rfind("error: tsafrir model: user shares sum to", 0), 0u) << status;
  EXPECT_TRUE(all.rows[1].values[column("wait_mean")].is_null());
  EXPECT_EQ(all.summary.failed, 2u);
  SweepOptions shard;
  shard.shard = 1;
  shard.shards = 3;
  const Collected one = run(s, shard);
  ASSERT_EQ(one.rows.size(), 1u);  // runs 1 (and 4, absent)
  EXPECT_EQ(one.rows[0].index, 1u);
  SweepOptions skip;
  skip.skip = {0, 2};
  const Collected rest = run(s, skip);
  ASSERT_EQ(rest.rows.size(), 2u);
  EXPECT_EQ(rest.rows[0].index, 1u);
  EXPECT_EQ(rest.summary.skipped, 2u);
  std::atomic<bool> stop{true};
  SweepOptions stopped;
  stopped.stop = &stop;
  const Collected none = run(s, stopped);
  EXPECT_TRUE(none.rows.empty());
  EXPECT_TRUE(none.summary.stopped);
  SweepSpec missing = s;
  missing.logs = {"/no/such/log.swf"};
  EXPECT_THROW(run(missing), SweepError);
}

TEST(SweepOutput, CsvQuotingJsonLinesAndResume) {
  SweepRow row;
  row.index = 3;
  row.values.assign(sweep_columns().size(), nlohmann::json());
  row.values[0] = 3;
  row.values[2] = "pbas:candidates=easy,conservative";
  row.values[14] = "error: a \"quoted\" reason";
  const std::string line = sweep_csv_line(row);
  EXPECT_NE(line.find(",\"pbas:candidates=easy,conservative\","), std::string::npos) << line;
  EXPECT_NE(line.find("\"error: a \"\"quoted\"\" reason\""), std::string::npos) << line;
  const auto j = nlohmann::json::parse(sweep_jsonl_line(row));
  EXPECT_EQ(j["run"], 3);
  EXPECT_TRUE(j["wait_mean"].is_null());

}

std::string resume_error(const SweepSpec& s, const std::string& path, bool jsonl) {
  try {
    run_sweep_to_file(s, expand_sweep(s), path, jsonl, {});
  } catch (const SweepError& e) {
    return e.what();
  }
  return "";
}

TEST(SweepOutput, ResumeSkipsTheRunsThereAndCutsAPartialRow) {
  for (const bool jsonl : {false, true}) {
    SCOPED_TRACE(jsonl ? "jsonl" : "csv");
    SweepSpec s = parse_sweep_spec("logs = 'x'\nschedulers = ['fcfs', 'easy']\nloads = [0.6, 0.7]\n", "s.toml");
    s.logs = {bundled_kth()};
    const auto runs = expand_sweep(s);
    const std::string path = ::testing::TempDir() + (jsonl ? "sweep_resume.jsonl" : "sweep_resume.csv");
    std::filesystem::remove(path);
    SweepOptions first;
    first.skip = {1, 3};  // ignored: the file decides what is done
    first.threads = 1;
    SweepSummary sum = run_sweep_to_file(s, runs, path, jsonl, first);
    EXPECT_EQ(sum.run, 4u);
    const std::string whole = testing::read_file(path);
    EXPECT_EQ(sweep_done_runs(path, jsonl, runs), (std::set<size_t>{0, 1, 2, 3}));
    // A crash cut the last row: it is dropped and run again.
    std::filesystem::resize_file(path, whole.size() - 10);
    EXPECT_EQ(sweep_done_runs(path, jsonl, runs), (std::set<size_t>{0, 1, 2}));
    size_t rows = 0;
    SweepOptions again;
    again.on_row = [&](const SweepRow&) { ++rows; };
    sum = run_sweep_to_file(s, runs, path, jsonl, again);
    EXPECT_EQ(sum.skipped, 3u);
    EXPECT_EQ(sum.run, 1u);
    EXPECT_EQ(rows, 1u);
    const auto read = read_sweep_output(path, jsonl, runs.size(), false);
    ASSERT_EQ(read.size(), 4u);
    for (size_t r = 0; r < 4; ++r) {
      EXPECT_EQ(read[r].run, r);
      EXPECT_EQ(read[r].parameters, sweep_run_parameters(runs[r]));
    }
    EXPECT_EQ(read[1].parameters, "1," + bundled_kth() + ",fcfs,estimate,none,real,0.7,1,,false,false,false,0,10,0");

    // The spec changed: run 2 is now conservative at 0.6 (it was easy at 0.6). Resuming would keep easy's row
    // under index 2 and run easy again as 4 and 5, never conservative: refused, naming the line and both runs.
    SweepSpec changed = s;
    changed.schedulers = {"fcfs", "conservative", "easy"};
    const std::string e = resume_error(changed, path, jsonl);
    EXPECT_NE(e.find(path + ":" + std::to_string(jsonl ? 3 : 4) + ": run 2 was 2," + bundled_kth() + ",easy,"),
              std::string::npos)
        << e;
    EXPECT_NE(e.find("the spec's run 2 is 2," + bundled_kth() + ",conservative,"), std::string::npos) << e;
    EXPECT_EQ(resume_error(s, path, jsonl), "");  // unchanged spec: resumes (nothing left to run)
    // Fewer runs: a row's run is outside the spec.
    changed.schedulers = {"fcfs"};
    EXPECT_NE(resume_error(changed, path, jsonl).find("run 2 is not in this spec (2 runs)"), std::string::npos);
  }
}

using testing::without_feedback;

// An output of the schedlab before `feedback`: resumed (it was refused: "another schedlab version"), rewritten in
// today's columns with feedback false, which every one of its runs was; its rows keep their bytes otherwise, and
// `report --sweep` reads it too.
TEST(SweepOutput, AnOutputOfAnEarlierVersionIsResumedInTodaysColumns) {
  for (const bool jsonl : {false, true}) {
    SCOPED_TRACE(jsonl ? "jsonl" : "csv");
    SweepSpec s = parse_sweep_spec("logs = 'x'\nschedulers = ['fcfs', 'easy']\nloads = [0.6, 0.7]\n", "s.toml");
    s.logs = {bundled_kth()};
    const auto runs = expand_sweep(s);
    const std::string path = ::testing::TempDir() + (jsonl ? "sweep_old.jsonl" : "sweep_old.csv");
    std::filesystem::remove(path);
    SweepOptions o;
    o.threads = 1;
    run_sweep_to_file(s, runs, path, jsonl, o);
    const std::string today = testing::read_file(path);
    const std::string old = without_feedback(today, jsonl);
    ASSERT_NE(old, today);
    EXPECT_EQ(upgraded_sweep_output(old, jsonl, "old"), today);
    EXPECT_EQ(upgraded_sweep_output(today, jsonl, "today"), today);
    // Three of the four runs done by the old version, the fourth cut by a crash: resumed, one run.
    const size_t cut = old.rfind('\n', old.size() - 2) + 1 + 7;
    { std::ofstream(path, std::ios::binary | std::ios::trunc) << old.substr(0, cut); }
    size_t rows = 0;
    o.on_row = [&](const SweepRow&) { ++rows; };
    const SweepSummary sum = run_sweep_to_file(s, runs, path, jsonl, o);
    EXPECT_EQ(sum.skipped, 3u);
    EXPECT_EQ(rows, 1u);
    const std::string resumed = testing::read_file(path);
    const size_t three = today.rfind('\n', today.size() - 2) + 1;  // today's text up to its last row
    EXPECT_EQ(resumed.substr(0, three), today.substr(0, three));
    const auto read = read_sweep_output(path, jsonl, runs.size(), false);
    ASSERT_EQ(read.size(), 4u);
    EXPECT_EQ(read[3].parameters, sweep_run_parameters(runs[3]));
    if (!jsonl) {
      EXPECT_EQ(sweep_report_data(old, "r.csv", "wait_mean", ""), sweep_report_data(today, "r.csv", "wait_mean", ""));
    }
  }
  // A header that is neither today's nor an older one (a column other than feedback missing): refused as before.
  std::string bad = sweep_csv_header();
  bad.erase(bad.find(",scheduler"), std::string(",scheduler").size());
  try {
    (void)upgraded_sweep_output(bad, false, "b.csv");
    FAIL() << "no error";
  } catch (const SweepError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("b.csv:1: not the header of a sweep output with these columns", 0), 0u);
  }
  // A row of an older output with a cell too few: named.
  const std::string old_header = without_feedback(sweep_csv_header(), false);
  try {
    (void)upgraded_sweep_output(old_header + "0,a\n", false, "o.csv");
    FAIL() << "no error";
  } catch (const SweepError& e) {
    EXPECT_NE(std::string(e.what()).find("o.csv:2: not a sweep row (2 cells,"), std::string::npos) << e.what();
  }
}

TEST(SweepOutput, CorruptOutputsAreRefusedNamingTheLine) {
  SweepSpec s = parse_sweep_spec("logs = 'x'\nschedulers = ['fcfs', 'easy']\n", "s.toml");
  s.logs = {bundled_kth()};
  const auto runs = expand_sweep(s);
  const std::string path = ::testing::TempDir() + "sweep_corrupt.csv";
  std::filesystem::remove(path);
  run_sweep_to_file(s, runs, path, false, {});
  const std::string good = testing::read_file(path);
  const std::string header = sweep_csv_header();
  const std::string row0 = good.substr(header.size(), good.find('\n', header.size()) + 1 - header.size());
  const auto error = [&](const std::string& text) {
    std::ofstream(path, std::ios::trunc | std::ios::binary) << text;
    try {
      sweep_done_runs(path, false, runs);
    } catch (const SweepError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error(good), "");
  EXPECT_NE(error("run,log\n0,a\n").find(path + ":1: not the header of a sweep output"), std::string::npos);
  EXPECT_NE(error(header + row0 + row0).find(path + ":3: run 0 again (first at line 2)"), std::string::npos);
  EXPECT_NE(error(header + "0,a\n").find(path + ":2: not a sweep row (2 cells"), std::string::npos);
  std::string bad_run = row0;
  bad_run[0] = 'x';
  EXPECT_NE(error(header + bad_run).find(path + ":2: not a sweep row (run number expected)"), std::string::npos);
  EXPECT_NE(error(header + "-" + row0).find("run number expected"), std::string::npos);
  // A log path with a comma and a quote is quoted in the CSV and read back whole.
  std::ofstream(path, std::ios::trunc) << "";
  SweepSpec odd = s;
  const std::string odd_log = ::testing::TempDir() + "a,\"b.swf";
  std::filesystem::copy_file(bundled_kth(), odd_log, std::filesystem::copy_options::overwrite_existing);
  odd.logs = {odd_log};
  const auto odd_runs = expand_sweep(odd);
  run_sweep_to_file(odd, odd_runs, path, false, {});
  EXPECT_EQ(sweep_done_runs(path, false, odd_runs), (std::set<size_t>{0, 1}));
  EXPECT_TRUE(sweep_done_runs(::testing::TempDir() + "no_such_output.csv", false, runs).empty());
}

// JSON lines: a line nested 100,000 deep where a cell belongs is refused as it is read (its cell's text recursed
// once per level: a stack overflow).
TEST(SweepOutput, DeepJsonLinesAreRefused) {
  SweepSpec s = parse_sweep_spec("logs = 'x'\nschedulers = ['fcfs']\n", "s.toml");
  s.logs = {bundled_kth()};
  const auto runs = expand_sweep(s);
  const std::string path = ::testing::TempDir() + "sweep_deep.jsonl";
  std::filesystem::remove(path);
  run_sweep_to_file(s, runs, path, true, {});
  std::string line = testing::read_file(path);
  const std::string log = nlohmann::json(bundled_kth()).dump();
  ASSERT_NE(line.find(log), std::string::npos);
  line.replace(line.find(log), log.size(), std::string(100000, '[') + std::string(100000, ']'));
  std::ofstream(path, std::ios::trunc | std::ios::binary) << line;
  try {
    sweep_done_runs(path, true, runs);
    ADD_FAILURE() << "read";
  } catch (const SweepError& e) {
    EXPECT_EQ(std::string(e.what()), path + ":1: not a JSON line");
  }
}

TEST(SweepOutput, DigestNamesTheRunSet) {
  SweepSpec s = parse_sweep_spec("logs = 'a.swf'\nschedulers = ['fcfs', 'easy']\n", "s.toml");
  const auto runs = expand_sweep(s);
  EXPECT_EQ(sweep_runs_digest(runs), sweep_runs_digest(expand_sweep(s)));
  EXPECT_EQ(sweep_runs_digest(runs).size(), 16u);
  // Hashed run by run, the same digest as over the runs' texts held at once (manifests written before say it).
  std::vector<std::string> texts;
  for (const SweepRun& r : runs) texts.push_back(sweep_run_parameters(r));
  EXPECT_EQ(sweep_runs_digest(runs), sweep_parameters_digest(texts));
  EXPECT_EQ(sweep_parameters_digest({"a", "b"}), "c21391b8a0f3c428");  // FNV-1a 64 of "a\nb\n"
  auto other = runs;
  other[1].scheduler = "conservative";
  EXPECT_NE(sweep_runs_digest(other), sweep_runs_digest(runs));
  other = runs;
  std::swap(other[0], other[1]);
  EXPECT_NE(sweep_runs_digest(other), sweep_runs_digest(runs));
  other.pop_back();
  EXPECT_NE(sweep_runs_digest(other), sweep_runs_digest(runs));
}

}  // namespace
}  // namespace schedlab::experiments
