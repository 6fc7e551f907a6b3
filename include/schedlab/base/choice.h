// Options whose value is one of a few names, each naming an enum value in order: one array of names is the only
// spelling of them, from which parsing, the inverse and the list a CLI or Python offers all derive.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace schedlab::base {

// The enum value whose name (names[value]) is `name`; nullopt for anything else.
template <typename Enum, size_t N>
std::optional<Enum> parse_choice(const std::array<std::string_view, N>& names, std::string_view name) {
  for (size_t i = 0; i < N; ++i)
    if (names[i] == name) return static_cast<Enum>(i);
  return std::nullopt;
}

template <size_t N>
std::vector<std::string> choice_names(const std::array<std::string_view, N>& names) {
  return {names.begin(), names.end()};
}

}  // namespace schedlab::base
