#!/usr/bin/env python3
"""Report injection test: a model whose names and strings are Markdown,
HTML, LaTeX and shell (tests/robustness/models/injection.mo).

    report_injection.py MODEAUDIT MODEL WORKDIR

Runs `modeaudit report MODEL -o out` (with the PDF when pandoc is
installed) in an empty WORKDIR and checks that
  - the run ends with an answer (exit 0, 1 or 2), not an internal error,
  - nothing was written outside WORKDIR/out (no PWNED* file anywhere in
    WORKDIR, none in the folder of the model), and every report file name is
    plain (letters, digits, '_', '-', '.'),
  - the Markdown holds none of the hostile text unescaped: no raw HTML tag,
    no TeX control sequence, and
  - the PDF, when made, does not hold the text of /etc/passwd.
Exit 0 when all holds, 1 with the reasons otherwise.
"""
import os
import re
import shutil
import subprocess
import sys
import zlib


def main():
    exe, model, work = sys.argv[1:4]
    exe, model = os.path.abspath(exe), os.path.abspath(model)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    problems = []
    r = subprocess.run([exe, "report", model, "-o", "out"], cwd=work, capture_output=True, text=True, timeout=600)
    if r.returncode not in (0, 1, 2):
        problems.append(f"exit {r.returncode}: {r.stderr[-600:]}")
    out = os.path.join(work, "out")
    for folder in (work, os.path.dirname(os.path.abspath(model))):
        for root, dirs, files in os.walk(folder):
            for f in files + dirs:
                if f.startswith("PWNED"):
                    problems.append(f"{os.path.join(root, f)} was created: a command of the model ran")
    if sorted(os.listdir(work)) != ["out"]:
        problems.append(f"files outside the output folder: {sorted(os.listdir(work))}")
    names = os.listdir(out) if os.path.isdir(out) else []
    for n in names:
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", n):
            problems.append(f"report file name {n!r} is not plain")
    mds = [n for n in names if n.endswith(".md")]
    if not mds:
        problems.append(f"no Markdown report was written: {names}; stderr: {r.stderr[-600:]}")
    for n in mds:
        md = open(os.path.join(out, n), encoding="utf-8").read()
        # Outside code blocks (fenced with a run of '~' longer than any in
        # the body) and code spans, a hostile fragment must appear only escaped.
        plain = re.sub(r"^(~{3,})\n(?:.|\n)*?\n\1$", "", md, flags=re.M)
        plain = re.sub(r"(`+)(?:.|\n)*?\1", "", plain)
        # Escaped means preceded by a backslash that is not itself escaped.
        for raw in ("<script>", "<img", "<b>", "\\input{", "\\immediate", "\\write18", "$(touch", "`id`"):
            for m in re.finditer(re.escape(raw), plain):
                k = m.start() - 1
                slashes = 0
                while k >= 0 and plain[k] == "\\":
                    slashes += 1
                    k -= 1
                if slashes % 2 == 0:
                    problems.append(f"{n}: unescaped {raw!r} outside code at offset {m.start()}")
                    break
        if "Inject" not in md:
            problems.append(f"{n}: the model's name is missing")
    for n in (n for n in names if n.endswith(".pdf")):
        data = open(os.path.join(out, n), "rb").read()
        text = data
        for m in re.finditer(rb"stream\r?\n(.*?)endstream", data, re.S):
            try:
                text += zlib.decompress(m.group(1))
            except zlib.error:
                pass
        if b"root:x:0:0" in text or b"/bin/bash" in text:
            problems.append(f"{n}: holds the text of /etc/passwd")
    print(f"exit {r.returncode}; files {sorted(names)}")
    for p in problems:
        print("FAIL: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
