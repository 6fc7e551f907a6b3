"""Runtime predictors written in Python (schedlab.Predictor): run as the built-in ones with the same rule, their
updates applied as hand-computed, their mistakes named (pytest; PythonTests in CTest)."""
import os
import re
import threading

import pandas as pd
import pytest

import schedlab
from test_schedlab import PyEasy, PyFcfs  # pytest puts this directory on sys.path

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KTH = os.path.join(ROOT, "data", "KTH-SP2-1996-2.swf.gz")


class Last2(schedlab.Predictor):
    """The mean of the user's two most recently finished jobs (by termination), the estimate until one finished,
    never above it: the rule of the built-in user-last2:order=end."""

    def __init__(self):
        self.last = {}

    def on_termination(self, now, job, start):
        history = self.last.setdefault(job.user, [])
        history.append(now - start)
        del history[:-2]

    def on_arrival(self, now, job):
        history = self.last.get(job.user)
        if not history:
            return job.estimate
        return min(job.estimate, sum(history) // len(history))


def test_a_python_predictor_gives_the_builtin_schedule_on_kth():
    mine = schedlab.simulate(KTH, "easy", predictor=Last2(), correction="tsafrir")
    builtin = schedlab.simulate(KTH, "easy", predictor="user-last2:order=end", correction="tsafrir")
    estimate = schedlab.simulate(KTH, "easy")
    assert (mine.jobs.start == builtin.jobs.start).all()
    assert (mine.jobs.prediction == builtin.jobs.prediction).all()
    assert (mine.jobs.start != estimate.jobs.start).sum() > 1000  # the predictions were used
    assert mine.metrics["metrics"] == builtin.metrics["metrics"]
    assert mine.metrics["predictor"] == "Last2:correction=tsafrir"


def test_a_python_predictor_in_compare_and_predict():
    mine = schedlab.compare(KTH, ["easy", "conservative"], predictor=Last2(), correction="tsafrir", threads=2)
    builtin = schedlab.compare(KTH, ["easy", "conservative"], predictor="user-last2:order=end",
                               correction="tsafrir", threads=2)
    assert [s["predictor"] for s in mine["schedulers"]] == ["Last2:correction=tsafrir"] * 2
    for a, b in zip(mine["schedulers"], builtin["schedulers"]):
        assert (a["wait"], a["bounded_slowdown"]) == (b["wait"], b["bounded_slowdown"])
    summary = schedlab.predict(KTH, predictor=Last2())
    assert summary["predictor"] == "Last2"
    assert summary["accuracy"] == schedlab.predict(KTH, predictor="user-last2:order=end")["accuracy"]


def test_each_run_has_a_copy_so_runs_repeat_and_the_instance_is_untouched():
    p = Last2()
    first = schedlab.simulate(KTH, "easy", predictor=p, correction="tsafrir")
    assert p.last == {}
    second = schedlab.simulate(KTH, "easy", predictor=p, correction="tsafrir")
    assert (first.jobs.start == second.jobs.start).all()


class Doubles(schedlab.Predictor):
    """60 s for every job, doubled at each deadline miss: the built-in constant:value=60 with correction double."""

    def __init__(self, starts):
        self.starts = starts

    def __deepcopy__(self, memo):
        return Doubles(self.starts)  # the list of starts is the test's, shared

    def on_arrival(self, now, job):
        return 60

    def on_start(self, now, job, prediction):
        self.starts.append((job.job_number, now, prediction))  # the per-job CSV's job_id is the SWF job number

    def on_deadline_miss(self, now, job, start, prediction):
        assert now == start + prediction
        self.update(job.id, 2 * prediction)


def test_on_start_and_on_deadline_miss_are_called_as_the_engine_defines():
    starts = []
    mine = schedlab.simulate(KTH, "easy", predictor=Doubles(starts))
    builtin = schedlab.simulate(KTH, "easy", predictor="constant:value=60", correction="double")
    assert (mine.jobs.start == builtin.jobs.start).all()
    assert (mine.jobs.prediction == builtin.jobs.prediction).all()
    assert mine.metrics["overdue_misses"] == 0
    assert sorted(job for job, _, _ in starts) == sorted(mine.jobs.job_id)  # each job started once
    assert all(prediction == 60 for _, _, prediction in starts)
    assert dict((job, now) for job, now, _ in starts) == dict(zip(mine.jobs.job_id, mine.jobs.start))


def three_jobs():
    """2 processors. A (1 proc, 100 s, estimate 1000) at 0; B (2 procs, 10 s) at 1; C (1 proc, 500 s, estimate
    500) at 2. EASY with the estimates: B's reservation is at A's predicted end, 1000, so C backfills at 2 and B
    starts when C ends, at 502. With A re-predicted to 100 when B arrives: B's reservation is at 100, C (ending at
    502) would delay it and waits; B starts at 100, C at 110."""
    rows = [(1, 0, 100, 1, 1000), (2, 1, 10, 2, 10), (3, 2, 500, 1, 500)]
    df = pd.DataFrame([{"job_number": n, "submit_time": t, "run_time": r, "allocated_procs": p,
                        "requested_procs": p, "requested_time": e, "status": 1, "user_id": 1}
                       for n, t, r, p, e in rows])
    return df, ["; MaxProcs: 2"]


class Tells(schedlab.Predictor):
    """The estimate, and when job 2 arrives, job 1 (id 0) re-predicted to 100 s."""

    def on_arrival(self, now, job):
        if job.job_number == 2:
            self.update(0, 100)
        return job.estimate


def test_updates_move_the_reservation_as_hand_computed():
    df, header = three_jobs()
    assert list(schedlab.simulate((df, header), "easy").jobs.start) == [0, 502, 2]
    r = schedlab.simulate((df, header), "easy", predictor=Tells())
    assert list(r.jobs.start) == [0, 100, 110]


class RaisesLate(schedlab.Predictor):
    """The estimate, and when job 2 ends, job 1 (id 0), overdue since its deadline, re-predicted to 200 s."""

    def on_arrival(self, now, job):
        return job.estimate

    def on_termination(self, now, job, start):
        if job.job_number == 2:
            self.update(0, 200)


@pytest.mark.parametrize("scheduler", ["conservative", "conservative:compress=fixpoint", "flex"])
def test_an_overdue_job_predicted_longer_later_keeps_its_processors_from_now(scheduler):
    """4 processors. A (2 procs, runs 100 s, estimate 10) at 0, overdue from 10 with no call then; B (1 proc, 30 s)
    at 0; C (4 procs, 50 s) at 1; D (1 proc, 10 s) at 30. At 30 B ends and A is re-predicted to end at 200: C is
    reserved at 200, D starts at once on B's processor, and when A ends early at 100 C moves up to 100. (Conservative
    extended A's hold from its old end, 10, before now: an internal error, 'time 10 before origin 30'.)"""
    rows = [(1, 0, 100, 2, 10), (2, 0, 30, 1, 40), (3, 1, 50, 4, 60), (4, 30, 10, 1, 10)]
    df = pd.DataFrame([{"job_number": n, "submit_time": t, "run_time": r, "allocated_procs": p,
                        "requested_procs": p, "requested_time": e, "status": 1, "user_id": 1}
                       for n, t, r, p, e in rows])
    with pytest.warns(UserWarning, match="ran past its predicted end"):
        r = schedlab.simulate(df, scheduler, predictor=RaisesLate(), procs=4, check=True)
    assert list(r.jobs.start) == [0, 0, 100, 30]


def test_the_job_fields_a_predictor_sees():
    seen = []

    class Watch(schedlab.Predictor):
        def on_arrival(self, now, job):
            seen.append(job)  # a copy of this instance runs; the list is shared by reference
            return job.estimate

    df, header = three_jobs()
    schedlab.simulate((df, header), "fcfs", predictor=Watch())
    assert [(j.id, j.job_number, j.submit, j.procs, j.estimate, j.has_estimate, j.user) for j in seen] == [
        (0, 1, 0, 1, 1000, True, 1), (1, 2, 1, 2, 10, True, 1), (2, 3, 2, 1, 500, True, 1)]
    assert "runtime" not in schedlab.Job._fields and "run_time" not in schedlab.Job._fields


def test_a_python_scheduler_sees_the_python_predictions():
    seen = set()

    class Fcfs(PyFcfs):
        def schedule(self, state):
            seen.update(prediction for _, _, _, prediction in state.queue)
            return super().schedule(state)

    class Seven(schedlab.Predictor):
        def on_arrival(self, now, job):
            return 777

    df, header = three_jobs()
    r = schedlab.simulate((df, header), Fcfs(), predictor=Seven(), correction="tsafrir")
    assert seen == {777}
    assert r.metrics["predictor"] == "Seven:correction=tsafrir"


class Returns(schedlab.Predictor):
    def __init__(self, value):
        self.value = value

    def on_arrival(self, now, job):
        return self.value


@pytest.mark.parametrize("value, message", [
    (3.5, "predictor Returns: on_arrival() returns the job's predicted runtime, a whole number of seconds (int), "
          "not 3.5 (float)"),
    (None, "not None (NoneType)"),
    (-1, "predictor Returns: on_arrival() predicted -1 s for job 0: a runtime is >= 0"),
])
def test_a_bad_prediction_is_named(value, message):
    df, header = three_jobs()
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        schedlab.simulate((df, header), "easy", predictor=Returns(value))


def test_mistakes_in_a_predictor_are_named():
    df, header = three_jobs()

    class ReturnsFromTermination(schedlab.Predictor):
        name = "mine"

        def on_arrival(self, now, job):
            return job.estimate

        def on_termination(self, now, job, start):
            return now - start

    with pytest.raises(ValueError, match=r"predictor mine: on_termination\(\) returns nothing, not 100 \(int\): give "
                                         r"a job a new prediction with self.update\(job_id, seconds\)"):
        schedlab.simulate((df, header), "easy", predictor=ReturnsFromTermination())

    class Raises(schedlab.Predictor):
        def on_arrival(self, now, job):
            raise KeyError("the user's own bug")

    with pytest.raises(KeyError, match="the user's own bug"):
        schedlab.simulate((df, header), "easy", predictor=Raises())

    class Locked(Returns):
        def __init__(self):
            super().__init__(10)
            self.lock = threading.Lock()

    with pytest.raises(ValueError, match=r"predictor Locked: each simulation runs a copy of it \(copy.deepcopy\), and "
                                         r"it cannot be copied"):
        schedlab.simulate((df, header), "easy", predictor=Locked())

    with pytest.raises(TypeError, match=r"an instance of Last2 is needed, not the class \(predictor=Last2\(\)\)"):
        schedlab.simulate((df, header), "easy", predictor=Last2)
    with pytest.raises(ValueError, match="scheduler preset 'easy\\+\\+' sets its own predictor"):
        schedlab.simulate((df, header), "easy++", predictor=Last2())
    with pytest.raises(ValueError, match="update\\(\\)'s prediction must be a whole number"):
        Returns(1).update(0, 2.5)
    with pytest.raises(ValueError, match="update\\(\\)'s prediction must be >= 0 seconds, not -5"):
        Returns(1).update(0, -5)

    class Appends(Returns):  # around update(): a negative prediction is named, not rounded up to 0
        def on_arrival(self, now, job):
            self.__dict__.setdefault("_schedlab_updates", []).append((job.id, -5))
            return 10

    with pytest.raises(ValueError, match=r"predictor Appends: on_arrival\(\) predicted -5 s for job 0: a runtime"):
        schedlab.simulate((df, header), "easy", predictor=Appends(10))
    with pytest.raises(NotImplementedError, match=r"defines on_arrival\(now, job\)"):
        schedlab.simulate((df, header), "easy", predictor=schedlab.Predictor())


def test_a_python_predictor_in_a_report_is_the_builtin_page_under_its_name(tmp_path):
    schedlab.report(KTH, tmp_path / "mine.html", schedulers=["easy"], predictor=Last2(), correction="tsafrir")
    schedlab.report(KTH, tmp_path / "builtin.html", schedulers=["easy"], predictor="user-last2:order=end",
                    correction="tsafrir")
    mine = (tmp_path / "mine.html").read_text()
    builtin = (tmp_path / "builtin.html").read_text()
    assert '"predictor":"Last2:correction=tsafrir"' in mine
    assert mine.replace("Last2:correction=tsafrir", "P") == builtin.replace("user-last2:correction=tsafrir;order=end",
                                                                             "P")


def test_a_report_warns_of_an_uncorrected_predictor_as_the_cli_does(tmp_path):
    with pytest.warns(UserWarning, match=r"the predictor \(ruh\) gave it no longer prediction \(13513 times with easy\)"):
        schedlab.report(KTH, tmp_path / "r.html", schedulers=["easy"], predictor="ruh")


@pytest.mark.parametrize("name", ["", 5, None])
def test_a_name_that_is_no_text_is_refused(name):
    class Named(Returns):
        pass

    Named.name = name
    df, header = three_jobs()
    with pytest.raises(TypeError, match="Predictor Named: name must be a non-empty text, not "):
        schedlab.simulate((df, header), "easy", predictor=Named(10))

    class NamedFcfs(PyFcfs):
        pass

    NamedFcfs.name = name
    with pytest.raises(TypeError, match="Scheduler NamedFcfs: name must be a non-empty text, not "):
        schedlab.simulate((df, header), NamedFcfs())


def test_a_sweep_runs_python_plugins_beside_the_builtin_ones(tmp_path):
    """Python schedulers and predictors in a sweep's lists run under their names, each run on a copy, on threads:
    the rows are those of the built-in policies with the same rules (Last2 = user-last2:order=end, PyFcfs = fcfs),
    a resumed output keeps them, and names that would make two policies alike in the rows are refused. (A sweep
    refused them: "a sweep takes specs".)"""
    df, header = schedlab.read_swf(KTH)
    log = str(tmp_path / "kth3000.swf")
    schedlab.write_swf(df.head(3000), log, header=header)
    spec = {"logs": [log], "schedulers": ["easy", PyFcfs()], "predictors": [Last2(), "user-last2:order=end"],
            "corrections": ["tsafrir"], "loads": [0.6, 0.8]}
    rows = schedlab.sweep(spec, threads=2)
    assert list(rows.scheduler) == ["easy"] * 4 + ["py-fcfs"] * 4 and (rows.status == "ok").all()
    assert list(rows.predictor) == ["Last2", "Last2", "user-last2:order=end", "user-last2:order=end"] * 2
    metrics = ["wait_mean", "bounded_slowdown_mean", "utilization", "deadline_misses", "overdue_misses"]
    builtin = schedlab.sweep({**spec, "schedulers": ["easy", "fcfs"], "predictors": ["user-last2:order=end"]})
    for i, row in rows.iterrows():
        same = builtin.iloc[(i // 4) * 2 + i % 2]
        assert list(row[metrics]) == list(same[metrics]), i
    assert rows.wait_mean[0] != rows.wait_mean[1]  # the loads differ
    # Resumed from a file: the rows already there are kept, the rest run.
    out = tmp_path / "r.csv"
    first = schedlab.sweep({**spec, "exclude": [{"scheduler": PyFcfs(), "load": 0.8}]}, output=out)
    assert len(first) == 6
    resumed = schedlab.sweep({**spec, "exclude": [{"scheduler": PyFcfs(), "load": 0.8}]}, output=out)
    pd.testing.assert_frame_equal(resumed.drop(columns="wall_seconds"), first.drop(columns="wall_seconds"))
    # Names: a built-in one, two plug-ins under one name, a plug-in under the wrong key.
    with pytest.raises(ValueError, match="'ruh' names a built-in predictor, and a predictor of your own too"):
        schedlab.sweep({**spec, "predictors": [type("Ruh", (Last2,), {"name": "ruh"})()]})

    class Other(schedlab.Predictor):
        name = "Last2"

        def on_arrival(self, now, job):
            return job.estimate

    with pytest.raises(ValueError, match=r"sweep spec: predictors: two predictors named 'Last2'"):
        schedlab.sweep({**spec, "predictors": [Last2(), Other()]})
    with pytest.raises(TypeError, match=r"sweep spec: schedulers: a Python Predictor \(Last2\) goes in the list of "
                                        r"predictors"):
        schedlab.sweep({**spec, "schedulers": [Last2()]})


def test_long_calls_show_progress_on_sys_stderr(capsys):
    """As the CLI shows it, on sys.stderr (where a notebook shows it; the C stderr of the library is not): a sweep's
    runs, here after 0 s instead of 2. show_progress(False) silences it. (A long call said nothing at all.)"""
    spec = {"logs": [KTH], "schedulers": ["easy"], "predictors": [Last2()], "corrections": ["tsafrir"],
            "loads": [0.6, 0.7]}
    try:
        schedlab.show_progress(after=0)
        schedlab.sweep(spec)
        err = capsys.readouterr().err
        assert re.search(r"^schedlab sweep: [12]/2 runs done, [0-9.]+ runs/s, ETA \w+$", err, re.M), err
        # A simulation with a Python scheduler too (it ran to its end silently, and Ctrl-C waited for it).
        schedlab.simulate(KTH, scheduler=PyEasy())
        assert re.search(r"^schedlab simulate: [0-9,]+/28,489 jobs done", capsys.readouterr().err, re.M)
        schedlab.show_progress(False, after=0)  # silenced, not merely later than the sweep's second
        schedlab.sweep(spec)
        assert "schedlab sweep" not in capsys.readouterr().err
        with pytest.raises(ValueError, match="after must be a number of seconds >= 0"):
            schedlab.show_progress(after=-1)
        with pytest.raises(TypeError, match="on must be True or False"):
            schedlab.show_progress("yes")
    finally:
        schedlab.show_progress()


class SubmittedNow(schedlab.Predictor):
    """The estimate, after checking that the job arrives at its submit time: with feedback, the simulation's."""

    def on_arrival(self, now, job):
        if job.submit != now:
            raise RuntimeError(f"job {job.job_number} arrives at {now} but says it was submitted at {job.submit}")
        return job.estimate


def test_a_python_predictor_sees_the_simulated_submit_under_feedback(tmp_path):
    # Job 2 follows job 1 by 30 s: submitted at 130 in the simulation (logged 10), and the predictor is told so.
    path = tmp_path / "chain.swf"
    path.write_text("; MaxProcs: 4\n"
                    "1 0 -1 100 4 -1 -1 4 100 -1 1 1 -1 -1 -1 -1 -1 -1\n"
                    "2 10 -1 50 2 -1 -1 2 50 -1 1 2 -1 -1 -1 -1 1 30\n")
    r = schedlab.simulate(str(path), "fcfs", predictor=SubmittedNow(), feedback=True)
    assert list(r.jobs.submit) == [0, 130]
