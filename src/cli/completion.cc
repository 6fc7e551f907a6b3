#include "cli/completion.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string_view>

#include <fmt/core.h>

#include "schedlab/analysis/temporal.h"
#include "schedlab/base/params.h"
#include "schedlab/model/estimate_fit.h"
#include "schedlab/model/estimate_models.h"
#include "schedlab/predict/correction.h"
#include "schedlab/predict/registry.h"
#include "schedlab/sim/scheduler_registry.h"

namespace schedlab::cli {
namespace {

// Words the candidates are joined from are read by the shell: the script splits them on newlines only.
constexpr std::string_view kBashScript = R"(# bash completion for schedlab: `source <(schedlab completion bash)`, or
# installed by `make install` (PREFIX/share/bash-completion/completions/schedlab). The candidates come from the
# binary itself (`schedlab __complete WORDS...`), so they follow the commands, options and plug-ins it has.
_schedlab() {
  local cur=${COMP_WORDS[COMP_CWORD]} IFS=$'\n' out files=
  out=$("${COMP_WORDS[0]}" __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return 0
  if [[ $out == __spec_files ]]; then  # a spec read from a file: "@PATH", or "easy,@PATH" in a list
    # Bash splits the words at '@' but replaces the word from its '@' on (readline keeps '@' as a prefix).
    local f pre=${cur%@*}@ path=${cur##*@}
    if [[ $cur == @ || $cur == =@ ]]; then
      pre=@ path=
    elif [[ ${COMP_WORDS[COMP_CWORD-1]} == @ || ${COMP_WORDS[COMP_CWORD-1]} == =@ ]]; then
      pre=@ path=$cur
    fi
    for f in $(compgen -f -- "$path"); do
      [[ -d $f ]] && f+=/
      COMPREPLY+=("$pre$f")
    done
    [[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == */ ]] && compopt -o nospace 2>/dev/null
    return 0
  fi
  if [[ ${out%%$'\n'*} == __files ]]; then
    files=1
    out=${out#__files}
  fi
  # The candidates that start with the word, as they are: compgen -W would take the quoting out of "2\;check=".
  COMPREPLY=()
  for w in $out; do [[ $w == "$cur"* ]] && COMPREPLY+=("$w"); done
  if [[ ${COMPREPLY[0]} == *= ]]; then
    compopt -o nospace 2>/dev/null  # a plug-in's KEY=: its value follows
  fi
  if [[ -n $files ]]; then
    # A file name with '@' in it: bash split the word there too, and replaces it from its last '@' on, so the
    # names are completed from the word as typed (COMP_LINE) and given from that '@'.
    local typed=${COMP_LINE:0:COMP_POINT} f
    typed=${typed##*[[:space:]]}
    typed=${typed#--*=}
    if [[ $typed == *@* && $typed == *"$cur" ]]; then
      for f in $(compgen -f -- "$typed"); do COMPREPLY+=("${f#"${typed%@*}"}"); done
    else
      COMPREPLY+=($(compgen -f -- "$cur"))
    fi
    compopt -o filenames 2>/dev/null
  fi
  return 0
}
complete -F _schedlab schedlab
)";

// The choices a CLI::IsMember check lists in its description ("{a,b,c}"), the help's own text.
std::vector<std::string> member_choices(CLI::Option* o) {
  std::vector<std::string> out;
  for (int k = 0;; ++k) {
    CLI::Validator* v = nullptr;
    try {
      v = o->get_validator(k);
    } catch (const CLI::OptionNotFound&) {
      break;
    }
    const std::string d = v->get_description();
    if (d.size() < 2 || d.front() != '{' || d.back() != '}') continue;
    size_t from = 1;
    while (from < d.size() - 1) {
      const size_t comma = std::min(d.find(',', from), d.size() - 1);
      out.push_back(d.substr(from, comma - from));
      from = comma + 1;
    }
  }
  return out;
}

// The options whose value is a scheduler spec (a list of them for --schedulers) or a predictor spec.
bool names_a_scheduler(const std::string& option) {
  return option == "scheduler" || option == "schedulers" || option == "baseline";
}
bool names_a_predictor(const std::string& option) { return option == "predictor"; }

// The values of option `o` of command `at` that names a plug-in or a choice; empty: a file name or a number.
std::vector<std::string> option_values(const CLI::App& at, CLI::Option* o) {
  const std::string name = o->get_lnames().empty() ? "" : o->get_lnames().front();
  std::vector<std::string> out;
  if (names_a_scheduler(name)) {
    for (const auto& s : sim::schedulers()) out.emplace_back(s.name);
    for (const auto& p : sim::presets()) out.emplace_back(p.name);
  } else if (names_a_predictor(name)) {
    for (const auto& p : predict::predictors()) out.emplace_back(p.name);
  } else if (name == "correction") {
    for (const auto c : {predict::Correction::kNone, predict::Correction::kTsafrir, predict::Correction::kDouble,
                         predict::Correction::kTimes10})
      out.emplace_back(predict::correction_name(c));
  } else if (name == "model") {  // `estimates fit` fits two of the models `estimates generate` applies
    out = at.get_name() == "fit" ? model::fittable_estimate_models() : model::estimate_model_names();
  } else if (name == "family" && at.get_name() == "fit") {
    out = model::song_fit_families();
  } else if (name == "next") {  // predict --next user=U,...: the one key it needs first
    out = {"user="};
  } else if (name == "series") {
    for (int k = 0; k < analysis::kTemporalSeries; ++k)
      out.emplace_back(analysis::temporal_series_name(static_cast<analysis::TemporalSeries>(k)));
  } else {
    out = member_choices(o);
  }
  return out;
}

// The long name of the option whose value words[k] is ("-s easy", "--scheduler=easy" split as three words); "".
std::string option_of_value(CLI::App& at, const std::vector<std::string>& words, size_t k) {
  if (k == 0) return "";
  size_t opt_at = k - 1;
  if (words[opt_at] == "=" && opt_at > 0) --opt_at;
  const CLI::Option* o = at.get_option_no_throw(words[opt_at]);
  return o == nullptr || o->get_lnames().empty() ? "" : o->get_lnames().front();
}

// The parameter declarations of the scheduler or predictor `name` given to `option`; nullptr when it names none.
const std::vector<base::ParamDecl>* plugin_decls(const std::string& option, const std::string& name) {
  if (names_a_scheduler(option)) {
    for (const auto& e : sim::schedulers())
      if (e.name == name) return &e.params;
  } else if (names_a_predictor(option)) {
    for (const auto& e : predict::predictors())
      if (e.name == name) return &e.parameters;
  }
  return nullptr;
}

// The plug-in named by words[k] as the value of a scheduler or predictor option (the item after the last ','
// of a list); nullptr when words[k] is not such a value.
const std::vector<base::ParamDecl>* plugin_params(CLI::App& at, const std::vector<std::string>& words, size_t k) {
  const std::string& w = words[k];
  const size_t comma = w.rfind(',');
  return plugin_decls(option_of_value(at, words, k), w.substr(comma == std::string::npos ? 0 : comma + 1));
}

// `prefix` + "KEY=" for each parameter declared.
std::vector<std::string> keys_of(const std::vector<base::ParamDecl>* decls, const std::string& prefix = "") {
  std::vector<std::string> out;
  if (decls != nullptr)
    for (const base::ParamDecl& d : *decls) out.push_back(prefix + d.name + "=");
  return out;
}

// `prefix` + each value parameter `key` takes, when they are a fixed set (a choice, a bool).
std::vector<std::string> values_of(const std::vector<base::ParamDecl>* decls, const std::string& key,
                                   const std::string& prefix = "") {
  std::vector<std::string> out;
  if (decls != nullptr)
    for (const base::ParamDecl& d : *decls) {
      if (d.name != key) continue;
      if (d.type == base::ParamType::kChoice) out = d.choices;
      if (d.type == base::ParamType::kBool) out = {"0", "1"};
    }
  for (std::string& v : out) v = prefix + v;
  return out;
}

// A spec's parameters typed as the user must, with ';' quoted: bash leaves a quoted word whole
// ("'maui:depth=2;pri", its quote kept) and splits an unquoted one at ':' and '=' only ("maui" ":" "depth" "="
// "2\;pri"). The candidates for the last word; nullopt when it is not inside a scheduler's or predictor's spec.
std::optional<std::vector<std::string>> spec_candidates(CLI::App& at, const std::vector<std::string>& words) {
  const size_t n = words.size();
  const std::string& cur = words.back();
  if (cur.find_first_of("'\"") != std::string::npos) {
    // The text the program will see (quotes removed: bash closes the quote when a completion is unique, and
    // the user may type on after it: 'maui:priority='xf). A candidate is the word as typed plus the rest.
    std::string t;
    for (const char c : cur)
      if (c != '\'' && c != '"') t += c;
    const size_t colon = t.rfind(':');  // the innermost spec being written (a list item, a bracketed value)
    if (colon == std::string::npos) return std::nullopt;
    const size_t start = t.find_last_of(",[", colon) == std::string::npos ? 0 : t.find_last_of(",[", colon) + 1;
    const std::string option = option_of_value(at, words, n - 1);
    if (!names_a_scheduler(option) && !names_a_predictor(option)) return std::nullopt;
    const auto* decls = plugin_decls(option, t.substr(start, colon - start));  // nullptr: an unknown plug-in
    const size_t seg = std::max(colon, t.rfind(';') == std::string::npos ? 0 : t.rfind(';')) + 1;
    const size_t eq = t.find('=', seg);
    const std::vector<std::string> candidates = eq == std::string::npos
                                                    ? keys_of(decls, t.substr(0, seg))
                                                    : values_of(decls, t.substr(seg, eq - seg), t.substr(0, eq + 1));
    std::vector<std::string> out;
    for (const std::string& c : candidates)
      if (c.starts_with(t)) out.push_back(cur + c.substr(t.size()));
    return out;
  }
  // Unquoted: the nearest ':' word after a plug-in's name; then KEY "=" VALUE words, a value ending in "\;KEY".
  size_t colon = n;
  for (size_t j = n - 1; j-- > 1;)
    if (const std::string o = option_of_value(at, words, j - 1);
        words[j] == ":" && (names_a_scheduler(o) || names_a_predictor(o))) {
      colon = j;
      break;
    }
  if (colon == n) return std::nullopt;
  for (size_t j = colon + 1; j + 1 < n; ++j)  // the spec ended: an option came after it
    if (at.get_option_no_throw(words[j]) != nullptr) return std::nullopt;
  const auto* decls = plugin_params(at, words, colon - 1);  // nullptr for an unknown plug-in: nothing to offer
  const auto after_semicolon = [](const std::string& w) {
    const size_t p = w.rfind(';');
    return p == std::string::npos ? std::string::npos : p + 1;
  };
  if (const size_t p = after_semicolon(cur); p != std::string::npos) return keys_of(decls, cur.substr(0, p));
  if (words[n - 2] == ":") return keys_of(decls);
  if (words[n - 2] == "=" && n - 3 > colon) {
    const std::string& k = words[n - 3];
    const size_t p = after_semicolon(k);
    return values_of(decls, p == std::string::npos ? k : k.substr(p));
  }
  return std::nullopt;
}

std::string lines(const std::vector<std::string>& words, bool files) {
  std::string out = files ? "__files\n" : "";
  for (const std::string& w : words) out += w + "\n";
  return out;
}

}  // namespace

void add_completion_command(CLI::App& app) {
  auto shell = std::make_shared<std::string>();  // kept alive by the callback, as the commands' options are
  CLI::App* cmd = app.add_subcommand("completion", "Print the shell completion script");
  cmd->footer("source <(schedlab completion bash); make install puts it where bash-completion finds it.");
  cmd->add_option("SHELL", *shell, "the shell")->required()->check(CLI::IsMember({"bash"}));
  cmd->callback([shell] { fmt::print("{}", kBashScript); });  // bash is the one shell (checked above)
}

// CLI11 makes a flag an option that expects no value (expected(0)); its type size stays 1.
bool takes_value(const CLI::Option* o) { return o->get_expected_max() != 0 && o->get_type_size_max() != 0; }

CLI::App* subcommand(CLI::App* at, const std::string& name) {
  for (CLI::App* sub : at->get_subcommands([](CLI::App*) { return true; }))
    if (sub->get_name() == name) return sub;
  return nullptr;
}

std::string option_for_value(CLI::App& at, const std::string& word) {
  if (word.empty()) return "";
  for (CLI::Option* o : at.get_options()) {
    if (!takes_value(o) || !o->nonpositional()) continue;
    const std::vector<std::string> values = option_values(at, o);
    if (values.empty()) continue;
    const std::string name = o->get_lnames().empty() ? "" : o->get_lnames().front();
    const bool plugin = names_a_scheduler(name) || names_a_predictor(name);
    // A list of schedulers is read item by item; a plug-in's name ends at its parameters.
    std::vector<std::string> items;
    for (size_t from = 0;;) {
      const size_t comma = name == "schedulers" ? word.find(',', from) : std::string::npos;
      items.push_back(word.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
      if (comma == std::string::npos) break;
      from = comma + 1;
    }
    const bool all = std::all_of(items.begin(), items.end(), [&](const std::string& item) {
      const std::string key = plugin ? item.substr(0, item.find(':')) : item;
      return std::find(values.begin(), values.end(), key) != values.end();
    });
    if (all) return o->get_snames().empty() ? "--" + name : "-" + o->get_snames().front();
  }
  return "";
}

std::string complete_words(CLI::App& app, const std::vector<std::string>& words) {
  if (words.empty()) return "";
  CLI::App* at = &app;
  CLI::Option* pending = nullptr;  // an option whose value comes next
  bool positional_only = false;    // after "--"
  bool positionals = false;        // a word that is neither a command nor an option was seen
  for (size_t i = 0; i + 1 < words.size(); ++i) {
    const std::string& w = words[i];
    if (pending != nullptr) {
      if (w != "=") pending = nullptr;  // bash splits "--scheduler=easy" into three words
      continue;
    }
    if (!positional_only && w == "--") {
      positional_only = true;
    } else if (!positional_only && w.size() > 1 && w.front() == '-') {
      const size_t eq = w.find('=');
      CLI::Option* o = at->get_option_no_throw(w.substr(0, eq));
      if (o != nullptr && takes_value(o) && eq == std::string::npos) pending = o;
    } else if (CLI::App* sub = positionals ? nullptr : subcommand(at, w)) {
      at = sub;
    } else {
      positionals = true;
    }
  }
  const std::string& cur = words.back();
  // A plug-in's parameters (bash splits "-s conservative:compress=fi" at ':' and '=' into words).
  if (const auto spec = spec_candidates(*at, words)) return lines(*spec, false);
  // A scheduler or predictor read from a file, "@PATH" (the list's last item for --schedulers): file names. Bash
  // splits "-s @sp" and "--schedulers easy,@sp" at '@' too, and "--scheduler=@sp" as "=@" "sp"; the script puts
  // the '@' back.
  if (const size_t n = words.size(); n >= 3 && (words[n - 2] == "@" || words[n - 2] == "=@")) {
    const CLI::Option* o = words[n - 2] == "=@" ? at->get_option_no_throw(words[n - 3]) : nullptr;
    const std::string before = words[n - 2] == "@"                      ? option_of_value(*at, words, n - 2)
                               : o != nullptr && !o->get_lnames().empty() ? o->get_lnames().front()
                                                                          : "";
    const bool list_item = words[n - 3].ends_with(',') && option_of_value(*at, words, n - 3) == "schedulers";
    if (names_a_scheduler(before) || names_a_predictor(before) || list_item) return "__spec_files\n";
  }
  if (pending != nullptr) {
    const std::string& option = pending->get_lnames().empty() ? "" : pending->get_lnames().front();
    const std::string item = cur.substr(cur.rfind(',') == std::string::npos ? 0 : cur.rfind(',') + 1);  // "@" too
    if ((names_a_scheduler(option) || names_a_predictor(option)) && (item.starts_with('@') || item == "=@"))
      return "__spec_files\n";
    std::vector<std::string> values = option_values(*at, pending);
    // A list of schedulers: complete the item after the last comma.
    if (pending->check_lname("schedulers") && cur.find(',') != std::string::npos)
      for (std::string& v : values) v = cur.substr(0, cur.rfind(',') + 1) + v;
    return lines(values, values.empty());
  }
  if (!positional_only && cur.starts_with('-')) {
    std::vector<std::string> names;
    for (const CLI::Option* o : at->get_options()) {
      for (const std::string& l : o->get_lnames()) names.push_back("--" + l);
      for (const std::string& s : o->get_snames()) names.push_back("-" + s);
    }
    return lines(names, false);
  }
  std::vector<std::string> subs;
  if (!positionals)
    for (CLI::App* sub : at->get_subcommands([](CLI::App*) { return true; })) subs.push_back(sub->get_name());
  // A command that needs a subcommand takes no file here; a command's positional may be a file.
  const bool files = at->get_require_subcommand_min() == 0;
  // The positional of `completion`: its shell.
  for (CLI::Option* o : at->get_options())
    if (o->get_lnames().empty() && o->get_snames().empty() && !member_choices(o).empty())
      return lines(member_choices(o), false);
  return lines(subs, files);
}

}  // namespace schedlab::cli
