#include "schedlab/experiments/sweep_array.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "schedlab/base/json_parse.h"
#include "schedlab/base/json_text.h"
#include "schedlab/swf/writer.h"

namespace schedlab::experiments {
namespace {

namespace fs = std::filesystem;

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string extension(bool jsonl) { return jsonl ? "jsonl" : "csv"; }

std::string shard_path(const std::string& dir, int shard, bool jsonl) {
  return fmt::format("{}/shard-{}.{}", dir, shard, extension(jsonl));
}

void write_text(const std::string& path, const std::string& text) {
  try {
    swf::write_text_file(path, text);
  } catch (const swf::WriteError& e) {
    throw SweepError(e.what());
  }
}

}  // namespace

std::string sweep_array_script(const SweepArrayOptions& o, const SweepArrayManifest& m, const std::string& dir) {
  const std::string ext = extension(m.jsonl);
  std::string s = "#!/bin/bash\n";
  s += "# Written by schedlab sweep --slurm: task i of the array runs shard i of the sweep; collect the shards with\n";
  s += fmt::format("#   schedlab sweep collect {} -o results.{}\n", shell_quote(dir), ext);
  s += "#SBATCH --job-name=schedlab-sweep\n";
  s += fmt::format("#SBATCH --array=0-{}\n", m.shards - 1);
  s += fmt::format("#SBATCH --output={}/slurm-%A_%a.out\n", dir);
  s += fmt::format("#SBATCH --cpus-per-task={}\n", o.cpus_per_task);
  if (!o.partition.empty()) s += fmt::format("#SBATCH --partition={}\n", o.partition);
  if (!o.time.empty()) s += fmt::format("#SBATCH --time={}\n", o.time);
  s += "set -euo pipefail\n";
  // The tasks start where the array was written, as the sweep that wrote it did (the spec is read by its absolute
  // path, and its logs and files from the spec's directory; a "@PATH" nested in a parameter stays relative to the
  // working directory).
  s += fmt::format("cd {}\n", shell_quote(fs::current_path().string()));
  s += fmt::format(
      "exec {} sweep {} --shard \"${{SLURM_ARRAY_TASK_ID}}/{}\" --runs-digest {} --threads {} --format {} -o "
      "{}/shard-\"${{SLURM_ARRAY_TASK_ID}}\".{}\n",
      shell_quote(o.executable), shell_quote(m.spec), m.shards, m.digest, o.cpus_per_task, ext, shell_quote(dir), ext);
  return s;
}

SweepArray write_sweep_array(const SweepArrayOptions& o, const std::vector<SweepRun>& runs) {
  if (runs.empty()) throw SweepError(fmt::format("{}: the spec has no run", o.spec_path));
  if (o.array_size < 0)
    throw SweepError(fmt::format("array size {}: must be >= 1 (or 0: one task per run, at most 100)", o.array_size));
  if (o.cpus_per_task < 1) throw SweepError(fmt::format("CPUs per task {}: must be >= 1", o.cpus_per_task));
  SweepArray a;
  a.manifest.spec = fs::absolute(o.spec_path).lexically_normal().string();
  a.manifest.runs = runs.size();
  a.manifest.shards = o.array_size > 0 ? o.array_size : static_cast<int>(std::min<size_t>(runs.size(), 100));
  a.manifest.jsonl = o.jsonl;
  a.manifest.digest = sweep_runs_digest(runs);
  std::error_code ec;
  fs::create_directories(o.dir, ec);
  if (ec) throw SweepError(fmt::format("{}: cannot create the directory: {}", o.dir, ec.message()));
  a.dir = fs::absolute(o.dir).lexically_normal().string();
  while (a.dir.size() > 1 && a.dir.back() == '/') a.dir.pop_back();
  a.script = a.dir + "/sweep.sbatch";
  write_text(a.script, sweep_array_script(o, a.manifest, a.dir));
  fs::permissions(a.script, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                  fs::perm_options::add, ec);
  const nlohmann::ordered_json manifest = {{"spec", a.manifest.spec},     {"runs", a.manifest.runs},
                                           {"shards", a.manifest.shards}, {"format", extension(o.jsonl)},
                                           {"digest", a.manifest.digest}};
  write_text(a.dir + "/sweep.json", base::json_text(manifest, 2) + "\n");
  return a;
}

std::string submit_sweep_array(const std::string& script) {
  const std::string cmd = fmt::format("sbatch --parsable {} 2>&1", shell_quote(script));
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) throw SweepError("cannot run sbatch");
  std::string out;
  char buf[256];
  while (std::fgets(buf, sizeof buf, p) != nullptr) out += buf;
  const int rc = ::pclose(p);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  if (rc != 0) throw SweepError(fmt::format("sbatch {} failed: {}", script, out));
  return out.substr(0, out.find(';'));  // "id" or "id;cluster"
}

SweepArrayManifest read_sweep_array_manifest(const std::string& dir) {
  const std::string path = dir + "/sweep.json";
  std::ifstream in(path);
  if (!in) throw SweepError(fmt::format("{}: no sweep.json (not a directory of `sweep --slurm`)", dir));
  nlohmann::json j;
  try {
    j = base::parse_json(in);
  } catch (const std::exception&) {  // malformed, or nested too deep
    throw SweepError(fmt::format("{}: not JSON (a sweep manifest is written by `sweep --slurm`)", path));
  }
  const auto field = [&](const char* key) -> const nlohmann::json& {
    if (!j.is_object() || !j.contains(key)) throw SweepError(fmt::format("{}: no \"{}\"", path, key));
    return j.at(key);
  };
  const auto bad = [&](const char* key, const char* want) {
    return SweepError(fmt::format("{}: \"{}\": {} expected, not {}", path, key, want, j.at(key).dump()));
  };
  SweepArrayManifest m;
  if (!field("spec").is_string()) throw bad("spec", "a path");
  m.spec = j["spec"].get<std::string>();
  if (!field("runs").is_number_unsigned() || j["runs"].get<size_t>() == 0) throw bad("runs", "a number >= 1");
  m.runs = j["runs"].get<size_t>();
  if (!field("shards").is_number_unsigned() || j["shards"].get<size_t>() == 0 ||
      j["shards"].get<size_t>() > 1'000'000)
    throw bad("shards", "a number >= 1");
  m.shards = j["shards"].get<int>();
  if (!field("format").is_string() || (j["format"] != "csv" && j["format"] != "jsonl"))
    throw bad("format", "\"csv\" or \"jsonl\"");
  m.jsonl = j["format"] == "jsonl";
  if (!field("digest").is_string() || j["digest"].get<std::string>().size() != 16) throw bad("digest", "16 hex digits");
  m.digest = j["digest"].get<std::string>();
  return m;
}

void check_sweep_runs_digest(const SweepSpec& spec, const std::vector<SweepRun>& runs, const std::string& digest) {
  if (sweep_runs_digest_matches(runs, digest)) return;
  const std::string have = sweep_runs_digest(runs);
  throw SweepError(fmt::format("{}: the spec's {} runs are not the runs its Slurm array was written for (digest "
                               "{}, the array's {}): the spec changed since `sweep --slurm`; restore it, or write "
                               "a new array",
                               spec.name, runs.size(), have, digest));
}

SweepCollectSummary collect_sweep_array(const std::string& dir, const std::string& output) {
  const SweepArrayManifest m = read_sweep_array_manifest(dir);
  {
    std::vector<std::string> inputs{dir + "/sweep.json", dir + "/sweep.sbatch", m.spec};
    for (int i = 0; i < m.shards; ++i) inputs.push_back(shard_path(dir, i, m.jsonl));
    try {
      swf::check_output_is_not_input(output, inputs);  // a shard written over would be lost
    } catch (const swf::WriteError& e) {
      throw SweepError(e.what());
    }
  }
  std::map<size_t, SweepOutputRow> rows;
  std::vector<int> missing;
  for (int i = 0; i < m.shards; ++i) {
    const std::string path = shard_path(dir, i, m.jsonl);
    const auto shards = static_cast<size_t>(m.shards);
    const size_t expected = m.runs / shards + (static_cast<size_t>(i) < m.runs % shards ? 1 : 0);
    // A shard of an earlier schedlab (tasks that ran before an upgrade) is read in today's columns.
    std::vector<SweepOutputRow> shard;
    if (std::ifstream in{path, std::ios::binary}) {
      std::stringstream text;
      text << in.rdbuf();
      shard = parse_sweep_output(upgraded_sweep_output(text.str(), m.jsonl, path), path, m.jsonl, m.runs);
    }
    for (const SweepOutputRow& r : shard) {
      if (r.run % shards != static_cast<size_t>(i))
        throw SweepError(fmt::format("{}:{}: run {} belongs to shard {}, not {}: another array's file?", path, r.line,
                                     r.run, r.run % shards, i));
    }
    if (shard.size() != expected) {
      missing.push_back(i);
      continue;
    }
    for (SweepOutputRow& r : shard) rows.emplace(r.run, std::move(r));
  }
  if (!missing.empty()) {
    std::string list;
    for (int i : missing) list += fmt::format("{}{}", list.empty() ? "" : ",", i);
    throw SweepError(fmt::format(
        "{} of {} shards {} missing or incomplete: {}\nre-run only them with: sbatch --array={} {}/sweep.sbatch",
        missing.size(), m.shards, missing.size() == 1 ? "is" : "are", list, list, dir));
  }
  std::vector<std::string> parameters;
  parameters.reserve(rows.size());
  for (const auto& [run, row] : rows) parameters.push_back(row.parameters);
  if (!sweep_parameters_digest_matches(parameters, m.digest))
    throw SweepError(fmt::format("{}: the shards' rows are not the runs the array was written for (digest {}, the "
                                 "manifest's {}): the spec changed between tasks? collect refuses to mix two run sets",
                                 dir, sweep_parameters_digest(parameters), m.digest));
  std::string text = m.jsonl ? "" : sweep_csv_header();
  for (const auto& [run, row] : rows) text += row.text + "\n";
  write_text(output, text);  // whole or not at all
  return {rows.size(), m.shards};
}

}  // namespace schedlab::experiments
