#!/usr/bin/env python3
"""One SARIF log for the whole corpus, validated as code scanning would.

usage: sarif_code_scanning.py MODEAUDIT CORPUS_DIR WORK_DIR

Runs `modeaudit check CORPUS_DIR --format sarif` once (from the current
directory, the project root) and checks the log three ways:

1. against the SARIF 2.1.0 JSON schema with python3-jsonschema (Debian),
   the schema file being the one shipped in the npm package
   @microsoft/sarif-multitool-linux (MIT; installed by .ci/install-deps,
   read from the installed package, never fetched at test time, never
   copied into this repository);
2. with that package's validator (`Sarif.Multitool validate --rule-kind
   "Sarif;Gh"`): the SARIF specification's rules and GitHub's ingestion
   rules (GH1001..GH2012: rule help and full description, locations, ...).
   Any error or warning fails, except SARIF2005 "no informationUri" when the
   build sets no home page (MODEAUDIT_HOMEPAGE);
3. structurally for what code scanning needs and the schema does not say:
   one run, every corpus model an artifact, relative URIs with uriBaseId,
   columnKind, a fingerprint per result, unique fingerprints,
   automationDetails, the exit code in invocations.

Each validator is first shown a broken copy and must reject it, so that a
validator that silently reads nothing cannot pass the test.
Exit 77 (skipped) when the validator package is not installed.
"""
import copy
import json
import os
import subprocess
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def find_multitool():
    roots = []
    try:
        roots.append(subprocess.run(["npm", "root", "-g"], capture_output=True, text=True,
                                    timeout=60).stdout.strip())
    except (OSError, subprocess.SubprocessError):
        pass
    roots += ["/usr/lib/node_modules", "/usr/local/lib/node_modules"]
    for root in roots:
        d = os.path.join(root, "@microsoft", "sarif-multitool-linux")
        exe, schema = os.path.join(d, "Sarif.Multitool"), os.path.join(d, "sarif-2.1.0.json")
        if root and os.path.isfile(exe) and os.path.isfile(schema):
            return exe, schema
    return None, None


def multitool_problems(exe, log, work, name, allowed=()):
    path = os.path.join(work, name + ".sarif")
    out = os.path.join(work, name + ".validation.sarif")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(log, f, indent=1)
    if not os.access(exe, os.X_OK):
        os.chmod(exe, 0o755)
    p = subprocess.run([exe, "validate", path, "--rule-kind", "Sarif;Gh", "-o", out, "--log", "ForceOverwrite"],
                       capture_output=True, text=True, timeout=600, env=dict(os.environ, DOTNET_CLI_TELEMETRY_OPTOUT="1"))
    if p.returncode != 0 or not os.path.isfile(out):
        fail(f"the validator did not run (exit {p.returncode}):\n{p.stdout}\n{p.stderr}")
    with open(out, encoding="utf-8-sig") as f:
        v = json.load(f)
    problems = []
    for run in v.get("runs", []):
        for inv in run.get("invocations", []):
            for n in inv.get("toolExecutionNotifications", []):
                problems.append("validator notification: " + n.get("message", {}).get("text", ""))
        for r in run.get("results", []):
            level = r.get("level", "warning")
            if level in ("error", "warning") and r.get("ruleId") not in allowed:
                text = r.get("message", {}).get("text") or json.dumps(r.get("message"))
                problems.append(f"{level} {r.get('ruleId')}: {text}")
    return problems


def main():
    exe, corpus, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    multitool, schema_path = find_multitool()
    if not multitool:
        print("SKIP: the npm package @microsoft/sarif-multitool-linux is not installed (.ci/install-deps installs it)")
        sys.exit(77)
    try:
        import jsonschema
    except ImportError:
        print("SKIP: python3-jsonschema is not installed (.ci/install-deps installs it)")
        sys.exit(77)

    sarif_path = os.path.join(work, "corpus.sarif")
    p = subprocess.run([exe, "check", corpus, "--format", "sarif", "--no-progress", "-o", sarif_path],
                       capture_output=True, text=True, timeout=1800)
    if p.returncode not in (0, 1, 2):
        fail(f"check exited {p.returncode}:\n{p.stderr}")
    with open(sarif_path, encoding="utf-8") as f:
        log = json.load(f)

    # 1. the JSON schema
    with open(schema_path, encoding="utf-8-sig") as f:
        schema = json.load(f)
    validator = jsonschema.validators.validator_for(schema)(schema)
    broken = copy.deepcopy(log)
    broken["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    if not list(validator.iter_errors(broken)):
        fail("the JSON schema validator accepts startLine 0; it is not validating")
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
    if errors:
        fail("schema: " + "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:20]))

    # 2. SARIF and GitHub ingestion rules
    broken = copy.deepcopy(log)
    del broken["runs"][0]["tool"]["driver"]["rules"][0]["help"]
    if not any("GH" in s for s in multitool_problems(multitool, broken, work, "broken")):
        fail("the SARIF validator does not report a rule without help; it is not validating")
    allowed = () if "informationUri" in log["runs"][0]["tool"]["driver"] else ("SARIF2005",)
    problems = multitool_problems(multitool, log, work, "corpus", allowed)
    if problems:
        fail("validator:\n" + "\n".join(problems[:40]))

    # 3. what code scanning needs beyond the schema
    if len(log["runs"]) != 1:
        fail(f"{len(log['runs'])} runs; one run must cover every model")
    run = log["runs"][0]
    models = sorted(os.path.relpath(os.path.join(d, f), ".").replace(os.sep, "/")
                    for d, _, fs in os.walk(corpus) for f in fs
                  if f.endswith(".mo") and "libraries" not in d.split(os.sep))
    uris = sorted(a["location"]["uri"] for a in run["artifacts"])
    if uris != models:
        fail(f"artifacts {len(uris)} != corpus models {len(models)}: {sorted(set(uris) ^ set(models))[:5]}")
    if any(a["location"].get("uriBaseId") != "%SRCROOT%" for a in run["artifacts"]):
        fail("an artifact without uriBaseId %SRCROOT%")
    if run.get("columnKind") != "unicodeCodePoints":
        fail("columnKind is not unicodeCodePoints")
    if not run.get("automationDetails", {}).get("id", "").endswith("/"):
        fail("automationDetails.id must be CATEGORY/")
    inv = run["invocations"]
    if len(inv) != 1 or inv[0]["exitCode"] != p.returncode or inv[0]["executionSuccessful"] != (p.returncode != 2):
        fail(f"invocations {inv} do not match the exit code {p.returncode}")
    rules = run["tool"]["driver"]["rules"]
    for r in rules:
        if not r.get("help", {}).get("markdown") or not r.get("fullDescription", {}).get("text"):
            fail(f"rule {r['id']} lacks help or fullDescription")
    fingerprints = [r.get("partialFingerprints", {}).get("modeauditFinding/v1") for r in run["results"]]
    if None in fingerprints or len(set(fingerprints)) != len(fingerprints):
        fail("results without a fingerprint, or two with the same")
    for r in run["results"]:
        loc = r["locations"][0]["physicalLocation"]
        if loc["artifactLocation"].get("uriBaseId") != "%SRCROOT%" or "region" not in loc:
            fail(f"result without a repository-relative location: {r}")
        if rules[r["ruleIndex"]]["id"] != r["ruleId"]:
            fail(f"ruleIndex {r['ruleIndex']} does not name {r['ruleId']}")
    print(f"ok: one run, {len(uris)} models, {len(run['results'])} results, {len(rules)} rules; "
          f"JSON schema and the SARIF/GitHub rules pass")


if __name__ == "__main__":
    main()
