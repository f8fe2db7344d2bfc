#!/usr/bin/env python3
"""What a pull request can put in the folders and lists a CI audit reads,
and in the names a report is written under.

    hostile_selection.py MODEAUDIT MODEL WORKDIR

MODEL is a good corpus model with a simulation (bouncing_ball.mo). Each case
states its expectation; the script prints one line per case and FAIL lines,
and exits 1 when any case failed. Every run must end with exit 0, 1 or 2 and
a message naming the cause, never exit 3, a signal or a hang. Each run gets
a CPU-time limit (RLIMIT_CPU) and a wide wall-clock backstop, so that the
verdict does not depend on the machine's load.

Models folders: a link to itself, two links to each other and a dangling
  link beside a good model: `check` and `regress` of the folder run the
  good model and warn about each link by name (they ended in "internal
  error" before).
Lists (--files-from): a line of 1 MiB, /dev/zero, a list over
  --max-input-size: refused at once with the line's number, never echoed.
Libraries: a library file over --max-input-size is refused with the
  limit's name; link loops inside a library folder (a file and a folder
  linked to themselves) are an ordinary "cannot read" or "no such class".
Names: a legal 250-character model name gives report files whose names fit
  the file system's 255 bytes.
Bidirectional format characters (U+202E, U+2066 ...) in a quoted name, a
  string and a comment: `check` warns (parse-bidi-format-character) with the
  location, and no output (text, JSON, SARIF, GitHub annotations, the CSV,
  the report's Markdown, JSON, DOT and gnuplot files) holds one raw.
"""
import os
import resource
import shutil
import subprocess
import sys

FAILS = []
CPU_SECONDS = 60

RLO = "\u202e"
LRI = "\u2066"
PDI = "\u2069"
BIDI_BYTES = [c.encode() for c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"]


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else f": {detail}"))
    if not ok:
        FAILS.append(name)


def limit_cpu():
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS + 5))


def run(args, **kw):
    kw.setdefault("capture_output", True)
    kw.setdefault("timeout", 20 * CPU_SECONDS)
    kw.setdefault("preexec_fn", limit_cpu)
    return subprocess.run(args, **kw)


def answered(r):
    return r.returncode in (0, 1, 2)


def folders(exe, model, work):
    m = os.path.join(work, "models")
    os.makedirs(m)
    shutil.copy(model, os.path.join(m, "ball.mo"))
    os.symlink("loop", os.path.join(m, "loop"))
    os.symlink("pong.mo", os.path.join(m, "ping.mo"))
    os.symlink("ping.mo", os.path.join(m, "pong.mo"))
    os.symlink("missing.mo", os.path.join(m, "dangling.mo"))
    for command in ("check", "regress"):
        r = run([exe, command, m], text=True)
        named = all(f"models/{n}'" in r.stderr for n in ("loop", "ping.mo", "pong.mo", "dangling.mo"))
        check(f"{command} of a folder with link loops: exit 0, each link named",
              r.returncode == 0 and named and "warning: skipped" in r.stderr, f"{r.returncode} {r.stderr[-800:]}")


def lists(exe, model, work):
    long_list = os.path.join(work, "long.list")
    with open(long_list, "w") as f:
        f.write(model + "\n" + "x" * (1 << 20) + "\n")
    r = run([exe, "check", "--files-from", long_list], text=True)
    check("--files-from with a 1 MiB line: exit 2, line named, not echoed",
          r.returncode == 2 and "line 2 is longer than 4096 bytes" in r.stderr and len(r.stderr) < 2000,
          f"{r.returncode} {len(r.stderr)} bytes: {r.stderr[:300]}")
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    r = run([exe, "regress", "--files-from", "/dev/zero"], text=True)
    used = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
    check("--files-from /dev/zero: exit 2 at once, cause named",
          r.returncode == 2 and "NUL byte" in r.stderr and used < 5, f"{r.returncode} {used:.1f} s {r.stderr[:300]}")
    big_list = os.path.join(work, "big.list")
    with open(big_list, "w") as f:
        for _ in range(80000):
            f.write(model + "\n")
    r = run([exe, "check", "--files-from", big_list, "--max-input-size", "1"], text=True)
    check("--files-from over --max-input-size: exit 2, limit named",
          r.returncode == 2 and "input size limit of 1048576 bytes (--max-input-size)" in r.stderr,
          f"{r.returncode} {r.stderr[:300]}")


def libraries(exe, work):
    lib = os.path.join(work, "lib", "Big")
    os.makedirs(lib)
    with open(os.path.join(lib, "package.mo"), "w") as f:
        f.write("package Big\n  model M\n    Real x(start = 1, fixed = true);\n  equation\n    der(x) = -x;\n"
                "  end M;\n")
        f.write(("  // " + "padding " * 16 + "\n") * 20000)
        f.write("end Big;\n")
    r = run([exe, "check", "Big.M", "--library", os.path.join(work, "lib"), "--max-input-size", "1"], text=True)
    out = r.stdout + r.stderr
    check("a library file over --max-input-size: exit 2, limit named",
          r.returncode == 2 and "input size limit" in out and "--max-input-size" in out, f"{r.returncode} {out[-600:]}")
    r = run([exe, "check", "Big.M", "--library", os.path.join(work, "lib")], text=True)
    check("the same library under the default limit: exit 0", r.returncode == 0, f"{r.returncode} {r.stdout[-400:]}")

    loops = os.path.join(work, "loops", "Loops")
    os.makedirs(loops)
    with open(os.path.join(loops, "package.mo"), "w") as f:
        f.write("package Loops\nend Loops;\n")
    with open(os.path.join(loops, "Good.mo"), "w") as f:
        f.write("within Loops;\nmodel Good\n  Real x(start = 1, fixed = true);\nequation\n  der(x) = -x;\nend Good;\n")
    os.symlink("Self.mo", os.path.join(loops, "Self.mo"))
    os.symlink("Dir", os.path.join(loops, "Dir"))
    lib_root = os.path.join(work, "loops")
    r = run([exe, "check", "Loops.Good", "--library", lib_root], text=True)
    check("a library folder with link loops: its good class checks", r.returncode == 0, f"{r.returncode} {r.stdout[-400:]}")
    for cls in ("Loops.Self", "Loops.Dir", "Loops.Dir.X"):
        r = run([exe, "check", cls, "--library", lib_root], text=True)
        out = r.stdout + r.stderr
        check(f"{cls} (a link loop): exit 2 with the cause", r.returncode == 2 and "error" in out,
              f"{r.returncode} {out[-400:]}")


def long_name(exe, work):
    name = "M" + "x" * 249
    path = os.path.join(work, "long_name.mo")
    with open(path, "w") as f:
        f.write(f"model {name}\n  Real x(start = 1, fixed = true);\nequation\n  der(x) = -x;\nend {name};\n")
    out = os.path.join(work, "long-report")
    r = run([exe, "report", path, "-o", out, "--no-pdf", "--reproducible"], text=True)
    files = os.listdir(out) if os.path.isdir(out) else []
    fits = files and all(len(n.encode()) <= 255 for n in files)
    check("report of a 250-character model name: exit 0, every file name fits",
          r.returncode == 0 and fits and any(n.endswith(".md") for n in files), f"{r.returncode} {files} {r.stderr[-600:]}")


def bidi(exe, work):
    path = os.path.join(work, "bidi.mo")
    text = (f"model Bidi \"an override {RLO}here\"\n"
            f"  Real 'x{RLO}y'(start = 1, fixed = true) \"isolated {LRI}text{PDI}\";\n"
            f"equation\n"
            f"  // a comment {RLO} that reorders\n"
            f"  der('x{RLO}y') = -'x{RLO}y';\n"
            f"end Bidi;\n")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    outputs = {}
    for fmt in ("text", "json", "sarif", "github"):
        r = run([exe, "check", path, "--format", fmt, "--no-progress"])
        outputs[f"check --format {fmt}"] = r.stdout + r.stderr
        if fmt == "text":
            warned = b"parse-bidi-format-character" in r.stdout and b"bidi.mo:1:25: warning" in r.stdout
            check("check warns at the first bidi character (1:25)", warned and r.returncode == 0,
                  f"{r.returncode} {r.stdout[-600:]!r}")
    csv = os.path.join(work, "bidi.csv")
    r = run([exe, "simulate", path, "--csv", csv, "--stop-time", "0.5"])
    outputs["simulate"] = r.stdout + r.stderr
    r = run([exe, "simulate", path, "--format", "json", "--stop-time", "0.5"])
    outputs["simulate --format json"] = r.stdout + r.stderr
    if os.path.exists(csv):
        outputs["simulate --csv"] = open(csv, "rb").read()
    rep = os.path.join(work, "bidi-report")
    r = run([exe, "report", path, "-o", rep, "--no-pdf", "--reproducible"])
    outputs["report"] = r.stdout + r.stderr
    for n in sorted(os.listdir(rep)) if os.path.isdir(rep) else []:
        if not n.endswith(".png"):
            outputs["report file " + n] = open(os.path.join(rep, n), "rb").read()
    check("the report has its Markdown, JSON and DOT files",
          any(k.endswith(".md") for k in outputs) and any(k.endswith(".json") for k in outputs)
          and any(k.endswith(".dot") for k in outputs), sorted(outputs))
    for what, data in outputs.items():
        raw = [b.decode() for b in BIDI_BYTES if b in data]
        check(f"{what}: no raw bidirectional format character", not raw,
              f"holds {[hex(ord(c)) for c in raw]}")
    check("the escape is visible in the text output (the state's name)", b"x\\u202Ey" in outputs["simulate"],
          outputs["simulate"][-400:])
    check("JSON keeps the character as its escape", b"x\\u202Ey" in outputs["simulate --format json"],
          outputs["simulate --format json"][-400:])


def main():
    exe, model, work = sys.argv[1:4]
    exe, model = os.path.abspath(exe), os.path.abspath(model)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    folders(exe, model, work)
    lists(exe, model, work)
    libraries(exe, work)
    long_name(exe, work)
    bidi(exe, work)
    print(f"{len(FAILS)} failed")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
