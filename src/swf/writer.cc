// SWF writer: header lines verbatim, records as 18 numbers separated by single spaces (integers, or a
// field's exact fractional value where the record keeps one).
#include "schedlab/swf/writer.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <memory>
#include <utility>

#include <fmt/core.h>

#include "swf/output_file.h"

namespace schedlab::swf {
namespace {

constexpr size_t kFlushAt = size_t{1} << 20;

void append_record(std::string& out, const Record& record) {
  if (record.has_fractions()) {
    for (int i = 1; i <= kFieldCount; ++i) {
      if (i > 1) out += ' ';
      record.append_text(out, i);
    }
    return;
  }
  char buf[16];
  for (int i = 1; i <= kFieldCount; ++i) {
    if (i > 1) out += ' ';
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, record.field(i));
    (void)ec;
    out.append(buf, ptr);
  }
}

// Calls `flush(buffer)` whenever the text reaches kFlushAt bytes and at the end: the header's lines, then
// `count` records, the i-th appended by `append(buffer, i)`.
template <class Append, class Flush>
void format_all(const Header& header, size_t count, Append&& append, Flush&& flush) {
  std::string buf;
  buf.reserve(kFlushAt + 4096);
  for (const auto& line : header.lines) {
    buf += line;
    buf += '\n';
    if (buf.size() >= kFlushAt) {
      flush(buf);
      buf.clear();
    }
  }
  for (size_t i = 0; i < count; ++i) {
    append(buf, i);
    buf += '\n';
    if (buf.size() >= kFlushAt) {
      flush(buf);
      buf.clear();
    }
  }
  if (!buf.empty()) flush(buf);
}

template <class Flush>
void format_all(const Header& header, const std::vector<Record>& records, Flush&& flush) {
  format_all(
      header, records.size(), [&records](std::string& buf, size_t i) { append_record(buf, records[i]); },
      std::forward<Flush>(flush));
}

}  // namespace

std::string format_record(const Record& record) {
  std::string out;
  out.reserve(96);
  append_record(out, record);
  return out;
}

void write_log(std::ostream& out, const Header& header, const std::vector<Record>& records) {
  format_all(header, records, [&](const std::string& buf) {
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
  });
  if (!out) throw WriteError("write error on output stream");
}

void write_log(const std::string& path, const Header& header, const std::vector<Record>& records) {
  OutputFile out(path);
  format_all(header, records, [&](const std::string& buf) { out.write(buf.data(), buf.size()); });
  out.commit();
}

void write_log(const std::string& path, const Header& header, size_t count,
               const std::function<Record(size_t)>& record) {
  OutputFile out(path);
  format_all(
      header, count, [&record](std::string& buf, size_t i) { append_record(buf, record(i)); },
      [&](const std::string& buf) { out.write(buf.data(), buf.size()); });
  out.commit();
}

void write_text_file(const std::string& path, std::string_view head, size_t count,
                     const std::function<void(std::string& out, size_t i)>& append) {
  OutputFile out(path);
  std::string buf(head);
  buf.reserve(kFlushAt + 4096);
  for (size_t i = 0; i < count; ++i) {
    append(buf, i);
    if (buf.size() >= kFlushAt) {
      out.write(buf.data(), buf.size());
      buf.clear();
    }
  }
  if (!buf.empty()) out.write(buf.data(), buf.size());
  out.commit();
}

void write_text_file(const std::string& path, std::string_view text) {
  OutputFile out(path);
  for (size_t done = 0; done < text.size();) {
    const size_t chunk = std::min<size_t>(text.size() - done, kFlushAt);
    out.write(text.data() + done, chunk);
    done += chunk;
  }
  out.commit();
}

void check_output_is_not_input(const std::string& output, const std::vector<std::string>& inputs) {
  if (output == "-") return;
  std::error_code ec;
  for (const std::string& input : inputs) {
    if (input == "-" || input.empty()) continue;
    if (std::filesystem::equivalent(output, input, ec) && !ec)
      throw WriteError(fmt::format("{}: the output is the input log {}: write to another file (the log would be "
                                   "replaced by what is computed from it)",
                                   output, input));
  }
}

}  // namespace schedlab::swf
