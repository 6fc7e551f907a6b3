// Sweeps as Slurm job arrays (experiments/sweep_array.h), without Slurm: the shards are run here as the tasks
// would run them; the real array on a local Slurm is tests/slurm_local_test.sh.
#include "schedlab/experiments/sweep_array.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "earlier_sweep_output.h"

#include "test_util.h"

namespace schedlab::experiments {
namespace {
using testing::bundled_kth;

namespace fs = std::filesystem;

struct Array {
  std::string dir;
  SweepSpec spec;
  std::vector<SweepRun> runs;
  SweepArray array;
};

// A fresh array directory of a 6-run sweep in `shards` tasks.
Array make_array(const std::string& name, int shards, bool jsonl) {
  Array a;
  a.dir = ::testing::TempDir() + name;
  fs::remove_all(a.dir);
  fs::create_directories(a.dir);
  const std::string spec_path = a.dir + "/s.toml";
  std::ofstream(spec_path) << "logs = '" << bundled_kth() << "'\nschedulers = ['fcfs', 'easy', 'conservative']\n"
                           << "loads = [0.6, 0.8]\n";
  a.spec = read_sweep_spec(spec_path);
  a.runs = expand_sweep(a.spec);
  SweepArrayOptions o;
  o.dir = a.dir + "/array/";
  o.spec_path = spec_path;
  o.executable = "/opt/it's/schedlab";
  o.jsonl = jsonl;
  o.array_size = shards;
  o.cpus_per_task = 2;
  o.partition = "debug";
  a.array = write_sweep_array(o, a.runs);
  return a;
}

std::string shard_file(const Array& a, int i) {
  return a.array.dir + "/shard-" + std::to_string(i) + (a.array.manifest.jsonl ? ".jsonl" : ".csv");
}

void run_shard(const Array& a, int i) {
  SweepOptions o;
  o.shard = i;
  o.shards = a.array.manifest.shards;
  o.threads = 1;
  run_sweep_to_file(a.spec, a.runs, shard_file(a, i), a.array.manifest.jsonl, o);
}

std::string collect_error(const Array& a, const std::string& output) {
  try {
    collect_sweep_array(a.array.dir, output);
  } catch (const SweepError& e) {
    return e.what();
  }
  return "";
}

TEST(SweepArray, ScriptAndManifest) {
  const Array a = make_array("array_script", 4, false);
  EXPECT_EQ(a.array.dir, a.dir + "/array");  // absolute, no trailing slash
  EXPECT_EQ(a.array.script, a.dir + "/array/sweep.sbatch");
  const std::string script = testing::read_file(a.array.script);
  EXPECT_EQ(script.rfind("#!/bin/bash\n", 0), 0u);
  for (const std::string& want : std::vector<std::string>{"#SBATCH --array=0-3\n", "#SBATCH --cpus-per-task=2\n",
                                                          "#SBATCH --partition=debug\n",
                                                          "#SBATCH --output=" + a.array.dir + "/slurm-%A_%a.out\n"})
    EXPECT_NE(script.find(want), std::string::npos) << want << "\n" << script;
  EXPECT_EQ(script.find("--time"), std::string::npos);
  // The executable's quote survives the shell; the task passes the run set's digest.
  EXPECT_NE(script.find("exec '/opt/it'\\''s/schedlab' sweep '" + a.dir + "/s.toml' --shard \"${SLURM_ARRAY_TASK_ID}/4\" "
                        "--runs-digest " + sweep_runs_digest(a.runs) + " --threads 2 --format csv -o '" + a.array.dir +
                        "'/shard-\"${SLURM_ARRAY_TASK_ID}\".csv\n"),
            std::string::npos)
      << script;
  EXPECT_TRUE((fs::status(a.array.script).permissions() & fs::perms::owner_exec) != fs::perms::none);
  const SweepArrayManifest m = read_sweep_array_manifest(a.array.dir);
  EXPECT_EQ(m.spec, a.dir + "/s.toml");
  EXPECT_EQ(m.runs, 6u);
  EXPECT_EQ(m.shards, 4);
  EXPECT_FALSE(m.jsonl);
  EXPECT_EQ(m.digest, sweep_runs_digest(a.runs));

  SweepArrayOptions o;
  o.dir = a.dir + "/b";
  o.spec_path = "s.toml";
  EXPECT_EQ(write_sweep_array(o, a.runs).manifest.shards, 6);  // default: one task per run, at most 100
  EXPECT_THROW(write_sweep_array(o, {}), SweepError);
  o.cpus_per_task = 0;
  EXPECT_THROW(write_sweep_array(o, a.runs), SweepError);
}

TEST(SweepArray, CollectedShardsEqualTheLocalRun) {
  for (const bool jsonl : {false, true}) {
    SCOPED_TRACE(jsonl ? "jsonl" : "csv");
    const Array a = make_array(jsonl ? "array_collect_jsonl" : "array_collect_csv", 4, jsonl);
    const std::string local = a.dir + "/local", merged = a.dir + "/merged";
    run_sweep_to_file(a.spec, a.runs, local, jsonl, {});
    for (int i : {3, 0, 2}) run_shard(a, i);
    // Shard 1 (runs 1 and 5) is missing: nothing is written, the message says which task to run again.
    const std::string e = collect_error(a, merged);
    EXPECT_NE(e.find("1 of 4 shards is missing or incomplete: 1\nre-run only them with: sbatch --array=1 " +
                     a.array.dir + "/sweep.sbatch"),
              std::string::npos)
        << e;
    EXPECT_FALSE(fs::exists(merged));
    run_shard(a, 1);
    const SweepCollectSummary sum = collect_sweep_array(a.array.dir, merged);
    EXPECT_EQ(sum.runs, 6u);
    EXPECT_EQ(sum.shards, 4);
    // Row for row the local run's, but for each run's wall time (the last cell).
    const auto cells = [&](const std::string& path) {
      std::vector<std::string> out;
      for (const SweepOutputRow& r : read_sweep_output(path, jsonl, a.runs.size(), false)) out.push_back(r.parameters);
      return out;
    };
    EXPECT_EQ(cells(merged), cells(local));
    std::ifstream l(local), m(merged);
    std::string ll, ml;
    size_t lines = 0;
    while (std::getline(l, ll) && std::getline(m, ml)) {
      ++lines;
      const char sep = jsonl ? ':' : ',';
      EXPECT_EQ(ll.substr(0, ll.rfind(sep)), ml.substr(0, ml.rfind(sep)));
    }
    EXPECT_EQ(lines, jsonl ? 6u : 7u);
    EXPECT_FALSE(fs::exists(merged + ".tmp"));
  }
}

TEST(SweepArray, CollectRefusesShardsOfAnotherRunSet) {
  Array a = make_array("array_mixed", 2, false);
  run_shard(a, 0);
  run_shard(a, 1);
  const std::string merged = a.dir + "/merged.csv";
  ASSERT_EQ(collect_error(a, merged), "");
  // A shard file from another array (shard 0's rows as shard 1's).
  fs::copy_file(shard_file(a, 0), shard_file(a, 1), fs::copy_options::overwrite_existing);
  EXPECT_NE(collect_error(a, merged).find(shard_file(a, 1) + ":2: run 0 belongs to shard 0, not 1"), std::string::npos);
  // The spec changed before task 1 ran (easy replaced by easy-sjbf): the task refuses to start ...
  SweepSpec changed = a.spec;
  changed.schedulers = {"fcfs", "easy-sjbf", "conservative"};
  const auto changed_runs = expand_sweep(changed);
  try {
    check_sweep_runs_digest(changed, changed_runs, a.array.manifest.digest);
    ADD_FAILURE() << "a changed run set passed the digest check";
  } catch (const SweepError& e) {
    EXPECT_NE(std::string(e.what()).find("the spec changed since `sweep --slurm`"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(check_sweep_runs_digest(a.spec, a.runs, a.array.manifest.digest));
  // ... and had it run without the check, collect would not mix the two run sets.
  fs::remove(shard_file(a, 1));
  SweepOptions o;
  o.shard = 1;
  o.shards = 2;
  run_sweep_to_file(changed, changed_runs, shard_file(a, 1), false, o);
  EXPECT_NE(collect_error(a, merged).find("not the runs the array was written for"), std::string::npos);
  EXPECT_TRUE(fs::exists(merged));  // the earlier good merge is left as it was
  // The merged file over one of the shards would lose it.
  EXPECT_NE(collect_error(a, shard_file(a, 0)).find(": the output is the input log "), std::string::npos);
}

TEST(SweepArray, CorruptManifestsNameTheFileAndKey) {
  const Array a = make_array("array_manifest", 2, false);
  const std::string path = a.array.dir + "/sweep.json";
  const std::string good = testing::read_file(path);
  const auto error = [&](const std::string& text) {
    std::ofstream(path, std::ios::trunc) << text;
    try {
      read_sweep_array_manifest(a.array.dir);
    } catch (const SweepError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error(good), "");
  EXPECT_EQ(error("{"), path + ": not JSON (a sweep manifest is written by `sweep --slurm`)");
  EXPECT_EQ(error("[1]"), path + ": no \"spec\"");
  EXPECT_EQ(error(R"({"spec": "s", "runs": 4})"), path + ": no \"shards\"");
  EXPECT_EQ(error(R"({"spec": "s", "runs": "x", "shards": 2})"), path + ": \"runs\": a number >= 1 expected, not \"x\"");
  EXPECT_EQ(error(R"({"spec": "s", "runs": 4, "shards": 0, "format": "csv", "digest": "0123456789abcdef"})"),
            path + ": \"shards\": a number >= 1 expected, not 0");
  EXPECT_EQ(error(R"({"spec": "s", "runs": 4, "shards": 2, "format": "../x", "digest": "0123456789abcdef"})"),
            path + ": \"format\": \"csv\" or \"jsonl\" expected, not \"../x\"");
  EXPECT_EQ(error(R"({"spec": "s", "runs": 4, "shards": 2, "format": "csv"})"), path + ": no \"digest\"");
  fs::remove(path);
  EXPECT_NE(collect_error(a, a.dir + "/m.csv").find("no sweep.json (not a directory of `sweep --slurm`)"),
            std::string::npos);
}

// An array written by the schedlab before the `feedback` column: its manifest's digest is of the runs' parameters
// without it, and the tasks that ran before the upgrade wrote shards without it. Today's schedlab runs the rest
// (it refused: "not the runs its Slurm array was written for") and collects all (it refused the old shards'
// header): the rows of today's local run.
TEST(SweepArray, AnArrayOfAnEarlierVersionIsFinishedAndCollected) {
  for (const bool jsonl : {false, true}) {
    SCOPED_TRACE(jsonl ? "jsonl" : "csv");
    Array a = make_array(jsonl ? "array_earlier_jsonl" : "array_earlier_csv", 3, jsonl);
    const std::string local = a.dir + "/local", merged = a.dir + "/merged";
    run_sweep_to_file(a.spec, a.runs, local, jsonl, {});
    // The earlier manifest: the digest of the parameters without feedback (false in every run).
    const auto earlier_digest_of = [](const std::vector<SweepRun>& runs) {
      std::vector<std::string> earlier;
      for (const SweepRun& r : runs) {
        const std::string p = testing::without_feedback(sweep_run_parameters(r) + "\n", false);
        earlier.push_back(p.substr(0, p.size() - 1));
      }
      return sweep_parameters_digest(earlier);
    };
    const std::string earlier_digest = earlier_digest_of(a.runs);
    ASSERT_NE(earlier_digest, a.array.manifest.digest);
    {
      std::string manifest = testing::read_file(a.array.dir + "/sweep.json");
      manifest.replace(manifest.find(a.array.manifest.digest), earlier_digest.size(), earlier_digest);
      std::ofstream(a.array.dir + "/sweep.json", std::ios::binary | std::ios::trunc) << manifest;
    }
    // Shards 0 and 2 ran before the upgrade; shard 1 runs now, its digest check passing.
    for (int i : {0, 2}) {
      run_shard(a, i);
      const std::string old = testing::without_feedback(testing::read_file(shard_file(a, i)), jsonl);
      std::ofstream(shard_file(a, i), std::ios::binary | std::ios::trunc) << old;
    }
    EXPECT_NO_THROW(check_sweep_runs_digest(a.spec, a.runs, earlier_digest));
    run_shard(a, 1);
    const SweepCollectSummary sum = collect_sweep_array(a.array.dir, merged);
    EXPECT_EQ(sum.runs, 6u);
    const auto rows = [&](const std::string& path) {
      std::vector<std::string> out;
      for (const SweepOutputRow& r : read_sweep_output(path, jsonl, a.runs.size(), false)) out.push_back(r.parameters);
      return out;
    };
    EXPECT_EQ(rows(merged), rows(local));
    // The earlier digest stands for runs without feedback only: an earlier schedlab could not have run feedback.
    SweepSpec fed = a.spec;
    fed.feedback = {true};
    const auto fed_runs = expand_sweep(fed);
    EXPECT_FALSE(sweep_runs_digest_matches(fed_runs, earlier_digest_of(fed_runs)));
    EXPECT_TRUE(sweep_runs_digest_matches(fed_runs, sweep_runs_digest(fed_runs)));
    EXPECT_THROW(check_sweep_runs_digest(fed, fed_runs, earlier_digest), SweepError);
  }
}

}  // namespace
}  // namespace schedlab::experiments
