#include "swf/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/core.h>

namespace schedlab::swf {

OutputFile::OutputFile(const std::string& path) : path_(path) {
  if (path.empty()) throw WriteError("an empty output file name (a file name, or - for standard output)");
  if (path == "-") {
    f_ = stdout;
    return;
  }
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  // Through a symbolic link the file it names is replaced, not the link (the temporary goes beside that file).
  struct stat lst {};
  if (exists && ::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
    std::error_code ec;
    const auto target = std::filesystem::canonical(path, ec);
    if (!ec) target_ = target.string();
  }
  int fd = -1;
  if (!exists || S_ISREG(st.st_mode)) {
    static std::atomic<unsigned> counter{0};
    tmp_ = fmt::format("{}.tmp-{}-{}", target_.empty() ? path : target_, ::getpid(), counter++);
    fd = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 && exists) (void)::fchmod(fd, st.st_mode & 07777);  // a replaced file keeps its permissions
    if (fd < 0) tmp_.clear();  // e.g. a read-only directory holding a writable file: written in place
  }
  if (fd < 0) fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw error("cannot open for writing");
  if (path.ends_with(".gz")) {
    gz_ = gzdopen(fd, "wb6");
    if (gz_ != nullptr) gzbuffer(gz_, 256 * 1024);
  } else {
    f_ = ::fdopen(fd, "wb");
  }
  if (gz_ == nullptr && f_ == nullptr) {
    ::close(fd);
    discard();
    throw error("cannot open for writing");
  }
}

OutputFile::~OutputFile() {
  if (committed_) return;
  if (gz_ != nullptr) gzclose(gz_);
  if (f_ != nullptr && f_ != stdout) std::fclose(f_);
  discard();
}

void OutputFile::write(const char* data, size_t n) {
  if (n == 0) return;
  if (gz_ != nullptr) {
    if (gzwrite(gz_, data, static_cast<unsigned>(n)) != static_cast<int>(n)) {
      int errnum = 0;
      const char* msg = gzerror(gz_, &errnum);
      throw WriteError(fmt::format("{}: write error: {}", name(), errnum == Z_ERRNO ? std::strerror(errno) : msg));
    }
  } else if (std::fwrite(data, 1, n, f_) != n) {
    throw error("write error");
  }
}

void OutputFile::commit() {
  committed_ = true;
  bool ok = true;
  if (gz_ != nullptr) {
    ok = gzclose(gz_) == Z_OK;
    gz_ = nullptr;
  } else if (f_ == stdout) {
    ok = std::fflush(stdout) == 0;
  } else {
    ok = std::fclose(f_) == 0;
  }
  f_ = nullptr;
  if (!ok) {
    const WriteError e = error("write error");
    discard();
    throw e;
  }
  const std::string& final_path = target_.empty() ? path_ : target_;
  if (!tmp_.empty() && std::rename(tmp_.c_str(), final_path.c_str()) != 0) {
    const WriteError e = error("cannot replace the file");
    discard();
    throw e;
  }
}

std::string OutputFile::name() const { return path_ == "-" ? std::string("standard output") : path_; }

WriteError OutputFile::error(const char* what) const {
  return WriteError(fmt::format("{}: {}: {}", name(), what, std::strerror(errno)));
}

void OutputFile::discard() {
  if (!tmp_.empty()) (void)::unlink(tmp_.c_str());
  tmp_.clear();
}

}  // namespace schedlab::swf
