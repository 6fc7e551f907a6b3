#!/usr/bin/env bash
# The Slurm features against a real Slurm on localhost (scripts/local-slurm.sh), not a mock:
# 1. a 20-run sweep submitted as a 4-task job array (`sweep --slurm DIR --submit`), collected, equals the local
#    run row for row (but wall_seconds);
# 2. sacct's record of jobs that complete, fail, exceed their time limit, are cancelled while pending and while
#    running, are requeued, depend on another, an array and a 2-CPU job converts to SWF (`convert --from sacct`) with the right statuses, sizes and
#    limits, and the log goes through `stats` and `simulate`;
# 3. sacct's output without -X (job steps as extra rows) converts to the same jobs;
# 4. a JobID that Slurm gives again (its state lost) is a new job.
# usage: tests/slurm_local_test.sh SCHEDLAB_BINARY   (exit 77 = skipped: not root, or Slurm not installed)
set -euo pipefail
cli=$(readlink -f "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" = 0 ] || { echo "SKIPPED: needs root (SlurmUser=root)"; exit 77; }
for b in slurmctld slurmd slurmdbd munged mariadbd sbatch sacct; do
  command -v "$b" >/dev/null || { echo "SKIPPED: $b is not installed (scripts/bootstrap.sh installs it)"; exit 77; }
done
export SCHEDLAB_SLURM_DIR=/tmp/schedlab-slurm-test
tmp=$(mktemp -d)
trap '"$root/scripts/local-slurm.sh" down; rm -rf "$tmp"' EXIT
eval "$("$root/scripts/local-slurm.sh" up)"
cd "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }
state() { squeue -h -j "$1" -o %t 2>/dev/null || true; }

# Jobs for sacct, the slow one first (a 1-minute limit: Slurm ends it after 60-90 s).
timeout_job=$(sbatch --parsable -J timeout --time=1 --wrap "sleep 600")
running_job=$(sbatch --parsable -J cancel-running --wrap "sleep 600")
for _ in $(seq 300); do [ "$(state "$running_job")" = R ] && break; sleep 0.1; done
[ "$(state "$running_job")" = R ] || fail "job $running_job did not start"
# Both CPUs are busy: a 2-CPU job waits for resources; cancelled there, it never starts.
pending_job=$(sbatch --parsable -J cancel-pending -c 2 --wrap true)
sleep 1
[ "$(state "$pending_job")" = PD ] || fail "job $pending_job should be pending"
scancel "$pending_job"
scancel "$running_job"
# A job requeued after it started runs twice: sacct -D gives a row per run (docs/slurm.md). Slurm holds a requeued
# job back for two minutes (forced to run again at once, its relaunch sometimes failed at once: a flaky test), so
# it is requeued early, to run again while the time-limit job runs its minute and more.
requeued_job=$(sbatch --parsable -J requeued --wrap "sleep 3")
for _ in $(seq 300); do [ "$(state "$requeued_job")" = R ] && break; sleep 0.1; done
[ "$(state "$requeued_job")" = R ] || fail "job $requeued_job did not start"
sleep 1
scontrol requeue "$requeued_job"
for _ in $(seq 300); do [ "$(state "$requeued_job")" = PD ] && break; sleep 0.1; done
[ "$(state "$requeued_job")" = PD ] || fail "job $requeued_job was not requeued"
ok_job=$(sbatch --parsable -J ok --wrap "sleep 1")
# A job that depends on another reaches the scheduler when that one has ended: its Eligible time.
sbatch --parsable -J after --dependency=afterok:"$ok_job" --wrap true >/dev/null
sbatch --parsable -J fails --wrap "exit 3" >/dev/null
sbatch --parsable -J array --array=0-2 --wrap "sleep 1" >/dev/null
sbatch --parsable -J two-cpus -c 2 --wrap "sleep 1" >/dev/null

# 1. The sweep as a job array; the spec named and its log given relative to the working directory, as a user
# would (the tasks read the spec by its absolute path: the rows must not depend on the spelling).
ln -sf "$root/data/KTH-SP2-1996-2.swf.gz" kth.swf.gz
cat >sweep.toml <<EOF
logs = "kth.swf.gz"
schedulers = ["fcfs", "easy", "conservative", "easy-sjbf"]
loads = [0.6, 0.7, 0.8, 0.9, 0.95]
EOF
"$cli" sweep sweep.toml -o local.csv 2>/dev/null
out=$("$cli" sweep sweep.toml --slurm array --array-size 4 --submit)
echo "$out"
sweep_job=$(echo "$out" | sed -n 's/^submitted: job //p')
[ -n "$sweep_job" ] || fail "no job id from sweep --submit"

# Everything ends (the time-limit job last).
for _ in $(seq 240); do [ -z "$(squeue -h)" ] && break; sleep 1; done
[ -z "$(squeue -h)" ] || { squeue; fail "jobs still queued after 240 s"; }

"$cli" sweep collect array -o merged.csv
cut -d, -f1-$(($(head -1 local.csv | tr ',' '\n' | wc -l) - 1)) local.csv >a
cut -d, -f1-$(($(head -1 merged.csv | tr ',' '\n' | wc -l) - 1)) merged.csv >b
cmp -s a b || { diff a b | head; fail "the collected array's rows differ from the local run's"; }
[ "$(wc -l <merged.csv)" = 21 ] || fail "expected 20 rows"
echo "sweep: the 4-task array's 20 rows equal the local run's"

# 2. sacct -> SWF. slurmdbd records asynchronously: wait until every job has its final state.
format=JobID,JobName,User,Group,Partition,Submit,Eligible,Start,End,Elapsed,Timelimit,State,AllocCPUS,ReqCPUS,NodeList
for _ in $(seq 60); do
  sacct -P -a -X -S now-1hours --format=$format >sacct.txt
  rows=$(($(wc -l <sacct.txt) - 1))
  open=$(grep -c -E '\|(PENDING|RUNNING|REQUEUED)\|' sacct.txt || true)
  [ "$rows" -ge 15 ] && [ "$open" = 0 ] && break
  sleep 1
done
cat sacct.txt
"$cli" convert --from sacct sacct.txt slurm.swf
"$cli" convert --from sacct sacct.txt slurm-all.swf --keep-unstarted
count() { grep -v '^;' "$1" | awk -v f="$2" -v v="$3" '$f == v' | wc -l; }
[ "$(grep -vc '^;' slurm.swf)" = 14 ] || fail "expected 14 jobs (15 rows, the pending-cancelled one left out)"
[ "$(grep -vc '^;' slurm-all.swf)" = 15 ] || fail "--keep-unstarted should keep 15 jobs"
[ "$(count slurm.swf 11 1)" = 11 ] ||
  fail "status 1: ok, after, requeued, 3 array tasks, two-cpus, 4 sweep tasks: expected 11"
[ "$(count slurm.swf 11 0)" = 2 ] || fail "status 0: the failed and the timed-out job"
[ "$(count slurm.swf 11 5)" = 1 ] || fail "status 5: the job cancelled while running"
[ "$(count slurm-all.swf 11 5)" = 2 ] || fail "--keep-unstarted: two cancelled jobs"
[ "$(grep -v '^;' slurm-all.swf | awk '$11 == 5 && $3 == -1' | wc -l)" = 1 ] || fail "the unstarted job has wait -1"
[ "$(count slurm.swf 5 2)" = 1 ] || fail "the 2-CPU job has 2 allocated processors"
[ "$(count slurm.swf 9 60)" = 1 ] || fail "the time-limit job requests 60 s"
grep -q '^; Note: job names (field 14): ' slurm.swf || fail "no job-name mapping in the header"
"$cli" stats slurm.swf >/dev/null
"$cli" simulate slurm.swf -s easy --check >/dev/null
# The dependent job is submitted at its Eligible time: when the job it waited for ended, not before.
name_number() { sed -n 's/^; Note: job names (field 14): //p' slurm.swf | tr ',' '\n' | sed -n "s/^ *\([0-9]*\)=$1\$/\1/p"; }
ok_end=$(grep -v '^;' slurm.swf | awk -v e="$(name_number ok)" '$14 == e {print $2 + $3 + $4}')
after_submit=$(grep -v '^;' slurm.swf | awk -v e="$(name_number after)" '$14 == e {print $2}')
[ -n "$ok_end" ] && [ -n "$after_submit" ] && [ "$after_submit" -ge "$ok_end" ] ||
  fail "the dependent job is submitted at $after_submit, before the job it waited for ended ($ok_end)"
grep -q '^; Note: sacct rows .*jobs submitted at their Eligible time, after their Submit' slurm.swf ||
  fail "no count of the jobs submitted at their Eligible time"
echo "sacct: 15 rows -> 14 jobs (1 never started), statuses, sizes and limits as submitted; the dependent job" \
  "submitted when its dependency ended ($after_submit >= $ok_end); stats and simulate run"

# 2b. With -D (--duplicates) the requeued job's two runs are two rows, one job: a summary line whose runtime is the
# two runs' sum, then a partial-execution line per run (status 2, then 3: it completed); the other jobs as before.
sacct -P -a -X -D -S now-1hours --format=$format >sacct-d.txt
cat sacct-d.txt
[ "$(grep -c '|REQUEUED|' sacct-d.txt)" = 1 ] || fail "sacct -D should show the requeued job's first run"
"$cli" convert --from sacct sacct-d.txt slurm-d.swf 2>convert-d.err
cat convert-d.err
grep -q 'requeued jobs (sacct -D; each one job, its runs as partial-execution lines): 1' convert-d.err ||
  fail "the requeued job is not said"
[ "$(grep -vc '^;' slurm-d.swf)" = 16 ] || fail "expected 14 jobs and 2 partial-execution lines"
job=$(grep -v '^;' slurm-d.swf | awk '$11 == 2 {print $1}')
[ -n "$job" ] || fail "no partial-execution line of status 2"
grep -v '^;' slurm-d.swf | awk -v j="$job" '$1 == j' >requeued.txt
cat requeued.txt
[ "$(awk '{printf "%s", $11}' requeued.txt)" = 123 ] ||
  fail "the requeued job: a summary line of status 1, then runs of status 2 and 3"
awk 'NR == 1 {total = $4} NR > 1 {sum += $4} END {exit !(total == sum && sum >= 3)}' requeued.txt ||
  fail "the summary line's runtime is not the sum of the runs'"
"$cli" stats slurm-d.swf --json 2>/dev/null | python3 -c 'import json,sys; j = json.load(sys.stdin); \
  assert j["records"] == 14 and j["read"]["partial_executions"]["count"] == 2, j["read"]' ||
  fail "stats: 14 jobs, 2 lines left out"
"$cli" simulate slurm-d.swf -s easy --check >/dev/null
echo "sacct -D: the requeued job's 2 runs -> 1 job with 2 partial-execution lines; stats counts 14 jobs"

# 3. The same history without -X: sacct adds the job steps (batch, extern, ...); they are left out, counted.
sacct -P -a -S now-1hours --format=$format >sacct-steps.txt
cat sacct-steps.txt
"$cli" convert --from sacct sacct-steps.txt slurm-steps.swf 2>convert.err
cat convert.err
grep -q 'job steps (left out): [1-9]' convert.err || fail "no job steps counted in sacct without -X"
cmp -s <(grep -v '^;' slurm.swf) <(grep -v '^;' slurm-steps.swf) || {
  diff <(grep -v '^;' slurm.swf) <(grep -v '^;' slurm-steps.swf) | head; fail "without -X the jobs differ"; }
echo "sacct without -X: the steps left out, the same 14 jobs"

# 4. A JobID given again: slurmctld restarted without its state gives ids from the first again, and the accounting
# keeps the earlier jobs. sacct -D lists both under the id; converted, the new job is a job of its own (before: the
# rows were refused as several clusters', the names differing, or folded into one job with a long wait).
"$root/scripts/local-slurm.sh" reset-ids
again=$(sbatch --parsable -J given-again --wrap true)
grep -q "^$again|" sacct-d.txt || fail "job id $again was not an earlier job's"
for _ in $(seq 60); do
  sacct -P -a -X -D -S now-1hours --format=$format >sacct-again.txt
  grep -q "^$again|given-again|.*|COMPLETED|" sacct-again.txt && break
  sleep 1
done
cat sacct-again.txt
grep -q "^$again|given-again|.*|COMPLETED|" sacct-again.txt || fail "job $again (given again) did not complete"
"$cli" convert --from sacct sacct-again.txt slurm-again.swf 2>convert-again.err
cat convert-again.err
grep -q 'jobs on a JobID an earlier job had (Slurm gave it again; each its own job): 1' convert-again.err ||
  fail "the JobID given again is not said"
# The earlier jobs as before, then the new one.
cmp -s <(grep -v '^;' slurm-d.swf) <(grep -v '^;' slurm-again.swf | head -n 16) ||
  fail "the earlier jobs changed when a JobID was given again"
[ "$(grep -vc '^;' slurm-again.swf)" = 17 ] || fail "expected the 16 lines of before and the new job's"
echo "sacct -D with JobID $again given again: the earlier jobs unchanged, the new one a job of its own"
echo "PASSED"
