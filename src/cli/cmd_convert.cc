// schedlab convert IN OUT: SWF <-> CSV, formats chosen by extension (.swf, .swf.gz, .csv, .csv.gz); --from sacct:
// Slurm accounting output to SWF (swf/sacct.h).
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <fmt/core.h>

#include "cli/commands.h"
#include "cli/read_input.h"
#include "cli/text_util.h"
#include "schedlab/swf/csv.h"
#include "schedlab/swf/reader.h"
#include "schedlab/swf/sacct.h"
#include "schedlab/swf/writer.h"

namespace schedlab::cli {
namespace {

// Convert insists on a name it can tell the format from (the readers and writers then choose by it:
// swf::read_swf_or_csv, swf::write_swf_or_csv).
void check_format_name(const std::string& path, const char* role) {
  if (path == "-") return;  // standard input or output: SWF, as in every command
  for (const char* ext : {".swf", ".swf.gz", ".csv", ".csv.gz"})
    if (path.ends_with(ext)) return;
  throw std::invalid_argument(fmt::format(
      "cannot tell the format of the {} file '{}' from its name: use .swf, .swf.gz, .csv or .csv.gz (or - for "
      "SWF on standard {})",
      role, path, std::string_view(role) == "input" ? "input" : "output"));
}

struct ConvertOptions {
  std::string in, out, from = "auto", timezone;
  bool keep_unstarted = false;
  std::optional<int64_t> procs;
};

void run_sacct(const ConvertOptions& opt) {
  check_format_name(opt.out, "output");
  if (opt.procs && (*opt.procs < 1 || *opt.procs > INT32_MAX))  // before the file is read; MaxProcs is 32-bit
    throw std::invalid_argument(fmt::format("--procs must be in 1..2147483647 (got {})", *opt.procs));
  swf::SacctOptions so;
  so.keep_unstarted = opt.keep_unstarted;
  so.procs = opt.procs;
  so.timezone = opt.timezone;
  swf::SacctReport rep;
  swf::check_output_is_not_input(opt.out, {opt.in});
  const swf::Log log = swf::read_sacct(opt.in, so, &rep);
  swf::write_swf_or_csv(opt.out, log.header, log.records);
  fmt::print(stderr,
             "schedlab convert: {} -> {} in {}; never started: {} ({}); unfinished (left out): {}; job "
             "steps (left out): {}{}{}{}{}\n",
             counted_grouped(rep.rows, "sacct row"), counted_grouped(rep.jobs, "job"), output_name(opt.out),
             rep.unstarted,
             opt.keep_unstarted ? "kept with status 5" : "left out", rep.unfinished, group_thousands(rep.steps),
             rep.het_components > 0
                 ? fmt::format("; heterogeneous-job components (merged into their job): {}",
                               group_thousands(rep.het_components))
                 : std::string(),
             rep.requeued_jobs > 0
                 ? fmt::format("; requeued jobs (sacct -D; each one job, its runs as partial-execution lines): {}",
                               group_thousands(rep.requeued_jobs))
                 : std::string(),
             rep.reused_ids > 0
                 ? fmt::format("; jobs on a JobID an earlier job had (Slurm gave it again; each its own job): {}",
                               group_thousands(rep.reused_ids))
                 : std::string(),
             rep.held > 0 ? fmt::format("; submitted at their Eligible time, after their Submit (a begin time, a "
                                        "dependency, a hold, Slurm's own delay): {}",
                                        group_thousands(rep.held))
                          : std::string());
  for (const std::string& w : swf::sacct_warnings(rep, opt.in)) fmt::print(stderr, "schedlab: warning: {}\n", w);
}

void run_convert(const ConvertOptions& opt) {
  if (opt.from == "sacct") {
    run_sacct(opt);
    return;
  }
  if (opt.keep_unstarted || opt.procs || !opt.timezone.empty())
    throw std::invalid_argument("--keep-unstarted, --procs and --timezone are options of --from sacct");
  check_format_name(opt.in, "input");
  check_format_name(opt.out, "output");
  swf::check_output_is_not_input(opt.out, {opt.in});
  swf::ReadOptions read_options;
  read_options.keep_partial_executions = true;  // a copy of the log, line for line
  const swf::Log log = read_input_log(opt.in, read_options);
  swf::write_swf_or_csv(opt.out, log.header, log.records);
  fmt::print(stderr, "schedlab convert: wrote {} and {} to {}\n",
             counted_grouped(static_cast<int64_t>(log.records.size()), "record"),
             counted_grouped(static_cast<int64_t>(log.header.lines.size()), "header line"), output_name(opt.out));
}

}  // namespace

void add_convert_command(CLI::App& app) {
  auto opt = std::make_shared<ConvertOptions>();
  CLI::App* cmd = app.add_subcommand("convert", "Convert a log between SWF and CSV, or Slurm accounting records to SWF");
  cmd->footer("By extension: .swf, .swf.gz, .csv, .csv.gz (.gz: gzip). The CSV has the SWF header lines as leading '#' "
              "lines, then a row of column names, then one record per row. --from sacct reads `sacct -P` output "
              "(docs/slurm.md).");
  cmd->add_option("IN", opt->in, "input log (- = SWF on standard input)")->required();
  cmd->add_option("OUT", opt->out, "output log (- = SWF on standard output)")->required();
  cmd->add_option("--from", opt->from,
                  "input format: auto (by extension: SWF or CSV) or sacct (the output of sacct -P; docs/slurm.md)")
      ->check(CLI::IsMember({"auto", "sacct"}))
      ->capture_default_str();
  cmd->add_flag("--keep-unstarted", opt->keep_unstarted,
                "sacct: keep jobs that never started (cancelled while pending) with status 5 and wait -1");
  cmd->add_option("--procs", opt->procs, "sacct: MaxProcs of the log (default: the largest allocation)");
  cmd->add_option("--timezone", opt->timezone,
                  "sacct: the zone sacct printed its times in, e.g. Europe/Stockholm (default: TZ, else the machine's)");
  cmd->callback([opt] { run_convert(*opt); });
}

}  // namespace schedlab::cli
