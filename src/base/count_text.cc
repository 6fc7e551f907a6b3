#include "schedlab/base/count_text.h"

#include "schedlab/base/progress_text.h"

namespace schedlab::base {

std::string noun(int64_t n, std::string_view singular, std::string_view plural) {
  if (n == 1 || n == -1) return std::string(singular);
  return plural.empty() ? std::string(singular) + "s" : std::string(plural);
}

std::string counted(int64_t n, std::string_view singular, std::string_view plural) {
  return std::to_string(n) + " " + noun(n, singular, plural);
}

std::string counted_grouped(int64_t n, std::string_view singular, std::string_view plural) {
  return group_thousands(n) + " " + noun(n, singular, plural);
}

}  // namespace schedlab::base
