// `schedlab generate profiler-experiment` through the built binary.
#include <filesystem>
#include <map>
#include <vector>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "schedlab/swf/reader.h"
#include "schedlab/swf/writer.h"
#include "test_util.h"

namespace schedlab::testing {
namespace {

TEST(CliGenerate, ProfilerExperimentIsDeterministicAndValid) {
  TempDir dir;
  const auto gen = [&](const std::string& seed, const std::string& file) {
    return run_cli({"generate", "profiler-experiment", "--seed", seed, "-o", dir.file(file)});
  };
  const CliResult a = gen("5", "a.swf");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(gen("5", "b.swf").exit_code, 0);
  ASSERT_EQ(gen("6", "c.swf").exit_code, 0);
  const std::string text = read_file(dir.file("a.swf"));
  EXPECT_EQ(text, read_file(dir.file("b.swf")));
  EXPECT_NE(text, read_file(dir.file("c.swf")));
  EXPECT_NE(a.out.find("200 jobs of the profiler experiment"), std::string::npos) << a.out;

  const swf::Log log = swf::read_log(dir.file("a.swf"));
  ASSERT_EQ(log.records.size(), 200u);
  EXPECT_EQ(log.header.max_procs, 16);
  for (const auto& w : log.report.warnings) EXPECT_EQ(w.count, 0);
  for (const auto& r : log.records) {
    EXPECT_GE(r.requested_procs, 2);
    EXPECT_LE(r.requested_procs, 16);
    EXPECT_GE(r.executable, 1);
    EXPECT_LE(r.executable, 13);
    EXPECT_EQ(r.requested_time, r.run_time);
  }
  // The generated log can be simulated as is on its 16 processors.
  const CliResult sim = run_cli({"simulate", dir.file("a.swf"), "--scheduler", "fcfs", "--json"});
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  EXPECT_NE(sim.out.find("200"), std::string::npos);
}

TEST(CliGenerate, TrainingLogAndJsonReport) {
  TempDir dir;
  const CliResult r = run_cli({"generate", "profiler-experiment", "--seed", "2", "-o", dir.file("exp.swf.gz"),
                               "--jobs", "50", "--training-out", dir.file("train.swf"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["jobs"], 50);
  EXPECT_EQ(j["training"]["runs_per_executable"], 25);  // the thesis's 25 when only the file is named
  EXPECT_EQ(j["training"]["records"], 325);
  int64_t per_exe_total = 0;
  for (const auto& e : j["executables"]) per_exe_total += e["jobs"].get<int64_t>();
  EXPECT_EQ(per_exe_total, 50);
  EXPECT_EQ(swf::read_log(dir.file("exp.swf.gz")).records.size(), 50u);
  const swf::Log train = swf::read_log(dir.file("train.swf"));
  std::map<int32_t, int> per_exe;
  for (const auto& rec : train.records) ++per_exe[rec.executable];
  EXPECT_EQ(per_exe.size(), 13u);
  for (const auto& [exe, n] : per_exe) EXPECT_EQ(n, 25) << exe;

  // Asking for training runs does not change the experiment itself.
  ASSERT_EQ(run_cli({"generate", "profiler-experiment", "--seed", "2", "-o", dir.file("plain.swf.gz"), "--jobs", "50"})
                .exit_code,
            0);
  EXPECT_EQ(swf::read_log(dir.file("plain.swf.gz")).records, swf::read_log(dir.file("exp.swf.gz")).records);

  const CliResult k = run_cli({"generate", "profiler-experiment", "-o", dir.file("e.swf"), "--training-runs", "3",
                               "--training-out", dir.file("t.swf")});
  ASSERT_EQ(k.exit_code, 0) << k.err;
  EXPECT_EQ(swf::read_log(dir.file("t.swf")).records.size(), 39u);
}

TEST(CliGenerate, ToStandardOutputAndErrors) {
  const CliResult out = run_cli({"generate", "profiler-experiment", "--jobs", "3", "-o", "-"});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_EQ(swf::parse_log(out.out).records.size(), 3u);
  TempDir dir;
  EXPECT_EQ(run_cli({"generate", "profiler-experiment", "-o", dir.file("x.swf"), "--jobs", "0"}).exit_code, 1);
  EXPECT_EQ(run_cli({"generate", "profiler-experiment", "-o", dir.file("x.swf"), "--mean-interarrival", "-3"})
                .exit_code,
            1);
  const CliResult no_file =
      run_cli({"generate", "profiler-experiment", "-o", dir.file("x.swf"), "--training-runs", "5"});
  EXPECT_EQ(no_file.exit_code, 1);
  EXPECT_NE(no_file.err.find("--training-out"), std::string::npos);
  EXPECT_EQ(run_cli({"generate", "profiler-experiment"}).exit_code, 2);  // -o is required
  EXPECT_EQ(run_cli({"generate"}).exit_code, 2);                         // a generator is required
  EXPECT_EQ(run_cli({"generate", "profiler-experiment", "-o", dir.file("x.swf"), "--training-out",
                     dir.file("x.swf")})
                .exit_code,
            1);
  // The training log on standard output: the summary goes to standard error (it followed the SWF there).
  const CliResult training = run_cli({"generate", "profiler-experiment", "--jobs", "3", "-o", dir.file("x.swf"),
                                      "--training-out", "-", "--training-runs", "2"});
  ASSERT_EQ(training.exit_code, 0) << training.err;
  EXPECT_EQ(swf::parse_log(training.out, "stdout").records.size(), 26u);  // 13 executables x 2
  EXPECT_NE(training.err.find("training log standard output: 2 runs of each executable"), std::string::npos)
      << training.err;
}


TEST(CliGenerateTalby, FitSaveReuseAndDeterminism) {
  TempDir dir;
  const std::string kth = bundled_kth();
  const CliResult save = run_cli({"generate", "talby", "--fit", kth, "--save-job-model", dir.file("kth.json")});
  ASSERT_EQ(save.exit_code, 0) << save.err;
  EXPECT_NE(save.out.find("8,280 sessions"), std::string::npos) << save.out;
  const auto gen = [&](std::vector<std::string> extra, const std::string& file) {
    std::vector<std::string> args = {"generate", "talby", "--procs", "256", "--weeks", "12", "-o", dir.file(file)};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args);
  };
  const CliResult a = gen({"--job-model", dir.file("kth.json"), "--seed", "3"}, "a.swf");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_NE(a.out.find("jobs over 12 weeks from Talby's user/session model, seed 3"), std::string::npos) << a.out;
  ASSERT_EQ(gen({"--fit", kth, "--seed", "3", "--threads", "1"}, "b.swf").exit_code, 0);  // default fit = KTH
  ASSERT_EQ(gen({"--seed", "4"}, "c.swf").exit_code, 0);
  const std::string text = read_file(dir.file("a.swf"));
  EXPECT_EQ(text, read_file(dir.file("b.swf")));  // a saved job layer gives the same log as the fit
  EXPECT_NE(text, read_file(dir.file("c.swf")));
  const swf::Log log = swf::read_log(dir.file("a.swf"));
  EXPECT_EQ(log.header.max_procs, 256);
  EXPECT_EQ(log.header.unix_start_time, 1136160000);
  ASSERT_GE(log.header.notes.size(), 3u);
  EXPECT_NE(log.header.notes[1].find("procs 256 (given), cpu_work"), std::string::npos) << log.header.notes[1];
  EXPECT_NE(log.header.notes[1].find("weeks 12, seed 3"), std::string::npos);
  for (const auto& w : log.report.warnings) EXPECT_EQ(w.count, 0);
  // The log simulates as is.
  const CliResult sim = run_cli({"simulate", dir.file("a.swf"), "--scheduler", "easy", "--json"});
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  // The job layer on standard output is the JSON alone (the summary followed it there), the same as the file's.
  const CliResult to_stdout = run_cli({"generate", "talby", "--fit", kth, "--save-job-model", "-"});
  ASSERT_EQ(to_stdout.exit_code, 0) << to_stdout.err;
  EXPECT_EQ(nlohmann::json::parse(to_stdout.out), nlohmann::json::parse(read_file(dir.file("kth.json"))));
  EXPECT_NE(to_stdout.err.find("standard output: the job layer fitted on"), std::string::npos) << to_stdout.err;
  const CliResult both = run_cli({"generate", "talby", "--procs", "128", "-o", "-", "--save-job-model", "-"});
  EXPECT_EQ(both.exit_code, 1);
  EXPECT_NE(both.err.find("-o and --save-job-model are both standard output"), std::string::npos) << both.err;
}

TEST(CliGenerateTalby, JsonReportAndGuidelineWarnings) {
  TempDir dir;
  const CliResult r = run_cli({"generate", "talby", "--procs", "64", "--weeks", "4", "-o", dir.file("x.swf"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: --procs 64 is outside the model's range"), std::string::npos) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["parameters"]["procs"], 64);
  EXPECT_EQ(j["parameters"]["load_from"], "Table 28");
  EXPECT_EQ(j["jobs"]["total"].get<size_t>(), swf::read_log(dir.file("x.swf")).records.size());
  int64_t sessions = 0;
  for (const auto& [name, n] : j["sessions"]["by_class"].items()) sessions += n.get<int64_t>();
  EXPECT_EQ(sessions, j["sessions"]["total"].get<int64_t>());
  // The JSON carries the warnings printed on standard error, and the job layer's source.
  ASSERT_FALSE(j["warnings"].empty());
  for (const auto& w : j["warnings"])
    EXPECT_NE(r.err.find("schedlab: warning: " + w.get<std::string>()), std::string::npos) << w;
  EXPECT_EQ(j["job_model"]["source"], "KTH-SP2-1996-2.swf.gz (bundled)");
  EXPECT_EQ(j["weeks"], 4);
}

// Table 28's work for a very large machine is a fraction of a second: it printed as "cpu work 0 s".
TEST(CliGenerateTalby, SmallCpuWorkIsPrintedWithItsDigits) {
  TempDir dir;
  const CliResult r = run_cli({"generate", "talby", "--procs", "100000", "--weeks", "1", "-o", dir.file("x.swf")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("meta-model: procs 100000 (given), cpu work 0.071 s (Table 28)"), std::string::npos) << r.out;
  const CliResult given = run_cli({"generate", "talby", "--procs", "128", "--cpu-work", "1234.6", "--weeks", "1", "-o",
                                   dir.file("y.swf")});
  EXPECT_NE(given.out.find("cpu work 1235 s (given)"), std::string::npos) << given.out;
  // A huge one with an exponent (1e300 printed 301 digits), and a warning that the model ends before it.
  const CliResult huge = run_cli({"generate", "talby", "--procs", "128", "--cpu-work", "1e300", "--weeks", "1", "-o",
                                  dir.file("z.swf")});
  EXPECT_NE(huge.out.find("cpu work 1e+300 s (given)"), std::string::npos) << huge.out;
  EXPECT_NE(huge.err.find("warning: --cpu-work 1e+300 s is outside the 13-750 s"), std::string::npos) << huge.err;
}

TEST(CliGenerateTalby, BadInputNamesTheParameter) {
  TempDir dir;
  const auto fails_with = [&](std::vector<std::string> args, const std::string& message) {
    args.insert(args.begin(), {"generate", "talby"});
    const CliResult r = run_cli(args);
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  };
  fails_with({"--procs", "128", "--weeks", "0", "-o", dir.file("x.swf")}, "--weeks must be in 1..1040");
  fails_with({"--procs", "0", "-o", dir.file("x.swf")}, "--procs must be in 1..2147483647 (got 0)");
  fails_with({"--procs", "128", "--load", "2", "-o", dir.file("x.swf")}, "--load must be");
  fails_with({"--cpu-work", "100", "-o", dir.file("x.swf")}, "give --procs");
  fails_with({"--procs", "128"}, "--output is required: -o FILE");
  swf::write_text_file(dir.file("bad.json"), "{\"model\": \"talby-job-layer\", \"version\": 1}");
  fails_with({"--procs", "128", "--job-model", dir.file("bad.json"), "-o", dir.file("x.swf")},
             "bad.json: source: missing");
  fails_with({"--procs", "128", "--fit", dir.file("bad.json"), "--job-model", dir.file("bad.json"), "-o",
              dir.file("x.swf")},
             "--fit and --job-model");
  swf::write_text_file(dir.file("noest.swf"), "; UnixStartTime: 1000\n; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n");
  fails_with({"--procs", "128", "--fit", dir.file("noest.swf"), "-o", dir.file("x.swf")}, "no job has an estimate");
}

TEST(CliAnalyzeDistance, ALogIsAtDistanceZeroFromItself) {
  const std::string kth = bundled_kth();
  const CliResult r = run_cli({"analyze", "distance", kth, kth, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  for (const auto& [name, a] : j["attributes"].items()) {
    EXPECT_EQ(a["ks"], 0.0) << name;
    EXPECT_EQ(a["median_a"], a["median_b"]) << name;
  }
  EXPECT_EQ(j["a"]["procs"], 100);
  const CliResult text = run_cli({"analyze", "distance", kth, kth});
  EXPECT_NE(text.out.find("runtime           28,489    28,489         847         847   0.000"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("interarrival      28,488    28,488"), std::string::npos) << text.out;  // (no first)
  EXPECT_EQ(text.out.find("left out"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("no estimate"), std::string::npos) << text.out;  // KTH's jobs all have one
}

// The jobs of each distribution are counted, and the records in none (no submit time) said: the text showed
// medians alone, so a log with gaps compared as if whole.
TEST(CliAnalyzeDistance, TheJobsLeftOutAreCounted) {
  TempDir dir;
  write_file(dir.file("a.swf"), "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 100 -1 1 1 -1 -1 -1 -1 -1 -1\n"
                                "2 -1 0 20 1 -1 -1 1 100 -1 1 1 -1 -1 -1 -1 -1 -1\n"
                                "3 60 0 -1 1 -1 -1 1 100 -1 1 1 -1 -1 -1 -1 -1 -1\n"
                                "4 90 0 30 1 -1 -1 1 100 -1 1 1 -1 -1 -1 -1 -1 -1\n");
  const CliResult r = run_cli({"analyze", "distance", dir.file("a.swf"), dir.file("a.swf")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("A: " + dir.file("a.swf") + " (4 processors; 1 of 4 records without a submit time left out)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\nruntime                2         2 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nprocs                  3         3 "), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(run_cli({"analyze", "distance", dir.file("a.swf"), dir.file("a.swf"),
                                                "--json"}).out);
  EXPECT_EQ(j["a"]["records"], 4);
  EXPECT_EQ(j["a"]["excluded_unknown_submit_time"], 1);
  EXPECT_EQ(j["attributes"]["runtime"]["count_a"], 2);
}

// A log without estimates has its runtimes stand in (the convention): the estimate row then compares one log's
// runtimes with the other's estimates, which the output says (it did not).
TEST(CliAnalyzeDistance, ALogWithoutEstimatesIsSaid) {
  TempDir dir;
  write_file(dir.file("a.swf"), "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n"
                                "2 60 0 20 1 -1 -1 1 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n");
  write_file(dir.file("b.swf"), "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 100 -1 1 1 -1 -1 -1 -1 -1 -1\n"
                                "2 60 0 20 1 -1 -1 1 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n");
  const CliResult r = run_cli({"analyze", "distance", dir.file("a.swf"), dir.file("b.swf")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\nestimate: 2 of A's 2 jobs have no estimate (field 9): their runtime stands in, so its "
                       "estimates are its runtimes\nestimate: 1 of B's 2 jobs has no estimate (field 9): their "
                       "runtime stands in\n"),
            std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(run_cli({"analyze", "distance", dir.file("a.swf"), dir.file("b.swf"),
                                                "--json"}).out);
  EXPECT_EQ(j["attributes"]["estimate"]["estimate_from_runtime_a"], 2);
  EXPECT_EQ(j["attributes"]["estimate"]["estimate_from_runtime_b"], 1);
  EXPECT_FALSE(j["attributes"]["runtime"].contains("estimate_from_runtime_a"));
  const CliResult d = run_cli({"analyze", "diversity", dir.file("a.swf"), dir.file("b.swf"), "--attribute",
                               "estimate", "--bins", "2", "--bootstrap", "0"});
  ASSERT_EQ(d.exit_code, 0) << d.err;
  EXPECT_NE(d.out.find("\na.swf: 2 of 2 jobs have no estimate (field 9): their runtime stands in\n"
                       "b.swf: 1 of 2 jobs has no estimate (field 9): their runtime stands in\n"),
            std::string::npos) << d.out;
  const auto dj = nlohmann::json::parse(run_cli({"analyze", "diversity", dir.file("a.swf"), dir.file("b.swf"),
                                                 "--attribute", "estimate", "--bins", "2", "--bootstrap", "0",
                                                 "--json"}).out);
  EXPECT_EQ(dj["logs"][0]["jobs_estimate_from_runtime"], 2);
  EXPECT_EQ(dj["logs"][1]["jobs_estimate_from_runtime"], 1);
}

}  // namespace
}  // namespace schedlab::testing

namespace schedlab {
namespace {

TEST(GenerateLocalityCliTest, WritesAModelLogAndAScrambledOne) {
  schedlab::testing::TempDir dir;
  const std::string src = dir.file("src.swf"), out = dir.file("model.swf"), scr = dir.file("scrambled.swf.gz");
  schedlab::testing::write_file(src,
                                "; MaxProcs: 16\n"
                                "1 0 5 100 4 -1 -1 4 200 -1 1 7 1 3 -1 -1 -1 -1\n"
                                "2 50 5 10 2 -1 -1 2 20 -1 1 8 1 4 -1 -1 -1 -1\n"
                                "3 90 5 1000 8 -1 -1 8 2000 -1 1 9 1 5 -1 -1 -1 -1\n");
  auto r = schedlab::testing::run_cli({"generate", "locality", "--from", src, "--theta", "2", "--jobs", "50", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("50 jobs"), std::string::npos) << r.out;
  auto stats = schedlab::testing::run_cli({"stats", out, "--json"});
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_NE(stats.out.find("\"records\": 50"), std::string::npos);
  const std::string text = schedlab::testing::read_file(out);
  EXPECT_NE(text.find("; MaxProcs: 16"), std::string::npos);
  EXPECT_NE(text.find("theta 2,"), std::string::npos);
  // Same seed, same bytes.
  const std::string again = dir.file("again.swf");
  ASSERT_EQ(schedlab::testing::run_cli({"generate", "locality", "--from", src, "--theta", "2", "--jobs", "50", "-o", again}).exit_code, 0);
  EXPECT_EQ(schedlab::testing::read_file(again), text);
  r = schedlab::testing::run_cli({"generate", "scramble", "--from", src, "-o", scr});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  stats = schedlab::testing::run_cli({"stats", scr, "--json"});
  EXPECT_NE(stats.out.find("\"records\": 3"), std::string::npos) << stats.out;
}

TEST(GenerateLocalityCliTest, BadOptionsAreNamed) {
  schedlab::testing::TempDir dir;
  const std::string src = dir.file("src.swf");
  schedlab::testing::write_file(src, "1 0 5 100 4 -1 -1 4 200 -1 1 7 1 3 -1 -1 -1 -1\n2 50 5 10 2 -1 -1 2 20 -1 1 8 1 4 -1 -1 -1 -1\n");
  auto r = schedlab::testing::run_cli({"generate", "locality", "--from", src, "--theta", "1", "-o", dir.file("x.swf")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--theta must be > 1"), std::string::npos) << r.err;
  r = schedlab::testing::run_cli({"generate", "locality", "--from", src, "--jobs", "-3", "-o", dir.file("x.swf")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--jobs"), std::string::npos) << r.err;
  r = schedlab::testing::run_cli({"generate", "locality", "--from", dir.file("missing.swf"), "-o", dir.file("x.swf")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("missing.swf"), std::string::npos) << r.err;
  r = schedlab::testing::run_cli({"generate", "locality", "--from", src, "--repeat", "users", "-o", dir.file("x.swf")});
  EXPECT_EQ(r.exit_code, 2);
  // An option the model checks is named before the log is read (the log does not exist here).
  r = schedlab::testing::run_cli(
      {"generate", "locality", "--from", dir.file("missing.swf"), "--think", "-1", "-o", dir.file("x.swf")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--think must be >= 0"), std::string::npos) << r.err;
  // Job numbers are 32-bit; and two billion jobs (320 GB) are refused by name before the log is read, where
  // they used to be "std::bad_alloc" or the kernel's OOM killer.
  r = schedlab::testing::run_cli(
      {"generate", "locality", "--from", dir.file("missing.swf"), "--jobs", "3000000000", "-o", dir.file("x.swf")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--jobs must be 1 to 2147483647, or 0 for as many as the log has (got 3000000000)"),
            std::string::npos)
      << r.err;
  r = schedlab::testing::run_cli(
      {"generate", "locality", "--from", dir.file("missing.swf"), "--jobs", "2147483647", "-o", dir.file("x.swf")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--jobs 2147483647 (160 bytes per job): about 320.0 GB of memory needed"), std::string::npos)
      << r.err;
  r = schedlab::testing::run_cli({"generate", "profiler-experiment", "--jobs", "2147483647", "-o", dir.file("x.swf")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("2147483647 jobs (160 bytes per job): about 320.0 GB of memory needed"), std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("x.swf")));
}

// A log the model cannot follow is named: all jobs at one instant leave no arrival rate.
TEST(GenerateLocalityCliTest, AnUnusableLogIsNamed) {
  schedlab::testing::TempDir dir;
  const std::string src = dir.file("instant.swf");
  schedlab::testing::write_file(src, "1 0 5 100 4 -1 -1 4 200 -1 1 7 1 3 -1 -1 -1 -1\n2 0 5 10 2 -1 -1 2 20 -1 1 8 1 4 -1 -1 -1 -1\n");
  const auto r = schedlab::testing::run_cli({"generate", "locality", "--from", src, "-o", dir.file("x.swf")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("instant.swf: the log's jobs all arrive at one instant"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace schedlab
