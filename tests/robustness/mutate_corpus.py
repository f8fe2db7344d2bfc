#!/usr/bin/env python3
"""Mutation fuzzing of `modeaudit check` from the corpus (a quick robustness
check until the libFuzzer harnesses of the hardening issue exist).

    tests/robustness/mutate_corpus.py SEED COUNT [BINARY]

Each case is a corpus model with a few random edits (deleted bytes, inserted
tokens, duplicated lines, random bytes). Any exit code other than 0, 1, 2
(an internal error or a crash) or a run over 20 s is kept in the work folder
as crash_*.mo / hang_*.mo and counted. Standard library only.
"""
import glob, os, random, subprocess, sys, tempfile
random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
binary = sys.argv[3] if len(sys.argv) > 3 else os.path.join(root, 'build/analyzer/modeaudit')
work = tempfile.mkdtemp(prefix='modeaudit-fuzz-')
seeds = [open(f, 'rb').read() for f in sorted(glob.glob(os.path.join(root, 'corpus/**/*.mo'), recursive=True))]
tokens = [b'der(', b')', b'(', b';', b'end', b'if', b'then', b'else', b'when', b'pre(', b'reinit(', b'connect(', b'0', b'1e308', b'-',
          b'*', b'/', b'^', b'x', b'y', b'Real ', b'parameter ', b'Boolean ', b'=', b'==', b'<', b'>', b'and', b'not', b'{', b'}', b'[', b']',
          b'for i in 1:3 loop', b'end for;', b'.', b',', b'"', b'sample(0,1)', b'edge(', b'initial()', b'0/0', b'sqrt(-1)', b'time']
bad = 0
N = int(sys.argv[2]) if len(sys.argv) > 2 else 500
for it in range(N):
    s = bytearray(random.choice(seeds))
    for _ in range(random.randint(1, 6)):
        op = random.random()
        pos = random.randint(0, max(0, len(s) - 1))
        if op < 0.3 and len(s) > 1:
            del s[pos:pos + random.randint(1, 8)]
        elif op < 0.7:
            s[pos:pos] = random.choice(tokens)
        elif op < 0.85:
            # duplicate a line
            lines = s.split(b'\n'); i = random.randrange(len(lines)); lines.insert(i, lines[i]); s = bytearray(b'\n'.join(lines))
        else:
            s[pos:pos+1] = bytes([random.randrange(256)])
    path = os.path.join(work, 'case.mo')
    open(path, 'wb').write(s)
    try:
        p = subprocess.run([binary, 'check', path, '--dump-after=restart'],
                           capture_output=True, timeout=20)
        rc = p.returncode
        if rc not in (0, 1, 2):
            bad += 1
            out = os.path.join(work, f'crash_{it}_{rc}.mo')
            open(out, 'wb').write(s)
            print('CRASH rc', rc, out, p.stderr[-300:])
    except subprocess.TimeoutExpired:
        bad += 1
        out = os.path.join(work, f'hang_{it}.mo')
        open(out, 'wb').write(s)
        print('HANG', out)
print(f'{N} cases, {bad} crashes or hangs (kept in {work})')
sys.exit(1 if bad else 0)
