"""The Python module against the CLI (pytest; run by CTest as PythonTests, with PYTHONPATH=build/python)."""
import gzip
import inspect
import json
import os
import re
import subprocess
import threading
import time

import numpy as np
import pandas as pd
import pytest
import warnings

import schedlab

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KTH = os.path.join(ROOT, "data", "KTH-SP2-1996-2.swf.gz")
CLI = os.environ.get("SCHEDLAB_CLI", os.path.join(ROOT, "build", "schedlab"))


def cli_json(*args):
    return json.loads(subprocess.run([CLI, *args, "--json"], check=True, capture_output=True, text=True).stdout)


def test_read_swf_gives_the_18_columns_and_the_header():
    df, header = schedlab.read_swf(KTH)
    assert list(df.columns) == schedlab.FIELDS
    assert len(df) == 28489
    assert df["requested_procs"].dtype == np.int64
    assert df["job_number"].iloc[0] == 1
    assert any(line.startswith("; MaxProcs: 100") for line in header)


PREEMPTED = ("; MaxProcs: 8\n"
             "1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n"
             "1 -1 10 40 4 -1 -1 4 200 -1 2 1 1 -1 -1 -1 -1 -1\n"
             "1 -1 20 60 4 -1 -1 4 200 -1 3 1 1 -1 -1 -1 -1 -1\n"
             "2 50 0 300 2 -1 -1 2 400 -1 1 2 1 -1 -1 -1 -1 -1\n")


def test_partial_execution_lines_left_out_of_jobs_kept_in_copies(tmp_path):
    """A preempted job's lines (status 2-4 after its summary line): a job counts once, as in the CLI; a copy
    (write_swf of a DataFrame read with them, filter_log) keeps them with their job."""
    path = tmp_path / "preempted.swf"
    path.write_text(PREEMPTED)
    with pytest.warns(UserWarning, match=r"preempted.swf: 2 partial-execution lines \(status 2-4 after their job's "
                                         r"summary line; the first at line 3\) left out"):
        df, _ = schedlab.read_swf(path)
    assert list(df["job_number"]) == [1, 2] and df.attrs["partial_executions"] == 2
    every, _ = schedlab.read_swf(path, keep_partial_executions=True)
    assert list(every["status"]) == [1, 2, 3, 1]
    assert schedlab.simulate(every, scheduler="fcfs").metrics["jobs"]["simulated"] == 2
    assert schedlab.stats(every)["read"]["partial_executions"]["count"] == 2
    schedlab.write_swf(every, tmp_path / "copy.swf")
    assert (tmp_path / "copy.swf").read_text() == PREEMPTED
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # read for a copy: nothing left out, nothing to say
        filtered = schedlab.filter_log(path, users=[1])
    assert list(filtered["status"]) == [1, 2, 3]
    assert filtered.attrs["filter"] == {"records": 2, "kept": 1, "excluded": {"user": 1}, "partial_executions_kept": 2}
    with pytest.raises(TypeError, match="keep_partial_executions must be True or False"):
        schedlab.read_swf(path, keep_partial_executions="yes")


def test_skip_invalid_skips_malformed_lines_counted_by_reason(tmp_path):
    """read_swf and read_log take the CLI's --skip-invalid: a malformed line is skipped, counted by reason and
    warned about as the CLI's note; without it the first one is the error (a log with one bad line could not be
    read from Python at all)."""
    path = tmp_path / "bad.swf"
    path.write_text("; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 100 -1 1 1 -1 -1 -1 -1 -1 -1\n"
                    "2 abc 0 10 1 -1 -1 1 100 -1 1 1 -1 -1 -1 -1 -1 -1\n3 60 0 10 1\n"
                    "4 90 0 10 1 -1 -1 1 100 -1 1 1 -1 -1 -1 -1 -1 -1\n")
    with pytest.raises(ValueError, match=r"bad.swf:3: field 2 \(submit_time\): not a number: \"abc\" \(read_swf\(path, "
                                         r"skip_invalid=True\) or read_log\(path, skip_invalid=True\) skips such"):
        schedlab.read_swf(path)
    with pytest.raises(ValueError, match=r"skip_invalid=True\) skips such lines"):
        schedlab.stats(path)
    note = r"bad.swf: 2 malformed lines skipped: non_numeric 1, wrong_field_count 1"
    with pytest.warns(UserWarning, match=note):
        df, _ = schedlab.read_swf(path, skip_invalid=True)
    assert list(df["job_number"]) == [1, 4]
    assert df.attrs["skipped"] == {"non_numeric": 1, "wrong_field_count": 1}
    with pytest.warns(UserWarning, match=note):
        log = schedlab.read_log(path, skip_invalid=True)
    assert len(log) == 2 and log.skipped == {"non_numeric": 1, "wrong_field_count": 1}
    assert schedlab.simulate(log, scheduler="fcfs").metrics["jobs"]["simulated"] == 2
    assert schedlab.read_swf(KTH)[0].attrs["skipped"] == {}
    with pytest.raises(TypeError, match="skip_invalid must be True or False, not str"):
        schedlab.read_log(path, skip_invalid="yes")


def test_read_threads_give_the_same_frame_and_the_same_error(tmp_path):
    # KTH is about 2 MB of text: 256 KiB pieces put several piece ends in it, and a fault far into the file.
    one, header = schedlab.read_swf(KTH, threads=1)
    for threads in (0, 2, 5.0):
        df, h = schedlab.read_swf(KTH, threads=threads)
        pd.testing.assert_frame_equal(df, one)
        assert h == header
    assert len(schedlab.read_log(KTH, threads=2)) == len(one)
    lines = gzip.open(KTH, "rt").read().splitlines(keepends=True)
    lines[-3000] = lines[-3000].replace(" ", " x", 1)
    bad = tmp_path / "bad.swf"
    bad.write_text("".join(lines))
    messages = []
    for threads in (1, 2):
        with pytest.raises(ValueError) as e:
            schedlab.read_swf(bad, threads=threads)
        messages.append(str(e.value))
    assert messages[0] == messages[1] and f"bad.swf:{len(lines) - 2999}: field 2 (submit_time)" in messages[0]
    with pytest.raises(ValueError, match="threads must be >= 0"):
        schedlab.read_log(KTH, threads=-1)
    with pytest.raises(TypeError, match="threads must be a whole number, not str"):
        schedlab.read_swf(KTH, threads="2")


def test_dataframe_round_trip_equals_the_file(tmp_path):
    df, header = schedlab.read_swf(KTH)
    out = tmp_path / "copy.swf"
    schedlab.write_swf(df, out)
    again, header2 = schedlab.read_swf(out)
    pd.testing.assert_frame_equal(df, again)
    assert header2 == header
    # and byte for byte as the CLI writes it
    ref = tmp_path / "ref.swf"
    subprocess.run([CLI, "convert", KTH, str(ref)], check=True, capture_output=True)
    assert out.read_bytes() == ref.read_bytes()


def test_what_read_swf_returns_is_a_log(tmp_path):
    """`log = read_swf(path)` then `simulate(log)`: the (DataFrame, header) pair is taken whole, header included
    (it was a TypeError, 'not tuple')."""
    log = schedlab.read_swf(KTH)
    a, b = schedlab.simulate(log, scheduler="easy"), schedlab.simulate(KTH, scheduler="easy")
    pd.testing.assert_frame_equal(a.jobs, b.jobs)
    assert {k: v for k, v in a.metrics.items() if k != "wall_time_s"} == {k: v for k, v in b.metrics.items() if k != "wall_time_s"}
    df, header = log
    df = df.copy()
    df.attrs = {}  # the header comes from the pair, not from the frame's attrs
    schedlab.write_swf((df, header), tmp_path / "pair.swf")
    subprocess.run([CLI, "convert", KTH, str(tmp_path / "ref.swf")], check=True, capture_output=True)
    assert (tmp_path / "pair.swf").read_bytes() == (tmp_path / "ref.swf").read_bytes()
    with pytest.raises(TypeError, match="a log is a path, a pandas DataFrame or what read_swf returns, not tuple"):
        schedlab.simulate((df,), scheduler="easy")


def test_a_result_names_its_scheduler_and_a_predictor_other_than_the_estimate():
    assert repr(schedlab.simulate(KTH, scheduler="easy")) == \
        "Result(easy, wait mean 6844.6 s, bounded slowdown mean 91.47)"
    assert repr(schedlab.simulate(KTH, scheduler="easy++")).startswith(
        "Result(easy++, predictor user-last2:correction=tsafrir, wait mean ")


def test_a_predictor_left_uncorrected_is_warned_of():
    with pytest.warns(UserWarning, match=r"the predictor \(ruh\) gave it no longer prediction \(13513 times\)"):
        r = schedlab.simulate(KTH, scheduler="easy", predictor="ruh")
    assert r.metrics["overdue_misses"] == 13513 and len(r.metrics["warnings"]) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert schedlab.simulate(KTH, scheduler="easy", predictor="ruh", correction="tsafrir").metrics["warnings"] == []
    with pytest.warns(UserWarning, match=r"\(ruh\) gave it no longer prediction \(13513 times with easy, \d+ with fcfs\)"):
        c = schedlab.compare(KTH, ["easy", "fcfs"], predictor="ruh")
    assert len(c["warnings"]) == 1


def test_predict_next_is_the_clis_answer():
    """How long will this user's next job run: the CLI's --next, from a path, a DataFrame and a Python predictor."""
    cli = cli_json("predict", KTH, "-p", "user-last2", "--correction", "tsafrir", "--next", "user=3,procs=8,estimate=4h")
    mine = schedlab.predict_next(KTH, 3, 8, "4h", "user-last2", correction="tsafrir")
    assert {k: v for k, v in cli.items() if k != "trace"} == mine
    assert mine["prediction"] == 1432 and mine["user_jobs"] == 251  # user 3's two last jobs: (2546 + 318) / 2
    df, _ = schedlab.read_swf(KTH)
    last = df[df.user_id == 3].sort_values("submit_time", kind="stable").run_time.tail(2).mean()
    assert schedlab.predict_next(df, 3, estimate=14400, predictor="user-last2")["prediction"] == int(last)
    assert schedlab.predict_next(KTH, 99999)["prediction"] is None
    # A user by the name the log's header keeps (a log converted from sacct), as --next user=NAME.
    named = df.copy()
    named.attrs["swf_header"] = df.attrs["swf_header"] + ["; Note: users: 3=carol"]
    assert schedlab.predict_next(named, "carol", 8, "4h", "user-last2", correction="tsafrir") == mine
    with pytest.raises(ValueError, match="'dave' is neither a number nor one of the log's users"):
        schedlab.predict_next(named, "dave")
    with pytest.raises(ValueError, match="the next job's procs must be > 0"):
        schedlab.predict_next(KTH, 3, 0)


def test_a_prediction_raised_second_by_second_is_warned_of():
    # KTH's longest job runs 226,709 s: past a no-estimate SBH's cap of 216,000, predicted one second at a time.
    spec = "sbh:noest=1;criteria=P,*;cap=216000"
    with pytest.warns(UserWarning, match=r"raised their predictions by one second at a time, for a minute or more "
                                         r"\(1 job\)"):
        r = schedlab.simulate(KTH, scheduler="easy", predictor=spec)
    assert r.metrics["second_by_second_jobs"] == 1
    with pytest.warns(UserWarning, match=r"for a minute or more \(1 job\)"):
        summary = schedlab.predict(KTH, predictor=spec)
    assert summary["second_by_second_jobs"] == 1 and len(summary["warnings"]) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert schedlab.predict(KTH, predictor="sbh:noest=1;criteria=P,*")["warnings"] == []


def test_metrics_by_job_class():
    r = schedlab.simulate(KTH, scheduler="easy", by_class=True)
    assert r.metrics["by_class"]["limits"] == "1h,8"
    c = r.by_class
    assert list(c.columns) == ["jobs", "share", "work_share", "wait_mean", "response_mean", "slowdown_mean",
                               "bounded_slowdown_mean", "backfilled", "backfilled_share"]
    assert c.jobs.sum() == r.metrics["jobs"]["simulated"] and c.backfilled.sum() == r.metrics["metrics"]["backfilled"]
    assert schedlab.simulate(KTH, scheduler="easy", by_class="30m,16").metrics["by_class"]["narrow_procs"] == 16
    assert schedlab.simulate(KTH, scheduler="easy").by_class is None
    with pytest.raises(ValueError, match=r"by_class: job class limits '1h,0': '0' is not a positive whole number"):
        schedlab.simulate(KTH, scheduler="easy", by_class="1h,0")
    with pytest.raises(TypeError, match="by_class must be True, False or the limits as a text"):
        schedlab.simulate(KTH, scheduler="easy", by_class=8)
    c = schedlab.compare(KTH, ["easy", "easy-sjbf"], by_class="30m,16")
    assert c["by_class_limits"]["short_runtime"] == 1800
    assert c["schedulers"][1]["by_class"] == \
        schedlab.simulate(KTH, scheduler="easy-sjbf", by_class="30m,16").metrics["by_class"]["classes"]


def test_fractional_fields_are_kept(tmp_path):
    p = tmp_path / "f.swf"
    p.write_text("; MaxProcs: 4\n1 0 0 10 1 107.77 -1 1 60 -1 1 1 -1 -1 -1 -1 -1 -1\n")
    df, _ = schedlab.read_swf(p)
    assert df["avg_cpu_time"].dtype == np.float64
    assert df["avg_cpu_time"].iloc[0] == 107.77
    schedlab.write_swf(df, tmp_path / "g.swf")
    assert "107.77" in (tmp_path / "g.swf").read_text()


def test_simulate_equals_the_cli_json():
    r = schedlab.simulate(KTH, scheduler="conservative", load=0.7, warmup_fraction=0.01)
    c = cli_json("simulate", KTH, "-s", "conservative", "--load", "0.7", "--warmup-fraction", "0.01")
    assert r.metrics["metrics"] == c["metrics"]
    assert r.metrics["jobs"] == c["jobs"]
    assert list(r.jobs.columns)[:4] == ["job_id", "submit", "start", "end"]
    assert len(r.jobs) == c["jobs"]["simulated"]
    assert r.jobs["wait"].mean() >= 0


def test_simulate_passes_every_option_as_the_cli_does():
    # The keyword arguments simulate() and simulate_python() share go through one function (module.cc); each one set
    # away from its default, against the CLI's flags. extend_estimates and kill_at_estimate pull opposite ways (475
    # KTH jobs outlive their estimate: killed, or their estimate raised), so a swap of the two shows.
    opts = dict(predictor="user-last2", correction="tsafrir", procs=128, arrival_scale=0.9, kill_at_estimate=True,
                extend_estimates=True, warmup_fraction=0.02, bsld_tau=20, seed=3, by_class="30m,4")
    r = schedlab.simulate(KTH, scheduler="easy", **opts)
    c = cli_json("simulate", KTH, "-s", "easy", "-p", "user-last2", "--correction", "tsafrir", "--procs", "128",
                 "--arrival-scale", "0.9", "--kill-at-estimate", "--extend-estimates", "--warmup-fraction", "0.02",
                 "--bsld-tau", "20", "--seed", "3", "--class-limits", "30m,4")
    for key in ("wall_time_s", "trace"):  # the run's own time, and the path the CLI names
        r.metrics.pop(key, None)
        c.pop(key)
    assert r.metrics == c
    assert (r.metrics["jobs"]["extended"], r.metrics["jobs"]["killed"]) == (475, 0)
    killed = schedlab.simulate(KTH, scheduler="easy", **{**opts, "extend_estimates": False})
    assert (killed.metrics["jobs"]["extended"], killed.metrics["jobs"]["killed"]) == (0, 475)


def test_feedback_submits_each_follower_its_think_time_after_its_preceding_job(tmp_path):
    # Each KTH job follows its user's previous job when the log shows it submitted after that one ended, with a
    # think time of 60 s: checked in pandas, job by job, and against the CLI on the same log written out.
    df, header = schedlab.read_swf(KTH)
    df = df.sort_values(["submit_time", "job_number"]).reset_index(drop=True)
    prev = df.groupby("user_id").shift(1)
    ended = prev["submit_time"] + prev["wait_time"].clip(lower=0) + prev["run_time"]
    follows = prev["job_number"].notna() & (df["submit_time"] >= ended)
    df.loc[follows, "preceding_job"] = prev.loc[follows, "job_number"].astype("int64")
    df.loc[follows, "think_time"] = 60
    r = schedlab.simulate(df, "easy", feedback=True)
    assert r.metrics["feedback"] is True
    assert r.metrics["jobs"]["following"] == int(follows.sum()) > 5000
    jobs = r.jobs.set_index("job_id")
    pre = df.loc[follows, ["job_number", "preceding_job"]]
    expected = jobs.loc[pre["preceding_job"], "end"].to_numpy() + 60
    assert (jobs.loc[pre["job_number"], "submit"].to_numpy() == expected).all()
    lone = df.loc[~follows, "job_number"]
    assert (jobs.loc[lone, "submit"].to_numpy() == df.loc[~follows, "submit_time"].to_numpy()).all()
    assert (jobs["wait"] >= 0).all()
    path = tmp_path / "chained.swf"
    schedlab.write_swf(df, str(path), header)
    c = cli_json("simulate", str(path), "-s", "easy", "--feedback")
    assert r.metrics["metrics"] == c["metrics"]
    assert r.metrics["jobs"] == c["jobs"]
    plain = schedlab.simulate(df, "easy")
    assert plain.metrics["jobs"]["following"] == 0
    assert (plain.jobs["submit"].to_numpy() == df["submit_time"].to_numpy()).all()


def test_stats_equals_the_cli_json():
    s = schedlab.stats(KTH)
    c = cli_json("stats", KTH)
    c.pop("command", None)
    c.pop("path", None)
    assert len(s) > 5
    assert s == {k: v for k, v in c.items() if k in s}
    assert set(c) - set(s) <= {"trace", "file"}


def test_a_machine_of_no_processors_is_refused():
    # stats(procs=-1) summarised a machine of -1 processors (a negative offered load); the CLI's range refused it.
    for procs in (0, -1):
        with pytest.raises(ValueError, match=f"machine size must be positive, got procs={procs}"):
            schedlab.stats(KTH, procs=procs)
        with pytest.raises(ValueError, match="machine size must be positive"):
            schedlab.predict(KTH, procs=procs)


def test_messages_name_the_functions_keywords_where_the_cli_names_its_flags():
    # The library's words are the CLI's ("--procs 64 is outside ..."); a Python caller reads the keyword it gave.
    with pytest.raises(ValueError, match=r"^procs must be in 1\.\.2147483647 \(got 0\)$"):
        schedlab.generate_talby(procs=0, weeks=1)
    with pytest.warns(UserWarning) as caught:
        schedlab.generate_talby(procs=64, weeks=1)
    said = [str(w.message) for w in caught]
    assert said[0].startswith("procs=64 is outside the model's range") and not any("--" in w for w in said)
    # A quoted value keeps its quotes; renamed keywords (filter_log's from_) are named as the function has them.
    with pytest.raises(ValueError, match=r"^compare: baseline='nosuch' is not one of the schedulers \(easy, fcfs\)$"):
        schedlab.compare(KTH, ["easy", "fcfs"], baseline="nosuch")
    with pytest.warns(UserWarning, match="; from_/to keep none of them$"):
        schedlab.filter_log(KTH, from_="2030-01-01")
    # The CLI itself is unchanged.
    cli = subprocess.run([CLI, "generate", "talby", "--procs", "0", "--weeks", "1", "-o", "-"], capture_output=True,
                         text=True)
    assert cli.returncode == 1 and "--procs must be in 1..2147483647 (got 0)" in cli.stderr


def test_a_filtered_dataframe_simulates():
    df, _ = schedlab.read_swf(KTH)
    small = df[df["requested_procs"] <= 8]
    r = schedlab.simulate(small, scheduler="easy", procs=100)
    assert r.metrics["jobs"]["simulated"] == len(small)
    assert r.metrics["procs"] == 100


def test_sweep_equals_the_cli(tmp_path):
    spec = tmp_path / "s.toml"
    spec.write_text(f"logs = '{KTH}'\nschedulers = ['fcfs', 'easy']\nloads = [0.6, 0.8]\n")
    df = schedlab.sweep(spec)
    assert len(df) == 4
    subprocess.run([CLI, "sweep", str(spec), "-o", str(tmp_path / "r.csv")], check=True, capture_output=True)
    cli = pd.read_csv(tmp_path / "r.csv")
    assert list(df["wait_mean"]) == list(cli["wait_mean"])
    assert list(df["scheduler"]) == ["fcfs", "fcfs", "easy", "easy"]
    text = schedlab.sweep(f"logs = '{KTH}'\nschedulers = 'easy'\n")
    assert len(text) == 1


def test_an_empty_or_dash_output_path_is_refused(tmp_path, monkeypatch):
    # "" (an unset variable) was "not given" for save_job_model (the fitted model was not saved) or "'': cannot
    # replace the file"; a sweep's output "-" printed the rows and then failed to read a file named "-".
    monkeypatch.chdir(tmp_path)
    spec = tmp_path / "s.toml"
    spec.write_text(f"logs = '{KTH}'\nschedulers = ['fcfs']\n")
    for call in (lambda: schedlab.sweep(spec, output=""), lambda: schedlab.read_swf(""),
                 lambda: schedlab.report(KTH, ""),
                 lambda: schedlab.generate_talby(procs=128, weeks=1, save_job_model="")):
        with pytest.raises(ValueError, match="an empty path"):
            call()
    with pytest.raises(ValueError, match="output=None writes no file"):
        schedlab.sweep(spec, output="-")
    assert not (tmp_path / "-").exists()


def test_sweep_into_a_file_resumes_and_collects_an_array(tmp_path):
    spec = tmp_path / "s.toml"
    spec.write_text(f"logs = '{KTH}'\nschedulers = ['fcfs', 'easy']\nloads = [0.6, 0.8]\n")
    whole = schedlab.sweep(spec)
    for name in ("r.csv", "r.jsonl"):
        out = tmp_path / name
        df = schedlab.sweep(spec, output=out)
        assert list(df["wait_mean"]) == list(whole["wait_mean"])
        lines = out.read_text().splitlines(keepends=True)
        out.write_text("".join(lines[:-1]))  # the last run's row lost: a resume runs only that one
        again = schedlab.sweep(spec, output=out)
        assert list(again["run"]) == [0, 1, 2, 3]
        assert list(again["wait_mean"]) == list(whole["wait_mean"])
        lines = out.read_text().splitlines(keepends=True)
        del lines[2 if name == "r.csv" else 1]  # run 1's row deleted by hand: run again, written at the end
        out.write_text("".join(lines))
        again = schedlab.sweep(spec, output=out)
        assert list(again["run"]) == [0, 1, 2, 3] and list(again.index) == [0, 1, 2, 3]
        assert list(again["wait_mean"]) == list(whole["wait_mean"])
    spec.write_text(f"logs = '{KTH}'\nschedulers = ['fcfs', 'conservative', 'easy']\nloads = [0.6, 0.8]\n")
    with pytest.raises(ValueError, match="the spec changed since this output was written"):
        schedlab.sweep(spec, output=tmp_path / "r.csv")
    # A job array's shards, run here as its tasks would, merged.
    spec.write_text(f"logs = '{KTH}'\nschedulers = ['fcfs', 'easy']\nloads = [0.6, 0.8]\n")
    subprocess.run([CLI, "sweep", str(spec), "--slurm", str(tmp_path / "a"), "--array-size", "2"], check=True,
                   capture_output=True)
    with pytest.raises(ValueError, match="2 of 2 shards are missing or incomplete: 0,1"):
        schedlab.sweep_collect(tmp_path / "a", tmp_path / "m.csv")
    for task in ("0", "1"):
        subprocess.run(["bash", str(tmp_path / "a" / "sweep.sbatch")], check=True, capture_output=True,
                       env=dict(os.environ, SLURM_ARRAY_TASK_ID=task))
    merged = schedlab.sweep_collect(tmp_path / "a", tmp_path / "m.csv")
    assert list(merged["wait_mean"]) == list(whole["wait_mean"])


def test_errors_raise_with_the_librarys_message(tmp_path):
    with pytest.raises(ValueError, match="unknown scheduler"):
        schedlab.simulate(KTH, scheduler="nosuch")
    with pytest.raises(ValueError, match="unknown scheduler 'easyy' .*; did you mean 'easy'\\?"):
        schedlab.simulate(KTH, scheduler="easyy")
    # A mistyped keyword gets the nearest of the function's own (Python says only "unexpected"), or the list.
    with pytest.raises(TypeError, match="simulate\\(\\) got an unexpected keyword argument 'warmup'; did you mean "
                                        "'warmup_fraction'\\?"):
        schedlab.simulate(KTH, warmup=0.01)
    with pytest.raises(TypeError, match="'schedular'; did you mean 'scheduler'\\?"):
        schedlab.simulate(KTH, schedular="easy")
    with pytest.raises(TypeError, match=r"'colour' \(its keywords: log, attribute, "):
        schedlab.locality(KTH, colour="red")
    assert schedlab.simulate.__doc__.startswith("Simulate a scheduler on a log")  # help() is the function's
    with pytest.raises(ValueError, match="seed must be a whole number from 0"):
        schedlab.simulate(KTH, scheduler="easy", seed=-1)
    with pytest.raises(ValueError, match="seed must be a whole number from 0"):
        schedlab.scramble(KTH, seed=2 ** 64)
    with pytest.raises(ValueError, match="predictor"):
        schedlab.simulate(KTH, predictor="oracle")
    with pytest.raises(ValueError, match=r"threads must be >= 0 \(0 = every core\), not -1"):
        schedlab.compare(KTH, ["easy", "fcfs"], threads=-1)
    with pytest.raises(ValueError, match=r"threads must be >= 0 \(0 = every core\), not -1"):
        schedlab.locality(KTH, threads=-1)
    # Whole numbers stay whole: int() cut bins=2.7 to 2 and procs=100.5 was pybind11's "incompatible function
    # arguments"; a float without a fraction (or a NumPy integer) is taken.
    with pytest.raises(ValueError, match="bins must be a whole number, not 2.7"):
        schedlab.locality(KTH, bins=2.7)
    with pytest.raises(ValueError, match="procs must be a whole number, not 100.5"):
        schedlab.simulate(KTH, procs=100.5)
    with pytest.raises(TypeError, match="procs must be a whole number, not bool True"):
        schedlab.simulate(KTH, procs=True)
    by_numpy, by_float = schedlab.simulate(KTH, procs=np.int64(100)), schedlab.simulate(KTH, procs=100.0)
    assert by_numpy.metrics["procs"] == by_float.metrics["procs"] == 100
    with pytest.raises(FileNotFoundError, match="no such file"):
        schedlab.read_swf(tmp_path / "missing.swf")
    bad = tmp_path / "bad.swf"
    bad.write_text("1 2 3\n")
    with pytest.raises(ValueError, match="bad.swf:1"):
        schedlab.read_swf(bad)
    with pytest.raises(ValueError, match="schedulerz: unknown key"):
        schedlab.sweep(f"logs = '{KTH}'\nschedulerz = 'easy'\n")
    with pytest.raises(TypeError):
        schedlab.simulate(42)


def test_the_version_is_the_clis():
    out = subprocess.run([CLI, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "schedlab " + schedlab.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", schedlab.__version__)


def test_the_type_stubs_match_the_module():
    # __init__.pyi is written by hand: every public function must be there with the same parameters, in order
    # (it lacked sweep's output= and sweep_collect for a while).
    import ast
    import inspect
    stubs = {}
    with open(os.path.join(os.path.dirname(schedlab.__file__), "__init__.pyi")) as f:
        for node in ast.parse(f.read()).body:
            if isinstance(node, ast.FunctionDef):
                a = node.args
                stubs[node.name] = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
    for name in schedlab.__all__:
        obj = getattr(schedlab, name)
        if inspect.isfunction(obj):
            assert name in stubs, f"{name} has no stub"
            assert stubs[name] == list(inspect.signature(obj).parameters), name


def test_registries_list_what_the_cli_lists():
    s = schedlab.schedulers()
    assert "easy" in s and "conservative" in s and "pbas" in s
    assert "user-last2" in schedlab.predictors()


def test_a_log_read_once_serves_every_call():
    log = schedlab.read_log(KTH)
    assert len(log) == 28489 and log.path == KTH
    assert schedlab.stats(log) == schedlab.stats(KTH)
    once, each = schedlab.simulate(log, "easy").metrics, schedlab.simulate(KTH, "easy").metrics
    assert once.pop("wall_time_s") >= 0 and each.pop("wall_time_s") >= 0 and once == each
    with pytest.raises(TypeError, match="read_log takes a path, not DataFrame"):
        schedlab.read_log(schedlab.read_swf(KTH)[0])


def test_simulations_release_the_gil():
    log = schedlab.read_log(KTH)  # read once, shared by both threads
    spans = []

    def run():
        t0 = time.perf_counter()
        schedlab.simulate(log, scheduler="conservative", load=0.9)
        spans.append((t0, time.perf_counter()))

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    (a0, a1), (b0, b1) = sorted(spans)
    assert b0 < a1, "the two simulations did not overlap in time"


class PyFcfs(schedlab.Scheduler):
    """First come, first served: start queue heads while they fit."""
    name = "py-fcfs"

    def schedule(self, state):
        free, start = state.free, []
        for job_id, procs, _submit, _prediction in state.queue:
            if procs > free:
                break
            start.append(job_id)
            free -= procs
        return start


class PyEasy(schedlab.Scheduler):
    """EASY backfilling as docs/simulator.md defines it: start heads while they fit; reserve for the first that
    does not (its shadow time: walk the running and just-started jobs by expected end until it fits; extra = the
    processors free then beyond its need); backfill, in queue order, jobs that fit now and either end by the shadow
    time or use no more than the extra processors."""
    name = "py-easy"

    def schedule(self, state):
        now, free, queue = state.now, state.free, state.queue
        start, ends = [], []
        k = 0
        while k < len(queue) and queue[k][1] <= free:
            job_id, procs, _, prediction = queue[k]
            start.append(job_id)
            free -= procs
            ends.append((now + prediction, procs))
            k += 1
        if k == len(queue):
            return start
        head_procs = queue[k][1]
        holders = sorted([(r[4], r[1]) for r in state.running] + ends)
        avail, shadow, i = free, None, 0
        while i < len(holders):
            t = holders[i][0]
            while i < len(holders) and holders[i][0] == t:  # every job ending at t frees its processors then
                avail += holders[i][1]
                i += 1
            if avail >= head_procs:
                shadow = t
                break
        extra = avail - head_procs
        for job_id, procs, _, prediction in queue[k + 1:]:
            if free == 0:
                break
            if procs > free:
                continue
            by_shadow = now + prediction <= shadow
            if not by_shadow and procs > extra:
                continue
            start.append(job_id)
            free -= procs
            if not by_shadow:
                extra -= procs
        return start


@pytest.mark.parametrize("py_scheduler,builtin", [(PyFcfs, "fcfs"), (PyEasy, "easy")])
def test_python_schedulers_give_the_builtin_schedules(py_scheduler, builtin):
    log = schedlab.read_log(KTH)
    mine = schedlab.simulate(log, scheduler=py_scheduler())
    ref = schedlab.simulate(log, scheduler=builtin)
    assert mine.metrics["checked"] is True
    assert mine.metrics["scheduler"] == py_scheduler.name
    pd.testing.assert_frame_equal(mine.jobs, ref.jobs)
    assert mine.metrics["metrics"] == ref.metrics["metrics"]


def test_python_schedulers_in_compare_and_report(tmp_path):
    # Among the named schedulers, in their places, on threads: the built-in's figures under its own name.
    mine = schedlab.compare(KTH, [PyEasy(), "conservative", PyFcfs()], threads=2)
    builtin = schedlab.compare(KTH, ["easy", "conservative", "fcfs"], threads=2)
    assert [s["name"] for s in mine["schedulers"]] == ["py-easy", "conservative", "py-fcfs"]
    for a, b in zip(mine["schedulers"], builtin["schedulers"]):
        assert (a["wait"], a["bounded_slowdown"], a["utilization"]) == (b["wait"], b["bounded_slowdown"],
                                                                       b["utilization"])
    schedlab.report(KTH, tmp_path / "mine.html", schedulers=[PyEasy()])
    subprocess.run([CLI, "report", KTH, "-o", str(tmp_path / "cli.html"), "-s", "easy"], check=True,
                   capture_output=True)
    page = (tmp_path / "mine.html").read_text()
    assert "py-easy" in page
    assert page.replace("py-easy", "easy") == (tmp_path / "cli.html").read_text()

    class Greedy(schedlab.Scheduler):  # starts every waiting job: the engine's checks stop it
        def schedule(self, state):
            return [job_id for job_id, *_ in state.queue]

    with pytest.raises(ValueError, match="Greedy"):
        schedlab.compare(KTH, [Greedy(), "easy"])
    with pytest.raises(TypeError, match=r"an instance of PyFcfs is needed, not the class \(PyFcfs\(\)\)"):
        schedlab.compare(KTH, [PyFcfs, "easy"])


def test_python_schedulers_kill_and_suspend():
    # overrun = "kill": jobs are cut at their prediction (the estimate), as the built-in fcfs with kill_at_estimate.
    class KillingFcfs(PyFcfs):
        overrun = "kill"

    log = schedlab.read_log(KTH)
    mine = schedlab.simulate(log, scheduler=KillingFcfs())
    ref = schedlab.simulate(log, scheduler="fcfs", kill_at_estimate=True)
    assert list(mine.jobs["end"]) == list(ref.jobs["end"]) and mine.jobs["killed"].sum() == 475
    assert mine.metrics["metrics"]["wait"] == ref.metrics["metrics"]["wait"]

    # decision.suspend, by hand on 10 processors: J1 (100 s) at 0, J2 (10 s) at 20, J3 (50 s) at 25, each on all 10
    # processors. Shortest remaining time first suspends J1 at 20 (20 s run) and runs J2 until 30. At 25 J3 waits
    # and J1 cannot resume (J2 holds its processors). At 30 J3 (50 s left) goes before J1 (80 s); at 80 J1
    # resumes, its last 80 s after a resume delay of 5 s: it ends at 165.
    rows = [[1, 0, -1, 100, 10, -1, -1, 10, 100, -1, 1, 1, 1, -1, -1, -1, -1, -1],
            [2, 20, -1, 10, 10, -1, -1, 10, 10, -1, 1, 1, 1, -1, -1, -1, -1, -1],
            [3, 25, -1, 50, 10, -1, -1, 10, 50, -1, 1, 1, 1, -1, -1, -1, -1, -1]]

    class Srpt(schedlab.Scheduler):
        name = "srpt"
        resume_delay = 5

        def __init__(self):
            self.suspensions, self.resumable = [], []

        def __deepcopy__(self, memo):  # the run works on this instance, not a copy: what it saw is looked at below
            return self

        def on_suspend(self, state, job):
            self.suspensions.append((state.now, job[0], dict(state.attained)))

        def schedule(self, state, decision):
            if state.attained:
                self.resumable.append((state.now, set(state.resumable)))
            free = state.free
            for jid, procs, _submit, pred in sorted(state.queue, key=lambda j: j[3] - state.attained.get(j[0], 0)):
                remaining = pred - state.attained.get(jid, 0)
                for rid, rprocs, _start, _pred, end in state.running:
                    if procs > free and end - state.now > remaining:
                        decision.suspend.append(rid)
                        free += rprocs
                if procs <= free and (jid not in state.attained or jid in state.resumable):
                    decision.start.append(jid)
                    free -= procs

    s = Srpt()
    r = schedlab.simulate(pd.DataFrame(rows, columns=schedlab.FIELDS), scheduler=s, procs=10)
    assert list(r.jobs["start"]) == [0, 20, 30] and list(r.jobs["end"]) == [165, 30, 80]
    assert r.metrics["metrics"]["suspensions"] == 1
    assert s.suspensions == [(20, 0, {0: 20})]
    assert s.resumable == [(25, set()), (30, {0}), (80, {0})]
    # decision.keep_free_for: on 12 processors J1 and J2 (4 each) start at 0; J1 is suspended at 10 (on 0-3); J3
    # (4) starts at 11 and J4 (1) arrives at 15. Kept free for J1, J3 runs on 8-11 and J1 can resume at 15;
    # otherwise J3 takes the lowest free processors, J1's, and J1 must wait for J3.
    rows = [[1, 0, -1, 100, 4, -1, -1, 4, 100, -1, 1, 1, 1, -1, -1, -1, -1, -1],
            [2, 0, -1, 100, 4, -1, -1, 4, 100, -1, 1, 1, 1, -1, -1, -1, -1, -1],
            [3, 10, -1, 50, 4, -1, -1, 4, 50, -1, 1, 1, 1, -1, -1, -1, -1, -1],
            [4, 15, -1, 1, 1, -1, -1, 1, 1, -1, 1, 1, 1, -1, -1, -1, -1, -1]]

    class Script(schedlab.Scheduler):
        def __init__(self, keep):
            self.keep, self.resumable = keep, []

        def __deepcopy__(self, memo):  # run as it is: what it saw is looked at below
            return self

        def schedule(self, state, decision):
            if state.attained:
                self.resumable.append((state.now, set(state.resumable)))
            if state.now == 10:
                decision.suspend.append(0)
                decision.wake_at = 11
                return
            free = state.free
            for jid, procs, _submit, _pred in state.queue:
                if jid in state.attained:
                    if state.now >= 15 and jid in state.resumable and procs <= free:
                        decision.start.append(jid)
                        free -= procs
                elif procs <= free:
                    decision.start.append(jid)
                    free -= procs
                    if self.keep:
                        decision.keep_free_for = [j for j in state.attained if j not in decision.start]

    kept, taken = Script(True), Script(False)
    log = pd.DataFrame(rows, columns=schedlab.FIELDS)
    schedlab.simulate(log, scheduler=kept, procs=12)
    schedlab.simulate(log, scheduler=taken, procs=12)
    assert kept.resumable[:2] == [(11, {0}), (15, {0})]
    assert taken.resumable[:2] == [(11, {0}), (15, set())]

    class Wrong(schedlab.Scheduler):
        def schedule(self, state, decision):
            decision.keep_free_for = [0]

    with pytest.raises(ValueError, match="decision.keep_free_for: job 0 is not a suspended job holding processors"):
        schedlab.simulate(log, scheduler=Wrong(), procs=12)
    with pytest.raises(ValueError, match='overrun must be "keep", "kill" or "suspend", not "stop"'):
        schedlab.simulate(KTH, scheduler=type("Bad", (PyFcfs,), {"overrun": "stop"})())


def test_a_python_scheduler_that_returns_nothing_is_told_why(tmp_path):
    """A schedule() without `return` started nothing and the engine said only that jobs were left waiting; one that
    returned a number gave Python's "'int' object is not iterable". Both are named now, with the class's name."""
    class NoReturn(schedlab.Scheduler):
        def schedule(self, state):
            [j[0] for j in state.queue]

    # KTH's first 2,000 jobs: the queue of a scheduler that starts nothing grows to all of them, and every call hands
    # it over (on the whole log, 42 s).
    df, header = schedlab.read_swf(KTH)
    first = (df.head(2000), header)
    with pytest.raises(ValueError, match=r"scheduler NoReturn left 2000 jobs waiting on an idle machine at the end "
                                         r".*; the schedule\(state\) of NoReturn returned None at every call \(no "
                                         r"`return`"):
        schedlab.simulate(first, scheduler=NoReturn())
    # Among other schedulers too (compare and report run it beside them).
    with pytest.raises(ValueError, match=r"the schedule\(state\) of NoReturn returned None at every call"):
        schedlab.compare(first, ["easy", NoReturn()])
    # In a sweep its runs fail alone (status "error: ..."), and a warning says why.
    schedlab.write_swf(df.head(500), tmp_path / "k.swf", header=header)
    with pytest.warns(UserWarning, match=r"the schedule\(state\) of NoReturn returned None at every call"):
        rows = schedlab.sweep({"logs": [str(tmp_path / "k.swf")], "schedulers": [NoReturn(), "easy"]})
    assert rows.status[0].startswith("error: scheduler NoReturn left 500 jobs waiting") and rows.status[1] == "ok"

    class Count(schedlab.Scheduler):
        def schedule(self, state):
            return len(state.queue)

    with pytest.raises(ValueError, match=r"scheduler Count: schedule\(\) returns the ids of the jobs to start now "
                                        r"\(a list of ints\), not 1 \(int\)"):
        schedlab.simulate(KTH, scheduler=Count())

    class Idle(schedlab.Scheduler):  # returns lists, never starting anything: no hint about None
        name = "idle"

        def schedule(self, state):
            return []

    with pytest.raises(ValueError) as e:
        schedlab.simulate(first, scheduler=Idle())
    assert "scheduler idle left" in str(e.value) and "None" not in str(e.value)


def test_each_run_of_a_python_scheduler_is_a_copy():
    """A stateful scheduler gives the same schedule run after run, and the instance held is left as it was: the runs
    shared the instance, so what one run counted changed the next (KTH: a mean wait of 2,282,677.2646 s, then
    2,282,677.2667 s)."""
    import threading

    class Counting(schedlab.Scheduler):  # FCFS, one start per call once it has seen 100 arrivals
        def __init__(self):
            self.arrivals = 0

        def on_arrival(self, state, job):
            self.arrivals += 1

        def schedule(self, state):
            free, start = state.free, []
            for job_id, procs, submit, prediction in state.queue:
                if procs > free or (self.arrivals > 100 and start):
                    break
                start.append(job_id)
                free -= procs
            return start

    df, header = schedlab.read_swf(KTH)
    first = (df.head(2000), header)
    mine = Counting()
    runs = [schedlab.simulate(first, scheduler=mine).jobs for _ in range(2)]
    pd.testing.assert_frame_equal(runs[0], runs[1])
    assert mine.arrivals == 0
    twice = schedlab.compare(first, [mine, "fcfs"])["schedulers"][0]["wait"]["mean"]
    assert twice == pytest.approx(runs[0].wait.mean(), rel=1e-12)

    class Locked(Counting):
        def __init__(self):
            super().__init__()
            self.lock = threading.Lock()

    with pytest.raises(ValueError, match=r"scheduler Locked: each simulation runs a copy of it \(copy.deepcopy\), and "
                                         r"it cannot be copied"):
        schedlab.simulate(first, scheduler=Locked())


def test_a_python_scheduler_that_breaks_the_rules_is_stopped():
    class Greedy(schedlab.Scheduler):
        def schedule(self, state):
            return [j[0] for j in state.queue]  # starts everything, whether it fits or not

    with pytest.raises(ValueError, match="over-commits the machine"):
        schedlab.simulate(KTH, scheduler=Greedy())

    class Twice(schedlab.Scheduler):
        def schedule(self, state):
            return [state.queue[0][0]] * 2 if state.queue else []

    with pytest.raises(ValueError, match=r"started job 0, which is not waiting \(SWF job 1, already running "
                                         r"\(started twice\?\)\)"):
        schedlab.simulate(KTH, scheduler=Twice())

    class PastPromise(schedlab.Scheduler):  # a reservation before now was accepted, then never checked
        def schedule(self, state, decision):
            if state.queue:
                decision.reservations = [(state.queue[0][0], state.now - 5)]

    with pytest.raises(ValueError, match=r"check failed: scheduler PastPromise reserved job 0 \(SWF job 1\) for -5, "
                                         r"before now \(0\)"):
        schedlab.simulate(KTH, scheduler=PastPromise())

    # What a scheduler hands back is named when it has the wrong type (pybind11 said "Unable to cast Python
    # instance to C++ type").
    class Names(schedlab.Scheduler):
        name = "names"

        def schedule(self, state):
            return ["job %d" % j[0] for j in state.queue[:1]]

    with pytest.raises(ValueError, match=r"scheduler names: schedule\(\)'s job ids must be ints, not 'job 0' \(str\)"):
        schedlab.simulate(KTH, scheduler=Names())

    class Wakes(schedlab.Scheduler):
        def schedule(self, state, decision):
            decision.wake_at = "soon"

    with pytest.raises(ValueError, match=r"decision.wake_at must be an int \(a time in seconds\), not 'soon' \(str\)"):
        schedlab.simulate(KTH, scheduler=Wakes())


def test_analyses_equal_the_cli_json():
    assert schedlab.temporal(KTH)["series"] == cli_json("analyze", "temporal", KTH)["series"]
    loc = schedlab.locality(KTH, bootstrap=50)
    c = cli_json("analyze", "locality", KTH, "--bootstrap", "50")
    assert loc["m_prime"] == c["m_prime"] and loc["baseline"] == c["baseline"]
    assert schedlab.runs(KTH, size_only=True)["runs"] == cli_json("analyze", "runs", KTH, "--size-only")["runs"]
    with pytest.raises(ValueError, match="size_only"):
        schedlab.runs(KTH)
    s = schedlab.sessions(KTH, classify=True)
    assert s["session_classes"] == cli_json("sessions", KTH, "--classify")["session_classes"]
    assert schedlab.flurries(KTH)["flurries"] == cli_json("flurries", KTH)["flurries"]
    p = schedlab.predict(KTH, predictor="user-last2")
    assert p["accuracy"] == cli_json("predict", KTH, "--predictor", "user-last2")["accuracy"]
    cmp = schedlab.compare(KTH, ["easy", "conservative"])
    assert cmp["schedulers"] == cli_json("compare", KTH, "--schedulers", "easy,conservative")["schedulers"]


def test_sessions_pool_logs_and_give_the_clis_rows(tmp_path):
    # Several logs pooled, the k-means options, and the session and user rows: the CLI's files read as frames.
    df, _ = schedlab.read_swf(KTH)
    early = df[df["submit_time"] < df["submit_time"].median()]
    early_path = str(tmp_path / "early.swf")
    schedlab.write_swf(early, early_path)
    s_csv, u_csv = str(tmp_path / "s.csv"), str(tmp_path / "u.csv")
    args = ["sessions", KTH, early_path, "--classify", "--seed", "3", "--restarts", "2", "--transform", "log"]
    expected = cli_json(*args, "-o", s_csv, "--users-output", u_csv)
    summary, sessions, users = schedlab.sessions([KTH, early_path], classify=True, seed=3, restarts=2,
                                                 transform="log", rows=True)
    assert summary["user_classes"] == expected["user_classes"]
    assert summary["classify"] == {"seed": 3, "restarts": 2, "transform": "log"}
    pd.testing.assert_frame_equal(sessions, pd.read_csv(s_csv))
    pd.testing.assert_frame_equal(users, pd.read_csv(u_csv))
    assert len(users) == summary["users"] and set(users["log"]) == {"KTH-SP2-1996-2.swf.gz", "early.swf"}
    assert users["class"].value_counts().to_dict() == {k: v["users"] for k, v in summary["user_classes"].items()
                                                       if v["users"] > 0}
    # read_swf's pair is one log here too, as everywhere else (it was taken for a list of two logs and its header
    # refused: "a log is a path, ... not list"); so in every function that takes one log or a list.
    pair = schedlab.read_swf(early_path)
    assert schedlab.sessions(pair)["sessions"] == schedlab.sessions(early_path)["sessions"]
    assert schedlab.fit_estimates(pair, model="song") == schedlab.fit_estimates(early_path, model="song") | \
        {"sources": ["DataFrame"]}
    with pytest.raises(ValueError, match="at least two logs"):
        schedlab.diversity(pair)
    # Without classify there is no user row (the rows carry the user's class).
    _, alone, none = schedlab.sessions(early, rows=True)
    assert none is None and len(alone) == schedlab.sessions(early)["sessions"] and "class" not in alone.columns
    with pytest.raises(ValueError, match="transform 'sqrt': one of none, log"):
        schedlab.sessions(KTH, classify=True, transform="sqrt")
    with pytest.raises(ValueError, match="restarts must be at least 1"):
        schedlab.sessions(KTH, classify=True, restarts=0)
    with pytest.raises(ValueError, match="restarts must be a whole number"):
        schedlab.sessions(KTH, classify=True, restarts=1.5)
    # Numbers beyond the library's integers are named (pybind11 said 'incompatible function arguments'), and an
    # empty list of logs is an error, not an empty study.
    with pytest.raises(ValueError, match="restarts must be at most 2147483647"):
        schedlab.sessions(KTH, classify=True, restarts=10 ** 10)
    with pytest.raises(ValueError, match="bins must be at most 2147483647"):
        schedlab.locality(KTH, bins=10 ** 12)
    with pytest.raises(ValueError, match="max_repetitions must be at most 2147483647"):
        schedlab.generate_locality(KTH, max_repetitions=2 ** 40)
    with pytest.raises(ValueError, match="bsld_tau must be at most 9223372036854775807"):
        schedlab.simulate(KTH, bsld_tau=2 ** 70)
    with pytest.raises(ValueError, match="give at least one log"):
        schedlab.sessions([])
    with pytest.raises(ValueError, match="give at least one log"):
        schedlab.profiler_ingest(tmp_path / "none.db", [])


def test_durations_follow_the_clis_rule():
    # One rule (base/duration.h) for "--slice 1d12h" and slice="1d12h"; Python's own parser read neither "1d12h"
    # nor "1h30m", truncated "1.5s" to 1 and took negative numbers.
    loc = schedlab.locality(KTH, slice="1d12h", bootstrap=5)
    assert loc["m_prime"] == cli_json("analyze", "locality", KTH, "--slice", "1d12h", "--bootstrap", "5")["m_prime"]
    assert loc == schedlab.locality(KTH, slice=129600, bootstrap=5) == schedlab.locality(KTH, slice=129599.5,
                                                                                          bootstrap=5)
    s = schedlab.sessions(KTH, think_time="1h30m")
    assert s["sessions"] == cli_json("sessions", KTH, "--think-time", "1h30m")["sessions"]
    with pytest.raises(ValueError, match="slice: not a duration: '3x'"):
        schedlab.locality(KTH, slice="3x")
    with pytest.raises(ValueError, match="period: not a duration: '-5'"):
        schedlab.compare(KTH, ["easy"], period=-5)
    with pytest.raises(ValueError, match="think_time: not a duration: 'nan'"):
        schedlab.sessions(KTH, think_time=float("nan"))


def test_generators_and_estimate_models_return_dataframes(tmp_path):
    df, rep = schedlab.generate_estimates(KTH, "f", "f=1", seed=3)
    assert (df["requested_time"] >= df["run_time"].clip(lower=1)).all()
    assert rep["assigned"] == len(df)
    # A model named as a sweep spec names it, its parameters after ':' (it was "unknown estimate model").
    same, _ = schedlab.generate_estimates(KTH, "f:f=1", seed=3)
    assert list(same["requested_time"]) == list(df["requested_time"])
    # A fitted model file, as the CLI's --params FILE, gives the CLI's log.
    model = tmp_path / "song.json"
    subprocess.run([CLI, "estimates", "fit", KTH, "--model", "song", "-o", str(model)], check=True, capture_output=True)
    song, _ = schedlab.generate_estimates(KTH, "song", [model, "align_prob=0.5"], seed=2)
    out = tmp_path / "song.swf"
    subprocess.run([CLI, "estimates", "generate", KTH, "--model", "song", "--params", str(model), "--params",
                    "align_prob=0.5", "--seed", "2", "-o", str(out)], check=True, capture_output=True)
    assert list(song["requested_time"]) == list(schedlab.read_swf(out)[0]["requested_time"])
    # The same header note as the CLI's, naming the model, seed and version (Python wrote its own note before).
    notes = [line for line in song.attrs["swf_header"] if "replaced by" in line]
    assert notes == [line for line in schedlab.read_swf(out)[1] if "replaced by" in line]
    want = f"replaced by schedlab {schedlab.__version__} estimates generate --model song --seed 2"
    assert len(notes) == 1 and want in notes[0]
    with pytest.warns(UserWarning, match="132 runtimes above T_max = 180000 s were treated as T_max"):
        _, capped = schedlab.generate_estimates(KTH, "tsafrir", "tmax=50h")
    assert capped["warnings"]
    with pytest.raises(ValueError, match="missing.json: cannot open the parameter file"):
        schedlab.generate_estimates(KTH, "song", tmp_path / "missing.json")
    # A log the model cannot be trained on (or draw from) is named, a file by its path and a frame as such.
    with pytest.raises(ValueError, match="^DataFrame: shfl model: the log has no estimates to shuffle"):
        schedlab.generate_estimates(df.assign(requested_time=-1), "shfl")
    none = tmp_path / "none.swf"
    none.write_text("1 0 0 100 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n")
    with pytest.raises(ValueError, match=f"^{re.escape(str(none))}: song model: no training job"):
        schedlab.generate_estimates(none, "song")
    loc = schedlab.generate_locality(KTH, theta=2.5, jobs=5000, seed=2)
    out = tmp_path / "loc.swf"
    subprocess.run([CLI, "generate", "locality", "--from", KTH, "--theta", "2.5", "--jobs", "5000", "--seed", "2",
                    "-o", str(out)], check=True, capture_output=True)
    ref, _ = schedlab.read_swf(out)
    pd.testing.assert_frame_equal(loc, ref)
    with pytest.warns(UserWarning, match="outside the model's range of 80-300 jobs per day"):
        talby, report = schedlab.generate_talby(procs=128, weeks=8, seed=4, fit=KTH)
    assert len(talby) == report["jobs"]["total"]
    assert talby["requested_procs"].max() <= 128
    # The bundled fit, a saved job layer and the CLI give the same file; the guideline's warnings reach Python.
    with pytest.warns(UserWarning, match="80-300 jobs per day"):
        bundled, bundled_report = schedlab.generate_talby(procs=128, weeks=8, seed=4,
                                                          save_job_model=tmp_path / "jm.json", threads=1)
    schedlab.write_swf(bundled, tmp_path / "py-talby.swf")
    cli = cli_json("generate", "talby", "--procs", "128", "--weeks", "8", "--seed", "4", "-o",
                   str(tmp_path / "cli-talby.swf"))
    assert (tmp_path / "py-talby.swf").read_bytes() == (tmp_path / "cli-talby.swf").read_bytes()
    assert bundled_report == {k: v for k, v in cli.items() if k not in ("command", "output")}
    with pytest.warns(UserWarning, match="80-300 jobs per day"):
        reread, _ = schedlab.generate_talby(procs=128, weeks=8, seed=4, job_model=tmp_path / "jm.json")
    pd.testing.assert_frame_equal(reread, bundled)
    with pytest.warns(UserWarning, match="weeks"):
        _, far = schedlab.generate_talby(procs=128, weeks=200, seed=4, job_model=tmp_path / "jm.json")
    assert far["warnings"]
    with pytest.raises(ValueError, match="fit and job_model both give the job layer"):
        schedlab.generate_talby(procs=128, fit=KTH, job_model=tmp_path / "jm.json")


def test_more_analyses_and_the_profiler_equal_the_cli(tmp_path):
    ctc = os.path.join(ROOT, "..", "shared", "traces", "CTC-SP2-1996-3.1-cln.swf.gz")
    assert schedlab.categorize(KTH)["keys"] == cli_json("categorize", KTH)["keys"]
    assert schedlab.estimate_bins(KTH)["modes"] == cli_json("estimates", "bins", KTH)["modes"]
    fit = schedlab.fit_estimates(KTH)
    assert fit["tmax"] == 216000
    scrambled = schedlab.scramble(KTH, seed=5)
    out = tmp_path / "s.swf"
    subprocess.run([CLI, "generate", "scramble", "--from", KTH, "--seed", "5", "-o", str(out)], check=True,
                   capture_output=True)
    pd.testing.assert_frame_equal(scrambled, schedlab.read_swf(out)[0])
    assert schedlab.compare_estimates(KTH, KTH)["ks"] == 0
    if os.path.exists(ctc):
        d = schedlab.diversity([KTH, ctc])
        c = cli_json("analyze", "diversity", KTH, ctc)
        assert [l["job_weighted"] for l in d["logs"]] == [l["job_weighted"] for l in c["logs"]]
    db = tmp_path / "p.db"
    ingest = schedlab.profiler_ingest(db, [KTH])
    assert ingest["logs"][0]["added"] == 28489 and ingest["database"]["jobs"] == 28489
    # The same log under another identity (--source) is another log to the profiler: learnt again.
    named = schedlab.profiler_ingest(db, KTH, source="kth-copy")
    assert named["logs"][0]["source"] == "kth-copy" and named["logs"][0]["new_source"]
    c = cli_json("profiler", "ingest", KTH, "--db", str(tmp_path / "c.db"), "--source", "kth-copy")
    assert c["logs"][0]["source"] == "kth-copy" and named["logs"][0]["added"] == c["logs"][0]["added"] == 28489
    with pytest.raises(ValueError, match="source names one log"):
        schedlab.profiler_ingest(db, [KTH, KTH], source="x")
    q = schedlab.profiler_query(db, user=3, procs=1)
    c = cli_json("profiler", "query", "--db", str(db), "--user", "3", "--procs", "1")
    assert q["estimate"] == c["estimate"]
    cmp = schedlab.profiler_compare(db, (3, -1, 1, 0), (5, -1, 8, 0))
    c = cli_json("profiler", "compare", "--db", str(db), "--user-a", "3", "--procs-a", "1", "--user-b", "5",
                 "--procs-b", "8")
    assert cmp == {k: v for k, v in c.items() if k in cmp}
    exp = schedlab.generate_profiler_experiment(jobs=200, seed=5)
    subprocess.run([CLI, "generate", "profiler-experiment", "--seed", "5", "-o", str(tmp_path / "e.swf")], check=True,
                   capture_output=True)
    pd.testing.assert_frame_equal(exp, schedlab.read_swf(tmp_path / "e.swf")[0])


class PyEasyWithDecision(PyEasy):
    """The same EASY through schedule(state, decision), with its reservation for the queue head: the engine checks
    the promise (a wrong shadow time would fail the run)."""
    name = "py-easy-decision"

    def schedule(self, state, decision):
        decision.start.extend(PyEasy.schedule(self, state))
        started = set(decision.start)
        waiting = [j for j in state.queue if j[0] not in started]
        if waiting:
            # the head's promise: the latest expected end of any running job (always a valid bound here)
            ends = [r[4] for r in state.running] + [state.now + j[3] for j in state.queue if j[0] in started]
            decision.reservations.append((waiting[0][0], max(ends) if ends else state.now))


def test_schedule_with_a_decision_and_reservations():
    log = schedlab.read_log(KTH)
    mine = schedlab.simulate(log, scheduler=PyEasyWithDecision(), correction="tsafrir")
    ref = schedlab.simulate(log, scheduler="easy", correction="tsafrir")
    pd.testing.assert_frame_equal(mine.jobs, ref.jobs)


def test_read_sacct_folds_a_requeued_jobs_runs_as_convert_does(tmp_path):
    # sacct -D: a requeued job's two runs are one job (its runtime their sum); the runs are partial-execution lines,
    # left out of the DataFrame unless kept, as read_swf leaves them out of a file.
    sacct = tmp_path / "sacct-d.txt"
    sacct.write_text(
        "JobID|User|Submit|Start|End|State|AllocCPUS|Timelimit\n"
        "1|a|2026-01-05T10:00:00|2026-01-05T10:00:10|2026-01-05T10:01:10|REQUEUED|4|01:00:00\n"
        "2|b|2026-01-05T10:00:30|2026-01-05T10:00:30|2026-01-05T10:05:00|COMPLETED|2|00:30:00\n"
        "1|a|2026-01-05T10:01:10|2026-01-05T10:03:00|2026-01-05T10:13:00|COMPLETED|4|01:00:00\n")
    df, header = schedlab.read_sacct(sacct, timezone="UTC")
    assert df.job_number.tolist() == [1, 2] and df.run_time.tolist() == [660, 270]
    assert df.attrs["partial_executions"] == 2
    assert df.attrs["sacct"]["requeued_jobs"] == 1 and df.attrs["sacct"]["partial_executions"] == 2
    kept, _ = schedlab.read_sacct(sacct, timezone="UTC", keep_partial_executions=True)
    assert kept.status.tolist() == [1, 2, 3, 1] and kept.run_time.tolist() == [660, 60, 600, 270]
    subprocess.run([CLI, "convert", "--from", "sacct", "--timezone", "UTC", str(sacct), str(tmp_path / "d.swf")],
                   check=True, capture_output=True)
    cli_df, cli_header = schedlab.read_swf(tmp_path / "d.swf", keep_partial_executions=True)
    pd.testing.assert_frame_equal(kept, cli_df)
    assert header == cli_header
    assert schedlab.stats(df)["records"] == 2
    with pytest.raises(TypeError, match="keep_partial_executions"):
        schedlab.read_sacct(sacct, keep_partial_executions=1)


def test_read_sacct_takes_a_jobid_given_again_as_another_job(tmp_path):
    # Slurm gives a JobID again (its range cycled, its state lost): a row after a run that ended its job is another
    # job, with its own user; the count is in the attrs, as in convert's Note.
    sacct = tmp_path / "sacct-d.txt"
    sacct.write_text(
        "JobID|User|Submit|Start|End|State|AllocCPUS|Timelimit\n"
        "1|a|2026-01-05T10:00:00|2026-01-05T10:00:10|2026-01-05T10:01:10|COMPLETED|4|01:00:00\n"
        "1|b|2026-03-05T10:00:00|2026-03-05T10:00:30|2026-03-05T10:05:00|COMPLETED|2|00:30:00\n")
    df, _ = schedlab.read_sacct(sacct, timezone="UTC")
    assert df.job_number.tolist() == [1, 2] and df.user_id.tolist() == [1, 2] and df.wait_time.tolist() == [10, 30]
    assert df.attrs["sacct"]["reused_ids"] == 1 and df.attrs["sacct"]["requeued_jobs"] == 0
    assert schedlab.names(df) == {1: "a", 2: "b"} and schedlab.names(KTH) == {}
    assert df.user_id.map(schedlab.names(df)).tolist() == ["a", "b"]
    with pytest.raises(ValueError, match="kind must be"):
        schedlab.names(df, "user")
    # The users by the names the converted log keeps in its header, as `filter --users b` takes them.
    assert schedlab.filter_log(df, users="b").job_number.tolist() == [2]
    assert schedlab.filter_log(df, users=[1, "b"]).job_number.tolist() == [1, 2]
    assert schedlab.filter_log(df, exclude_users=["a"]).job_number.tolist() == [2]
    with pytest.raises(ValueError, match="'c' is neither a number nor one of the log's users"):
        schedlab.filter_log(df, users="c")
    with pytest.raises(ValueError, match="header names no partitions"):
        schedlab.filter_log(df, partition="gpu")
    # One partition of a machine the header sizes: warned, as the CLI warns.
    kth = schedlab.read_swf(KTH)[0]
    kth["partition"] = [1 + i % 2 for i in range(len(kth))]
    with pytest.warns(UserWarning, match="partition=2 keeps one partition's jobs, but MaxProcs 100 is the whole"):
        schedlab.filter_log(kth, partition=2)


def test_sacct_distance_and_reports_equal_the_cli(tmp_path):
    # read_sacct gives the log `convert --from sacct` writes, with its counts.
    sacct = tmp_path / "sacct.txt"
    sacct.write_text(
        "State|JobID|JobName|User|Group|Partition|Submit|Start|End|Elapsed|Timelimit|AllocCPUS|ReqCPUS\n"
        "COMPLETED|10|sim|alice|hpc|batch|2026-01-05T10:00:00|2026-01-05T10:00:30|2026-01-05T10:10:30|00:10:00|"
        "01:00:00|4|4\n"
        "COMPLETED|10.batch|batch|||||2026-01-05T10:00:30|2026-01-05T10:10:30|00:10:00||4|4\n"
        "FAILED|11|sim|bob|hpc|batch|2026-01-05T09:00:00|2026-01-05T09:00:00|2026-01-05T09:00:05|00:00:05|"
        "1-00:00:00|1|1\n"
        "CANCELLED by 0|13|big|bob|hpc|batch|2026-01-05T10:20:00|None|2026-01-05T10:30:00|00:00:00|UNLIMITED|0|64\n"
        # a heterogeneous job: one job of 2 + 6 processors
        "COMPLETED|14+0|het|bob|hpc|batch|2026-01-05T10:40:00|2026-01-05T10:41:00|2026-01-05T10:45:00|00:04:00|"
        "00:10:00|2|2\n"
        "COMPLETED|14+1|het|bob|hpc|batch|2026-01-05T10:40:00|2026-01-05T10:41:00|2026-01-05T10:45:00|00:04:00|"
        "00:10:00|6|6\n")
    sacct = str(sacct)
    df, header = schedlab.read_sacct(sacct, timezone="UTC")
    subprocess.run([CLI, "convert", "--from", "sacct", "--timezone", "UTC", sacct, str(tmp_path / "c.swf")],
                   check=True, capture_output=True)
    cli_df, cli_header = schedlab.read_swf(tmp_path / "c.swf")
    pd.testing.assert_frame_equal(df, cli_df)
    assert header == cli_header
    assert len(df) == 3 and df.attrs["sacct"]["steps"] == 1 and df.attrs["sacct"]["unstarted"] == 1
    assert df.attrs["sacct"]["het_components"] == 1 and df.allocated_procs.tolist() == [1, 4, 8]
    with pytest.raises(ValueError, match="MaxProcs"):
        schedlab.read_sacct(sacct, procs=0)
    # A zone the database does not hold was read as UTC without a word.
    with pytest.raises(ValueError, match="'Europe/Stokholm' is not a zone of the time zone database .*did you mean "
                                         "'Europe/Stockholm'"):
        schedlab.read_sacct(sacct, timezone="Europe/Stokholm")
    with pytest.raises(FileNotFoundError):
        schedlab.read_sacct(tmp_path / "none.txt")

    small = schedlab.read_swf(KTH)[0].head(3000)
    d = schedlab.distance(KTH, small)
    c = cli_json("analyze", "distance", KTH, KTH)
    assert schedlab.distance(KTH, KTH)["attributes"] == c["attributes"]
    assert d["a"]["procs"] == 100 and d["attributes"]["runtime"]["count_b"] == 3000

    schedlab.report(small, tmp_path / "r.html", schedulers=["easy"], title="first 3000")
    page = (tmp_path / "r.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "first 3000" in page and "</html>" in page
    schedlab.report(KTH, tmp_path / "k.html", schedulers=["easy"])
    subprocess.run([CLI, "report", KTH, "-o", str(tmp_path / "ck.html"), "-s", "easy"], check=True, capture_output=True)
    assert (tmp_path / "k.html").read_bytes() == (tmp_path / "ck.html").read_bytes()
    schedlab.report(KTH, tmp_path / "k2.html", schedulers=["easy"], class_limits="30m,16")
    subprocess.run([CLI, "report", KTH, "-o", str(tmp_path / "ck2.html"), "-s", "easy", "--class-limits", "30m,16"],
                   check=True, capture_output=True)
    assert (tmp_path / "k2.html").read_bytes() == (tmp_path / "ck2.html").read_bytes()
    assert (tmp_path / "k2.html").read_bytes() != (tmp_path / "k.html").read_bytes()
    with pytest.raises(ValueError, match="class_limits: job class limits '1h,x'"):
        schedlab.report(KTH, tmp_path / "bad.html", schedulers=["easy"], class_limits="1h,x")
    # The schedules at another load, the CLI's page byte for byte.
    schedlab.report(KTH, tmp_path / "k9.html", schedulers=["easy"], load=0.9)
    subprocess.run([CLI, "report", KTH, "-o", str(tmp_path / "ck9.html"), "-s", "easy", "--load", "0.9"],
                   check=True, capture_output=True)
    assert (tmp_path / "k9.html").read_bytes() == (tmp_path / "ck9.html").read_bytes()
    assert '"arrival_scale":0.76409' in (tmp_path / "k9.html").read_text()
    # Estimates extended, as simulate's: the CLI's page byte for byte, its note on the page.
    schedlab.report(KTH, tmp_path / "ke.html", schedulers=["easy"], extend_estimates=True)
    subprocess.run([CLI, "report", KTH, "-o", str(tmp_path / "cke.html"), "-s", "easy", "--extend-estimates"],
                   check=True, capture_output=True)
    assert (tmp_path / "ke.html").read_bytes() == (tmp_path / "cke.html").read_bytes()
    assert "475 jobs had their estimate raised to their runtime" in (tmp_path / "ke.html").read_text()
    assert "raised to their runtime" not in (tmp_path / "k.html").read_text()
    # The warm-up and the slowdown's threshold, as simulate's: the CLI's page byte for byte.
    schedlab.report(KTH, tmp_path / "kw.html", schedulers=["easy"], warmup_fraction=0.01, bsld_tau=60, seed=4)
    subprocess.run([CLI, "report", KTH, "-o", str(tmp_path / "ckw.html"), "-s", "easy", "--warmup-fraction", "0.01",
                    "--bsld-tau", "60", "--seed", "4"], check=True, capture_output=True)
    assert (tmp_path / "kw.html").read_bytes() == (tmp_path / "ckw.html").read_bytes()
    assert '"warmup_excluded":284' in (tmp_path / "kw.html").read_text()
    assert '"warmup_excluded":0' in (tmp_path / "k.html").read_text()
    with pytest.raises(ValueError, match=r"warm-up fraction must be in \[0, 1\), got 1"):
        schedlab.report(KTH, tmp_path / "bad.html", schedulers=["easy"], warmup_fraction=1)
    with pytest.raises(ValueError, match="give either a target load or an arrival scale, not both"):
        schedlab.report(KTH, tmp_path / "bad.html", schedulers=["easy"], load=0.9, arrival_scale=0.5)
    spec = tmp_path / "s.toml"
    spec.write_text(f"logs = ['{KTH}']\nschedulers = ['fcfs', 'easy']\nloads = [0.6, 0.7]\n")
    schedlab.sweep(spec, output=tmp_path / "s.csv")
    schedlab.report_sweep(tmp_path / "s.csv", tmp_path / "s.html")
    subprocess.run([CLI, "report", "--sweep", str(tmp_path / "s.csv"), "-o", str(tmp_path / "c.html")], check=True,
                   capture_output=True)
    assert (tmp_path / "s.html").read_bytes() == (tmp_path / "c.html").read_bytes()
    # An x axis of one value is drawn and warned of, as the CLI does; a metric is not an x axis.
    with pytest.warns(UserWarning, match=r"has the same procs \(the log's own\): the plot is one point per line; "
                                         "the parameters that vary: load, scheduler"):
        schedlab.report_sweep(tmp_path / "s.csv", tmp_path / "p.html", x="procs")
    with pytest.raises(ValueError, match="'wait_mean' is not a parameter of the runs: the x axis is one of load,"):
        schedlab.report_sweep(tmp_path / "s.csv", tmp_path / "p.html", x="wait_mean")
    # A title of one's own, on both kinds of page, the same through the CLI's --title.
    schedlab.report_sweep(tmp_path / "s.csv", tmp_path / "t.html", title="loads 0.6-0.7")
    subprocess.run([CLI, "report", "--sweep", str(tmp_path / "s.csv"), "-o", str(tmp_path / "ct.html"), "--title",
                    "loads 0.6-0.7"], check=True, capture_output=True)
    assert (tmp_path / "t.html").read_bytes() == (tmp_path / "ct.html").read_bytes()
    assert "loads 0.6-0.7" in (tmp_path / "t.html").read_text()
    schedlab.report(KTH, tmp_path / "kt.html", schedulers=["easy"], title="KTH, EASY")
    subprocess.run([CLI, "report", KTH, "-o", str(tmp_path / "ckt.html"), "-s", "easy", "--title", "KTH, EASY"],
                   check=True, capture_output=True)
    assert (tmp_path / "kt.html").read_bytes() == (tmp_path / "ckt.html").read_bytes()
    with pytest.raises(ValueError, match="unknown scheduler"):
        schedlab.report(small, tmp_path / "x.html", schedulers=["nosuch"])
    with pytest.raises(OSError, match="the output is the input log"):
        schedlab.report(KTH, KTH)
    assert not (tmp_path / "x.html").exists()


def test_filter_log_warns_in_the_clis_order(tmp_path):
    # A partition of a machine the header sizes, and a user id the log does not have: the machine's warning, then
    # the id's, as the CLI prints them on standard error (one library list for both).
    path = tmp_path / "parts.swf"
    path.write_text("; MaxProcs: 8\n"
                    "1 0 0 10 4 -1 -1 4 20 -1 1 1 -1 -1 -1 1 -1 -1\n"
                    "2 5 0 10 2 -1 -1 2 20 -1 1 2 -1 -1 -1 2 -1 -1\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        schedlab.filter_log(str(path), users=[1, 2, 99], partition=1)
    got = [str(w.message) for w in caught]
    cli = subprocess.run([CLI, "filter", str(path), "-o", str(tmp_path / "out.swf"), "--users", "1,2,99",
                          "--partition", "1"], check=True, capture_output=True, text=True).stderr
    want = [line[len("schedlab: warning: "):] for line in cli.splitlines() if line.startswith("schedlab: warning: ")]
    assert len(want) == 2 and "whole machine" in want[0] and "--users" in want[1]
    # The same words, naming filter_log's keywords where the CLI names its flags (--procs is simulate's, not its).
    assert got == [w.replace("--partition 1", "partition=1").replace("--users 99", "users=99") for w in want]
    assert "with --procs set to" in got[0]


def test_filter_log_writes_the_clis_file(tmp_path):
    df = schedlab.filter_log(KTH, from_="+30d", to="+60d", min_procs=32)
    assert df.attrs["filter"] == {"records": 28489, "kept": 232, "excluded": {"before_from": 2027,
                                                                              "not_before_to": 24437,
                                                                              "below_min_procs": 1793}}
    schedlab.write_swf(df, tmp_path / "py.swf")
    subprocess.run([CLI, "filter", KTH, "-o", str(tmp_path / "cli.swf"), "--min-procs", "32", "--from", "+30d",
                    "--to", "+60d"], check=True, capture_output=True)
    assert (tmp_path / "py.swf").read_bytes() == (tmp_path / "cli.swf").read_bytes()
    in_seconds = schedlab.filter_log(KTH, from_=30 * 86400, to=60 * 86400, min_procs=32)  # seconds from the start
    pd.testing.assert_frame_equal(in_seconds, df, check_like=False)
    dated = schedlab.filter_log(KTH, from_="1996-10-01", users=[3, 5], drop_flurries=True)
    assert len(dated) == 419 and dated.attrs["filter"]["flurries_dropped"] == 0
    assert any("1996-10-01 (" in line for line in dated.attrs["swf_header"])  # the date and its zone in the notes
    with pytest.raises(ValueError, match=r"from_ \(5184000 s from the log start\) must be before to"):
        schedlab.filter_log(KTH, from_="+60d", to="+30d")
    with pytest.raises(ValueError, match="from_: bad time '1996-13-01'"):
        schedlab.filter_log(KTH, from_="1996-13-01")
    with pytest.raises(ValueError, match="users must be a whole number, not 1.5"):
        schedlab.filter_log(KTH, users=[1.5])
    # A window outside the log (a mistyped year) keeps nothing: the warning says what the log spans.
    with pytest.warns(UserWarning, match="submitted from 1996-09-23 14:00:31 CEST to 1997-08-29 10:34:09 CEST"):
        assert len(schedlab.filter_log(KTH, from_="1997-10-01")) == 0
    # An id the log does not have (a typo): the warning names the log's own, as the CLI's does.
    with pytest.warns(UserWarning, match=r"status=7: no record has status 7 \(the log's: 1 \(20541 records\), 0 "
                                         r"\(7948\)\)"):
        assert len(schedlab.filter_log(KTH, status=7)) == 0


# Each Python function beside the command it mirrors: every option of the command is a parameter of the function
# (named as the flag, '-' as '_'), except those that only choose how the CLI prints or where it writes
# (`presentation`) and those the function names otherwise (`renamed`). An option added to a command and not to
# the module fails here.
PARITY = [
    # function, command, renamed {flag: parameter}, presentation
    ("stats", ["stats"], {}, {"json", "skip-invalid"}),
    ("simulate", ["simulate"], {"class-limits": "by_class"},
     {"json", "jobs-out", "list", "list-schedulers", "markdown", "event-cost"}),
    ("compare", ["compare"], {"class-limits": "by_class"}, {"json", "csv"}),
    ("predict", ["predict"], {"jobs-out": "jobs"}, {"json", "next"}),
    ("predict_next", ["predict"], {"next": "user"}, {"json", "jobs-out"}),
    ("locality", ["analyze", "locality"], {"attr": "attribute"}, {"csv", "json", "skip-invalid"}),
    ("temporal", ["analyze", "temporal"], {"no-hurst": "hurst"},
     {"csv", "series-csv", "series", "bin", "json", "skip-invalid"}),
    ("runs", ["analyze", "runs"], {}, {"csv", "json", "skip-invalid"}),
    ("diversity", ["analyze", "diversity"], {"attr": "attribute"}, {"csv", "json", "skip-invalid"}),
    ("distance", ["analyze", "distance"], {}, {"json", "skip-invalid"}),
    ("flurries", ["flurries"], {}, {"csv", "json", "skip-invalid"}),
    ("sessions", ["sessions"], {"output": "rows", "users-output": "rows"}, {"json", "skip-invalid"}),
    ("categorize", ["categorize"], {}, {"json", "skip-invalid"}),
    ("estimate_bins", ["estimates", "bins"], {}, {"json", "skip-invalid"}),
    ("fit_estimates", ["estimates", "fit"], {}, {"output", "skip-invalid"}),
    ("generate_estimates", ["estimates", "generate"], {}, {"output", "json", "skip-invalid"}),
    ("compare_estimates", ["estimates", "compare"], {}, {"json", "skip-invalid"}),
    ("generate_locality", ["generate", "locality"], {"from": "log"}, {"output"}),
    ("scramble", ["generate", "scramble"], {"from": "log"}, {"output"}),
    ("generate_profiler_experiment", ["generate", "profiler-experiment"], {"training-out": "training_runs"},
     {"output", "json"}),
    ("generate_talby", ["generate", "talby"], {}, {"output", "json"}),
    ("filter_log", ["filter"], {"from": "from_"}, {"output", "skip-invalid"}),
    ("report", ["report"], {}, {"output", "sweep", "metric", "x"}),
    ("report_sweep", ["report"], {"sweep": "results"},
     {"output", "schedulers", "predictor", "correction", "procs", "threads", "class-limits",
      "load", "arrival-scale", "feedback", "kill-at-estimate", "extend-estimates", "warmup-fraction", "bsld-tau",
      "seed"}),
    ("profiler_ingest", ["profiler", "ingest"], {}, {"json"}),
    ("profiler_query", ["profiler", "query"], {"exe": "executable"}, {"json"}),
    ("profiler_compare", ["profiler", "compare"],
     {f"{k}-{j}": j for k in ("user", "exe", "procs", "elapsed") for j in ("a", "b")}, {"json"}),
]


def cli_options(command):
    text = subprocess.run([CLI, *command, "--help"], check=True, capture_output=True, text=True).stdout
    names = set()
    for line in text.splitlines():
        first = line.strip().split(" ")[0]
        if line.startswith("  -"):
            names.update(re.findall(r"--([a-z0-9-]+)", first))
    return names - {"help"}


@pytest.mark.parametrize("function,command,renamed,presentation", PARITY, ids=[p[0] for p in PARITY])
def test_every_cli_option_is_a_python_parameter(function, command, renamed, presentation):
    params = set(inspect.signature(getattr(schedlab, function)).parameters)
    missing = []
    for option in sorted(cli_options(command) - presentation):
        name = renamed.get(option, option.replace("-", "_"))
        if name not in params:
            missing.append(f"--{option} (as {name})")
    assert not missing, f"schedlab.{function} lacks what `schedlab {' '.join(command)}` has: {', '.join(missing)}"


def test_the_options_added_for_parity_give_the_clis_results(tmp_path):
    loc = schedlab.locality(KTH, shift="1d", expected="uniform", bootstrap=5)
    c = cli_json("analyze", "locality", KTH, "--shift", "1d", "--expected", "uniform", "--bootstrap", "5")
    assert loc["m_prime"] == c["m_prime"] and loc["options"] == c["options"]
    with pytest.raises(ValueError, match="expected 'even': one of share, uniform"):
        schedlab.locality(KTH, expected="even")
    # predict: the CLI's default predictor, extended estimates, the per-job rows of --jobs-out.
    assert schedlab.predict(KTH)["accuracy"] == cli_json("predict", KTH)["accuracy"]
    jobs_csv = str(tmp_path / "jobs.csv")
    p = cli_json("predict", KTH, "-p", "user-last2", "--extend-estimates", "--jobs-out", jobs_csv)
    summary, jobs = schedlab.predict(KTH, predictor="user-last2", extend_estimates=True, jobs=True)
    assert summary["accuracy"] == p["accuracy"]
    pd.testing.assert_frame_equal(jobs, pd.read_csv(jobs_csv))
    cmp = schedlab.compare(KTH, ["easy", "fcfs"], correction="tsafrir", predictor="user-last2", kill_at_estimate=True,
                           arrival_scale=0.9, bsld_tau=60, warmup_fraction=0.01, seed=2)
    c = cli_json("compare", KTH, "-s", "easy,fcfs", "-p", "user-last2", "--correction", "tsafrir",
                 "--kill-at-estimate", "--arrival-scale", "0.9", "--bsld-tau", "60", "--warmup-fraction", "0.01",
                 "--seed", "2")
    assert cmp["schedulers"] == c["schedulers"] and cmp["arrival_scale"] == 0.9
    cmp = schedlab.compare(KTH, ["easy", "fcfs"], extend_estimates=True)
    c = cli_json("compare", KTH, "-s", "easy,fcfs", "--extend-estimates")
    assert cmp["schedulers"] == c["schedulers"] and cmp["notes"] == c["notes"]
    assert "475 jobs had their estimate raised to their runtime (--extend-estimates)" in cmp["notes"]
    div = schedlab.diversity([KTH, KTH], bins=12, bootstrap=3, seed=2, expected="uniform")
    c = cli_json("analyze", "diversity", KTH, KTH, "--bins", "12", "--bootstrap", "3", "--seed", "2", "--expected",
                 "uniform")
    assert div["options"] == c["options"] and div["bins"] == c["bins"]
    assert [l["baseline_job_weighted"] for l in div["logs"]] == [l["baseline_job_weighted"] for l in c["logs"]]
    cat = schedlab.categorize(KTH, min_jobs=3, max_jobs=50, parallelism="log2", groups="user", top=5)
    c = cli_json("categorize", KTH, "--min-jobs", "3", "--max-jobs", "50", "--parallelism", "log2", "--groups",
                 "user", "--top", "5")
    assert {k: v for k, v in cat.items() if k in c} == {k: v for k, v in c.items() if k in cat} and "keys" in cat
    with pytest.raises(ValueError, match="groups 'users': one of system, user, queue, parallelism, executable, "
                                         "executable\\+user\\+parallelism"):
        schedlab.categorize(KTH, groups="users")
    bins = schedlab.estimate_bins(KTH, top=3, max_estimate="4h")
    c = cli_json("estimates", "bins", KTH, "--top", "3", "--max-estimate", "4h")
    assert bins["dropped_above_max_estimate"] == c["dropped_above_max_estimate"] > 0 and bins["modes"] == c["modes"]
    # The song model, as `estimates fit --model song` writes it (two logs pooled).
    model_file = tmp_path / "song.json"
    subprocess.run([CLI, "estimates", "fit", KTH, KTH, "--model", "song", "--min-group-jobs", "20", "-o",
                    str(model_file)], check=True, capture_output=True)
    with open(model_file) as f:
        assert schedlab.fit_estimates([KTH, KTH], model="song", min_group_jobs=20) == json.load(f)
    # The fitted model, held as a dict, drives generate_estimates as the file does the CLI.
    est, _ = schedlab.generate_estimates(KTH, "song", schedlab.fit_estimates([KTH, KTH], model="song",
                                                                              min_group_jobs=20), seed=7)
    out_file = tmp_path / "est.swf"
    subprocess.run([CLI, "estimates", "generate", KTH, "--model", "song", "--params", str(model_file), "--seed", "7",
                    "-o", str(out_file)], check=True, capture_output=True)
    pd.testing.assert_frame_equal(est, schedlab.read_swf(out_file)[0])
    with pytest.raises(ValueError, match="the tsafrir model is fitted to one log"):
        schedlab.fit_estimates([KTH, KTH])
    with pytest.raises(ValueError, match="family must be beta or gamma"):
        schedlab.fit_estimates(KTH, model="song", family="normal")
    # An option of the other model would change nothing: refused, not silently unused.
    with pytest.raises(ValueError, match="tmax applies to the tsafrir model only"):
        schedlab.fit_estimates(KTH, model="song", tmax="max")
    with pytest.raises(ValueError, match="family applies to the song model only"):
        schedlab.fit_estimates(KTH, family="gamma")
    # T_max: the log's limit unless asked otherwise; one job at 2^31 - 1 s (a "no limit" sentinel) does not make it.
    df, _ = schedlab.read_swf(KTH)
    df.loc[5, "requested_time"] = 2147483647
    assert schedlab.fit_estimates(df)["tmax"] == 216000 and schedlab.fit_estimates(df)["info"]["above_tmax"] == 1
    assert schedlab.fit_estimates(df, tmax="max")["tmax"] == 2147483647
    four = schedlab.fit_estimates(KTH, tmax="4h")
    c = json.loads(subprocess.run([CLI, "estimates", "fit", KTH, "--tmax", "4h"], check=True, capture_output=True,
                                  text=True).stdout)
    assert four["tmax"] == 14400 and four["info"]["tmax_rule"] == "14400"
    assert four == c
    assert schedlab.fit_estimates(KTH, tmax=14400) == four
    with pytest.raises(ValueError, match="tmax"):
        schedlab.fit_estimates(KTH, tmax="largest")
    gen = tmp_path / "g.swf"
    subprocess.run([CLI, "generate", "locality", "--from", KTH, "--jobs", "500", "--repeat", "size", "--arrivals",
                    "log", "--think", "30", "--max-repetitions", "50", "--seed", "4", "-o", str(gen)], check=True,
                   capture_output=True)
    mine = schedlab.generate_locality(KTH, jobs=500, repeat="size", arrivals="log", think=30, max_repetitions=50,
                                      seed=4)
    pd.testing.assert_frame_equal(mine, schedlab.read_swf(gen)[0])
    # --cut-tail / cut_tail: the same jobs without the repeats after the last run start (seed 1 has some).
    subprocess.run([CLI, "generate", "locality", "--from", KTH, "--cut-tail", "-o", str(gen)], check=True,
                   capture_output=True)
    cut, full = schedlab.generate_locality(KTH, cut_tail=True), schedlab.generate_locality(KTH)
    pd.testing.assert_frame_equal(cut, schedlab.read_swf(gen)[0])
    last_start = full.loc[full["preceding_job"] == -1, "submit_time"].max()
    kept = full[full["submit_time"] <= last_start]
    assert 0 < len(full) - len(cut) == len(full) - len(kept)
    assert (cut["run_time"].to_numpy() == kept["run_time"].to_numpy()).all()
    exp, training = schedlab.generate_profiler_experiment(jobs=50, seed=3, training_runs=4)
    out, train_out = tmp_path / "e.swf", tmp_path / "t.swf"
    subprocess.run([CLI, "generate", "profiler-experiment", "--jobs", "50", "--seed", "3", "--training-runs", "4",
                    "--training-out", str(train_out), "-o", str(out)], check=True, capture_output=True)
    pd.testing.assert_frame_equal(training, schedlab.read_swf(train_out)[0])
    pd.testing.assert_frame_equal(exp, schedlab.read_swf(out)[0])


def test_choices_and_limits_are_the_librarys():
    """A choice's names and a limit's range come from the library, as for the CLI: a bad value names the
    parameter and what it may be, before any work is done."""
    cases = [
        (lambda: schedlab.categorize(KTH, parallelism="sqrt"), "parallelism 'sqrt': one of exact, log2"),
        (lambda: schedlab.categorize(KTH, top=-1), "top must be >= 0"),
        (lambda: schedlab.locality(KTH, attribute="memory"),
         "attribute 'memory': one of runtime, procs, cpu, estimate, interarrival"),
        (lambda: schedlab.diversity([KTH, KTH], expected="even"), "expected 'even': one of share, uniform"),
        (lambda: schedlab.generate_locality(KTH, repeat="Job"), "repeat 'Job': one of job, runtime, size"),
        (lambda: schedlab.generate_locality(KTH, arrivals="uniform"), "arrivals 'uniform': one of poisson, log"),
        (lambda: schedlab.estimate_bins(KTH, max_estimate=0), "estimate limit must be 1 s to 2\\^31 - 1 s, got 0 s"),
        (lambda: schedlab.estimate_bins(KTH, max_estimate=2**31), "got 2147483648 s"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError, match=message):
            call()
    # A log without estimates has nothing to compare: named by its path, or by its role for a DataFrame.
    frame = schedlab.read_swf(KTH)[0].assign(requested_time=-1)
    with pytest.raises(ValueError, match="the model log: no job has an estimate"):
        schedlab.compare_estimates(KTH, frame)
    # The largest limit keeps every job (it was cut to 32 bits before the library's check).
    assert schedlab.estimate_bins(KTH, max_estimate=2**31 - 1)["dropped_above_max_estimate"] == 0


def test_missing_values_in_any_numeric_column_are_minus_one():
    """NaN in a float column and pd.NA in a nullable Int64/Float64 column (what read_csv and merges give) are the
    SWF's -1, the same log as one written with -1; a nullable column was 'not numeric' before."""
    df = schedlab.read_swf(KTH)[0].head(300)
    unknown = df.index % 7 == 3
    with_minus_one = df.assign(run_time=df.run_time.where(~unknown, -1), user_id=df.user_id.where(~unknown, -1))
    expected = schedlab.simulate(with_minus_one, "easy", procs=100).jobs
    as_float = df.assign(run_time=df.run_time.where(~unknown, float("nan")))
    as_float = as_float.assign(user_id=as_float.user_id.astype("float64").where(~unknown, float("nan")))
    nullable = df.assign(run_time=df.run_time.astype("Int64").where(~unknown, pd.NA),
                         user_id=df.user_id.astype("Float64").where(~unknown, pd.NA))
    for frame in (as_float, nullable):
        pd.testing.assert_frame_equal(schedlab.simulate(frame, "easy", procs=100).jobs, expected)
    with pytest.raises(ValueError, match="column run_time: not numeric"):
        schedlab.simulate(df.assign(run_time="x"), "easy")


def test_a_misnamed_swf_column_is_warned_about():
    """A missing SWF column is -1 (unknown): a run_time named "runtime" excluded every job as a negative runtime,
    a misspelt requested_time ran the log without estimates, with nothing said. A column that looks like a
    missing field is now named with the rename to make; the user's own columns, and frames that are whole, are
    not."""
    import warnings
    df = schedlab.read_swf(KTH)[0].head(300)
    for given, meant in (("runtime", "run_time"), ("Submit Time", "submit_time"), ("wait", "wait_time"),
                         ("procs", "requested_procs"), ("requested_tim", "requested_time"), ("user", "user_id")):
        with pytest.warns(UserWarning, match=f"column '{given}' is not an SWF column, and '{meant}' is missing") as w:
            try:
                schedlab.simulate(df.rename(columns={meant: given}), "easy", procs=100)
            except ValueError:
                pass  # no job left to simulate (run_time, submit_time): the warning said why
        assert w[0].filename == __file__  # the user's line, not the package's
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        schedlab.simulate(df.assign(my_note="x", runtime_h=df.run_time / 3600), "easy", procs=100)
        schedlab.simulate(df[["submit_time", "run_time", "requested_procs", "requested_time"]].assign(cost=1.0),
                          "easy", procs=100)


def test_a_value_of_the_wrong_type_is_named():
    """A text or number parameter given something else is a TypeError naming it (pybind11 said 'incompatible
    function arguments' and listed the whole signature)."""
    cases = [
        (lambda: schedlab.simulate(KTH, scheduler=None), "scheduler must be a text, not NoneType None"),
        (lambda: schedlab.simulate(KTH, "easy", predictor=-1), "predictor must be a text, not int -1"),
        (lambda: schedlab.simulate(KTH, "easy", load="x"), "load must be a number, not str 'x'"),
        (lambda: schedlab.compare(KTH, "easy,fcfs"), "schedulers must be a list of specs or schedlab.Scheduler instances, not str 'easy,fcfs'"),
        (lambda: schedlab.compare(KTH, ["easy", 3]), r"schedulers\[\] must be a text, not int 3"),
        (lambda: schedlab.generate_talby(cpu_work="x", jobs_per_day=100), "cpu_work must be a number, not str 'x'"),
        (lambda: schedlab.categorize(KTH, groups=1.5), "groups must be a text, not float 1.5"),
        (lambda: schedlab.locality(KTH, attribute=None), "attribute must be a text, not NoneType None"),
        # Found by calling every public function with values of every wrong type: these three still had
        # pybind11's message.
        (lambda: schedlab.generate_estimates(KTH, None), "model must be a text, not NoneType None"),
        (lambda: schedlab.profiler_ingest("/nonexistent/p.db", [KTH], source=1.5), "source must be a text"),
        (lambda: schedlab.read_sacct(KTH, timezone=-1), "timezone must be a text, not int -1"),
    ]
    for call, message in cases:
        with pytest.raises(TypeError, match=message):
            call()
    # None still means "not given" where it did, and a NumPy number is a number.
    assert schedlab.simulate(KTH, "easy", predictor=None, load=np.float64(0.5)).metrics["offered_load"] == \
        pytest.approx(0.5, abs=0.01)


def test_header_values_that_do_not_parse_are_warned_about(tmp_path):
    """'; MaxProcs: abc' is ignored (the machine size then comes from the largest job): a warning naming the file
    and line, from read_swf and from any function given the path, and listed by stats."""
    p = tmp_path / "h.swf"
    p.write_text("; MaxProcs: abc\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n")
    message = r"h.swf: header line 1: MaxProcs: cannot parse 'abc' as a non-negative integer \(ignored\)"
    with pytest.warns(UserWarning, match=message) as caught:
        schedlab.read_swf(p)
    assert caught[0].filename == __file__  # the warning points at the caller's line
    with pytest.warns(UserWarning, match=message) as caught:
        s = schedlab.stats(p)
    assert caught[0].filename == __file__
    for run in (lambda: schedlab.diversity([p, p], bootstrap=2), lambda: schedlab.sessions([p]),
                lambda: schedlab.fit_estimates([p], model="song")):  # the functions that take a list of logs
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                run()
            except ValueError:
                pass  # a one-job log may be too small for the analysis; the warning came before
        assert [w.filename for w in caught if "MaxProcs" in str(w.message)][:1] == [__file__]
    spec = tmp_path / "s.toml"
    spec.write_text("logs = 'h.swf'\nschedulers = ['fcfs', 'easy']\n")
    for output in (None, tmp_path / "r.csv"):  # a sweep warns once per log, as the CLI's
        with pytest.warns(UserWarning, match=message) as caught:
            schedlab.sweep(spec, output=output)
        assert [w.filename for w in caught] == [__file__]
    assert s["read"]["header_problems"] == ["line 1: MaxProcs: cannot parse 'abc' as a non-negative integer"]
    assert s["machine"]["source"] == "largest job"
    z = tmp_path / "z.swf"
    z.write_text("; UnixStartTime: 842565631\n; TimeZoneString: Nowhere/City\n"
                 "1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n")
    with pytest.warns(UserWarning, match="TimeZoneString 'Nowhere/City' is not in the time zone database"):
        schedlab.read_swf(z)


def test_sacct_rows_with_times_out_of_order_are_warned_about(tmp_path):
    """A Start before the Submit, or an End before the Start, gives 0 — said, not hidden."""
    p = tmp_path / "s.txt"
    p.write_text("JobID|Submit|Start|End|State|AllocCPUS|Timelimit\n"
                 "1|2026-01-05T10:00:00|2026-01-05T09:59:00|2026-01-05T10:01:00|COMPLETED|1|10\n"
                 "2|2026-01-05T10:00:00|2026-01-05T10:00:00|2026-01-05T10:01:00|COMPLETED|1|10\n")
    with pytest.warns(UserWarning, match=re.escape(f"{p}:2: 1 job(s) started before their submit time (the first here): "
                                                   "wait set to 0")):
        df, _ = schedlab.read_sacct(p, timezone="UTC")
    assert df.attrs["sacct"]["start_before_submit"] == 1 and df.attrs["sacct"]["end_before_start"] == 0
    assert list(df["wait_time"]) == [0, 0] and list(df["run_time"]) == [120, 60]


def test_a_dataframe_is_checked_as_a_file_is(tmp_path):
    """The reader's counts for a DataFrame: duplicate job numbers and submit order, each first at its 1-based row,
    as stats reports them for the same records written to a file (they read 0 for every DataFrame)."""
    df, _ = schedlab.read_swf(KTH)
    df = df.head(20).copy()
    df.loc[5, "job_number"] = df.loc[2, "job_number"]
    df.loc[9, "submit_time"] = 0
    from_frame = schedlab.stats(df)["read"]["warnings"]
    assert from_frame["duplicate_job_number"] == {"count": 1, "first_line": 6}
    assert from_frame["submit_out_of_order"] == {"count": 1, "first_line": 10}
    schedlab.write_swf(df, tmp_path / "d.swf")
    from_file = schedlab.stats(tmp_path / "d.swf")["read"]["warnings"]
    header_lines = len(df.attrs["swf_header"])
    assert {k: v["count"] for k, v in from_file.items()} == {k: v["count"] for k, v in from_frame.items()}
    assert from_file["duplicate_job_number"]["first_line"] == 6 + header_lines
    # Fractions are counted alike (a float column's said 0 decimal fields, the file it writes 2).
    df["avg_cpu_time"] = df["avg_cpu_time"].astype(float)
    df.loc[[3, 4], "avg_cpu_time"] = [107.77, 0.5]
    schedlab.write_swf(df, tmp_path / "f.swf")
    assert schedlab.stats(df)["read"]["decimal_fields"] == 2
    assert schedlab.stats(tmp_path / "f.swf")["read"]["decimal_fields"] == 2
    with pytest.raises(ValueError, match="^DataFrame: the log has no job"):
        schedlab.distance(df.iloc[0:0], df)


def test_date_and_duration_columns_are_refused_with_the_conversion_to_use():
    """datetime64 / timedelta64 columns were read as nanoseconds: 'outside the 32-bit range' at row 1."""
    df, _ = schedlab.read_swf(KTH)
    head = df.head(5)
    with pytest.raises(TypeError, match=r"column submit_time: datetime64\[ns\] values; SWF columns hold seconds from "
                                        r"the log start \(e.g. \(df.submit_time - start\).dt.total_seconds\(\)\)"):
        schedlab.stats(head.assign(submit_time=pd.to_datetime(head.submit_time, unit="s")))
    with pytest.raises(TypeError, match=r"column run_time: timedelta64\[ns\] values; .*df.run_time.dt.total_seconds"):
        schedlab.simulate(head.assign(run_time=pd.to_timedelta(head.run_time, unit="s")), scheduler="easy")
    seconds = head.assign(run_time=pd.to_timedelta(head.run_time, unit="s").dt.total_seconds())
    assert schedlab.stats(seconds) == schedlab.stats(head)


def test_profiler_ingests_a_dataframe_as_its_file(tmp_path):
    """A DataFrame is learnt as the file it came from (same identity, so the same jobs are not learnt twice); one
    without UnixStartTime needs a source. It iterated the DataFrame's column names as paths ('job_number: cannot
    open')."""
    df, _ = schedlab.read_swf(KTH)
    head = df.head(500)
    from_frame = schedlab.profiler_ingest(tmp_path / "f.db", head)
    schedlab.write_swf(head, tmp_path / "h.swf")
    from_file = schedlab.profiler_ingest(tmp_path / "p.db", tmp_path / "h.swf")
    assert from_frame["database"] == from_file["database"] | {"sources": from_frame["database"]["sources"]}
    assert from_frame["logs"][0]["source"] == from_file["logs"][0]["source"]
    assert from_frame["logs"][0]["added"] == from_file["logs"][0]["added"] > 0
    again = schedlab.profiler_ingest(tmp_path / "p.db", [head])
    assert again["logs"][0]["added"] == 0 and again["logs"][0]["already_present"] == from_file["logs"][0]["added"]
    pair = schedlab.profiler_ingest(tmp_path / "p.db", schedlab.read_swf(tmp_path / "h.swf"))  # one log, not two
    assert len(pair["logs"]) == 1 and pair["logs"][0]["already_present"] == from_file["logs"][0]["added"]
    bare = head.copy()
    bare.attrs["swf_header"] = []
    with pytest.raises(ValueError, match="DataFrame: a log held in memory without UnixStartTime in its header needs "
                                         "a source"):
        schedlab.profiler_ingest(tmp_path / "b.db", bare)
    assert schedlab.profiler_ingest(tmp_path / "b.db", bare, source="mine")["logs"][0]["source"] == "mine"


def test_a_sweep_spec_file_that_is_missing_is_named(tmp_path):
    """A one-line text without '=' is a spec file's name: missing, it is said so (it was parsed as TOML text)."""
    missing = str(tmp_path / "nowhere.toml")
    with pytest.raises(ValueError, match=re.escape(missing) + ": cannot open the sweep spec"):
        schedlab.sweep(missing)
    with pytest.raises(ValueError, match="<spec>: logs: missing"):
        schedlab.sweep("schedulers = ['easy']")  # TOML text


def test_a_csv_log_is_read_by_its_name(tmp_path):
    """The CSV `schedlab convert` writes reads back as the same DataFrame, and any function takes its path."""
    df, header = schedlab.read_swf(KTH)
    subprocess.run([CLI, "convert", KTH, str(tmp_path / "k.csv")], check=True, capture_output=True)
    back, back_header = schedlab.read_swf(tmp_path / "k.csv")
    pd.testing.assert_frame_equal(back, df)
    assert back_header == header
    assert schedlab.stats(tmp_path / "k.csv")["distributions"] == schedlab.stats(KTH)["distributions"]
    schedlab.write_swf(df, tmp_path / "w.csv")  # a CSV name writes the CSV
    assert (tmp_path / "w.csv").read_bytes() == (tmp_path / "k.csv").read_bytes()


def test_the_32_bit_extremes_round_trip_through_a_dataframe(tmp_path):
    """2^31 - 1 is a value real logs hold (CEA-Curie's requested time of 2147483647 s): a DataFrame from read_swf
    must be taken back (it was 'outside the 32-bit range'). One past either end is refused."""
    p = tmp_path / "x.swf"
    p.write_text("; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 2147483647 -1 1 1 1 1 1 1 -1 -2147483648\n")
    df, _ = schedlab.read_swf(p)
    schedlab.write_swf(df, tmp_path / "y.swf")
    assert (tmp_path / "y.swf").read_text() == p.read_text()
    for value in (2147483648, -2147483649):
        with pytest.raises(ValueError, match="outside the 32-bit range"):
            schedlab.stats(df.assign(think_time=value))


def test_the_examples_of_docs_python_md_run(tmp_path, monkeypatch):
    # Every ```python block of docs/python.md, run as written in a directory holding the files it names (its
    # generate_estimates(df, "tsafrir") line had failed on KTH, where the vanilla model is infeasible).
    text = open(os.path.join(ROOT, "docs", "python.md")).read()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 2
    cli = os.path.abspath(CLI)
    monkeypatch.chdir(tmp_path)
    os.symlink(os.path.join(ROOT, "data"), "data")
    with gzip.open(KTH, "rt") as f:  # a second log for the pooled sessions: KTH's first 2,000 lines
        open("b.swf", "w").write("".join(line for _, line in zip(range(2000), f)))
    open("sweep.toml", "w").write('logs = ["data/KTH-SP2-1996-2.swf.gz"]\nschedulers = ["easy", "fcfs"]\n')
    open("sacct.txt", "w").write(
        "JobID|User|Submit|Start|End|Timelimit|State|AllocCPUS\n"
        "1|u1|2026-01-01T10:00:00|2026-01-01T10:00:05|2026-01-01T10:10:00|01:00:00|COMPLETED|4\n")
    subprocess.run([cli, "estimates", "fit", KTH, "--model", "song", "-o", "song.json"], check=True, capture_output=True)
    subprocess.run([cli, "sweep", "sweep.toml", "--slurm", "array"], check=True, capture_output=True)
    for task in ("0", "1"):  # the array's tasks, as Slurm would run them
        subprocess.run(["bash", "array/sweep.sbatch"], check=True, capture_output=True,
                       env=dict(os.environ, SLURM_ARRAY_TASK_ID=task))
    scope = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the docs' logs are what they are; warnings are tested elsewhere
        for block in blocks:
            exec(compile("import schedlab\n" + block, "docs/python.md", "exec"), scope)
    assert os.path.exists("kth.html") and os.path.exists("sweep.html") and os.path.exists("r.csv")


def test_a_header_and_a_file_name_that_are_not_utf8(tmp_path):
    # A Latin-1 header line made read_swf raise UnicodeDecodeError, and a file name that is not UTF-8 (a str with
    # lone surrogates, as os.fsdecode gives it) could not be passed at all. Header bytes now round-trip exactly.
    raw = (b"; Computer: caf\xe9 machine\n; MaxProcs: 10\n; UnixStartTime: 800000000\n"
           b"1 0 0 10 1 -1 -1 1 60 -1 1 1 1 1 1 -1 -1 -1\n2 40 0 10 2 -1 -1 2 60 -1 1 2 1 1 1 -1 -1 -1\n")
    path = os.fsdecode(os.path.join(os.fsencode(tmp_path), b"caf\xe9.swf"))
    with open(path, "wb") as f:
        f.write(raw)
    df, header = schedlab.read_swf(path)
    assert header[0] == "; Computer: caf\udce9 machine"
    out = tmp_path / "copy.swf"
    schedlab.write_swf(df, out)
    assert out.read_bytes() == raw
    assert schedlab.stats(df)["records"] == 2
    assert schedlab.simulate(path, scheduler="easy").metrics["jobs"]["simulated"] == 2
    src = schedlab.profiler_ingest(tmp_path / "p.db", [path])["database"]["sources"][0]["identity"]
    assert src.startswith("UnixStartTime=800000000; Computer=caf")
    with pytest.raises(ValueError, match="unknown scheduler"):
        schedlab.simulate(path, scheduler="nosuch")
    with pytest.raises(FileNotFoundError, match="missing"):
        schedlab.stats(os.fsdecode(os.path.join(os.fsencode(tmp_path), b"missing\xe9.swf")))


def test_ctrl_c_stops_a_sweep_and_the_same_call_resumes(tmp_path):
    # Ctrl-C during a sweep went unseen until its last run (the GIL released, Python's handler only ran after);
    # now the runs under way finish, the file holds whole rows, KeyboardInterrupt is raised, and the same call
    # resumes to the rows of an uninterrupted sweep.
    import signal
    spec = tmp_path / "s.toml"
    spec.write_text(f'logs = ["{KTH}"]\nschedulers = ["conservative"]\n'
                    f'loads = [{", ".join(str(0.5 + 0.03 * i) for i in range(16))}]\n')
    out = tmp_path / "r.csv"

    def interrupt_after_first_row():
        for _ in range(3000):
            if out.exists() and len(out.read_text().splitlines()) >= 2:
                break
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGINT)

    old = signal.signal(signal.SIGINT, signal.default_int_handler)  # a background job may have inherited SIG_IGN
    try:
        timer = threading.Thread(target=interrupt_after_first_row)
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            schedlab.sweep(spec, output=out, threads=1)
        timer.join()
    finally:
        signal.signal(signal.SIGINT, old)
    text = out.read_text()
    assert text.endswith("\n")
    assert 2 <= len(text.splitlines()) < 17  # the header and some rows, not all 16
    resumed = schedlab.sweep(spec, output=out, threads=1)
    reference = schedlab.sweep(spec, threads=1)
    assert len(resumed) == 16
    pd.testing.assert_frame_equal(resumed.drop(columns="wall_seconds"), reference.drop(columns="wall_seconds"))


def test_a_sweep_in_memory_in_csv_and_in_json_lines_is_one_dataframe(tmp_path):
    # Values and column types: in memory, `procs` and the accuracy columns were object columns of None, and the
    # JSON lines float64 where the CSV had int64 (arrival_scale 1, wait_median 12681).
    spec = f'logs = ["{KTH}"]\nschedulers = ["easy", "fcfs"]\nloads = [0.9]\n'
    frames = [schedlab.sweep(spec), schedlab.sweep(spec, output=tmp_path / "r.csv"),
              schedlab.sweep(spec, output=tmp_path / "r.jsonl")]
    assert frames[0]["arrival_scale"].dtype == np.int64 and frames[0]["procs"].dtype == np.float64
    for f in frames[1:]:
        pd.testing.assert_frame_equal(f.drop(columns="wall_seconds"), frames[0].drop(columns="wall_seconds"))


def test_a_sweep_spec_given_as_a_dict_is_its_toml():
    # A dict had failed with "incompatible function arguments"; now it is the TOML file's keys and tables.
    as_dict = schedlab.sweep({"logs": [KTH], "schedulers": ["easy", "fcfs"], "loads": [0.7, 0.8], "seeds": 1,
                              "kill_at_estimate": False, "exclude": [{"scheduler": "fcfs", "load": 0.8}],
                              "include": [{"scheduler": "conservative", "load": 0.7}]})
    as_text = schedlab.sweep(f'logs = ["{KTH}"]\nschedulers = ["easy", "fcfs"]\nloads = [0.7, 0.8]\nseeds = 1\n'
                             'kill_at_estimate = false\n[[exclude]]\nscheduler = "fcfs"\nload = 0.8\n'
                             '[[include]]\nscheduler = "conservative"\nload = 0.7\n')
    assert list(as_dict["scheduler"]) == ["easy", "easy", "fcfs", "conservative"]
    pd.testing.assert_frame_equal(as_dict.drop(columns="wall_seconds"), as_text.drop(columns="wall_seconds"))
    with pytest.raises(TypeError, match="spec is a path, a TOML text or a dict, not int"):
        schedlab.sweep(123)
    with pytest.raises(TypeError, match="sweep spec: loads: a text, number, boolean or list, not dict"):
        schedlab.sweep({"logs": [KTH], "loads": {"a": 1}})
    with pytest.raises(ValueError, match="nosuch"):  # the library's own check of the key
        schedlab.sweep({"logs": [KTH], "nosuch": 1})


# The bounds on how soon Ctrl-C takes effect, as multiples of the release build's: under the sanitizers (the debug
# preset, whose runtime CMakeLists.txt preloads into Python) the library runs about ten times slower, and the step
# under way with it.
SLOWER = 10 if "libasan" in os.environ.get("LD_PRELOAD", "") else 1


def seconds_to_interrupt(call, after):
    """Runs call() with Ctrl-C (SIGINT) sent `after` seconds in: it must raise KeyboardInterrupt. Returns the
    seconds the call took. A call that returns first fails the check, and its signal is called off (it would
    interrupt whatever ran next)."""
    import signal
    old = signal.signal(signal.SIGINT, signal.default_int_handler)  # a background job may have inherited SIG_IGN
    timer = threading.Timer(after, lambda: os.kill(os.getpid(), signal.SIGINT))
    try:
        timer.start()
        t0 = time.time()
        with pytest.raises(KeyboardInterrupt):
            call()
        return time.time() - t0
    finally:
        timer.cancel()
        timer.join()
        signal.signal(signal.SIGINT, old)


def test_ctrl_c_stops_a_long_simulation(tmp_path):
    # simulate, compare, report and predict ran to their end whatever Ctrl-C said (the GIL released); they now stop
    # within 0.2 s of simulated or replayed progress. The report is the witness: stopped, it writes no page.
    curie = os.path.join(ROOT, "..", "shared", "traces", "CEA-Curie-2011-2.1-cln.swf.gz")
    if not os.path.exists(curie):
        pytest.skip("../shared/traces is absent")
    log = schedlab.read_log(curie)
    out = str(tmp_path / "interrupted-report.html")
    for call in (lambda: schedlab.report(log, out, schedulers=["flex", "easy"]),
                 lambda: schedlab.simulate(log, scheduler="flex"),
                 lambda: schedlab.compare(log, ["flex", "easy"]),
                 # a median over each user's last 1,000 jobs, propagated to the queue: 11 s to the end here
                 lambda: schedlab.predict(log, predictor="ruh:jobs=1000;propagate=1")):
        # Stopped: about 1.2 s. Run to the end, flex alone takes 6 s here, the replay 11 s (a KeyboardInterrupt
        # raised after the call returned would pass the raises check, not this one).
        assert seconds_to_interrupt(call, 1.0) < 4.5 * SLOWER
        assert not os.path.exists(out)
    assert schedlab.simulate(KTH, scheduler="easy").metrics["jobs"]["simulated"] == 28489  # and it runs on


def test_ctrl_c_stops_the_temporal_analysis_of_a_misdated_log(tmp_path):
    # One job dated 2,000,000,000 s after the log start (a timestamp written as a Unix time) makes the 1-minute
    # series of the Hurst estimates 33 million values: 24 s to the end here. Ctrl-C now ends it after the step
    # under way (about 1.7 s after the signal); it used to run to the end.
    lines = gzip.open(KTH, "rt").read().splitlines()
    data = [i for i, line in enumerate(lines) if line.strip() and not line.startswith(";")]
    fields = lines[data[999]].split()
    fields[1] = "2000000000"
    lines[data[999]] = " ".join(fields)
    misdated = tmp_path / "misdated.swf"
    misdated.write_text("\n".join(lines) + "\n")
    log = schedlab.read_log(str(misdated))
    assert seconds_to_interrupt(lambda: schedlab.temporal(log), 1.0) < 8 * SLOWER
    assert schedlab.temporal(log, hurst=False)["span_days"] == pytest.approx(2000000000 / 86400)


def test_ctrl_c_stops_a_long_bootstrap_or_classification():
    # A million bootstrap rounds of locality take minutes; Ctrl-C now ends them at the next 64 rounds (the bound
    # below is 100 times what that takes here, so that only a bootstrap that runs on fails it).
    assert seconds_to_interrupt(lambda: schedlab.locality(KTH, bootstrap=10**6), 0.5) < 60 * SLOWER
    # The k-means restarts of the session classes too (100,000 take about 15 minutes here).
    assert seconds_to_interrupt(lambda: schedlab.sessions(KTH, classify=True, restarts=100000), 0.5) < 60 * SLOWER
