// An output file that appears whole or not at all (module-internal: write_log, write_text_file, write_csv).
// A regular file is written to a temporary beside it (same directory, so the rename stays on one file system) and
// renamed over the path by commit(): a failed write (disk full, a file size limit, an exception while formatting)
// or a missing commit removes the temporary and leaves what was at the path — an earlier result, or the input log
// itself — untouched. A replaced file keeps its permissions; through a symbolic link the file it names is
// replaced and the link stays. Standard output ("-") and existing non-regular files (/dev/null, a pipe) are
// written in place. ".gz" paths are gzip-compressed. Errors: WriteError naming the path.
#pragma once

#include <zlib.h>

#include <cstdio>
#include <string>

#include "schedlab/swf/writer.h"

namespace schedlab::swf {

class OutputFile {
 public:
  explicit OutputFile(const std::string& path);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();  // without commit(): the temporary is removed

  void write(const char* data, size_t n);
  void commit();

 private:
  std::string name() const;
  WriteError error(const char* what) const;
  void discard();

  std::string path_, tmp_;
  std::string target_;  // the file a symbolic link `path_` names (empty: not a link)
  std::FILE* f_ = nullptr;
  gzFile gz_ = nullptr;
  bool committed_ = false;
};

}  // namespace schedlab::swf
