// `schedlab convert` through the built binary.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "schedlab/swf/csv.h"
#include "schedlab/swf/reader.h"
#include "schedlab/swf/writer.h"
#include "test_util.h"

namespace schedlab::testing {
namespace {

const char* kConvertLog =
    "; Version: 2.2\n"
    "; MaxProcs: 8\n"
    ";\n"
    "1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n"
    "2 50 0 300 2 -1 -1 2 100 -1 1 2 1 -1 -1 -1 -1 -1\n";

TEST(CliConvert, SmallLogRoundTrip) {
  TempDir dir;
  write_file(dir.file("in.swf"), kConvertLog);
  CliResult r = run_cli({"convert", dir.file("in.swf"), dir.file("log.csv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string csv = read_file(dir.file("log.csv"));
  EXPECT_EQ(csv.rfind("#; Version: 2.2\n#; MaxProcs: 8\n#;\njob_number,submit_time,", 0), 0u) << csv;
  EXPECT_NE(csv.find("\n1,0,10,100,4,-1,-1,4,200,-1,1,1,1,-1,-1,-1,-1,-1\n"), std::string::npos) << csv;
  r = run_cli({"convert", dir.file("log.csv"), dir.file("out.swf")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const swf::Log a = swf::read_log(dir.file("in.swf")), b = swf::read_log(dir.file("out.swf"));
  EXPECT_EQ(a.records, b.records);
  EXPECT_EQ(a.header.lines, b.header.lines);
}

// A preempted job's partial-execution lines (status 2-4 after its summary line): convert and filter copy them with
// their job; every other command counts the job once, by its summary line, and says on standard error what it left
// out.
TEST(CliConvert, PartialExecutionLinesCopiedAndLeftOutOfJobs) {
  TempDir dir;
  const std::string log =
      "; MaxProcs: 8\n"
      "1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n"
      "1 -1 10 40 4 -1 -1 4 200 -1 2 1 1 -1 -1 -1 -1 -1\n"
      "1 -1 20 60 4 -1 -1 4 200 -1 3 1 1 -1 -1 -1 -1 -1\n"
      "2 50 0 300 2 -1 -1 2 400 -1 1 2 1 -1 -1 -1 -1 -1\n";
  write_file(dir.file("in.swf"), log);
  CliResult r = run_cli({"convert", dir.file("in.swf"), dir.file("a.csv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_cli({"convert", dir.file("a.csv"), dir.file("b.swf")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(dir.file("b.swf")), log);
  r = run_cli({"filter", dir.file("in.swf"), "-o", dir.file("c.swf"), "--users", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("kept 1 of 2 records, excluded 1\n  and 2 of the 2 partial-execution lines"), std::string::npos)
      << r.err;
  const swf::Log filtered = swf::read_log(dir.file("c.swf"), {.keep_partial_executions = true});
  ASSERT_EQ(filtered.records.size(), 3u);
  EXPECT_EQ(filtered.records[2].status, 3);

  r = run_cli({"simulate", dir.file("in.swf"), "-s", "fcfs", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["jobs"]["simulated"], 2) << r.out;
  EXPECT_NE(r.err.find("schedlab: note: " + dir.file("in.swf") +
                       ": 2 partial-execution lines (status 2-4 after their job's summary line; the first at line "
                       "3) left out"),
            std::string::npos)
      << r.err;
  r = run_cli({"stats", dir.file("in.swf")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("partial-execution lines             2 (first at line 3; left out: a job is its summary line)"),
            std::string::npos)
      << r.out;
  r = run_cli({"stats", dir.file("in.swf"), "--json"});
  const auto s = nlohmann::json::parse(r.out);
  EXPECT_EQ(s["records"], 2);
  EXPECT_EQ(s["read"]["partial_executions"]["count"], 2);
}

// On the real log: KTH with two burst lines added after every 50th job (status 2 and 3, half its runtime each) simulates
// and filters exactly as KTH itself, and the note counts the 1,138 lines (569 jobs x 2).
TEST(CliConvert, BurstLinesAddedToARealLogChangeNoResult) {
  TempDir dir;
  const std::string kth = bundled_kth();
  const swf::Log log = swf::read_log(kth);
  std::vector<swf::Record> with_bursts;
  int64_t wide_bursts = 0;  // the bursts of jobs of 8 processors or more, which the filter below keeps
  for (size_t i = 0; i < log.records.size(); ++i) {
    with_bursts.push_back(log.records[i]);
    if ((i + 1) % 50 != 0) continue;
    if (log.records[i].requested_procs >= 8) wide_bursts += 2;
    for (const int32_t status : {2, 3}) {
      swf::Record burst = log.records[i];
      burst.submit_time = -1;
      burst.run_time /= 2;
      burst.status = status;
      with_bursts.push_back(burst);
    }
  }
  ASSERT_EQ(with_bursts.size(), log.records.size() + 1138);
  swf::write_log(dir.file("bursts.swf"), log.header, with_bursts);
  const auto run = [](const std::vector<std::string>& args) {
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r;
  };
  auto a = nlohmann::json::parse(run({"simulate", kth, "-s", "easy", "--json"}).out);
  const CliResult bursts = run({"simulate", dir.file("bursts.swf"), "-s", "easy", "--json"});
  auto b = nlohmann::json::parse(bursts.out);
  EXPECT_NE(bursts.err.find("bursts.swf: 1138 partial-execution lines"), std::string::npos) << bursts.err;
  for (auto* doc : {&a, &b}) (*doc).erase("trace"), (*doc).erase("wall_time_s");
  EXPECT_EQ(a, b);
  run({"filter", kth, "--min-procs", "8", "-o", dir.file("f.swf")});
  run({"filter", dir.file("bursts.swf"), "--min-procs", "8", "-o", dir.file("fb.swf")});
  const swf::Log f = swf::read_log(dir.file("f.swf")), fb = swf::read_log(dir.file("fb.swf"));
  EXPECT_EQ(f.records, fb.records);  // the kept jobs, their bursts left out on reading
  EXPECT_EQ(fb.report.partial_executions.count, wide_bursts);  // the kept jobs' bursts, kept with them
  EXPECT_GT(wide_bursts, 0);
}

// A fractional field (average CPU time "107.77", as in SDSC-Par and HPC2N) survives every command that writes
// records: convert both ways, filter, and the simulated SWF of simulate --jobs-out (which rewrites fields
// 2-4 only).
TEST(CliConvert, FractionalFieldsKeptByEveryWriter) {
  TempDir dir;
  write_file(dir.file("in.swf"),
             "; MaxProcs: 8\n1 0 10 100 4 107.77 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n"
             "2 50 0 300 2 552.21 2048.5 2 400 -1 1 2 1 -1 -1 -1 -1 -1\n");
  auto expect_fractions = [&](const std::string& file) {
    const std::string text = read_file(dir.file(file));
    EXPECT_NE(text.find("107.77"), std::string::npos) << file << ":\n" << text;
    EXPECT_NE(text.find("552.21"), std::string::npos) << file << ":\n" << text;
    EXPECT_NE(text.find("2048.5"), std::string::npos) << file << ":\n" << text;
  };
  CliResult r = run_cli({"convert", dir.file("in.swf"), dir.file("a.csv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_fractions("a.csv");
  r = run_cli({"convert", dir.file("a.csv"), dir.file("b.swf")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_fractions("b.swf");
  r = run_cli({"filter", dir.file("in.swf"), "-o", dir.file("c.swf"), "--min-procs", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_fractions("c.swf");
  r = run_cli({"simulate", dir.file("in.swf"), "--scheduler", "easy", "--jobs-out", dir.file("d.swf")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_fractions("d.swf");
  EXPECT_NE(read_file(dir.file("d.swf")).find("\n1 0 0 100 4 107.77 -1 4 200"), std::string::npos);
}

TEST(CliConvert, RealLogRoundTripThroughGzipCsv) {
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  TempDir dir;
  CliResult r = run_cli({"convert", trace_path("KTH-SP2-1996-2.swf.gz"), dir.file("kth.csv.gz")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_cli({"convert", dir.file("kth.csv.gz"), dir.file("kth.swf.gz")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const swf::Log a = swf::read_log(trace_path("KTH-SP2-1996-2.swf.gz"));
  const swf::Log b = swf::read_log(dir.file("kth.swf.gz"));
  EXPECT_EQ(b.records.size(), 28489u);
  EXPECT_TRUE(a.records == b.records);
  EXPECT_EQ(a.header.lines, b.header.lines);
}

// The CSV that convert writes is a log every command reads (stats said "log.csv:1: expected 18 fields, found 3"):
// the same statistics, simulation and profile as from the SWF.
TEST(CliConvert, EveryCommandReadsTheCsv) {
  TempDir dir;
  const std::string kth = bundled_kth();
  ASSERT_EQ(run_cli({"convert", kth, dir.file("kth.csv.gz")}).exit_code, 0);
  const auto json_of = [](const CliResult& r) {
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out);
  };
  auto a = json_of(run_cli({"stats", kth, "--json"})), b = json_of(run_cli({"stats", dir.file("kth.csv.gz"), "--json"}));
  for (const char* key : {"distributions", "offered_load", "machine", "valid_jobs", "excluded", "estimates"})
    EXPECT_EQ(a[key], b[key]) << key;
  for (const auto& [kind, count] : a["read"]["warnings"].items())  // first_line: the CSV has a column-name row
    EXPECT_EQ(count["count"], b["read"]["warnings"][kind]["count"]) << kind;
  a = json_of(run_cli({"simulate", kth, "-s", "easy", "--json"}));
  b = json_of(run_cli({"simulate", dir.file("kth.csv.gz"), "-s", "easy", "--json"}));
  EXPECT_EQ(a["metrics"], b["metrics"]);
  a = json_of(run_cli({"profiler", "ingest", kth, "--db", dir.file("a.db"), "--json"}));
  b = json_of(run_cli({"profiler", "ingest", dir.file("kth.csv.gz"), "--db", dir.file("b.db"), "--json"}));
  EXPECT_EQ(a["logs"][0]["source"], b["logs"][0]["source"]);
  EXPECT_EQ(a["database"]["entries"], b["database"]["entries"]);
  // --skip-invalid skips a CSV's malformed rows as an SWF's lines (it was refused, with advice to convert the CSV
  // to SWF, which could not read the bad row either).
  ASSERT_EQ(run_cli({"convert", kth, dir.file("kth.csv")}).exit_code, 0);
  std::string csv = read_file(dir.file("kth.csv"));
  csv += "99999,abc,0,10,1,-1,-1,1,20,-1,1,1,1,1,1,-1,-1,-1\n";
  write_file(dir.file("bad.csv"), csv);
  const CliResult strict = run_cli({"stats", dir.file("bad.csv"), "--json"});
  EXPECT_EQ(strict.exit_code, 1);
  EXPECT_NE(strict.err.find("'abc' is not a number\nschedlab stats --skip-invalid skips such lines"),
            std::string::npos)
      << strict.err;
  const CliResult skip = run_cli({"stats", dir.file("bad.csv"), "--skip-invalid", "--json"});
  ASSERT_EQ(skip.exit_code, 0) << skip.err;
  EXPECT_NE(skip.err.find("bad.csv: 1 malformed line skipped: non_numeric 1"), std::string::npos) << skip.err;
  EXPECT_EQ(json_of(skip)["distributions"], json_of(run_cli({"stats", kth, "--json"}))["distributions"]);
}

// And every command that writes a log writes that CSV for a CSV name (filter wrote SWF text into x.csv, which the
// reader by name then refused): the same records as the SWF it writes otherwise.
TEST(CliConvert, EveryCommandWritesTheCsvForACsvName) {
  TempDir dir;
  const std::string kth = bundled_kth();
  const std::vector<std::vector<std::string>> commands = {
      {"filter", kth, "--min-procs", "8", "-o"},
      {"estimates", "generate", kth, "--model", "feit", "-o"},
      {"generate", "locality", "--from", kth, "--jobs", "500", "-o"},
      {"generate", "scramble", "--from", kth, "-o"},
      {"generate", "talby", "--procs", "128", "--weeks", "2", "-o"}};
  for (const auto& command : commands) {
    SCOPED_TRACE(command[0] + " " + command[1]);
    std::vector<std::string> as_swf = command, as_csv = command;
    as_swf.push_back(dir.file("out.swf"));
    as_csv.push_back(dir.file("out.csv.gz"));
    ASSERT_EQ(run_cli(as_swf).exit_code, 0);
    ASSERT_EQ(run_cli(as_csv).exit_code, 0);
    EXPECT_EQ(read_file(dir.file("out.csv.gz")).substr(0, 2), "\x1f\x8b");  // gzip
    const swf::Log a = swf::read_log(dir.file("out.swf")), b = swf::read_csv(dir.file("out.csv.gz"));
    EXPECT_EQ(a.records, b.records);
    EXPECT_EQ(a.header.lines, b.header.lines);
  }
}

TEST(CliConvert, UnknownExtensionIsAnError) {
  TempDir dir;
  write_file(dir.file("in.swf"), kConvertLog);
  CliResult r = run_cli({"convert", dir.file("in.swf"), dir.file("out.txt")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("schedlab: error: cannot tell the format of the output file"), std::string::npos) << r.err;
  write_file(dir.file("in.dat"), kConvertLog);
  r = run_cli({"convert", dir.file("in.dat"), dir.file("out.csv")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("input file"), std::string::npos) << r.err;
}

// "-" is SWF on standard input or output, as in every command (convert refused it: "cannot tell the format").
TEST(CliConvert, DashIsSwfOnStandardInputAndOutput) {
  TempDir dir;
  write_file(dir.file("in.swf"), kConvertLog);
  ASSERT_EQ(run_cli({"convert", dir.file("in.swf"), dir.file("ref.csv")}).exit_code, 0);
  const CliResult in = run_cli({"convert", "-", dir.file("out.csv")}, kConvertLog);
  ASSERT_EQ(in.exit_code, 0) << in.err;
  EXPECT_EQ(read_file(dir.file("out.csv")), read_file(dir.file("ref.csv")));
  const CliResult out = run_cli({"convert", dir.file("ref.csv"), "-"});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_EQ(swf::parse_log(out.out, "stdout").records, swf::read_log(dir.file("in.swf")).records);
  EXPECT_NE(out.err.find("to standard output"), std::string::npos) << out.err;
  const CliResult full = run_cli({"convert", dir.file("ref.csv"), "-"}, "", "/dev/full");
  EXPECT_EQ(full.exit_code, 1);
  EXPECT_NE(full.err.find("standard output: write error: No space left on device"), std::string::npos) << full.err;
}

// `sacct -P ... | schedlab convert --from sacct - out.swf`: standard input, plain or gzip, named <stdin> in messages
// ("-" was "no such file").
TEST(CliConvert, SacctFromStandardInput) {
  TempDir dir;
  const std::string text =
      "JobID|JobName|User|Submit|Start|End|State|AllocCPUS|ReqCPUS|Timelimit\n"
      "21|solo|bob|2026-01-05T10:01:00|2026-01-05T10:01:00|2026-01-05T10:02:00|COMPLETED|1|1|00:10:00\n"
      "22|two|ann|2026-01-05T10:03:00|2026-01-05T10:04:00|2026-01-05T10:09:00|COMPLETED|4|4|01:00:00\n";
  write_file(dir.file("s.txt"), text);
  const CliResult file = run_cli({"convert", "--from", "sacct", "--timezone", "UTC", dir.file("s.txt"), "-"});
  ASSERT_EQ(file.exit_code, 0) << file.err;
  const CliResult piped = run_cli({"convert", "--from", "sacct", "--timezone", "UTC", "-", "-"}, text);
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(swf::parse_log(piped.out, "stdout").records, swf::parse_log(file.out, "stdout").records);
  EXPECT_EQ(swf::parse_log(piped.out, "stdout").records.size(), 2u);
  const CliResult bad = run_cli({"convert", "--from", "sacct", "-", dir.file("x.swf")}, "garbage|x\n");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("<stdin>:1: column JobID is missing"), std::string::npos) << bad.err;
}

TEST(CliConvert, BadCsvGivesFileLineColumn) {
  TempDir dir;
  write_file(dir.file("bad.csv"), "job_number,submit,wait_time\n");
  const CliResult r = run_cli({"convert", dir.file("bad.csv"), dir.file("out.swf")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(dir.file("bad.csv") + ":1:12: column 2 is named 'submit'"), std::string::npos) << r.err;
}

TEST(CliConvert, MissingInput) {
  TempDir dir;
  const CliResult r = run_cli({"convert", dir.file("nope.swf.gz"), dir.file("out.csv")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("nope.swf.gz"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace schedlab::testing
