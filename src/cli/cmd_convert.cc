// schedlab convert IN OUT: SWF <-> CSV, formats chosen by extension (.swf, .swf.gz, .csv, .csv.gz).
#include <memory>
#include <stdexcept>
#include <string>

#include <fmt/core.h>

#include "cli/commands.h"
#include "cli/text_util.h"
#include "schedlab/swf/csv.h"
#include "schedlab/swf/reader.h"
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
  std::string in, out;
};

void run_convert(const ConvertOptions& opt) {
  const Format in_format = format_of(opt.in, "input");
  const Format out_format = format_of(opt.out, "output");
  const swf::Log log = in_format == Format::kSwf ? swf::read_log(opt.in) : swf::read_csv(opt.in);
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
  cmd->callback([opt] { run_convert(*opt); });
}

}  // namespace schedlab::cli
