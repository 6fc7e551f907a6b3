// schedlab sweep SPEC.toml -o OUT: many simulations from one spec (experiments/sweep.h), on local threads, as one
// shard of a Slurm job array (--shard i/K), or written as a Slurm array script (--slurm DIR [--submit]);
// schedlab sweep collect DIR -o OUT merges the shards of such an array.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/text_util.h"
#include "schedlab/experiments/sweep.h"

namespace schedlab::cli {
namespace {

std::atomic<bool> g_stop{false};
extern "C" void on_signal(int) { g_stop = true; }

struct SweepCliOptions {
  std::string spec, output, format = "csv", shard, slurm_dir, partition, time;
  int threads = 0, array_size = 0, cpus_per_task = 1;
  bool submit = false;
};

// An output file written one whole row per write(2): a killed sweep leaves whole rows.
class RowFile {
 public:
  RowFile(const std::string& path, bool append) : path_(path) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0644);
    if (fd_ < 0) throw std::invalid_argument(fmt::format("{}: cannot write the sweep output", path));
  }
  ~RowFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  RowFile(const RowFile&) = delete;
  RowFile& operator=(const RowFile&) = delete;
  void write(const std::string& line) {
    size_t off = 0;
    while (off < line.size()) {
      const ssize_t n = ::write(fd_, line.data() + off, line.size() - off);
      if (n < 0) throw std::runtime_error(fmt::format("{}: write failed", path_));
      off += static_cast<size_t>(n);
    }
  }

 private:
  std::string path_;
  int fd_ = -1;
};

std::pair<int, int> parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  try {
    if (slash != std::string::npos) {
      const int i = std::stoi(text.substr(0, slash)), k = std::stoi(text.substr(slash + 1));
      if (k >= 1 && i >= 0 && i < k) return {i, k};
    }
  } catch (const std::exception&) {
  }
  throw std::invalid_argument(fmt::format("--shard {}: expected i/K with 0 <= i < K (e.g. 3/10)", text));
}

std::string duration_text(double s) {
  if (!(s >= 0) || s > 1e7) return "?";
  const auto t = static_cast<int64_t>(s + 0.5);
  return t >= 3600 ? fmt::format("{}h{:02}m", t / 3600, t / 60 % 60)
         : t >= 60 ? fmt::format("{}m{:02}s", t / 60, t % 60)
                   : fmt::format("{}s", t);
}

// Progress on standard error: a bar redrawn in place on a terminal, a line every 10 s (and at the end) otherwise.
class Progress {
 public:
  Progress() : tty_(::isatty(2) != 0), start_(std::chrono::steady_clock::now()), last_(start_) {}
  void update(size_t done, size_t total) {
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const bool end = done == total;
    if (!end && std::chrono::duration<double>(now - last_).count() < (tty_ ? 0.2 : 10.0)) return;
    last_ = now;
    const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0;
    const double eta = rate > 0 ? static_cast<double>(total - done) / rate : -1;
    if (tty_) {
      const int width = 30, filled = total ? static_cast<int>(width * done / total) : width;
      fmt::print(stderr, "\r[{}{}] {}/{} runs, {:.1f}/s, ETA {}   ", std::string(static_cast<size_t>(filled), '#'),
                 std::string(static_cast<size_t>(width - filled), '.'), done, total, rate, duration_text(eta));
      if (end) fmt::print(stderr, "\n");
    } else {
      fmt::print(stderr, "sweep: {}/{} runs, {:.1f} runs/s, ETA {}\n", done, total, rate, duration_text(eta));
    }
  }

 private:
  bool tty_;
  std::chrono::steady_clock::time_point start_, last_;
};

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string self_path() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("schedlab") : exe.string();
}

void write_slurm(const SweepCliOptions& opt, size_t runs) {
  const int k = opt.array_size > 0 ? opt.array_size : static_cast<int>(std::min<size_t>(runs, 100));
  if (k < 1) throw std::invalid_argument("--array-size must be >= 1");
  if (opt.cpus_per_task < 1) throw std::invalid_argument("--cpus-per-task must be >= 1");
  namespace fs = std::filesystem;
  fs::create_directories(opt.slurm_dir);
  const std::string dir = fs::absolute(opt.slurm_dir).lexically_normal().string();
  const std::string spec = fs::absolute(opt.spec).lexically_normal().string();
  std::string s = "#!/bin/bash\n";
  s += "# Written by schedlab sweep --slurm: task i of the array runs shard i of the sweep; collect the shards with\n";
  s += fmt::format("#   schedlab sweep collect {} -o results.{}\n", shell_quote(dir), opt.format);
  s += "#SBATCH --job-name=schedlab-sweep\n";
  s += fmt::format("#SBATCH --array=0-{}\n", k - 1);
  s += fmt::format("#SBATCH --output={}/slurm-%A_%a.out\n", dir);
  s += fmt::format("#SBATCH --cpus-per-task={}\n", opt.cpus_per_task);
  if (!opt.partition.empty()) s += fmt::format("#SBATCH --partition={}\n", opt.partition);
  if (!opt.time.empty()) s += fmt::format("#SBATCH --time={}\n", opt.time);
  s += "set -euo pipefail\n";
  s += fmt::format("exec {} sweep {} --shard \"${{SLURM_ARRAY_TASK_ID}}/{}\" --threads {} --format {} -o {}/shard-\"${{SLURM_ARRAY_TASK_ID}}\".{}\n",
                   shell_quote(self_path()), shell_quote(spec), k, opt.cpus_per_task, opt.format, shell_quote(dir),
                   opt.format);
  {
    std::ofstream out(dir + "/sweep.sbatch");
    out << s;
    if (!out) throw std::invalid_argument(fmt::format("{}/sweep.sbatch: cannot write", dir));
  }
  fs::permissions(dir + "/sweep.sbatch", fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                  fs::perm_options::add);
  nlohmann::ordered_json manifest = {{"spec", spec}, {"runs", runs}, {"shards", k}, {"format", opt.format}};
  std::ofstream(dir + "/sweep.json") << manifest.dump(2) << "\n";
  fmt::print("{}/sweep.sbatch: {} runs in a {}-task array (shard-i.{} per task)\n", dir, runs, k, opt.format);
  if (!opt.submit) {
    fmt::print("submit with: sbatch {}/sweep.sbatch\n", dir);
    return;
  }
  const std::string cmd = fmt::format("sbatch --parsable {} 2>&1", shell_quote(dir + "/sweep.sbatch"));
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) throw std::runtime_error("cannot run sbatch");
  std::string out;
  char buf[256];
  while (std::fgets(buf, sizeof buf, p) != nullptr) out += buf;
  const int rc = ::pclose(p);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  if (rc != 0) throw std::runtime_error(fmt::format("sbatch failed: {}", out));
  fmt::print("submitted: job {}\n", out.substr(0, out.find(';')));
}

void run_sweep_command(const SweepCliOptions& opt) {
  if (opt.format != "csv" && opt.format != "jsonl")
    throw std::invalid_argument(fmt::format("--format {}: csv or jsonl", opt.format));
  if (opt.threads < 0) throw std::invalid_argument("--threads must be >= 0");
  const experiments::SweepSpec spec = experiments::read_sweep_spec(opt.spec);
  const std::vector<experiments::SweepRun> runs = experiments::expand_sweep(spec);
  if (!opt.slurm_dir.empty()) {
    write_slurm(opt, runs.size());
    return;
  }
  if (opt.output.empty()) throw std::invalid_argument("give -o FILE for the results (or --slurm DIR)");
  experiments::SweepOptions so;
  so.threads = opt.threads;
  if (!opt.shard.empty()) std::tie(so.shard, so.shards) = parse_shard(opt.shard);
  const bool jsonl = opt.format == "jsonl";
  so.skip = experiments::sweep_done_runs(opt.output, jsonl, runs.size());
  const bool fresh = !std::filesystem::exists(opt.output) || std::filesystem::file_size(opt.output) == 0;
  RowFile out(opt.output, !fresh);
  if (fresh && !jsonl) out.write(experiments::sweep_csv_header());
  so.on_row = [&](const experiments::SweepRow& row) {
    out.write(jsonl ? experiments::sweep_jsonl_line(row) : experiments::sweep_csv_line(row));
  };
  Progress progress;
  so.progress = [&](size_t done, size_t total) { progress.update(done, total); };
  g_stop = false;
  so.stop = &g_stop;
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  const experiments::SweepSummary sum = experiments::run_sweep(spec, runs, so);
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  if (sum.stopped) {
    fmt::print(stderr, "sweep: stopped after {} runs; {} holds whole rows: run the same command to resume\n",
               sum.run + sum.skipped, opt.output);
    std::fflush(stderr);
    std::_Exit(130);
  }
  const size_t mine = sum.run + sum.skipped;
  fmt::print("{}: {} runs{}: {} run now, {} already there; {} failed; wall time {:.1f} s\n", opt.output, mine,
             so.shards > 1 ? fmt::format(" of shard {}/{} ({} in all)", so.shard, so.shards, sum.total) : "", sum.run,
             sum.skipped, sum.failed, sum.seconds);
}

struct CollectCliOptions {
  std::string dir, output;
};

void run_collect(const CollectCliOptions& opt) {
  const std::string manifest_path = opt.dir + "/sweep.json";
  std::ifstream in(manifest_path);
  if (!in) throw std::invalid_argument(fmt::format("{}: no sweep.json (not a directory of `sweep --slurm`)", opt.dir));
  nlohmann::json m;
  try {
    in >> m;
  } catch (const std::exception& e) {
    throw std::invalid_argument(fmt::format("{}: {}", manifest_path, e.what()));
  }
  const auto runs = m.at("runs").get<size_t>();
  const auto shards = m.at("shards").get<int>();
  const std::string format = m.at("format").get<std::string>();
  const bool jsonl = format == "jsonl";
  std::map<size_t, std::string> rows;
  std::vector<int> missing;
  for (int i = 0; i < shards; ++i) {
    const std::string path = fmt::format("{}/shard-{}.{}", opt.dir, i, format);
    size_t expected = 0;
    for (size_t r = static_cast<size_t>(i); r < runs; r += static_cast<size_t>(shards)) ++expected;
    std::set<size_t> done;
    if (std::filesystem::exists(path)) done = experiments::sweep_done_runs(path, jsonl, runs);
    if (done.size() != expected) {
      missing.push_back(i);
      continue;
    }
    std::ifstream f(path);
    std::string line;
    bool header = !jsonl;
    while (std::getline(f, line)) {
      if (header) {
        header = false;
        continue;
      }
      size_t run = 0;
      if (jsonl) {
        run = nlohmann::json::parse(line)["run"].get<size_t>();
      } else {
        run = std::stoul(line.substr(0, line.find(',')));
      }
      rows[run] = line;
    }
  }
  if (!missing.empty()) {
    std::string list;
    for (int i : missing) list += fmt::format("{}{}", list.empty() ? "" : ",", i);
    throw std::invalid_argument(fmt::format(
        "{} of {} shards are missing or incomplete: {}\nre-run only them with: sbatch --array={} {}/sweep.sbatch",
        missing.size(), shards, list, list, opt.dir));
  }
  std::ofstream out(opt.output);
  if (!jsonl) out << experiments::sweep_csv_header();
  for (const auto& [run, line] : rows) out << line << "\n";
  if (!out) throw std::invalid_argument(fmt::format("{}: write failed", opt.output));
  fmt::print("{}: {} runs from {} shards\n", opt.output, rows.size(), shards);
}

}  // namespace

void add_sweep_command(CLI::App& app) {
  auto opt = std::make_shared<SweepCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "sweep", "Many simulations from one TOML spec (logs x schedulers x predictors x loads x estimate models x "
               "seeds ...): every log read once, runs on threads, one row per run in a fixed order, resumable; or "
               "a Slurm job array (--slurm DIR) whose shards `sweep collect` merges. Format: docs/sweeps.md");
  cmd->add_option("SPEC", opt->spec, "the sweep spec (TOML)");
  cmd->add_option("-o,--output", opt->output, "results file (re-running with it skips the runs already there)");
  cmd->add_option("--format", opt->format, "csv or jsonl")->capture_default_str();
  cmd->add_option("--threads", opt->threads, "runs in parallel (0 = all cores; the rows do not depend on it)")
      ->capture_default_str();
  cmd->add_option("--shard", opt->shard, "run only shard i of K (runs whose index % K == i), as a Slurm array task");
  cmd->add_option("--slurm", opt->slurm_dir, "write DIR/sweep.sbatch, a Slurm job array running the shards");
  cmd->add_option("--array-size", opt->array_size, "tasks in the array (default: the runs, at most 100)");
  cmd->add_option("--partition", opt->partition, "Slurm partition of the array");
  cmd->add_option("--time", opt->time, "Slurm time limit of each task (e.g. 1:00:00)");
  cmd->add_option("--cpus-per-task", opt->cpus_per_task, "CPUs (and threads) of each task")->capture_default_str();
  cmd->add_flag("--submit", opt->submit, "with --slurm: submit the array with sbatch and print its job id");
  cmd->callback([opt, cmd] {
    if (cmd->got_subcommand("collect")) return;
    if (opt->spec.empty()) throw std::invalid_argument("give the sweep spec: schedlab sweep SPEC.toml -o FILE");
    run_sweep_command(*opt);
  });

  auto co = std::make_shared<CollectCliOptions>();
  CLI::App* col = cmd->add_subcommand("collect", "Merge the shards of a `sweep --slurm DIR` array into one file (the "
                                                 "same rows as a local run); lists missing or incomplete shards");
  col->add_option("DIR", co->dir, "the --slurm directory")->required();
  col->add_option("-o,--output", co->output, "merged results")->required();
  col->callback([co] { run_collect(*co); });
}

}  // namespace schedlab::cli
