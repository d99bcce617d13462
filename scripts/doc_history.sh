#!/usr/bin/env bash
# The pages are references, not diaries (docs/guide.md, "These pages"): README.md and
# docs/*.md name no session stop ("stop 31", "stops 28-31"), carry no dated section
# heading, and keep no history of attempts beyond one line each under "Tried and left
# out". This checks the first two mechanically; the history lives in the commit log.
set -euo pipefail
cd "$(dirname "$0")/.."
bad=0
while IFS= read -r hit; do
  echo "doc-history: $hit: a page names a stop (say what holds now; history goes in commit messages)" >&2
  bad=1
done < <(grep -nHiE '\bstops? *[0-9]+|\bstop-[0-9]+' README.md docs/*.md || true)
while IFS= read -r hit; do
  echo "doc-history: $hit: a dated heading (a page is a reference, not a diary)" >&2
  bad=1
done < <(grep -nHE '^#+ .*\b(19|20)[0-9]{2}-[01][0-9](-[0-3][0-9])?\b' README.md docs/*.md || true)
[ $bad -eq 0 ] && echo "doc-history: no stops and no dated sections in README.md and docs/"
exit $bad
