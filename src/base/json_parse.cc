#include "schedlab/base/json_parse.h"

#include <sstream>
#include <stdexcept>

#include <fmt/core.h>

namespace schedlab::base {

nlohmann::json parse_json(std::string_view text) {
  // The callback sees each object and array as it starts, at depth 0 for the document's own: the deep document
  // is refused before it is built.
  const nlohmann::json::parser_callback_t refuse_deep = [](int depth, nlohmann::json::parse_event_t event,
                                                           nlohmann::json&) {
    const bool opens = event == nlohmann::json::parse_event_t::object_start ||
                       event == nlohmann::json::parse_event_t::array_start;
    if (opens && depth >= kMaxJsonDepth)
      throw std::invalid_argument(fmt::format("JSON nested more than {} levels deep", kMaxJsonDepth));
    return true;
  };
  return nlohmann::json::parse(text, refuse_deep);
}

nlohmann::json parse_json(std::istream& in) {
  std::stringstream text;
  text << in.rdbuf();
  return parse_json(text.str());
}

}  // namespace schedlab::base
