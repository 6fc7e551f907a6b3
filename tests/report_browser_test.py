#!/usr/bin/env python3
"""The report in a real browser: `schedlab report` pages loaded in headless Debian chromium through chromedriver.

For each page: it loads with no console error, requests nothing (no resource entry beyond the page itself), every
chart renders with marks in it (the page's schedlabMarkCounts() counts the marks of each layer of each Vega
scenegraph; a chart or a layer with none fails), and a screenshot of each section is kept in OUT_DIR. The checker is itself checked: a page whose daily-cycle
data was emptied must be reported as failing.

usage: report_browser_test.py SCHEDLAB_BINARY KTH_LOG OUT_DIR [LOG...]     (exit 77: no chromium / chromedriver /
       selenium). Each further LOG that exists gets a report with the default options too (under 5 MB, checked), and
       so do small logs at the edge written into OUT_DIR (one job; no estimates; a long drain; an unknown zone).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def skip(why):
    print(f"SKIP: {why}")
    sys.exit(77)


try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
except ImportError:
    skip("python3-selenium is not installed (scripts/bootstrap.sh)")
for tool in ("/usr/bin/chromium", "/usr/bin/chromedriver"):
    if not os.path.exists(tool):
        skip(f"{tool} is missing (scripts/bootstrap.sh installs chromium and chromium-driver)")

schedlab, kth, out_dir = sys.argv[1:4]
more_logs = [p for p in sys.argv[4:] if os.path.exists(p)]
os.makedirs(out_dir, exist_ok=True)
# Logs at the edge, whose page must still have no empty chart: one job (no inter-arrival), no estimates.
EDGE_LOGS = {
    "edge-one-job.swf": "; MaxProcs: 8\n1 0 5 100 4 -1 -1 4 200 -1 1 7 1 3 -1 -1 -1 -1\n",
    "edge-no-estimates.swf": "; MaxProcs: 8\n; UnixStartTime: 1000000000\n"
                             "1 0 5 100 4 -1 -1 4 -1 -1 1 7 1 3 -1 -1 -1 -1\n"
                             "2 60 5 100 4 -1 -1 4 -1 -1 1 7 1 3 -1 -1 -1 -1\n",
    # Submitted a second apart, running 15 years one after the other: the timeline spans the drain (its bins were
    # once sized for the 1 s of submissions: hundreds of MB of page).
    "edge-long-drain.swf": "; MaxProcs: 4\n1 0 0 473040000 4 -1 -1 4 473040000 -1 1 7 1 3 -1 -1 -1 -1\n"
                           "2 1 0 473040000 4 -1 -1 4 473040000 -1 1 7 1 3 -1 -1 -1 -1\n",
    # A job submitted before the one above it (a misdated job): the reader's warning is on the page.
    "edge-out-of-order.swf": "; MaxProcs: 8\n"
                             "1 3600 5 100 4 -1 -1 4 200 -1 1 7 1 3 -1 -1 -1 -1\n"
                             "2 0 5 100 4 -1 -1 4 200 -1 1 7 1 3 -1 -1 -1 -1\n",
    # A time zone the system does not know: the cycles in UTC, said on the page.
    "edge-unknown-zone.swf": "; MaxProcs: 8\n; UnixStartTime: 1000000000\n; TimeZoneString: Nowhere/City\n"
                             "1 0 5 100 4 -1 -1 4 200 -1 1 7 1 3 -1 -1 -1 -1\n"
                             "2 3600 5 100 4 -1 -1 4 200 -1 1 7 1 3 -1 -1 -1 -1\n",
    # Every job of the same runtime, size and estimate, none at a power of ten: each log histogram is one bin between
    # two decades, and its axis must still be labelled.
    "edge-one-bin.swf": "; MaxProcs: 8\n"
                        "1 0 5 300 3 -1 -1 3 400 -1 1 7 1 3 -1 -1 -1 -1\n"
                        "2 60 5 300 3 -1 -1 3 400 -1 1 7 1 3 -1 -1 -1 -1\n"
                        "3 120 5 300 3 -1 -1 3 400 -1 1 7 1 3 -1 -1 -1 -1\n",
    # A preempted job: its summary line, then a line per burst (status 2, 3): one job, and the page says what it left out.
    "edge-preempted.swf": "; MaxProcs: 8\n"
                          "1 0 5 100 4 -1 -1 4 200 -1 1 7 1 3 -1 -1 -1 -1\n"
                          "1 -1 5 40 4 -1 -1 4 200 -1 2 7 1 3 -1 -1 -1 -1\n"
                          "1 -1 5 60 4 -1 -1 4 200 -1 3 7 1 3 -1 -1 -1 -1\n"
                          "2 3600 5 100 4 -1 -1 4 200 -1 1 7 1 3 -1 -1 -1 -1\n",
}
for edge_name, text in EDGE_LOGS.items():
    with open(os.path.join(out_dir, edge_name), "w") as f:
        f.write(text)
    more_logs.append(os.path.join(out_dir, edge_name))


def run(*args):
    r = subprocess.run([schedlab, *args], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"schedlab {' '.join(args)} failed ({r.returncode}): {r.stderr}")
    return r.stdout


def browser(profile):
    """Chromium through chromedriver, with a profile directory of its own: a browser left running by a run that
    was killed keeps its profile locked, and a new browser on it exits at once ("Chrome instance exited")."""
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    # The machine's network is closed: without the background-networking flags chromium's own connections fail and
    # log errors that are not the page's.
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
                 "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1300,1000", f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)


def check_page(driver, path, shots_prefix):
    """Problems found on the page at `path` (an empty list: it passed)."""
    problems = []
    driver.get("file://" + os.path.abspath(path))
    deadline = time.time() + 60
    ready = None
    while time.time() < deadline:
        ready = driver.execute_script("return window.schedlabReady === undefined ? null : window.schedlabReady;")
        if ready is not None:
            break
        time.sleep(0.2)
    if ready is not True:
        return [f"{path}: the charts did not finish rendering ({ready!r})"]
    for entry in driver.get_log("browser"):
        if entry["level"] in ("SEVERE", "ERROR"):
            problems.append(f"{path}: console error: {entry['message']}")
    resources = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name);")
    if resources:
        problems.append(f"{path}: the page requested {resources}")
    counts = driver.execute_script("return window.schedlabMarkCounts();")
    charts = [e.get_attribute("id") for e in driver.find_elements(By.CSS_SELECTOR, "div.chart")]
    if not charts:
        problems.append(f"{path}: no chart on the page")
    for c in charts:
        layers = counts.get(c, [])
        if not layers or min(layers) <= 0:
            problems.append(f"{path}: chart {c} has no mark (marks per layer: {layers})")
    # Vega cuts a label longer than its limit with an ellipsis: a legend's value or an axis's category lost.
    cut = driver.execute_script(
        "return [...document.querySelectorAll('div.chart')].flatMap(c => [...c.querySelectorAll('svg text')]"
        ".filter(t => t.textContent.includes('\u2026')).map(t => c.id + ': ' + t.textContent));")
    for text in cut:
        problems.append(f"{path}: a label is cut short: {text}")
    # Every axis says where its marks are: at least one label (a log histogram whose jobs all fell between two powers
    # of ten had none, its labels kept for whole decades only).
    bare = driver.execute_script(
        "return [...document.querySelectorAll('div.chart')].flatMap(c => [...c.querySelectorAll('g.role-axis')]"
        ".filter(a => a.querySelector('g.role-axis-label') !== null && ![...a.querySelectorAll("
        "'g.role-axis-label text')].some(t => t.textContent.trim() !== '')).map(a => c.id));")
    for chart_id in bare:
        problems.append(f"{path}: an axis of chart {chart_id} has no label")
    # A column of the schedulers' table has one number of decimals ("51%" stood under "48.6%").
    rows = driver.execute_script("const t = document.getElementById('summary-table'); return t === null ? [] : "
                                 "[...t.rows].slice(1).map(r => [...r.cells].slice(1).map(c => c.textContent));")
    for column in zip(*rows):
        decimals = {len(cell.rstrip("%").partition(".")[2]) for cell in column if cell != "\u2013"}
        if len(decimals) > 1:
            problems.append(f"{path}: a column of the schedulers' table mixes decimals: {list(column)}")
    print(f"{path}: {len(charts)} charts, marks {json.dumps(counts, sort_keys=True)}")
    # The whole page in the window, so that a section's screenshot is not cut at the viewport.
    height = driver.execute_script("return document.documentElement.scrollHeight;")
    driver.set_window_size(1300, height + 200)
    for section in driver.find_elements(By.TAG_NAME, "section"):
        shot = f"{shots_prefix}-{section.get_attribute('id')}.png"
        section.screenshot(shot)
        print(f"  screenshot {shot}")
    driver.set_window_size(1300, 1000)
    return problems


def python_report(log, page):
    """The Python module's report of `log` read as a DataFrame (the module beside the binary, build/python), or
    None when the module was not built. In a Python of its own: under the sanitizers the module needs their
    runtime preloaded (SCHEDLAB_PYTHON_PRELOAD, CMakeLists.txt), which the browser must not get."""
    package_dir = os.path.join(os.path.dirname(os.path.abspath(schedlab)), "python")
    if not os.path.isdir(os.path.join(package_dir, "schedlab")):
        return None
    env = dict(os.environ, PYTHONPATH=package_dir)
    if os.environ.get("SCHEDLAB_PYTHON_PRELOAD"):
        env.update(LD_PRELOAD=os.environ["SCHEDLAB_PYTHON_PRELOAD"], ASAN_OPTIONS="detect_leaks=0")
    subprocess.run([sys.executable, "-c", "import sys, schedlab\n"
                    "df, _ = schedlab.read_swf(sys.argv[1])\nschedlab.report(df, sys.argv[2])", log, page],
                   env=env, check=True)
    return page


def read_warnings(driver):
    """The text of the page's note of the reader's warnings (the page now in the driver), or None."""
    found = driver.find_elements(By.ID, "read-warnings")
    return found[0].text if found else None


def sim_warnings(driver):
    """The text of the page's warning about how the schedules were asked for (the page now in the driver), or None."""
    found = driver.find_elements(By.ID, "sim-warnings")
    return found[0].text if found else None


def sim_notes(driver):
    """The text of the page's note of jobs the schedules left out or gave no estimate (the page in the driver), or
    None."""
    found = driver.find_elements(By.ID, "sim-notes")
    return found[0].text if found else None


def main():
    kth_page = os.path.join(out_dir, "kth.html")
    run("report", kth, "-s", "easy,conservative,fcfs", "-p", "user-last2", "-o", kth_page)
    # The schedules at another load: the section says at which, and the log's own; and its warm-up and threshold.
    loaded_page = os.path.join(out_dir, "kth-load.html")
    run("report", kth, "-s", "easy,easy-sjbf", "--load", "0.9", "--warmup-fraction", "0.01", "--bsld-tau", "60",
        "-p", "user-last2", "--correction", "tsafrir", "-o", loaded_page)
    # A small sweep (load against the scheduler, two seeds) for the sweep page.
    spec = os.path.join(out_dir, "sweep.toml")
    with open(spec, "w") as f:
        f.write(f'logs = ["{os.path.abspath(kth)}"]\nschedulers = ["fcfs", "easy"]\nloads = [0.6, 0.8]\n'
                'seeds = [1, 2]\n')
    results = os.path.join(out_dir, "sweep.csv")
    if os.path.exists(results):
        os.remove(results)  # a sweep resumes from its results file: start afresh
    run("sweep", spec, "-o", results)
    sweep_page = os.path.join(out_dir, "sweep.html")
    run("report", "--sweep", results, "-o", sweep_page)
    # An x axis of one value (every run on the log's own machine size) is drawn, with a warning above the chart.
    one_x_page = os.path.join(out_dir, "sweep-one-x.html")
    run("report", "--sweep", results, "-o", one_x_page, "--x", "procs")
    # The checker must catch a chart without data: the daily cycle emptied.
    broken_page = os.path.join(out_dir, "broken.html")
    with open(kth_page) as f:
        page = f.read()
    start = page.index('"hour_of_day":[')
    end = page.index("]", start)
    with open(broken_page, "w") as f:
        f.write(page[:start] + '"hour_of_day":[' + page[end:])

    problems = []
    more_pages = []
    for log in more_logs:
        name = os.path.basename(log).split(".")[0]
        page = os.path.join(out_dir, name + ".html")
        run("report", log, "-o", page)
        if os.path.getsize(page) > 5e6:
            problems.append(f"{page}: {os.path.getsize(page)} bytes, more than 5 MB")
        more_pages.append((page, os.path.join(out_dir, name)))

    profile = tempfile.mkdtemp(prefix="schedlab-chromium-")
    try:
        driver = browser(profile)
    except Exception:
        shutil.rmtree(profile, ignore_errors=True)
        raise
    try:
        problems += check_page(driver, kth_page, os.path.join(out_dir, "kth"))
        # user-last2 without a correction left jobs overdue: the page says so (the edge pages use the estimate).
        warning = sim_warnings(driver)
        if warning is None or "the predictor (user-last2) gave it no longer prediction" not in warning \
                or "--correction tsafrir" not in warning:
            problems.append(f"{kth_page}: no warning of the uncorrected user-last2 on the page: {warning!r}")
        if sim_notes(driver) is not None:
            problems.append(f"{kth_page}: a note of left-out jobs, but KTH's are all simulated: {sim_notes(driver)}")
        if "28,489 jobs simulated of 28,489 records." not in driver.find_element(By.ID, "scheduling").text:
            problems.append(f"{kth_page}: the scheduling section does not count the jobs simulated")
        scaled_note = "Inter-arrival times x 0.7641: offered load 0.9 (the log's 0.688)"
        # floor(0.01 x 28,489) = 284 jobs of warm-up.
        settings = ["Warm-up: the first 284 jobs to end are left out", "Bounded slowdown with a threshold of 60 s."]
        for said in [scaled_note] + settings:
            if said in driver.find_element(By.ID, "scheduling").text:
                problems.append(f"{kth_page}: the scheduling section says '{said}' of the defaults")
        problems += check_page(driver, loaded_page, os.path.join(out_dir, "kth-load"))
        with_accuracy = "the charts by job class and the prediction accuracy."  # a predictor's accuracy is shown
        for said in [scaled_note, with_accuracy] + settings:
            if said not in driver.find_element(By.ID, "scheduling").text:
                problems.append(f"{loaded_page}: the scheduling section does not say '{said}': "
                                f"{driver.find_element(By.ID, 'scheduling').text[:400]!r}")
        driver.get("file://" + os.path.abspath(kth_page))
        # The reader's warnings are said where there are some, and only there.
        expected_warnings = {kth_page: "estimate_below_runtime 475 (first at line 146)"}
        for page, prefix in more_pages:
            problems += check_page(driver, page, prefix)
            if page.endswith("edge-out-of-order.html"):
                expected_warnings[page] = "submit_out_of_order 1 (first at line 3)"
            if page.endswith("edge-one-job.html") and read_warnings(driver) is not None:
                problems.append(f"{page}: a note of reader warnings, but the log has none: {read_warnings(driver)}")
            partial_note = "2 partial-execution lines (a preempted job's bursts, after its summary line) left out."
            if page.endswith("edge-preempted.html") != (partial_note in driver.find_element(By.ID, "workload").text):
                problems.append(f"{page}: the note of left-out partial-execution lines is wrong: "
                                f"{driver.find_element(By.ID, 'workload').text[:300]!r}")
            if sim_warnings(driver) is not None:
                problems.append(f"{page}: a warning about the schedules, with the estimate: {sim_warnings(driver)}")
            # What the schedules did not hold as the log has it, as simulate's notes say it: here only the jobs
            # without an estimate.
            notes = sim_notes(driver)
            if page.endswith("edge-no-estimates.html") != (
                    notes == "Note: 2 jobs without an estimate use their runtime as the estimate."):
                problems.append(f"{page}: the note of the schedules is wrong: {notes!r}")
        # A DataFrame's warnings count rows, not lines (Python's report of the out-of-order log).
        frame_page = python_report(os.path.join(out_dir, "edge-out-of-order.swf"),
                                   os.path.join(out_dir, "edge-out-of-order-frame.html"))
        if frame_page is not None:
            problems += check_page(driver, frame_page, os.path.join(out_dir, "edge-out-of-order-frame"))
            expected_warnings[frame_page] = "submit_out_of_order 1 (first at row 2) (schedlab.stats(df)['read'])"
        for page, text in expected_warnings.items():
            driver.get("file://" + os.path.abspath(page))
            note = read_warnings(driver)
            if note is None or text not in note:
                problems.append(f"{page}: the reader's warnings should say '{text}', the page says {note!r}")
        problems += check_page(driver, sweep_page, os.path.join(out_dir, "sweep"))
        if driver.find_elements(By.ID, "sweep-warnings"):
            problems.append(f"{sweep_page}: a warning on a sweep page whose x axis varies")
        problems += check_page(driver, one_x_page, os.path.join(out_dir, "sweep-one-x"))
        found = driver.find_elements(By.ID, "sweep-warnings")
        one_x = "has the same procs (the log's own): the plot is one point per line"
        if not found or one_x not in found[0].text:
            problems.append(f"{one_x_page}: the page should warn '{one_x}': {found[0].text if found else None!r}")
        broken = check_page(driver, broken_page, os.path.join(out_dir, "broken"))
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
    if not any("w-daily has no mark" in p for p in broken):
        problems.append(f"the checker did not catch the emptied daily-cycle chart: {broken}")
    for p in problems:
        print("FAIL:", p)
    sys.exit(1 if problems else 0)


main()
