#include "schedlab/swf/csv.h"

#include <unistd.h>

#include <zlib.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>

#include <fmt/core.h>
#include <fmt/format.h>

#include "schedlab/swf/writer.h"
#include "swf/foreign_format.h"
#include "swf/output_file.h"

namespace schedlab::swf {
namespace {

// ---- writing ----

// Appends the CSV text for the header lines and the column-name row. A header line ending in ',' or '\r' is
// written in quotes ('"' doubled inside): unquoted, its trailing commas would be read as a spreadsheet's padding,
// and its '\r' as a line end's.
void append_preamble(std::string& buf, const Header& header) {
  for (const auto& line : header.lines) {
    if (line.ends_with(',') || line.ends_with('\r')) {
      buf += "\"#";
      for (const char c : line) buf += c == '"' ? std::string_view("\"\"") : std::string_view(&c, 1);
      buf += "\"\n";
      continue;
    }
    buf += '#';
    buf += line;
    buf += '\n';
  }
  for (int i = 0; i < kFieldCount; ++i) {
    if (i > 0) buf += ',';
    buf += kFieldNames[i];
  }
  buf += '\n';
}

void append_record(std::string& buf, const Record& r) {
  auto out = std::back_inserter(buf);
  for (int f = 1; f <= kFieldCount; ++f) {
    if (f > 1) buf += ',';
    if (r.fractional(f)) {
      r.append_text(buf, f);
    } else {
      fmt::format_to(out, "{}", r.field(f));
    }
  }
  buf += '\n';
}

// ---- reading ----

}  // namespace

std::string read_text(const std::string& path_arg) {
  std::error_code ec;
  const bool from_stdin = path_arg == "-";
  const std::string path = from_stdin ? "<stdin>" : path_arg;  // as the SWF reader names it
  gzFile gz = nullptr;
  if (from_stdin) {
    const int fd = ::dup(STDIN_FILENO);  // gzclose closes it; standard input stays open
    if (fd >= 0) gz = gzdopen(fd, "rb");
    if (gz == nullptr) {
      if (fd >= 0) ::close(fd);
      throw ReadError(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
    }
  } else {
    if (!std::filesystem::exists(path, ec)) throw ReadError(fmt::format("{}: no such file", path));
    if (std::filesystem::is_directory(path, ec)) throw ReadError(fmt::format("{}: is a directory", path));
    gz = gzopen(path.c_str(), "rb");
    if (gz == nullptr) throw ReadError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  }
  std::string text;
  // A plain file's size is what it holds: reserved, its text is not copied again at each doubling (a gzip file
  // grows as before).
  if (!from_stdin)
    if (const auto size = std::filesystem::file_size(path, ec); !ec && gzdirect(gz) == 1) text.reserve(size);
  char chunk[1 << 16];
  for (;;) {
    const int n = gzread(gz, chunk, sizeof chunk);
    if (n < 0) {
      int errnum = 0;
      const std::string msg = gzerror(gz, &errnum);
      gzclose(gz);
      throw ReadError(fmt::format("{}: corrupt or truncated gzip data ({})", path, msg));
    }
    if (n == 0) break;
    text.append(chunk, static_cast<size_t>(n));
  }
  int errnum = 0;
  const std::string msg = gzerror(gz, &errnum);
  gzclose(gz);
  if (errnum != Z_OK && errnum != Z_STREAM_END)
    throw ReadError(fmt::format("{}: corrupt or truncated gzip data ({})", path, msg));
  return text;
}

namespace {

std::string_view trim(std::string_view s, size_t& offset) {
  size_t b = 0;
  while (b < s.size() && (s[b] == ' ' || s[b] == '\t')) ++b;
  size_t e = s.size();
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t')) --e;
  offset = b;
  return s.substr(b, e - b);
}

struct Cell {
  std::string_view text;  // trimmed
  size_t column = 0;      // 1-based character position of the trimmed text in the line
};

// The text of a quoted cell starting at line[open] ('"'), "" read as '"'; `end` is set past the closing quote.
// nullopt when the quote is not closed on the line.
std::optional<std::string> unquote(std::string_view line, size_t open, size_t& end) {
  std::string out;
  for (size_t i = open + 1; i < line.size(); ++i) {
    if (line[i] != '"') {
      out += line[i];
    } else if (i + 1 < line.size() && line[i + 1] == '"') {
      out += '"';
      ++i;
    } else {
      end = i + 1;
      return out;
    }
  }
  return std::nullopt;
}

// A malformed quoted cell: its column (1-based) and what is wrong; the parser names the file and line.
struct CellError {
  size_t column;
  std::string what;
};

// Cells of a line with quotes (RFC 4180: a spreadsheet or pandas quoting every field, "1","0",...): a quoted
// cell's text is what is inside the quotes (a field or a column name holds no quote or comma, so the text is a
// view into the line). Throws CellError for a quote not closed, text after a closing quote, or a quote inside an
// unquoted cell.
std::vector<Cell> split_quoted_cells(std::string_view line) {
  std::vector<Cell> cells;
  size_t pos = 0;
  for (;;) {
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) ++pos;
    if (pos < line.size() && line[pos] == '"') {
      size_t end = 0;
      if (!unquote(line, pos, end)) throw CellError{pos + 1, "a quote that is not closed on the line"};
      cells.push_back({line.substr(pos + 1, end - pos - 2), pos + 2});
      pos = end;
      while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) ++pos;
      if (pos < line.size() && line[pos] != ',') throw CellError{pos + 1, "text after a closing quote"};
    } else {
      const size_t comma = std::min(line.find(',', pos), line.size());
      size_t offset = 0;
      const std::string_view t = trim(line.substr(pos, comma - pos), offset);
      if (t.find('"') != std::string_view::npos)
        throw CellError{pos + offset + t.find('"') + 1, "a quote inside a cell that does not start with one"};
      cells.push_back({t, pos + offset + 1});
      pos = comma;
    }
    if (pos >= line.size()) break;
    ++pos;  // past the comma: the next cell (empty when the line ends here)
  }
  return cells;
}

std::vector<Cell> split_cells(std::string_view line) {
  if (line.find('"') != std::string_view::npos) return split_quoted_cells(line);
  std::vector<Cell> cells;
  size_t start = 0;
  for (;;) {
    const size_t comma = line.find(',', start);
    const std::string_view raw = line.substr(start, comma == std::string_view::npos ? line.npos : comma - start);
    size_t offset = 0;
    const std::string_view t = trim(raw, offset);
    cells.push_back({t, start + offset + 1});
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return cells;
}

// A data row that is not a record: where and why, by the reason skip_invalid counts it under (the SWF reader's
// names, and malformed_quotes and empty_field of CSV's own).
struct RowError {
  size_t column;
  std::string reason, what;
};

class CsvParser {
 public:
  CsvParser(std::string_view text, const std::string& name, ReadOptions options)
      : text_(text), name_(name), options_(options) {}

  Log parse() {
    Log log;
    log.path = name_;
    log.report.partial_executions_kept = options_.keep_partial_executions;
    // A UTF-8 byte order mark (a spreadsheet's CSV export) is not part of the first line: with it, the header
    // line was not one ("column 1 is named '\xEF\xBB\xBF#; Version: 2.2'").
    if (text_.starts_with("\xEF\xBB\xBF")) text_.remove_prefix(3);
    if (text_.empty()) throw ReadError(fmt::format("{}: empty file", name_));
    if (const auto f = foreign_format(text_))  // UTF-16 (a Windows editor's "Unicode"), bzip2, zip ...
      throw ReadError(
          fmt::format("{}: {}, which is not read (CSV logs are plain text or gzip): {}", name_, f->what, f->advice));
    if (text_.find('\0') != std::string_view::npos)
      throw ReadError(fmt::format("{}: binary content (NUL byte), not a CSV text file", name_));
    bool columns_seen = false;
    RecordChecks checks;
    size_t pos = 0;
    while (pos < text_.size()) {
      size_t end = text_.find('\n', pos);
      if (end == std::string_view::npos) end = text_.size();
      std::string_view line = text_.substr(pos, end - pos);
      pos = end + 1;
      ++line_;
      ++log.report.lines;
      while (line.ends_with('\r')) line.remove_suffix(1);  // all of them: see swf/reader.cc next_line
      std::optional<std::string> quoted_header;  // a '#' line a spreadsheet quoted: "#; Note: a, b",,,
      if (line.starts_with('"')) {
        size_t closed = 0;
        quoted_header = unquote(line, 0, closed);
        if (quoted_header && !quoted_header->starts_with('#')) quoted_header.reset();  // a quoted field instead
        if (quoted_header && line.find_first_not_of(", \t", closed) != std::string_view::npos)
          fail(line.find_first_not_of(", \t", closed) + 1, "a quoted '#' header line must be the row's only cell");
      }
      if (line.starts_with('#') || quoted_header) {
        std::string_view body = quoted_header ? std::string_view(*quoted_header).substr(1) : line.substr(1);
        // A spreadsheet pads every row to its widest with empty cells: "#; MaxProcs: 100,,,,,". The '\r' before
        // them go too, as at a line's end (a header line that ends in ',' or '\r' itself is written in quotes).
        if (!quoted_header)
          while (body.ends_with(',') || body.ends_with('\r')) body.remove_suffix(1);
        std::string header_line;
        if (!body.starts_with(';')) header_line += ';';
        header_line.append(body);
        log.header.add_line(std::move(header_line), line_);
        ++log.report.header_lines;
        continue;
      }
      if (line.find_first_not_of(" \t,") == std::string_view::npos) {  // a spreadsheet's empty row: ",,,,"
        ++log.report.blank_lines;
        continue;
      }
      if (!columns_seen) {
        check_columns(line);
        columns_seen = true;
        continue;
      }
      Record record;
      int64_t decimal_fields = 0;
      try {
        record = parse_record(line, decimal_fields);
      } catch (const RowError& e) {
        if (!options_.skip_invalid)
          throw MalformedRecordError(fmt::format("{}:{}:{}: {}", name_, line_, e.column, e.what));
        ++log.report.skipped[e.reason];
        continue;
      }
      log.report.decimal_fields += decimal_fields;
      if (checks.leave_out(record, line_, log.report, options_)) continue;  // the SWF reader's rule
      checks.check(record, log.header, line_, log.report);                  // and warnings
      log.records.push_back(std::move(record));
      ++log.report.records;
    }
    if (!columns_seen)
      throw ReadError(fmt::format("{}: no column-name row (expected {})", name_, column_row()));
    return log;
  }

 private:
  static std::string column_row() {
    std::string row;
    for (int i = 0; i < kFieldCount; ++i) {
      if (i > 0) row += ',';
      row += kFieldNames[i];
    }
    return row;
  }

  // The cells of a row, without the empty ones a spreadsheet pads it with beyond the 18 fields. A quote out of
  // place is an error of the column-name row, a RowError of a data row.
  std::vector<Cell> cells_of(std::string_view line, bool data_row) const {
    std::vector<Cell> cells;
    try {
      cells = split_cells(line);
    } catch (const CellError& e) {
      if (data_row) throw RowError{e.column, "malformed_quotes", e.what};
      fail(e.column, e.what);
    }
    while (cells.size() > kFieldNames.size() && cells.back().text.empty()) cells.pop_back();
    return cells;
  }

  void check_columns(std::string_view line) const {
    const auto cells = cells_of(line, false);
    // The per-job results of simulate --jobs-out are a CSV too, but not a log: say what they are.
    if (line.starts_with("job_id,submit,start,end,"))
      fail(1, "the per-job results of simulate --jobs-out, not a log (--jobs-out FILE.swf writes the simulated jobs "
              "as a log)");
    for (size_t i = 0; i < cells.size() && i < kFieldNames.size(); ++i) {
      if (cells[i].text != kFieldNames[i])
        fail(cells[i].column, fmt::format("column {} is named '{}', expected '{}' (the columns must be {})",
                                          i + 1, cells[i].text, kFieldNames[i], column_row()));
    }
    if (cells.size() != kFieldNames.size())
      fail(cells.size() > kFieldNames.size() ? cells[kFieldNames.size()].column : line.size() + 1,
           fmt::format("{} columns in the column-name row, expected {} ({})", cells.size(), kFieldCount,
                       column_row()));
  }

  // Throws RowError. `decimal_fields`: counted up for the fields written with a decimal part or exponent.
  Record parse_record(std::string_view line, int64_t& decimal_fields) const {
    const auto cells = cells_of(line, true);
    if (cells.size() != static_cast<size_t>(kFieldCount))
      throw RowError{cells.size() > kFieldNames.size() ? cells[kFieldNames.size()].column : line.size() + 1,
                     "wrong_field_count", fmt::format("{} fields, expected {}", cells.size(), kFieldCount)};
    Record r;
    for (int f = 1; f <= kFieldCount; ++f) {
      const Cell& c = cells[static_cast<size_t>(f - 1)];
      parse_value(c, f, r, decimal_fields);
    }
    return r;
  }

  // Sets field `field` of `r`; a decimal keeps its exact value (Record::set_value).
  void parse_value(const Cell& c, int field, Record& r, int64_t& decimal_fields) const {
    const char* reason = "non_numeric";  // (per field: no string built unless it fails)
    const auto field_fail = [&](const std::string& what) {
      throw RowError{c.column, reason,
                     fmt::format("field {} ({}): {}", field, kFieldNames[static_cast<size_t>(field - 1)], what)};
    };
    if (c.text.empty()) {
      reason = "empty_field";
      field_fail("empty (use -1 for unknown)");
    }
    const char* first = c.text.data();
    const char* last = first + c.text.size();
    if (*first == '+') ++first;
    int64_t value = 0;
    if (c.text.find_first_of(".eE") == std::string_view::npos) {
      const auto [ptr, ec] = std::from_chars(first, last, value);
      if (ec == std::errc::result_out_of_range) {
        reason = "out_of_range";
        field_fail(fmt::format("'{}' is outside the 32-bit range", c.text));
      }
      if (ec != std::errc() || ptr != last) field_fail(fmt::format("'{}' is not a number", c.text));
    } else {
      double d = 0;
      const auto [ptr, ec] = std::from_chars(first, last, d);
      if (ec != std::errc() || ptr != last || !std::isfinite(d))
        field_fail(fmt::format("'{}' is not a number", c.text));
      reason = "out_of_range";
      if (std::fabs(d) > 4e9) field_fail(fmt::format("'{}' is outside the 32-bit range", c.text));
      value = std::llround(d);
      if (value < std::numeric_limits<int32_t>::min() || value > std::numeric_limits<int32_t>::max())
        field_fail(fmt::format("'{}' is outside the 32-bit range", c.text));
      ++decimal_fields;
      r.set_value(field, d);
      return;
    }
    reason = "out_of_range";
    if (value < std::numeric_limits<int32_t>::min() || value > std::numeric_limits<int32_t>::max())
      field_fail(fmt::format("'{}' is outside the 32-bit range", c.text));
    r.field(field) = static_cast<int32_t>(value);
  }

  [[noreturn]] void fail(size_t column, const std::string& what) const {
    throw ReadError(fmt::format("{}:{}:{}: {}", name_, line_, column, what));
  }

  std::string_view text_;
  std::string name_;
  ReadOptions options_;
  int64_t line_ = 0;
};

}  // namespace

void write_csv(std::ostream& out, const Header& header, const std::vector<Record>& records) {
  std::string buf;
  append_preamble(buf, header);
  for (const auto& r : records) {
    append_record(buf, r);
    if (buf.size() > (1u << 20)) {
      out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
      buf.clear();
    }
  }
  out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

void write_csv(const std::string& path, const Header& header, const std::vector<Record>& records) {
  OutputFile sink(path);
  std::string buf;
  append_preamble(buf, header);
  for (const auto& r : records) {
    append_record(buf, r);
    if (buf.size() > (1u << 20)) {
      sink.write(buf.data(), buf.size());
      buf.clear();
    }
  }
  sink.write(buf.data(), buf.size());
  sink.commit();
}

Log read_csv(const std::string& path, ReadOptions options) {
  const std::string text = read_text(path);
  return CsvParser(text, path, options).parse();
}

Log parse_csv(std::string_view text, const std::string& name, ReadOptions options) {
  return CsvParser(text, name, options).parse();
}

bool is_csv_name(const std::string& path) { return path.ends_with(".csv") || path.ends_with(".csv.gz"); }

void write_swf_or_csv(const std::string& path, const Header& header, const std::vector<Record>& records) {
  if (is_csv_name(path)) {
    write_csv(path, header, records);
  } else {
    write_log(path, header, records);
  }
}

Log read_swf_or_csv(const std::string& path, ReadOptions options) {
  if (!is_csv_name(path)) return read_log(path, options);
  return read_csv(path, options);
}

}  // namespace schedlab::swf
