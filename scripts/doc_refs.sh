#!/usr/bin/env bash
# References of README.md and docs/*.md resolve inside the repository, so that a clone's
# documentation has no dangling pointer:
#   - every relative Markdown link [text](path) or [text](path#anchor): the file exists
#     (relative to the page, as GitHub resolves it), inside the repository and outside build/;
#     an anchor into a .md page (or #anchor alone) names one of its headings;
#   - every repository path written in backticks (`docs/guide.md`, `apps/isosurface/demo.sh`,
#     `tests/algorithms/test_algo_*.c`, `perfcounters/perfcounters.{h,c}`, `-Ilibadapt/include`): it exists,
#     relative to the repository root; `<adapt/NAME.h>` is a public header of libadapt/include (the C++ front end's:
#     stl/include).
# What counts as a repository path (the docs also show commands, units and ratios such as
# `n/8P` or `LLC/seq` in backticks): a word of a code span that contains a slash and either
# starts with a top-level directory of the repository or ends with a source extension
# (EXTENSIONS). `../...` and absolute paths outside SYSTEM_PREFIXES are errors (they cannot be
# in a clone). Allowed without a check, explicitly:
#   - build outputs: paths under build/ (made by `make`, absent from a clone);
#   - INSTALLED: paths of an installed copy, relative to its PREFIX (`include/adapt/`);
#   - words with a shell variable (`$HOME/.local/lib`, `$B`) or a URL;
#   - absolute paths of the host system under SYSTEM_PREFIXES (`/proc/stat`, `/usr/local`).
# Code inside fenced or indented code blocks is not checked (shell sessions, programs: the
# programs are compiled by scripts/doc_examples.sh).
# Usage: bash scripts/doc_refs.sh [FILE.md...]   (default: README.md docs/*.md)
# DOC_REFS_VERBOSE=1 lists every link and path checked, and every backticked word with a slash
# that is not taken for a repository path.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd -P)
# Unicode letters in headings (µs) must count as letters in the anchors, as on GitHub.
export LC_ALL=C.UTF-8

EXTENSIONS='c|h|cpp|hpp|cc|md|sh|mk|py|txt|csv|cmake|in|pc|json|yml|yaml'
INSTALLED=(include/adapt/ include/adapt/*.h)
SYSTEM_PREFIXES=(/usr/ /proc/ /sys/ /etc/ /dev/ /tmp/ /opt/ /lib/ /bin/)

if [ $# -gt 0 ]; then docs=("$@"); else docs=(README.md docs/*.md); fi

# Top-level directories of the repository (tracked files, or present for files not yet
# committed), build/ excepted.
declare -A topdir=()
while IFS= read -r d; do topdir[$d]=1; done < <(
  { git ls-files 2>/dev/null | sed -n 's|/.*||p' || true # not a git checkout: the file system
    find . -mindepth 1 -maxdepth 1 -type d ! -name '.*' ! -name build -printf '%f\n'; } |
    sort -u)

bad=0
nlinks=0
npaths=0
report() { echo "doc-refs: $*" >&2; bad=1; }
verbose() { [ -z "${DOC_REFS_VERBOSE:-}" ] || echo "doc-refs: $*"; }

# Emits "L <TAB> line <TAB> target" for each Markdown link and "C <TAB> line <TAB> word" for
# each word of each code span, outside code blocks. Paragraphs are joined so that a code span
# or a link may wrap; a span is a run of N backticks up to the next run of exactly N.
extract() {
  awk '
    function flush(   i, n, c, run, j, k, close_at, span, text, ln, w, nw, words, rest, nl) {
      if (buf == "") return
      n = length(buf); ln = start; text = ""
      i = 1
      while (i <= n) {
        c = substr(buf, i, 1)
        if (c == "\n") ln++
        if (c != "`") { text = text c; i++; continue }
        run = 0; while (substr(buf, i + run, 1) == "`") run++
        # Look for the closing run of exactly `run` backticks.
        close_at = 0; j = i + run
        while (j <= n) {
          if (substr(buf, j, 1) == "`") {
            k = 0; while (substr(buf, j + k, 1) == "`") k++
            if (k == run) { close_at = j; break }
            j += k
          } else j++
        }
        if (!close_at) { text = text substr(buf, i, run); i += run; continue }
        span = substr(buf, i + run, close_at - i - run)
        gsub(/\n/, " ", span)
        nw = split(span, words, /[ \t]+/)
        for (w = 1; w <= nw; w++) if (words[w] != "") printf "C\t%d\t%s\n", ln, words[w]
        # Line numbers advance over newlines inside the span; the text outside spans keeps
        # them too, for the line numbers of the links.
        rest = substr(buf, i, close_at + run - i); nl = gsub(/\n/, "", rest)
        ln += nl; text = text " "; while (nl-- > 0) text = text "\n"
        i = close_at + run
      }
      # Links in the text outside code spans: ](target) with an optional "title".
      ln = start
      while (match(text, /\]\([^) \t\n]+( +"[^"]*")?\)/)) {
        rest = substr(text, 1, RSTART); ln += gsub(/\n/, "", rest)
        w = substr(text, RSTART + 2, RLENGTH - 3); sub(/ +".*$/, "", w)
        printf "L\t%d\t%s\n", ln, w
        text = substr(text, RSTART + RLENGTH)
      }
      buf = ""
    }
    {
      line = $0; probe = line; sub(/^ ? ? ?/, "", probe)
      if (fence == "" && match(probe, /^(```+|~~~+)/)) {
        flush(); fence = substr(probe, 1, RLENGTH); next
      }
      if (fence != "") {
        sub(/[ \t]+$/, "", probe)
        if (substr(probe, 1, length(fence)) == fence && probe ~ ("^[" substr(fence, 1, 1) "]+$"))
          fence = ""
        next
      }
      if (line ~ /^[ \t]*$/) { flush(); blank = 1; incode = 0; next }
      # Indented code block: 4+ spaces after a blank line (list continuations are indented
      # by 2 or 3 here), until the next blank line.
      if ((blank || incode) && buf == "" && line ~ /^    /) { incode = 1; next }
      if (incode) next
      blank = 0
      if (buf == "") { buf = line; start = NR } else buf = buf "\n" line
    }
    END { flush() }
  ' "$1"
}

# GitHub's anchors of a page: the headings, lower-cased, without punctuation (letters,
# digits, spaces, - and _ stay), spaces turned into -; repeats get -1, -2...
anchors() {
  awk '/^[ ]{0,3}(```|~~~)/ { f = !f; next } !f && /^#+ / { sub(/^#+ +/, ""); print }' "$1" |
    while IFS= read -r h; do
      h=${h,,}
      printf '%s\n' "$h" | sed -E 's/[^[:alnum:] _-]//g; s/ /-/g'
    done | awk '{ n = seen[$0]++; print (n ? $0 "-" n : $0) }'
}

# Is a path (relative to the repository root, possibly with *, ? or {a,b}) present?
exists() {
  local p=$1 pre alts post a
  if [[ $p =~ ^([^{]*)\{([^}]*)\}(.*)$ ]]; then
    pre=${BASH_REMATCH[1]} alts=${BASH_REMATCH[2]} post=${BASH_REMATCH[3]}
    IFS=, read -r -a alts <<< "$alts"
    for a in "${alts[@]}"; do exists "$pre$a$post" || return 1; done
    return 0
  fi
  if [[ $p == *[*?]* ]]; then
    compgen -G "$p" > /dev/null
  else
    [ -e "$p" ]
  fi
}

for doc in "${docs[@]}"; do
  docdir=$(dirname "$doc")
  while IFS=$'\t' read -r kind line ref; do
    where="$doc:$line"
    if [ "$kind" = L ]; then
      case $ref in http://* | https://* | mailto:*) continue ;; esac
      nlinks=$((nlinks + 1))
      verbose "$where: link $ref"
      file=${ref%%#*} anchor=
      [[ $ref == *#* ]] && anchor=${ref#*#}
      if [ -z "$file" ]; then
        target=$doc
      else
        target=$(realpath -m --relative-to="$root" "$root/$docdir/$file")
        case $target in
          ../* | /*) report "$where: link ($ref) points outside the repository"; continue ;;
          build | build/*) report "$where: link ($ref) points to a build output"; continue ;;
        esac
        if [ ! -e "$target" ]; then
          report "$where: link ($ref): $target does not exist"
          continue
        fi
      fi
      if [ -n "$anchor" ] && [[ $target == *.md ]] && ! anchors "$target" | grep -qxF -- "$anchor"
      then
        report "$where: link ($ref): no heading of $target has the anchor #$anchor"
      fi
      continue
    fi
    # A word of a code span. Strip the punctuation of the sentence around it.
    w=$ref
    w=${w#[(\"\']}
    while [[ $w =~ [\),\;:.\"\']$ ]]; do w=${w%?}; done
    [[ $w =~ ^[A-Za-z_][A-Za-z0-9_]*=(.*)$ ]] && w=${BASH_REMATCH[1]} # VAR=path
    [[ $w =~ ^-[IL](.+)$ ]] && w=${BASH_REMATCH[1]}                     # -Ipath, -Lpath
    [[ $w == */* ]] || continue
    [[ $w =~ [A-Za-z0-9] ]] || continue
    case $w in *://* | *'$'*) continue ;; esac
    if [[ $w =~ ^\<(adapt/[^>]*)\>$ ]]; then
      npaths=$((npaths + 1))
      [ -e "libadapt/include/${BASH_REMATCH[1]}" ] || [ -e "algorithms/include/${BASH_REMATCH[1]}" ] || [ -e "stl/include/${BASH_REMATCH[1]}" ] ||
        report "$where: <${BASH_REMATCH[1]}> is not a public header (libadapt/include, algorithms/include, stl/include)"
      continue
    fi
    [[ $w == \<* ]] && continue # a system header, <sys/mman.h>
    case $w in
      ../*) report "$where: \`$w\` is outside the repository"; continue ;;
      /*)
        ok=0
        for s in "${SYSTEM_PREFIXES[@]}"; do [[ $w == "$s"* || $w/ == "$s" ]] && ok=1; done
        [ $ok -eq 1 ] || report "$where: \`$w\` is an absolute path outside the repository"
        continue ;;
    esac
    w=${w#./}
    first=${w%%/*}
    # Not a repository path: neither a top-level directory nor a source file name.
    if [ -z "${topdir[$first]:-}" ] && [ "$first" != build ] &&
      ! [[ $w =~ \.($EXTENSIONS)(\}|$) || $w =~ \.\{[^}]*\}$ ]]; then
      verbose "$where: not a path: $w"
      continue
    fi
    if [ "$first" = build ]; then verbose "$where: build output: $w"; continue; fi
    skip=0
    for x in "${INSTALLED[@]}"; do [ "$w" = "$x" ] && skip=1; done
    if [ $skip -eq 1 ]; then verbose "$where: installed: $w"; continue; fi
    npaths=$((npaths + 1))
    verbose "$where: path $w"
    pat=${w//<[a-z]*>/*} # placeholders such as run<i>
    exists "$pat" || report "$where: \`$w\` does not exist in the repository"
  done < <(extract "$doc")
done

if [ $bad -eq 0 ]; then
  echo "doc-refs: $nlinks links and $npaths repository paths in ${#docs[@]} pages resolve"
else
  echo "doc-refs: FAILED ($nlinks links, $npaths repository paths checked)"
fi
exit $bad
