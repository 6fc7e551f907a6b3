// Reader: real logs, parser edge cases, warnings, buffering across refills, gzip and memory input.
#include "schedlab/swf/reader.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <thread>

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <string>
#include <vector>

#include "test_util.h"

namespace schedlab::swf {
namespace {

using schedlab::testing::TempDir;
using schedlab::testing::trace_exists;
using schedlab::testing::trace_path;
using schedlab::testing::write_file;

// gzip-compresses `text` into a file.
void write_gzip(const std::string& path, const std::string& text) {
  gzFile gz = gzopen(path.c_str(), "wb");
  ASSERT_NE(gz, nullptr);
  if (!text.empty()) {
    ASSERT_EQ(gzwrite(gz, text.data(), static_cast<unsigned>(text.size())), static_cast<int>(text.size()));
  }
  ASSERT_EQ(gzclose(gz), Z_OK);
}

std::string gunzip_file(const std::string& path) {
  gzFile gz = gzopen(path.c_str(), "rb");
  std::string out;
  char buf[65536];
  int n = 0;
  while ((n = gzread(gz, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  gzclose(gz);
  return out;
}

std::string rec(const std::string& first_fields = "1 0 5 100 4") {
  // Completes a record to 18 fields with -1 from the given leading fields (space-separated).
  int count = 0;
  bool in = false;
  for (char c : first_fields) {
    const bool blank = c == ' ' || c == '\t';
    if (!blank && !in) ++count;
    in = !blank;
  }
  std::string s = first_fields;
  for (int i = count; i < kFieldCount; ++i) s += " -1";
  return s;
}

Record make(std::initializer_list<int32_t> leading) {
  Record r;
  int i = 1;
  for (int32_t v : leading) r.field(i++) = v;
  return r;
}

TEST(ReaderReal, KthGzipRecordsAndHeader) {
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  const Log log = read_log(trace_path("KTH-SP2-1996-2.swf.gz"));
  ASSERT_EQ(log.records.size(), 28489u);
  EXPECT_EQ(log.report.records, 28489);
  EXPECT_EQ(log.report.header_lines, 19);
  EXPECT_EQ(log.report.lines, 28489 + 19);
  EXPECT_EQ(log.report.blank_lines, 0);
  EXPECT_EQ(log.report.decimal_fields, 0);
  EXPECT_EQ(log.report.skipped_total(), 0);
  ASSERT_TRUE(log.header.max_procs.has_value());
  EXPECT_EQ(*log.header.max_procs, 100);
  EXPECT_EQ(log.header.max_nodes.value_or(-5), 100);
  EXPECT_EQ(log.header.lines.size(), 19u);
  // First and last lines, checked with zcat:
  //     1        0 964980  97225   56     -1    -1   56 210000    -1  1   1   1  -1 -1 -1 -1 -1
  // 28490 29363618    720      8    1     -1    -1    1  30000    -1  1  98 198  -1 -1 -1 -1 -1
  EXPECT_EQ(log.records.front(), make({1, 0, 964980, 97225, 56, -1, -1, 56, 210000, -1, 1, 1, 1, -1, -1, -1, -1, -1}));
  EXPECT_EQ(log.records.back(),
            make({28490, 29363618, 720, 8, 1, -1, -1, 1, 30000, -1, 1, 98, 198, -1, -1, -1, -1, -1}));
  // Warnings computed independently with awk: only estimate_below_runtime occurs (475 times).
  EXPECT_EQ(log.report.warning(Warning::kEstimateBelowRuntime).count, 475);
  EXPECT_EQ(log.report.warning(Warning::kNegativeWait).count, 0);
  EXPECT_EQ(log.report.warning(Warning::kNegativeRuntimeCompleted).count, 0);
  EXPECT_EQ(log.report.warning(Warning::kSizeAboveMaxProcs).count, 0);
  EXPECT_EQ(log.report.warning(Warning::kSubmitOutOfOrder).count, 0);
  EXPECT_EQ(log.report.warning(Warning::kDuplicateJobNumber).count, 0);
}

TEST(ReaderReal, KthPlainEqualsGzip) {
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  TempDir dir;
  const std::string plain = dir.file("kth.swf");
  write_file(plain, gunzip_file(trace_path("KTH-SP2-1996-2.swf.gz")));
  const Log a = read_log(trace_path("KTH-SP2-1996-2.swf.gz"));
  const Log b = read_log(plain);
  EXPECT_EQ(a.records, b.records);
  EXPECT_EQ(a.header.lines, b.header.lines);
  // Detection is by content: a gzip file without .gz and a plain file named .gz both work.
  const std::string misnamed = dir.file("plain-named.swf.gz");
  write_file(misnamed, schedlab::testing::read_file(plain));
  EXPECT_EQ(read_log(misnamed).records.size(), 28489u);
}

TEST(ReaderReal, CtcWarningsAndDecimals) {
  SCHEDLAB_NEED_TRACE("CTC-SP2-1996-3.1-cln.swf.gz");
  const Log log = read_log(trace_path("CTC-SP2-1996-3.1-cln.swf.gz"));
  EXPECT_EQ(log.records.size(), 77222u);
  EXPECT_EQ(*log.header.max_procs, 338);
  // awk over the log: 39087 fields with a decimal point, 7174 jobs with 0 < estimate < runtime.
  EXPECT_EQ(log.report.decimal_fields, 39087);
  EXPECT_EQ(log.report.warning(Warning::kEstimateBelowRuntime).count, 7174);
  EXPECT_EQ(log.report.warning(Warning::kSizeAboveMaxProcs).count, 0);
  // Line 30 is "    1        0 588530    937  306 142.00 ..." (avg CPU 142.00 = 142: no fraction to keep).
  EXPECT_EQ(log.records[0].avg_cpu_time, 142);
  EXPECT_FALSE(log.records[0].fractional(6));
  EXPECT_EQ(log.records[0].allocated_procs, 306);
}

TEST(ReaderReal, RecordCountsOfEveryLog) {
  const std::vector<std::pair<std::string, size_t>> expected = {
      {"CEA-Curie-2011-2.1-cln.swf.gz", 312826}, {"CTC-SP2-1996-3.1-cln.swf.gz", 77222},
      {"HPC2N-2002-2.2-cln.swf.gz", 202871},     {"KTH-SP2-1996-2.1-cln.swf.gz", 28476},
      {"KTH-SP2-1996-2.swf.gz", 28489},          {"LANL-CM5-1994-4.1-cln.swf.gz", 122060},
      {"LLNL-Atlas-2006-2.1-cln.swf.gz", 43778}, {"LLNL-Thunder-2007-1.1-cln.swf.gz", 121039},
      {"NASA-iPSC-1993-3.1-cln.swf.gz", 18239},  {"OSC-Clust-2000-3.1-cln.swf.gz", 36097},
      {"SDSC-DS-2004-2.1-cln.swf.gz", 96069},    {"SDSC-Par-1996-3.1-cln.swf.gz", 32135},
      {"Sandia-Ross-2001-1.1-cln.swf.gz", 57882}};
  const std::vector<std::pair<std::string, int64_t>> max_procs = {
      {"CEA-Curie-2011-2.1-cln.swf.gz", 93312}, {"CTC-SP2-1996-3.1-cln.swf.gz", 338},
      {"HPC2N-2002-2.2-cln.swf.gz", 240},       {"KTH-SP2-1996-2.1-cln.swf.gz", 100},
      {"KTH-SP2-1996-2.swf.gz", 100},           {"LANL-CM5-1994-4.1-cln.swf.gz", 1024},
      {"LLNL-Atlas-2006-2.1-cln.swf.gz", 9216}, {"LLNL-Thunder-2007-1.1-cln.swf.gz", 4008},
      {"NASA-iPSC-1993-3.1-cln.swf.gz", 128},   {"OSC-Clust-2000-3.1-cln.swf.gz", 178},
      {"SDSC-DS-2004-2.1-cln.swf.gz", 1664},    {"SDSC-Par-1996-3.1-cln.swf.gz", 400},
      {"Sandia-Ross-2001-1.1-cln.swf.gz", 1524}};
  for (size_t i = 0; i < expected.size(); ++i) {
    const auto& [file, count] = expected[i];
    SCHEDLAB_NEED_TRACE(file);
    SCOPED_TRACE(file);
    const Log log = read_log(trace_path(file));
    EXPECT_EQ(log.records.size(), count);
    // No shared log has a preempted job's lines; Sandia-Ross's 1,994 records of status 2 (exit codes) are jobs.
    EXPECT_EQ(log.report.partial_executions.count, 0);
    EXPECT_EQ(log.header.max_procs.value_or(-1), max_procs[i].second);
    EXPECT_TRUE(log.header.problems.empty()) << log.header.problems.front();
  }
}

TEST(ReaderParse, TabsRunsOfSpacesLeadingSpaces) {
  const std::string text = "  1\t0  5 \t 100 4 -1 -1 4 200 -1 1 2 3 -1 -1 -1 -1 -1  \n"
                           "\t2 10 0 50 8 -1 -1 8 100 -1 1 2 3 4 5 6 7 8\t\n";
  const Log log = parse_log(text);
  ASSERT_EQ(log.records.size(), 2u);
  EXPECT_EQ(log.records[0], make({1, 0, 5, 100, 4, -1, -1, 4, 200, -1, 1, 2, 3, -1, -1, -1, -1, -1}));
  EXPECT_EQ(log.records[1], make({2, 10, 0, 50, 8, -1, -1, 8, 100, -1, 1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(log.report.decimal_fields, 0);
}

// A UTF-8 byte order mark before the first line (a file saved by a Windows editor) is not part of it: the first
// header line was taken for a record ("expected 18 fields, found 3"). Elsewhere those bytes are not skipped.
TEST(ReaderParse, AByteOrderMarkIsNotPartOfTheFirstLine) {
  const Log log = parse_log("\xEF\xBB\xBF; MaxProcs: 64\r\n" + rec("1 0 5 100 4") + "\n");
  EXPECT_EQ(log.header.lines, std::vector<std::string>{"; MaxProcs: 64"});
  EXPECT_EQ(log.header.max_procs.value_or(0), 64);
  ASSERT_EQ(log.records.size(), 1u);
  EXPECT_EQ(parse_log("\xEF\xBB\xBF" + rec("1 0 5 100 4") + "\n").records.size(), 1u);  // a record first
  EXPECT_THROW(parse_log(rec("1 0 5 100 4") + "\n\xEF\xBB\xBF" + rec("2 0 5 100 4") + "\n"), ReadError);
}

TEST(ReaderParse, CrlfAndBlankLines) {
  const std::string text = "; Version: 2.2\r\n; MaxProcs: 64\r\n\r\n" + rec("1 0 5 100 4") + "\r\n   \r\n\n\t\n" +
                           rec("2 3 5 100 4") + "\r\n";
  const Log log = parse_log(text);
  ASSERT_EQ(log.records.size(), 2u);
  EXPECT_EQ(log.records[1].submit_time, 3);
  EXPECT_EQ(log.records[1].think_time, -1);  // no '\r' left in the last field
  EXPECT_EQ(log.header.lines, (std::vector<std::string>{"; Version: 2.2", "; MaxProcs: 64"}));
  EXPECT_EQ(log.header.version.value_or(""), "2.2");
  EXPECT_EQ(log.header.max_procs.value_or(0), 64);
  EXPECT_EQ(log.report.blank_lines, 4);
  EXPECT_EQ(log.report.lines, 8);
  EXPECT_EQ(log.report.header_lines, 2);
}

TEST(ReaderParse, DecimalsKeptExactlyRoundedInTheIntegerMembersAndCounted) {
  const std::string text = rec("1 0 5 14400.0 -1.0 3.5 2.4999 -2.5 1e3 +7 0.5") + "\n" + rec("2 0 5 100 4") + "\n";
  const Log log = parse_log(text);
  ASSERT_EQ(log.records.size(), 2u);
  const Record& r = log.records[0];
  EXPECT_EQ(r.run_time, 14400);
  EXPECT_EQ(r.allocated_procs, -1);
  EXPECT_EQ(r.avg_cpu_time, 4);         // 3.5 rounds half away from zero
  EXPECT_EQ(r.used_memory, 2);          // 2.4999
  EXPECT_EQ(r.requested_procs, -3);     // -2.5
  EXPECT_EQ(r.requested_time, 1000);    // 1e3
  EXPECT_EQ(r.requested_memory, 7);     // "+7" is an integer, not a decimal
  EXPECT_EQ(r.status, 1);               // 0.5
  EXPECT_EQ(log.report.decimal_fields, 7);
  // The exact values are kept; integral ones ("14400.0", "1e3") need no fraction.
  EXPECT_EQ(r.value(4), 14400.0);
  EXPECT_FALSE(r.fractional(4));
  EXPECT_FALSE(r.fractional(9));
  EXPECT_EQ(r.value(6), 3.5);
  EXPECT_EQ(r.value(7), 2.4999);
  EXPECT_EQ(r.value(8), -2.5);
  EXPECT_EQ(r.value(11), 0.5);
  EXPECT_TRUE(r.has_fractions());
  EXPECT_FALSE(log.records[1].has_fractions());  // the reader's reused record does not carry them over
}

TEST(ReaderParse, ExtremeIntegersAccepted) {
  const Log log = parse_log(rec("2147483647 -2147483648 2147483647.4 -2147483648.4") + "\n");
  ASSERT_EQ(log.records.size(), 1u);
  EXPECT_EQ(log.records[0].job_number, 2147483647);
  EXPECT_EQ(log.records[0].submit_time, INT32_MIN);
  EXPECT_EQ(log.records[0].wait_time, 2147483647);
  EXPECT_EQ(log.records[0].run_time, INT32_MIN);
}

TEST(ReaderParse, HeaderBetweenRecordsGoesToHeader) {
  const std::string text = "; MaxProcs: 8\n" + rec("1 0 5 100 4") + "\n; Note: middle\n  ; indented comment\n" +
                           rec("2 1 5 100 4") + "\n";
  const Log log = parse_log(text);
  ASSERT_EQ(log.records.size(), 2u);
  EXPECT_EQ(log.header.lines,
            (std::vector<std::string>{"; MaxProcs: 8", "; Note: middle", "  ; indented comment"}));
  EXPECT_EQ(log.header.notes, std::vector<std::string>{"middle"});
  EXPECT_EQ(log.report.header_lines, 3);
}

TEST(ReaderParse, HeaderOnlyFile) {
  const Log log = parse_log("; Version: 2.2\n; MaxProcs: 128\n;\n");
  EXPECT_TRUE(log.records.empty());
  EXPECT_EQ(log.header.lines.size(), 3u);
  EXPECT_EQ(log.header.max_procs.value_or(0), 128);
}

TEST(ReaderParse, LastLineWithoutNewline) {
  const Log log = parse_log("; x\n" + rec("1 0 5 100 4") + "\n" + rec("2 9 5 100 4"));
  ASSERT_EQ(log.records.size(), 2u);
  EXPECT_EQ(log.records[1].submit_time, 9);
}

TEST(ReaderParse, RecordsWithoutHeader) {
  const Log log = parse_log(rec("1 0 5 100 4") + "\n");
  EXPECT_EQ(log.records.size(), 1u);
  EXPECT_TRUE(log.header.lines.empty());
  EXPECT_FALSE(log.header.max_procs.has_value());
}

TEST(ReaderParse, StreamingApi) {
  TempDir dir;
  write_file(dir.file("a.swf"), "; MaxProcs: 10\n" + rec("1 0 5 100 4") + "\n" + rec("2 3 5 100 4") + "\n");
  Reader reader(dir.file("a.swf"));
  EXPECT_EQ(reader.header().max_procs.value_or(0), 10);  // read by the constructor
  EXPECT_EQ(reader.path(), dir.file("a.swf"));
  Record r;
  ASSERT_TRUE(reader.next(r));
  EXPECT_EQ(r.job_number, 1);
  ASSERT_TRUE(reader.next(r));
  EXPECT_EQ(r.job_number, 2);
  EXPECT_FALSE(reader.next(r));
  EXPECT_FALSE(reader.next(r));  // stays at the end
  EXPECT_EQ(reader.report().records, 2);
}

TEST(ReaderWarnings, EachKindWithCountAndFirstLine) {
  const std::string text =
      "; MaxProcs: 16\n"                                 // line 1
      + rec("1 100 -5 10 4 -1 -1 4 20 -1 1") + "\n"     // 2: negative wait
      + rec("2 100 0 -1 4 -1 -1 4 20 -1 1") + "\n"      // 3: completed, runtime unknown
      + rec("3 100 0 -1 4 -1 -1 4 20 -1 0") + "\n"      // 4: failed, runtime unknown: no warning
      + rec("4 100 0 10 32 -1 -1 -1 20 -1 1") + "\n"    // 5: size 32 (allocated) > 16
      + rec("5 100 0 10 32 -1 -1 8 20 -1 1") + "\n"     // 6: requested 8 counts: no warning
      + rec("6 50 0 10 4 -1 -1 4 20 -1 1") + "\n"       // 7: submit out of order
      + rec("7 -1 0 10 4 -1 -1 4 20 -1 1") + "\n"       // 8: unknown submit: not compared
      + rec("8 60 0 10 4 -1 -1 4 20 -1 1") + "\n"       // 9: 60 >= 50: in order
      + rec("1 60 0 10 4 -1 -1 4 20 -1 1") + "\n"       // 10: duplicate job 1
      + rec("9 60 0 30 4 -1 -1 4 20 -1 1") + "\n"       // 11: estimate 20 < runtime 30
      + rec("10 60 0 30 4 -1 -1 4 -1 -1 1") + "\n"      // 12: no estimate: no warning
      + rec("1 60 -2 -3 4 -1 -1 4 20 -1 1") + "\n";     // 13: duplicate, negative wait, negative runtime
  const Log log = parse_log(text);
  ASSERT_EQ(log.records.size(), 12u);
  auto check = [&](Warning w, int64_t count, int64_t first) {
    SCOPED_TRACE(std::string(warning_name(w)));
    EXPECT_EQ(log.report.warning(w).count, count);
    EXPECT_EQ(log.report.warning(w).first_line, first);
  };
  check(Warning::kNegativeWait, 2, 2);
  check(Warning::kNegativeRuntimeCompleted, 2, 3);
  check(Warning::kSizeAboveMaxProcs, 1, 5);
  check(Warning::kSubmitOutOfOrder, 1, 7);
  check(Warning::kDuplicateJobNumber, 2, 10);
  check(Warning::kEstimateBelowRuntime, 1, 11);
}

// Records built in memory (a DataFrame from Python) get the reader's counts: the same warnings, each first at
// its 1-based row (the records above without their header line: line L of the text is row L - 1).
TEST(ReaderWarnings, RecordsBuiltInMemoryAreCheckedAlike) {
  const Log read = parse_log("; MaxProcs: 16\n" + rec("1 100 -5 10 4 -1 -1 4 20 -1 1") + "\n" +
                             rec("6 50 0 10 32 -1 -1 -1 20 -1 1") + "\n" + rec("1 60 0 30 4 -1 -1 4 20 -1 1") + "\n" +
                             rec("2 70 0 -1 4 -1 -1 4 20 -1 1") + "\n");
  const Log built = log_from_records("DataFrame", read.header, read.records);
  EXPECT_EQ(built.path, "DataFrame");
  EXPECT_EQ(built.records, read.records);
  EXPECT_EQ(built.report.records, 4);
  EXPECT_EQ(built.report.lines, 0);
  for (int w = 0; w < kWarningKinds; ++w) {
    SCOPED_TRACE(std::string(warning_name(static_cast<Warning>(w))));
    const WarningCount& b = built.report.warnings[static_cast<size_t>(w)];
    const WarningCount& r = read.report.warnings[static_cast<size_t>(w)];
    EXPECT_EQ(b.count, r.count);
    EXPECT_EQ(b.first_line, r.first_line == 0 ? 0 : r.first_line - 1);
  }
  EXPECT_EQ(built.report.warning(Warning::kDuplicateJobNumber).count, 1);
  EXPECT_EQ(built.report.warning(Warning::kSubmitOutOfOrder).first_line, 2);
  EXPECT_EQ(built.report.decimal_fields, 0);
}

// Fractions in records built in memory are counted as the reader counts decimals in a file (a float column of a
// DataFrame said 0 while the same values written to a file said 3).
TEST(ReaderWarnings, FractionsInRecordsBuiltInMemoryAreCounted) {
  const Log read = parse_log("; MaxProcs: 16\n" + rec("1 0 0 10.7 2.5 -1 -1 2.5 20 -1 1") + "\n" +
                             rec("2 5 0 10 4 -1 -1 4 20 -1 1") + "\n");
  ASSERT_EQ(read.report.decimal_fields, 3);
  EXPECT_EQ(log_from_records("DataFrame", read.header, read.records).report.decimal_fields, 3);
}

// A preempted job, as the SWF definition writes it: its summary line (status 1, the whole run time), then a line per
// burst with the same job number (status 2: to be continued; 3: the last, completed). The bursts are not jobs of
// their own: left out and counted, or kept for a copy of the file.
std::string preempted_log() {
  return "; MaxProcs: 8\n" + rec("1 0 10 100 4 -1 -1 4 200 -1 1") + "\n" +  // line 2: job 1's summary
         rec("1 0 10 40 4 -1 -1 4 200 -1 2") + "\n" +                         // line 3: its first burst
         rec("1 -1 20 60 4 -1 -1 4 200 -1 3") + "\n" +                        // line 4: its last burst
         rec("2 5 0 50 8 -1 -1 8 100 -1 2") + "\n" +   // line 5: status 2 on a job number of its own: a job
         rec("3 6 0 50 8 -1 -1 8 100 -1 1") + "\n" +   // line 6: a job
         rec("-1 7 0 5 1 -1 -1 1 10 -1 1") + "\n" +    // line 7: unknown job numbers are never one job's lines
         rec("-1 8 0 5 1 -1 -1 1 10 -1 4") + "\n";     // line 8
}

TEST(ReaderPartialExecutions, LeftOutAndCountedByDefault) {
  const Log log = parse_log(preempted_log());
  ASSERT_EQ(log.records.size(), 5u);
  EXPECT_EQ(log.report.records, 5);
  EXPECT_EQ(log.records[0].run_time, 100);  // the summary line stands for the job
  EXPECT_EQ(log.records[1].job_number, 2);
  EXPECT_EQ(log.records[4].status, 4);
  EXPECT_EQ(log.report.partial_executions.count, 2);
  EXPECT_EQ(log.report.partial_executions.first_line, 3);
  EXPECT_FALSE(log.report.partial_executions_kept);
  // The lines left out are not checked either: no duplicate job number for job 1's bursts.
  EXPECT_EQ(log.report.warning(Warning::kDuplicateJobNumber).count, 0);
  EXPECT_EQ(partial_executions_note(log),
            "<memory>: 2 partial-execution lines (status 2-4 after their job's summary line; the first at line 3) "
            "left out: each job counts once, by its summary line");
}

TEST(ReaderPartialExecutions, KeptForACopy) {
  ReadOptions keep;
  keep.keep_partial_executions = true;
  const Log log = parse_log(preempted_log(), "<memory>", keep);
  ASSERT_EQ(log.records.size(), 7u);
  EXPECT_EQ(log.records[1].status, 2);
  EXPECT_EQ(log.report.partial_executions.count, 2);
  EXPECT_TRUE(log.report.partial_executions_kept);
  EXPECT_EQ(log.report.warning(Warning::kDuplicateJobNumber).count, 2);
  EXPECT_EQ(partial_executions_note(log), "");
  EXPECT_EQ(partial_executions_note(parse_log(rec("1 0 5 100 4") + "\n")), "");
}

// The CSV reader and records built in memory (a DataFrame) follow the same rule, with the same counts.
TEST(ReaderPartialExecutions, CsvAndRecordsInMemoryAlike) {
  ReadOptions keep;
  keep.keep_partial_executions = true;
  const Log all = parse_log(preempted_log(), "<memory>", keep);
  const Log built = log_from_records("DataFrame", all.header, all.records);
  EXPECT_EQ(built.records, parse_log(preempted_log()).records);
  EXPECT_EQ(built.report.records, 5);
  EXPECT_EQ(built.report.partial_executions.count, 2);
  EXPECT_EQ(built.report.partial_executions.first_line, 2);  // row 2
  EXPECT_EQ(log_from_records("DataFrame", all.header, all.records, keep).records, all.records);
}

TEST(ReaderWarnings, NoneWithoutOddities) {
  const Log log = parse_log("; MaxProcs: 16\n" + rec("1 0 0 10 4 -1 -1 4 20 -1 1") + "\n" +
                            rec("2 5 0 10 4 -1 -1 4 20 -1 1") + "\n");
  for (int w = 0; w < kWarningKinds; ++w) {
    EXPECT_EQ(log.report.warnings[static_cast<size_t>(w)].count, 0);
    EXPECT_EQ(log.report.warnings[static_cast<size_t>(w)].first_line, 0);
  }
}

TEST(ReaderWarnings, DuplicateDetectionOnHugeJobNumbers) {
  // Huge job numbers must not allocate a bitset of 2^31 bits.
  std::string text;
  for (int i = 0; i < 1000; ++i) text += rec(std::to_string(2147483647 - i) + " 0 0 1 1") + "\n";
  text += rec("2147483000 0 0 1 1") + "\n";   // duplicate of 2147483647 - 647
  text += rec("16777216 0 0 1 1") + "\n";     // 2^24: first in the hash set
  text += rec("16777215 0 0 1 1") + "\n";     // 2^24 - 1: last of the bitset
  text += rec("16777216 0 0 1 1") + "\n";
  text += rec("16777215 0 0 1 1") + "\n";
  text += rec("0 0 0 1 1") + "\n" + rec("0 0 0 1 1") + "\n";
  text += rec("-1 0 0 1 1") + "\n" + rec("-1 0 0 1 1") + "\n";  // unknown job numbers are not compared
  const Log log = parse_log(text);
  EXPECT_EQ(log.report.warning(Warning::kDuplicateJobNumber).count, 4);
  EXPECT_EQ(log.report.warning(Warning::kDuplicateJobNumber).first_line, 1001);
}

TEST(ReaderBuffering, ManyRecordsAcrossRefillsPlainAndGzip) {
  // About 7 MB: several 1 MB refills, lines cut at every possible buffer position.
  std::string text = "; Version: 2.2\n";
  const int n = 100000;
  for (int i = 1; i <= n; ++i) {
    text += std::to_string(i) + " " + std::to_string(i * 3) + " 1 " + std::to_string(i % 977) +
            " 4 -1 -1 4 2000 -1 1 " + std::to_string(i % 13) + " 1 -1 -1 -1 -1 -1";
    text += (i % 3 == 0) ? "\r\n" : "\n";
    if (i % 10007 == 0) text += "\n; Note: chunk " + std::to_string(i) + "\n";
  }
  TempDir dir;
  write_file(dir.file("big.swf"), text);
  write_gzip(dir.file("big.gz"), text);
  for (const std::string& path : {dir.file("big.swf"), dir.file("big.gz")}) {
    SCOPED_TRACE(path);
    const Log log = read_log(path);
    ASSERT_EQ(log.records.size(), static_cast<size_t>(n));
    for (int i = 1; i <= n; ++i) {
      const Record& r = log.records[static_cast<size_t>(i - 1)];
      ASSERT_EQ(r.job_number, i);
      ASSERT_EQ(r.submit_time, i * 3);
      ASSERT_EQ(r.run_time, i % 977);
      ASSERT_EQ(r.user_id, i % 13);
      ASSERT_EQ(r.think_time, -1);
    }
    EXPECT_EQ(log.header.notes.size(), 9u);
    EXPECT_EQ(log.report.blank_lines, 9);
  }
  const Log mem = parse_log(text);
  EXPECT_EQ(mem.records.size(), static_cast<size_t>(n));
}

// The whole-file path (libdeflate) must read exactly what the zlib stream reads. A large first member and a tiny
// last one make the last member's ISIZE (the first guess of the text's size) far too small: the buffer grows.
// The stream is read through a FIFO (no size known: zlib).
TEST(ReaderGzip, WholeDecompressionMatchesTheStreamAndGrowsPastAShortGuess) {
  std::string big = "; Version: 2.2\n";
  for (int i = 1; i <= 60000; ++i)
    big += std::to_string(i) + " " + std::to_string(i * 2) + " 3 " + std::to_string(i % 5000) +
           " 8 -1 -1 8 7200 -1 1 " + std::to_string(i % 7) + " 1 -1 -1 -1 -1 -1\n";
  const std::string small = "60001 120002 3 5 8 -1 -1 8 7200 -1 1 1 1 -1 -1 -1 -1 -1\n";
  TempDir dir;
  write_file(dir.file("plain.swf"), big + small);
  write_gzip(dir.file("a.gz"), big);
  write_gzip(dir.file("b.gz"), small);
  const std::string gz =
      schedlab::testing::read_file(dir.file("a.gz")) + schedlab::testing::read_file(dir.file("b.gz"));
  ASSERT_LT(gz.size() * 4, big.size());  // the guess (4 x compressed, or ISIZE) is short
  write_file(dir.file("ab.gz"), gz);
  const Log plain = read_log(dir.file("plain.swf"));
  const Reader whole(dir.file("ab.gz"));
  EXPECT_EQ(whole.size_hint(), static_cast<int64_t>(big.size() + small.size()));
  const Log from_file = read_log(dir.file("ab.gz"));
  ASSERT_EQ(from_file.records.size(), 60001u);
  EXPECT_EQ(from_file.records, plain.records);
  EXPECT_EQ(parse_log(gz, "mem.gz").records, plain.records);
  const std::string fifo = dir.file("fifo.gz");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { write_file(fifo, gz); });
  const Log streamed = read_log(fifo);
  writer.join();
  EXPECT_EQ(streamed.records, plain.records);
  EXPECT_EQ(streamed.header.lines, from_file.header.lines);
}

// Fault injection: a gzip file whose last four bytes (ISIZE, the whole-file path's first guess of the text's size)
// claim 900 MB, read under a limit on address space (ulimit -v) 256 MB above what the process holds. The reader
// reports the corruption, as it does without the limit, not "out of memory": it asked for the 900 MB at once, until
// the guess was bounded by what deflate can make of the file's few kilobytes.
TEST(ReaderGzip, ASizeInTheTrailerBeyondDeflatesReachIsNotBelieved) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "the sanitizers reserve far more address space than the limit";
#else
  TempDir dir;
  std::string text = "; Version: 2.2\n";
  for (int i = 1; i <= 200; ++i) text += rec(std::to_string(i) + " " + std::to_string(i) + " 0 10 1") + "\n";
  write_gzip(dir.file("good.gz"), text);
  std::string gz = schedlab::testing::read_file(dir.file("good.gz"));
  const uint32_t claimed = 900u << 20;
  std::memcpy(gz.data() + gz.size() - 4, &claimed, 4);  // little-endian, as the reader reads it
  const std::string path = dir.file("bad.gz");
  write_file(path, gz);
  // In the child: 0 when both reads report the corruption, 2 for an allocation that failed, 3 for no error.
  const auto read_both_under_a_limit = [&] {
    long pages = 0;
    std::ifstream("/proc/self/statm") >> pages;
    const auto held = static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE));
    const struct rlimit limit{held + (rlim_t{256} << 20), held + (rlim_t{256} << 20)};
    if (::setrlimit(RLIMIT_AS, &limit) != 0) std::_Exit(4);
    for (int k = 0; k < 2; ++k) {
      try {
        if (k == 0) (void)parse_log(gz, "bad.gz");
        else (void)read_log(path);
        std::_Exit(3);
      } catch (const ReadError& e) {
        std::fprintf(stderr, "%s\n", e.what());
      } catch (const std::bad_alloc&) {
        std::_Exit(2);
      }
    }
    std::_Exit(0);
  };
  EXPECT_EXIT(read_both_under_a_limit(), ::testing::ExitedWithCode(0),
              "bad.gz: corrupt gzip stream: incorrect length check\n.*bad.gz: corrupt gzip stream: incorrect length");
#endif
}

TEST(ReaderGzip, MemoryGzipAndConcatenatedMembers) {
  TempDir dir;
  const std::string a = "; Version: 2.2\n" + rec("1 0 5 100 4") + "\n";
  const std::string b = rec("2 1 5 100 4") + "\n";
  write_gzip(dir.file("a.gz"), a);
  write_gzip(dir.file("b.gz"), b);
  const std::string both = schedlab::testing::read_file(dir.file("a.gz")) + schedlab::testing::read_file(dir.file("b.gz"));
  write_file(dir.file("ab.gz"), both);
  const Log log = read_log(dir.file("ab.gz"));
  ASSERT_EQ(log.records.size(), 2u);
  EXPECT_EQ(log.records[1].job_number, 2);
  const Log mem = parse_log(both, "mem.gz");
  EXPECT_EQ(mem.records, log.records);
  EXPECT_EQ(mem.header.lines, log.header.lines);
}

TEST(ReaderInput, SizeHint) {
  TempDir dir;
  const std::string text = rec("1 0 5 100 4") + "\n";
  write_file(dir.file("a.swf"), text);
  write_gzip(dir.file("a.gz"), text);
  EXPECT_EQ(Reader(dir.file("a.swf")).size_hint(), static_cast<int64_t>(text.size()));
  // A gzip file is decompressed whole (libdeflate): its text's size is known.
  EXPECT_EQ(Reader(dir.file("a.gz")).size_hint(), static_cast<int64_t>(text.size()));
}

}  // namespace
}  // namespace schedlab::swf
