#include "schedlab/base/memory.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/core.h>

namespace schedlab::base {

uint64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page_size = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page_size > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size) : 0;
}

namespace {

// A limit file's number, or nullopt for "max", a missing file or anything else.
std::optional<uint64_t> read_limit(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  if (!in || !(in >> text)) return std::nullopt;
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  // cgroup v1 says "no limit" with a value near 2^63 (rounded down to a page).
  if (v >= (uint64_t{1} << 62)) return std::nullopt;
  return v;
}

}  // namespace

std::optional<uint64_t> cgroup_memory_limit(std::string_view proc_self_cgroup, const std::string& root) {
  std::optional<uint64_t> lowest;
  const auto take = [&](std::optional<uint64_t> v) {
    if (v && (!lowest || *v < *lowest)) lowest = v;
  };
  std::istringstream lines{std::string(proc_self_cgroup)};
  for (std::string line; std::getline(lines, line);) {
    // "0::/path" (v2) or "4:memory:/path" (v1); the path may not exist where the group is mounted at its root
    // (a container), so the root's own file is read too.
    const auto first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (controllers.empty()) {
      take(read_limit(root + path + "/memory.max"));
      take(read_limit(root + "/memory.max"));
    } else if (("," + controllers + ",").find(",memory,") != std::string::npos) {
      take(read_limit(root + "/memory" + path + "/memory.limit_in_bytes"));
      take(read_limit(root + "/memory/memory.limit_in_bytes"));
    }
  }
  return lowest;
}

uint64_t usable_memory_bytes() {
  uint64_t have = physical_memory_bytes();
  std::ifstream in("/proc/self/cgroup");
  std::stringstream text;
  text << in.rdbuf();
  if (const auto limit = cgroup_memory_limit(text.str(), "/sys/fs/cgroup"); limit && (have == 0 || *limit < have))
    have = *limit;
  return have;
}

void check_fits_in_memory(double bytes, std::string_view what) {
  const uint64_t have = usable_memory_bytes();
  if (have == 0 || bytes <= static_cast<double>(have)) return;
  constexpr double kGB = 1024.0 * 1024.0 * 1024.0;
  throw std::invalid_argument(fmt::format("{}: about {:.1f} GB of memory needed, and this process may use {:.1f} GB",
                                          what, bytes / kGB, static_cast<double>(have) / kGB));
}

}  // namespace schedlab::base
