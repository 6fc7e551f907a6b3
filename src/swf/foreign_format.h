// Files a user may take for a text log but which are not one (module-internal: the SWF, CSV and sacct readers):
// another compressor's output, an archive, UTF-16 text (a Windows editor's "Unicode"). Each reader names what it
// found and what to run, instead of "binary data" or a header of garbage.
#pragma once

#include <optional>
#include <string_view>

namespace schedlab::swf {

struct ForeignFormat {
  std::string_view what;    // "compressed with bzip2"
  std::string_view advice;  // "bunzip2 it first"
};

// By the file's first bytes; nullopt for anything else (text, gzip, which the readers decompress).
std::optional<ForeignFormat> foreign_format(std::string_view head);

}  // namespace schedlab::swf
