// schedlab convert IN OUT: SWF <-> CSV, formats chosen by extension (.swf, .swf.gz, .csv, .csv.gz); --from sacct:
// Slurm accounting output to SWF (swf/sacct.h).
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include <fmt/core.h>

#include "cli/commands.h"
#include "cli/text_util.h"
#include "cli/read_input.h"
#include "schedlab/swf/csv.h"
#include "schedlab/swf/reader.h"
#include "schedlab/swf/sacct.h"
#include "schedlab/swf/writer.h"

namespace schedlab::cli {
namespace {

enum class Format { kSwf, kCsv };

Format format_of(const std::string& path, const char* role) {
  for (const char* ext : {".swf", ".swf.gz"})
    if (path.ends_with(ext)) return Format::kSwf;
  for (const char* ext : {".csv", ".csv.gz"})
    if (path.ends_with(ext)) return Format::kCsv;
  throw std::invalid_argument(fmt::format(
      "cannot tell the format of the {} file '{}' from its name: use .swf, .swf.gz, .csv or .csv.gz", role, path));
}

struct ConvertOptions {
  std::string in, out, from = "auto", timezone;
  bool keep_unstarted = false;
  std::optional<int64_t> procs;
};

void run_sacct(const ConvertOptions& opt) {
  if (format_of(opt.out, "output") != Format::kSwf && !opt.out.ends_with(".csv") && !opt.out.ends_with(".csv.gz"))
    throw std::invalid_argument("--from sacct writes SWF or CSV");
  if (opt.procs && (*opt.procs < 1 || *opt.procs > INT32_MAX))  // before the file is read; MaxProcs is 32-bit
    throw std::invalid_argument(fmt::format("--procs must be in 1..2147483647 (got {})", *opt.procs));
  swf::SacctOptions so;
  so.keep_unstarted = opt.keep_unstarted;
  so.procs = opt.procs;
  so.timezone = opt.timezone;
  swf::SacctReport rep;
  swf::check_output_is_not_input(opt.out, {opt.in});
  const swf::Log log = swf::read_sacct(opt.in, so, &rep);
  if (format_of(opt.out, "output") == Format::kSwf) swf::write_log(opt.out, log.header, log.records);
  else swf::write_csv(opt.out, log.header, log.records);
  fmt::print(stderr,
             "schedlab convert: {} sacct rows -> {} jobs in {}; never started: {} ({}); unfinished (left out): {}; job "
             "steps (left out): {}\n",
             group_thousands(rep.rows), group_thousands(rep.jobs), opt.out, rep.unstarted,
             opt.keep_unstarted ? "kept with status 5" : "left out", rep.unfinished, group_thousands(rep.steps));
  if (rep.start_before_submit > 0)
    fmt::print(stderr, "schedlab: warning: {}:{}: {} job(s) started before their submit time (the first here): wait "
               "set to 0\n", opt.in, rep.start_before_submit_line, rep.start_before_submit);
  if (rep.end_before_start > 0)
    fmt::print(stderr, "schedlab: warning: {}:{}: {} job(s) ended before their start time (the first here): runtime "
               "set to 0\n", opt.in, rep.end_before_start_line, rep.end_before_start);
}

void run_convert(const ConvertOptions& opt) {
  if (opt.from == "sacct") {
    run_sacct(opt);
    return;
  }
  if (opt.keep_unstarted || opt.procs || !opt.timezone.empty())
    throw std::invalid_argument("--keep-unstarted, --procs and --timezone are options of --from sacct");
  const Format in_format = format_of(opt.in, "input");
  const Format out_format = format_of(opt.out, "output");
  swf::check_output_is_not_input(opt.out, {opt.in});
  const swf::Log log = [&] {
    if (in_format == Format::kSwf) return read_input_log(opt.in);
    swf::Log csv = swf::read_csv(opt.in);
    warn_header_problems(csv);
    return csv;
  }();
  if (out_format == Format::kSwf) swf::write_log(opt.out, log.header, log.records);
  else swf::write_csv(opt.out, log.header, log.records);
  fmt::print(stderr, "schedlab convert: wrote {} records and {} header lines to {}\n",
             group_thousands(static_cast<int64_t>(log.records.size())),
             group_thousands(static_cast<int64_t>(log.header.lines.size())), opt.out);
}

}  // namespace

void add_convert_command(CLI::App& app) {
  auto opt = std::make_shared<ConvertOptions>();
  CLI::App* cmd = app.add_subcommand(
      "convert",
      "Convert a log between SWF and CSV, by extension (.swf, .swf.gz, .csv, .csv.gz; .gz -> gzip). The CSV has "
      "the SWF header lines as leading '#' lines, then a row of column names, then one record per row.");
  cmd->add_option("IN", opt->in, "input log")->required();
  cmd->add_option("OUT", opt->out, "output log")->required();
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
