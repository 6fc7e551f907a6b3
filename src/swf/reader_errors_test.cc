// Reader on bad input: every record error message, skip_invalid, and every input fault (missing file,
// directory, empty, truncated / corrupt gzip, binary garbage, overlong line), plus a deterministic
// mutation sweep checking that nothing but ReadError ever escapes.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <random>
#include <string>

#include "schedlab/swf/reader.h"
#include "test_util.h"

namespace schedlab::swf {
namespace {

using schedlab::testing::read_file;
using schedlab::testing::TempDir;
using schedlab::testing::write_file;

const std::string kGood = "1 0 5 100 4 -1 -1 4 200 -1 1 2 3 -1 -1 -1 -1 -1";

// The message of the ReadError that `f` throws ("" if none, "other: ..." for another exception type).
template <class F>
std::string read_error_of(F&& f) {
  try {
    f();
  } catch (const ReadError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("other: ") + e.what();
  }
  return "";
}

std::string parse_error(const std::string& text, const std::string& name = "t.swf") {
  return read_error_of([&] { parse_log(text, name); });
}

std::string file_error(const std::string& path) {
  return read_error_of([&] { read_log(path); });
}

std::string gzip_bytes(const std::string& text) {
  uLongf bound = compressBound(static_cast<uLong>(text.size())) + 64;
  std::string out(bound, '\0');
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  zs.avail_in = static_cast<uInt>(text.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

// A field list with `value` at field `n` (1-based).
std::string with_field(int n, const std::string& value) {
  std::string s;
  for (int i = 1; i <= kFieldCount; ++i) {
    if (i > 1) s += ' ';
    s += (i == n) ? value : std::to_string(i);
  }
  return s;
}

TEST(ReaderErrors, WrongFieldCount) {
  EXPECT_EQ(parse_error("; h\n" + kGood + "\n1 2 3\n"), "t.swf:3: expected 18 fields, found 3");
  EXPECT_EQ(parse_error(kGood + " 7\n"), "t.swf:1: expected 18 fields, found 19");
  EXPECT_EQ(parse_error("\n\n" + kGood.substr(0, kGood.size() - 3) + "\n"), "t.swf:3: expected 18 fields, found 17");
  // A wrong count wins over a bad field on the same line.
  EXPECT_EQ(parse_error("1 x 3\n"), "t.swf:1: expected 18 fields, found 3");
  EXPECT_EQ(parse_error("; a\r\n" + kGood + " 1 2 3 4 5 6 7 8 9 10\r\n"), "t.swf:2: expected 18 fields, found 28");
}

TEST(ReaderErrors, NonNumericFieldNamesEveryField) {
  for (int n = 1; n <= kFieldCount; ++n) {
    SCOPED_TRACE(n);
    const std::string expected = "t.swf:2: field " + std::to_string(n) + " (" +
                                 std::string(kFieldNames[static_cast<size_t>(n - 1)]) + "): not a number: \"abc\"";
    EXPECT_EQ(parse_error(kGood + "\n" + with_field(n, "abc") + "\n"), expected);
  }
  EXPECT_EQ(parse_error(with_field(3, "12abc")), "t.swf:1: field 3 (wait_time): not a number: \"12abc\"");
  EXPECT_EQ(parse_error(with_field(4, "nan")), "t.swf:1: field 4 (run_time): not a number: \"nan\"");
  EXPECT_EQ(parse_error(with_field(4, "inf")), "t.swf:1: field 4 (run_time): not a number: \"inf\"");
  EXPECT_EQ(parse_error(with_field(4, "-inf")), "t.swf:1: field 4 (run_time): not a number: \"-inf\"");
  EXPECT_EQ(parse_error(with_field(5, "0x10")), "t.swf:1: field 5 (allocated_procs): not a number: \"0x10\"");
  EXPECT_EQ(parse_error(with_field(6, "1..2")), "t.swf:1: field 6 (avg_cpu_time): not a number: \"1..2\"");
  EXPECT_EQ(parse_error(with_field(7, "-")), "t.swf:1: field 7 (used_memory): not a number: \"-\"");
  EXPECT_EQ(parse_error(with_field(8, "++1")), "t.swf:1: field 8 (requested_procs): not a number: \"++1\"");
  EXPECT_EQ(parse_error(with_field(9, "1,5")), "t.swf:1: field 9 (requested_time): not a number: \"1,5\"");
  EXPECT_EQ(parse_error(with_field(10, ".")), "t.swf:1: field 10 (requested_memory): not a number: \".\"");
  // Only the first bad field is reported; control bytes are escaped; long tokens are cut.
  EXPECT_EQ(parse_error(with_field(11, "a\x01\"b")), "t.swf:1: field 11 (status): not a number: \"a\\x01\\x22b\"");
  EXPECT_EQ(parse_error(with_field(12, std::string(50, 'z'))),
            "t.swf:1: field 12 (user_id): not a number: \"" + std::string(40, 'z') + "...\"");
}

TEST(ReaderErrors, OutOfRange) {
  EXPECT_EQ(parse_error(with_field(2, "2147483648")),
            "t.swf:1: field 2 (submit_time): value \"2147483648\" is outside the 32-bit integer range");
  EXPECT_EQ(parse_error(with_field(1, "-2147483649")),
            "t.swf:1: field 1 (job_number): value \"-2147483649\" is outside the 32-bit integer range");
  EXPECT_EQ(parse_error(with_field(18, "99999999999999999999999")),
            "t.swf:1: field 18 (think_time): value \"99999999999999999999999\" is outside the 32-bit integer range");
  EXPECT_EQ(parse_error(with_field(4, "2147483647.5")),
            "t.swf:1: field 4 (run_time): value \"2147483647.5\" is outside the 32-bit integer range");
  EXPECT_EQ(parse_error(with_field(4, "1e12")),
            "t.swf:1: field 4 (run_time): value \"1e12\" is outside the 32-bit integer range");
  EXPECT_EQ(parse_error(with_field(4, "1e999")),
            "t.swf:1: field 4 (run_time): value \"1e999\" is outside the 32-bit integer range");
  // A tiny decimal underflows to 0: not an error.
  EXPECT_EQ(parse_error(with_field(4, "1e-999")), "");
}

TEST(ReaderErrors, FileNameAndLineInMessages) {
  TempDir dir;
  const std::string path = dir.file("bad.swf");
  write_file(path, "; Version: 2.2\n\n" + kGood + "\n" + with_field(9, "x") + "\n");
  EXPECT_EQ(file_error(path), path + ":4: field 9 (requested_time): not a number: \"x\"");
  write_file(dir.file("bad.swf.gz"), gzip_bytes("; v\n" + kGood + "\n" + kGood + "\n1 2\n"));
  EXPECT_EQ(file_error(dir.file("bad.swf.gz")), dir.file("bad.swf.gz") + ":4: expected 18 fields, found 2");
  EXPECT_EQ(parse_error(with_field(9, "x")), "t.swf:1: field 9 (requested_time): not a number: \"x\"");
  EXPECT_EQ(read_error_of([] { parse_log("1 2\n"); }), "<memory>:1: expected 18 fields, found 2");
}

TEST(ReaderErrors, SkipInvalidCountsByReason) {
  const std::string text = "; MaxProcs: 8\n" + kGood + "\n1 2 3\n" + with_field(3, "x") + "\n" +
                           with_field(2, "9999999999") + "\n" + kGood + " 5\n" + with_field(4, "2.5") + "\n";
  ReadOptions opt;
  opt.skip_invalid = true;
  const Log log = parse_log(text, "t.swf", opt);
  ASSERT_EQ(log.records.size(), 2u);
  EXPECT_EQ(log.records[1].run_time, 3);  // "2.5" rounded half away from zero
  EXPECT_EQ(log.report.skipped.at("wrong_field_count"), 2);
  EXPECT_EQ(log.report.skipped.at("non_numeric"), 1);
  EXPECT_EQ(log.report.skipped.at("out_of_range"), 1);
  EXPECT_EQ(log.report.skipped.size(), 3u);
  EXPECT_EQ(log.report.skipped_total(), 4);
  EXPECT_EQ(log.report.records, 2);
  EXPECT_EQ(log.report.decimal_fields, 1);  // skipped lines do not count
  // Without the option the first bad line fails, as the error a command points past (--skip-invalid); faults of
  // the input itself are other ReadErrors.
  EXPECT_EQ(parse_error(text), "t.swf:3: expected 18 fields, found 3");
  EXPECT_THROW(parse_log(text, "t.swf"), MalformedRecordError);
  EXPECT_THROW(parse_log(with_field(2, "9999999999"), "t.swf"), MalformedRecordError);
  try {
    (void)read_log("/nonexistent/x.swf");
    ADD_FAILURE() << "no error for a missing file";
  } catch (const MalformedRecordError&) {
    ADD_FAILURE() << "a missing file is not a malformed line";
  } catch (const ReadError&) {
  }
}

TEST(ReaderErrors, SkipInvalidDoesNotCoverInputFaults) {
  ReadOptions opt;
  opt.skip_invalid = true;
  EXPECT_EQ(read_error_of([&] { parse_log(std::string(10, '\0'), "z", opt); }),
            "z:1: binary data, not an SWF text log");
  EXPECT_EQ(read_error_of([&] { read_log("/nonexistent/x.swf", opt); }),
            "/nonexistent/x.swf: cannot open: No such file or directory");
}

TEST(ReaderErrors, MissingFile) {
  TempDir dir;
  EXPECT_EQ(file_error(dir.file("nope.swf")), dir.file("nope.swf") + ": cannot open: No such file or directory");
  EXPECT_EQ(read_error_of([] { read_log(""); }), "<empty path>: no file name given");
}

TEST(ReaderErrors, UnreadableFile) {
  if (geteuid() == 0) GTEST_SKIP() << "root can read anything";
  TempDir dir;
  write_file(dir.file("secret.swf"), kGood + "\n");
  chmod(dir.file("secret.swf").c_str(), 0);
  EXPECT_EQ(file_error(dir.file("secret.swf")), dir.file("secret.swf") + ": cannot open: Permission denied");
}

TEST(ReaderErrors, Directory) {
  TempDir dir;
  EXPECT_EQ(file_error(dir.path()), dir.path() + ": is a directory, not a log file");
}

TEST(ReaderErrors, EmptyFile) {
  TempDir dir;
  write_file(dir.file("empty.swf"), "");
  EXPECT_EQ(file_error(dir.file("empty.swf")), dir.file("empty.swf") + ": empty file, no records or header");
  write_file(dir.file("blank.swf"), "  \n\n\t\r\n \r\n");
  EXPECT_EQ(file_error(dir.file("blank.swf")), dir.file("blank.swf") + ": empty file, no records or header");
  write_file(dir.file("empty.gz"), gzip_bytes(""));
  EXPECT_EQ(file_error(dir.file("empty.gz")), dir.file("empty.gz") + ": empty file, no records or header");
  write_file(dir.file("blank.gz"), gzip_bytes("\n\n \n"));
  EXPECT_EQ(file_error(dir.file("blank.gz")), dir.file("blank.gz") + ": empty file, no records or header");
  EXPECT_EQ(parse_error(""), "t.swf: empty file, no records or header");
  // A one-byte file that is not empty but has no complete record.
  EXPECT_EQ(parse_error("7"), "t.swf:1: expected 18 fields, found 1");
  // A log compressed by another tool than gzip: the error names the tool.
  EXPECT_EQ(parse_error(std::string("BZh91AY&SY\x01\x02\x00\x03", 14)),
            "t.swf: compressed with bzip2, which is not read (logs are plain text or gzip): bunzip2 it first");
  EXPECT_EQ(parse_error(std::string("\xFD" "7zXZ\x00\x00\x04\xE6", 10)),
            "t.swf: compressed with xz, which is not read (logs are plain text or gzip): unxz it first");
  EXPECT_EQ(parse_error(std::string("PK\x03\x04\x14\x00\x00\x00", 8)),
            "t.swf: a zip archive, which is not read (logs are plain text or gzip): unzip it first");
  // Saved as UTF-16 ("Unicode" in a Windows editor): it was "binary data"; the error says what to do.
  const char utf16_text[] = "\xFF\xFE;\0 \0M\0a\0x\0P\0r\0o\0c\0s\0:\0 \0" "6\0" "4\0\n\0";
  const std::string utf16(utf16_text, sizeof utf16_text - 1);
  EXPECT_EQ(parse_error(utf16), "t.swf: UTF-16 text, which is not read (logs are plain text or gzip): convert it to "
                                "UTF-8 first (iconv -f UTF-16 -t UTF-8)");
  // A CSV log read as SWF (`stats - < log.csv`): the error says what it is.
  const std::string hint = ": this looks like a CSV log (its '#' header lines, its column row), which is read by a "
                           ".csv or .csv.gz name (standard input is read as SWF)";
  EXPECT_EQ(parse_error("# ; MaxProcs: 4\njob_number,submit_time,wait_time\n"),
            "t.swf:1: expected 18 fields, found 4" + hint);
  EXPECT_EQ(parse_error("job_number,submit_time,wait_time\n"), "t.swf:1: expected 18 fields, found 1" + hint);
}

TEST(ReaderErrors, TruncatedGzip) {
  std::string text = "; Version: 2.2\n";
  for (int i = 1; i <= 5000; ++i) text += std::to_string(i) + " " + std::to_string(i * 7) + " 0 10 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 -1\n";
  const std::string gz = gzip_bytes(text);
  ASSERT_GT(gz.size(), 1000u);
  TempDir dir;
  // Cut in the middle of the data, right after the 10-byte gzip header, inside the header, in the trailer.
  for (size_t cut : {gz.size() / 2, size_t{10}, size_t{5}, size_t{2}, gz.size() - 4, gz.size() - 1}) {
    SCOPED_TRACE(cut);
    const std::string path = dir.file("cut" + std::to_string(cut) + ".swf.gz");
    write_file(path, gz.substr(0, cut));
    EXPECT_EQ(file_error(path), path + ": truncated gzip stream (unexpected end of file)");
    EXPECT_EQ(parse_error(gz.substr(0, cut), "m.gz"), "m.gz: truncated gzip stream (unexpected end of file)");
  }
  // The untruncated stream is fine.
  write_file(dir.file("whole.gz"), gz);
  EXPECT_EQ(read_log(dir.file("whole.gz")).records.size(), 5000u);
}

TEST(ReaderErrors, CorruptGzip) {
  std::string text;
  for (int i = 1; i <= 2000; ++i) text += std::to_string(i) + " 1 0 10 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 -1\n";
  const std::string gz = gzip_bytes(text);
  TempDir dir;
  // Damaged compressed data (or CRC): zlib reports a data error.
  std::string bad = gz;
  for (size_t i = 20; i < 40; ++i) bad[i] = static_cast<char>(bad[i] ^ 0x5a);
  write_file(dir.file("bad.gz"), bad);
  const std::string msg = file_error(dir.file("bad.gz"));
  EXPECT_EQ(msg.rfind(dir.file("bad.gz") + ": corrupt gzip stream: ", 0), 0u) << msg;
  // Damaged CRC in the trailer.
  std::string crc = gz;
  crc[crc.size() - 6] = static_cast<char>(crc[crc.size() - 6] ^ 1);
  EXPECT_EQ(parse_error(crc, "c.gz"), "c.gz: corrupt gzip stream: incorrect data check");
  // Bad compression method in the gzip header.
  std::string method = gz;
  method[2] = 7;
  EXPECT_EQ(parse_error(method, "m.gz").rfind("m.gz: corrupt gzip stream: ", 0), 0u);
  // Data after the end of the gzip stream that is not another member.
  EXPECT_EQ(parse_error(gz + "hello\n", "g.gz"), "g.gz: trailing garbage after the end of the gzip stream");
}

TEST(ReaderErrors, BinaryGarbage) {
  TempDir dir;
  std::mt19937 rng(42);
  std::string random(100000, '\0');
  for (auto& c : random) c = static_cast<char>(rng() & 0xff);
  if (static_cast<unsigned char>(random[0]) == 0x1f) random[0] = 'x';
  write_file(dir.file("random.bin"), random);
  const std::string msg = file_error(dir.file("random.bin"));
  EXPECT_NE(msg.find(": binary data, not an SWF text log"), std::string::npos) << msg;
  EXPECT_EQ(msg.rfind(dir.file("random.bin") + ":", 0), 0u);
  // NUL bytes: line number of the first one.
  EXPECT_EQ(parse_error(std::string("\0\0\0\0", 4)), "t.swf:1: binary data, not an SWF text log");
  EXPECT_EQ(parse_error("; Version: 2.2\n" + kGood + "\n" + std::string("1 2 \0 4\n", 8) + kGood + "\n"),
            "t.swf:3: binary data, not an SWF text log");
  // Many control characters (but no NUL).
  std::string ctrl;
  for (int i = 0; i < 200; ++i) ctrl += "\x01\x02\x03 abc\n";
  EXPECT_EQ(parse_error(ctrl), "t.swf:1: binary data, not an SWF text log");
  // Binary inside gzip is detected after decompression.
  write_file(dir.file("zeros.gz"), gzip_bytes(std::string(70000, '\0')));
  EXPECT_EQ(file_error(dir.file("zeros.gz")), dir.file("zeros.gz") + ":1: binary data, not an SWF text log");
  // A few control characters in a large text are tolerated by the first-block check; in a record they are
  // a field error.
  std::string mostly_text = "; Version: 2.2\n";
  for (int i = 0; i < 200; ++i) mostly_text += kGood + "\n";
  mostly_text += "1 2\x01 3\n";
  EXPECT_EQ(parse_error(mostly_text), "t.swf:202: expected 18 fields, found 3");
}

TEST(ReaderErrors, OverlongLine) {
  TempDir dir;
  const std::string msg_tail = ": line too long (more than 1048576 bytes without a line break), not an SWF text log";
  const std::string digits(3u << 20, '7');  // 3 MB, no newline
  write_file(dir.file("long.swf"), digits);
  EXPECT_EQ(file_error(dir.file("long.swf")), dir.file("long.swf") + ":1" + msg_tail);
  write_file(dir.file("long3.swf"), "; a\n; b\n" + std::string((1u << 20) + 1, ' ') + "\n" + kGood + "\n");
  EXPECT_EQ(file_error(dir.file("long3.swf")), dir.file("long3.swf") + ":3" + msg_tail);
  write_file(dir.file("long.gz"), gzip_bytes("; a\n" + kGood + "\n" + digits));
  EXPECT_EQ(file_error(dir.file("long.gz")), dir.file("long.gz") + ":3" + msg_tail);
  EXPECT_EQ(parse_error(kGood + "\n" + digits), "t.swf:2" + msg_tail);
  // Exactly 1 MB is accepted (as a header line here).
  std::string ok(1u << 20, 'c');
  ok[0] = ';';
  ok.append("\n").append(kGood).append("\n");
  write_file(dir.file("ok.swf"), ok);
  EXPECT_EQ(read_log(dir.file("ok.swf")).records.size(), 1u);
}

TEST(ReaderErrors, StdinIsReadWhenPathIsDash) {
  TempDir dir;
  write_file(dir.file("in.gz"), gzip_bytes("; MaxProcs: 3\n" + kGood + "\n"));
  // Redirect fd 0 to the file for the duration of the read.
  const int saved = dup(0);
  ASSERT_GE(saved, 0);
  ASSERT_NE(freopen(dir.file("in.gz").c_str(), "rb", stdin), nullptr);
  Log log;
  std::string err = read_error_of([&] { log = read_log("-"); });
  dup2(saved, 0);
  close(saved);
  EXPECT_EQ(err, "");
  EXPECT_EQ(log.records.size(), 1u);
  EXPECT_EQ(log.header.max_procs, 3);
  EXPECT_EQ(log.path, "-");
}

TEST(ReaderErrors, MutationSweepOnlyReadErrors) {
  // Deterministic fuzzing: mutate small valid logs (plain and gzip); parse_log may succeed or throw
  // ReadError, nothing else (no crash, no other exception, no hang).
  std::string base = "; Version: 2.2\n; MaxProcs: 16\n; Note: x\n;   cont\n";
  for (int i = 1; i <= 20; ++i) base += std::to_string(i) + " " + std::to_string(i * 10) + " 0 5.5 4 -1 -1 4 9 -1 1 1 1 -1 -1 -1 -1 -1\r\n";
  const std::string gz = gzip_bytes(base);
  std::mt19937 rng(7);
  int ok = 0, errors = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::string s = (iter % 3 == 0) ? gz : base;
    const int edits = 1 + static_cast<int>(rng() % 8);
    for (int e = 0; e < edits && !s.empty(); ++e) {
      const size_t pos = rng() % s.size();
      switch (rng() % 5) {
        case 0: s[pos] = static_cast<char>(rng() & 0xff); break;
        case 1: s.erase(pos, 1 + rng() % 16); break;
        case 2: s.insert(pos, std::string(1 + rng() % 4, " \t\n;.-9e+\0"[rng() % 10])); break;
        case 3: s.resize(pos); break;
        default: s.insert(pos, s.substr(rng() % s.size(), rng() % 40)); break;
      }
    }
    ReadOptions opt;
    opt.skip_invalid = (iter % 2) == 1;
    const std::string err = read_error_of([&] { parse_log(s, "m", opt); });
    ASSERT_EQ(err.rfind("other:", 0), std::string::npos) << err;
    if (err.empty()) ++ok; else ++errors;
  }
  EXPECT_GT(ok, 0);
  EXPECT_GT(errors, 0);
}

}  // namespace
}  // namespace schedlab::swf
