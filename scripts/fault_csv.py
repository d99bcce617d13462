#!/usr/bin/env python3
"""Turn the summary lines of the fault-injection driver (`make fault`'s
output, tests/fault/fault_driver.c) into the CSV of the table of
docs/reliability.md (docs/figures/fault_VARIANT.csv, copied there by `make docs-figures`).

  fault: NAME   R runs: I with a failure injected, E returned an error; at most A allocations ...
  fault: threads      S starts (explicit and lazy) with a failing pthread_create, all -EAGAIN

Usage: fault_csv.py VARIANT < driver-output > fault_VARIANT.csv
"""
import re
import sys

SCENARIO = re.compile(r'^fault: (\w+)\s+(\d+) runs:\s+(\d+) with a failure injected,\s+(\d+) '
                      r'returned an error; at most (\d+) allocations')
THREADS = re.compile(r'^fault: threads\s+(\d+) starts .* all -EAGAIN')


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    rows = []
    for line in sys.stdin:
        m = SCENARIO.match(line)
        if m:
            rows.append(m.groups())
            continue
        m = THREADS.match(line)
        if m:
            rows.append(('threads (failing starts)', m.group(1), m.group(1), m.group(1), ''))
    if not rows:
        sys.exit('fault_csv.py: no summary line in the input (did the driver run?)')
    print('# make VARIANT=%s fault: the driver\'s summary lines (scripts/fault_csv.py)' % sys.argv[1])
    print('scenario,runs,injected,errors,clean_allocs')
    for r in rows:
        print(','.join(r))


if __name__ == '__main__':
    main()
