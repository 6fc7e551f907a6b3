// Streaming SWF reader. See reader.h for the contract.
//
// Input: Reader::Source delivers physical lines out of a buffer refilled with large read() calls (plain
// files, stdin) or with zlib's inflate (gzip, detected by the magic bytes 1f 8b, several members allowed).
// A gzip file of known size (a regular file, or text in memory) is first decompressed whole with libdeflate,
// 2.5-3x faster than zlib's inflate (docs/performance.md); lines then come out of that text in place. Any
// problem there (corrupt or truncated data, trailing bytes, a text above kWholeLimit) falls back to the zlib
// stream from the start, so every error message and the streaming memory bound stay zlib's.
// Lines are string_views into that buffer: no per-line allocation. Records are parsed with
// std::from_chars; only a field that is not a plain integer takes the slow path (decimals, kept exactly in
// the record, and the error messages).
// A log read whole (read_log, parse_log) is parsed in pieces on every core when its text is in memory or comes
// from a plain file or pipe: Reader::next_batch cuts spans of whole lines into pieces, parses them on several
// threads and merges them in file order, which gives the records, report and first error of the line-by-line read.
#include "schedlab/swf/reader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libdeflate.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <limits>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>

#include "base/huge_pages.h"
#include "schedlab/base/threads.h"
#include "swf/foreign_format.h"

namespace schedlab::swf {

namespace {

constexpr size_t kMaxLine = size_t{1} << 20;   // a longer line is an error (binary or broken input)
constexpr size_t kChunk = size_t{1} << 20;     // bytes asked for per read() / inflate() call
constexpr size_t kBufferSize = kMaxLine + kChunk + 1;
constexpr size_t kInputChunk = size_t{256} << 10;  // compressed bytes per read()
constexpr size_t kFirstBlock = size_t{64} << 10;   // bytes examined for the binary-content check
constexpr int32_t kBitsetJobLimit = 1 << 24;       // job numbers below this use the bitset (max 2 MB)
// Whole-file decompression only up to this much text (a larger log streams through zlib in 2 MB of buffers).
constexpr size_t kWholeLimit = size_t{1} << 30;
constexpr size_t kRelease = size_t{4} << 20;  // text read is given back in steps of this much

std::string errno_text(int err) { return std::strerror(err); }

// Printable excerpt of a bad token for an error message.
std::string quote_token(std::string_view token) {
  std::string out = "\"";
  const size_t limit = 40;
  for (size_t i = 0; i < token.size() && i < limit; ++i) {
    const auto c = static_cast<unsigned char>(token[i]);
    if (c < 0x20 || c == 0x7f || c == '"' || c == '\\') {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (token.size() > limit) out += "...";
  out += '"';
  return out;
}

ReadError line_too_long(const std::string& name, int64_t line_number) {
  return ReadError(name + ":" + std::to_string(line_number) + ": line too long (more than " + std::to_string(kMaxLine) +
                   " bytes without a line break), not an SWF text log");
}

bool is_bad_control(unsigned char c) {
  if (c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') return false;
  return c < 0x20 || c == 0x7f;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------
// Reader::Source: bytes -> lines.

class Reader::Source {
 public:
  // Reads from a file descriptor (owned unless it is stdin).
  Source(std::string name, int fd, bool owns_fd, int64_t size_hint)
      : name_(std::move(name)), fd_(fd), owns_fd_(owns_fd), size_hint_(size_hint) {
    start_or_clean_up();
  }
  // Reads from memory (parse_log). Plain text is used in place, without a copy.
  Source(std::string name, std::string_view text)
      : name_(std::move(name)), memory_(text), from_memory_(true), size_hint_(static_cast<int64_t>(text.size())) {
    start_or_clean_up();
  }
  ~Source() {
    if (gzip_) inflateEnd(&zs_);
    if (owns_fd_ && fd_ >= 0) ::close(fd_);
  }
  Source(const Source&) = delete;
  Source& operator=(const Source&) = delete;

  bool gzip() const { return gzip_ || whole_; }
  int64_t consumed() const { return static_cast<int64_t>(consumed_); }
  int64_t size_hint() const { return whole_ ? static_cast<int64_t>(end_) : gzip_ ? -1 : size_hint_; }

  // Next physical line without its '\n' ('\r' is left for the caller). `line_number` is the number the
  // line will get, for messages. False at the end of the input.
  bool next_line(std::string_view& line, int64_t line_number) {
    for (;;) {
      const char* begin = data_ + pos_;
      const size_t avail = end_ - pos_;
      const void* nl = avail ? std::memchr(begin, '\n', avail) : nullptr;
      if (nl != nullptr) {
        const size_t len = static_cast<size_t>(static_cast<const char*>(nl) - begin);
        if (len > kMaxLine) too_long(line_number);
        line = std::string_view(begin, len);
        pos_ += len + 1;
        consumed_ += len + 1;
        if (whole_ && pos_ - released_ > kRelease) release_read_text();
        return true;
      }
      if (eof_) {
        if (avail == 0) return false;
        if (avail > kMaxLine) too_long(line_number);
        line = std::string_view(begin, avail);
        pos_ = end_;
        consumed_ += avail;
        return true;
      }
      if (avail > kMaxLine) too_long(line_number);
      compact();
      fill();
    }
  }

  // The parallel read (Reader::next_batch): the next run of whole lines not handed out yet, of about `bytes`
  // (more when a line crosses the mark; a stream's may be less); empty at the end of the input. Only where spans()
  // is true: lines out of text in memory, or out of a plain stream (read into a larger buffer for it).
  bool spans() const { return !gzip_; }
  std::string_view next_span(size_t bytes, int64_t line_number) {
    if (!eof_ || deferred_) fill_span(bytes, line_number);
    const char* begin = data_ + pos_;
    const size_t avail = end_ - pos_;
    if (avail == 0) return {};
    if (!eof_ || deferred_) {  // a stream: whole lines only (fill_span made sure there is one)
      const void* last = ::memrchr(begin, '\n', avail);
      return std::string_view(begin, static_cast<size_t>(static_cast<const char*>(last) - begin) + 1);
    }
    if (avail <= bytes) return std::string_view(begin, avail);
    const void* nl = std::memchr(begin + bytes, '\n', avail - bytes);
    return std::string_view(begin, nl ? static_cast<size_t>(static_cast<const char*>(nl) - begin) + 1 : avail);
  }
  // The next n bytes of the last span are read (the parallel read consumes a span a piece at a time).
  void consume(size_t n) {
    pos_ += n;
    consumed_ += n;
    if (whole_ && pos_ - released_ > kRelease) release_read_text();
  }

 private:
  [[noreturn]] void too_long(int64_t line_number) const { throw line_too_long(name_, line_number); }

  // A plain stream's span: the buffer grown to hold `bytes` and a longest line, filled until it holds `bytes` and a
  // line end, or the input ends. A read error is kept until the whole lines before it are handed out, and the line
  // it cut is reported as the line-by-line read would (too long if it already is, else the read error).
  void fill_span(size_t bytes, int64_t line_number) {
    const size_t want = bytes + kMaxLine + 1;
    if (buffer_size_ < want) {
      std::unique_ptr<char[]> bigger(new char[want]);
      std::memcpy(bigger.get(), data_ + pos_, end_ - pos_);
      end_ -= pos_;
      pos_ = 0;
      buffer_ = std::move(bigger);
      data_ = buffer_.get();
      buffer_size_ = want;
    }
    compact();
    while (!deferred_ && !eof_ && end_ < buffer_size_) {
      if (end_ - pos_ >= bytes && ::memrchr(data_ + pos_, '\n', end_ - pos_) != nullptr) break;
      try {
        fill();
      } catch (const ReadError&) {
        deferred_ = std::current_exception();
      }
    }
    const size_t avail = end_ - pos_;
    if (eof_ && !deferred_) return;
    if (::memrchr(data_ + pos_, '\n', avail) != nullptr) return;
    if (avail > kMaxLine) too_long(line_number);
    std::rethrow_exception(deferred_);  // (a full buffer without a line end holds more than kMaxLine)
  }

  // Raw (possibly compressed) bytes; 0 at the end of the input.
  size_t read_raw(char* dst, size_t cap) {
    if (from_memory_) {
      const size_t n = std::min(cap, memory_.size() - memory_pos_);
      std::memcpy(dst, memory_.data() + memory_pos_, n);
      memory_pos_ += n;
      if (n > 0 || !follow_fd_) return n;
      from_memory_ = false;  // the bytes decompress_whole() read are served: the file goes on
    }
    for (;;) {
      const ssize_t n = ::read(fd_, dst, cap);
      if (n >= 0) return static_cast<size_t>(n);
      if (errno == EINTR) continue;
      const int err = errno;
      if (err == EISDIR) throw ReadError(name_ + ": is a directory, not a log file");
      throw ReadError(name_ + ": read error: " + errno_text(err));
    }
  }

  // A throwing constructor runs no destructor: free the zlib state here. The descriptor is closed by the
  // caller (Reader), which still owns it when the Source was not constructed.
  void start_or_clean_up() {
    try {
      start();
    } catch (...) {
      if (gzip_) inflateEnd(&zs_);
      gzip_ = false;
      throw;
    }
  }

  void start() {
    // Detect gzip on the first bytes.
    if (from_memory_ && !(memory_.size() >= 2 && static_cast<unsigned char>(memory_[0]) == 0x1f &&
                          static_cast<unsigned char>(memory_[1]) == 0x8b)) {
      data_ = memory_.data();
      end_ = memory_.size();
      eof_ = true;
      check_first_block();
      return;
    }
    in_.reset(new char[kInputChunk]);
    while (in_len_ < 2) {
      const size_t n = read_raw(in_.get() + in_len_, kInputChunk - in_len_);
      if (n == 0) {
        raw_eof_ = true;
        break;
      }
      in_len_ += n;
    }
    const bool gzip_magic =
        in_len_ >= 2 && static_cast<unsigned char>(in_[0]) == 0x1f && static_cast<unsigned char>(in_[1]) == 0x8b;
    // A compressed file above kWholeLimit holds more text than that: it streams, without reading it into memory.
    const bool whole_fits = from_memory_ || (size_hint_ > 0 && static_cast<size_t>(size_hint_) <= kWholeLimit);
    if (gzip_magic && whole_fits && decompress_whole()) {
      check_first_block();
      return;
    }
    buffer_.reset(new char[kBufferSize]);
    data_ = buffer_.get();
    if (gzip_magic) {
      gzip_ = true;
      std::memset(&zs_, 0, sizeof zs_);
      if (inflateInit2(&zs_, 15 + 16) != Z_OK) throw ReadError(name_ + ": cannot initialise zlib");
      zs_.next_in = reinterpret_cast<Bytef*>(in_.get());
      zs_.avail_in = static_cast<uInt>(in_len_);
    } else {
      std::memcpy(buffer_.get(), in_.get(), in_len_);
      end_ = in_len_;
      in_.reset();
      if (raw_eof_) eof_ = true;
    }
    // Fill the first block and check it is text.
    while (!eof_ && end_ < kFirstBlock) fill();
    check_first_block();
  }

  // The whole gzip input decompressed with libdeflate into text_ (then data_ = text_, at the end of the input).
  // False, with the state as it was except that every compressed byte may now be in compressed_ (read_raw then
  // serves them again), when libdeflate cannot do it: the zlib stream takes over.
  bool decompress_whole() {
    // All compressed bytes: the memory text as it is, or the file read into compressed_.
    std::string_view in;
    if (from_memory_) {
      in = memory_;
    } else {
      compressed_.reset(new char[static_cast<size_t>(size_hint_) + 1]);
      size_t len = std::min(in_len_, static_cast<size_t>(size_hint_));
      std::memcpy(compressed_.get(), in_.get(), len);
      if (len < in_len_) return give_back(len);  // the file shrank: stream what is there
      for (;;) {
        if (len == static_cast<size_t>(size_hint_) + 1) return give_back(len);  // it grew: stream it
        const size_t n = read_raw(compressed_.get() + len, static_cast<size_t>(size_hint_) + 1 - len);
        if (n == 0) break;
        len += n;
      }
      in = std::string_view(compressed_.get(), len);
      // From here on read_raw serves these bytes (the zlib fallback starts over from them).
      memory_ = in;
      memory_pos_ = 0;
      from_memory_ = true;
      in_len_ = 0;
    }
    if (in.size() < 18) return false;
    // The last member's ISIZE (its size mod 2^32) is the first guess of the text's size, believed only as far as
    // deflate can go: at most 1032 bytes of text per compressed byte. The last four bytes of a corrupt or truncated
    // file are anything, and would ask for up to kWholeLimit at once: under a limit on memory (ulimit -v), an
    // "out of memory" for a small file instead of the corruption zlib then reports.
    constexpr size_t kMaxDeflateRatio = 1032;
    uint32_t isize = 0;
    std::memcpy(&isize, in.data() + in.size() - 4, 4);  // little-endian, as x86 and ARM Linux
    size_t cap = std::max<size_t>(std::min<size_t>(isize, in.size() * kMaxDeflateRatio), in.size() * 4) + 1;
    if (cap > kWholeLimit) return false;
    std::unique_ptr<libdeflate_decompressor, void (*)(libdeflate_decompressor*)> d(libdeflate_alloc_decompressor(),
                                                                                     libdeflate_free_decompressor);
    if (!d) return false;
    std::unique_ptr<char[]> text(new char[cap]);
    base::prefer_huge_pages(text.get(), cap);
    size_t in_pos = 0, out_len = 0;
    while (in_pos < in.size()) {
      // Another member must start here (concatenated gzip files are valid gzip); anything else: zlib reports it.
      if (in.size() - in_pos < 18 || static_cast<unsigned char>(in[in_pos]) != 0x1f ||
          static_cast<unsigned char>(in[in_pos + 1]) != 0x8b)
        return false;
      size_t used = 0, produced = 0;
      const libdeflate_result r = libdeflate_gzip_decompress_ex(d.get(), in.data() + in_pos, in.size() - in_pos,
                                                                text.get() + out_len, cap - out_len, &used, &produced);
      if (r == LIBDEFLATE_INSUFFICIENT_SPACE) {
        if (cap >= kWholeLimit) return false;
        const size_t bigger = std::min(kWholeLimit, cap * 2);
        std::unique_ptr<char[]> grown(new char[bigger]);
        base::prefer_huge_pages(grown.get(), bigger);
        std::memcpy(grown.get(), text.get(), out_len);
        text = std::move(grown);
        cap = bigger;
        continue;  // the same member again, into more space
      }
      if (r != LIBDEFLATE_SUCCESS) return false;
      in_pos += used;
      out_len += produced;
    }
    text_ = std::move(text);
    compressed_.reset();
    in_.reset();
    memory_ = {};
    data_ = text_.get();
    pos_ = 0;
    end_ = out_len;
    eof_ = true;
    whole_ = true;
    return true;
  }

  // The text already read goes back to the system as parsing proceeds, so that whole-file decompression costs
  // little more memory than the stream: whole pages up to kMaxLine before the read position (the line just
  // returned, at most kMaxLine long, stays valid until the next call, as with the stream's buffer).
  void release_read_text() {
    static const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto base = reinterpret_cast<uintptr_t>(text_.get());
    const uintptr_t from = (base + released_ + page - 1) / page * page;
    if (pos_ <= kMaxLine + 1) return;
    const uintptr_t to = (base + pos_ - kMaxLine - 1) / page * page;
    if (to > from) ::madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
    released_ = std::max(released_, static_cast<size_t>(to - base));
  }

  // decompress_whole() could not read the file as it was measured: the bytes read so far are served first.
  bool give_back(size_t len) {
    memory_ = std::string_view(compressed_.get(), len);
    memory_pos_ = 0;
    from_memory_ = true;
    follow_fd_ = true;  // then the rest of the file
    in_len_ = 0;
    return false;
  }

  // NUL bytes or more than 5% control characters in the first block: binary content.
  void check_first_block() const {
    const size_t n = std::min(end_, kFirstBlock);
    const auto* p = reinterpret_cast<const unsigned char*>(data_);
    size_t bad = 0, first_bad = n;
    bool nul = false;
    for (size_t i = 0; i < n; ++i) {
      if (is_bad_control(p[i])) {
        if (first_bad == n) first_bad = i;
        ++bad;
        if (p[i] == 0) {
          nul = true;
          first_bad = std::min(first_bad, i);
          break;
        }
      }
    }
    if (!nul && bad * 20 <= n) return;
    // A log compressed by another tool than gzip (which is read), or saved as UTF-16: say which, so the user
    // knows what to run.
    if (const auto f = foreign_format(std::string_view(data_, n)))
      throw ReadError(name_ + ": " + std::string(f->what) + ", which is not read (logs are plain text or gzip): " +
                      std::string(f->advice));
    const int64_t line = 1 + std::count(data_, data_ + first_bad, '\n');
    throw ReadError(name_ + ":" + std::to_string(line) + ": binary data, not an SWF text log");
  }

  void compact() {
    if (pos_ == 0) return;
    std::memmove(buffer_.get(), buffer_.get() + pos_, end_ - pos_);
    end_ -= pos_;
    pos_ = 0;
  }

  // Adds bytes at end_ (at least one unless the input ends, which sets eof_).
  void fill() {
    if (!gzip_) {
      const size_t n = read_raw(buffer_.get() + end_, std::min(kChunk, buffer_size_ - end_));
      if (n == 0) eof_ = true;
      end_ += n;
      return;
    }
    zs_.next_out = reinterpret_cast<Bytef*>(buffer_.get() + end_);
    const size_t space = std::min(kChunk, buffer_size_ - end_);
    zs_.avail_out = static_cast<uInt>(space);
    while (zs_.avail_out == space) {
      if (zs_.avail_in == 0 && !raw_eof_) refill_input();
      if (member_ended_) {
        if (zs_.avail_in == 0 && raw_eof_) {
          eof_ = true;
          break;
        }
        // Another gzip member must follow (concatenated gzip files are valid gzip).
        if (zs_.avail_in < 2 && !raw_eof_) refill_input();
        if (zs_.avail_in < 2 || zs_.next_in[0] != 0x1f || zs_.next_in[1] != 0x8b)
          throw ReadError(name_ + ": trailing garbage after the end of the gzip stream");
        if (inflateReset(&zs_) != Z_OK) throw ReadError(name_ + ": corrupt gzip stream");
        member_ended_ = false;
      }
      if (zs_.avail_in == 0 && raw_eof_) throw ReadError(name_ + ": truncated gzip stream (unexpected end of file)");
      const int ret = inflate(&zs_, Z_NO_FLUSH);
      if (ret == Z_STREAM_END) {
        member_ended_ = true;
      } else if (ret == Z_OK || ret == Z_BUF_ERROR) {
        // Z_BUF_ERROR: no progress possible without more input; the loop reads more or reports truncation.
      } else {
        const char* msg = zs_.msg != nullptr ? zs_.msg : "error";
        throw ReadError(name_ + ": corrupt gzip stream: " + msg);
      }
    }
    end_ += space - zs_.avail_out;
  }

  // Moves unread compressed bytes to the front of in_ and reads more.
  void refill_input() {
    const size_t keep = zs_.avail_in;
    if (keep > 0 && reinterpret_cast<char*>(zs_.next_in) != in_.get()) std::memmove(in_.get(), zs_.next_in, keep);
    const size_t n = read_raw(in_.get() + keep, kInputChunk - keep);
    if (n == 0) raw_eof_ = true;
    zs_.next_in = reinterpret_cast<Bytef*>(in_.get());
    zs_.avail_in = static_cast<uInt>(keep + n);
  }

  std::string name_;
  int fd_ = -1;
  bool owns_fd_ = false;
  std::string_view memory_;
  size_t memory_pos_ = 0;
  bool from_memory_ = false;
  int64_t size_hint_ = -1;

  std::unique_ptr<char[]> buffer_;  // decompressed / plain bytes
  size_t buffer_size_ = kBufferSize;
  std::exception_ptr deferred_;     // a plain stream's read error, after lines not yet handed out (fill_span)
  const char* data_ = nullptr;      // buffer_ or the memory text
  size_t pos_ = 0, end_ = 0;
  size_t consumed_ = 0;  // bytes of text handed out as lines so far
  bool eof_ = false;

  bool gzip_ = false;
  bool whole_ = false;                  // text_ holds the whole decompressed input
  size_t released_ = 0;                 // text_ before this offset is given back (release_read_text)
  bool follow_fd_ = false;              // after memory_, read_raw goes on reading fd_
  std::unique_ptr<char[]> text_;        // decompress_whole()'s text
  std::unique_ptr<char[]> compressed_;  // the file's compressed bytes, while decompress_whole() works
  z_stream zs_{};
  std::unique_ptr<char[]> in_;  // compressed bytes
  size_t in_len_ = 0;
  bool raw_eof_ = false;
  bool member_ended_ = false;
};

// ---------------------------------------------------------------------------------------------------

// A piece of text parsed on its own by the parallel read (Reader::next_batch), waiting for its merge.
struct Reader::Piece {
  struct HeaderLine {
    size_t before = 0;  // the number of the piece's records before it
    int32_t line = 0;   // counted from the piece's first line (1)
    std::string_view text;
  };
  std::vector<Record> records;
  std::vector<int32_t> record_lines;  // each record's line, counted from the piece's first line (1)
  std::vector<HeaderLine> header_lines;
  int32_t lines = 0;
  int64_t blank_lines = 0;
  int64_t decimal_fields = 0;
  std::map<std::string, int64_t> skipped;
  // The first fault, which ends the piece: a malformed record (not skipped) or a line too long.
  int32_t fault_line = 0;  // 0: none
  bool fault_too_long = false;
  std::string fault_what;
  std::exception_ptr failure;  // anything else thrown while parsing it (out of memory)

  // Empty again, keeping the space: the same few pieces serve a whole read.
  void clear() {
    records.clear();
    record_lines.clear();
    header_lines.clear();
    lines = 0;
    blank_lines = 0;
    decimal_fields = 0;
    skipped.clear();
    fault_line = 0;
    fault_too_long = false;
    fault_what.clear();
    failure = nullptr;
  }
};

Reader::~Reader() = default;

std::string_view warning_name(Warning w) {
  switch (w) {
    case Warning::kNegativeWait: return "negative_wait";
    case Warning::kNegativeRuntimeCompleted: return "negative_runtime_completed";
    case Warning::kSizeAboveMaxProcs: return "size_above_max_procs";
    case Warning::kSubmitOutOfOrder: return "submit_out_of_order";
    case Warning::kDuplicateJobNumber: return "duplicate_job_number";
    case Warning::kEstimateBelowRuntime: return "estimate_below_runtime";
  }
  return "unknown";
}

int64_t ReadReport::skipped_total() const {
  int64_t total = 0;
  for (const auto& [reason, count] : skipped) total += count;
  return total;
}

Reader::Reader(const std::string& path, ReadOptions options) : path_(path), options_(options) {
  name_ = path == "-" ? "<stdin>" : path;
  if (path.empty()) throw ReadError("<empty path>: no file name given");
  int fd = 0;
  bool owns = false;
  if (path != "-") {
    do {
      fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) throw ReadError(name_ + ": cannot open: " + errno_text(errno));
    owns = true;
  }
  struct stat st {};
  int64_t size_hint = -1;
  if (::fstat(fd, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      if (owns) ::close(fd);
      throw ReadError(name_ + ": is a directory, not a log file");
    }
    if (S_ISREG(st.st_mode)) size_hint = static_cast<int64_t>(st.st_size);
  }
  try {
    source_ = std::make_unique<Source>(name_, fd, owns, size_hint);
  } catch (...) {
    // The Source did not get constructed: its destructor will not close the descriptor.
    if (owns) ::close(fd);
    throw;
  }
  read_header();
}

Reader::Reader(FromMemory, std::string_view text, const std::string& name, ReadOptions options)
    : path_(name), options_(options), name_(name) {
  source_ = std::make_unique<Source>(name_, text);
  read_header();
}

void Reader::read_header() {
  report_.partial_executions_kept = options_.keep_partial_executions;
  std::string_view line;
  while (!pending_ && next_line(line)) {
    if (!classify(line)) {  // a record line: kept for the first next()
      pending_ = true;
      pending_line_ = line;
    }
  }
  if (!pending_ && report_.header_lines == 0)
    throw ReadError(name_ + ": empty file, no records or header");
}

bool Reader::next_line(std::string_view& line) {
  if (!source_->next_line(line, line_number_ + 1)) return false;
  ++line_number_;
  ++report_.lines;
  // A UTF-8 byte order mark (a file saved by a Windows editor) is not part of the first line: with it, a first
  // header line was taken for a record ("expected 18 fields, found 3").
  if (line_number_ == 1 && line.starts_with("\xEF\xBB\xBF")) line.remove_prefix(3);
  // Every trailing '\r' goes, not only a CRLF's: a header line kept with some would lose one each time it is
  // written and read back (found by fuzzing the CSV reader's round trip).
  while (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return true;
}

// Handles blank and header lines (true); false for a record line.
bool Reader::classify(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  if (i == line.size()) {
    ++report_.blank_lines;
    return true;
  }
  if (line[i] == ';') {
    ++report_.header_lines;
    header_.add_line(std::string(line), line_number_);
    return true;
  }
  return false;
}

bool Reader::next(Record& record) {
  std::string_view line;
  for (;;) {
    if (pending_) {
      pending_ = false;
      line = pending_line_;
    } else {
      if (!next_line(line)) return false;
      if (classify(line)) continue;
    }
    if (parse_record(line, record)) {
      if (checks_.leave_out(record, line_number_, report_, options_)) continue;
      checks_.check(record, header_, line_number_, report_);
      ++report_.records;
      return true;
    }
  }
}

void Reader::fail(const std::string& what) const {
  throw ReadError(name_ + ":" + std::to_string(line_number_) + ": " + what);
}

namespace {

enum class FieldError { kNone, kNonNumeric, kOutOfRange };

// Slow path for a token that is not a plain int32: decimals (`exact` gets the value, `out` its rounding
// half away from zero), a leading '+', and the error cases.
FieldError parse_slow(std::string_view token, int32_t& out, bool& decimal, double& exact) {
  const char* first = token.data();
  const char* last = token.data() + token.size();
  if (first != last && *first == '+') ++first;
  if (first == last || *first == '+') return FieldError::kNonNumeric;
  // Plain integer (perhaps too large, or with a '+')?
  {
    int64_t v = 0;
    auto [ptr, ec] = std::from_chars(first, last, v);
    if (ptr == last && ec == std::errc()) {
      if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())
        return FieldError::kOutOfRange;
      out = static_cast<int32_t>(v);
      decimal = false;
      return FieldError::kNone;
    }
    if (ptr == last && ec == std::errc::result_out_of_range) return FieldError::kOutOfRange;
  }
  // Decimal number: digits with a '.' and/or an exponent. No inf/nan, no hex.
  for (const char* p = first; p != last; ++p) {
    const char c = *p;
    if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E'))
      return FieldError::kNonNumeric;
  }
  double d = 0;
  auto [ptr, ec] = std::from_chars(first, last, d);
  if (ptr != last) return FieldError::kNonNumeric;
  if (ec == std::errc::result_out_of_range) {
    // Overflow is out of range; underflow (1e-999) is a tiny number that rounds to 0.
    bool big = false;
    for (const char* p = first; p != last && *p != 'e' && *p != 'E'; ++p)
      if (*p >= '1' && *p <= '9') big = true;
    const char* e = std::find_if(first, last, [](char c) { return c == 'e' || c == 'E'; });
    if (big && (e == last || e + 1 == last || e[1] != '-')) return FieldError::kOutOfRange;
    d = 0;
  } else if (ec != std::errc() || !std::isfinite(d)) {
    return FieldError::kNonNumeric;
  }
  const double r = std::round(d);
  if (r < static_cast<double>(std::numeric_limits<int32_t>::min()) ||
      r > static_cast<double>(std::numeric_limits<int32_t>::max()))
    return FieldError::kOutOfRange;
  out = static_cast<int32_t>(r);
  decimal = true;
  exact = d;
  return FieldError::kNone;
}

}  // namespace

// What is wrong with a malformed record line: the skip reason and the message (after "FILE:LINE: ").
struct Reader::LineFault {
  const char* reason = nullptr;
  std::string what;
};

// Parses one record line into `record` (true), adding its decimal fields to `decimal_fields`; false with `fault`
// set for a malformed line. The one parse of both the sequential and the parallel read.
bool Reader::parse_fields(std::string_view line, Record& record, int64_t& decimal_fields, LineFault& fault) {
  const char* p = line.data();
  const char* const end = p + line.size();
  int fields = 0;
  int64_t decimals_here = 0;
  Record::Fraction fractions[kFieldCount];
  size_t fraction_count = 0;
  FieldError error = FieldError::kNone;
  int error_field = 0;
  std::string_view error_token;
  for (;;) {
    while (p != end && (*p == ' ' || *p == '\t')) ++p;
    if (p == end) break;
    // Fast path in the same pass as the token scan: optional '-', then at most 10 decimal digits.
    const char* token = p;
    const bool negative = *p == '-';
    if (negative) ++p;
    const char* digits = p;
    uint64_t v = 0;
    while (p != end && static_cast<unsigned char>(*p - '0') < 10) {
      v = v * 10 + static_cast<uint64_t>(*p - '0');  // may wrap past 20 digits: then not "clean" anyway
      ++p;
    }
    const bool clean = (p == end || *p == ' ' || *p == '\t') && p != digits && p - digits <= 10;
    if (!clean)
      while (p != end && *p != ' ' && *p != '\t') ++p;
    ++fields;
    if (fields > kFieldCount || error != FieldError::kNone) continue;
    int32_t value = 0;
    if (clean && v <= (negative ? uint64_t{2147483648} : uint64_t{2147483647})) {
      value = static_cast<int32_t>(negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v));
    } else {
      bool decimal = false;
      double exact = 0;
      const std::string_view tok(token, static_cast<size_t>(p - token));
      const FieldError e = parse_slow(tok, value, decimal, exact);
      if (e != FieldError::kNone) {
        error = e;
        error_field = fields;
        error_token = tok;
        continue;
      }
      if (decimal) {
        ++decimals_here;
        // The member holds the rounding (`value`); a fractional exact value is kept beside it.
        if (exact != std::trunc(exact)) fractions[fraction_count++] = {fields, exact};
      }
    }
    record.field(fields) = value;
  }

  if (fields == kFieldCount && error == FieldError::kNone) {
    record.adopt_fractions(fractions, fraction_count);  // also drops the previous line's
    decimal_fields += decimals_here;
    return true;
  }
  if (fields != kFieldCount) {
    fault.reason = "wrong_field_count";
    fault.what = "expected " + std::to_string(kFieldCount) + " fields, found " + std::to_string(fields);
    // `convert`'s CSV read as SWF (standard input, or a name without .csv): say what it looks like.
    if (line.starts_with('#') || line.starts_with("job_number,"))
      fault.what += ": this looks like a CSV log (its '#' header lines, its column row), which is read by a .csv or "
                    ".csv.gz name (standard input is read as SWF)";
  } else {
    const std::string prefix = "field " + std::to_string(error_field) + " (" +
                               std::string(kFieldNames[static_cast<size_t>(error_field - 1)]) + "): ";
    if (error == FieldError::kNonNumeric) {
      fault.reason = "non_numeric";
      fault.what = prefix + "not a number: " + quote_token(error_token);
    } else {
      fault.reason = "out_of_range";
      fault.what = prefix + "value " + quote_token(error_token) + " is outside the 32-bit integer range";
    }
  }
  return false;
}

bool Reader::parse_record(std::string_view line, Record& record) {
  LineFault fault;
  if (parse_fields(line, record, report_.decimal_fields, fault)) return true;
  if (!options_.skip_invalid)
    throw MalformedRecordError(name_ + ":" + std::to_string(line_number_) + ": " + fault.what);
  ++report_.skipped[fault.reason];
  return false;
}

// ---------------------------------------------------------------------------------------------------
// The parallel read: a span of whole lines is cut into pieces at line ends; the pieces are parsed on several
// threads, each into its own records, and merged in file order on the calling thread, which applies what depends
// on the lines before (line numbers, header lines, the order checks, partial executions, the first error).

// Parses the lines of `text` (whole lines; the last one may lack its '\n' only at the end of the input) as
// Reader::next() does line by line.
void Reader::parse_piece(std::string_view text, bool skip_invalid, Piece& piece) {
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p != end) {
    const auto* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
    const size_t len = static_cast<size_t>((nl ? nl : end) - p);
    ++piece.lines;
    if (len > kMaxLine) {
      piece.fault_line = piece.lines;
      piece.fault_too_long = true;
      return;
    }
    std::string_view line(p, len);
    p = nl ? nl + 1 : end;
    while (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    size_t i = 0;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i == line.size()) {
      ++piece.blank_lines;
      continue;
    }
    if (line[i] == ';') {
      piece.header_lines.push_back({piece.records.size(), piece.lines, line});
      continue;
    }
    Record& record = piece.records.emplace_back();
    LineFault fault;
    if (parse_fields(line, record, piece.decimal_fields, fault)) {
      piece.record_lines.push_back(piece.lines);
      continue;
    }
    piece.records.pop_back();
    if (skip_invalid) {
      ++piece.skipped[fault.reason];
      continue;
    }
    piece.fault_line = piece.lines;
    piece.fault_what = std::move(fault.what);
    return;
  }
}

namespace {

// Runs parse(k) for k in [0, n) on `threads` threads and merge(k) in order on the calling thread, which also
// parses when the next piece to merge is not ready. At most `window` pieces are parsed ahead of the merge, so the
// records waiting for it stay few. parse must not throw; an exception of merge stops the threads and is rethrown.
template <class Parse, class Merge>
void parse_and_merge(size_t n, unsigned threads, size_t window, const Parse& parse, const Merge& merge) {
  std::mutex mu;
  std::condition_variable cv;
  size_t next = 0, merged = 0;
  bool stop = false;
  std::vector<char> ready(n, 0);
  // Parses the next piece if one may be taken (true); `lock` is held on entry and on return.
  const auto take = [&](std::unique_lock<std::mutex>& lock) {
    if (stop || next >= n || next >= merged + window) return false;
    const size_t k = next++;
    lock.unlock();
    parse(k);
    lock.lock();
    ready[k] = 1;
    cv.notify_all();
    return true;
  };
  const auto work = [&] {
    std::unique_lock<std::mutex> lock(mu);
    while (!stop && next < n) {
      if (!take(lock)) cv.wait(lock);
    }
  };
  std::vector<std::thread> pool;
  const auto finish = [&] {
    {
      std::lock_guard<std::mutex> lock(mu);
      stop = true;
    }
    cv.notify_all();
    for (auto& t : pool) t.join();
  };
  try {
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  } catch (const std::system_error&) {  // no more threads to be had: the ones started and this one do it
  }
  try {
    for (size_t k = 0; k < n; ++k) {
      {
        std::unique_lock<std::mutex> lock(mu);
        while (!ready[k]) {
          if (!take(lock)) cv.wait(lock);
        }
      }
      merge(k);
      {
        std::lock_guard<std::mutex> lock(mu);
        merged = k + 1;
      }
      cv.notify_all();
    }
  } catch (...) {
    finish();
    throw;
  }
  finish();
}

}  // namespace

bool Reader::parallel() const {
  // (The cores are asked once: hardware_concurrency() reads the system's files.)
  if (parallel_ < 0)
    parallel_ = source_->spans() && options_.threads != 1 && base::worker_threads(options_.threads, 2) > 1;
  return parallel_ == 1;
}

void Reader::merge(Piece& piece, std::vector<Record>& out) {
  const int64_t base = line_number_;
  size_t h = 0;
  const auto header_lines_before = [&](size_t records) {
    for (; h < piece.header_lines.size() && piece.header_lines[h].before <= records; ++h) {
      const Piece::HeaderLine& l = piece.header_lines[h];
      ++report_.header_lines;
      header_.add_line(std::string(l.text), base + l.line);
    }
  };
  for (size_t i = 0; i < piece.records.size(); ++i) {
    header_lines_before(i);
    line_number_ = base + piece.record_lines[i];
    Record& record = piece.records[i];
    if (checks_.leave_out(record, line_number_, report_, options_)) continue;
    checks_.check(record, header_, line_number_, report_);
    ++report_.records;
    out.push_back(std::move(record));
  }
  header_lines_before(piece.records.size());
  report_.blank_lines += piece.blank_lines;
  report_.decimal_fields += piece.decimal_fields;
  for (const auto& [reason, count] : piece.skipped) report_.skipped[reason] += count;
  if (piece.failure) std::rethrow_exception(piece.failure);
  if (piece.fault_line > 0) {
    line_number_ = base + piece.fault_line;
    report_.lines += piece.fault_line;
    if (piece.fault_too_long) throw line_too_long(name_, line_number_);
    throw MalformedRecordError(name_ + ":" + std::to_string(line_number_) + ": " + piece.fault_what);
  }
  line_number_ = base + piece.lines;
  report_.lines += piece.lines;
}

bool Reader::next_batch(std::vector<Record>& out) {
  if (pending_ || !parallel()) {  // the constructor's record line, or a read line by line
    Record record;
    for (int k = 0; k < 65536; ++k) {
      if (!next(record)) return false;
      out.push_back(std::move(record));
      if (!pending_ && parallel()) break;
    }
    return true;
  }
  const size_t piece_bytes = options_.parallel_piece_bytes > 0 ? options_.parallel_piece_bytes : size_t{256} << 10;
  const std::string_view span = source_->next_span(16 * piece_bytes, line_number_ + 1);
  if (span.empty()) return false;
  std::vector<std::string_view> pieces;
  for (size_t at = 0; at < span.size();) {
    size_t len = span.size() - at;
    if (len > piece_bytes) {
      const void* nl = std::memchr(span.data() + at + piece_bytes, '\n', len - piece_bytes);
      if (nl != nullptr) len = static_cast<size_t>(static_cast<const char*>(nl) - (span.data() + at)) + 1;
    }
    pieces.push_back(span.substr(at, len));
    at += len;
  }
  const unsigned threads = base::worker_threads(options_.threads, pieces.size());
  // Piece k is parsed into slot k % window: at most `window` pieces are parsed ahead of the merge, so the slot of
  // piece k - window has been merged and cleared by then.
  const size_t window = 2 * size_t{threads} + 2;
  if (slots_.size() < window) slots_.resize(window);
  parse_and_merge(
      pieces.size(), threads, window,
      [&](size_t k) {
        Piece& piece = slots_[k % window];
        try {
          parse_piece(pieces[k], options_.skip_invalid, piece);
        } catch (...) {
          piece.failure = std::current_exception();
        }
      },
      [&](size_t k) {
        Piece& piece = slots_[k % window];
        merge(piece, out);
        piece.clear();  // its records are moved out
        // Read: text in memory goes back to the system as it does line by line (Source::release_read_text).
        source_->consume(pieces[k].size());
      });
  return true;
}

bool RecordChecks::leave_out(const Record& r, int64_t line, ReadReport& report, const ReadOptions& options) {
  const bool partial = is_partial_execution(r, previous_job_number_);
  previous_job_number_ = r.job_number;
  if (!partial) return false;
  if (report.partial_executions.count++ == 0) report.partial_executions.first_line = line;
  return !options.keep_partial_executions;
}

void RecordChecks::check(const Record& r, const Header& header, int64_t line, ReadReport& report) {
  auto warn = [&](Warning w) {
    WarningCount& c = report.warnings[static_cast<size_t>(w)];
    if (c.count++ == 0) c.first_line = line;
  };
  if (r.wait_time < -1) warn(Warning::kNegativeWait);
  if (r.status == 1 && r.run_time < 0) warn(Warning::kNegativeRuntimeCompleted);
  if (header.max_procs) {
    const int32_t size = r.requested_procs > 0 ? r.requested_procs : r.allocated_procs;
    if (size > *header.max_procs) warn(Warning::kSizeAboveMaxProcs);
  }
  if (r.submit_time >= 0) {
    if (r.submit_time < last_submit_) warn(Warning::kSubmitOutOfOrder);
    last_submit_ = r.submit_time;
  }
  if (r.job_number >= 0) {
    bool seen = false;
    if (r.job_number < kBitsetJobLimit) {
      const auto word = static_cast<size_t>(r.job_number) >> 6;
      const uint64_t bit = uint64_t{1} << (r.job_number & 63);
      if (word >= seen_job_numbers_.size())
        seen_job_numbers_.resize(std::min<size_t>(std::max(word + 1, seen_job_numbers_.size() * 2),
                                                  static_cast<size_t>(kBitsetJobLimit) / 64));
      seen = (seen_job_numbers_[word] & bit) != 0;
      seen_job_numbers_[word] |= bit;
    } else {
      seen = !big_job_numbers_.insert(r.job_number).second;
    }
    if (seen) warn(Warning::kDuplicateJobNumber);
  }
  if (r.requested_time > 0 && r.requested_time < r.run_time) warn(Warning::kEstimateBelowRuntime);
}

Log log_from_records(std::string path, Header header, std::vector<Record> records, ReadOptions options) {
  Log log;
  log.path = std::move(path);
  log.header = std::move(header);
  log.records = std::move(records);
  log.report.partial_executions_kept = options.keep_partial_executions;
  RecordChecks checks;
  size_t kept = 0;
  for (size_t i = 0; i < log.records.size(); ++i) {
    const Record& r = log.records[i];
    const auto row = static_cast<int64_t>(i) + 1;
    if (checks.leave_out(r, row, log.report, options)) continue;
    checks.check(r, log.header, row, log.report);
    if (r.has_fractions())
      for (int f = 1; f <= kFieldCount; ++f) log.report.decimal_fields += r.fractional(f) ? 1 : 0;
    if (kept != i) log.records[kept] = std::move(log.records[i]);
    ++kept;
  }
  log.records.resize(kept);
  log.report.records = static_cast<int64_t>(kept);
  return log;
}

int64_t Reader::size_hint() const { return source_->size_hint(); }
int64_t Reader::bytes_read() const { return source_->consumed(); }

namespace {

Log read_all(Reader& reader) {
  Log log;
  log.path = reader.path();
  // Reserve from MaxRecords when given, capped by what the input size allows (a record line is at
  // least 36 bytes) or, for gzip/stdin, by a million records, so a lying header cannot exhaust memory.
  const int64_t size = reader.size_hint();
  int64_t guess = reader.header().max_records.value_or(size > 0 ? size / 80 : 0);
  const int64_t cap = size >= 0 ? size / 36 + 1 : int64_t{1} << 20;
  guess = std::min(guess, cap);
  if (guess > 0) log.records.reserve(static_cast<size_t>(guess));
  // Moved, not copied: a record's fractions change hands without an allocation.
  Record record;
  // After a sample of records, the reserve is corrected by the bytes a record has taken so far: the table then
  // grows at most once more, instead of a regrowth that would hold the old and the new table at once (twice
  // 800 MB for 10M records).
  // The bytes a record takes are counted from the first record on, so that a long header does not make them
  // look larger (and the table too small).
  constexpr size_t kSample = 10000;
  int64_t first_record_end = 0;
  const auto correct_reserve = [&] {
    const auto n = static_cast<int64_t>(log.records.size());
    const int64_t per_record = std::max<int64_t>(1, (reader.bytes_read() - first_record_end) / (n - 1));
    const int64_t estimate = n + std::max<int64_t>(0, size - reader.bytes_read()) / per_record;
    const int64_t want = std::min(cap, estimate + estimate / 32 + 1024);
    if (want > static_cast<int64_t>(log.records.capacity())) log.records.reserve(static_cast<size_t>(want));
  };
  if (reader.parallel()) {
    // In batches (the first is the first record alone): the correction once they have given a sample.
    bool corrected = false;
    for (bool more = true; more;) {
      more = reader.next_batch(log.records);
      if (log.records.size() == 1 && first_record_end == 0) first_record_end = reader.bytes_read();
      if (!corrected && log.records.size() >= kSample && size > 0 && first_record_end > 0) {
        corrected = true;
        correct_reserve();
      }
    }
  } else {
    while (reader.next(record)) {
      log.records.push_back(std::move(record));
      if (log.records.size() == 1) first_record_end = reader.bytes_read();
      if (log.records.size() == kSample && size > 0) correct_reserve();
    }
  }
  // No shrink_to_fit: capacity beyond the records was never written, so it costs address space, not memory
  // (pages are only backed once touched), while the copy to a tight vector would touch a second table as large
  // as the first (25 MB more at the peak on CEA-Curie).
  log.header = reader.header();
  log.report = reader.report();
  return log;
}

}  // namespace

std::string partial_executions_note(const std::string& path, const ReadReport& report) {
  const WarningCount& p = report.partial_executions;
  if (p.count == 0 || report.partial_executions_kept) return {};
  return (path == "-" ? std::string("<stdin>") : path) + ": " + std::to_string(p.count) +
         " partial-execution line" + (p.count == 1 ? "" : "s") +
         " (status 2-4 after their job's summary line; the first at line " + std::to_string(p.first_line) +
         ") left out: each job counts once, by its summary line";
}

std::string partial_executions_note(const Log& log) { return partial_executions_note(log.path, log.report); }

std::string skipped_lines_note(const Log& log) {
  const int64_t total = log.report.skipped_total();
  if (total == 0) return {};
  std::string note = (log.path == "-" ? std::string("<stdin>") : log.path) + ": " + std::to_string(total) +
                     " malformed line" + (total == 1 ? "" : "s") + " skipped:";
  const char* sep = " ";
  for (const auto& [reason, n] : log.report.skipped) {
    note += sep + reason + " " + std::to_string(n);
    sep = ", ";
  }
  return note;
}

Log read_log(const std::string& path, ReadOptions options) {
  Reader reader(path, options);
  return read_all(reader);
}

Log parse_log(std::string_view text, const std::string& name, ReadOptions options) {
  Reader reader(Reader::FromMemory{}, text, name, options);
  return read_all(reader);
}

}  // namespace schedlab::swf
