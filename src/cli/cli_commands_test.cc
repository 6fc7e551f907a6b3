// A mistyped or missing command is named, with the commands there are and the nearest one, and an unknown option
// gets the nearest option (exit 2). CLI11 said only "A subcommand is required" for `schedlab simulat log.swf`.
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "test_util.h"

namespace schedlab::testing {
namespace {

TEST(CliCommands, AMistypedOrMissingCommandIsNamed) {
  CliResult r = run_cli({"simulat", "log.swf"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("schedlab: error: 'simulat' is not a command of schedlab (stats, filter,"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("; did you mean 'simulate'?"), std::string::npos) << r.err;
  r = run_cli({"analyze", "tempral", "log.swf"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'tempral' is not a command of schedlab analyze (locality, diversity, runs, temporal, "
                       "distance); did you mean 'temporal'?"),
            std::string::npos)
      << r.err;
  r = run_cli({"frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;  // nothing near it
  r = run_cli({"estimates"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("schedlab estimates needs a command: bins, fit, generate, compare"), std::string::npos)
      << r.err;
  r = run_cli({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("schedlab needs a command: stats,"), std::string::npos) << r.err;
  // Options and the positionals of a command are not commands.
  EXPECT_EQ(run_cli({"estimates", "--help"}).exit_code, 0);
  EXPECT_EQ(run_cli({"--version"}).exit_code, 0);
  r = run_cli({"stats", "no-such.swf"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no-such.swf: cannot open"), std::string::npos) << r.err;
}

// A missing argument is a usage error (exit 2, with the pointer to the command's --help), whether CLI11 or the
// command finds it: `analyze diversity` with one log, `report` with neither a log nor --sweep, `sweep` without its
// spec exited 1, as bad input, while `analyze distance A` exited 2.
TEST(CliCommands, AMissingArgumentIsAUsageError) {
  const std::string kth = bundled_kth();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"analyze", "distance", kth}, "B is required"},
      {{"analyze", "diversity", kth}, "TRACE: diversity needs at least two logs (got 1)"},
      {{"report", "-o", "r.html"}, "give a LOG or --sweep results.csv (one of them)"},
      {{"report", kth, "--sweep", "r.csv", "-o", "r.html"}, "give a LOG or --sweep results.csv (one of them)"},
      {{"sweep", "-o", "r.csv"}, "SPEC is required: schedlab sweep SPEC.toml -o FILE"},
  };
  for (const auto& [args, message] : cases) {
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args[1] << ": " << r.err;
    EXPECT_NE(r.err.find("schedlab: error: " + message), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(" --help' for its arguments and options."), std::string::npos) << r.err;
  }
}

// An unknown option gets the nearest of the command's (CLI11 said only "The following arguments were not
// expected: 0.01 --warmup").
TEST(CliCommands, AnUnknownOptionGetsTheNearestOne) {
  CliResult r = run_cli({"simulate", "log.swf", "-s", "easy", "--warmup", "0.01"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("schedlab simulate has no option --warmup; did you mean --warmup-fraction?"), std::string::npos)
      << r.err;
  r = run_cli({"analyze", "locality", "log.swf", "--slices=3d"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("schedlab analyze locality has no option --slices; did you mean --slice?"), std::string::npos)
      << r.err;
  r = run_cli({"stats", "log.swf", "--frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
  // An option's name with more after it.
  r = run_cli({"compare", "log.swf", "-s", "easy,fcfs", "--baseline-scheduler", "fcfs"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("schedlab compare has no option --baseline-scheduler; did you mean --baseline?"),
            std::string::npos)
      << r.err;
}

// A value that is not one of an option's choices gets the nearest (CLI11 said only "usr not in {system,user,...}");
// the analyses' --attr is also --attribute, as the Python module names it.
TEST(CliCommands, AMistypedChoiceGetsTheNearestOne) {
  const std::string kth = bundled_kth();
  CliResult r = run_cli({"categorize", kth, "--groups", "usr"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("\nschedlab categorize: did you mean --groups user?\n"), std::string::npos) << r.err;
  r = run_cli({"analyze", "locality", kth, "--attribute", "runtme"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("\nschedlab analyze locality: did you mean --attribute runtime?\n"), std::string::npos) << r.err;
  r = run_cli({"categorize", kth, "--groups", "zzzzzz"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
  EXPECT_EQ(run_cli({"analyze", "locality", kth, "--attribute", "procs", "--bootstrap", "0", "--json"}).out,
            run_cli({"analyze", "locality", kth, "--attr", "procs", "--bootstrap", "0", "--json"}).out);
}

// A word given where the command takes none, or a required option left out, gets the option it was meant for: CLI11
// said only "The following argument was not expected: easy" or "--output is required" (and, for `sweep` and
// `generate talby` without -o, exit 1 as if the input were bad).
TEST(CliCommands, AStrayWordGetsTheOptionItWasMeantFor) {
  const std::string kth = bundled_kth();
  for (const auto& [args, hint] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"simulate", kth, "easy"}, "schedlab simulate: did you mean -s easy?"},
           {{"simulate", kth, "easy-sjbf:order=sjf;x=1"}, "schedlab simulate: did you mean -s 'easy-sjbf:order=sjf;x=1'?"},
           {{"compare", kth, "easy,fcfs"}, "schedlab compare: did you mean -s easy,fcfs?"},
           {{"predict", kth, "ruh"}, "schedlab predict: did you mean -p ruh?"},
           {{"filter", kth, "out.swf", "--min-procs", "32"}, "schedlab filter: did you mean -o out.swf?"},
           {{"generate", "scramble", kth, "out.swf"}, "schedlab generate scramble: did you mean --from " + kth + " -o out.swf?"},
           {{"profiler", "ingest", "p.db", kth}, "schedlab profiler ingest: did you mean --db p.db?"}}) {
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << hint;
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("\n" + hint + "\n"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("Run '" + hint.substr(0, hint.find(':')) + " --help'"), std::string::npos) << r.err;
  }
  // A word no option takes gets no guess.
  CliResult r = run_cli({"stats", kth, "extra"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
  r = run_cli({"report", kth});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("schedlab: error: --output is required"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
  // -o left out of sweep and generate talby is a usage error too.
  EXPECT_EQ(run_cli({"sweep", std::string(SCHEDLAB_SOURCE_DIR) + "/docs/sweep-example.toml"}).exit_code, 2);
  EXPECT_EQ(run_cli({"generate", "talby", "--procs", "128"}).exit_code, 2);
}

// An integer option takes decimal digits within its range: CLI11 read "010" as octal 8 (`--procs 010` simulated 8
// processors), "0x10" as 16, and clamped a number past 64 bits without a word (every seed past 2^64 - 1 gave one
// output, `--procs 99999999999999999999` simulated 9.2e18 processors).
TEST(CliCommands, IntegersAreDecimalAndInRange) {
  const std::string kth = bundled_kth();
  CliResult r = run_cli({"simulate", kth, "-s", "fcfs", "--procs", "010", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"procs\": 10,"), std::string::npos) << r.out.substr(0, 400);
  for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"simulate", kth, "-s", "fcfs", "--procs", "0x10"}, "--procs: '0x10' is not a whole number in decimal digits"},
           {{"simulate", kth, "-s", "fcfs", "--procs", "99999999999999999999"},
            "--procs: '99999999999999999999' is out of range (-9223372036854775808..9223372036854775807)"},
           {{"generate", "scramble", "--from", kth, "-o", "-", "--seed", "18446744073709551616"},
            "--seed: '18446744073709551616' is out of range (at most 18446744073709551615)"},
           {{"generate", "scramble", "--from", kth, "-o", "-", "--seed", "1e3"}, "--seed: '1e3' is not a whole number"}}) {
    r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << message;
    EXPECT_EQ(r.out, "") << message;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
  // Leading zeros and a plus sign are read as decimal; the largest seed is still one.
  EXPECT_EQ(run_cli({"generate", "scramble", "--from", kth, "-o", "-", "--seed", "007"}).out,
            run_cli({"generate", "scramble", "--from", kth, "-o", "-", "--seed", "+7"}).out);
  EXPECT_EQ(run_cli({"generate", "scramble", "--from", kth, "-o", "-", "--seed", "18446744073709551615"}).exit_code, 0);
}

// An empty value (an unset shell variable) is a usage error naming the option: simulate --jobs-out '' and compare
// --csv '' took it as "not given" and wrote nothing, filter -o '' said "'': cannot replace the file".
TEST(CliCommands, AnEmptyValueIsRefusedByName) {
  const std::string kth = bundled_kth();
  for (const auto& [args, option] :
       std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"simulate", kth, "-s", "easy", "--jobs-out", ""}, "--jobs-out"},
           {{"compare", kth, "-s", "easy,fcfs", "--csv", ""}, "--csv"},
           {{"sessions", kth, "--classify", "--users-output", ""}, "--users-output"},
           {{"filter", kth, "-o", ""}, "--output"},
           {{"stats", ""}, "TRACE"},
           {{"simulate", kth, "-s", "easy", "--seed", ""}, "--seed"}}) {
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args[0] << " " << option;
    EXPECT_EQ(r.out, "") << option;
    EXPECT_NE(r.err.find(option + ": an empty value"), std::string::npos) << r.err;
  }
}

// With its CSV on standard output a command prints no report: an option that only adds to the report did nothing
// there without a word (simulate --event-cost, compare --by-class, sessions --pca). Refused by name, before the log
// is read; with the CSV in a file, or an option that shapes the CSV, the command runs.
TEST(CliCommands, AReportOptionWithTheCsvOnStandardOutputIsRefused) {
  const std::string kth = bundled_kth();
  for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"simulate", kth, "-s", "easy", "--jobs-out", "-", "--event-cost"},
            "--event-cost adds to the report, which --jobs-out - replaces with the CSV: write the CSV to a file to "
            "have both, or leave --event-cost out"},
           {{"simulate", kth, "-s", "easy", "--by-class", "--jobs-out", "-"}, "--by-class adds to the report"},
           {{"simulate", kth, "-s", "easy", "--jobs-out", "-", "--class-limits", "1h,4"},
            "--class-limits adds to the report"},
           {{"compare", kth, "-s", "easy,fcfs", "--csv", "-", "--by-class"}, "--by-class adds to the report"},
           {{"compare", kth, "-s", "easy,fcfs", "--csv", "-", "--baseline", "easy"}, "--baseline adds to the report"},
           {{"sessions", kth, "-o", "-", "--pca"}, "--pca adds to the report, which -o - replaces"},
           {{"sessions", kth, "--classify", "--users-output", "-", "--pca"},
            "--pca adds to the report, which --users-output - replaces"},
           {{"sessions", "/no/such/log.swf", "-o", "-", "--pca"}, "--pca adds to the report"},
           {{"simulate", kth, "-s", "easy", "--markdown"}, "--markdown requires --list"}}) {
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << message;
    EXPECT_EQ(r.out, "") << message;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
  const TempDir dir;
  EXPECT_EQ(run_cli({"simulate", kth, "-s", "easy", "--jobs-out", dir.file("j.csv"), "--event-cost"}).exit_code, 0);
  EXPECT_EQ(run_cli({"simulate", kth, "-s", "fcfs", "--jobs-out", "-", "--check"}).exit_code, 0);
  const CliResult online = run_cli({"sessions", kth, "-o", "-", "--online"});
  EXPECT_EQ(online.exit_code, 0) << online.err;
  EXPECT_NE(online.out.find(",online_class\n"), std::string::npos);
  EXPECT_EQ(run_cli({"simulate", "--list", "--markdown"}).exit_code, 0);
}

// Counts of one are singular in the text outputs, a one-job log on a one-processor machine being where they show
// ("1 processors", "1 values cover", "1 jobs over", "the 1 jobs of", "1 jobs in 1 runs", "1 rounds", "machine 1 procs" until 2026-12).
// Every command that takes --skip-invalid says, by reason, what it skipped: most said nothing at all (only stats
// and filter reported the lines, in their own output), so a log's bad lines vanished from their results unseen.
TEST(CliCommands, EveryCommandThatSkipsMalformedLinesSaysSoByReason) {
  TempDir dir;
  const std::string log = dir.file("bad.swf");
  std::string text = "; MaxProcs: 8\n; UnixStartTime: 0\n";
  for (int i = 1; i <= 1000; ++i)
    text += std::to_string(i) + " " + std::to_string(i * 60) + " 5 " + std::to_string(100 + (i * 37) % 900) + " " +
            std::to_string(1 + i % 8) + " -1 -1 " + std::to_string(1 + i % 8) + " 1000 -1 1 " +
            std::to_string(1 + i % 5) + " 1 " + std::to_string(1 + i % 3) + " 1 1 -1 -1\n";
  text += "1001 abc 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n1002 100 0 100 4\n";
  write_file(log, text);
  const std::string note =
      "schedlab: note: " + log + ": 2 malformed lines skipped: non_numeric 1, wrong_field_count 1\n";
  const std::vector<std::vector<std::string>> commands = {
      {"stats", log},
      {"filter", log, "-o", dir.file("f.swf")},
      {"categorize", log},
      {"sessions", log},
      {"flurries", log},
      {"analyze", "locality", log, "--slice", "3h"},
      {"analyze", "runs", log},
      {"analyze", "temporal", log, "--no-hurst"},
      {"analyze", "diversity", log, log},
      {"analyze", "distance", log, log},
      {"estimates", "bins", log},
      {"estimates", "fit", log},
      {"estimates", "generate", log, "--model", "f:f=1", "-o", dir.file("e.swf")},
      {"estimates", "compare", log, log}};
  for (std::vector<std::string> args : commands) {
    args.push_back("--skip-invalid");
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << args[0] << " " << args[1] << ": " << r.err;
    EXPECT_NE(r.err.find(note), std::string::npos) << args[0] << " " << args[1] << ": " << r.err;
  }
  // Without the option the first bad line is the error, as before, and the way on is said: the command's own
  // option, or filter's for a command without one.
  const CliResult strict = run_cli({"categorize", log});
  EXPECT_EQ(strict.exit_code, 1);
  EXPECT_NE(strict.err.find("bad.swf:1003: field 2 (submit_time): not a number: \"abc\"\n"
                            "schedlab categorize --skip-invalid skips such lines, counted by reason\n"),
            std::string::npos)
      << strict.err;
  const CliResult analysis = run_cli({"analyze", "runs", log});
  EXPECT_NE(analysis.err.find("\nschedlab analyze runs --skip-invalid skips such lines"), std::string::npos)
      << analysis.err;
  const CliResult sim = run_cli({"simulate", log, "-s", "easy"});
  EXPECT_EQ(sim.exit_code, 1);
  EXPECT_NE(sim.err.find("\nschedlab filter LOG --skip-invalid -o CLEAN.swf writes the log without such lines"),
            std::string::npos)
      << sim.err;
  // Other read errors are not malformed lines: no such word.
  const CliResult missing = run_cli({"stats", dir.file("missing.swf")});
  EXPECT_EQ(missing.err.find("--skip-invalid"), std::string::npos) << missing.err;
}

TEST(CliCommands, CountsOfOneAreSingular) {
  TempDir dir;
  const std::string log = dir.file("one.swf");
  write_file(log, "; MaxProcs: 1\n; UnixStartTime: 0\n1 0 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 1 -1 -1\n");
  const auto out_of = [](const std::vector<std::string>& args) {
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.out;
  };
  const std::string stats = out_of({"stats", log});
  for (const char* want : {"1 processor (from MaxProcs)", "0.0% of 1 job with runtime and estimate",
                           "1 value covers 50% of jobs", "1 value covers 90% of jobs", "100.0% of 1 job with a size"})
    EXPECT_NE(stats.find(want), std::string::npos) << want << "\n" << stats;
  EXPECT_NE(out_of({"analyze", "temporal", log}).find("\n1 job over 0.0 days\n"), std::string::npos);
  EXPECT_NE(out_of({"analyze", "distance", log, log}).find("A: " + log + " (1 processor)\n"), std::string::npos);
  EXPECT_NE(out_of({"sessions", log}).find("        1 session   (0 jobs without user or submit time"),
            std::string::npos);
  EXPECT_NE(out_of({"generate", "scramble", "--from", log, "-o", dir.file("s.swf")}).find(": the 1 job of "),
            std::string::npos);
  EXPECT_NE(out_of({"generate", "locality", "--from", bundled_kth(), "--jobs", "1", "-o", dir.file("l.swf")})
                .find(": 1 job in 1 run (the model's"),
            std::string::npos);
  write_file(dir.file("one.toml"), "logs = [\"" + log + "\"]\n");
  EXPECT_NE(out_of({"sweep", dir.file("one.toml"), "--slurm", dir.file("array")}).find(": 1 run in a 1-task array"),
            std::string::npos);
  EXPECT_NE(out_of({"analyze", "locality", bundled_kth(), "--bootstrap", "1"}).find("\nbootstrap: 1 round, seed"),
            std::string::npos);
  EXPECT_NE(out_of({"analyze", "diversity", bundled_kth(), bundled_kth(), "--bootstrap", "1"})
                .find("baseline: median of 1 random sample of the log's size"),
            std::string::npos);
  EXPECT_NE(out_of({"sessions", bundled_kth(), "--classify", "--restarts", "1"}).find(", 1 restart)\n"),
            std::string::npos);
  // A second job whose estimate (50 s) its runtime (100 s) overruns.
  const std::string two = dir.file("two.swf");
  write_file(two, "; MaxProcs: 1\n; UnixStartTime: 0\n1 0 0 100 1 -1 -1 1 50 -1 1 1 1 1 1 1 -1 -1\n"
                  "2 10 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 1 -1 -1\n");
  EXPECT_NE(out_of({"sessions", two}).find("; machine 1 proc)\n"), std::string::npos);
  EXPECT_NE(out_of({"simulate", two, "-s", "easy", "--extend-estimates"}).find(", 1 estimate extended\n"),
            std::string::npos);
  EXPECT_NE(out_of({"estimates", "bins", two, "--max-estimate", "100"}).find("(only estimates <= 100: 1 job above"),
            std::string::npos);
  const std::string fit = out_of({"estimates", "fit", two, "-o", dir.file("m.json"), "--tmax", "100s"});
  EXPECT_NE(fit.find("N 2 jobs with an estimate, T_max 1m40s (0.0% of jobs), 1 more bin (50s, 50.0%)\n"),
            std::string::npos)
      << fit;
  EXPECT_NE(fit.find("\n  1 job (50.00%) has an estimate above T_max, up to 3m20s\n"), std::string::npos) << fit;
  out_of({"profiler", "ingest", "--db", dir.file("p.db"), two});
  EXPECT_NE(out_of({"profiler", "query", "--db", dir.file("p.db"), "--user", "1", "--procs", "1"})
                .find("executable unknown, 1 processor\n"),
            std::string::npos);
  EXPECT_NE(out_of({"simulate", two, "-s", "easy", "--by-class", "--class-limits", "1h,1"})
                .find("(short: runtime <= 1h, narrow: <= 1 processor; --class-limits)"),
            std::string::npos);
  EXPECT_NE(out_of({"compare", two, "-s", "easy,fcfs", "--by-class", "--class-limits", "1h,1"})
                .find("(short: runtime <= 1h, narrow: <= 1 processor; share of the jobs)"),
            std::string::npos);
  write_file(dir.file("sacct.txt"),
             "JobID|JobName|User|Submit|Start|End|State|AllocCPUS|ReqCPUS|Timelimit\n"
             "21|solo|bob|2026-01-05T10:01:00|2026-01-05T10:01:00|2026-01-05T10:02:00|COMPLETED|1|1|00:10:00\n");
  const CliResult sacct =
      run_cli({"convert", "--from", "sacct", "--timezone", "UTC", dir.file("sacct.txt"), dir.file("sacct.swf")});
  EXPECT_NE(sacct.err.find("schedlab convert: 1 sacct row -> 1 job in "), std::string::npos) << sacct.err;
  EXPECT_NE(out_of({"generate", "locality", "--from", bundled_kth(), "--jobs", "1", "-o", "-"})
                .find("; Note: 1 run, the model's mean run length"),
            std::string::npos);
  const std::string experiment = out_of({"generate", "profiler-experiment", "--jobs", "1", "-o", dir.file("pe.swf")});
  EXPECT_NE(experiment.find("submits 0..0 s (inter-arrival mean 150 s); no offered load (every job submitted at 0"),
            std::string::npos)
      << experiment;
  EXPECT_EQ(experiment.find("nan"), std::string::npos) << experiment;
  EXPECT_NE(read_file(dir.file("pe.swf")).find(", seed 1, 1 job, exponential"), std::string::npos);
  out_of({"simulate", log, "-s", "easy", "--jobs-out", dir.file("o.swf")});
  const std::string swf = read_file(dir.file("o.swf"));
  EXPECT_NE(swf.find("scheduler easy, predictor estimate, 1 processor; fields 3 and 4"), std::string::npos) << swf;
  for (const std::string& text : {stats, swf, out_of({"simulate", log, "-s", "easy", "--procs", "1"})})
    for (const char* plural : {"1 processors", "1 jobs", "1 values", "1 sessions"})
      EXPECT_EQ(text.find(plural), std::string::npos) << plural << "\n" << text;
}

}  // namespace
}  // namespace schedlab::testing
