#include "swf/foreign_format.h"

namespace schedlab::swf {

std::optional<ForeignFormat> foreign_format(std::string_view head) {
  struct Magic {
    std::string_view bytes;
    ForeignFormat format;
  };
  static constexpr std::string_view kUtf16Advice = "convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)";
  static constexpr Magic kMagics[] = {
      {"\xFD" "7zXZ", {"compressed with xz", "unxz it first"}},
      {"\x28\xB5\x2F\xFD", {"compressed with zstd", "unzstd it first"}},
      {"PK\x03\x04", {"a zip archive", "unzip it first"}},
      {"7z\xBC\xAF\x27\x1C", {"a 7-Zip archive", "7z x it first"}},
      {"\xFF\xFE", {"UTF-16 text", kUtf16Advice}},
      {"\xFE\xFF", {"UTF-16 text", kUtf16Advice}}};
  for (const Magic& m : kMagics)
    if (head.starts_with(m.bytes)) return m.format;
  // bzip2: "BZh" and the block size, a digit 1-9 (so that a text starting "BZh" is not taken for one).
  if (head.size() >= 4 && head.starts_with("BZh") && head[3] >= '1' && head[3] <= '9')
    return ForeignFormat{"compressed with bzip2", "bunzip2 it first"};
  return std::nullopt;
}

}  // namespace schedlab::swf
