#include "cli/completion.h"

#include <algorithm>
#include <memory>
#include <string_view>

#include <fmt/core.h>

#include "schedlab/analysis/temporal.h"
#include "schedlab/base/params.h"
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
  if [[ ${out%%$'\n'*} == __files ]]; then
    files=1
    out=${out#__files}
  fi
  COMPREPLY=($(compgen -W "$out" -- "$cur"))
  if [[ ${COMPREPLY[0]} == *= ]]; then
    compopt -o nospace 2>/dev/null  # a plug-in's KEY=: its value follows
  fi
  if [[ -n $files ]]; then
    COMPREPLY+=($(compgen -f -- "$cur"))
    compopt -o filenames 2>/dev/null
  fi
  return 0
}
complete -F _schedlab schedlab
)";

// CLI11 makes a flag an option that expects no value (expected(0)); its type size stays 1.
bool takes_value(const CLI::Option* o) { return o->get_expected_max() != 0 && o->get_type_size_max() != 0; }

CLI::App* subcommand(CLI::App* at, const std::string& name) {
  for (CLI::App* sub : at->get_subcommands([](CLI::App*) { return true; }))
    if (sub->get_name() == name) return sub;
  return nullptr;
}

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

// The values of an option that names a plug-in or a choice; empty: a file name or a number.
std::vector<std::string> option_values(CLI::Option* o) {
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
  } else if (name == "model") {
    out = model::estimate_model_names();
  } else if (name == "series") {
    for (int k = 0; k < analysis::kTemporalSeries; ++k)
      out.emplace_back(analysis::temporal_series_name(static_cast<analysis::TemporalSeries>(k)));
  } else {
    out = member_choices(o);
  }
  return out;
}

// The declarations of the plug-in named by words[k] as the value of a scheduler or predictor option (the item
// after the last ',' of a list); nullptr when words[k] is not such a value.
const std::vector<base::ParamDecl>* plugin_params(CLI::App& at, const std::vector<std::string>& words, size_t k) {
  if (k == 0) return nullptr;
  size_t opt_at = k - 1;
  if (words[opt_at] == "=" && opt_at > 0) --opt_at;  // "--scheduler=easy"
  const CLI::Option* o = at.get_option_no_throw(words[opt_at]);
  if (o == nullptr || o->get_lnames().empty()) return nullptr;
  const std::string& option = o->get_lnames().front();
  const std::string name = words[k].substr(words[k].rfind(',') == std::string::npos ? 0 : words[k].rfind(',') + 1);
  if (names_a_scheduler(option)) {
    for (const auto& e : sim::schedulers())
      if (e.name == name) return &e.params;
  } else if (names_a_predictor(option)) {
    for (const auto& e : predict::predictors())
      if (e.name == name) return &e.parameters;
  }
  return nullptr;
}

// "KEY=" for each parameter of that plug-in (the shell adds no space after '=').
std::vector<std::string> plugin_keys(CLI::App& at, const std::vector<std::string>& words, size_t k) {
  std::vector<std::string> out;
  if (const auto* decls = plugin_params(at, words, k))
    for (const base::ParamDecl& d : *decls) out.push_back(d.name + "=");
  return out;
}

// The values a parameter of that plug-in takes, when they are a fixed set (a choice, a bool).
std::vector<std::string> plugin_values(CLI::App& at, const std::vector<std::string>& words, size_t k,
                                       const std::string& key) {
  if (const auto* decls = plugin_params(at, words, k))
    for (const base::ParamDecl& d : *decls) {
      if (d.name != key) continue;
      if (d.type == base::ParamType::kChoice) return d.choices;
      if (d.type == base::ParamType::kBool) return {"0", "1"};
    }
  return {};
}

std::string lines(const std::vector<std::string>& words, bool files) {
  std::string out = files ? "__files\n" : "";
  for (const std::string& w : words) out += w + "\n";
  return out;
}

}  // namespace

void add_completion_command(CLI::App& app) {
  auto shell = std::make_shared<std::string>();  // kept alive by the callback, as the commands' options are
  CLI::App* cmd = app.add_subcommand(
      "completion", "Print the shell completion script: source <(schedlab completion bash) (make install puts it "
                    "where bash-completion finds it)");
  cmd->add_option("SHELL", *shell, "the shell")->required()->check(CLI::IsMember({"bash"}));
  cmd->callback([shell] { fmt::print("{}", kBashScript); });  // bash is the one shell (checked above)
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
  // A plug-in's parameters: bash splits "-s conservative:compress=fi" at ':' and '=' into words.
  const size_t n = words.size();
  if (n >= 4 && words[n - 2] == ":") return lines(plugin_keys(*at, words, n - 3), false);
  if (n >= 6 && words[n - 2] == "=" && words[n - 4] == ":")
    return lines(plugin_values(*at, words, n - 5, words[n - 3]), false);
  if (pending != nullptr) {
    std::vector<std::string> values = option_values(pending);
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
