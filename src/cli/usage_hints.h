// What to tell a user whose command line CLI11 refused: the command they meant, the option they meant, or the
// option a stray word belongs to. CLI11 alone says "A subcommand is required", "The following arguments were not
// expected: 0.01 --warmup" or "--output is required" and leaves the user to find the rest in --help.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace schedlab::cli {

// A mistyped or missing command ("schedlab simulat log.swf", "schedlab analyze tempral", "schedlab estimates"):
// the word, the commands there are and the nearest one; "" when the words are commands.
std::string unknown_command(CLI::App& app, int argc, char** argv);

// For an unknown option ("simulate --warmup 0.01"), the nearest option of the command given; "" when nothing is
// near. Call after a parse that failed.
std::string nearest_option(CLI::App& app, int argc, char** argv);

// Words given where the command takes none, or an option missing: the options they were meant for
// ("schedlab simulate log easy" -> "did you mean -s easy?", "filter log out.swf" -> "-o out.swf", "generate
// scramble log out.swf" -> "--from log -o out.swf", "profiler ingest p.db log" -> "--db p.db"); "" when no word
// fits. `error` is CLI11's message (it may name the missing option). Call after a parse that failed.
std::string stray_words_hint(CLI::App& app, int argc, char** argv, const std::string& error);

// A value not among an option's choices ("--groups: usr not in {system,user,queue}", CLI11's message): the nearest
// choice ("schedlab categorize: did you mean --groups user?"); "" when none is near.
std::string choice_hint(CLI::App& app, const std::string& error);

// "schedlab simulate": the command the failed parse had reached.
std::string command_path(CLI::App& app);

// After a malformed record line stopped the command that ran (swf::MalformedRecordError): the way on — its own
// --skip-invalid when it has one, else `schedlab filter` with it to write a log without such lines.
std::string skip_invalid_hint(CLI::App& app);

}  // namespace schedlab::cli
