#!/usr/bin/env python3
"""Turn what `make model-check`, `make fuzz` and `make soak` print into the
CSV files of docs/reliability.md's tables (docs/figures/{model_check,fuzz,
soak}.csv, copied there by `make docs-figures`, rendered by doc_tables.py).

  model:  model/run.sh's lines
          "model NAME [(non-progress)] [[DEFS]]: verified (S states, T s)"
          "model NAME ... (seeded bug[ N]): counterexample (WHAT)"
  fuzz:   apps/isosurface/fuzz/run.sh's summary lines
          "FMT: Ts of Ss, E executions, coverage C edges (F features), corpus N files,
           K new crash(es), U slow unit(s)"
  soak:   tests/soak/soak.c's last "soak: done in ..." line and its
          "soak: resources: ..." line

Usage: reliability_csv.py model|fuzz|soak < output > file.csv
Exit status 1 if the output holds no line of that kind.
"""
import csv
import re
import sys

MODEL_OK = re.compile(r'^model (\w+)( \(non-progress\))?( \[[^\]]*\])?: verified \(([\d.e+]+) states, ([\d.e+-]+) s\)')
MODEL_BUG = re.compile(r'^model (\w+)( \(non-progress\))?( \[[^\]]*\])? \(seeded bug( \d+)?\): (counterexample|NOT CAUGHT)')
FUZZ = re.compile(r'^(\w+): (\S+)s of (\d+)s, (\S+) executions, coverage (\S+) edges \((\S+) features\), '
                  r'corpus (\d+) files, (\d+) new crash\(es\), (\d+) slow unit\(s\)')
SOAK = re.compile(r'^soak: done in (\d+) s: cycles (\d+), regions (\d+) \(top-level (\d+), nested (\d+) '
                  r'of which (\d+) on a joined thread; foreign threads (\d+); stl calls (\d+), '
                  r'isosurfaces (\d+)\), iterations (\d+), steals (\d+), preemptions (\d+), '
                  r'reductions (\d+), cancellations (\d+), exceptions (\d+), failures (\d+)')
RES = re.compile(r'^soak: resources: RSS (-?\d+) -> (-?\d+) KiB.*, threads (-?\d+) -> (-?\d+).*, '
                 r'fds (-?\d+) -> (-?\d+).*: (ok|FAILED)')


def models(lines, out):
    rows = {}
    for line in lines:
        m = MODEL_OK.match(line)
        if m:
            key = (m.group(1), 'liveness' if m.group(2) else 'safety', (m.group(3) or '').strip(' []'))
            rows[key] = {'states': int(float(m.group(4))), 'seconds': m.group(5), 'bugs': 0, 'caught': 0}
            continue
        m = MODEL_BUG.match(line)
        if m:
            key = (m.group(1), 'liveness' if m.group(2) else 'safety', (m.group(3) or '').strip(' []'))
            r = rows.setdefault(key, {'states': '', 'seconds': '', 'bugs': 0, 'caught': 0})
            r['bugs'] += 1
            r['caught'] += m.group(5) == 'counterexample'
    out.writerow(['model', 'check', 'bounds', 'states', 'seconds', 'seeded_bugs', 'caught'])
    for (name, check, bounds), r in rows.items():
        out.writerow([name, check, bounds, r['states'], r['seconds'], r['bugs'], r['caught']])
    return bool(rows)


def fuzz(lines, out):
    out.writerow(['format', 'seconds', 'executions', 'edges', 'features', 'corpus', 'crashes', 'slow'])
    n = 0
    for line in lines:
        m = FUZZ.match(line)
        if m:
            out.writerow(['.' + m.group(1), m.group(2), m.group(4), m.group(5), m.group(6), m.group(7),
                          m.group(8), m.group(9)])
            n += 1
    return n > 0


def soak(lines, out):
    done = res = None
    for line in lines:
        done = SOAK.match(line) or done
        res = RES.match(line) or res
    if not done:
        return False
    out.writerow(['seconds', 'cycles', 'regions', 'top_level', 'nested', 'foreign_threads', 'stl_calls',
                  'isosurfaces', 'iterations', 'steals', 'preemptions', 'reductions', 'cancellations',
                  'exceptions', 'failures', 'rss_kib', 'threads', 'fds', 'resources'])
    g = done.group
    rss = f'{res.group(1)} -> {res.group(2)}' if res else ''
    thr = f'{res.group(3)} -> {res.group(4)}' if res else ''
    fds = f'{res.group(5)} -> {res.group(6)}' if res else ''
    out.writerow([g(1), g(2), g(3), g(4), g(5), g(7), g(8), g(9), g(10), g(11), g(12), g(13), g(14), g(15),
                  g(16), rss, thr, fds, res.group(7) if res else ''])
    return True


def main():
    kinds = {'model': models, 'fuzz': fuzz, 'soak': soak}
    if len(sys.argv) != 2 or sys.argv[1] not in kinds:
        sys.exit(__doc__)
    lines = [l.rstrip('\n') for l in sys.stdin]
    if not kinds[sys.argv[1]](lines, csv.writer(sys.stdout, lineterminator='\n')):
        sys.exit(f'reliability_csv.py: no {sys.argv[1]} line in the input')


if __name__ == '__main__':
    main()
