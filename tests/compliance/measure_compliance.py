#!/usr/bin/env python3
"""Measure how well `modeaudit simulate` agrees with the Modelica Compliance suite.

For every test model in the chosen sub-categories of the suite, run

    MODELICAPATH=<suite-root> <binary> simulate <Full.Class.Name> --format json --max-sim-time 30

one test at a time with a wall-clock timeout (default 60 s), and compare the
outcome with the test's annotation
`__ModelicaAssociation(TestCase(shouldPass = true|false, ...))`:

  shouldPass=true : AGREE             exit 0 (no error finding)
                    DISAGREE-refused  exit 2 (input cannot be analysed)
                    DISAGREE-finding  exit 1 (error findings about the model)
  shouldPass=false: AGREE             exit 1 or 2 with at least one error finding
                    DISAGREE-accepted exit 0
                    NO-FINDING        exit 1 or 2 but no error finding could be read
  any             : CRASH             exit 3, killed by a signal, timeout, or an
                                      exit code outside 0..3 (the detail says which)

The first error finding is taken from the JSON `diagnostics` (severity
"error") on stdout; when there is no JSON (the tool refuses before it
simulates) it is taken from the text diagnostics on stderr, lines of the form
`file:line:col: error: message [rule-id]`.

Outputs (in --out-dir):
  results.tsv  one line per test: category, test, shouldPass, exit, outcome,
               detail, first error rule, first error message, all error rule ids
               (in output order), seconds, spec sections.  "First error" is the
               first error about the test itself (see relevant_first): the tool
               sometimes prints parse errors of unrelated library files first.
  summary.md   per-category table and overall agreement
A per-category table and the overall agreement are also printed.

Usage:
  python3 measure_compliance.py [--suite /tmp/compliance]
                                [--binary build/analyzer/modeaudit]
                                [--out-dir compliance-results]
                                [--timeout 60] [--categories Equations/When,...]

--suite is the directory that contains ModelicaCompliance/ (it is used as
MODELICAPATH).  Without --categories the DEFAULT_CATEGORIES below are used.
Deterministic: tests run in package.order order, one at a time.
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time

DEFAULT_SUITE = "/tmp/compliance"
DEFAULT_BINARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "analyzer", "modeaudit")
DEFAULT_OUT_DIR = "compliance-results"
DEFAULT_TIMEOUT = 60.0
MAX_SIM_TIME = "30"

# Sub-categories (directories below ModelicaCompliance/) that touch what a
# multimode-model auditor supports.
DEFAULT_CATEGORIES = [
    "Equations/When",
    "Equations/Reinit",
    "Equations/If",
    "Equations/Equality",
    "Equations/Assert",
    "Equations/For",
    "Operators/Events",
    "Operators/Relational",
    "Operators/Logical",
    "Operators/Special",
    "Algorithms/When",
    "Algorithms/If",
    "Components/Conditional",
    "Classes/Enumeration",
]

ROOT_PACKAGE = "ModelicaCompliance"
CLASS_KINDS = r"(?:model|class|block|package|function|record|connector|type|operator)"
STDERR_ERROR_RE = re.compile(r"^(?P<file>\S.*?):\d+:\d+: error: (?P<msg>.*?)\s*\[(?P<rule>[A-Za-z0-9_.-]+)\]\s*$")
STDERR_ERROR_NOLOC_RE = re.compile(r"^(?:modeaudit: )?error: (?P<msg>.*?)\s*\[(?P<rule>[A-Za-z0-9_.-]+)\]\s*$")


def one_line(text, limit=400):
    """Collapse whitespace (tabs, newlines) so the text fits one TSV field."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def read_package_order(directory):
    path = os.path.join(directory, "package.order")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8", errors="replace") as f:
        return [line.strip() for line in f if line.strip()]


def enumerate_tests(suite, category):
    """Return [(full_class_name, file, shouldPass or None, sections)] for one category.

    Classes come from package.order; a .mo file in the directory that
    package.order does not list is appended (sorted) with a warning.
    """
    directory = os.path.join(suite, ROOT_PACKAGE, *category.split("/"))
    names = read_package_order(directory)
    files_on_disk = sorted(
        f[:-3] for f in os.listdir(directory) if f.endswith(".mo") and f != "package.mo"
    )
    for extra in files_on_disk:
        if extra not in names:
            print(f"warning: {category}/{extra}.mo not in package.order; included", file=sys.stderr)
            names.append(extra)
    tests = []
    for name in names:
        path = os.path.join(directory, name + ".mo")
        if not os.path.exists(path):
            path = os.path.join(directory, name, "package.mo")
        if not os.path.exists(path):
            print(f"warning: {category}/{name} listed but no file found; skipped", file=sys.stderr)
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        within = re.search(r"^\s*within\s+([\w.]+)\s*;", text, re.M)
        declared = re.search(r"^\s*(?:partial\s+|encapsulated\s+)*" + CLASS_KINDS + r"\s+(\w+)", text, re.M)
        if declared and declared.group(1) != name:
            print(f"warning: {path} declares {declared.group(1)}, expected {name}", file=sys.stderr)
        prefix = within.group(1) if within else ROOT_PACKAGE + "." + category.replace("/", ".")
        full_name = prefix + "." + (declared.group(1) if declared else name)
        m = re.search(r"shouldPass\s*=\s*(true|false)", text)
        should_pass = None if m is None else (m.group(1) == "true")
        sec = re.search(r"section\s*=\s*\{([^}]*)\}", text)
        sections = one_line(sec.group(1).replace('"', "")) if sec else ""
        if should_pass is None:
            print(f"warning: {full_name} has no TestCase(shouldPass=...); skipped", file=sys.stderr)
            continue
        tests.append((full_name, path, should_pass, sections))
    return tests


def error_findings(stdout, stderr):
    """Return the list of (rule, message, file) error findings, JSON first, else stderr text."""
    errors = []
    try:
        report = json.loads(stdout) if stdout.strip() else None
    except json.JSONDecodeError:
        report = None
    if isinstance(report, dict):
        for d in report.get("diagnostics", []) or []:
            if d.get("severity") == "error":
                errors.append((d.get("rule", "?"), d.get("message", ""), d.get("file", "")))
    if not errors:
        for line in stderr.splitlines():
            m = STDERR_ERROR_RE.match(line) or STDERR_ERROR_NOLOC_RE.match(line)
            if m:
                errors.append((m.group("rule"), m.group("msg"), m.groupdict().get("file") or ""))
    return errors


def relevant_first(errors, test_path):
    """The first error that is about this test.

    The tool may also report errors in unrelated files of the library (e.g. a
    parse error in another test it scanned while looking for a name), and
    those come first in its output.  Prefer, in this order: the first error in
    the test's own file, then the first in an enclosing package.mo, then the
    first error of all.
    """
    test_path = os.path.realpath(test_path)
    def rank(err):
        f = os.path.realpath(err[2]) if err[2] else ""
        if f == test_path:
            return 0
        if os.path.basename(f) == "package.mo" and test_path.startswith(os.path.dirname(f) + os.sep):
            return 1
        return 2
    return min(errors, key=rank) if errors else ("", "", "")


def run_one(binary, suite, class_name, timeout):
    """Run the tool on one class; return (exit_code or None, kind, stdout, stderr, seconds).

    kind is "exit", "signal" or "timeout".
    """
    env = dict(os.environ, MODELICAPATH=suite)
    cmd = [binary, "simulate", class_name, "--format", "json", "--max-sim-time", MAX_SIM_TIME]
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            start_new_session=True, text=True, errors="replace")
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # only the process group we started
        out, err = proc.communicate()
        return None, "timeout", out, err, time.monotonic() - start
    seconds = time.monotonic() - start
    if proc.returncode < 0:
        return proc.returncode, "signal", out, err, seconds
    return proc.returncode, "exit", out, err, seconds


def classify(should_pass, code, kind, errors, timeout):
    """Return (outcome, detail)."""
    if kind == "timeout":
        return "CRASH", f"timeout after {timeout:g} s"
    if kind == "signal":
        return "CRASH", f"killed by signal {signal.Signals(-code).name}"
    if code == 3:
        return "CRASH", "exit 3 (internal error)"
    if code not in (0, 1, 2):
        return "CRASH", f"unexpected exit code {code}"
    if should_pass:
        if code == 0:
            return "AGREE", "exit 0"
        if code == 2:
            return "DISAGREE-refused", "exit 2"
        return "DISAGREE-finding", "exit 1"
    if code == 0:
        return "DISAGREE-accepted", "exit 0"
    if errors:
        return "AGREE", f"exit {code}"
    return "NO-FINDING", f"exit {code} without an error finding"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--suite", default=DEFAULT_SUITE, help="directory containing ModelicaCompliance/")
    ap.add_argument("--binary", default=DEFAULT_BINARY)
    ap.add_argument("--out-dir", default=DEFAULT_OUT_DIR)
    ap.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT)
    ap.add_argument("--categories", default=",".join(DEFAULT_CATEGORIES),
                    help="comma-separated sub-category directories, e.g. Equations/When,Algorithms/If")
    ap.add_argument("--title", default="modeaudit vs Modelica Compliance")
    args = ap.parse_args()

    categories = [c.strip() for c in args.categories.split(",") if c.strip()]
    os.makedirs(args.out_dir, exist_ok=True)
    rows = []
    for category in categories:
        for class_name, path, should_pass, sections in enumerate_tests(args.suite, category):
            code, kind, out, err, seconds = run_one(args.binary, args.suite, class_name, args.timeout)
            errors = error_findings(out, err)
            outcome, detail = classify(should_pass, code, kind, errors, args.timeout)
            first_rule, first_msg, _ = relevant_first(errors, path)
            all_rules = ",".join(dict.fromkeys(e[0] for e in errors))
            if outcome == "CRASH" and not first_msg:
                first_msg = (err.strip().splitlines() or [""])[-1]
            rows.append({
                "category": category, "test": class_name, "shouldPass": str(should_pass).lower(),
                "exit": "timeout" if kind == "timeout" else str(code), "outcome": outcome,
                "detail": detail, "first_rule": first_rule, "first_message": one_line(first_msg),
                "error_rules": all_rules, "seconds": f"{seconds:.2f}", "sections": sections,
            })
            print(f"{outcome:18} exit={rows[-1]['exit']:>7} {class_name}  {first_rule}", flush=True)

    columns = ["category", "test", "shouldPass", "exit", "outcome", "detail", "first_rule",
               "first_message", "error_rules", "seconds", "sections"]
    with open(os.path.join(args.out_dir, "results.tsv"), "w", encoding="utf-8") as f:
        f.write("\t".join(columns) + "\n")
        for r in rows:
            f.write("\t".join(r[c].replace("\t", " ") for c in columns) + "\n")

    # Per-category table.
    outcomes = ["AGREE", "DISAGREE-refused", "DISAGREE-finding", "DISAGREE-accepted", "NO-FINDING", "CRASH"]
    header = ["category", "tests", "pass/fail"] + outcomes + ["agree %"]
    table = []
    for category in categories:
        sel = [r for r in rows if r["category"] == category]
        if not sel:
            continue
        n_pass = sum(r["shouldPass"] == "true" for r in sel)
        counts = [sum(r["outcome"] == o for r in sel) for o in outcomes]
        table.append([category, str(len(sel)), f"{n_pass}/{len(sel) - n_pass}"] + [str(c) for c in counts]
                     + [f"{100.0 * counts[0] / len(sel):.1f}"])
    total = len(rows)
    agree = sum(r["outcome"] == "AGREE" for r in rows)
    n_pass = sum(r["shouldPass"] == "true" for r in rows)
    totals = [sum(r["outcome"] == o for r in rows) for o in outcomes]
    table.append(["TOTAL", str(total), f"{n_pass}/{total - n_pass}"] + [str(c) for c in totals]
                 + [f"{100.0 * agree / total:.1f}" if total else "-"])

    widths = [max(len(h), *(len(t[i]) for t in table)) for i, h in enumerate(header)]
    print()
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    for t in table:
        print("  ".join(v.ljust(w) for v, w in zip(t, widths)))
    overall = f"Overall agreement: {agree} of {total} ({100.0 * agree / total:.1f} %)" if total else "no tests"
    print(overall)

    # Disagreement causes: rule id + message (file paths stripped).
    causes = {}
    for r in rows:
        if r["outcome"] == "AGREE":
            continue
        msg = re.sub(r"/\S+\.mo(:\d+)*", "<file>", r["first_message"])
        key = (r["outcome"], r["first_rule"] or r["detail"], msg[:140])
        causes.setdefault(key, []).append(r["test"])

    with open(os.path.join(args.out_dir, "summary.md"), "w", encoding="utf-8") as f:
        f.write(f"# {args.title}\n\n")
        f.write(f"Suite: `{args.suite}`; binary: `{args.binary}`; "
                f"command: `MODELICAPATH={args.suite} {args.binary} simulate CLASS --format json "
                f"--max-sim-time {MAX_SIM_TIME}` with a {args.timeout:g} s timeout.\n\n")
        f.write("| " + " | ".join(header) + " |\n|" + "---|" * len(header) + "\n")
        for t in table:
            f.write("| " + " | ".join(t) + " |\n")
        f.write(f"\n**{overall}**\n\n## Crashes\n\n")
        crashes = [r for r in rows if r["outcome"] == "CRASH"]
        for r in crashes:
            f.write(f"- `{r['test']}`: {r['detail']} — {r['first_message']}\n")
        if not crashes:
            f.write("none\n")
        f.write("\n## Non-agreements by first error (outcome, rule, message)\n\n")
        for (outcome, rule, msg), tests in sorted(causes.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            examples = ", ".join(f"`{t.split('.', 1)[1]}`" for t in tests[:3])
            f.write(f"- {len(tests)} × {outcome} `{rule}`: {msg} (e.g. {examples})\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
