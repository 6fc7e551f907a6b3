// Plug-in specs and typed plug-in parameters: one grammar and one declaration per plug-in (scheduler,
// predictor, ...), from which parsing, validation, `--list` and the docs' tables all derive.
//
// Spec grammar:
//   SPEC  := NAME [ ':' PARAM { ';' PARAM } ]     e.g.  conservative:compress=fixpoint;check=1
//          | '@' PATH                              the spec is read from a file
//   PARAM := KEY '=' VALUE
//   VALUE := text without ';' ':' '=' '[' ']'       e.g.  PE,P,E,*
//          | '[' SPEC-or-text ']'                  brackets nest: a parameter may itself be a spec,
//                                                  e.g.  adaptive:candidates=[easy,[conservative:check=1]]
// Spaces around tokens are ignored. In a spec file, lines starting with '#' are comments and line breaks
// are spaces, so a long spec can be written one parameter per line.
//
// Declarations: a plug-in lists its parameters (name, type, default, range or choices, help). Params checks
// a parsed spec against them: an unknown key, a value of the wrong type, out of range or not among the
// choices is a std::invalid_argument naming the plug-in, the parameter and what it accepts.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace schedlab::base {

struct Spec {
  std::string name;
  std::map<std::string, std::string> params;  // a bracketed value is stored without its brackets
};

// Parses SPEC (or reads "@PATH"). `kind` names what is parsed in messages ("scheduler", "predictor").
// Throws std::invalid_argument on a malformed spec or an unreadable file.
Spec parse_spec(std::string_view text, std::string_view kind);
// A list of specs (the value of a parameter that takes several): items separated by top-level ',', an item
// with parameters in brackets: "easy,[conservative:check=1;compress=fixpoint],easy-sjbf".
std::vector<std::string> parse_spec_list(std::string_view text, std::string_view kind);
// The canonical text of a spec: keys in sorted order, values that need it in brackets.
std::string format_spec(const Spec& spec);

// A spec, a name or a value as an error message shows it: whole up to 200 bytes, else its start, "..." and its
// size (a log given by mistake as a spec file was printed whole, 2.6 MB of it).
std::string excerpt(std::string_view text);

// Relative paths written in a file are read from that file's directory: a sweep spec's logs and predictor
// files, and a spec file's own paths (a candidate "@other.spec", a predictor's db=). `dir` is that directory
// (empty: the working directory).
// - spec_in_dir: "@PATH" with a relative PATH joined to `dir`; any other text as it is.
// - spec_files_dir: where the relative paths inside `text` (after spec_in_dir) are read from: its file's
//   directory when it is "@PATH", else `dir`.
std::string spec_in_dir(std::string_view text, std::string_view dir);
std::string spec_files_dir(std::string_view text, std::string_view dir);

enum class ParamType {
  kInt,     // a whole number in [min, max]
  kDouble,  // a number in [min, max]
  kBool,    // 0/1, false/true, no/yes, off/on
  kString,  // any text
  kChoice,  // one of `choices`
  kSpec,    // a nested spec (of a scheduler, a predictor, ...), checked by whoever makes it
  kDuration,  // a duration (base/duration.h: 90, 15m, 1.5h, ...) in seconds, in [min, max]
  kFile,      // a file's path: a relative one is read from Params's files_dir (a sweep spec's directory)
};
// "int", "number", "bool", "text", "choice", "spec", "duration", "file"
std::string_view param_type_name(ParamType t);

struct ParamDecl {
  std::string name = {};
  ParamType type = ParamType::kString;
  std::string default_value = {};  // as a user would write it; empty: unset unless given
  std::string help = {};                 // one line
  double min = -std::numeric_limits<double>::infinity();  // kInt / kDouble / kDuration (seconds), inclusive
  double max = std::numeric_limits<double>::infinity();
  std::vector<std::string> choices = {};  // kChoice
  std::string metavar = {};          // shown for the value in lists ("SECONDS"); default from the type
};

// "name=VALUES (default)" items, comma-separated (what `--list` prints).
std::string describe_params(const std::vector<ParamDecl>& decls);
// A Markdown table of the declarations (parameter, type, default, accepted values, meaning) for the docs.
std::string params_markdown(const std::vector<ParamDecl>& decls);

// The checked, typed values of one plug-in's parameters: every given one validated against `decls`, every
// other one at its default. `files_dir`: where a relative kFile value is read from (empty: the working
// directory), so that a sweep spec's files are found beside it, as its logs are.
class Params {
 public:
  Params(std::string_view plugin, const std::vector<ParamDecl>& decls, const std::map<std::string, std::string>& given,
         std::string files_dir = {});

  bool given(const std::string& name) const;  // the user gave it (not the default)
  // Its value is the declared default, compared by type ("0.950" is 0.95, "1h" is 3600, "yes" is 1): what a
  // canonical name of the configuration can leave out.
  bool at_default(const std::string& name) const;
  bool has(const std::string& name) const;    // given, or declared with a default
  int64_t get_int(const std::string& name) const;
  double get_double(const std::string& name) const;
  bool get_bool(const std::string& name) const;
  int64_t get_duration(const std::string& name) const;  // seconds
  const std::string& get_string(const std::string& name) const;  // kString, kChoice, kSpec
  std::string get_file(const std::string& name) const;  // kFile: the path to open (files_dir joined to a relative one)

 private:
  const ParamDecl& decl(const std::string& name, ParamType want) const;
  const std::string& text(const std::string& name) const;
  std::string plugin_;
  const std::vector<ParamDecl>* decls_;
  std::map<std::string, std::string> values_;  // given or default
  std::map<std::string, bool> given_;
  std::string files_dir_;
};

}  // namespace schedlab::base
