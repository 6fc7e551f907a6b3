# Python 2 (pyss is Python 2): schedules an SWF log with pyss (https://github.com/dinesh121991/pyss, the simulator
# of Tsafrir et al.'s EASY++ papers) and prints one line per job: id, submit, start, runtime, estimate, size, as
# pyss uses them (its job model: runtime cut at the estimate, estimate >= runtime, size <= the machine).
#
# usage: python2 pyss_starts.py PYSS_SRC LOG PROCS {easy,easy-sjbf,conservative} {per-event,per-instant}
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

log, procs, name, mode = sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
assert mode in ("per-event", "per-instant"), mode
Base = {"easy": EasyBackfillScheduler, "easy-sjbf": EasySJBFScheduler, "conservative": ConservativeScheduler}[name]


class PerInstantEasy(Base):
    """EASY / EASY-SJBF: the handlers only record the event; run() calls _schedule_jobs once per instant."""

    def new_events_on_job_submission(self, job, now):
        self.cpu_snapshot.archive_old_slices(now)
        self.unscheduled_jobs.append(job)
        return []

    def new_events_on_job_termination(self, job, now):
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
if mode == "per-event":
    scheduler = Base(procs)
else:
    scheduler = (PerInstantConservative if name == "conservative" else PerInstantEasy)(procs)
queue = Simulator(jobs, procs, scheduler).event_queue
while not queue.is_empty:
    queue.advance()
    now = queue._latest_handled_timestamp
    if mode == "per-instant" and (queue.is_empty or queue._events_heap.contents[0][0] > now):
        for event in scheduler.at_instant_end(now):
            queue.add_event(event)
for j in jobs:
    print j.id, j.submit_time, j.start_to_run_at_time, j.actual_run_time, j.user_estimated_run_time, \
        j.num_required_processors
