#!/usr/bin/env python3
"""Interrupted-run test: `modeaudit report` killed midway (SIGKILL) must leave
the output folder with the previous complete report, never a truncated or
half-written file.

    interrupted_report.py MODEAUDIT MODEL WORKDIR

1. A complete report of MODEL (--reproducible) is written to WORKDIR/out:
   the previous report.
2. A full run without --reproducible is timed (T); its Markdown differs from
   the previous one by the footer.
3. Runs are started and killed with SIGKILL after delays spread over T
   (and a few fixed short ones). After each kill the visible files of the
   folder must be exactly the previous report's files, each either
   byte-identical to its previous version or a complete new one (the
   Markdown ends with the footer line, the JSON parses, the PDF ends with
   %%EOF, a PNG ends with its IEND chunk); the staging folder of the killed
   run is the only other thing allowed, and it is hidden.
4. A last complete run must remove the killed runs' staging folders
   (.modeaudit-staging-PID-XXXXXX, one per run) and leave a complete report.
Exit 0 when all holds, 1 with the reasons otherwise.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

STAGING = ".modeaudit-staging"


def visible_files(folder):
    # Staging folders are STAGING-PID-XXXXXX, one per run.
    return sorted(n for n in os.listdir(folder) if not n.startswith(STAGING))


def complete(path):
    data = open(path, "rb").read()
    name = os.path.basename(path)
    if name.endswith(".json"):
        try:
            json.loads(data)
        except ValueError as e:
            return f"not valid JSON ({e})"
        return None
    if name.endswith(".pdf"):
        return None if data.rstrip().endswith(b"%%EOF") else "no %%EOF at the end"
    if name.endswith(".png"):
        return None if data.endswith(b"IEND\xaeB`\x82") else "no IEND chunk at the end"
    if name.endswith(".md"):
        return None if b"generated " in data.rstrip().split(b"\n")[-1] else "no footer line at the end"
    return "changed, and not a file the run makes differently each time"


def main():
    exe, model, work = sys.argv[1:4]
    exe, model = os.path.abspath(exe), os.path.abspath(model)
    shutil.rmtree(work, ignore_errors=True)
    out = os.path.join(work, "out")
    os.makedirs(out)
    base = [exe, "report", model, "-o", out]
    r = subprocess.run(base + ["--reproducible"], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"the first report failed (exit {r.returncode}):\n{r.stderr}")
        return 1
    previous = {n: open(os.path.join(out, n), "rb").read() for n in visible_files(out)}
    if not any(n.endswith(".pdf") for n in previous) or not any(n.endswith(".md") for n in previous):
        print(f"the first report lacks a PDF or Markdown: {sorted(previous)}")
        return 1
    t0 = time.monotonic()
    subprocess.run(base, capture_output=True)
    full = time.monotonic() - t0
    # Restore the reproducible report as the previous one.
    for n, data in previous.items():
        open(os.path.join(out, n), "wb").write(data)

    delays = [0.005, 0.02, 0.05] + [full * k / 10 for k in range(1, 10)]
    problems = []
    for d in delays:
        p = subprocess.Popen(base, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        time.sleep(d)
        finished = p.poll() is not None
        try:
            os.killpg(p.pid, signal.SIGKILL)  # modeaudit and the pandoc/gnuplot it started
        except ProcessLookupError:
            finished = True  # it ended (and its group with it) between the poll and the kill
        p.wait()
        time.sleep(0.2)  # let the killed children go
        names = visible_files(out)
        if names != sorted(previous):
            problems.append(f"killed after {d:.3f} s: files {names}, expected {sorted(previous)}")
            continue
        for n in names:
            data = open(os.path.join(out, n), "rb").read()
            if data == previous[n]:
                continue
            why = complete(os.path.join(out, n))
            if why:
                problems.append(f"killed after {d:.3f} s{' (it had finished)' if finished else ''}: {n}: {why}")
    r = subprocess.run(base + ["--reproducible"], capture_output=True, text=True)
    if r.returncode != 0:
        problems.append(f"the last report failed (exit {r.returncode}): {r.stderr}")
    left = [n for n in os.listdir(out) if n.startswith(STAGING)]
    if left:
        problems.append(f"the last complete run left staging folders behind: {left}")
    for n in visible_files(out):
        if open(os.path.join(out, n), "rb").read() != previous.get(n):
            problems.append(f"after the last run {n} differs from the reproducible report")
    print(f"full run {full:.2f} s; {len(delays)} kills at {', '.join(f'{d:.3f}' for d in delays)} s")
    for pr in problems:
        print("FAIL: " + pr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
