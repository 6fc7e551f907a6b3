// The parallel read (ReadOptions::threads, Reader::next_batch) against the line-by-line read: the same records,
// header, report and first error, with pieces ending everywhere, over real logs, in memory, plain and gzip files,
// and over logs with every kind of fault placed at random.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <random>
#include <string>
#include <thread>
#include <vector>

#include "schedlab/swf/reader.h"
#include "schedlab/swf/writer.h"
#include "test_util.h"

namespace schedlab::swf {
namespace {

using schedlab::testing::bundled_kth;
using schedlab::testing::TempDir;
using schedlab::testing::trace_exists;
using schedlab::testing::trace_path;
using schedlab::testing::write_file;

ReadOptions parallel_options(int threads, size_t piece_bytes, bool skip_invalid = false) {
  ReadOptions o;
  o.threads = threads;
  o.parallel_piece_bytes = piece_bytes;
  o.skip_invalid = skip_invalid;
  return o;
}

// Every part of a read that a caller sees, as text: the first difference is easy to read in a failure.
std::string describe_read_report(const ReadReport& r) {
  std::string s = "lines " + std::to_string(r.lines) + " header " + std::to_string(r.header_lines) + " blank " +
                  std::to_string(r.blank_lines) + " records " + std::to_string(r.records) + " decimal " +
                  std::to_string(r.decimal_fields) + " partial " + std::to_string(r.partial_executions.count) + "@" +
                  std::to_string(r.partial_executions.first_line);
  for (const auto& [reason, n] : r.skipped) s += " " + reason + "=" + std::to_string(n);
  for (int w = 0; w < kWarningKinds; ++w)
    s += " w" + std::to_string(w) + "=" + std::to_string(r.warnings[static_cast<size_t>(w)].count) + "@" +
         std::to_string(r.warnings[static_cast<size_t>(w)].first_line);
  return s;
}

void expect_same_read(const Log& a, const Log& b) {
  EXPECT_EQ(describe_read_report(a.report), describe_read_report(b.report));
  EXPECT_EQ(a.header.lines, b.header.lines);
  EXPECT_EQ(a.header.problems, b.header.problems);
  EXPECT_EQ(a.header.max_procs, b.header.max_procs);
  ASSERT_EQ(a.records.size(), b.records.size());
  for (size_t i = 0; i < a.records.size(); ++i) {
    if (!(a.records[i] == b.records[i])) {
      ADD_FAILURE() << "record " << i << " differs";
      return;
    }
  }
}

// What a read gives: the log, or the error's kind and message.
struct ReadOutcome {
  Log log;
  std::string error;  // "" when the read succeeded
};

template <class Read>
ReadOutcome read_outcome(const Read& read) {
  ReadOutcome o;
  try {
    o.log = read();
  } catch (const MalformedRecordError& e) {
    o.error = std::string("malformed: ") + e.what();
  } catch (const ReadError& e) {
    o.error = std::string("read: ") + e.what();
  }
  return o;
}

void expect_same_read(const ReadOutcome& a, const ReadOutcome& b) {
  EXPECT_EQ(a.error, b.error);
  if (a.error.empty() && b.error.empty()) expect_same_read(a.log, b.log);
}

TEST(ReaderParallel, OnlyWhereTheTextComesInSpans) {
  TempDir dir;
  const std::string text = "; MaxProcs: 4\n1 0 5 100 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1\n";
  write_file(dir.file("plain.swf"), text);
  EXPECT_TRUE(Reader(dir.file("plain.swf"), parallel_options(2, 0)).parallel());
  EXPECT_FALSE(Reader(dir.file("plain.swf"), parallel_options(1, 0)).parallel());
  EXPECT_TRUE(Reader(Reader::FromMemory{}, text, "m", parallel_options(3, 0)).parallel());
  // A gzip file is decompressed whole: in spans too.
  EXPECT_TRUE(Reader(bundled_kth(), parallel_options(2, 0)).parallel());
  // A gzip stream (from a pipe, as every gzip file above 1 GiB of text is read, through zlib, without its size) is
  // read line by line whatever the threads, and gives the same log.
  const std::string fifo = dir.file("kth.gz.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string gz = schedlab::testing::read_file(bundled_kth());
  std::thread writer([&] { write_file(fifo, gz); });
  Log streamed;
  bool parallel = true;
  {
    Reader reader(fifo, parallel_options(2, 0));
    parallel = reader.parallel();
    EXPECT_EQ(reader.size_hint(), -1);
    while (reader.next_batch(streamed.records)) {
    }
  }
  writer.join();
  EXPECT_FALSE(parallel);
  const Log whole = read_log(bundled_kth(), parallel_options(2, 0));
  ASSERT_EQ(streamed.records.size(), whole.records.size());
  EXPECT_TRUE(streamed.records == whole.records);
}

TEST(ReaderParallel, RealLogsWithPiecesEndingEverywhere) {
  const Log one = read_log(bundled_kth(), parallel_options(1, 0));
  ASSERT_GT(one.records.size(), 28000u);
  for (const size_t piece : {size_t{0}, size_t{1}, size_t{4096}, size_t{65536}}) {
    for (const int threads : {2, 3}) {
      SCOPED_TRACE("piece " + std::to_string(piece) + " threads " + std::to_string(threads));
      expect_same_read(one, read_log(bundled_kth(), parallel_options(threads, piece)));
    }
  }
  // The archive's logs with partial-execution lines and header lines between records (kept or left out).
  for (const char* name : {"SDSC-Par-1996-3.1-cln.swf.gz", "LANL-CM5-1994-4.1-cln.swf.gz"}) {
    if (!trace_exists(name)) continue;
    for (const bool keep : {false, true}) {
      ReadOptions a = parallel_options(1, 0), b = parallel_options(2, 8192);
      a.keep_partial_executions = b.keep_partial_executions = keep;
      SCOPED_TRACE(name);
      expect_same_read(read_log(trace_path(name), a), read_log(trace_path(name), b));
    }
  }
}

TEST(ReaderParallel, PlainFileReadInSpansOfABufferRefilled) {
  // Pieces of 64 bytes make spans of 1 KiB: a plain file of 1.8 MB (more than the buffer, 1 MiB for the longest line
  // and the span) is read in thousands of spans, each buffer refill moving a line cut at the end of the last one.
  const Log kth = read_log(bundled_kth());
  std::string text;
  for (size_t i = 0; i < 28000; ++i) {
    text += format_record(kth.records[i]);
    text += i % 7 == 0 ? "\r\n" : "\n";
    if (i % 500 == 0) text += "; Note: between records " + std::to_string(i) + "\n\n";
  }
  TempDir dir;
  write_file(dir.file("plain.swf"), text);
  ASSERT_GT(text.size(), size_t{3} << 19);
  write_file(dir.file("no-final-newline.swf"), text + format_record(kth.records[28000]));
  for (const char* name : {"plain.swf", "no-final-newline.swf"}) {
    SCOPED_TRACE(name);
    const Log one = read_log(dir.file(name), parallel_options(1, 0));
    for (const size_t piece : {size_t{1}, size_t{64}, size_t{1000}}) {
      expect_same_read(one, read_log(dir.file(name), parallel_options(3, piece)));
    }
  }
}

// A log of real records with faults at random places: blank and header lines, CRLF, decimals, partial
// executions, and (when `faults`) malformed lines of each kind.
std::string random_faulty_log(std::mt19937_64& rng, const Log& source, bool faults) {
  std::string text = "; Version: 2.2\n; MaxProcs: 100\n";
  std::uniform_int_distribution<int> pick(0, 99);
  for (size_t i = 0; i < 400; ++i) {
    const Record& r = source.records[i];
    std::string line = format_record(r);
    const int k = pick(rng);
    if (k < 5) text += "\n";
    else if (k < 9) text += "  ; MaxProcs: " + std::to_string(50 + pick(rng)) + "\n";
    else if (k < 11) text += "; MaxProcs: many\n";
    if (k == 20) line += " 1.5";
    if (k == 21) line = line.substr(0, line.find(' ')) + " 17.25" + line.substr(line.find(' ', line.find(' ') + 1));
    if (k == 22) line += "\r";
    if (faults) {
      if (k == 30) line = "1 2 3";
      if (k == 31) line += " x";
      if (k == 32) line = "x" + line;
      if (k == 33) line = "99999999999" + line.substr(line.find(' '));
      if (k == 34) line = "#" + line;
    }
    text += line + "\n";
    if (k == 40) {  // a burst line of the job just written
      Record burst = r;
      burst.status = 3;
      text += format_record(burst) + "\n";
    }
  }
  return text;
}

TEST(ReaderParallel, RandomLogsGiveTheSameRecordsAndTheSameFirstError) {
  const Log kth = read_log(bundled_kth());
  std::mt19937_64 rng(20261204);
  int errors = 0, skipped = 0;
  for (int round = 0; round < 300; ++round) {
    const bool faults = round % 3 != 0;
    const std::string text = random_faulty_log(rng, kth, faults);
    const bool skip = round % 2 == 0;
    const size_t piece = std::vector<size_t>{1, 13, 200, 4096}[static_cast<size_t>(round) % 4];
    SCOPED_TRACE("round " + std::to_string(round));
    const ReadOutcome one = read_outcome([&] { return parse_log(text, "r.swf", parallel_options(1, 0, skip)); });
    const ReadOutcome many = read_outcome([&] { return parse_log(text, "r.swf", parallel_options(3, piece, skip)); });
    expect_same_read(one, many);
    errors += one.error.empty() ? 0 : 1;
    skipped += one.error.empty() && one.log.report.skipped_total() > 0 ? 1 : 0;
    if (::testing::Test::HasFailure()) return;
  }
  // The comparison covered failing reads and reads that skipped lines.
  EXPECT_GT(errors, 30);
  EXPECT_GT(skipped, 30);
}

TEST(ReaderParallel, ALineTooLongIsReportedAtItsLineAfterEveryEarlierFault) {
  const std::string good = "1 0 5 100 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1\n";
  const std::string long_line = std::string((size_t{1} << 20) + 10, '7') + "\n";
  TempDir dir;
  for (const bool earlier_fault : {false, true}) {
    std::string text;
    for (int i = 0; i < 2000; ++i) text += good;
    if (earlier_fault) text += "1 2 3\n";
    text += long_line + good;
    write_file(dir.file("long.swf"), text);
    for (const size_t piece : {size_t{100}, size_t{0}}) {
      const ReadOutcome one = read_outcome([&] { return read_log(dir.file("long.swf"), parallel_options(1, 0)); });
      const ReadOutcome many = read_outcome([&] { return read_log(dir.file("long.swf"), parallel_options(2, piece)); });
      EXPECT_EQ(one.error, many.error);
      EXPECT_NE(one.error.find(earlier_fault ? ":2001: expected 18 fields" : ":2001: line too long"), std::string::npos)
          << one.error;
      const ReadOutcome memory_one = read_outcome([&] { return parse_log(text, "m", parallel_options(1, 0)); });
      const ReadOutcome memory_many = read_outcome([&] { return parse_log(text, "m", parallel_options(2, piece)); });
      EXPECT_EQ(memory_one.error, memory_many.error);
    }
  }
}

}  // namespace
}  // namespace schedlab::swf
