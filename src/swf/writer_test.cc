// Writer: record formatting, header lines verbatim, plain / gzip / stdout outputs, write errors.
#include "schedlab/swf/writer.h"

#include <gtest/gtest.h>

#include <sstream>

#include "schedlab/swf/reader.h"
#include "test_util.h"

namespace schedlab::swf {
namespace {

using schedlab::testing::read_file;
using schedlab::testing::TempDir;

Record sample(int32_t job) {
  Record r;
  for (int i = 1; i <= kFieldCount; ++i) r.field(i) = i * 10 - 50;
  r.job_number = job;
  return r;
}

Header sample_header() {
  Header h;
  h.add_line("; Version: 2.2");
  h.add_line(";   MaxProcs: 100   ");
  h.add_line(";");
  return h;
}

TEST(WriterFormat, RecordFieldsSeparatedBySingleSpaces) {
  EXPECT_EQ(format_record(Record{}), "-1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1");
  EXPECT_EQ(format_record(sample(7)), "7 -30 -20 -10 0 10 20 30 40 50 60 70 80 90 100 110 120 130");
  Record extreme;
  extreme.job_number = INT32_MAX;
  extreme.submit_time = INT32_MIN;
  EXPECT_EQ(format_record(extreme),
            "2147483647 -2147483648 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1");
}

TEST(WriterStream, HeaderVerbatimThenRecords) {
  std::ostringstream out;
  write_log(out, sample_header(), {sample(1), sample(2)});
  EXPECT_EQ(out.str(),
            "; Version: 2.2\n;   MaxProcs: 100   \n;\n"
            "1 -30 -20 -10 0 10 20 30 40 50 60 70 80 90 100 110 120 130\n"
            "2 -30 -20 -10 0 10 20 30 40 50 60 70 80 90 100 110 120 130\n");
  std::ostringstream empty;
  write_log(empty, Header{}, {});
  EXPECT_EQ(empty.str(), "");
}

TEST(WriterFile, PlainAndGzipReadBack) {
  TempDir dir;
  std::vector<Record> records;
  for (int i = 1; i <= 50000; ++i) records.push_back(sample(i));  // > 1 MB of text: several flushes
  const Header header = sample_header();
  write_log(dir.file("out.swf"), header, records);
  write_log(dir.file("out.swf.gz"), header, records);
  const std::string plain = read_file(dir.file("out.swf"));
  const std::string gz = read_file(dir.file("out.swf.gz"));
  EXPECT_EQ(plain.rfind("; Version: 2.2\n", 0), 0u);
  ASSERT_GE(gz.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(gz[0]), 0x1f);
  EXPECT_EQ(static_cast<unsigned char>(gz[1]), 0x8b);
  EXPECT_LT(gz.size(), plain.size() / 5);
  std::ostringstream expected;
  write_log(expected, header, records);
  EXPECT_EQ(plain, expected.str());
  for (const auto& path : {dir.file("out.swf"), dir.file("out.swf.gz")}) {
    SCOPED_TRACE(path);
    const Log log = read_log(path);
    EXPECT_EQ(log.records, records);
    EXPECT_EQ(log.header.lines, header.lines);
    EXPECT_EQ(log.header.max_procs, 100);
  }
}

TEST(WriterFile, Stdout) {
  ::testing::internal::CaptureStdout();
  write_log("-", sample_header(), {sample(3)});
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(out, "; Version: 2.2\n;   MaxProcs: 100   \n;\n3 -30 -20 -10 0 10 20 30 40 50 60 70 80 90 100 110 120 130\n");
}

TEST(WriterFile, ErrorsNameThePath) {
  TempDir dir;
  const std::string bad = dir.file("no/such/dir/out.swf");
  try {
    write_log(bad, Header{}, {sample(1)});
    FAIL() << "no WriteError";
  } catch (const WriteError& e) {
    EXPECT_EQ(std::string(e.what()), bad + ": cannot open for writing: No such file or directory");
  }
  const std::string bad_gz = dir.file("no/such/dir/out.swf.gz");
  try {
    write_log(bad_gz, Header{}, {sample(1)});
    FAIL() << "no WriteError";
  } catch (const WriteError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(bad_gz + ": cannot open for writing", 0), 0u) << e.what();
  }
  // A full device.
  if (std::FILE* f = std::fopen("/dev/full", "wb")) {
    std::fclose(f);
    EXPECT_THROW(write_log("/dev/full", sample_header(), {sample(1)}), WriteError);
  }
}

}  // namespace
}  // namespace schedlab::swf
