// Users, groups and partitions by name. A log converted from Slurm accounting (convert --from sacct) numbers them
// 1, 2, ... and keeps the names in its header ("; Note: users: 1=alice, 2=bob", "; Note: partitions: 1=batch,
// 2=gpu"), so that a filter may say `--partition gpu` instead of looking the number up.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "schedlab/swf/header.h"

namespace schedlab::trace {

// The header's mapping of `kind` ("users", "groups", "partitions"): name -> number; empty when it has none.
std::map<std::string, int32_t, std::less<>> header_names(const swf::Header& header, std::string_view kind);

// The same mapping the other way: number -> name.
std::map<int32_t, std::string> header_names_by_id(const swf::Header& header, std::string_view kind);

// The name of `id` in such a mapping, `fallback` when it has none.
std::string name_of(const std::map<int32_t, std::string>& names, int32_t id, std::string_view fallback = "");

// The numbers of `names` in the header's mapping of `kind`. Throws std::invalid_argument naming `option` when the
// header has no such mapping, or a name is not in it (the names it has are listed, up to 20).
std::set<int32_t> ids_of_names(std::string_view option, const std::vector<std::string>& names,
                               const swf::Header& header, std::string_view kind);

}  // namespace schedlab::trace
