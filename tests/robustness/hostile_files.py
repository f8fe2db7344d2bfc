#!/usr/bin/env python3
"""Hostile files and shared folders: what the file system can do to
modeaudit, and what another local user can plant in an output folder.

    hostile_files.py MODEAUDIT MODEL WORKDIR

MODEL is a good corpus model with a simulation (bouncing_ball.mo). Each case
states its expectation; the script prints one line per case and FAIL lines,
and exits 1 when any case failed. Where the test runs as root, the
unreadable-file case runs modeaudit as the user 'nobody' (root reads any
file); elsewhere it runs as the caller.

Input conditions (exit 2 with a message naming the cause, never exit 3):
  a symbolic-link loop, an unreadable file, /dev/zero (the input size
  limit), /proc/self/mem, a folder.
Output conditions (exit 2, nothing replaced that is not a regular file):
  check -o onto a named pipe and onto a device node (root only: mknod of a
  copy of /dev/null), a missing --junit folder (refused before the run),
  standard output on /dev/full.
Planted paths in a shared output folder: symbolic links named
  .modeaudit-staging, .modeaudit-staging-<pid>-XXXXXX, NAME.tmp, and the
  report's own file names, all pointing at a victim file: the victim is
  never written, the links are never followed.
A failed write (RLIMIT_FSIZE, as a full disk would) leaves the previous
  report byte-identical. Two reports written into one folder at once both
  succeed and leave one complete report. Two models whose names differ only
  in non-ASCII letters get distinct files.
"""
import os
import pwd
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

FAILS = []


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else f": {detail}"))
    if not ok:
        FAILS.append(name)


def run(args, **kw):
    kw.setdefault("capture_output", True)
    kw.setdefault("timeout", 300)
    return subprocess.run(args, **kw)


def main():
    exe, model, work = sys.argv[1:4]
    exe, model = os.path.abspath(exe), os.path.abspath(model)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    os.chmod(work, 0o755)

    # ---- input conditions -------------------------------------------------
    loop = os.path.join(work, "loop.mo")
    os.symlink("loop2.mo", loop)
    os.symlink("loop.mo", os.path.join(work, "loop2.mo"))
    r = run([exe, "check", loop], text=True)
    check("symlink loop: exit 2, named", r.returncode == 2 and "symbolic links" in r.stderr, f"{r.returncode} {r.stderr}")

    pre = None
    nobody_dir = None
    run_exe = exe
    if os.geteuid() == 0:
        nobody = pwd.getpwnam("nobody")

        def pre():
            os.setgid(nobody.pw_gid)
            os.setgroups([])
            os.setuid(nobody.pw_uid)
        # 'nobody' must reach the program and the file: a checkout may sit
        # below a folder only root can enter (mktemp -d), so both go to a
        # folder of their own that anyone can enter.
        nobody_dir = tempfile.mkdtemp(prefix="modeaudit-hostile-")
        os.chmod(nobody_dir, 0o755)
        run_exe = os.path.join(nobody_dir, "modeaudit")
        shutil.copy2(exe, run_exe)
    unreadable = os.path.join(nobody_dir or work, "unreadable.mo")
    shutil.copy(model, unreadable)
    os.chmod(unreadable, 0)
    r = run([run_exe, "check", unreadable], text=True, preexec_fn=pre)
    check("unreadable file: exit 2, named", r.returncode == 2 and "Permission denied" in r.stderr,
          f"{r.returncode} {r.stderr}")
    if nobody_dir:
        shutil.rmtree(nobody_dir, ignore_errors=True)

    r = run([exe, "check", "/dev/zero", "--max-input-size", "1"], text=True, timeout=60)
    check("/dev/zero: exit 2 at the input size limit", r.returncode == 2 and "--max-input-size" in r.stderr,
          f"{r.returncode} {r.stderr}")
    r = run([exe, "check", "/dev/zero"], text=True, timeout=120)
    check("/dev/zero at the default limit: exit 2", r.returncode == 2 and "input size limit" in r.stderr,
          f"{r.returncode} {r.stderr}")
    r = run([exe, "check", "/proc/self/mem"], text=True, timeout=60)
    check("/proc/self/mem: exit 2", r.returncode == 2 and "cannot read" in r.stderr, f"{r.returncode} {r.stderr}")

    # ---- output conditions -------------------------------------------------
    fifo = os.path.join(work, "fifo")
    os.mkfifo(fifo)
    r = run([exe, "check", model, "-o", fifo], text=True, timeout=60)
    check("check -o onto a named pipe: refused, pipe kept",
          r.returncode == 2 and "named pipe" in r.stderr and stat.S_ISFIFO(os.lstat(fifo).st_mode),
          f"{r.returncode} {r.stderr}")
    if os.geteuid() == 0:
        dev = os.path.join(work, "null-device")
        os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        r = run([exe, "check", model, "-o", dev], text=True, timeout=60)
        check("check -o onto a device: refused, device kept",
              r.returncode == 2 and "a device" in r.stderr and stat.S_ISCHR(os.lstat(dev).st_mode),
              f"{r.returncode} {r.stderr}")
    t0 = time.monotonic()
    r = run([exe, "regress", os.path.dirname(model), "--junit", os.path.join(work, "missing", "j.xml")], text=True)
    check("regress --junit in a missing folder: exit 2 before the run",
          r.returncode == 2 and "does not exist" in r.stderr and "PASS" not in r.stdout and time.monotonic() - t0 < 10,
          f"{r.returncode} {r.stderr}")
    if os.path.exists("/dev/full"):
        with open("/dev/full", "w") as full:
            r = run([exe, "check", model, "--dump-after=parse"], stdout=full, stderr=subprocess.PIPE, capture_output=False, text=True,
                    timeout=60)
        check("standard output on /dev/full: exit 2", r.returncode == 2 and "standard output" in r.stderr,
              f"{r.returncode} {r.stderr}")

    # ---- planted paths in a shared (sticky, world-writable) folder ---------
    shared = os.path.join(work, "shared")
    os.makedirs(shared)
    os.chmod(shared, 0o1777)
    victim = os.path.join(work, "victim.txt")
    open(victim, "w").write("precious\n")
    os.chmod(victim, 0o666)
    out = os.path.join(shared, "out")
    os.makedirs(out)
    os.chmod(out, 0o1777)
    planted = [".modeaudit-staging", f".modeaudit-staging-{os.getpid()}-AAAAAA", "BouncingBall.json.tmp",
               "BouncingBall.md.tmp", "result.txt.tmp"]
    for n in planted:
        os.symlink(victim, os.path.join(out, n))
    victim_dir = os.path.join(work, "victim-dir")
    os.makedirs(victim_dir)
    r = run([exe, "report", model, "-o", out, "--no-pdf", "--reproducible"], text=True)
    check("report beside planted links: done", r.returncode in (0, 1) and os.path.exists(os.path.join(out, "BouncingBall.md")),
          f"{r.returncode} {r.stderr}")
    r = run([exe, "check", model, "-o", os.path.join(out, "result.txt")], text=True)
    check("check -o beside a planted NAME.tmp: done", r.returncode in (0, 1), f"{r.returncode} {r.stderr}")
    check("the victim was never written", open(victim).read() == "precious\n", open(victim).read()[:80])
    check("the planted links are untouched", all(os.path.islink(os.path.join(out, n)) for n in planted))
    check("no staging folder is left", not [n for n in os.listdir(out)
                                            if n.startswith(".modeaudit-staging") and not os.path.islink(os.path.join(out, n))])
    # A link planted under a destination's own name is refused, not followed.
    os.symlink(victim, os.path.join(out, "linked.txt"))
    r = run([exe, "check", model, "-o", os.path.join(out, "linked.txt")], text=True)
    check("check -o onto a planted link: refused", r.returncode == 2 and "symbolic link" in r.stderr
          and open(victim).read() == "precious\n", f"{r.returncode} {r.stderr}")
    os.remove(os.path.join(out, "BouncingBall.json"))
    os.symlink(victim, os.path.join(out, "BouncingBall.json"))
    before_md = open(os.path.join(out, "BouncingBall.md"), "rb").read()
    r = run([exe, "report", model, "-o", out, "--no-pdf"], text=True)
    check("report onto a planted link under its own name: refused, previous report kept",
          r.returncode == 2 and "symbolic link" in r.stderr and open(victim).read() == "precious\n"
          and open(os.path.join(out, "BouncingBall.md"), "rb").read() == before_md, f"{r.returncode} {r.stderr}")
    os.remove(os.path.join(out, "BouncingBall.json"))

    # ---- a failed write keeps the previous report --------------------------
    rep = os.path.join(work, "report")
    r = run([exe, "report", model, "-o", rep, "--no-pdf", "--reproducible"], text=True)
    previous = {n: open(os.path.join(rep, n), "rb").read() for n in os.listdir(rep)}

    def small_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # write() fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (4000, 4000))
    r = run([exe, "report", model, "-o", rep, "--no-pdf"], text=True, preexec_fn=small_files)
    now = {n: open(os.path.join(rep, n), "rb").read() for n in os.listdir(rep)}
    check("a failed write (file size limit): exit 2, previous report intact",
          r.returncode == 2 and now == previous and "left as it was" in r.stderr, f"{r.returncode} {sorted(now)} {r.stderr[-300:]}")

    # ---- two runs into one folder at once ----------------------------------
    both = os.path.join(work, "both")
    procs = [subprocess.Popen([exe, "report", model, "-o", both, "--no-pdf", "--reproducible"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for _ in range(3)]
    codes = [(p.wait(timeout=300), p.stderr.read()) for p in procs]
    check("three concurrent reports into one folder all succeed", all(c in (0, 1) for c, _ in codes), str(codes))
    names = sorted(n for n in os.listdir(both))
    check("the folder holds one complete report and no staging folder",
          "BouncingBall.md" in names and not any(n.startswith(".") for n in names), str(names))

    # ---- distinct file names for distinct non-ASCII names ------------------
    text = open(model, encoding="utf-8").read()
    names_dir = os.path.join(work, "names")
    for name in ("'Модель'", "'Машина'"):
        m = os.path.join(work, f"m{len(os.listdir(work))}.mo")
        open(m, "w", encoding="utf-8").write(text.replace("BouncingBall", name))
        r = run([exe, "report", m, "-o", names_dir, "--no-pdf", "--reproducible"], text=True)
    mds = sorted(n for n in os.listdir(names_dir) if n.endswith(".md"))
    check("two non-ASCII model names: two reports", len(mds) == 2, str(mds))

    print(f"{len(FAILS)} failed")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
