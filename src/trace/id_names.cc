#include "schedlab/trace/id_names.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include <fmt/core.h>

namespace schedlab::trace {

std::map<std::string, int32_t, std::less<>> header_names(const swf::Header& header, std::string_view kind) {
  std::map<std::string, int32_t, std::less<>> out;
  const std::string prefix = fmt::format("{}: ", kind);
  for (const std::string& note : header.notes) {
    if (!note.starts_with(prefix)) continue;
    // "1=alice, 2=bob": names hold no ", " (Slurm's user, group and partition names hold no comma).
    std::string_view rest = std::string_view(note).substr(prefix.size());
    while (!rest.empty()) {
      const size_t end = rest.find(", ");
      const std::string_view item = rest.substr(0, end);
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 2);
      const size_t eq = item.find('=');
      if (eq == std::string_view::npos || eq == 0) continue;
      int32_t id = 0;
      bool number = true;
      for (const char c : item.substr(0, eq)) {
        if (c < '0' || c > '9' || id > 100'000'000) {
          number = false;
          break;
        }
        id = id * 10 + (c - '0');
      }
      if (number) out.emplace(std::string(item.substr(eq + 1)), id);
    }
  }
  return out;
}

std::map<int32_t, std::string> header_names_by_id(const swf::Header& header, std::string_view kind) {
  std::map<int32_t, std::string> out;
  for (const auto& [name, id] : header_names(header, kind)) out.emplace(id, name);
  return out;
}

std::string name_of(const std::map<int32_t, std::string>& names, int32_t id, std::string_view fallback) {
  const auto it = names.find(id);
  return it == names.end() ? std::string(fallback) : it->second;
}

std::set<int32_t> ids_of_names(std::string_view option, const std::vector<std::string>& names,
                               const swf::Header& header, std::string_view kind) {
  std::set<int32_t> ids;
  if (names.empty()) return ids;
  const auto known = header_names(header, kind);
  if (known.empty())
    throw std::invalid_argument(fmt::format("{}: '{}' is not a number, and the log's header names no {} (a log "
                                            "converted from Slurm's sacct does: '; Note: {}: 1=...'); give numbers",
                                            option, names.front(), kind, kind));
  for (const std::string& name : names) {
    const auto it = known.find(name);
    if (it == known.end()) {
      std::vector<std::pair<int32_t, std::string_view>> by_id;
      for (const auto& [k, v] : known) by_id.emplace_back(v, k);
      std::sort(by_id.begin(), by_id.end());
      std::string listed;
      for (size_t i = 0; i < by_id.size() && i < 20; ++i)
        listed += fmt::format("{}{}={}", i == 0 ? "" : ", ", by_id[i].first, by_id[i].second);
      if (by_id.size() > 20) listed += fmt::format(" and {} more", by_id.size() - 20);
      throw std::invalid_argument(fmt::format("{}: '{}' is neither a number nor one of the log's {} (its header "
                                              "names: {})",
                                              option, name, kind, listed));
    }
    ids.insert(it->second);
  }
  return ids;
}

}  // namespace schedlab::trace
