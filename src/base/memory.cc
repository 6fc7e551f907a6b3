#include "schedlab/base/memory.h"

#include <unistd.h>

#include <stdexcept>

#include <fmt/core.h>

namespace schedlab::base {

uint64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page_size = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page_size > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size) : 0;
}

void check_fits_in_memory(double bytes, std::string_view what) {
  const uint64_t have = physical_memory_bytes();
  if (have == 0 || bytes <= static_cast<double>(have)) return;
  constexpr double kGB = 1024.0 * 1024.0 * 1024.0;
  throw std::invalid_argument(fmt::format("{}: about {:.1f} GB of memory needed, and this machine has {:.1f} GB", what,
                                          bytes / kGB, static_cast<double>(have) / kGB));
}

}  // namespace schedlab::base
