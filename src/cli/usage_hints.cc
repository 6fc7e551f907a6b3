#include "cli/usage_hints.h"

#include <algorithm>
#include <limits>
#include <vector>

#include <fmt/core.h>

#include "cli/completion.h"
#include "schedlab/base/nearest.h"

namespace schedlab::cli {
namespace {

CLI::App* innermost(CLI::App& app) {
  CLI::App* at = &app;
  while (!at->get_subcommands().empty()) at = at->get_subcommands().front();
  return at;
}

// How the user writes option `o`: its short name when it has one ("-o"), else its long name.
std::string spelling(const CLI::Option* o) {
  return o->get_snames().empty() ? "--" + o->get_lnames().front() : "-" + o->get_snames().front();
}

// A word as the shell must read it back.
std::string quoted(const std::string& w) {
  return w.find_first_of(" \t;'\"$&|<>()*?[]") == std::string::npos ? w : "'" + w + "'";
}

bool names_a_database(const std::string& w) {
  return w.ends_with(".db") || w.ends_with(".sqlite") || w.ends_with(".sqlite3");
}

}  // namespace

std::string choice_hint(CLI::App& app, const std::string& error) {
  // CLI11's CLI::IsMember: "--groups: usr not in {system,user,queue}".
  const size_t colon = error.find(": "), not_in = error.find(" not in {");
  if (colon == std::string::npos || not_in == std::string::npos || not_in < colon || !error.ends_with('}')) return "";
  const std::string option = error.substr(0, colon), value = error.substr(colon + 2, not_in - colon - 2);
  std::vector<std::string> names;
  const std::string list = error.substr(not_in + 9, error.size() - not_in - 10);
  for (size_t from = 0; from <= list.size();) {
    const size_t comma = std::min(list.find(',', from), list.size());
    names.push_back(list.substr(from, comma - from));
    from = comma + 1;
  }
  const std::string nearest = base::nearest_name(value, names);
  return nearest.empty() ? "" : fmt::format("{}: did you mean {} {}?", command_path(app), option, nearest);
}

std::string command_path(CLI::App& app) {
  std::string where = "schedlab";
  for (CLI::App* at = &app; !at->get_subcommands().empty();) {
    at = at->get_subcommands().front();
    where += " " + at->get_name();
  }
  return where;
}

std::string skip_invalid_hint(CLI::App& app) {
  CLI::App* at = &app;
  while (!at->get_subcommands().empty()) at = at->get_subcommands().front();
  if (at->get_option_no_throw("--skip-invalid") != nullptr)
    return fmt::format("{} --skip-invalid skips such lines, counted by reason", command_path(app));
  return "schedlab filter LOG --skip-invalid -o CLEAN.swf writes the log without such lines, counted by reason";
}

std::string unknown_command(CLI::App& app, int argc, char** argv) {
  CLI::App* at = &app;
  std::string where = "schedlab";
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.starts_with('-') || at->get_require_subcommand_min() == 0) return "";
    std::string names, nearest;
    size_t best = 4;  // suggest only within 3 edits
    CLI::App* next = nullptr;
    for (CLI::App* sub : at->get_subcommands([](CLI::App*) { return true; })) {
      if (sub->get_name() == word) next = sub;
      names += (names.empty() ? "" : ", ") + sub->get_name();
      if (const size_t d = base::edit_distance(word, sub->get_name()); d < best) {
        best = d;
        nearest = sub->get_name();
      }
    }
    if (next == nullptr)
      return fmt::format("'{}' is not a command of {} ({}){}", word, where, names,
                         nearest.empty() ? "" : fmt::format("; did you mean '{}'?", nearest));
    at = next;
    where += " " + word;
  }
  if (at->get_require_subcommand_min() == 0) return "";
  std::string names;
  for (CLI::App* sub : at->get_subcommands([](CLI::App*) { return true; }))
    names += (names.empty() ? "" : ", ") + sub->get_name();
  return fmt::format("{} needs a command: {} (--help for each)", where, names);
}

std::string nearest_option(CLI::App& app, int argc, char** argv) {
  CLI::App* at = innermost(app);
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    if (!word.starts_with("--") || word == "--") continue;
    word = word.substr(2, word.find('=') == std::string::npos ? std::string::npos : word.find('=') - 2);
    if (at->get_option_no_throw("--" + word) != nullptr) continue;
    std::string nearest;
    size_t best = 4;  // within 3 edits, or the start of an option's name, or an option's name with more after it
    for (const CLI::Option* o : at->get_options()) {
      for (const std::string& name : o->get_lnames()) {
        const size_t d = name.starts_with(word) || (name.size() >= 3 && word.starts_with(name))
                             ? 1
                             : base::edit_distance(word, name);
        if (d < best) {
          best = d;
          nearest = name;
        }
      }
    }
    return nearest.empty() ? ""
                           : fmt::format("{} has no option --{}; did you mean --{}?", command_path(app), word, nearest);
  }
  return "";
}

std::string stray_words_hint(CLI::App& app, int argc, char** argv, const std::string& error) {
  CLI::App* at = &app;
  // The words that are neither commands, nor options, nor options' values.
  std::vector<std::string> words;
  bool positional_only = false;
  for (int i = 1; i < argc; ++i) {
    const std::string w = argv[i];
    if (!positional_only && w == "--") {
      positional_only = true;
    } else if (!positional_only && w.size() > 1 && w.front() == '-') {
      const size_t eq = w.find('=');
      const CLI::Option* o = at->get_option_no_throw(w.substr(0, eq));
      if (o != nullptr && takes_value(o) && eq == std::string::npos && (w.starts_with("--") || w.size() == 2)) ++i;
    } else if (CLI::App* sub = words.empty() ? subcommand(at, w) : nullptr) {
      at = sub;
    } else {
      words.push_back(w);
    }
  }
  // The words past what the command's positional arguments hold are strays.
  size_t room = 0;
  for (const CLI::Option* o : at->get_options())
    if (o->get_positional() && !o->nonpositional())
      room = o->get_items_expected_max() >= std::numeric_limits<int>::max() / 2
                 ? std::numeric_limits<size_t>::max() / 2
                 : room + static_cast<size_t>(std::max(o->get_items_expected_max(), 0));
  const std::vector<std::string> strays(words.begin() + static_cast<std::ptrdiff_t>(std::min(room, words.size())),
                                        words.end());
  // The options missing: those CLI11 requires and the one the message names ("--scheduler is required").
  std::vector<const CLI::Option*> missing;
  for (const CLI::Option* o : at->get_options())
    if (o->get_required() && o->count() == 0 && o->nonpositional() && takes_value(o)) missing.push_back(o);
  if (const size_t is = error.find(" is required"); error.starts_with('-') && is != std::string::npos)
    if (const CLI::Option* o = at->get_option_no_throw(error.substr(0, is));
        o != nullptr && o->count() == 0 && std::find(missing.begin(), missing.end(), o) == missing.end())
      missing.push_back(o);
  std::vector<std::string> meant;
  for (const std::string& w : strays) {
    if (const std::string option = option_for_value(*at, w); !option.empty()) {
      meant.push_back(option + " " + quoted(w));
      std::erase(missing, at->get_option_no_throw(option));
    } else if (!missing.empty()) {  // in the order the command declares them: --from LOG -o OUT
      meant.push_back(spelling(missing.front()) + " " + quoted(w));
      missing.erase(missing.begin());
    }
  }
  // A list of logs holds every word: a database among them was meant for --db.
  if (strays.empty())
    for (const CLI::Option* o : missing)
      if (o->check_lname("db"))
        for (const std::string& w : words)
          if (names_a_database(w)) {
            meant.push_back(spelling(o) + " " + quoted(w));
            break;
          }
  if (meant.empty()) return "";
  std::string joined;
  for (const std::string& m : meant) joined += (joined.empty() ? "" : " ") + m;
  return fmt::format("{}: did you mean {}?", command_path(app), joined);
}

}  // namespace schedlab::cli
