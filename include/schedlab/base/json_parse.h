// JSON read from a user's file or text (a model's parameter file, a sweep's JSON lines). nlohmann's parser is
// iterative, but copying, comparing and printing a value recurse once per level of nesting: a parameter file of
// 200,000 nested objects was read, then crashed schedlab (stack overflow) when the parameters were copied. A
// document nested deeper than kMaxJsonDepth is refused while it is read; real ones nest a few levels.
#pragma once

#include <istream>
#include <string_view>

#include <nlohmann/json.hpp>

namespace schedlab::base {

inline constexpr int kMaxJsonDepth = 256;

// Throws nlohmann::json::parse_error on malformed text, and std::invalid_argument "JSON nested more than 256
// levels deep" on a document that is.
nlohmann::json parse_json(std::string_view text);
nlohmann::json parse_json(std::istream& in);  // the rest of the stream

}  // namespace schedlab::base
