#include "schedlab/predict/spec.h"

#include <cctype>
#include <charconv>
#include <stdexcept>

#include <fmt/core.h>

namespace schedlab::predict {

namespace {
std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}
}  // namespace

PredictorSpec parse_predictor_spec(std::string_view text) {
  PredictorSpec spec;
  const size_t colon = text.find(':');
  spec.name = std::string(trim(text.substr(0, colon)));
  if (spec.name.empty()) throw std::invalid_argument(fmt::format("predictor spec '{}' has no name", text));
  if (colon == std::string_view::npos) return spec;
  std::string_view rest = text.substr(colon + 1);
  while (true) {
    const size_t semi = rest.find(';');
    const std::string_view item = trim(rest.substr(0, semi));
    if (!item.empty()) {
      const size_t eq = item.find('=');
      if (eq == std::string_view::npos) {
        throw std::invalid_argument(
            fmt::format("predictor spec '{}': parameter '{}' needs a value (KEY=VALUE)", text, item));
      }
      const std::string key(trim(item.substr(0, eq)));
      const std::string value(trim(item.substr(eq + 1)));
      if (key.empty() || value.empty() || value.find_first_of(":=") != std::string::npos) {
        throw std::invalid_argument(fmt::format("predictor spec '{}': malformed parameter '{}'", text, item));
      }
      if (!spec.params.emplace(key, value).second) {
        throw std::invalid_argument(fmt::format("predictor spec '{}': parameter '{}' given twice", text, key));
      }
    }
    if (semi == std::string_view::npos) break;
    rest = rest.substr(semi + 1);
  }
  return spec;
}

std::string format_predictor_spec(const PredictorSpec& spec) {
  std::string out = spec.name;
  char sep = ':';
  for (const auto& [k, v] : spec.params) {
    out += sep;
    out += k + "=" + v;
    sep = ';';
  }
  return out;
}

std::string ParamReader::get_string(const std::string& key, const std::string& fallback) {
  known_.insert(key);
  const auto it = params_.find(key);
  return it == params_.end() ? fallback : it->second;
}

int64_t ParamReader::get_int(const std::string& key, int64_t fallback, int64_t min_value) {
  known_.insert(key);
  const auto it = params_.find(key);
  if (it == params_.end()) return fallback;
  int64_t v = 0;
  const std::string& s = it->second;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || v < min_value) {
    throw std::invalid_argument(fmt::format("predictor '{}': parameter {} must be an integer >= {}, got '{}'",
                                            predictor_, key, min_value, s));
  }
  return v;
}

bool ParamReader::get_bool(const std::string& key, bool fallback) {
  known_.insert(key);
  const auto it = params_.find(key);
  if (it == params_.end()) return fallback;
  const std::string& s = it->second;
  if (s == "1" || s == "true" || s == "yes" || s == "on") return true;
  if (s == "0" || s == "false" || s == "no" || s == "off") return false;
  throw std::invalid_argument(fmt::format("predictor '{}': parameter {} must be 0 or 1, got '{}'", predictor_, key, s));
}

void ParamReader::finish() const {
  for (const auto& [key, value] : params_) {
    if (known_.count(key)) continue;
    std::string list;
    for (const auto& k : known_) list += (list.empty() ? "" : ", ") + k;
    throw std::invalid_argument(fmt::format("predictor '{}' has no parameter '{}' (its parameters: {})", predictor_,
                                            key, list.empty() ? "none" : list + ", correction"));
  }
}

}  // namespace schedlab::predict
