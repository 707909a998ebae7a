#!/bin/sh
# Every tool answers --help and -h with a usage line and exit 0, and an
# unknown option with an error and a non-zero exit: the scripts of contrib/
# and test/fuzz/ (every executable file there) and the installed programs
# and scripts ($HXB_BIN_PROGRAMS, $HXB_BIN_SCRIPTS from Makefile.am). Each
# installed one also needs its man page, doc/man/NAME.1, which must render
# without warnings. A new tool without them fails make check.
srcdir=${srcdir:-.}
fail=0
bad() { echo "FAIL: $*"; fail=1; }
opt=--hxb-no-such-option

# check NAME CMD...: CMD --help, CMD -h, CMD --hxb-no-such-option
check() {
    name=$1; shift
    for h in --help -h; do
        out=$(timeout 20 "$@" $h 2>/dev/null </dev/null); rc=$?
        [ "$rc" = 0 ] || { bad "$name $h: exit $rc, not 0"; return; }
        printf '%s\n' "$out" | grep -qi '^ *usage:' ||
            { bad "$name $h: no line starting with 'usage:'"; return; }
    done
    err=$(timeout 20 "$@" $opt 2>&1 >/dev/null </dev/null); rc=$?
    [ "$rc" != 0 ] || bad "$name $opt: exit 0"
    [ -n "$err" ] || bad "$name $opt: nothing on stderr"
    echo "ok: $name"
}

for f in "$srcdir"/contrib/* "$srcdir"/contrib/*/* "$srcdir"/test/fuzz/*; do
    [ -f "$f" ] && [ -x "$f" ] || continue
    # scripts only: programs built in the tree are checked below, if installed
    [ "$(head -c 2 "$f")" = "#!" ] || continue
    # never run a script that does not know --help: it would do its work
    grep -q -e '--help' "$f" || { bad "${f#"$srcdir"/}: no --help"; continue; }
    check "${f#"$srcdir"/}" "$f"
done
for p in $HXB_BIN_PROGRAMS; do
    [ -x "./$p" ] || { bad "$p: not built"; continue; }
    check "$p" "./$p"
done
for p in $HXB_BIN_PROGRAMS $HXB_BIN_SCRIPTS; do
    p=${p##*/}
    man="$srcdir/doc/man/$p.1"
    [ -f "$man" ] || { bad "$p: no man page doc/man/$p.1"; continue; }
    if command -v groff >/dev/null; then
        w=$(groff -ww -z -man "$man" 2>&1)
        [ -z "$w" ] || bad "doc/man/$p.1: groff: $w"
    fi
    if command -v man >/dev/null; then
        w=$(MANWIDTH=80 man -l "$man" 2>&1 >/dev/null)
        [ -z "$w" ] || bad "doc/man/$p.1: man: $w"
    fi
done
exit $fail
