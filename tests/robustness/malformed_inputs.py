#!/usr/bin/env python3
"""Malformed-input corpus: hostile or broken files given to `modeaudit check`.

    malformed_inputs.py MODEAUDIT CORPUS_DIR WORKDIR [TIMEOUT_SECONDS]

Each input is generated (deterministically) into WORKDIR and checked with a
limit of 30 s of CPU time (the optional fourth argument: a sanitizer build
runs some ten times slower, and its slowest inputs, 11 s in a Release build,
need more). The limit is CPU time (RLIMIT_CPU), not wall time, so that the
verdict does not depend on the machine's load: with both cores busy the
slowest input took 32-35 s of wall time for its 11 s of CPU. A wall-clock
backstop of twenty times the limit catches a hang that uses no CPU.
Every one must get an answer or a clear refusal: exit 0, 1 or 2,
never 3 (internal error), a signal or a timeout; exit 2 must come with a
diagnostic `file:line:col: error: ... [rule-id]` or a `modeaudit: error:`
line. Besides the generated inputs, the fuzzers' findings
(tests/robustness/models/fuzz/) are given as found, and every flawed corpus
model cut in half (a file that ends in the middle of a construct).
Exit 0 when all hold, 1 listing the inputs that did not.
"""
import os
import random
import re
import resource
import signal
import subprocess
import sys

HEADER = "model M\n  Real x(start = 1, fixed = true);\nequation\n"


def inputs(corpus):
    rnd = random.Random(9)
    yield "empty.mo", b""
    yield "random_bytes.mo", bytes(rnd.randrange(256) for _ in range(65536))
    yield "nul_bytes.mo", b"model M\0\0\0 end M;\n"
    yield "invalid_utf8.mo", b"model M \"\xff\xfe\xc3\" end M;\n"
    yield "nested_parens.mo", (HEADER + "  der(x) = " + "(" * 100000 + "x" + ")" * 100000 + ";\nend M;\n").encode()
    yield "unclosed_parens.mo", (HEADER + "  der(x) = " + "(" * 100000 + "\n").encode()
    yield "nested_classes.mo", ("model A\n" * 50000 + "end A;\n" * 50000).encode()
    yield "long_identifier.mo", ("model " + "a" * 1000000 + " end " + "a" * 1000000 + ";\n").encode()
    yield "long_sum.mo", (HEADER + "  der(x) = " + "+".join(["x"] * 200000) + ";\nend M;\n").encode()
    yield "huge_literal.mo", (HEADER + "  der(x) = 1e999999 * x + 99999999999999999999999999;\nend M;\n").encode()
    yield "nested_if_expressions.mo", (HEADER + "  der(x) = " + "if x > 0 then " * 5000 + "x" +
                                       " else -x" * 5000 + ";\nend M;\n").encode()
    yield "unterminated_string.mo", b'model M "never closed\n  Real x;\nend M;\n'
    yield "unterminated_comment.mo", b"model M /* never closed\n  Real x;\nend M;\n"
    yield "array_size_huge.mo", b"model M\n  Real x[1000000000000000000];\nequation\n  x = zeros(1000000000000000000);\nend M;\n"
    yield "power_of_sum.mo", (b"model M\n  Real x(start = 1, fixed = true);\n  Real y(start = 1, fixed = true);\n"
                              b"  Real z(start = 1, fixed = true);\n  Boolean on(start = true, fixed = true);\nequation\n"
                              b"  der(x) = if on then -(x + y + z + 1)^100000 else 1;\n  der(y) = -y;\n  der(z) = -z;\n"
                              b"  when x < 0.5 then\n    on = false;\n  end when;\nend M;\n")
    yield "huge_exponent.mo", (HEADER + "  der(x) = (x + 1)^99999999999999999999;\nend M;\n").encode()
    yield "deep_derivatives.mo", (HEADER + "  " + "der(" * 300 + "x" + ")" * 300 + " = -x;\nend M;\n").encode()
    yield "nested_whens.mo", (HEADER + "  when x > 0 then\n" * 200 + "  reinit(x, 1);\n" +
                              "  end when;\n" * 200 + "end M;\n").encode()
    yield "integer_overflow.mo", b"model M\n  parameter Integer n = 9999999999999999999999;\n  Real x[n];\nend M;\n"
    yield "self_extends.mo", b"model M\n  extends M;\nend M;\n"
    yield "only_semicolons.mo", b";" * 100000
    yield "crlf_and_tabs.mo", b"model M\r\n\tReal x(start=1,fixed=true);\r\nequation\r\n\tder(x)=-x;\r\nend M;\r\n"
    # Inputs the fuzzers flagged (tests/robustness/README.md), as found.
    fuzz = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models", "fuzz")
    for f in sorted(os.listdir(fuzz)):
        yield "fuzz_" + f, open(os.path.join(fuzz, f), "rb").read()
    for root, _, files in sorted(os.walk(os.path.join(corpus, "flawed"))):
        for f in sorted(files):
            if f.endswith(".mo"):
                data = open(os.path.join(root, f), "rb").read()
                yield "half_" + f, data[: len(data) // 2]


def cpu_limit(seconds):
    """The child's CPU time limited to `seconds` (SIGXCPU past it)."""
    def apply():
        soft = max(1, int(seconds + 0.999))
        resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 5))
    return apply


def main():
    exe, corpus, work = sys.argv[1:4]
    timeout = float(sys.argv[4]) if len(sys.argv) > 4 else 30.0
    exe, corpus = os.path.abspath(exe), os.path.abspath(corpus)
    os.makedirs(work, exist_ok=True)
    diagnostic = re.compile(r"(:\d+:\d+: error: .*\[[a-z]+(-[a-z0-9]+)+\])|(modeaudit: error: )")
    failures = []
    count = 0
    for name, data in inputs(corpus):
        count += 1
        path = os.path.join(work, name)
        open(path, "wb").write(data)
        try:
            r = subprocess.run([exe, "check", path, "--no-progress"], capture_output=True,
                               timeout=20 * timeout, preexec_fn=cpu_limit(timeout))
        except subprocess.TimeoutExpired:
            failures.append(f"{name}: no answer within {20 * timeout:g} s of wall time (a hang)")
            continue
        out = (r.stdout + r.stderr).decode("utf-8", "replace")
        if r.returncode == -signal.SIGXCPU:
            failures.append(f"{name}: no answer within {timeout:g} s of CPU time")
        elif r.returncode < 0:
            failures.append(f"{name}: killed by signal {-r.returncode}")
        elif r.returncode not in (0, 1, 2):
            failures.append(f"{name}: exit {r.returncode}: {out[-400:]}")
        elif r.returncode == 2 and not diagnostic.search(out):
            failures.append(f"{name}: exit 2 without a located diagnostic: {out[-400:]}")
    print(f"{count} malformed inputs checked, {len(failures)} failed")
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
