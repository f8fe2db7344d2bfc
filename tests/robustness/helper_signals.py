#!/usr/bin/env python3
"""Helper programs die with modeaudit.

    helper_signals.py MODEAUDIT MODEL SLOW_MODEL WORKDIR

1. `modeaudit report MODEL --no-pdf` runs with a fake `gnuplot` first in
   PATH that records its process id and sleeps. Once it runs, modeaudit
   alone is sent SIGINT, SIGTERM or SIGHUP (one run each): modeaudit must
   die of that signal and the fake gnuplot must be gone within 5 s.
2. `modeaudit regress` on a folder holding copies of SLOW_MODEL (a model
   that takes seconds) is sent SIGTERM, and another run SIGKILL, while its
   worker processes run: every worker must be gone within 5 s.
Exit 0 when all holds, 1 otherwise.
"""
import os
import shutil
import signal
import subprocess
import sys
import time


def alive(pid):
    """True while the process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        return state not in ("Z", "X")
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False


def gone_within(pids, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not any(alive(p) for p in pids):
            return True
        time.sleep(0.05)
    return not any(alive(p) for p in pids)


def children(pid):
    out = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out += [int(x) for x in f.read().split()]
    except FileNotFoundError:
        pass
    return out


def main():
    exe, model, slow, work = sys.argv[1:5]
    exe, model, slow = os.path.abspath(exe), os.path.abspath(model), os.path.abspath(slow)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "bin"))
    pids_file = os.path.join(work, "pids")
    fake = os.path.join(work, "bin", "gnuplot")
    with open(fake, "w") as f:
        f.write('#!/bin/sh\necho $$ >> "$MODEAUDIT_TEST_PIDS"\nexec sleep 300\n')
    os.chmod(fake, 0o755)
    env = dict(os.environ, PATH=os.path.join(work, "bin") + ":" + os.environ.get("PATH", ""),
               MODEAUDIT_TEST_PIDS=pids_file)
    problems = []
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        if os.path.exists(pids_file):
            os.remove(pids_file)
        p = subprocess.Popen([exe, "report", model, "-o", os.path.join(work, "out"), "--no-pdf"], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        end = time.monotonic() + 120
        while not (os.path.exists(pids_file) and open(pids_file).read().strip()) and time.monotonic() < end:
            if p.poll() is not None:
                break
            time.sleep(0.05)
        if not os.path.exists(pids_file):
            problems.append(f"{sig.name}: the fake gnuplot never ran (exit {p.poll()})")
            p.kill()
            p.wait()
            continue
        helpers = [int(x) for x in open(pids_file).read().split()]
        p.send_signal(sig)  # modeaudit alone, as `kill PID` does
        try:
            code = p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            code = None
            p.kill()
            p.wait()
        if code != -sig:
            problems.append(f"{sig.name}: modeaudit ended with {code}, not by the signal")
        if not gone_within(helpers, 5):
            problems.append(f"{sig.name}: the helper {helpers} is still running after modeaudit died")
            for h in helpers:
                try:
                    os.kill(h, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        print(f"{sig.name}: modeaudit exit {code}, helper {helpers} gone: {not any(alive(h) for h in helpers)}")

    corpus = os.path.join(work, "corpus")
    os.makedirs(corpus)
    for k in range(4):
        shutil.copy(slow, os.path.join(corpus, f"slow{k}.mo"))
    for sig in (signal.SIGTERM, signal.SIGKILL):
        p = subprocess.Popen([exe, "regress", corpus, "-j", "2"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
        workers = []
        end = time.monotonic() + 30
        while len(workers) < 2 and time.monotonic() < end and p.poll() is None:
            workers = children(p.pid)
            time.sleep(0.05)
        time.sleep(0.3)
        workers = children(p.pid) or workers
        if not workers:
            problems.append(f"regress {sig.name}: no worker seen (exit {p.poll()})")
            p.kill()
            p.wait()
            continue
        p.send_signal(sig)
        code = p.wait(timeout=10)
        if not gone_within(workers, 5):
            problems.append(f"regress {sig.name}: workers {workers} still running after regress died")
            for w in workers:
                try:
                    os.kill(w, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        print(f"regress {sig.name}: exit {code}, workers {workers} gone: {not any(alive(w) for w in workers)}")
    for pr in problems:
        print("FAIL: " + pr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
