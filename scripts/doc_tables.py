#!/usr/bin/env python3
"""Render the figure tables of the docs from the benchmarks' own CSV files.

A page marks each generated table with a pair of HTML comments; everything
between them is written by this script, never by hand:

    <!-- table: figures/stl_summary.csv
         cols: algo, n, workers, adapt_ms=adapt ms, adapt_vs_best=vs best
         where: n=1e+07 workers=2
         sort: algo
         fmt: adapt_ms=%.1f adapt_vs_best=%.2f -->
    | algo | n | ... |            (generated)
    <!-- end table -->

  table:  the CSV, relative to docs/ (the benchmarks' CSV as `make bench`
          writes it into build/release/bench-results/, copied to docs/figures/
          by `make docs-figures`)
  cols:   the columns shown, in order; `name=Heading` renames a heading
  where:  optional filters, all of which must hold: `column=value` (string
          equality, or numeric equality when both sides are numbers;
          `column=a|b|c`: any of them), `column!=value` (its negation),
          `column~lo..hi` (a number within lo..hi, bounds included),
          `column!~lo..hi` (a number outside it: the rows that differ); a
          value with spaces in quotes: `bench="nqueens n=12"`
  sort:   optional columns to sort by (a leading - sorts descending)
  fmt:    optional printf formats per column (numbers only)

Lines starting with `#` in a CSV are comments (the machine, the command).

Usage: doc_tables.py [--check] PAGE.md...
  without --check: rewrite the tables of each page in place;
  --check: exit 1 and name each table whose text differs from its CSV.
"""
import csv
import os
import re
import shlex
import sys

MARK = re.compile(r'<!-- table:(.*?)-->\n(.*?)<!-- end table -->', re.S)


def parse_spec(text):
    spec = {'table': None, 'cols': [], 'where': [], 'sort': [], 'fmt': {}}
    key = 'table'
    buf = {k: '' for k in spec}
    for line in ('table:' + text).splitlines():
        line = line.strip()
        m = re.match(r'^(table|cols|where|sort|fmt):\s*(.*)$', line)
        if m:
            key = m.group(1)
            buf[key] += ' ' + m.group(2)
        else:
            buf[key] += ' ' + line
    spec['table'] = buf['table'].strip()
    spec['cols'] = [c.strip() for c in buf['cols'].split(',') if c.strip()]
    spec['where'] = [parse_term(w) for w in shlex.split(buf['where'])]
    spec['sort'] = [c.strip() for c in buf['sort'].replace(',', ' ').split() if c.strip()]
    spec['fmt'] = dict(f.split('=', 1) for f in buf['fmt'].split() if '=' in f)
    return spec


WHERE_TERM = re.compile(r'^([^!=~]+)(!=|=|!~|~)(.*)$')


def parse_term(term):
    """One filter of `where:` as (column, operator, value)."""
    m = WHERE_TERM.match(term)
    if not m:
        raise ValueError(f'where: cannot read {term!r} (column=value, column!=value, '
                         'column~lo..hi or column!~lo..hi)')
    col, op, val = m.groups()
    if op in ('~', '!~'):
        lo, sep, hi = val.partition('..')
        if not sep or as_num(lo) is None or as_num(hi) is None:
            raise ValueError(f'where: {term!r}: the range must be lo..hi, two numbers')
        val = (as_num(lo), as_num(hi))
    return col, op, val


def holds(cell, op, val):
    """Whether a cell meets one `where:` filter."""
    if op == '=':
        return any(same(cell, v) for v in val.split('|'))
    if op == '!=':
        return not any(same(cell, v) for v in val.split('|'))
    n = as_num(cell)
    inside = n is not None and val[0] <= n <= val[1]
    return inside if op == '~' else (n is not None and not inside)


def read_csv(path):
    with open(path, newline='') as fh:
        rows = [r for r in csv.reader(line for line in fh if not line.startswith('#'))]
    if not rows:
        raise ValueError(f'{path}: empty')
    head = rows[0]
    return [dict(zip(head, r)) for r in rows[1:] if r], head


def as_num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def same(a, b):
    na, nb = as_num(a), as_num(b)
    if na is not None and nb is not None:
        return na == nb
    return a == b


def render(spec, base):
    path = os.path.join(base, spec['table'])
    rows, head = read_csv(path)
    cols = []
    for c in spec['cols']:
        name, _, title = c.partition('=')
        name = name.strip()
        if name not in head:
            raise ValueError(f"{spec['table']}: no column '{name}' (has {', '.join(head)})")
        cols.append((name, title.strip() or name))
    for col, _, _ in spec['where']:
        if col not in head:
            raise ValueError(f"{spec['table']}: where: no column '{col}'")
    rows = [r for r in rows if all(holds(r[c], op, v) for c, op, v in spec['where'])]
    for key in reversed(spec['sort']):
        desc = key.startswith('-')
        k = key.lstrip('-')

        def sort_key(r, k=k):
            n = as_num(r[k])
            return (0, n, '') if n is not None else (1, 0, r[k])
        rows.sort(key=sort_key, reverse=desc)
    out = ['| ' + ' | '.join(t for _, t in cols) + ' |',
           '|' + '|'.join('---:' if all(as_num(r[n]) is not None for r in rows) and rows else '---'
                          for n, _ in cols) + '|']
    for r in rows:
        cells = []
        for n, _ in cols:
            v = r[n]
            f = spec['fmt'].get(n)
            if f and as_num(v) is not None:
                v = f % as_num(v)
            cells.append(v.replace('|', '\\|'))
        out.append('| ' + ' | '.join(cells) + ' |')
    if not rows:
        raise ValueError(f"{spec['table']}: no row matches {spec['where']}")
    return '\n'.join(out) + '\n'


def process(page, check):
    text = open(page).read()
    base = os.path.dirname(os.path.abspath(page))
    stale = []

    def repl(m):
        spec = parse_spec(m.group(1))
        body = render(spec, base)
        if body != m.group(2):
            stale.append(spec['table'])
        return '<!-- table:' + m.group(1) + '-->\n' + body + '<!-- end table -->'
    new = MARK.sub(repl, text)
    if check:
        for t in stale:
            print(f'doc_tables: {page}: the table from {t} differs from its CSV '
                  f'(python3 scripts/doc_tables.py {page})', file=sys.stderr)
        return not stale
    if new != text:
        with open(page, 'w') as fh:
            fh.write(new)
    return True


def main(argv):
    check = '--check' in argv
    pages = [a for a in argv if a != '--check']
    if not pages:
        print(__doc__, file=sys.stderr)
        return 2
    ok = True
    for p in pages:
        try:
            ok = process(p, check) and ok
        except (OSError, ValueError) as e:
            print(f'doc_tables: {p}: {e}', file=sys.stderr)
            ok = False
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
