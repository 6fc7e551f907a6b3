// "Did you mean ...?" for a name a user mistyped (a scheduler, a predictor, a parameter, a choice, a sweep key):
// the known name nearest to it by edit distance, when it is near enough to be the likely intent.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace schedlab::base {

// Edit distance: insertions, deletions, substitutions and swaps of two neighbouring letters, one each ("fcsf" is
// 1 from "fcfs", a typing slip, not 2).
size_t edit_distance(std::string_view a, std::string_view b);

// The name in `names` nearest to `word` ignoring case, when the distance is at most a third of the word's
// length (at least 1, at most 3) and the word has 3 characters or more; "" otherwise, and for a word that is
// one of the names. The first of equally near names.
std::string nearest_name(std::string_view word, const std::vector<std::string>& names);

// "; did you mean 'NAME'?" for nearest_name, or "": the tail of an error message.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& names);

}  // namespace schedlab::base
