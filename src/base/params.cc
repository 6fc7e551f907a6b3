#include "schedlab/base/params.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <fmt/core.h>

#include "schedlab/base/duration.h"
#include "schedlab/base/errors.h"
#include "schedlab/base/nearest.h"

namespace schedlab::base {

std::string excerpt(std::string_view text) {
  constexpr size_t kShown = 200;
  if (text.size() <= kShown) return std::string(text);
  return fmt::format("{}... ({} bytes)", text.substr(0, kShown), text.size());
}

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// The spec written in a file: '#' comment lines dropped, line breaks as spaces. A spec file holds one spec, a few
// lines: a directory, a binary file (a gzipped log), or more than 1 MiB (a log; /dev/zero) is refused as not one.
// Read with that bound, not by size, so that a pipe works: -s @<(make-spec).
std::string read_spec_file(std::string_view path, std::string_view kind) {
  constexpr size_t kMaxSpecFileBytes = 1 << 20;
  std::error_code ec;
  if (std::filesystem::is_directory(std::string(path), ec))
    throw std::invalid_argument(fmt::format("{} spec file '{}': a directory, not a spec file", kind, path));
  std::ifstream in{std::string(path), std::ios::binary};
  if (!in) throw std::invalid_argument(fmt::format("{} spec file '{}': cannot be read", kind, path));
  // In 4 KiB pieces, not into a buffer of the bound: a spec is read again for each run of a sweep that names it.
  std::string text;
  char piece[4096];
  while (text.size() <= kMaxSpecFileBytes && in.read(piece, sizeof piece).gcount() > 0)
    text.append(piece, static_cast<size_t>(in.gcount()));
  if (text.size() > kMaxSpecFileBytes)
    throw std::invalid_argument(fmt::format(
        "{} spec file '{}': over 1 MiB, not a spec file (a spec is a few lines)", kind, path));
  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);  // a UTF-8 byte order mark (a Windows editor's)
  if (text.find('\0') != std::string::npos || text.starts_with("\x1f\x8b"))
    throw std::invalid_argument(fmt::format("{} spec file '{}': a binary file, not a spec file", kind, path));
  std::string out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (trim(line).starts_with('#')) continue;
    out += line;
    out += ' ';
  }
  return out;
}

// Splits at the top-level occurrences of `sep` (outside brackets). Throws on unbalanced brackets.
std::vector<std::string_view> split_top(std::string_view text, char sep, std::string_view whole,
                                        std::string_view kind) {
  std::vector<std::string_view> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '[') ++depth;
    if (text[i] == ']' && --depth < 0)
      throw std::invalid_argument(fmt::format("{} spec '{}': ']' without '['", kind, excerpt(whole)));
    if (text[i] == sep && depth == 0) {
      out.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  if (depth != 0) throw std::invalid_argument(fmt::format("{} spec '{}': '[' without ']'", kind, excerpt(whole)));
  out.push_back(text.substr(start));
  return out;
}

bool needs_brackets(std::string_view v) { return v.find_first_of(":;=[]") != std::string_view::npos; }

std::string default_metavar(const ParamDecl& d) {
  switch (d.type) {
    case ParamType::kInt: return "N";
    case ParamType::kDouble: return "X";
    case ParamType::kBool: return "0|1";
    case ParamType::kString: return "TEXT";
    case ParamType::kChoice: {
      std::string out;
      for (const auto& c : d.choices) out += (out.empty() ? "" : "|") + c;
      return out;
    }
    case ParamType::kSpec: return "[SPEC]";
    case ParamType::kDuration: return "DURATION";
    case ParamType::kFile: return "FILE";
  }
  return "VALUE";
}

std::string number_text(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{}", static_cast<int64_t>(v));
  return fmt::format("{:g}", v);
}

// What a parameter accepts, for messages and tables.
std::string accepted(const ParamDecl& d) {
  const bool lo = std::isfinite(d.min), hi = std::isfinite(d.max);
  switch (d.type) {
    case ParamType::kInt:
    case ParamType::kDouble: {
      const std::string what = d.type == ParamType::kInt ? "a whole number" : "a number";
      if (lo && hi) return fmt::format("{} from {} to {}", what, number_text(d.min), number_text(d.max));
      if (lo) return fmt::format("{} >= {}", what, number_text(d.min));
      if (hi) return fmt::format("{} <= {}", what, number_text(d.max));
      return what;
    }
    case ParamType::kBool: return "0 or 1 (also false/true, no/yes, off/on)";
    case ParamType::kString: return "any text";
    case ParamType::kChoice: {
      std::string out = "one of ";
      for (size_t i = 0; i < d.choices.size(); ++i) out += (i == 0 ? "" : ", ") + d.choices[i];
      return out;
    }
    case ParamType::kSpec: return "a spec, in brackets when it has parameters";
    case ParamType::kFile:
      return "a file's path (a relative one from the working directory; written in a sweep spec or a spec file, from "
             "that file's directory)";
    case ParamType::kDuration: {
      const std::string what = "a duration (90, 15m, 1.5h, 2d)";
      if (lo && hi) return fmt::format("{} from {} s to {} s", what, number_text(d.min), number_text(d.max));
      if (lo) return fmt::format("{} >= {} s", what, number_text(d.min));
      return what;
    }
  }
  return "";
}

bool parse_bool(std::string_view s, bool& out) {
  if (s == "1" || s == "true" || s == "yes" || s == "on") return out = true, true;
  if (s == "0" || s == "false" || s == "no" || s == "off") return out = false, true;
  return false;
}

bool parse_int(std::string_view s, int64_t& out) {
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size() && !s.empty();
}

bool parse_double(std::string_view s, double& out) {
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size() && !s.empty() && std::isfinite(out);
}

// Throws unless `value` is a valid value of `d`.
void check_value(std::string_view plugin, const ParamDecl& d, const std::string& value) {
  bool ok = false;
  switch (d.type) {
    case ParamType::kInt: {
      int64_t v = 0;
      ok = parse_int(value, v) && static_cast<double>(v) >= d.min && static_cast<double>(v) <= d.max;
      break;
    }
    case ParamType::kDouble: {
      double v = 0;
      ok = parse_double(value, v) && v >= d.min && v <= d.max;
      break;
    }
    case ParamType::kBool: {
      bool b = false;
      ok = parse_bool(value, b);
      break;
    }
    case ParamType::kString: ok = true; break;
    case ParamType::kChoice:
      for (const auto& c : d.choices) ok = ok || c == value;
      break;
    case ParamType::kSpec: ok = !trim(value).empty(); break;
    case ParamType::kFile: ok = !value.empty(); break;
    case ParamType::kDuration: {
      const auto seconds = parse_duration(value);
      ok = seconds && static_cast<double>(*seconds) >= d.min && static_cast<double>(*seconds) <= d.max;
      break;
    }
  }
  if (!ok)
    throw std::invalid_argument(
        fmt::format("{}: parameter {} must be {}, got '{}'{}", plugin, d.name, accepted(d), excerpt(value),
                    d.type == ParamType::kChoice ? did_you_mean(value, d.choices) : ""));
}

}  // namespace

Spec parse_spec(std::string_view text, std::string_view kind) {
  const std::string_view t = trim(text);
  if (t.starts_with('@')) {
    const std::string path(trim(t.substr(1)));
    const std::string content = read_spec_file(path, kind);
    // One level only: a file naming another file could name itself and never end.
    if (trim(content).starts_with('@'))
      throw std::invalid_argument(fmt::format("{} spec file '{}' names another spec file; write the spec itself", kind,
                                              path));
    return parse_spec(content, kind);
  }
  Spec spec;
  const size_t colon = t.find(':');
  spec.name = std::string(trim(t.substr(0, colon)));
  if (spec.name.empty()) throw std::invalid_argument(fmt::format("{} spec '{}' has no name", kind, excerpt(text)));
  if (spec.name.find_first_of(";=[]") != std::string::npos)
    throw std::invalid_argument(
        fmt::format("{} spec '{}': malformed name '{}'", kind, excerpt(text), excerpt(spec.name)));
  if (colon == std::string_view::npos) return spec;
  for (const std::string_view raw : split_top(t.substr(colon + 1), ';', text, kind)) {
    const std::string_view item = trim(raw);
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos)
      throw std::invalid_argument(
          fmt::format("{} spec '{}': parameter '{}' needs a value (KEY=VALUE)", kind, excerpt(text),
                      excerpt(item)));
    const std::string key(trim(item.substr(0, eq)));
    std::string_view value = trim(item.substr(eq + 1));
    const bool bracketed = value.starts_with('[') && value.ends_with(']');
    if (bracketed) value = trim(value.substr(1, value.size() - 2));
    if (key.empty() || key.find_first_of(":;=[] ") != std::string::npos || value.empty() ||
        (!bracketed && value.find_first_of(":=[]") != std::string_view::npos)) {
      // The likely slip: a scheduler with parameters as the value (wbas:high=maui:depth=2).
      const bool spec_value = !key.empty() && key.find_first_of(":;=[] ") == std::string::npos && !bracketed &&
                              value.find(':') != std::string_view::npos &&
                              value.find_first_of("[]") == std::string::npos;
      throw std::invalid_argument(fmt::format(
          "{} spec '{}': malformed parameter '{}'{}", kind, excerpt(text), excerpt(item),
          spec_value ? fmt::format(" (a spec with parameters as a value goes in brackets: {}=[{}])", key,
                                   excerpt(value))
                     : ""));
    }
    if (!spec.params.emplace(key, std::string(value)).second)
      throw std::invalid_argument(
          fmt::format("{} spec '{}': parameter '{}' given twice", kind, excerpt(text), excerpt(key)));
  }
  return spec;
}

std::string spec_in_dir(std::string_view text, std::string_view dir) {
  const std::string_view t = trim(text);
  if (dir.empty() || !t.starts_with('@')) return std::string(text);
  const std::filesystem::path path(trim(t.substr(1)));
  if (path.empty() || path.is_absolute()) return std::string(text);
  std::string out = "@";  // appended, not "@" + ...: GCC 12 warns falsely (-Wrestrict) on that form
  out += (std::filesystem::path(dir) / path).lexically_normal().string();
  return out;
}

std::string spec_files_dir(std::string_view text, std::string_view dir) {
  const std::string_view t = trim(text);
  if (!t.starts_with('@')) return std::string(dir);
  return std::filesystem::path(trim(t.substr(1))).parent_path().string();
}

std::vector<std::string> parse_spec_list(std::string_view text, std::string_view kind) {
  std::vector<std::string> out;
  for (const std::string_view raw : split_top(text, ',', text, kind)) {
    std::string_view item = trim(raw);
    if (item.starts_with('[') && item.ends_with(']')) item = trim(item.substr(1, item.size() - 2));
    if (item.empty()) throw std::invalid_argument(fmt::format("{} list '{}' has an empty item", kind, excerpt(text)));
    out.emplace_back(item);
  }
  return out;
}

std::string format_spec(const Spec& spec) {
  std::string out = spec.name;
  char sep = ':';
  for (const auto& [k, v] : spec.params) {
    out += sep;
    out += k + "=" + (needs_brackets(v) ? "[" + v + "]" : v);
    sep = ';';
  }
  return out;
}

std::string_view param_type_name(ParamType t) {
  switch (t) {
    case ParamType::kInt: return "int";
    case ParamType::kDouble: return "number";
    case ParamType::kBool: return "bool";
    case ParamType::kString: return "text";
    case ParamType::kChoice: return "choice";
    case ParamType::kSpec: return "spec";
    case ParamType::kDuration: return "duration";
    case ParamType::kFile: return "file";
  }
  return "?";
}

std::string describe_params(const std::vector<ParamDecl>& decls) {
  std::string out;
  for (const auto& d : decls) {
    out += out.empty() ? "" : ", ";
    out += d.name + "=" + (d.metavar.empty() ? default_metavar(d) : d.metavar);
    if (!d.default_value.empty()) out += " (" + d.default_value + ")";
  }
  return out;
}

std::string params_markdown(const std::vector<ParamDecl>& decls) {
  std::string out = "| parameter | type | default | accepts | meaning |\n|---|---|---|---|---|\n";
  for (const auto& d : decls) {
    out += fmt::format("| `{}` | {} | {} | {} | {} |\n", d.name, param_type_name(d.type),
                       d.default_value.empty() ? "—" : "`" + d.default_value + "`", accepted(d), d.help);
  }
  return out;
}

Params::Params(std::string_view plugin, const std::vector<ParamDecl>& decls,
               const std::map<std::string, std::string>& given, std::string files_dir)
    : plugin_(plugin), decls_(&decls), files_dir_(std::move(files_dir)) {
  for (const auto& [key, value] : given) {
    const ParamDecl* d = nullptr;
    for (const auto& decl : decls)
      if (decl.name == key) d = &decl;
    if (d == nullptr) {
      std::string names;
      std::vector<std::string> list;
      for (const auto& decl : decls) {
        names += (names.empty() ? "" : ", ") + decl.name;
        list.push_back(decl.name);
      }
      throw std::invalid_argument(fmt::format("{} has no parameter '{}' ({}){}", plugin, excerpt(key),
                                              names.empty() ? "it has no parameters" : "its parameters: " + names,
                                              did_you_mean(key, list)));
    }
    check_value(plugin, *d, value);
    values_[key] = value;
    given_[key] = true;
  }
  for (const auto& d : decls) {
    if (values_.count(d.name) || d.default_value.empty()) continue;
    check_value(plugin, d, d.default_value);  // a bad default is a bug in the declaration: found by any use
    values_[d.name] = d.default_value;
  }
}

bool Params::given(const std::string& name) const { return given_.count(name) > 0; }
bool Params::has(const std::string& name) const { return values_.count(name) > 0; }

bool Params::at_default(const std::string& name) const {
  for (const auto& d : *decls_) {
    if (d.name != name) continue;
    if (d.default_value.empty()) return !given(name);
    const std::string& v = text(name);
    switch (d.type) {
      case ParamType::kInt: {
        int64_t a = 0, b = 0;
        return parse_int(v, a) && parse_int(d.default_value, b) && a == b;
      }
      case ParamType::kDouble: {
        double a = 0, b = 0;
        return parse_double(v, a) && parse_double(d.default_value, b) && a == b;
      }
      case ParamType::kBool: {
        bool a = false, b = false;
        return parse_bool(v, a) && parse_bool(d.default_value, b) && a == b;
      }
      case ParamType::kDuration: return parse_duration(v) == parse_duration(d.default_value);
      default: return v == d.default_value;
    }
  }
  return false;
}

const ParamDecl& Params::decl(const std::string& name, ParamType want) const {
  for (const auto& d : *decls_) {
    if (d.name != name) continue;
    const bool text_like = want == ParamType::kString &&
                           (d.type == ParamType::kString || d.type == ParamType::kChoice || d.type == ParamType::kSpec);
    if (d.type != want && !text_like)
      throw InternalError(fmt::format("{}: parameter {} is declared {}, read as {}", plugin_, name,
                                         param_type_name(d.type), param_type_name(want)));
    return d;
  }
  throw InternalError(fmt::format("{}: parameter {} is read but not declared", plugin_, name));
}

const std::string& Params::text(const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end())
    throw InternalError(fmt::format("{}: parameter {} has no value and no default", plugin_, name));
  return it->second;
}

int64_t Params::get_int(const std::string& name) const {
  decl(name, ParamType::kInt);
  int64_t v = 0;
  parse_int(text(name), v);
  return v;
}

double Params::get_double(const std::string& name) const {
  decl(name, ParamType::kDouble);
  double v = 0;
  parse_double(text(name), v);
  return v;
}

bool Params::get_bool(const std::string& name) const {
  decl(name, ParamType::kBool);
  bool v = false;
  parse_bool(text(name), v);
  return v;
}

int64_t Params::get_duration(const std::string& name) const {
  decl(name, ParamType::kDuration);
  return parse_duration(text(name)).value_or(0);
}

const std::string& Params::get_string(const std::string& name) const {
  decl(name, ParamType::kString);
  return text(name);
}

std::string Params::get_file(const std::string& name) const {
  decl(name, ParamType::kFile);
  const std::string& path = text(name);
  if (files_dir_.empty() || std::filesystem::path(path).is_absolute()) return path;
  return (std::filesystem::path(files_dir_) / path).lexically_normal().string();
}

}  // namespace schedlab::base
