#!/usr/bin/env python3
"""JUnit output of `modeaudit regress`, checked the way CI servers read it.

usage:
  junit_check.py synthetic MODEAUDIT XSD WORK_DIR
      builds a small corpus (a passing model, a model whose expectations do
      not hold, with a control character and a byte that is not UTF-8 in its
      expectation, a model whose name needs escaping), runs regress with
      --junit, once normally and once with a timeout that every model hits,
      and checks each file against XSD with xmllint (libxml2-utils) and by
      its content: classnames from the corpus folder, names relative to it,
      `file`, the first mismatch as the failure message with its type,
      <error type="timeout">, the counts, XML 1.0-safe text.
  junit_check.py shards XSD CORPUS_DIR JUNIT_FILE...
      the JUnit files of the shards of one corpus run: each valid against
      XSD, and together they name every .mo file of CORPUS_DIR exactly once.

The schema check is first shown a broken file and must reject it.
"""
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def xmllint(xsd, path):
    p = subprocess.run(["xmllint", "--noout", "--schema", xsd, path], capture_output=True, text=True)
    return p.returncode, p.stderr


def validate(xsd, path, work):
    raw = open(path, "rb").read()
    if re.search(rb"&#(x0*[0-8bcefBCEF]|x0*1[0-9a-fA-F]|0*[0-8]|0*1[1-9]|0*2[0-9]|0*3[01]);", raw):
        fail(f"{path}: a character reference XML 1.0 forbids")
    raw.decode("utf-8")  # raises on bytes that are not UTF-8
    rc, err = xmllint(xsd, path)
    if rc != 0:
        fail(f"{path} is not valid against {xsd}:\n{err}")
    # The schema must reject a testcase without a classname.
    broken = os.path.join(work, "broken.xml")
    with open(broken, "wb") as f:
        f.write(re.sub(rb' classname="[^"]*"', b"", raw, count=1))
    if xmllint(xsd, broken)[0] == 0:
        fail("xmllint accepts a testcase without classname; the schema check is not working")
    return ET.parse(path).getroot()


def run(exe, args, work):
    return subprocess.run([exe, "regress"] + args, capture_output=True, text=True, cwd=work, timeout=900)


def synthetic(exe, xsd, work):
    shutil.rmtree(work, ignore_errors=True)
    corpus = os.path.join(work, "mini")
    os.makedirs(os.path.join(corpus, "flawed", "deep"))
    good = "// status: good\nmodel Tank\n  Real h(start = 1);\nequation\n  der(h) = -0.5;\nend Tank;\n"
    open(os.path.join(corpus, "tank.mo"), "w").write(good)
    open(os.path.join(corpus, "flawed", "a&b<c>.mo"), "w").write(good)
    # Expects an error that does not come: a missing finding, its message
    # holding U+0001, ESC and a byte that is not UTF-8.
    wrong = b'// status: good\n// expect: structure-index-high at 5:3 "x\x01\x1b\xff"\n' + good.encode()[16:]
    open(os.path.join(corpus, "flawed", "deep", "wrong.mo"), "wb").write(wrong)

    junit = os.path.join(work, "mini.xml")
    p = run(exe, ["mini", "--junit", junit, "-j", "2"], work)
    if p.returncode != 1 or not p.stdout.endswith("2 passed, 1 failed\n"):
        fail(f"regress exited {p.returncode}:\n{p.stdout}\n{p.stderr}")
    root = validate(xsd, junit, work)
    if (root.get("tests"), root.get("failures"), root.get("errors")) != ("3", "1", "0"):
        fail(f"testsuites counts {root.attrib}")
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    if sorted(suites) != ["mini", "mini.flawed", "mini.flawed.deep"]:
        fail(f"suites {sorted(suites)}")
    for s in suites.values():
        if not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", s.get("timestamp", "")):
            fail(f"suite timestamp {s.get('timestamp')}")
        if s.get("tests") != str(len(s.findall("testcase"))):
            fail(f"suite {s.get('name')} counts {s.attrib}")
    cases = {c.get("name"): c for c in root.iter("testcase")}
    if sorted(cases) != ["flawed/a&b<c>.mo", "flawed/deep/wrong.mo", "tank.mo"]:
        fail(f"testcase names {sorted(cases)}")
    if cases["flawed/a&b<c>.mo"].get("classname") != "mini.flawed":
        fail("classname of flawed/a&b<c>.mo")
    if cases["tank.mo"].get("file") != os.path.join("mini", "tank.mo"):
        fail(f"file attribute {cases['tank.mo'].get('file')}")
    f = cases["flawed/deep/wrong.mo"].find("failure")
    if f is None or f.get("type") != "missing-finding":
        fail("the wrong model has no failure of type missing-finding")
    if not f.get("message").startswith("missing: structure-index-high at 5:3 \"x\ufffd\ufffd\ufffd\""):
        fail(f"failure message {f.get('message')!r}")
    if "\n" in f.get("message") or "(expected on header line 2)" not in f.text:
        fail("the message is the first mismatch, the text all of them")

    # Every model times out: <error type="timeout">, counted as errors.
    p = run(exe, ["mini", "--junit", junit, "--timeout", "0.000001"], work)
    root = validate(xsd, junit, work)
    if p.returncode != 1 or (root.get("failures"), root.get("errors")) != ("0", "3"):
        fail(f"timeouts: exit {p.returncode}, {root.attrib}")
    for c in root.iter("testcase"):
        e = c.find("error")
        if e is None or e.get("type") != "timeout" or not e.get("message").startswith("timed out after"):
            fail(f"{c.get('name')}: no <error type=timeout>")
    print("ok: JUnit files valid against the schema, names, classnames, file, failure and error")


# Folders named `libraries` hold classes that models load, not models
# (common/model_selection.cpp).
def shards(xsd, corpus, files):
    work = os.path.dirname(os.path.abspath(files[0]))
    names = []
    for path in files:
        root = validate(xsd, path, work)
        names += [c.get("file") for c in root.iter("testcase")]
    want = sorted(os.path.relpath(os.path.join(d, f), os.path.dirname(os.path.abspath(corpus)))
                  for d, _, fs in os.walk(corpus) for f in fs
                  if f.endswith(".mo") and "libraries" not in d.split(os.sep))
    got = sorted(os.path.relpath(os.path.abspath(n), os.path.dirname(os.path.abspath(corpus))) for n in names)
    if got != want:
        dup = sorted({n for n in got if got.count(n) > 1})
        fail(f"{len(got)} cases over {len(files)} shards for {len(want)} models; duplicated {dup[:5]}, "
             f"missing {sorted(set(want) - set(got))[:5]}")
    print(f"ok: {len(files)} shards cover the {len(want)} corpus models exactly once")


def main():
    if sys.argv[1] == "synthetic":
        synthetic(os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3]), os.path.abspath(sys.argv[4]))
    else:
        shards(sys.argv[2], sys.argv[3], sys.argv[4:])


if __name__ == "__main__":
    main()
