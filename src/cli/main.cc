// schedlab: the command-line tool. A thin layer over the library: each subcommand parses its options,
// calls library functions, and prints text or JSON.
// Exit status: 0 success, 1 bad input or failure (message on stderr), 2 usage error, 70 internal error (a bug
// in schedlab: base/errors.h).
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <limits>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>

#include "cli/commands.h"
#include "cli/completion.h"
#include "cli/usage_hints.h"
#include "schedlab/base/errors.h"
#include "schedlab/base/version.h"
#include "schedlab/swf/reader.h"

namespace {

// CLI11 reads an integer with strtoll(text, 0): "010" is octal 8 and "0x10" is 16, and a number past 64 bits is
// clamped without a word — `--procs 010` simulated 8 processors, `--procs 99999999999999999999` 9.2e18, and every
// seed past 2^64 - 1 gave the output of that one. An integer option takes decimal digits within its range; leading
// zeros are read as decimal. An empty value, and a sign where the option checks signs itself (--seed, --threads), are
// left to those checks.
std::string decimal_integer(std::string& v, bool is_unsigned, bool own_sign_check) {
  if (v.empty() || (own_sign_check && v.starts_with('-'))) return "";
  std::string_view digits = v;
  const bool negative = digits.starts_with('-');
  if (negative || digits.starts_with('+')) digits.remove_prefix(1);
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos)
    return fmt::format("'{}' is not a whole number in decimal digits", v);
  const size_t first = digits.find_first_not_of('0');
  digits = first == std::string_view::npos ? std::string_view("0") : digits.substr(first);
  const std::string text = (negative ? "-" : "") + std::string(digits);
  if (is_unsigned) {
    uint64_t n = 0;
    if (negative && digits != "0") return fmt::format("'{}' is below 0", v);
    if (std::from_chars(digits.data(), digits.data() + digits.size(), n).ec != std::errc())
      return fmt::format("'{}' is out of range (at most {})", v, std::numeric_limits<uint64_t>::max());
  } else {
    int64_t n = 0;
    if (std::from_chars(text.data(), text.data() + text.size(), n).ec != std::errc())
      return fmt::format("'{}' is out of range ({}..{})", v, std::numeric_limits<int64_t>::min(),
                         std::numeric_limits<int64_t>::max());
  }
  v = negative && digits == "0" ? "0" : text;
  return "";
}

// Seeds are unsigned 64-bit numbers and CLI11 reads "-1" into one as 2^64 - 1: a user who wrote --seed -1
// (meaning "random", as elsewhere) would get a fixed, odd seed without a word. Every --seed refuses a sign,
// and every --threads too, with one message (the library's base::worker_threads refuses them as well, for
// Python; here it is a usage error, exit 2, before any log is read).
//
// An empty value ("--jobs-out ''", a file name from an unset shell variable) is refused for every option and
// argument that takes one: where empty meant "not given" the output was silently not written (simulate
// --jobs-out, compare --csv, sessions --users-output), elsewhere it gave "'': cannot replace the file".
void refuse_bad_values(CLI::App& app) {
  for (CLI::Option* o : app.get_options()) {
    if (o->get_expected_max() != 0 && o->get_type_size_max() != 0)  // takes a value (a flag does not)
      o->check(CLI::Validator(
          [](std::string& v) {
            return v.empty() ? std::string("an empty value (a value was expected: an unset shell variable?)") : "";
          },
          "", "non-empty"));
    if (o->check_lname("seed"))
      o->check(CLI::Validator(
          [](std::string& v) { return v.starts_with('-') ? std::string("a seed is a whole number >= 0") : ""; },
          "", "seed"));
    if (o->check_lname("threads"))
      o->check(CLI::Validator(
          [](std::string& v) {
            return v.starts_with('-') ? std::string("a number of threads >= 0 (0 = every core)") : "";
          },
          "", "threads"));
    // Integer options, by CLI11's type names (those typed "N" are text read by parse_int_option, in decimal). A
    // transform: it may rewrite the value.
    if (const std::string type = o->get_type_name(); type == "INT" || type == "UINT")
      o->transform(CLI::Validator(
          [is_unsigned = type == "UINT", own = o->check_lname("seed") || o->check_lname("threads")](std::string& v) {
            return decimal_integer(v, is_unsigned, own);
          },
          "", "decimal"));
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) refuse_bad_values(*sub);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"schedlab: workload logs, scheduler simulation and runtime prediction for parallel machines"};
  app.require_subcommand(1);
  app.set_version_flag("--version", fmt::format("schedlab {}", schedlab::base::kVersion));
  app.footer("'schedlab COMMAND --help' gives a command's arguments and options. Exit status: 0 success, 1 bad input "
             "(the message names the file, line and field), 2 a usage error, 70 an internal error (a bug).");
  schedlab::cli::add_stats_command(app);
  schedlab::cli::add_filter_command(app);
  schedlab::cli::add_convert_command(app);
  schedlab::cli::add_simulate_command(app);
  schedlab::cli::add_compare_command(app);
  schedlab::cli::add_analyze_command(app);
  schedlab::cli::add_sessions_command(app);
  schedlab::cli::add_flurries_command(app);
  schedlab::cli::add_estimates_command(app);
  schedlab::cli::add_predict_command(app);
  schedlab::cli::add_profiler_command(app);
  schedlab::cli::add_categorize_command(app);
  schedlab::cli::add_generate_command(app);
  schedlab::cli::add_sweep_command(app);
  schedlab::cli::add_report_command(app);
  schedlab::cli::add_completion_command(app);
  refuse_bad_values(app);
  // The shell's completion asks the binary (cli/completion.h): candidates on standard output, never an error.
  if (argc >= 2 && std::string_view(argv[1]) == "__complete") {
    try {
      fmt::print("{}", schedlab::cli::complete_words(app, std::vector<std::string>(argv + 2, argv + argc)));
    } catch (const std::exception&) {
    }
    return 0;
  }
  if (const std::string unknown = schedlab::cli::unknown_command(app, argc, argv); !unknown.empty()) {
    fmt::print(stderr, "schedlab: error: {}\n", unknown);
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // Usage errors (unknown option, missing or malformed argument) exit 2, like most Unix tools;
    // errors in the input itself exit 1. The message names the command and, where it can, what was meant.
    const std::string where = schedlab::cli::command_path(app);
    fmt::print(stderr, "schedlab: error: {}\n", e.what());
    std::string hint;
    if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) hint = schedlab::cli::nearest_option(app, argc, argv);
    if (hint.empty() && (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr ||
                         dynamic_cast<const CLI::RequiredError*>(&e) != nullptr))
      hint = schedlab::cli::stray_words_hint(app, argc, argv, e.what());
    if (dynamic_cast<const CLI::ValidationError*>(&e) != nullptr) hint = schedlab::cli::choice_hint(app, e.what());
    if (!hint.empty()) fmt::print(stderr, "{}\n", hint);
    fmt::print(stderr, "Run '{} --help' for its arguments and options.\n", where);
    return 2;
  } catch (const schedlab::swf::MalformedRecordError& e) {
    std::fflush(stdout);
    fmt::print(stderr, "schedlab: error: {}\n{}\n", e.what(), schedlab::cli::skip_invalid_hint(app));
    return 1;
  } catch (const std::bad_alloc&) {
    // Requests known to be too large are refused by name before they start (base/memory.h); this is the rest.
    std::fflush(stdout);
    fmt::print(stderr, "schedlab: error: out of memory: the input or the options need more memory than is available"
                       " (a larger machine, a smaller log or smaller options)\n");
    return 1;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    if (schedlab::base::is_internal_error(e)) {
      fmt::print(stderr,
                 "schedlab: internal error: {}\nThis is a bug in schedlab, not in your input: please report it with "
                 "the command line that caused it.\n",
                 e.what());
      return 70;
    }
    fmt::print(stderr, "schedlab: error: {}\n", e.what());
    return 1;
  }
  // What the command printed must have reached standard output: a full disk or a closed pipe would otherwise
  // lose the report (or --json) with exit status 0.
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    const int err = errno;
    fmt::print(stderr, "schedlab: error: standard output: write error: {}\n",
               err != 0 ? std::strerror(err) : "unknown");
    return 1;
  }
  return 0;
}
