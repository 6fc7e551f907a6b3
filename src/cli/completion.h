// Shell completion: `schedlab completion bash` prints a bash script (installed by `make install` as
// PREFIX/share/bash-completion/completions/schedlab) whose candidates come from the binary itself —
// `schedlab __complete WORD... CURRENT` — so they always follow the commands, options and plug-ins it has:
// commands and subcommands, a command's options, and the values of options that name a scheduler, a predictor, a
// correction, an estimate model, a series or one of a fixed set of choices, a scheduler's or predictor's parameters
// after ':' and their values when they are a fixed set; file names elsewhere.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace schedlab::cli {

void add_completion_command(CLI::App& app);

// The candidates for the last of `words` (the words after `schedlab`, the last one being completed, possibly
// empty), one per line; a first line "__files" asks the shell to complete file names as well.
std::string complete_words(CLI::App& app, const std::vector<std::string>& words);

// Whether option `o` takes a value (a flag does not), and the subcommand of `at` named `name` (nullptr: none).
// Shared with cli/usage_hints.
bool takes_value(const CLI::Option* o);
CLI::App* subcommand(CLI::App* at, const std::string& name);

// The option of command `at` that `word` is a value of, as the user would write it ("-s" for "easy" or
// "easy-sjbf:order=sjf", "--schedulers" for "easy,fcfs", "--format" for "jsonl"): the first option whose
// known values (plug-in names, a fixed set of choices) hold it; "" when none does (a number, a file name).
std::string option_for_value(CLI::App& at, const std::string& word);

}  // namespace schedlab::cli
