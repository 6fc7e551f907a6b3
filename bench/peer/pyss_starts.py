# Python 2 (pyss is Python 2): schedules an SWF log with pyss (https://github.com/dinesh121991/pyss, the simulator
# of Tsafrir et al.'s EASY++ papers) and prints one line per job: id, submit, start, runtime, estimate, size,
# user, as pyss uses them (its job model: runtime cut at the estimate, estimate >= runtime, size <= the machine).
#
# usage: python2 pyss_starts.py PYSS_SRC LOG PROCS {fcfs,easy,easy-sjbf,conservative,maui-xfactor,easy+,easy++}
#        {per-event,per-instant} [{estimate,perfect}]
#
# easy++: pyss's EasyPlusPlusScheduler with its own predictor: the mean of the user's last two jobs to end (rounded
# down, at most the estimate), recomputed for the waiting jobs at every call, the estimate before two have ended,
# and the estimate once a job outlives its prediction; easy+ the same in arrival order (EASY+ of Tsafrir et al.
# 2007, Table 2), which pyss does not have. (PREDICTOR: estimate, which stands for pyss's own.)
#
# maui-xfactor: pyss's Maui with its slowdown weight alone, (wait + prediction) / prediction, highest first, as
# schedlab's maui:priority=xfactor; compared exactly (pyss divides the integers, which Python 2 floors, so most
# jobs would tie) and ties in arrival order (schedlab's; pyss's sort would keep the previous sort's order).
#
# per-event: pyss as it is, the scheduler called after every event. per-instant: every event of one instant is
# handled first (ends give back their processors, arrivals join the queue), then the scheduler runs once, which is
# schedlab's rule (../shared/spec/README.md); conservative then compresses (one pass over the waiting jobs in
# submit order) only when a job ended before its estimate, as schedlab does, and places the arrivals after it.
import sys

sys.path.insert(0, sys.argv[1])
from base.workload_parser import parse_lines
from base.prototype import _job_inputs_to_jobs, JobStartEvent
from schedulers.simulator import Simulator
from schedulers.easy_scheduler import EasyBackfillScheduler
from schedulers.easy_sjbf_scheduler import EasySJBFScheduler
from schedulers.conservative_scheduler import ConservativeScheduler
from schedulers.fcfs_scheduler import FcfsScheduler
from schedulers.maui_scheduler import MauiScheduler
from schedulers.easy_plus_plus_scheduler import EasyPlusPlusScheduler
from schedulers.common import list_copy
from fractions import Fraction

log, procs, name, mode = sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
predictor = sys.argv[6] if len(sys.argv) > 6 else "estimate"
# (Checked by hand: the script runs under python -O, which drops asserts, pyss's own costly ones included.)
if mode not in ("per-event", "per-instant") or predictor not in ("estimate", "perfect"):
    sys.exit("pyss_starts.py: bad mode %r or predictor %r" % (mode, predictor))
if name.startswith("easy+") and predictor != "estimate":
    sys.exit("pyss_starts.py: %s has its own predictor (give estimate)" % name)


class MauiXfactor(MauiScheduler):
    def waiting_list_weight(self, job, now):  # sorted highest first
        p = job.predicted_run_time
        return (Fraction(now - job.submit_time + p, p), -job.maui_counter)

    backfilling_weight = waiting_list_weight


class EasyPlus(EasyPlusPlusScheduler):
    def _backfill_jobs(self, now):  # pyss's, but the tail in arrival order rather than shortest first
        if len(self.unscheduled_jobs) <= 1:
            return []
        result = []
        first_job = self.unscheduled_jobs[0]
        self.cpu_snapshot.assignJobEarliest(first_job, now)
        for job in list_copy(self.unscheduled_jobs[1:]):
            if self.cpu_snapshot.canJobStartNow(job, now):
                self.unscheduled_jobs.remove(job)
                self.cpu_snapshot.assignJob(job, now)
                result.append(job)
        self.cpu_snapshot.delJobFromCpuSlices(first_job)
        return result


Base = {"fcfs": FcfsScheduler, "easy": EasyBackfillScheduler, "easy-sjbf": EasySJBFScheduler,
        "conservative": ConservativeScheduler, "maui-xfactor": MauiXfactor, "easy+": EasyPlus,
        "easy++": EasyPlusPlusScheduler}[name]


class PerInstant(Base):
    """FCFS / EASY / EASY-SJBF / Maui / EASY+ / EASY++: the handlers only record the event (and, for EASY++, the
    user's history, as pyss's do); at_instant_end calls _schedule_jobs once per instant."""

    def new_events_on_job_submission(self, job, now):
        self.cpu_snapshot.archive_old_slices(now)
        if isinstance(self, MauiScheduler):  # its arrival rank, which breaks ties
            job.maui_counter = self.maui_counter
            self.maui_counter += 1
        if isinstance(self, EasyPlusPlusScheduler) and job.user_id not in self.user_run_time_last:
            self.user_run_time_prev[job.user_id] = None
            self.user_run_time_last[job.user_id] = None
        (self.waiting_queue_of_jobs if isinstance(self, FcfsScheduler) else self.unscheduled_jobs).append(job)
        return []

    def new_events_on_job_termination(self, job, now):
        if isinstance(self, EasyPlusPlusScheduler):
            self.user_run_time_prev[job.user_id] = self.user_run_time_last[job.user_id]
            self.user_run_time_last[job.user_id] = job.actual_run_time
        self.cpu_snapshot.archive_old_slices(now)
        self.cpu_snapshot.delTailofJobFromCpuSlices(job)
        return []

    def at_instant_end(self, now):
        return [JobStartEvent(now, job) for job in self._schedule_jobs(now)]


class PerInstantConservative(ConservativeScheduler):
    def __init__(self, procs):
        ConservativeScheduler.__init__(self, procs)
        self.arrivals = []
        self.gave_back = False

    def new_events_on_job_submission(self, job, now):
        self.cpu_snapshot.archive_old_slices(now)
        self.arrivals.append(job)
        return []

    def new_events_on_job_termination(self, job, now):
        self.cpu_snapshot.archive_old_slices(now)
        self.unfinished_jobs_by_submit_time.remove(job)
        self.cpu_snapshot.delTailofJobFromCpuSlices(job)
        self.gave_back = self.gave_back or job.actual_run_time < job.user_estimated_run_time
        return []

    def at_instant_end(self, now):
        events = self._reschedule_jobs(now) if self.gave_back else []
        self.gave_back = False
        for job in self.arrivals:
            self.unfinished_jobs_by_submit_time.append(job)
            self.cpu_snapshot.assignJobEarliest(job, now)
            events.append(JobStartEvent(job.start_to_run_at_time, job))
        self.arrivals = []
        return events


jobs = list(_job_inputs_to_jobs(parse_lines(open(log)), procs))
if predictor == "perfect":  # schedlab's predictor perfect (pyss's PerfectEasyBackfillScheduler sets it on arrival)
    for j in jobs:
        j.predicted_run_time = j.actual_run_time
if mode == "per-event":
    scheduler = Base(procs)
else:
    scheduler = (PerInstantConservative if name == "conservative" else PerInstant)(procs)
queue = Simulator(jobs, procs, scheduler).event_queue
while not queue.is_empty:
    queue.advance()
    now = queue._latest_handled_timestamp
    if mode == "per-instant" and (queue.is_empty or queue._events_heap.contents[0][0] > now):
        for event in scheduler.at_instant_end(now):
            queue.add_event(event)
for j in jobs:
    print j.id, j.submit_time, j.start_to_run_at_time, j.actual_run_time, j.user_estimated_run_time, \
        j.num_required_processors, j.user_id
