// Writer: record formatting, header lines verbatim, plain / gzip / stdout outputs, write errors.
#include "schedlab/swf/writer.h"

#include <gtest/gtest.h>

#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <sstream>

#include "schedlab/swf/reader.h"
#include "test_util.h"

namespace schedlab::swf {
namespace {

using schedlab::testing::read_file;
using schedlab::testing::TempDir;

Record sample_record(int32_t job) {
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
  EXPECT_EQ(format_record(sample_record(7)), "7 -30 -20 -10 0 10 20 30 40 50 60 70 80 90 100 110 120 130");
  Record extreme;
  extreme.job_number = INT32_MAX;
  extreme.submit_time = INT32_MIN;
  EXPECT_EQ(format_record(extreme),
            "2147483647 -2147483648 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1");
}

TEST(WriterStream, HeaderVerbatimThenRecords) {
  std::ostringstream out;
  write_log(out, sample_header(), {sample_record(1), sample_record(2)});
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
  for (int i = 1; i <= 50000; ++i) records.push_back(sample_record(i));  // > 1 MB of text: several flushes
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
  write_log("-", sample_header(), {sample_record(3)});
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(out, "; Version: 2.2\n;   MaxProcs: 100   \n;\n3 -30 -20 -10 0 10 20 30 40 50 60 70 80 90 100 110 120 130\n");
}

TEST(WriterFile, ErrorsNameThePath) {
  TempDir dir;
  const std::string bad = dir.file("no/such/dir/out.swf");
  try {
    write_log(bad, Header{}, {sample_record(1)});
    FAIL() << "no WriteError";
  } catch (const WriteError& e) {
    EXPECT_EQ(std::string(e.what()), bad + ": cannot open for writing: No such file or directory");
  }
  const std::string bad_gz = dir.file("no/such/dir/out.swf.gz");
  try {
    write_log(bad_gz, Header{}, {sample_record(1)});
    FAIL() << "no WriteError";
  } catch (const WriteError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(bad_gz + ": cannot open for writing", 0), 0u) << e.what();
  }
  // An empty name (it said "': cannot replace the file: No such file or directory").
  try {
    write_text_file("", "x");
    FAIL() << "no WriteError";
  } catch (const WriteError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("an empty output file name", 0), 0u) << e.what();
  }
  // A full device.
  if (std::FILE* f = std::fopen("/dev/full", "wb")) {
    std::fclose(f);
    EXPECT_THROW(write_log("/dev/full", sample_header(), {sample_record(1)}), WriteError);
  }
}

std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Fault injection: a file size limit (RLIMIT_FSIZE, SIGXFSZ ignored) makes write(2) fail with EFBIG part-way,
// as a full disk would. The file that was at the path stays as it was, and no temporary is left beside it.
TEST(WriterFile, AFailedWriteLeavesTheOldFileWhole) {
  TempDir dir;
  std::vector<Record> records;  // about 3 MB of text, over 1 MB compressed (pseudo-random fields)
  uint32_t x = 12345;
  for (int i = 1; i <= 50000; ++i) {
    Record r = sample_record(i);
    for (int f = 2; f <= kFieldCount; ++f) {
      x = x * 1664525u + 1013904223u;
      r.field(f) = static_cast<int32_t>(x >> 12);
    }
    records.push_back(r);
  }
  for (const std::string name : {"out.swf", "out.swf.gz", "table.csv"}) {
    SCOPED_TRACE(name);
    const std::string path = dir.file(name);
    write_text_file(path, "the earlier result\n");
    const std::string before = read_file(path);
    struct rlimit old {};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
    const auto previous = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = old;
    small.rlim_cur = 64 * 1024;
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
    std::string error;
    try {
      if (name == "table.csv")
        write_text_file(path, std::string(1 << 20, 'x'));
      else
        write_log(path, sample_header(), records);
    } catch (const WriteError& e) {
      error = e.what();
    }
    ::setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, previous);
    EXPECT_EQ(error.rfind(path + ": write error", 0), 0u) << error;
    EXPECT_EQ(read_file(path), before);
  }
  EXPECT_EQ(entries(dir.path()), (std::vector<std::string>{"out.swf", "out.swf.gz", "table.csv"}));
}

// The record-by-record and piece-by-piece forms write the bytes the whole-vector and whole-text forms do, over
// several 1 MiB flushes (plain and gzip); an exception from the producer part-way (the 32-bit check of a simulated
// schedule, say) leaves what was at the path and no temporary.
TEST(WriterFile, RecordByRecordAndPieceByPieceWriteTheSameBytes) {
  TempDir dir;
  std::vector<Record> records;  // about 5 MB of text
  for (int i = 1; i <= 60000; ++i) records.push_back(sample_record(i));
  records[7].set_value(4, 12.5);  // a record with a fraction takes the other formatting path
  std::string text = "head\n";
  for (int i = 0; i < 150000; ++i) text += std::to_string(i) + ",row\n";
  for (const std::string ext : {"", ".gz"}) {
    SCOPED_TRACE(ext);
    write_log(dir.file("whole.swf" + ext), sample_header(), records);
    size_t calls = 0;
    write_log(dir.file("streamed.swf" + ext), sample_header(), records.size(), [&](size_t i) {
      EXPECT_EQ(i, calls++);  // once each, in order
      return records[i];
    });
    EXPECT_EQ(calls, records.size());
    EXPECT_EQ(read_file(dir.file("streamed.swf" + ext)), read_file(dir.file("whole.swf" + ext)));
    write_text_file(dir.file("whole.csv" + ext), text);
    write_text_file(dir.file("pieces.csv" + ext), "head\n", 150000,
                    [](std::string& out, size_t i) { out += std::to_string(i) + ",row\n"; });
    EXPECT_EQ(read_file(dir.file("pieces.csv" + ext)), read_file(dir.file("whole.csv" + ext)));
  }
  EXPECT_EQ(read_file(dir.file("pieces.csv")), text);
  write_text_file(dir.file("empty.csv"), "only the head\n", 0, [](std::string&, size_t) { FAIL(); });
  EXPECT_EQ(read_file(dir.file("empty.csv")), "only the head\n");

  const std::string before = read_file(dir.file("whole.swf"));
  const auto fail_at = [](size_t i) {
    if (i == 50000) throw std::runtime_error("job 50001 does not fit");  // past the first flush
  };
  EXPECT_THROW(write_log(dir.file("whole.swf"), sample_header(), records.size(),
                         [&](size_t i) {
                           fail_at(i);
                           return records[i];
                         }),
               std::runtime_error);
  EXPECT_EQ(read_file(dir.file("whole.swf")), before);
  EXPECT_THROW(write_text_file(dir.file("whole.swf"), "", records.size(),
                               [&](std::string& out, size_t i) {
                                 fail_at(i);
                                 out += format_record(records[i]) + "\n";
                               }),
               std::runtime_error);
  EXPECT_EQ(read_file(dir.file("whole.swf")), before);
  EXPECT_EQ(entries(dir.path()).size(), 9u);  // the 8 written and empty.csv: no temporary left
}

TEST(WriterFile, AReplacedFileKeepsItsPermissionsAndDevicesAreWrittenInPlace) {
  TempDir dir;
  const std::string path = dir.file("out.swf");
  write_log(path, sample_header(), {sample_record(1)});
  std::filesystem::permissions(path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write |
                                         std::filesystem::perms::group_read);
  write_log(path, sample_header(), {sample_record(2)});
  EXPECT_EQ(std::filesystem::status(path).permissions(),
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write | std::filesystem::perms::group_read);
  EXPECT_NE(read_file(path).find("\n2 "), std::string::npos);
  // Through a symbolic link: the file it names gets the new content, the link stays a link.
  std::filesystem::create_symlink(path, dir.file("link.swf"));
  write_log(dir.file("link.swf"), sample_header(), {sample_record(3)});
  EXPECT_TRUE(std::filesystem::is_symlink(dir.file("link.swf")));
  EXPECT_NE(read_file(path).find("\n3 "), std::string::npos);
  write_log("/dev/null", sample_header(), {sample_record(1)});  // not replaced by a regular file
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
  EXPECT_EQ(entries(dir.path()), (std::vector<std::string>{"link.swf", "out.swf"}));
}

TEST(WriterFile, OutputIsNotInput) {
  TempDir dir;
  const std::string log = dir.file("log.swf");
  write_log(log, sample_header(), {sample_record(1)});
  std::filesystem::create_symlink(log, dir.file("link.swf"));
  EXPECT_NO_THROW(check_output_is_not_input(dir.file("new.swf"), {log}));
  EXPECT_NO_THROW(check_output_is_not_input("-", {log, "-"}));
  EXPECT_NO_THROW(check_output_is_not_input(dir.file("other.swf"), {"-"}));
  for (const std::string& out : {log, dir.file("link.swf"), dir.path() + "/./log.swf"}) {
    try {
      check_output_is_not_input(out, {dir.file("a.swf"), log});
      ADD_FAILURE() << out << " passed";
    } catch (const WriteError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(out + ": the output is the input log " + log + ": write to another file", 0),
                0u)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace schedlab::swf
