// SWF writer: header lines verbatim, records as 18 numbers separated by single spaces (integers, or a
// field's exact fractional value where the record keeps one).
#include "schedlab/swf/writer.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <memory>

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

// Calls `flush(buffer)` whenever the text reaches kFlushAt bytes and at the end.
template <class Flush>
void format_all(const Header& header, const std::vector<Record>& records, Flush&& flush) {
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
  for (const auto& r : records) {
    append_record(buf, r);
    buf += '\n';
    if (buf.size() >= kFlushAt) {
      flush(buf);
      buf.clear();
    }
  }
  if (!buf.empty()) flush(buf);
}

bool ends_with_gz(const std::string& path) { return path.size() >= 3 && path.compare(path.size() - 3, 3, ".gz") == 0; }

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
  if (path == "-") {
    format_all(header, records, [&](const std::string& buf) {
      if (std::fwrite(buf.data(), 1, buf.size(), stdout) != buf.size())
        throw WriteError("<stdout>: write error: " + std::string(std::strerror(errno)));
    });
    if (std::fflush(stdout) != 0) throw WriteError("<stdout>: write error: " + std::string(std::strerror(errno)));
    return;
  }
  if (ends_with_gz(path)) {
    gzFile gz = gzopen(path.c_str(), "wb6");
    if (gz == nullptr) throw WriteError(path + ": cannot open for writing: " + std::string(std::strerror(errno)));
    try {
      gzbuffer(gz, 256 * 1024);
      format_all(header, records, [&](const std::string& buf) {
        if (gzwrite(gz, buf.data(), static_cast<unsigned>(buf.size())) != static_cast<int>(buf.size())) {
          int errnum = 0;
          const char* msg = gzerror(gz, &errnum);
          throw WriteError(path + ": write error: " + (errnum == Z_ERRNO ? std::strerror(errno) : msg));
        }
      });
    } catch (...) {
      gzclose(gz);
      throw;
    }
    if (gzclose(gz) != Z_OK) throw WriteError(path + ": write error on close");
    return;
  }
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) throw WriteError(path + ": cannot open for writing: " + std::string(std::strerror(errno)));
  try {
    format_all(header, records, [&](const std::string& buf) {
      if (std::fwrite(buf.data(), 1, buf.size(), f) != buf.size())
        throw WriteError(path + ": write error: " + std::string(std::strerror(errno)));
    });
  } catch (...) {
    std::fclose(f);
    throw;
  }
  if (std::fclose(f) != 0) throw WriteError(path + ": write error: " + std::string(std::strerror(errno)));
}

void write_text_file(const std::string& path, std::string_view text) {
  const auto error = [&path](const char* what) {
    return WriteError((path == "-" ? std::string("<stdout>") : path) + ": " + what + ": " + std::strerror(errno));
  };
  if (path == "-") {
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0)
      throw error("write error");
    return;
  }
  if (path.size() >= 3 && path.compare(path.size() - 3, 3, ".gz") == 0) {
    gzFile gz = gzopen(path.c_str(), "wb6");
    if (gz == nullptr) throw error("cannot open for writing");
    size_t done = 0;
    while (done < text.size()) {
      const auto chunk = static_cast<unsigned>(std::min<size_t>(text.size() - done, kFlushAt));
      if (gzwrite(gz, text.data() + done, chunk) != static_cast<int>(chunk)) {
        gzclose(gz);
        throw error("write error");
      }
      done += chunk;
    }
    if (gzclose(gz) != Z_OK) throw error("write error on close");
    return;
  }
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) throw error("cannot open for writing");
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (std::fclose(f) != 0 || !written) throw error("write error");
}

}  // namespace schedlab::swf
