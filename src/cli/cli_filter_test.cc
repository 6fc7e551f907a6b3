// `schedlab filter` through the built binary.
#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "schedlab/base/version.h"
#include "schedlab/swf/reader.h"
#include "test_util.h"

namespace schedlab::testing {
namespace {

// UnixStartTime 0 with no TimeZoneString: dates are UTC, 1970-01-01 = second 0.
const char* kFilterLog =
    "; UnixStartTime: 0\n"
    "; MaxProcs: 64\n"
    "1 0      0 10 1  -1 -1 1  60 -1 1 1 1 -1 1 1 -1 -1\n"
    "2 3600   0 10 2  -1 -1 2  60 -1 0 2 1 -1 2 1 -1 -1\n"
    "3 86400  0 10 4  -1 -1 4  60 -1 5 3 1 -1 1 2 -1 -1\n"
    "4 172800 0 10 8  -1 -1 8  60 -1 1 1 1 -1 1 2 -1 -1\n"
    "5 259200 0 10 32 -1 -1 32 60 -1 1 2 1 -1 3 3 -1 -1\n";

std::vector<int32_t> kept_jobs(const std::string& path) {
  std::vector<int32_t> out;
  for (const auto& r : swf::read_log(path).records) out.push_back(r.job_number);
  return out;
}

struct Filtered {
  CliResult result;
  std::vector<int32_t> jobs;
  std::vector<std::string> header;
};

Filtered filter(const TempDir& dir, std::vector<std::string> options, const char* log = kFilterLog) {
  write_file(dir.file("in.swf"), log);
  std::vector<std::string> args = {"filter", dir.file("in.swf"), "-o", dir.file("out.swf")};
  args.insert(args.end(), options.begin(), options.end());
  Filtered f;
  f.result = run_cli(args);
  if (f.result.exit_code == 0) {
    const swf::Log out = swf::read_log(dir.file("out.swf"));
    for (const auto& r : out.records) f.jobs.push_back(r.job_number);
    f.header = out.header.lines;
  }
  return f;
}

bool has_line(const std::vector<std::string>& lines, const std::string& line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

TEST(CliFilter, RelativeTimeWindow) {
  TempDir dir;
  const Filtered f = filter(dir, {"--from", "+1h", "--to", "+2d"});
  ASSERT_EQ(f.result.exit_code, 0) << f.result.err;
  EXPECT_EQ(f.jobs, (std::vector<int32_t>{2, 3}));
  EXPECT_TRUE(has_line(f.header, "; Note: FILTERED by schedlab " + std::string(base::kVersion) +
                                     " filter: 2 of 5 records kept, 3 excluded"));
  EXPECT_TRUE(has_line(f.header, "; Note: filter: submit time >= +1h = 3600 s from the log start (inclusive)"));
  EXPECT_TRUE(has_line(f.header, "; Note: filter: submit time < +2d = 172800 s from the log start (exclusive)"));
  EXPECT_TRUE(has_line(f.header, "; Note: filter: excluded 1 record: before_from"));
  EXPECT_TRUE(has_line(f.header, "; Note: filter: excluded 2 records: not_before_to"));
  EXPECT_TRUE(has_line(f.header, "; MaxProcs: 64"));  // the original header is kept
  EXPECT_NE(f.result.err.find("kept 2 of 5 records, excluded 3"), std::string::npos) << f.result.err;
  EXPECT_NE(f.result.err.find("not_before_to"), std::string::npos) << f.result.err;
}

TEST(CliFilter, AbsoluteDates) {
  TempDir dir;
  const Filtered f = filter(dir, {"--from", "1970-01-02", "--to", "1970-01-03T00:00:01"});
  ASSERT_EQ(f.result.exit_code, 0) << f.result.err;
  EXPECT_EQ(f.jobs, (std::vector<int32_t>{3, 4}));
  EXPECT_TRUE(has_line(f.header, "; Note: filter: submit time >= 1970-01-02 (UTC) = 86400 s from the log start (inclusive)"));
}

TEST(CliFilter, AWindowOutsideTheLogSaysWhatItSpans) {
  TempDir dir;
  const Filtered f = filter(dir, {"--from", "1971-01-01"});
  ASSERT_EQ(f.result.exit_code, 0) << f.result.err;
  EXPECT_TRUE(f.jobs.empty());
  EXPECT_NE(f.result.err.find("schedlab: warning: the log's jobs were submitted from 1970-01-01 00:00:00 UTC to "),
            std::string::npos)
      << f.result.err;
  const Filtered some = filter(dir, {"--from", "1970-01-02"});
  EXPECT_EQ(some.result.err.find("warning"), std::string::npos) << some.result.err;
}

// An id the log does not have is warned of with the log's own (statuses 1, 0 and 5 here): --status 7 kept nothing.
TEST(CliFilter, AnIdTheLogDoesNotHaveIsNamed) {
  TempDir dir;
  const Filtered f = filter(dir, {"--status", "7"});
  ASSERT_EQ(f.result.exit_code, 0) << f.result.err;
  EXPECT_TRUE(f.jobs.empty());
  EXPECT_NE(f.result.err.find("schedlab: warning: --status 7: no record has status 7 (the log's: 1 (3 records), 0 (1), "
                              "5 (1))\n"),
            std::string::npos)
      << f.result.err;
  const Filtered some = filter(dir, {"--status", "0,5", "--exclude-users", "4"});
  EXPECT_EQ(some.jobs, (std::vector<int32_t>{2, 3}));
  EXPECT_NE(some.result.err.find("schedlab: warning: --exclude-users 4: no record has user 4, so nothing was dropped "
                                 "for it"),
            std::string::npos)
      << some.result.err;
  EXPECT_EQ(some.result.err.find("--status"), std::string::npos) << some.result.err;
}

TEST(CliFilter, AbsoluteDateNeedsUnixStartTime) {
  TempDir dir;
  const std::string log = std::string(kFilterLog).substr(std::string(kFilterLog).find('\n') + 1);
  const Filtered f = filter(dir, {"--from", "1970-01-02"}, log.c_str());
  EXPECT_EQ(f.result.exit_code, 1);
  EXPECT_NE(f.result.err.find("schedlab: error: --from: "), std::string::npos) << f.result.err;
  EXPECT_NE(f.result.err.find("UnixStartTime"), std::string::npos) << f.result.err;
  EXPECT_FALSE(std::ifstream(dir.file("out.swf")).good());
  // relative forms still work
  EXPECT_EQ(filter(dir, {"--from", "+86400"}, log.c_str()).jobs, (std::vector<int32_t>{3, 4, 5}));
  // The flurry rule without --drop-flurries was ignored without a word.
  const Filtered rule_alone = filter(dir, {"--flurry-factor", "5"}, log.c_str());
  EXPECT_EQ(rule_alone.result.exit_code, 2);
  EXPECT_NE(rule_alone.result.err.find("--flurry-factor requires --drop-flurries"), std::string::npos)
      << rule_alone.result.err;
}

TEST(CliFilter, EachCriterion) {
  TempDir dir;
  EXPECT_EQ(filter(dir, {"--users", "1,3"}).jobs, (std::vector<int32_t>{1, 3, 4}));
  EXPECT_EQ(filter(dir, {"--exclude-users", "1"}).jobs, (std::vector<int32_t>{2, 3, 5}));
  EXPECT_EQ(filter(dir, {"--min-procs", "4"}).jobs, (std::vector<int32_t>{3, 4, 5}));
  EXPECT_EQ(filter(dir, {"--max-procs", "4"}).jobs, (std::vector<int32_t>{1, 2, 3}));
  EXPECT_EQ(filter(dir, {"--min-procs", "2", "--max-procs", "8"}).jobs, (std::vector<int32_t>{2, 3, 4}));
  EXPECT_EQ(filter(dir, {"--status", "0,5"}).jobs, (std::vector<int32_t>{2, 3}));
  EXPECT_EQ(filter(dir, {"--queue", "2,3"}).jobs, (std::vector<int32_t>{2, 5}));
  EXPECT_EQ(filter(dir, {"--partition", "2"}).jobs, (std::vector<int32_t>{3, 4}));
  const Filtered f = filter(dir, {"--partition", "2"});
  EXPECT_TRUE(has_line(f.header, "; Note: filter: partition in 2"));
  EXPECT_TRUE(has_line(f.header, "; Note: filter: excluded 3 records: partition"));
}

// With --skip-invalid, a malformed line is skipped, counted on standard error by reason, and said in the output's
// header (no test passed the option to filter before).
TEST(CliFilter, SkippedInvalidLinesAreCountedAndNoted) {
  TempDir dir;
  const std::string bad = std::string(kFilterLog) + "6 1 2 garbage\n";
  EXPECT_EQ(filter(dir, {"--min-procs", "4"}, bad.c_str()).result.exit_code, 1);  // without it: an error
  const Filtered f = filter(dir, {"--min-procs", "4", "--skip-invalid"}, bad.c_str());
  ASSERT_EQ(f.result.exit_code, 0) << f.result.err;
  EXPECT_EQ(f.jobs, (std::vector<int32_t>{3, 4, 5}));
  EXPECT_TRUE(has_line(f.header, "; Note: filter: the input had 1 invalid lines, skipped (--skip-invalid)"));
  EXPECT_NE(f.result.err.find("skipped input line: wrong_field_count"), std::string::npos) << f.result.err;
}

TEST(CliFilter, GzipOutputIsReadable) {
  TempDir dir;
  write_file(dir.file("in.swf"), kFilterLog);
  const CliResult r = run_cli({"filter", dir.file("in.swf"), "-o", dir.file("out.swf.gz"), "--users", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(static_cast<unsigned char>(read_file(dir.file("out.swf.gz"))[0]), 0x1f);
  EXPECT_EQ(kept_jobs(dir.file("out.swf.gz")), (std::vector<int32_t>{2, 5}));
}

TEST(CliFilter, RealLogByDateInItsTimeZone) {
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  TempDir dir;
  const CliResult r = run_cli({"filter", trace_path("KTH-SP2-1996-2.swf.gz"), "-o", dir.file("oct.swf"), "--from",
                               "1996-10-01", "--to", "1996-11-01"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Oct 1 00:00 CEST = 1996-09-30 22:00 UTC = epoch 844120800; Nov 1 00:00 CET = 1996-10-31 23:00 UTC = 846802800
  const int64_t from = 844120800 - 843480031, to = 846802800 - 843480031;
  const swf::Log all = swf::read_log(trace_path("KTH-SP2-1996-2.swf.gz"));
  std::vector<int32_t> expected;
  for (const auto& rec : all.records)
    if (rec.submit_time >= from && rec.submit_time < to) expected.push_back(rec.job_number);
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(kept_jobs(dir.file("oct.swf")), expected);
}

TEST(CliFilter, BadOptionValues) {
  TempDir dir;
  const std::vector<std::vector<std::string>> bad = {
      {"--from", "yesterday"}, {"--to", "+3x"},        {"--users", "1,a"},       {"--status", "1,,2"},
      {"--min-procs", "0"},    {"--max-procs", "x"},   {"--min-procs", "8", "--max-procs", "4"},
      {"--from", "+2d", "--to", "+1d"},
  };
  for (const auto& options : bad) {
    const Filtered f = filter(dir, options);
    EXPECT_EQ(f.result.exit_code, 1) << options[0] << " " << options[1];
    EXPECT_NE(f.result.err.find("schedlab: error: "), std::string::npos) << f.result.err;
    EXPECT_NE(f.result.err.find(options[0]), std::string::npos) << f.result.err;
  }
}

// A log converted from sacct names its users and partitions in its header: a filter may use the names. A name
// that is not there, or a log that names none, is an error that says what the log names.
TEST(CliFilter, UsersAndPartitionsByTheNamesOfALogFromSacct) {
  TempDir dir;
  const std::string named = std::string("; Note: users: 1=alice, 2=bob, 3=carol\n; Note: partitions: 1=batch, 2=gpu, "
                                        "3=debug\n") + kFilterLog;
  Filtered f = filter(dir, {"--users", "bob,alice"}, named.c_str());
  EXPECT_EQ(f.result.exit_code, 0) << f.result.err;
  EXPECT_EQ(f.jobs, (std::vector<int32_t>{1, 2, 4, 5}));
  f = filter(dir, {"--partition", "gpu", "--exclude-users", "alice"}, named.c_str());
  EXPECT_EQ(f.result.exit_code, 0) << f.result.err;
  EXPECT_EQ(f.jobs, (std::vector<int32_t>{3}));
  // One partition of a machine the header sizes: simulated on the whole of it unless --procs says otherwise.
  EXPECT_NE(f.result.err.find("schedlab: warning: --partition gpu keeps one partition's jobs, but MaxProcs 64 is the "
                              "whole machine's: simulate them with --procs set to the partition's size (the largest "
                              "kept job uses 4)"),
            std::string::npos)
      << f.result.err;
  f = filter(dir, {"--partition", "3,batch"}, named.c_str());  // numbers and names mixed
  EXPECT_EQ(f.jobs, (std::vector<int32_t>{1, 2, 5}));
  EXPECT_NE(f.result.err.find("--partition 3,batch keeps some partitions' jobs"), std::string::npos);
  f = filter(dir, {"--partition", "1,2,3"}, named.c_str());  // every partition: the machine is the log's
  EXPECT_EQ(f.jobs.size(), 5u);
  EXPECT_EQ(f.result.err.find("whole machine"), std::string::npos) << f.result.err;
  f = filter(dir, {"--users", "dave"}, named.c_str());
  EXPECT_EQ(f.result.exit_code, 1);
  EXPECT_NE(f.result.err.find("--users: 'dave' is neither a number nor one of the log's users (its header names: "
                              "1=alice, 2=bob, 3=carol)"),
            std::string::npos)
      << f.result.err;
  f = filter(dir, {"--partition", "gpu"});  // kFilterLog names none
  EXPECT_EQ(f.result.exit_code, 1);
  EXPECT_NE(f.result.err.find("--partition: 'gpu' is not a number, and the log's header names no partitions"),
            std::string::npos)
      << f.result.err;
  f = filter(dir, {"--users", "bob,"}, named.c_str());
  EXPECT_EQ(f.result.exit_code, 1);
  EXPECT_NE(f.result.err.find("--users: 'bob,' has an empty item"), std::string::npos) << f.result.err;
}

TEST(CliFilter, MissingInput) {
  TempDir dir;
  const CliResult r = run_cli({"filter", dir.file("nope.swf"), "-o", dir.file("out.swf")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("nope.swf"), std::string::npos) << r.err;
}

// Writing the result over the log it is computed from would replace the log (a filter would lose every record
// it drops): refused by every command that reads a log and writes a file, before anything is written.
TEST(CliFilter, OutputOverTheInputLogIsRefused) {
  TempDir dir;
  write_file(dir.file("in.swf"), kFilterLog);
  const std::string in = dir.file("in.swf");
  const std::vector<std::vector<std::string>> commands = {
      {"filter", in, "-o", in, "--users", "2"},
      {"filter", in, "-o", dir.path() + "/./in.swf", "--users", "2"},
      {"convert", in, in},
      {"estimates", "generate", in, "--model", "tsafrir", "-o", in},
      {"generate", "scramble", "--from", in, "-o", in},
      {"simulate", in, "-s", "easy", "--jobs-out", in},
      {"predict", in, "--jobs-out", in},
      {"analyze", "runs", in, "--csv", in},
      {"sessions", in, "-o", in},
      {"report", in, "-o", in},
  };
  for (const auto& c : commands) {
    const CliResult r = run_cli(c);
    EXPECT_EQ(r.exit_code, 1) << c[0] << " " << c[1];
    EXPECT_NE(r.err.find(": the output is the input log " + in + ": write to another file"), std::string::npos)
        << r.err;
    EXPECT_EQ(read_file(in), kFilterLog) << c[0] << " " << c[1];
  }
}

}  // namespace
}  // namespace schedlab::testing
