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
With two users (root only): 'nobody' plants links in a sticky folder
  (to a file and a folder of 'daemon'), then 'daemon' writes its check
  output, JUnit file and report there; nothing of the victim's changes.
Terminal escapes in an expectation (regress) and in an output path
  (report's error) are printed escaped (\\x1b), never raw.
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

    # ---- terminal escapes in regress and report messages -------------------
    esc_corpus = os.path.join(work, "esc-corpus", "good")
    os.makedirs(esc_corpus)
    text = open(model, encoding="utf-8").read()
    lines = text.split("\n")
    at = next(i for i, l in enumerate(lines) if l.startswith("// status:"))
    lines.insert(at + 1, '// expect: restart-impulsive at 1:1 "\x1b]0;owned\x07\x1b[2J"')
    open(os.path.join(esc_corpus, "ball.mo"), "w", encoding="utf-8").write("\n".join(lines))
    r = run([exe, "regress", os.path.dirname(esc_corpus)])
    check("regress: an expectation with escape sequences is printed escaped",
          r.returncode == 1 and b"\x1b" not in r.stdout + r.stderr and b"\\x1b]0;owned" in r.stdout,
          f"{r.returncode} {r.stdout[-300:]!r}")
    blocker = os.path.join(work, "f\x1b[31mg")
    open(blocker, "w").close()
    r = run([exe, "report", model, "-o", os.path.join(blocker, "sub"), "--no-pdf"])
    check("report: an error naming a path with an escape sequence prints it escaped",
          r.returncode == 2 and b"\x1b" not in r.stderr and b"f\\x1b[31mg" in r.stderr, f"{r.returncode} {r.stderr!r}")

    if os.geteuid() == 0:
        two_users(exe, model)
    else:
        print("skip two users (the attacker 'nobody' and the victim 'daemon' need root to start)")

    print(f"{len(FAILS)} failed")
    return 1 if FAILS else 0


def as_user(name):
    """A preexec_fn that drops every privilege to the user `name`."""
    pw = pwd.getpwnam(name)

    def drop():
        os.setgid(pw.pw_gid)
        os.setgroups([])
        os.setuid(pw.pw_uid)
    return drop


def two_users(exe, model):
    """The planted-path attack with two real users: the attacker 'nobody'
    plants symbolic links in a sticky, world-writable folder, pointing at
    a file and a folder of the victim 'daemon'; then 'daemon' writes its
    report, check output and JUnit file there. The victim's file and
    folder must stay as they were and every planted link untouched. The
    kernel's protected_symlinks (off on some machines) is not relied on:
    the case runs either way and says which it was."""
    try:
        protected = open("/proc/sys/fs/protected_symlinks").read().strip()
    except OSError:
        protected = "unknown"
    print(f"two users: attacker nobody, victim daemon; fs.protected_symlinks = {protected}")
    attacker, victim_user = as_user("nobody"), as_user("daemon")
    daemon = pwd.getpwnam("daemon")
    base = tempfile.mkdtemp(prefix="modeaudit-two-users-")
    try:
        os.chmod(base, 0o755)
        run_exe = os.path.join(base, "modeaudit")
        shutil.copy2(exe, run_exe)
        # The victim's own things: a private file and a folder with a file.
        home = os.path.join(base, "daemon-home")
        os.makedirs(home)
        precious = os.path.join(home, "precious.txt")
        open(precious, "w").write("precious\n")
        keep = os.path.join(home, "reports")
        os.makedirs(keep)
        kept = os.path.join(keep, "BouncingBall.md")
        open(kept, "w").write("the victim's own report\n")
        corpus = os.path.join(home, "corpus", "good")
        os.makedirs(corpus)
        shutil.copy(model, os.path.join(corpus, os.path.basename(model)))
        for root, dirs, files in os.walk(home):
            os.chown(root, daemon.pw_uid, daemon.pw_gid)
            for f in files:
                os.chown(os.path.join(root, f), daemon.pw_uid, daemon.pw_gid)
        os.chmod(home, 0o711)  # others may pass through (to aim a link), not list or write
        os.chmod(precious, 0o600)
        model_copy = os.path.join(corpus, os.path.basename(model))
        # The shared folder, like /tmp.
        shared = os.path.join(base, "shared")
        os.makedirs(shared)
        os.chmod(shared, 0o1777)
        # The attacker plants, as 'nobody'.
        plants = {
            "result.txt.tmp": precious, "junit.xml.tmp": precious, "reports": keep,
            "out/.modeaudit-staging": precious, "out/BouncingBall.md.tmp": precious,
            "out/BouncingBall.json.tmp": precious, "out/result.txt.tmp": precious,
        }
        script = ("import os, sys\n"
                  "shared = sys.argv[1]\n"
                  "os.mkdir(os.path.join(shared, 'out')); os.chmod(os.path.join(shared, 'out'), 0o1777)\n"
                  "for i in range(2, len(sys.argv), 2):\n"
                  "    os.symlink(sys.argv[i + 1], os.path.join(shared, sys.argv[i]))\n")
        # An interpreter 'nobody' may run (a per-user one may sit in /root).
        python = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
        args = [python, "-c", script, shared]
        for n, target in plants.items():
            args += [n, target]
        r = run(args, text=True, preexec_fn=attacker)
        owners = {n: os.lstat(os.path.join(shared, n)).st_uid for n in plants if os.path.lexists(os.path.join(shared, n))}
        check("two users: the attacker planted every link", r.returncode == 0 and len(owners) == len(plants)
              and all(u == pwd.getpwnam("nobody").pw_uid for u in owners.values()), f"{r.returncode} {r.stderr} {owners}")
        # The victim writes into the shared folder, as 'daemon'.
        runs = [
            ("check -o beside a planted result.txt.tmp", [run_exe, "check", model_copy, "-o",
                                                           os.path.join(shared, "result.txt")], (0, 1)),
            ("regress --junit beside a planted junit.xml.tmp", [run_exe, "regress", os.path.dirname(corpus), "--junit",
                                                                 os.path.join(shared, "junit.xml")], (0, 1)),
            ("report into the attacker's folder with planted links", [run_exe, "report", model_copy, "-o",
                                                                     os.path.join(shared, "out"), "--no-pdf"], (0, 1)),
            ("report -o a planted link to the victim's folder: refused", [run_exe, "report", model_copy, "-o",
                                                                          os.path.join(shared, "reports"), "--no-pdf"], (2,)),
            ("check -o through a planted link to the victim's folder: refused",
             [run_exe, "check", model_copy, "-o", os.path.join(shared, "reports", "BouncingBall.md")], (2,)),
            ("report -o the victim's own link in the shared folder: written",
             [run_exe, "report", model_copy, "-o", os.path.join(shared, "mine"), "--no-pdf"], (0, 1)),
        ]
        mine = os.path.join(home, "mine")
        os.makedirs(mine)
        os.chown(mine, daemon.pw_uid, daemon.pw_gid)
        r = run([python, "-c", "import os, sys; os.symlink(sys.argv[1], sys.argv[2])", mine, os.path.join(shared, "mine")],
                text=True, preexec_fn=victim_user)
        check("two users: the victim made its own link", r.returncode == 0, r.stderr)
        for name, cmd, codes in runs:
            r = run(cmd, text=True, preexec_fn=victim_user, cwd=home)
            check("two users: " + name, r.returncode in codes, f"{r.returncode} {r.stderr[-400:]}")
        check("two users: the victim's file was never written", open(precious).read() == "precious\n",
              open(precious).read()[:80])
        check("two users: the victim's folder was never written", sorted(os.listdir(keep)) == ["BouncingBall.md"]
              and open(kept).read() == "the victim's own report\n", str(sorted(os.listdir(keep))))
        check("two users: every planted link is still a link to its target",
              all(os.path.islink(os.path.join(shared, n)) and os.readlink(os.path.join(shared, n)) == t
                  for n, t in plants.items()))
        check("two users: the report through the victim's own link is in its folder",
              os.path.isfile(os.path.join(mine, "BouncingBall.md")))
        check("two users: the victim's outputs exist and are the victim's",
              all(os.path.isfile(p) and not os.path.islink(p) and os.lstat(p).st_uid == daemon.pw_uid
                  for p in (os.path.join(shared, "result.txt"), os.path.join(shared, "junit.xml"),
                            os.path.join(shared, "out", "BouncingBall.md"))))
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
