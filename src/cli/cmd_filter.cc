// schedlab filter TRACE -o OUT [criteria]: writes the records that pass every criterion as SWF, with the
// filter recorded as "; Note:" lines in the header. The counts of kept and excluded records (by reason)
// go to standard error, so that "-o -" can write the log to standard output.
#include <memory>
#include <set>
#include <string_view>
#include <vector>
#include <string>

#include <fmt/core.h>

#include "cli/commands.h"
#include "cli/text_util.h"
#include "cli/read_input.h"
#include "schedlab/swf/csv.h"
#include "schedlab/swf/reader.h"
#include "schedlab/swf/writer.h"
#include "schedlab/trace/filter.h"
#include "schedlab/trace/filter_log.h"
#include "schedlab/trace/id_names.h"
#include "schedlab/trace/log_time.h"

namespace schedlab::cli {
namespace {

struct FilterOptions {
  std::string path, out;
  std::string from, to, users, exclude_users, min_procs, max_procs, status, queue, partition;
  bool skip_invalid = false;
  bool drop_flurries = false;
  double flurry_factor = 3.0;
  int64_t flurry_min_jobs = 500;
};

// A list of ids, each a number or a name the log's header maps (trace/id_names.h: a log converted from sacct names
// its users and partitions). Without the header (the check before the log is read) only the numbers are checked.
std::set<int32_t> id_list(const char* option, const std::string& text, const swf::Header* header,
                          std::string_view kind) {
  if (text.empty() || text.front() == ',' || text.back() == ',' || text.find(",,") != std::string::npos)
    throw std::invalid_argument(
        fmt::format("{}: '{}' has an empty item; expected comma-separated ids or names like 3,17,alice", option, text));
  std::string numbers;
  bool any_number = false;  // an item that is not a name (an empty one too: parse_int_list says what is wrong)
  std::vector<std::string> names;
  for (size_t start = 0;;) {
    const size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!item.empty() && item.find_first_not_of("0123456789+-") != std::string::npos) {
      names.push_back(item);
    } else {
      numbers += (any_number ? "," : "") + item;
      any_number = true;
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  std::set<int32_t> ids;
  if (any_number) ids = parse_int_list(option, numbers);
  if (header != nullptr) ids.merge(trace::ids_of_names(option, names, *header, kind));
  return ids;
}

trace::FilterSpec make_spec(const FilterOptions& opt, const swf::Header& header, bool header_read = true) {
  const swf::Header* names = header_read ? &header : nullptr;
  trace::FilterSpec spec;
  if (!opt.from.empty()) {
    try {
      spec.from = trace::parse_log_time(opt.from, header);
    } catch (const trace::TimeError& e) {
      throw std::invalid_argument(fmt::format("--from: {}", e.what()));
    }
    spec.from_text = trace::log_time_text(opt.from, header);
  }
  if (!opt.to.empty()) {
    try {
      spec.to = trace::parse_log_time(opt.to, header);
    } catch (const trace::TimeError& e) {
      throw std::invalid_argument(fmt::format("--to: {}", e.what()));
    }
    spec.to_text = trace::log_time_text(opt.to, header);
  }
  if (!opt.users.empty()) spec.users = id_list("--users", opt.users, names, "users");
  if (!opt.exclude_users.empty()) spec.exclude_users = id_list("--exclude-users", opt.exclude_users, names, "users");
  if (!opt.min_procs.empty()) spec.min_procs = parse_int_option("--min-procs", opt.min_procs, 1, INT32_MAX);
  if (!opt.max_procs.empty()) spec.max_procs = parse_int_option("--max-procs", opt.max_procs, 1, INT32_MAX);
  if (!opt.status.empty()) spec.statuses = parse_int_list("--status", opt.status);
  if (!opt.queue.empty()) spec.queues = parse_int_list("--queue", opt.queue);
  if (!opt.partition.empty()) spec.partitions = id_list("--partition", opt.partition, names, "partitions");
  trace::check_filter_spec(spec);
  return spec;
}

void run_filter(const FilterOptions& opt) {
  swf::ReadOptions read_options;
  read_options.skip_invalid = opt.skip_invalid;
  read_options.keep_partial_executions = true;  // a copy loses no line: they go with their jobs (trace/filter_log.h)
  // Check the option values that do not need the log before reading it.
  FilterOptions no_times = opt;
  no_times.from.clear();
  no_times.to.clear();
  make_spec(no_times, swf::Header{}, false);
  swf::check_output_is_not_input(opt.out, {opt.path});
  swf::Log log = read_input_log(opt.path, read_options);
  const trace::FilterSpec spec = make_spec(opt, log.header);
  std::optional<trace::FlurryOptions> flurry_rule;
  if (opt.drop_flurries) flurry_rule = trace::FlurryOptions{opt.flurry_factor, opt.flurry_min_jobs};
  const trace::FilteredLog filtered = trace::filter_log(log, spec, flurry_rule);
  const trace::FilterResult& result = filtered.result;
  const int64_t flurry_dropped = filtered.flurry_dropped;
  swf::write_swf_or_csv(opt.out, filtered.header, result.kept);

  const int64_t partial_lines = log.report.partial_executions.count;
  std::string msg = fmt::format("schedlab filter: kept {} of {}, excluded {}\n",
                                group_thousands(static_cast<int64_t>(result.kept.size()) - filtered.partial_executions_kept),
                                counted_grouped(static_cast<int64_t>(log.records.size()) - partial_lines, "record"),
                                group_thousands(result.excluded_total()));
  if (partial_lines > 0)
    msg += fmt::format("  and {} of the {} partial-execution lines (status 2-4) with their jobs\n",
                       group_thousands(filtered.partial_executions_kept), group_thousands(partial_lines));
  for (int i = 0; i < trace::kFilterReasons; ++i)
    if (result.excluded[static_cast<size_t>(i)] > 0)
      msg += fmt::format("  excluded {:<16} {:>12}\n", trace::filter_reason_name(static_cast<trace::FilterReason>(i)),
                         group_thousands(result.excluded[static_cast<size_t>(i)]));
  if (opt.drop_flurries) msg += fmt::format("  dropped {:<17} {:>12}\n", "flurries", group_thousands(flurry_dropped));
  for (const auto& [reason, n] : log.report.skipped)
    msg += fmt::format("  skipped input line: {:<16} {:>12}\n", reason, group_thousands(n));
  fmt::print(stderr, "{}", msg);
  for (const std::string& hint : trace::filter_hints(log.records, log.header, spec, result, opt.partition))
    fmt::print(stderr, "schedlab: warning: {}\n", hint);
}

}  // namespace

void add_filter_command(CLI::App& app) {
  auto opt = std::make_shared<FilterOptions>();
  CLI::App* cmd = app.add_subcommand("filter", "Keep the records that pass every criterion, written as a log");
  cmd->footer("The log is SWF, or CSV by name; its header records the filter as '; Note:' lines. Kept and excluded "
              "counts (by reason) are printed on standard error.");
  cmd->add_option("TRACE", opt->path, kLogInputHelp)->required();
  cmd->add_option("-o,--output", opt->out, kLogOutputHelp)->required();
  cmd->add_option("--from", opt->from, "keep jobs submitted at or after DATE")->type_name("DATE");
  cmd->add_option("--to", opt->to, "keep jobs submitted before DATE (exclusive)")->type_name("DATE");
  auto* users = cmd->add_option("--users", opt->users,
                                "keep only these users: ids, or names a log from sacct maps (comma-separated)")
                    ->type_name("LIST");
  auto* exclude = cmd->add_option("--exclude-users", opt->exclude_users, "drop these users: ids or names (comma-separated)")
                      ->type_name("LIST");
  users->excludes(exclude);
  cmd->add_option("--min-procs", opt->min_procs, "keep jobs of at least N processors (job size)")->type_name("N");
  cmd->add_option("--max-procs", opt->max_procs, "keep jobs of at most N processors (job size)")->type_name("N");
  cmd->add_option("--status", opt->status, "keep only these status codes (field 11, comma-separated)")
      ->type_name("LIST");
  cmd->add_option("--queue", opt->queue, "keep only these queue numbers (comma-separated)")->type_name("LIST");
  cmd->add_option("--partition", opt->partition, "keep only these partitions: numbers, or names a log from sacct maps (comma-separated)")
      ->type_name("LIST");
  cmd->add_flag("--skip-invalid", opt->skip_invalid, "skip malformed records (counted by reason) instead of failing");
  CLI::Option* drop = cmd->add_flag("--drop-flurries", opt->drop_flurries,
                                    "also drop flurries (see 'schedlab flurries'), recorded in the header's notes");
  // The flurry rule's options shape --drop-flurries only: alone they were ignored without a word.
  cmd->add_option("--flurry-factor", opt->flurry_factor, "flurry rule: times the next user's weekly count")
      ->capture_default_str()
      ->needs(drop);
  cmd->add_option("--flurry-min-jobs", opt->flurry_min_jobs, "flurry rule: minimum jobs in the week")
      ->capture_default_str()
      ->needs(drop);
  cmd->footer(
      "DATE is YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS] in the log's time zone (header TimeZoneString, else UTC; "
      "needs UnixStartTime in the header), or a time relative to the log start: + and a duration (+3600, +90m, "
      "+12h, +1.5d, +1w, +1d12h). A record excluded by several criteria is counted under the first, in the order: "
      "unknown submit time, before --from, not before --to, user, unknown size, --min-procs, --max-procs, status, "
      "queue, partition.");
  cmd->callback([opt] { run_filter(*opt); });
}

}  // namespace schedlab::cli
