#include "schedlab/swf/csv.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <string>

#include <fmt/core.h>
#include <gtest/gtest.h>

#include "schedlab/swf/reader.h"
#include "schedlab/swf/writer.h"
#include "test_util.h"

namespace schedlab::swf {
namespace {

const char* kColumns =
    "job_number,submit_time,wait_time,run_time,allocated_procs,avg_cpu_time,used_memory,requested_procs,"
    "requested_time,requested_memory,status,user_id,group_id,executable,queue,partition,preceding_job,think_time";

Header small_header() {
  Header h;
  h.lines = {"; Version: 2.2", "; MaxProcs: 100", ";", ";\tindented comment with trailing blanks  "};
  h.max_procs = 100;
  return h;
}

std::vector<Record> small_records() {
  std::vector<Record> records(3);
  for (int i = 0; i < 3; ++i)
    for (int f = 1; f <= kFieldCount; ++f) records[i].field(f) = (i + 1) * 100 + f;
  records[1].wait_time = -1;
  records[2].run_time = 2147483647;
  records[2].user_id = -2147483647 - 1;
  return records;
}

std::string expect_error(const std::string& text) {
  try {
    parse_csv(text, "t.csv");
  } catch (const ReadError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ReadError for:\n" << text;
  return "";
}

TEST(Csv, WritesHeaderLinesColumnRowAndRecords) {
  std::ostringstream out;
  Header h;
  h.lines = {"; MaxProcs: 8"};
  Record r;
  r.job_number = 1;
  r.submit_time = 0;
  write_csv(out, h, {r});
  EXPECT_EQ(out.str(), std::string("#; MaxProcs: 8\n") + kColumns + "\n1,0,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1\n");
}

// A preempted job's partial-execution lines (the SWF reader's rule, swf/reader.h): left out by default and counted
// at their CSV line, kept on request.
TEST(Csv, PartialExecutionLinesAsTheSwfReaderHasThem) {
  const std::string text = std::string(
      "job_number,submit_time,wait_time,run_time,allocated_procs,avg_cpu_time,used_memory,requested_procs,"
      "requested_time,requested_memory,status,user_id,group_id,executable,queue,partition,preceding_job,"
      "think_time\n") +
      "1,0,10,100,4,-1,-1,4,200,-1,1,1,1,-1,-1,-1,-1,-1\n"
      "1,0,10,40,4,-1,-1,4,200,-1,2,1,1,-1,-1,-1,-1,-1\n"
      "2,5,0,50,8,-1,-1,8,100,-1,1,2,1,-1,-1,-1,-1,-1\n";
  const Log log = parse_csv(text);
  ASSERT_EQ(log.records.size(), 2u);
  EXPECT_EQ(log.records[1].job_number, 2);
  EXPECT_EQ(log.report.partial_executions.count, 1);
  EXPECT_EQ(log.report.partial_executions.first_line, 3);
  ReadOptions keep;
  keep.keep_partial_executions = true;
  EXPECT_EQ(parse_csv(text, "<memory>", keep).records.size(), 3u);
}

TEST(Csv, RoundTripInMemory) {
  std::ostringstream out;
  write_csv(out, small_header(), small_records());
  const Log log = parse_csv(out.str());
  EXPECT_EQ(log.records, small_records());
  EXPECT_EQ(log.header.lines, small_header().lines);
  EXPECT_EQ(log.header.max_procs, 100);  // header keys are parsed again
  EXPECT_EQ(log.report.records, 3);
  EXPECT_EQ(log.report.header_lines, 4);
}

// A spreadsheet's CSV export starts with a UTF-8 byte order mark: it is not part of the first line (the header line
// was not one: "column 1 is named '\xEF\xBB\xBF#; Version: 2.2'"), nor of the column row when that comes first.
TEST(Csv, AByteOrderMarkIsNotPartOfTheFirstLine) {
  std::ostringstream out;
  write_csv(out, small_header(), small_records());
  const Log log = parse_csv("\xEF\xBB\xBF" + out.str());
  EXPECT_EQ(log.records, small_records());
  EXPECT_EQ(log.header.lines, small_header().lines);
  const std::string text = out.str();
  const Log no_header = parse_csv("\xEF\xBB\xBF" + text.substr(text.find("job_number")));
  EXPECT_EQ(no_header.records, small_records());
}

// A log opened in a spreadsheet and saved as CSV again: every row padded with empty cells to the widest, header lines
// with a comma quoted, fields quoted when the program quotes all ("1","0",...). Before, the padded header lines
// kept their commas ("MaxProcs: cannot parse '100,,,,,,,,,,,,,,,,,' (ignored)": the machine size was lost), a
// quoted column name was not the column's, and a padded row had "20 fields, expected 18".
TEST(Csv, ASpreadsheetsExportIsRead) {
  const std::string pad(17, ',');
  std::string text = "#; Version: 2.2" + pad + "\r\n#; MaxProcs: 100" + pad + "\r\n\"#; Note: a, \"\"b\"\"\"" + pad + "\r\n";
  std::string quoted_columns;
  for (size_t i = 0; i < kFieldNames.size(); ++i) {
    quoted_columns += i ? ",\"" : "\"";
    quoted_columns += kFieldNames[i];
    quoted_columns += '"';
  }
  text += quoted_columns + "\r\n";
  std::ostringstream out;
  write_csv(out, small_header(), small_records());
  const std::string written = out.str();
  size_t at = written.find('\n', written.find("job_number")) + 1;  // the first record
  const std::string row1 = written.substr(at, written.find('\n', at) - at);
  at += row1.size() + 1;
  const std::string row2 = written.substr(at, written.find('\n', at) - at);
  std::string row2_quoted = "\"";
  for (const char c : row2) row2_quoted += c == ',' ? std::string("\",\"") : std::string(1, c);
  text += row1 + ",,\r\n" + std::string(19, ',') + "\r\n";  // padded, and an empty row
  text += row2_quoted + "\" , \"\"\r\n";                        // quoted, with a padding cell of its own
  const Log log = parse_csv(text, "sheet.csv");
  EXPECT_EQ(log.header.lines, (std::vector<std::string>{"; Version: 2.2", "; MaxProcs: 100", "; Note: a, \"b\""}));
  EXPECT_EQ(log.header.max_procs.value_or(0), 100);
  ASSERT_EQ(log.records.size(), 2u);
  EXPECT_EQ(log.records[0], small_records()[0]);
  EXPECT_EQ(log.records[1], small_records()[1]);
  EXPECT_EQ(log.report.blank_lines, 1);
}

// A header line that ends in ',' is written in quotes (it would be read as padded otherwise), '"' doubled inside.
TEST(Csv, HeaderLinesEndingInACommaRoundTrip) {
  Header h;
  h.lines = {"; Note: a,", "; \"quoted\",", ";,", "; plain, \"with\" quotes", "; cr\r"};
  std::ostringstream out;
  write_csv(out, h, small_records());
  EXPECT_EQ(out.str().substr(0, out.str().find("job_number")),
            "\"#; Note: a,\"\n\"#; \"\"quoted\"\",\"\n\"#;,\"\n#; plain, \"with\" quotes\n\"#; cr\r\"\n");
  // Read from a padded line, the '\r' before the padding go as a line end's do (found by fuzzing the round trip).
  EXPECT_EQ(parse_csv("#; a\r\r,\n" + std::string(kColumns) + "\n", "t.csv").header.lines,
            std::vector<std::string>{"; a"});
  const Log log = parse_csv(out.str(), "t.csv");
  EXPECT_EQ(log.header.lines, h.lines);
  EXPECT_EQ(log.records, small_records());
}

TEST(Csv, MalformedQuotesNameTheColumn) {
  const std::string row = "1,0,5,100,4,-1,-1,4,200,-1,1,2,3,-1,-1,-1,-1,-1";
  EXPECT_EQ(expect_error(std::string(kColumns) + "\n\"1,0,5\n"), "t.csv:2:1: a quote that is not closed on the line");
  EXPECT_EQ(expect_error(std::string(kColumns) + "\n\"1\"x,0\n"), "t.csv:2:4: text after a closing quote");
  EXPECT_EQ(expect_error(std::string(kColumns) + "\n1,2\"3,0\n"),
            "t.csv:2:4: a quote inside a cell that does not start with one");
  EXPECT_EQ(expect_error("\"#; Note\",x\n"), "t.csv:1:11: a quoted '#' header line must be the row's only cell");
  EXPECT_EQ(expect_error(std::string(kColumns) + "\n" + row + ",,7\n"), "t.csv:2:49: 20 fields, expected 18");  // the first cell past the 18th
}

TEST(Csv, Utf16IsNamed) {
  try {
    parse_csv(std::string("\xFF\xFE#\0;\0", 6), "u.csv");
    ADD_FAILURE() << "read";
  } catch (const ReadError& e) {
    EXPECT_STREQ(e.what(), "u.csv: UTF-16 text, which is not read (CSV logs are plain text or gzip): convert it to "
                           "UTF-8 first (iconv -f UTF-16 -t UTF-8)");
  }
}

// Another compressor's output or an archive is named with what to run, as the SWF reader names it (it was
// "binary content (NUL byte)", or for a bzip2 file without a NUL near its start a column error).
TEST(Csv, OtherCompressorsAreNamed) {
  EXPECT_EQ(expect_error("BZh91AY&SY\x65\x01\n"),
            "t.csv: compressed with bzip2, which is not read (CSV logs are plain text or gzip): bunzip2 it first");
  EXPECT_EQ(expect_error("PK\x03\x04\x14"),
            "t.csv: a zip archive, which is not read (CSV logs are plain text or gzip): unzip it first");
  EXPECT_EQ(expect_error("\x28\xB5\x2F\xFD\x01"),
            "t.csv: compressed with zstd, which is not read (CSV logs are plain text or gzip): unzstd it first");
}

TEST(Csv, RoundTripThroughGzipFile) {
  testing::TempDir dir;
  const std::string path = dir.file("log.csv.gz");
  write_csv(path, small_header(), small_records());
  const std::string bytes = testing::read_file(path);
  ASSERT_GE(bytes.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(bytes[0]), 0x1f);  // gzip magic
  EXPECT_EQ(static_cast<unsigned char>(bytes[1]), 0x8b);
  const Log log = read_csv(path);
  EXPECT_EQ(log.records, small_records());
  EXPECT_EQ(log.header.lines, small_header().lines);
}

TEST(Csv, PlainFileIsText) {
  testing::TempDir dir;
  const std::string path = dir.file("log.csv");
  write_csv(path, small_header(), small_records());
  const std::string text = testing::read_file(path);
  EXPECT_EQ(text.rfind("#; Version: 2.2\n", 0), 0u);
  EXPECT_NE(text.find(std::string("\n") + kColumns + "\n"), std::string::npos);
}

// A CSV log gets the SWF reader's warnings, at the CSV's line numbers (stats reported none for a CSV with
// duplicate job numbers).
TEST(Csv, RecordsAreCheckedAsTheSwfReaderChecksThem) {
  const std::string text = std::string("#; MaxProcs: 8\n") + kColumns + "\n" +
                           "1,10,0,5,1,-1,-1,1,20,-1,1,1,1,-1,-1,-1,-1,-1\n"
                           "1,5,0,30,16,-1,-1,16,20,-1,1,1,1,-1,-1,-1,-1,-1\n";
  const Log log = parse_csv(text);
  EXPECT_EQ(log.report.warning(Warning::kDuplicateJobNumber).count, 1);
  EXPECT_EQ(log.report.warning(Warning::kDuplicateJobNumber).first_line, 4);
  EXPECT_EQ(log.report.warning(Warning::kSubmitOutOfOrder).count, 1);
  EXPECT_EQ(log.report.warning(Warning::kSizeAboveMaxProcs).count, 1);
  EXPECT_EQ(log.report.warning(Warning::kEstimateBelowRuntime).count, 1);
  EXPECT_EQ(log.report.warning(Warning::kNegativeWait).count, 0);
}

// Every command reads a log through read_swf_or_csv: the format by name, as convert chooses it.
TEST(Csv, EitherFormatByName) {
  testing::TempDir dir;
  write_csv(dir.file("log.csv.gz"), small_header(), small_records());
  write_csv(dir.file("log.csv"), small_header(), small_records());
  std::ostringstream swf_text;
  for (const auto& l : small_header().lines) swf_text << l << "\n";
  testing::write_file(dir.file("log.swf"), swf_text.str() + "1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n");
  EXPECT_TRUE(is_csv_name("a.csv"));
  EXPECT_TRUE(is_csv_name("a.csv.gz"));
  EXPECT_FALSE(is_csv_name("a.swf.gz"));
  EXPECT_FALSE(is_csv_name("a.csv.swf"));
  EXPECT_EQ(read_swf_or_csv(dir.file("log.csv.gz")).records, small_records());
  EXPECT_EQ(read_swf_or_csv(dir.file("log.csv")).records, small_records());
  EXPECT_EQ(read_swf_or_csv(dir.file("log.swf")).records.size(), 1u);
  ReadOptions skip;
  skip.skip_invalid = true;
  EXPECT_EQ(read_swf_or_csv(dir.file("log.swf"), skip).records.size(), 1u);
  EXPECT_EQ(read_swf_or_csv(dir.file("log.csv"), skip).records, small_records());  // nothing to skip
}

// A data row that is not a record: a MalformedRecordError naming the line and column, or with skip_invalid
// skipped and counted by reason (it was refused for a CSV, with advice that could not be followed).
TEST(Csv, MalformedRowsAreSkippedByReasonWhenAsked) {
  std::ostringstream out;
  write_csv(out, small_header(), small_records());
  const std::string written = out.str();
  std::string text = written;
  const std::string good = "9,0,0,10,1,-1,-1,1,20,-1,1,1,1,1,1,-1,-1,-1\n";
  text += good;
  text += "10,abc,0,10,1,-1,-1,1,20,-1,1,1,1,1,1,-1,-1,-1\n";       // non_numeric
  text += "11,0,0,10,1\n";                                          // wrong_field_count
  text += "12,0,0,99999999999,1,-1,-1,1,20,-1,1,1,1,1,1,-1,-1,-1\n";  // out_of_range
  text += "13,0,0,,1,-1,-1,1,20,-1,1,1,1,1,1,-1,-1,-1\n";            // empty_field
  text += "14,0,0,\"1\"0,1,-1,-1,1,20,-1,1,1,1,1,1,-1,-1,-1\n";       // malformed_quotes
  text += "15,0,0,1.5e20,1,-1,-1,1,20,-1,1,1,1,1,1,-1,-1,-1\n";       // out_of_range (a decimal)
  text += good;
  const int64_t first_bad = static_cast<int64_t>(std::count(written.begin(), written.end(), '\n')) + 2;
  try {
    (void)parse_csv(text, "t.csv");
    ADD_FAILURE() << "no error for a malformed row";
  } catch (const MalformedRecordError& e) {
    EXPECT_EQ(std::string(e.what()), fmt::format("t.csv:{}:4: field 2 (submit_time): 'abc' is not a number",
                                                 first_bad));
  }
  ReadOptions skip;
  skip.skip_invalid = true;
  const Log log = parse_csv(text, "t.csv", skip);
  EXPECT_EQ(log.records.size(), small_records().size() + 2);
  EXPECT_EQ(log.report.skipped, (std::map<std::string, int64_t>{{"empty_field", 1}, {"malformed_quotes", 1},
                                                                 {"non_numeric", 1}, {"out_of_range", 2},
                                                                 {"wrong_field_count", 1}}));
  EXPECT_EQ(log.report.decimal_fields, parse_csv(written, "t.csv").report.decimal_fields);  // none of theirs
  // The column-name row is not a data row: still an error, not skipped.
  EXPECT_THROW((void)parse_csv("job_number,\"x\n", "t.csv", skip), ReadError);
}

TEST(Csv, PerJobResultsAreNamedForWhatTheyAre) {
  try {
    (void)parse_csv("job_id,submit,start,end,procs,runtime,estimate,killed,wait,prediction\n1,0,0,10,1,10,20,0,0,20\n",
                    "jobs.csv");
    ADD_FAILURE() << "per-job results read as a log";
  } catch (const ReadError& e) {
    EXPECT_EQ(std::string(e.what()), "jobs.csv:1:1: the per-job results of simulate --jobs-out, not a log "
                                     "(--jobs-out FILE.swf writes the simulated jobs as a log)");
  }
}

TEST(Csv, AcceptsBlanksCrlfDecimalsAndForeignComments) {
  const std::string row = "1, 0 ,\t5,10.6,1,-1,-1,1,20,-1,1,1,1,-1,-1,-1,-1,-1";
  const Log log = parse_csv(std::string("# made by hand\r\n") + kColumns + "\r\n\r\n" + row + "\r\n#; Note: late\n");
  ASSERT_EQ(log.records.size(), 1u);
  EXPECT_EQ(log.records[0].wait_time, 5);
  EXPECT_EQ(log.records[0].run_time, 11);       // the integer member: rounded
  EXPECT_EQ(log.records[0].value(4), 10.6);     // the value: kept
  EXPECT_EQ(log.report.decimal_fields, 1);
  EXPECT_EQ(log.report.blank_lines, 1);
  EXPECT_EQ(log.header.lines, (std::vector<std::string>{"; made by hand", "; Note: late"}));
}

// A line ending in several '\r' (found by fuzzing): all are removed, so that writing the header line and reading
// it back keeps it (one '\r' fewer each round trip before), in CSV and in SWF.
TEST(Csv, TrailingCarriageReturnsAllGoAndTheRoundTripIsStable) {
  const std::string row = "1,0,5,10,1,-1,-1,1,20,-1,1,1,1,-1,-1,-1,-1,-1";
  const Log log = parse_csv(std::string("#; x  \r\r\r\n") + kColumns + "\r\r\n" + row + "\r\r\n");
  EXPECT_EQ(log.header.lines, std::vector<std::string>{"; x  "});
  std::ostringstream csv;
  write_csv(csv, log.header, log.records);
  EXPECT_EQ(parse_csv(csv.str()).header.lines, log.header.lines);
  const Log swf = parse_log("; y \r\r\n" + format_record(log.records[0]) + "\r\r\n");
  EXPECT_EQ(swf.header.lines, std::vector<std::string>{"; y "});
  EXPECT_EQ(swf.records, log.records);
}

TEST(Csv, WrongColumnNameGivesLineAndColumn) {
  std::string columns = kColumns;
  columns.replace(columns.find("wait_time"), 9, "wait");
  const std::string msg = expect_error("#; x\n" + columns + "\n");
  EXPECT_NE(msg.find("t.csv:2:24:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'wait'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'wait_time'"), std::string::npos) << msg;
}

TEST(Csv, WrongColumnCount) {
  const std::string msg = expect_error("job_number,submit_time\n");
  EXPECT_NE(msg.find("t.csv:1:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("expected 18"), std::string::npos) << msg;
}

TEST(Csv, BadFieldGivesLineColumnAndName) {
  const std::string msg = expect_error(std::string(kColumns) + "\n1,2,3,x4,1,1,1,1,1,1,1,1,1,1,1,1,1,1\n");
  EXPECT_NE(msg.find("t.csv:2:7: field 4 (run_time): 'x4' is not a number"), std::string::npos) << msg;
}

TEST(Csv, WrongFieldCount) {
  const std::string msg = expect_error(std::string(kColumns) + "\n1,2,3\n");
  EXPECT_NE(msg.find("t.csv:2:6: 3 fields, expected 18"), std::string::npos) << msg;
  const std::string more = expect_error(std::string(kColumns) + "\n1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,9\n");
  EXPECT_NE(more.find("t.csv:2:37: 19 fields"), std::string::npos) << more;
}

TEST(Csv, OutOfRangeAndEmptyFields) {
  EXPECT_NE(expect_error(std::string(kColumns) + "\n1,2147483648,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1\n")
                .find("field 2 (submit_time): '2147483648' is outside the 32-bit range"),
            std::string::npos);
  EXPECT_NE(expect_error(std::string(kColumns) + "\n1,,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1\n").find("t.csv:2:3: field 2"),
            std::string::npos);
}

TEST(Csv, EmptyMissingAndNoColumns) {
  EXPECT_NE(expect_error("").find("empty"), std::string::npos);
  EXPECT_NE(expect_error("#; only a header\n").find("no column-name row"), std::string::npos);
  EXPECT_NE(expect_error(std::string("a\0b", 3)).find("binary"), std::string::npos);
  try {
    read_csv("/nonexistent/x.csv");
    FAIL();
  } catch (const ReadError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/x.csv"), std::string::npos);
  }
}

TEST(Csv, TruncatedGzipIsAnError) {
  testing::TempDir dir;
  std::vector<Record> many(5000, small_records()[0]);
  write_csv(dir.file("a.csv.gz"), small_header(), many);
  const std::string bytes = testing::read_file(dir.file("a.csv.gz"));
  testing::write_file(dir.file("b.csv.gz"), bytes.substr(0, bytes.size() / 2));
  EXPECT_THROW(read_csv(dir.file("b.csv.gz")), ReadError);
}

// SWF -> CSV -> SWF on a real log: same records and header lines, and the same SWF text.
TEST(Csv, RoundTripRealLog) {
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  testing::TempDir dir;
  const Log original = read_log(testing::trace_path("KTH-SP2-1996-2.swf.gz"));
  write_csv(dir.file("kth.csv.gz"), original.header, original.records);
  const Log from_csv = read_csv(dir.file("kth.csv.gz"));
  EXPECT_EQ(from_csv.records.size(), 28489u);
  EXPECT_TRUE(from_csv.records == original.records);
  EXPECT_EQ(from_csv.header.lines, original.header.lines);
  write_log(dir.file("kth.swf"), from_csv.header, from_csv.records);
  const Log back = read_log(dir.file("kth.swf"));
  EXPECT_TRUE(back.records == original.records);
  EXPECT_EQ(back.header.lines, original.header.lines);
  std::ostringstream a, b;
  write_log(a, original.header, original.records);
  write_log(b, back.header, back.records);
  EXPECT_TRUE(a.str() == b.str());
}

}  // namespace
}  // namespace schedlab::swf
