// The last component of a path ("a/b/KTH.swf.gz" -> "KTH.swf.gz"): how tables and CSV files name a log.
#pragma once

#include <string>
#include <string_view>

namespace schedlab::base {

inline std::string file_name(std::string_view path) {
  const auto slash = path.find_last_of('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

}  // namespace schedlab::base
