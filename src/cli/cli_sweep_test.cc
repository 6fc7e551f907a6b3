// `schedlab sweep` and `sweep collect` through the built binary: results equal `simulate`'s, an interrupted sweep
// resumes to the same rows, and a Slurm array's shards collect to the local run's rows.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_util.h"

namespace schedlab::testing {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// The rows without their last cell (wall_seconds, the only one that differs between two runs).
std::vector<std::string> without_wall(const std::string& text) {
  std::vector<std::string> out;
  for (const auto& l : lines_of(text)) out.push_back(l.substr(0, l.rfind(',')));
  return out;
}

TEST(CliSweep, RowsEqualSimulateAndJsonLines) {
  TempDir dir;
  write_file(dir.file("s.toml"),
             "logs = '" + bundled_kth() + "'\nschedulers = ['easy', 'conservative']\nloads = [0.7]\n");
  const CliResult r = run_cli({"sweep", dir.file("s.toml"), "-o", dir.file("r.csv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("2 runs: 2 run now, 0 already there; 0 failed"), std::string::npos) << r.out;
  const auto rows = lines_of(read_file(dir.file("r.csv")));
  ASSERT_EQ(rows.size(), 3u);
  // Nothing left to run: the summary alone, no "sweep: 0/0 runs done, 0.0 runs/s, ETA ?" above it.
  const CliResult again = run_cli({"sweep", dir.file("s.toml"), "-o", dir.file("r.csv")});
  EXPECT_NE(again.out.find("2 runs: 0 run now, 2 already there; 0 failed"), std::string::npos) << again.out;
  EXPECT_EQ(again.err, "");
  const CliResult sim = run_cli({"simulate", bundled_kth(), "-s", "conservative", "--load", "0.7", "--json"});
  const auto j = nlohmann::json::parse(sim.out);
  std::ostringstream wait;
  wait << j["metrics"]["wait"]["mean"].dump();
  EXPECT_NE(rows[2].find(",ok," + wait.str() + ","), std::string::npos) << rows[2] << " vs " << wait.str();
  const CliResult jl = run_cli({"sweep", dir.file("s.toml"), "-o", dir.file("r.jsonl"), "--format", "jsonl"});
  ASSERT_EQ(jl.exit_code, 0) << jl.err;
  const auto jrows = lines_of(read_file(dir.file("r.jsonl")));
  ASSERT_EQ(jrows.size(), 2u);
  const auto row = nlohmann::json::parse(jrows[1]);
  EXPECT_EQ(row["wait_mean"], j["metrics"]["wait"]["mean"]);
  EXPECT_EQ(row["scheduler"], "conservative");
  EXPECT_EQ(row["jobs_excluded_total"], 0);
  // On a machine smaller than some jobs, the row counts the jobs left out (it said only jobs_simulated).
  write_file(dir.file("p.toml"), "logs = '" + bundled_kth() + "'\nschedulers = ['fcfs']\nprocs = [50]\n");
  ASSERT_EQ(run_cli({"sweep", dir.file("p.toml"), "-o", dir.file("p.jsonl"), "--format", "jsonl"}).exit_code, 0);
  const auto small = nlohmann::json::parse(lines_of(read_file(dir.file("p.jsonl"))).at(0));
  const auto small_sim =
      nlohmann::json::parse(run_cli({"simulate", bundled_kth(), "-s", "fcfs", "--procs", "50", "--json"}).out);
  EXPECT_EQ(small["jobs_records"], 28489);
  EXPECT_EQ(small["jobs_excluded_total"], small_sim["jobs"]["excluded"]["larger_than_machine"]);
  EXPECT_EQ(small["jobs_simulated"].get<int64_t>() + small["jobs_excluded_total"].get<int64_t>(), 28489);
}

// Off a terminal the progress is plain lines; the final count is printed once (a one-run sweep printed
// "sweep: 1/1 runs done" twice: the first run's line, then the same count as the last line).
TEST(CliSweep, TheFinalCountIsPrintedOnce) {
  TempDir dir;
  write_file(dir.file("s.toml"), "logs = '" + bundled_kth() + "'\nschedulers = ['fcfs']\n");
  const CliResult r = run_cli({"sweep", dir.file("s.toml"), "-o", dir.file("r.csv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  size_t lines = 0;
  for (size_t at = r.err.find("1/1 runs done"); at != std::string::npos; at = r.err.find("1/1 runs done", at + 1))
    ++lines;
  EXPECT_EQ(lines, 1u) << r.err;
}

// "-o -" is standard output, as in every other command (it wrote a file named "-", which the next such sweep
// then tried to resume from); the summary goes to standard error beside the progress.
TEST(CliSweep, DashWritesTheRowsToStandardOutput) {
  TempDir dir;
  write_file(dir.file("s.toml"), "logs = '" + bundled_kth() + "'\nschedulers = ['fcfs', 'easy']\nloads = [0.7, 0.8]\n");
  ASSERT_EQ(run_cli({"sweep", dir.file("s.toml"), "-o", dir.file("r.csv"), "--threads", "2"}).exit_code, 0);
  for (int twice = 0; twice < 2; ++twice) {  // nothing resumed: the same rows again
    const CliResult r = run_cli({"sweep", dir.file("s.toml"), "-o", "-", "--threads", "2"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(without_wall(r.out), without_wall(read_file(dir.file("r.csv"))));
    EXPECT_NE(r.err.find("standard output: 4 runs: 4 run now, 0 already there; 0 failed"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists("-"));
  const CliResult jl = run_cli({"sweep", dir.file("s.toml"), "-o", "-", "--format", "jsonl"});
  ASSERT_EQ(jl.exit_code, 0) << jl.err;
  ASSERT_EQ(lines_of(jl.out).size(), 4u);
  EXPECT_EQ(nlohmann::json::parse(lines_of(jl.out)[3])["scheduler"], "easy");
  const CliResult full = run_cli({"sweep", dir.file("s.toml"), "-o", "-"}, "", "/dev/full");
  EXPECT_EQ(full.exit_code, 1);
  EXPECT_NE(full.err.find("schedlab: error: standard output: write failed: No space left on device"), std::string::npos)
      << full.err;
}

TEST(CliSweep, InterruptedSweepResumesToTheSameRows) {
  TempDir dir;
  write_file(dir.file("s.toml"), "logs = '" + bundled_kth() +
                                     "'\nschedulers = ['conservative', 'easy']\nseeds = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]\n"
                                     "loads = [0.75, 0.8]\n");
  const CliResult full = run_cli({"sweep", dir.file("s.toml"), "-o", dir.file("full.csv"), "--threads", "2"});
  ASSERT_EQ(full.exit_code, 0) << full.err;
  // Ctrl-C once the first row is out (a fixed 0.5 s came before the log was read in a sanitizer build): whole rows
  // only, a prefix of the run order, exit 130. (The braces quiet the shell's own error while the file is not there.)
  const std::string out = dir.file("cut.csv");
  const std::string cmd = "bash -c '" + std::string(SCHEDLAB_CLI) + " sweep " + dir.file("s.toml") + " -o " + out +
                          " --threads 2 2>/dev/null >/dev/null & pid=$!; for i in $(seq 6000); do "
                          "[ \"$({ wc -l < " + out + "; } 2>/dev/null || echo 0)\" -ge 2 ] && break; sleep 0.01; done; "
                          "kill -INT $pid; wait $pid'";
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  const std::string cut = read_file(dir.file("cut.csv"));
  ASSERT_FALSE(cut.empty());
  EXPECT_EQ(cut.back(), '\n');
  const auto cut_rows = without_wall(cut), full_rows = without_wall(read_file(dir.file("full.csv")));
  ASSERT_LT(cut_rows.size(), full_rows.size());
  for (size_t i = 0; i < cut_rows.size(); ++i) EXPECT_EQ(cut_rows[i], full_rows[i]) << i;
  const CliResult resume = run_cli({"sweep", dir.file("s.toml"), "-o", dir.file("cut.csv")});
  ASSERT_EQ(resume.exit_code, 0) << resume.err;
  EXPECT_NE(resume.out.find(std::to_string(cut_rows.size() - 1) + " already there"), std::string::npos) << resume.out;
  EXPECT_EQ(without_wall(read_file(dir.file("cut.csv"))), full_rows);
}

TEST(CliSweep, SlurmArrayShardsCollectToTheLocalRows) {
  TempDir dir;
  write_file(dir.file("s.toml"),
             "logs = '" + bundled_kth() + "'\nschedulers = ['fcfs', 'easy', 'easy-sjbf']\nseeds = [1, 2]\n");
  ASSERT_EQ(run_cli({"sweep", dir.file("s.toml"), "-o", dir.file("local.csv")}).exit_code, 0);
  const CliResult w = run_cli({"sweep", dir.file("s.toml"), "--slurm", dir.file("array"), "--array-size", "4",
                               "--partition", "debug", "--time", "0:10:00"});
  ASSERT_EQ(w.exit_code, 0) << w.err;
  const std::string sbatch = read_file(dir.file("array/sweep.sbatch"));
  EXPECT_NE(sbatch.find("#SBATCH --array=0-3\n"), std::string::npos) << sbatch;
  EXPECT_NE(sbatch.find("#SBATCH --partition=debug\n"), std::string::npos);
  EXPECT_NE(sbatch.find("#SBATCH --time=0:10:00\n"), std::string::npos);
  EXPECT_NE(sbatch.find("--shard \"${SLURM_ARRAY_TASK_ID}/4\""), std::string::npos);
  // Run the tasks as Slurm would (the script's own command line), all but task 2.
  for (const char* task : {"0", "1", "3"}) {
    const std::string cmd = "SLURM_ARRAY_TASK_ID=" + std::string(task) + " bash " + dir.file("array/sweep.sbatch") +
                            " >/dev/null 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  }
  const CliResult missing = run_cli({"sweep", "collect", dir.file("array"), "-o", dir.file("merged.csv")});
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.err.find("1 of 4 shards is missing or incomplete: 2"), std::string::npos) << missing.err;
  EXPECT_NE(missing.err.find("sbatch --array=2 " + dir.file("array") + "/sweep.sbatch"), std::string::npos);
  ASSERT_EQ(std::system(("SLURM_ARRAY_TASK_ID=2 bash " + dir.file("array/sweep.sbatch") + " >/dev/null 2>&1").c_str()), 0);
  const CliResult ok = run_cli({"sweep", "collect", dir.file("array"), "-o", dir.file("merged.csv")});
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(without_wall(read_file(dir.file("merged.csv"))), without_wall(read_file(dir.file("local.csv"))));
  const CliResult to_stdout = run_cli({"sweep", "collect", dir.file("array"), "-o", "-"});
  ASSERT_EQ(to_stdout.exit_code, 0) << to_stdout.err;
  EXPECT_EQ(to_stdout.out, read_file(dir.file("merged.csv")));
  EXPECT_NE(to_stdout.err.find("standard output: 6 runs from 4 shards"), std::string::npos) << to_stdout.err;
  // The spec edited after the array was written: a task refuses to start rather than mix two run sets.
  write_file(dir.file("s.toml"),
             "logs = '" + bundled_kth() + "'\nschedulers = ['fcfs', 'easy', 'conservative']\nseeds = [1, 2]\n");
  const std::string task = "SLURM_ARRAY_TASK_ID=1 bash " + dir.file("array/sweep.sbatch") + " 2>&1";
  FILE* p = ::popen(task.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p) != nullptr) out += buf;
  EXPECT_EQ(WEXITSTATUS(::pclose(p)), 1) << out;
  EXPECT_NE(out.find("s.toml: the spec's 6 runs are not the runs its Slurm array was written for"), std::string::npos)
      << out;
}

// The spec named by a relative path, its log relative to it, a predictor file relative to the working directory:
// the array's script reads the spec by its absolute path, and its tasks run from wherever sbatch is run. Before,
// the runs' log cell was the spec's directory joined to the log as the path was spelt ("data/kth.swf.gz" here,
// DIR/data/kth.swf.gz in a task), so every task of such an array refused to start ("the spec changed"), and a
// sweep resumed through another spelling of the spec's path was refused too. The tasks now also start in the
// directory the array was written from, where the predictor's file was found.
TEST(CliSweep, ASpecNamedByARelativePathGivesTheSameRuns) {
  TempDir dir;
  std::filesystem::create_directories(dir.file("data"));
  std::filesystem::copy_file(bundled_kth(), dir.file("data/kth.swf.gz"));
  write_file(dir.file("s.toml"), "logs = ['data/kth.swf.gz']\nschedulers = ['fcfs', 'easy']\n"
                                 "predictors = ['estimate', 'profiler:train=data/kth.swf.gz']\n");
  const std::string cli = SCHEDLAB_CLI;
  const auto sh = [&](const std::string& cmd) { return std::system(("bash -c '" + cmd + "' >/dev/null 2>&1").c_str()); };
  ASSERT_EQ(sh("cd " + dir.path() + " && " + cli + " sweep s.toml -o local.csv"), 0);
  const auto local = without_wall(read_file(dir.file("local.csv")));
  ASSERT_EQ(local.size(), 5u);
  EXPECT_EQ(local[1].substr(0, local[1].find(",fcfs,")), "0,data/kth.swf.gz");  // the log as the spec gives it
  // The same spec by its absolute path: the rows are there already.
  ASSERT_EQ(sh("cd " + dir.path() + " && " + cli + " sweep " + dir.file("s.toml") + " -o local.csv > resumed.txt"), 0);
  EXPECT_NE(read_file(dir.file("resumed.txt")).find("4 runs: 0 run now, 4 already there"), std::string::npos);
  ASSERT_EQ(sh("cd " + dir.path() + " && " + cli + " sweep s.toml --slurm array --array-size 2"), 0);
  for (const char* task : {"0", "1"})
    ASSERT_EQ(sh("cd / && SLURM_ARRAY_TASK_ID=" + std::string(task) + " bash " + dir.file("array/sweep.sbatch")), 0)
        << task;
  const CliResult ok = run_cli({"sweep", "collect", dir.file("array"), "-o", dir.file("merged.csv")});
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(without_wall(read_file(dir.file("merged.csv"))), local);
}

// A predictor's files (profiler train= and db=) are read from the spec's directory, as its logs are: a spec beside
// its files worked only when run from its own directory ("cannot open kth.swf.gz" from anywhere else).
TEST(CliSweep, APredictorsFilesAreReadFromTheSpecsDirectory) {
  TempDir dir;
  std::filesystem::create_directories(dir.file("exp"));
  std::filesystem::copy_file(bundled_kth(), dir.file("exp/kth.swf.gz"));
  ASSERT_EQ(run_cli({"profiler", "ingest", "--db", dir.file("exp/prof.sqlite"), dir.file("exp/kth.swf.gz")}).exit_code,
            0);
  write_file(dir.file("exp/s.toml"), "logs = ['kth.swf.gz']\nschedulers = ['easy']\n"
                                     "predictors = ['profiler:train=kth.swf.gz', 'profiler:db=prof.sqlite']\n");
  const std::string cli = SCHEDLAB_CLI;
  const auto sh = [&](const std::string& cmd) {
    return std::system(("bash -c '" + cmd + "' >/dev/null 2>&1").c_str());
  };
  ASSERT_EQ(sh("cd " + dir.path() + " && " + cli + " sweep exp/s.toml -o r.csv"), 0);
  const auto rows = without_wall(read_file(dir.file("r.csv")));
  ASSERT_EQ(rows.size(), 3u);
  // The cells are the spec's text; both runs learned KTH (a training log and its database give the same run).
  EXPECT_NE(rows[1].find(",easy,profiler:train=kth.swf.gz,"), std::string::npos) << rows[1];
  EXPECT_NE(rows[2].find(",easy,profiler:db=prof.sqlite,"), std::string::npos) << rows[2];
  const auto metrics = [](const std::string& row) { return row.substr(row.find(",ok,")); };
  EXPECT_EQ(metrics(rows[1]), metrics(rows[2]));
  // Run from the spec's own directory, the same rows.
  ASSERT_EQ(sh("cd " + dir.path() + "/exp && " + cli + " sweep s.toml -o here.csv"), 0);
  EXPECT_EQ(without_wall(read_file(dir.file("exp/here.csv"))), rows);
  // A file that is not beside the spec is named as the spec's directory joins it.
  write_file(dir.file("exp/bad.toml"), "logs = ['kth.swf.gz']\nschedulers = ['easy']\n"
                                       "predictors = ['profiler:db=missing.sqlite']\n");
  const CliResult bad = run_cli({"sweep", dir.file("exp/bad.toml"), "-o", dir.file("bad.csv")});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find(dir.file("exp/missing.sqlite")), std::string::npos) << bad.err;
  // A scheduler or predictor read from a file ("@PATH") too.
  write_file(dir.file("exp/c.spec"), "conservative:compress=fixpoint\n");
  write_file(dir.file("exp/p.spec"), "profiler:train=kth.swf.gz\n");
  write_file(dir.file("exp/at.toml"), "logs = ['kth.swf.gz']\nschedulers = ['@c.spec']\npredictors = ['@p.spec']\n");
  ASSERT_EQ(sh("cd " + dir.path() + " && " + cli + " sweep exp/at.toml -o at.csv"), 0);
  const auto at = without_wall(read_file(dir.file("at.csv")));
  ASSERT_EQ(at.size(), 2u);
  EXPECT_NE(at[1].find(",@c.spec,@p.spec,"), std::string::npos) << at[1];
  // Nested: a candidate's "@PATH" inside a scheduler's parameter is read from the sweep spec's directory, and
  // the paths inside a spec file from that file's directory (sub/p.spec trains on ../kth.swf.gz). The old code
  // read both from the working directory: "'c.spec': cannot be read", "'kth.swf.gz'".
  std::filesystem::create_directories(dir.file("exp/sub"));
  write_file(dir.file("exp/sub/p.spec"), "profiler:train=../kth.swf.gz\n");
  write_file(dir.file("exp/nested.toml"), "logs = ['kth.swf.gz']\nschedulers = ['pbas:candidates=[@c.spec,easy]']\n"
                                          "predictors = ['@sub/p.spec']\n");
  ASSERT_EQ(sh("cd " + dir.path() + " && " + cli + " sweep exp/nested.toml -o nested.csv"), 0);
  const auto nested = without_wall(read_file(dir.file("nested.csv")));
  ASSERT_EQ(nested.size(), 2u);
  EXPECT_NE(nested[1].find(",@sub/p.spec,"), std::string::npos) << nested[1];
  EXPECT_NE(nested[1].find(",ok,"), std::string::npos) << nested[1];
}

TEST(CliSweep, ResumingAfterTheSpecChangedIsRefused) {
  TempDir dir;
  write_file(dir.file("s.toml"), "logs = '" + bundled_kth() + "'\nschedulers = ['fcfs', 'easy']\nloads = [0.6, 0.7]\n");
  ASSERT_EQ(run_cli({"sweep", dir.file("s.toml"), "-o", dir.file("r.csv")}).exit_code, 0);
  const std::string before = read_file(dir.file("r.csv"));
  // conservative inserted before easy: run 2 is now conservative at 0.6, and the file's row 2 is easy at 0.6.
  write_file(dir.file("s.toml"),
             "logs = '" + bundled_kth() + "'\nschedulers = ['fcfs', 'conservative', 'easy']\nloads = [0.6, 0.7]\n");
  const CliResult r = run_cli({"sweep", dir.file("s.toml"), "-o", dir.file("r.csv")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("r.csv:4: run 2 was 2," + bundled_kth() + ",easy,"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the spec changed since this output was written; write to a new file"), std::string::npos);
  EXPECT_EQ(read_file(dir.file("r.csv")), before);
}

// Two sweeps writing one output interleaved their rows into a file neither could resume, and both said they were
// complete. A sweep locks its output for its whole run; a second one is refused and changes nothing.
TEST(CliSweep, ASecondSweepIntoTheSameOutputIsRefused) {
  TempDir dir;
  write_file(dir.file("s.toml"), "logs = '" + bundled_kth() + "'\nschedulers = ['fcfs', 'easy']\n");
  ASSERT_EQ(run_cli({"sweep", dir.file("s.toml"), "-o", dir.file("r.csv")}).exit_code, 0);
  const std::string before = read_file(dir.file("r.csv"));
  const int fd = ::open(dir.file("r.csv").c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX), 0);  // as a running sweep holds it
  const CliResult r = run_cli({"sweep", dir.file("s.toml"), "-o", dir.file("r.csv")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("r.csv: another sweep is writing to this file"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(dir.file("r.csv")), before);
  ::close(fd);
}

TEST(CliSweep, BadInputFailsBeforeAnythingRuns) {
  TempDir dir;
  write_file(dir.file("s.toml"), "logs = '" + bundled_kth() + "'\nschedulers = ['easy', 'nosuch']\n");
  const CliResult r = run_cli({"sweep", dir.file("s.toml"), "-o", dir.file("r.csv")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("s.toml:2: schedulers: 'nosuch'"), std::string::npos) << r.err;
  write_file(dir.file("t.toml"), "logs = 'missing.swf'\n");
  const CliResult m = run_cli({"sweep", dir.file("t.toml"), "-o", dir.file("r.csv")});
  EXPECT_EQ(m.exit_code, 1);
  EXPECT_NE(m.err.find("missing.swf"), std::string::npos) << m.err;
  // A log that cannot be read leaves no output behind (it left a header alone, as a sweep begun) and no
  // "0/0 runs done" above the error; an output that was there stays as it was.
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.csv")));
  EXPECT_EQ(m.err.find("runs done"), std::string::npos) << m.err;
  // Nor on standard output: the header went there before the log was read, a header with no rows for a pipe.
  const CliResult piped = run_cli({"sweep", dir.file("t.toml"), "-o", "-"});
  EXPECT_EQ(piped.exit_code, 1);
  EXPECT_EQ(piped.out, "");
  write_file(dir.file("kept.csv"), "");
  EXPECT_EQ(run_cli({"sweep", dir.file("t.toml"), "-o", dir.file("kept.csv")}).exit_code, 1);
  EXPECT_TRUE(std::filesystem::exists(dir.file("kept.csv")));
  const CliResult f = run_cli({"sweep", dir.file("s.toml"), "-o", dir.file("r.csv"), "--format", "xml"});
  EXPECT_EQ(f.exit_code, 1);
  write_file(dir.file("other.csv"), "a,b\n1,2\n");
  write_file(dir.file("u.toml"), "logs = '" + bundled_kth() + "'\n");
  const CliResult o = run_cli({"sweep", dir.file("u.toml"), "-o", dir.file("other.csv")});
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_NE(o.err.find("other.csv:1: not the header of a sweep output"), std::string::npos) << o.err;
  for (const std::string shard : {"1x/4", "1/4x", "4/4", "-1/4", "1"}) {  // std::stoi read "1x/4" as 1/4
    const CliResult s = run_cli({"sweep", dir.file("u.toml"), "-o", dir.file("s.csv"), "--shard", shard});
    EXPECT_EQ(s.exit_code, 1) << shard;
    EXPECT_NE(s.err.find("--shard " + shard + ": expected i/K with 0 <= i < K"), std::string::npos) << s.err;
  }
}

// A header value the reader ignores is warned about once per log, before the runs (the sweep used the largest job
// as the machine size without a word, where `simulate` on the same log warned).
TEST(CliSweep, HeaderProblemsOfTheLogsAreWarnedAbout) {
  TempDir dir;
  write_file(dir.file("h.swf"), "; MaxProcs: abc\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n");
  write_file(dir.file("s.toml"), "logs = 'h.swf'\nschedulers = ['fcfs', 'easy']\n");
  const CliResult r = run_cli({"sweep", dir.file("s.toml"), "-o", dir.file("r.csv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string warning = "schedlab: warning: " + dir.file("h.swf") +
                              ": header line 1: MaxProcs: cannot parse 'abc' as a non-negative integer (ignored)\n";
  ASSERT_NE(r.err.find(warning), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(warning), r.err.rfind(warning)) << "once per log, not per run: " << r.err;
  EXPECT_EQ(lines_of(read_file(dir.file("r.csv"))).size(), 3u);
}

// A preempted job's partial-execution lines are left out of the runs' jobs, and said once per log.
TEST(CliSweep, PartialExecutionLinesLeftOutAreSaidOnce) {
  TempDir dir;
  write_file(dir.file("p.swf"), "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n"
                                "1 -1 0 4 1 -1 -1 1 10 -1 2 1 1 1 1 1 -1 -1\n"
                                "2 5 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n");
  write_file(dir.file("s.toml"), "logs = 'p.swf'\nschedulers = ['fcfs', 'easy']\n");
  const CliResult r = run_cli({"sweep", dir.file("s.toml"), "-o", dir.file("r.csv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string note = dir.file("p.swf") + ": 1 partial-execution line (status 2-4 after their job's summary line; "
                                               "the first at line 3) left out";
  ASSERT_NE(r.err.find(note), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(note), r.err.rfind(note)) << "once per log, not per run: " << r.err;
  const auto rows = lines_of(read_file(dir.file("r.csv")));
  ASSERT_EQ(rows.size(), 3u);
}

}  // namespace
}  // namespace schedlab::testing
