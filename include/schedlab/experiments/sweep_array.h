// A sweep as a Slurm job array (docs/sweeps.md): task i of a K-task array runs shard i of the sweep (the runs
// whose index % K == i) into DIR/shard-i.csv (or .jsonl); collecting merges the shards into the file a local run
// of the spec writes, row for row.
//
// write_sweep_array writes DIR/sweep.sbatch (the array script) and DIR/sweep.json (the manifest: the spec's
// path, the number of runs and shards, the format and sweep_runs_digest of the run set). Each task runs
// `schedlab sweep SPEC --shard i/K --runs-digest D`, which refuses to start when the spec no longer gives the
// same runs; a task run again resumes its shard. collect_sweep_array checks every shard is complete and holds
// only its own runs, and that the merged rows are the run set the array was written for (the digest), before it
// writes anything.
#pragma once

#include <string>
#include <vector>

#include "schedlab/experiments/sweep.h"

namespace schedlab::experiments {

struct SweepArrayOptions {
  std::string dir;         // created if missing
  std::string spec_path;   // the spec the tasks read (written as an absolute path)
  std::string executable;  // the schedlab binary the tasks run
  bool jsonl = false;      // the shards' format (csv otherwise)
  int array_size = 0;      // tasks; 0 = the number of runs, at most 100
  int cpus_per_task = 1;   // also each task's --threads
  std::string partition, time;  // #SBATCH --partition / --time when not empty
};

struct SweepArrayManifest {
  std::string spec;
  size_t runs = 0;
  int shards = 0;
  bool jsonl = false;
  std::string digest;
};

struct SweepArray {
  std::string dir, script;  // absolute paths
  SweepArrayManifest manifest;
};

// Writes the script and the manifest. SweepError for an empty run set, array_size < 0 or cpus_per_task < 1, or a
// directory that cannot be written.
SweepArray write_sweep_array(const SweepArrayOptions& options, const std::vector<SweepRun>& runs);

// The text of DIR/sweep.sbatch (what write_sweep_array writes; for tests and dry runs).
std::string sweep_array_script(const SweepArrayOptions& options, const SweepArrayManifest& manifest,
                               const std::string& dir);

// `sbatch --parsable SCRIPT`: the job id. SweepError with sbatch's message when it fails or is not installed.
std::string submit_sweep_array(const std::string& script);

// DIR/sweep.json. SweepError naming the file (and the key) when it is missing or not a manifest.
SweepArrayManifest read_sweep_array_manifest(const std::string& dir);

// Refuses (SweepError naming the spec) a run set whose digest is not `digest`: the spec changed after the array
// was written.
void check_sweep_runs_digest(const SweepSpec& spec, const std::vector<SweepRun>& runs, const std::string& digest);

struct SweepCollectSummary {
  size_t runs = 0;
  int shards = 0;
};

// Merges DIR's shards into `output` (header first for CSV; rows in run order; written to a temporary file and
// renamed, so `output` is never half-written). SweepError when a shard is missing or incomplete (the message lists
// them and the sbatch command that re-runs only them), when a shard holds another shard's run, or when the rows
// are not the run set of the manifest.
SweepCollectSummary collect_sweep_array(const std::string& dir, const std::string& output);

}  // namespace schedlab::experiments
