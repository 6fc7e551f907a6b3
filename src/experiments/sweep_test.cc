// Parameter sweeps (experiments/sweep.h): the spec, the run set, the rows and resuming.
#include "schedlab/experiments/sweep.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "schedlab/experiments/simulation.h"
#include "schedlab/swf/reader.h"

namespace schedlab::experiments {
namespace {

const std::string kKth = std::string(SCHEDLAB_SOURCE_DIR) + "/data/KTH-SP2-1996-2.swf.gz";

std::string error_of(const std::string& toml) {
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
  EXPECT_EQ(error_of("logs = 'a'\nschedulerz = ['easy']\n").rfind("s.toml:2: schedulerz: unknown key", 0), 0u);
  EXPECT_EQ(error_of("logs = 'a'\nseeds = ['one']\n").rfind("s.toml:2: seeds: must be an integer", 0), 0u);
  EXPECT_EQ(error_of("logs = 'a'\nloads = [0.5, -1]\n").rfind("s.toml:2: loads: must be > 0", 0), 0u);
  EXPECT_EQ(error_of("logs = 'a'\nschedulers = []\n").rfind("s.toml:2: schedulers: is an empty list", 0), 0u);
  EXPECT_EQ(error_of("schedulers = ['easy']\n").rfind("s.toml: logs: missing", 0), 0u);
  EXPECT_EQ(error_of("logs = 'a'\nloads = 0.5\narrival_scales = 2\n").rfind("s.toml:2: loads: give loads or", 0), 0u);
  EXPECT_EQ(error_of("logs = 'a'\n\nschedulers = ['easy', 'nosuch']\n").rfind("s.toml:3: schedulers: 'nosuch'", 0),
            0u);
  EXPECT_EQ(error_of("logs = 'a'\npredictors = ['oracle']\n").rfind("s.toml:2: predictors: 'oracle'", 0), 0u);
  EXPECT_EQ(error_of("logs = 'a'\nestimate_models = ['tsafri']\n").rfind("s.toml:2: estimate_models: unknown model", 0),
            0u);
  EXPECT_EQ(error_of("logs = 'a'\n[[exclude]]\nschedulr = 'x'\n").rfind("s.toml:3: exclude.schedulr: unknown key", 0),
            0u);
  EXPECT_EQ(error_of("logs = 'a'\nseeds = [1,\n").rfind("s.toml:", 0), 0u);  // not TOML
  EXPECT_NE(error_of("logs = 'a'\nseeds = [1,\n").find("not valid TOML"), std::string::npos);
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

TEST(SweepRun, RowsAreTheSimulationsInRunOrderWhateverTheThreads) {
  SweepSpec s = parse_sweep_spec(
      "logs = 'x'\nschedulers = ['fcfs', 'easy', 'conservative']\nseeds = [1, 2]\nloads = [0.6, 0.9]\n", "s.toml");
  s.logs = {kKth};
  SweepOptions one;
  one.threads = 1;
  SweepOptions two;
  two.threads = 2;
  const Collected a = run(s, one), b = run(s, two);
  ASSERT_EQ(a.rows.size(), 12u);
  ASSERT_EQ(b.rows.size(), 12u);
  const swf::Log log = swf::read_log(kKth);
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
}

TEST(SweepRun, ShardsSkipsStopAndFailedRuns) {
  SweepSpec s = parse_sweep_spec(
      "logs = 'x'\nschedulers = ['fcfs', 'easy']\nestimate_models = ['real', 'tsafrir']\nkill_at_estimate = true\n",
      "s.toml");
  s.logs = {kKth};
  const Collected all = run(s);
  ASSERT_EQ(all.rows.size(), 4u);
  // KTH's runtimes do not fit under the Tsafrir model's estimates: that run fails alone, with the reason.
  EXPECT_EQ(all.rows[1].values[column("status")].get<std::string>().rfind("error: infeasible assignment", 0), 0u);
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

  const std::string path = ::testing::TempDir() + "sweep_resume.csv";
  {
    std::ofstream out(path, std::ios::trunc);
    out << sweep_csv_header() << "0,a\n2,b\n5,cut-by-a-cr";  // the last row was cut by a crash
  }
  const std::set<size_t> done = sweep_done_runs(path, false, 10);
  EXPECT_EQ(done, (std::set<size_t>{0, 2}));
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, sweep_csv_header() + "0,a\n2,b\n");  // the partial row is gone
  EXPECT_THROW(sweep_done_runs(path, false, 2), SweepError);  // run 2 is not in a 2-run spec
  {
    std::ofstream out(path, std::ios::trunc);
    out << "run,log\n0,a\n";
  }
  EXPECT_THROW(sweep_done_runs(path, false, 10), SweepError);  // not this version's columns
  EXPECT_TRUE(sweep_done_runs(::testing::TempDir() + "no_such_output.csv", false, 10).empty());
}

}  // namespace
}  // namespace schedlab::experiments
