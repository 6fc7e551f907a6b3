// Round trip: reading a log and writing it back (plain and gzip) gives the same records and the same
// header lines - over every real log in ../shared/traces and over generated edge-case logs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>

#include <zlib.h>

#include <cstdlib>
#include <string>

#include "schedlab/swf/csv.h"
#include "schedlab/swf/reader.h"
#include "schedlab/swf/writer.h"
#include "test_util.h"

namespace schedlab::swf {
namespace {

using schedlab::testing::all_traces;
using schedlab::testing::TempDir;
using schedlab::testing::trace_path;

void expect_same_log(const Log& a, const Log& b) {
  ASSERT_EQ(a.records.size(), b.records.size());
  EXPECT_TRUE(a.records == b.records);
  EXPECT_EQ(a.header.lines, b.header.lines);
  EXPECT_EQ(a.header.max_procs, b.header.max_procs);
  EXPECT_EQ(a.header.max_nodes, b.header.max_nodes);
  EXPECT_EQ(a.header.notes, b.header.notes);
  EXPECT_EQ(a.header.queues, b.header.queues);
  EXPECT_EQ(a.header.partitions, b.header.partitions);
  EXPECT_EQ(a.header.problems, b.header.problems);
}

TEST(SwfRoundTrip, EveryRealLog) {
  const auto traces = all_traces();
  SCHEDLAB_NEED_TRACES();
  EXPECT_EQ(traces.size(), 13u);
  TempDir dir;
  for (const auto& name : traces) {
    SCOPED_TRACE(name);
    const Log original = read_log(trace_path(name));
    ASSERT_GT(original.records.size(), 0u);
    ASSERT_GT(original.header.lines.size(), 0u);
    const std::string plain = dir.file(name + ".swf");
    const std::string gz = dir.file(name);  // keeps the .swf.gz name: gzip output
    write_log(plain, original.header, original.records);
    write_log(gz, original.header, original.records);
    const Log back_plain = read_log(plain);
    expect_same_log(original, back_plain);
    // Only the non-integral values are written with decimals ("142.00" comes back as "142").
    int64_t fractional = 0;
    for (const Record& r : original.records)
      for (int f = 1; f <= kFieldCount; ++f) fractional += r.fractional(f);
    EXPECT_EQ(back_plain.report.decimal_fields, fractional);
    EXPECT_EQ(back_plain.report.lines,
              static_cast<int64_t>(original.records.size() + original.header.lines.size()));
    expect_same_log(original, read_log(gz));
    std::remove(plain.c_str());
    std::remove(gz.c_str());
  }
}

// Every number of an SWF file's record lines, parsed as a double with strtod - independently of the reader,
// through zlib (which reads plain files too) - in file order.
std::vector<double> numbers_in(const std::string& path) {
  gzFile gz = gzopen(path.c_str(), "rb");
  EXPECT_NE(gz, nullptr) << path;
  std::vector<double> out;
  if (gz == nullptr) return out;
  std::string line;
  char buf[1 << 16];
  while (gzgets(gz, buf, sizeof buf) != nullptr) {
    line += buf;
    if (line.empty() || line.back() != '\n') continue;
    if (line.find(';') == std::string::npos) {
      const char* p = line.c_str();
      char* end = nullptr;
      for (double v = std::strtod(p, &end); end != p; v = std::strtod(p, &end)) {
        out.push_back(v);
        p = end;
      }
    }
    line.clear();
  }
  gzclose(gz);
  return out;
}

// Every field of every record kept to the last digit: SWF -> SWF and SWF -> CSV -> SWF give back the
// numbers of the original text (compared as numbers: "142.00" and "142" are equal, "107.77" and "108" not).
TEST(SwfRoundTrip, EveryRealLogKeepsEveryValueExactly) {
  const auto traces = all_traces();
  SCHEDLAB_NEED_TRACES();
  TempDir dir;
  int logs_with_fractions = 0;
  for (const auto& name : traces) {
    SCOPED_TRACE(name);
    const std::vector<double> original = numbers_in(trace_path(name));
    const Log log = read_log(trace_path(name));
    ASSERT_EQ(original.size(), log.records.size() * kFieldCount);
    bool fractions = false;
    for (double v : original) fractions = fractions || v != std::trunc(v);
    logs_with_fractions += fractions;
    // Through the library's values too.
    for (size_t i = 0; i < log.records.size(); ++i)
      for (int f = 1; f <= kFieldCount; ++f)
        ASSERT_EQ(log.records[i].value(f), original[i * kFieldCount + static_cast<size_t>(f - 1)])
            << "record " << i + 1 << " field " << f;
    const std::string swf = dir.file("a.swf");
    write_log(swf, log.header, log.records);
    EXPECT_TRUE(numbers_in(swf) == original) << "SWF -> SWF";
    const std::string csv = dir.file("a.csv.gz");
    write_csv(csv, log.header, log.records);
    const Log from_csv = read_csv(csv);
    const std::string again = dir.file("b.swf.gz");
    write_log(again, from_csv.header, from_csv.records);
    EXPECT_TRUE(numbers_in(again) == original) << "SWF -> CSV -> SWF";
    std::remove(swf.c_str());
    std::remove(csv.c_str());
    std::remove(again.c_str());
  }
  // SDSC-Par, HPC2N, SDSC-DS and OSC-Clust write average CPU times such as 107.77.
  EXPECT_GE(logs_with_fractions, 4);
}

TEST(SwfRoundTrip, GeneratedEdgeCases) {
  std::mt19937 rng(1);
  std::vector<Record> records;
  for (int i = 0; i < 2000; ++i) {
    Record r;
    for (int f = 1; f <= kFieldCount; ++f) {
      switch (rng() % 4) {
        case 0: r.field(f) = -1; break;
        case 1: r.field(f) = static_cast<int32_t>(rng()); break;  // any 32-bit value
        case 2: r.field(f) = (rng() % 2) ? INT32_MAX : INT32_MIN; break;
        default: r.field(f) = static_cast<int32_t>(rng() % 1000); break;
      }
    }
    records.push_back(r);
  }
  Header header;
  header.add_line("; Version: 2.2");
  header.add_line(";\tNote: tab \t inside  ");
  header.add_line(";");
  header.add_line("  ; leading blanks");
  TempDir dir;
  write_log(dir.file("gen.swf"), header, records);
  const Log back = read_log(dir.file("gen.swf"));
  EXPECT_EQ(back.records, records);
  EXPECT_EQ(back.header.lines, header.lines);
}

TEST(SwfRoundTrip, TextNormalisedButRecordsKept) {
  // Tabs, CRLF, decimals and a header line between records: records and header lines survive; the
  // text is normalised (single spaces, header at the top; 7.6 stays 7.6).
  const std::string text = "; A\r\n\t1  0\t5 7.6 4 -1 -1 4 9 -1 1 2 3 -1 -1 -1 -1 -1\r\n; B\n\n"
                           "2 1 5 8 4 -1 -1 4 9 -1 1 2 3 -1 -1 -1 -1 -1\n";
  const Log log = parse_log(text);
  std::ostringstream out;
  write_log(out, log.header, log.records);
  EXPECT_EQ(out.str(), "; A\n; B\n1 0 5 7.6 4 -1 -1 4 9 -1 1 2 3 -1 -1 -1 -1 -1\n2 1 5 8 4 -1 -1 4 9 -1 1 2 3 -1 -1 -1 -1 -1\n");
  const Log again = parse_log(out.str());
  EXPECT_EQ(again.records, log.records);
  EXPECT_EQ(again.header.lines, log.header.lines);
}

}  // namespace
}  // namespace schedlab::swf
