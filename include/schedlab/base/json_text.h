// The text of a JSON document whose strings may hold bytes that are not UTF-8: a file name, or a log's header
// line, from a system in Latin-1. nlohmann's dump() throws type_error 316 on them, which made every --json output
// (and the JSON files, the sweep's JSON lines, the report's data) of such a log fail with that message; here such
// a byte becomes U+FFFD and the rest of the document is as dump() writes it.
#pragma once

#include <string>

namespace schedlab::base {

// `indent` as dump()'s: -1 = one line.
template <class Json>
std::string json_text(const Json& j, int indent = -1) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace schedlab::base
