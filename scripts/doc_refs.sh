#!/usr/bin/env bash
# References of README.md and docs/*.md, and of the comments of the code files, resolve inside
# the repository, so that a clone's documentation and comments have no dangling pointer:
#   - every relative Markdown link [text](path) or [text](path#anchor): the file exists
#     (relative to the page, as GitHub resolves it), inside the repository and outside build/;
#     an anchor into a .md page (or #anchor alone) names one of its headings;
#   - every repository path written in backticks (`docs/guide.md`, `apps/isosurface/cli/demo.sh`,
#     `tests/algorithms/test_algo_*.c`, `perfcounters/perfcounters.{h,c}`, `-Ilibadapt/include`): it exists,
#     relative to the repository root; `<adapt/*.h>` (a header in angle brackets, under adapt/) names public
#     headers of libadapt/include, algorithms/include, stl/include (the C++ front end's) or
#     apps/isosurface/core/include (<adapt/iso.hpp>).
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
# Comments of the code files (CODE_FILES, as git ls-files lists them): every word of a comment
# (/* */ and // in C and C++; # in shell, Python and make) is checked as a word of a code span,
# by the same rules; `../...` there is relative to the file's folder, and a trailing :LINE or
# #anchor is not part of the path.
# Usage: bash scripts/doc_refs.sh [FILE...]   (default: README.md docs/*.md and the code files;
# a FILE not ending in .md is read as a code file)
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

CODE_FILES=('*.c' '*.h' '*.cpp' '*.hpp' '*.mk' '*.sh' '*.py' Makefile '*/Makefile')

if [ $# -gt 0 ]; then
  docs=() code=()
  for f in "$@"; do if [[ $f == *.md ]]; then docs+=("$f"); else code+=("$f"); fi; done
else
  docs=(README.md docs/*.md)
  mapfile -t code < <(git ls-files -- "${CODE_FILES[@]}" 2>/dev/null || true)
fi

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

# Emits "FILE <TAB> line <TAB> word" for each word with a slash of each comment of the C and
# C++ files given: /* ... */ and // ..., outside string and character literals.
extract_c() {
  awk '
    function words(text,   n, i, ws) {
      n = split(text, ws, /[ \t]+/)
      for (i = 1; i <= n; i++) if (index(ws[i], "/")) printf "%s\t%d\t%s\n", FILENAME, FNR, ws[i]
    }
    FNR == 1 { state = "" }
    {
      line = $0
      while (line != "") {
        if (state == "block") {
          if (match(line, /\*\//)) {
            words(substr(line, 1, RSTART - 1)); line = substr(line, RSTART + 2); state = ""
          } else { words(line); line = "" }
          continue
        }
        if (!match(line, /\/\*|\/\/|["\047]/)) break
        tok = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
        if (tok == "/*") state = "block"
        else if (tok == "//") { words(line); line = "" }
        else if (tok == "\"") { if (match(line, /^([^"\\]|\\.)*"/)) line = substr(line, RLENGTH + 1); else line = "" }
        else { if (match(line, /^([^\047\\]|\\.)*\047/)) line = substr(line, RLENGTH + 1); else line = "" }
      }
    }
  ' "$@"
}

# The same for shell, Python and make files: a # at the start of a line or after a blank,
# outside quotes, starts a comment (a first #! line excepted).
extract_hash() {
  awk '
    FNR == 1 && /^#!/ { next }
    {
      line = $0; q = ""; prev = " "
      for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (q != "") { if (c == "\\" && q == "\"") i++; else if (c == q) q = ""; prev = c; continue }
        if (c == "\"" || c == "\047") { q = c; prev = c; continue }
        if (c == "#" && prev ~ /[ \t]/) {
          n = split(substr(line, i + 1), ws, /[ \t]+/)
          for (k = 1; k <= n; k++) if (index(ws[k], "/")) printf "%s\t%d\t%s\n", FILENAME, FNR, ws[k]
          break
        }
        prev = c
      }
    }
  ' "$@"
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

# Checks a word of a code span or of a comment at $where; dir: the folder `../` paths are
# relative to (only in comments; empty: such paths are errors).
check_word() {
  local w=$1 dir=$2 ok s first skip x pat
  # Strip the punctuation of the sentence around it.
  w=${w#[(\"\']}
  while [[ $w =~ [\),\;:.\"\']$ ]]; do w=${w%?}; done
  [[ $w =~ ^[A-Za-z_][A-Za-z0-9_]*=(.*)$ ]] && w=${BASH_REMATCH[1]} # VAR=path
  [[ $w =~ ^-[IL](.+)$ ]] && w=${BASH_REMATCH[1]}                     # -Ipath, -Lpath
  [[ $w == */* ]] || return 0
  [[ $w =~ [A-Za-z0-9] ]] || return 0
  case $w in *://* | *'$'*) return 0 ;; esac
  if [[ $w =~ ^\<(adapt/[^>]*)\>$ ]]; then
    local h=${BASH_REMATCH[1]}
    npaths=$((npaths + 1))
    exists "libadapt/include/$h" || exists "algorithms/include/$h" || exists "stl/include/$h" ||
      exists "apps/isosurface/core/include/$h" ||
      report "$where: <$h> is not a public header (libadapt/include, algorithms/include," \
        "stl/include, apps/isosurface/core/include)"
    return 0
  fi
  [[ $w == \<* ]] && return 0 # a system header, <sys/mman.h>
  if [[ $w == ../* && -n $dir ]]; then # a comment's path relative to its file
    w=$(realpath -m --relative-to="$root" "$root/$dir/$w")
  fi
  case $w in
    ../*) report "$where: \`$w\` is outside the repository"; return 0 ;;
    /*)
      ok=0
      for s in "${SYSTEM_PREFIXES[@]}"; do [[ $w == "$s"* || $w/ == "$s" ]] && ok=1; done
      [ $ok -eq 1 ] || report "$where: \`$w\` is an absolute path outside the repository"
      return 0 ;;
  esac
  w=${w#./}
  first=${w%%/*}
  # Not a repository path: neither a top-level directory nor a source file name.
  if [ -z "${topdir[$first]:-}" ] && [ "$first" != build ] &&
    ! [[ $w =~ \.($EXTENSIONS)(\}|$) || $w =~ \.\{[^}]*\}$ ]]; then
    verbose "$where: not a path: $w"
    return 0
  fi
  if [ "$first" = build ]; then verbose "$where: build output: $w"; return 0; fi
  skip=0
  for x in "${INSTALLED[@]}"; do [ "$w" = "$x" ] && skip=1; done
  if [ $skip -eq 1 ]; then verbose "$where: installed: $w"; return 0; fi
  npaths=$((npaths + 1))
  verbose "$where: path $w"
  pat=${w//<[a-z]*>/*} # placeholders such as run<i>
  exists "$pat" || report "$where: \`$w\` does not exist in the repository"
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
    check_word "$ref" ""
  done < <(extract "$doc")
done

# The code files present in the work tree, by comment syntax.
cfiles=() hfiles=()
for f in "${code[@]}"; do
  [ -f "$f" ] || continue # deleted in the work tree
  case $f in
    *.c | *.h | *.cpp | *.hpp) cfiles+=("$f") ;;
    *) hfiles+=("$f") ;;
  esac
done
nfiles=$((${#cfiles[@]} + ${#hfiles[@]}))
while IFS=$'\t' read -r f line ref; do
  where="$f:$line"
  dir=${f%/*}
  [ "$dir" = "$f" ] && dir=.
  w=${ref//\`/}
  w=${w%%#*}
  [[ $w =~ ^(.+\.[A-Za-z]+):[0-9]+(-[0-9]+)?[\),.\;:]*$ ]] && w=${BASH_REMATCH[1]} # file.c:LINE
  check_word "$w" "$dir"
done < <(
  [ ${#cfiles[@]} -eq 0 ] || extract_c "${cfiles[@]}"
  [ ${#hfiles[@]} -eq 0 ] || extract_hash "${hfiles[@]}"
)

if [ $bad -eq 0 ]; then
  echo "doc-refs: $nlinks links and $npaths repository paths in ${#docs[@]} pages and the" \
    "comments of $nfiles code files resolve"
else
  echo "doc-refs: FAILED ($nlinks links, $npaths repository paths checked)"
fi
exit $bad
