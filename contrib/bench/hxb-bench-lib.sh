# Sourced by the contrib/bench/hxb-bench-* scripts, after they set $top.
# shellcheck shell=bash
: "${top:?set top, the source tree, before sourcing hxb-bench-lib.sh}"

# ucx_perftest as the benchmarks run it: UCX 1.18's (Debian 13, built with
# MPI) needs -P 0, else it calls MPI_Init when stdin is not a terminal and
# wants two MPI processes; 1.13's has no -P
PERFTEST=ucx_perftest
case $(ucx_perftest -h 2>&1 </dev/null || true) in *"-P <0|1>"*) PERFTEST="ucx_perftest -P 0" ;; esac

# host_note before|after: the host's memory bandwidth now, which other
# tenants of this VM's host share (doc/RESULTS.md, "The slow mode"), and
# before the runs the testbed's checksum mode, GRO, and the kernel's
# autogroups, which the testbed turns off while up where the kernel has them
# (contrib/testbed/README.md)
host_note() {
    local ag=none
    [ ! -e /proc/sys/kernel/sched_autogroup_enabled ] || ag=off
    [ "$1" != before ] || echo "# testbed checksums: ${HXB_TESTBED_CSUM:-hw}, GRO: ${HXB_TESTBED_GRO:-off}, autogroups: $ag (contrib/testbed/README.md)"
    [ ! -x "$top/hxb-membw" ] || echo "# host memory bandwidth $1: $("$top/hxb-membw" 1)"
}

# host_cpu_s: CPU seconds the whole host has been busy since boot (all
# cores: user, nice, system, irq, softirq, steal from /proc/stat), so a
# benchmark can say how much CPU a run took beside how long
host_cpu_s() {
    awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" { printf "%.2f\n", ($2 + $3 + $4 + $7 + $8 + $9) / hz; exit }' /proc/stat
}

# rate_mbs RATE -> MB/s (10^6 bytes/s) of one rail. Accepts exactly what
# hxb-testbed's parse_rate accepts for --rate (a bare number is bit/s there,
# so here too); anything else is an error, so the % columns never rest on a
# rate the testbed read differently.
rate_mbs() {
    local s=${1,,} mult=""
    if [[ $s =~ ^([0-9]+(\.[0-9]+)?)([a-z]*)$ ]]; then
        case ${BASH_REMATCH[3]} in
            ''|bit) mult=1 ;;
            kbit) mult=1000 ;;       mbit) mult=1000000 ;;
            gbit) mult=1000000000 ;; tbit) mult=1000000000000 ;;
            kibit) mult=1024 ;;      mibit) mult=1048576 ;;  gibit) mult=1073741824 ;;
            bps) mult=8 ;;           kbps) mult=8000 ;;
            mbps) mult=8000000 ;;    gbps) mult=8000000000 ;;
        esac
    fi
    # the testbed also refuses rates under 8000 bit/s
    [ -n "$mult" ] && awk -v n="${BASH_REMATCH[1]}" -v m="$mult" \
        'BEGIN { r = n * m; if (r < 8000) exit 1; printf "%.3f\n", r / 8e6 }' && return 0
    echo "${0##*/}: bad rate '$1': one rail's rate as hxb-testbed --rate takes it (e.g. 100mbit, 1gbit, 125mbps; a bare number is bit/s, at least 8000)" >&2
    return 1
}

# bench_copy_libs DIR: copy the libraries the runs load ($LIB, $HXB_REF_LIB
# and the Open MPI components in $BTLDIR) into DIR/lib and point those
# variables there, so a build during a long benchmark cannot rewrite a
# library under the jobs it runs (DIR is the caller's temporary directory,
# opened to the account --user runs as)
bench_copy_libs() {
    local d=$1/lib f
    mkdir -p "$d/mca" && chmod 755 "$1" "$d" "$d/mca" || return 1
    if [ -n "${LIB:-}" ] && [ -f "$LIB" ]; then
        cp "$LIB" "$d/libuct_hxb.so" && LIB=$d/libuct_hxb.so || return 1
    fi
    if [ -n "${HXB_REF_LIB:-}" ] && [ -f "$HXB_REF_LIB" ]; then
        mkdir -p "$d/ref" && chmod 755 "$d/ref" && cp "$HXB_REF_LIB" "$d/ref/libuct_hxb.so" &&
            HXB_REF_LIB=$d/ref/libuct_hxb.so || return 1
    fi
    if [ -n "${BTLDIR:-}" ] && [ -d "$BTLDIR" ]; then
        for f in "$BTLDIR"/mca_*_hxb.so; do
            [ ! -f "$f" ] || cp "$f" "$d/mca/" || return 1
        done
        BTLDIR=$d/mca
    fi
}

# on NODE CMD...: CMD inside NODE of the caller's testbed ($TB, $NAME)
on() { local n=$1; shift; "$TB" exec --name "$NAME" "$n" "$@"; }

# pair_tl_env TL R: the env command line for transport TL between two
# nodes joined by R rails (x0..): hxb (default settings), hxbudp, hxbdual,
# hxbraw (UCX_HXB_MODE), hxbnoauth and hxbfull (UCX_HXB_AUTH=off, full),
# hxbnostat and hxbstat1ms (hxb-stat's counters off, or rewritten every 1 ms),
# hxbref (default settings, another build of the
# library: $HXB_REF_LIB, to put two builds side by side in one run), tcp
# (UCX's, on the rails only). Empty for an unknown TL. Uses the caller's
# $LIB and $NAME.
pair_tl_env() {
    local tl=$1 r=$2 devs="" i user="" e=""
    for ((i = 0; i < r; i++)); do devs+="${devs:+,}x$i"; done
    case $tl in *@user) tl=${tl%@user}; user="$(as_user) " ;; esac
    case $tl in
        hxb) e="env LD_PRELOAD=$LIB UCX_HXB_TOPO=/run/hxb/$NAME/topo.conf UCX_TLS=hxb,self UCX_WARN_UNUSED_ENV_VARS=n" ;;
        hxbref) [ -f "${HXB_REF_LIB:-}" ] &&
                e="env LD_PRELOAD=$HXB_REF_LIB UCX_HXB_TOPO=/run/hxb/$NAME/topo.conf UCX_TLS=hxb,self UCX_WARN_UNUSED_ENV_VARS=n" ;;
        hxbnoauth) e="env LD_PRELOAD=$LIB UCX_HXB_TOPO=/run/hxb/$NAME/topo.conf UCX_HXB_AUTH=off UCX_TLS=hxb,self UCX_WARN_UNUSED_ENV_VARS=n" ;;
        hxbfull) e="env LD_PRELOAD=$LIB UCX_HXB_TOPO=/run/hxb/$NAME/topo.conf UCX_HXB_AUTH=full UCX_TLS=hxb,self UCX_WARN_UNUSED_ENV_VARS=n" ;;
        hxbnostat) e="env LD_PRELOAD=$LIB UCX_HXB_TOPO=/run/hxb/$NAME/topo.conf UCX_HXB_STAT=n UCX_TLS=hxb,self UCX_WARN_UNUSED_ENV_VARS=n" ;;
        hxbstat1ms) e="env LD_PRELOAD=$LIB UCX_HXB_TOPO=/run/hxb/$NAME/topo.conf UCX_HXB_STAT_PERIOD=1ms UCX_TLS=hxb,self UCX_WARN_UNUSED_ENV_VARS=n" ;;
        hxbudp|hxbdual|hxbraw) e="env LD_PRELOAD=$LIB UCX_HXB_TOPO=/run/hxb/$NAME/topo.conf UCX_HXB_MODE=${tl#hxb} UCX_TLS=hxb,self UCX_WARN_UNUSED_ENV_VARS=n" ;;
        tcp) e="env UCX_TLS=tcp,self UCX_NET_DEVICES=$devs UCX_WARN_UNUSED_ENV_VARS=n" ;;
    esac
    [ -z "$e" ] || echo "$user$e"
}

# --user: "TL@user" runs TL's processes as an ordinary account
# ($HXB_BENCH_USER, default hxbuser; created if missing), with no
# capabilities, as a cluster's users run jobs: hxb then has UDP rails only
BENCH_USER=${HXB_BENCH_USER:-hxbuser}
bench_user_ensure() {
    id -u "$BENCH_USER" >/dev/null 2>&1 ||
        useradd -m -s /bin/bash -c "hxb jobs (unprivileged)" "$BENCH_USER" ||
        { echo "${0##*/}: cannot create the account $BENCH_USER" >&2; return 1; }
}
as_user() {
    echo "setpriv --reuid=$BENCH_USER --regid=$BENCH_USER --init-groups --inh-caps=-all --bounding-set=-all"
}
# with_user_tls "LIST": each hxb transport followed by its @user twin
with_user_tls() {
    local t out=""
    for t in $1; do
        out+=" $t"
        case $t in hxb*) [[ $t == *@user ]] || out+=" $t@user" ;; esac
    done
    echo "${out# }"
}

# wait_listen NODE PORT PID: a server started in the background (PID) in
# NODE listens on TCP PORT within 10 s. Sleeping instead raced the client:
# ucx_perftest's client connects once, without retrying. Returns 1 with a
# message on stderr when the server exits first or the 10 s pass. Uses the
# caller's $TB and $NAME.
wait_listen() {
    local node=$1 port=$2 pid=$3 t0=$SECONDS
    while [ $((SECONDS - t0)) -lt 10 ]; do
        "$TB" exec --name "$NAME" "$node" ss -Hltn "sport = :$port" 2>/dev/null | grep -q . && return 0
        kill -0 "$pid" 2>/dev/null || { echo "${0##*/}: server on $node:$port exited before listening" >&2; return 1; }
        sleep 0.1
    done
    echo "${0##*/}: server on $node:$port not listening after 10 s" >&2
    return 1
}

# median_rows: of the lines on stdin (runs of one cell, first field a number
# or "-" for a failed run), the line with the median first field; for an
# even count the field-wise mean of the two middle lines (each field with
# its input's decimals). A cell with any failed run prints a failed line: a
# median of the good runs alone would hide the failure.
median_rows() {
    sort -g -k1,1 | awk '
        { line[NR] = $0; if ($1 == "-" || $1 == "") bad = ($1 == "" ? "-" : $0) }
        END { if (bad != "" || NR == 0) { print (NR ? bad : "-"); exit }
              if (NR % 2) { print line[(NR + 1) / 2]; exit }
              n = split(line[NR / 2], a, " "); split(line[NR / 2 + 1], b, " ")
              for (i = 1; i <= n; i++) {
                  d = index(a[i], ".") ? length(a[i]) - index(a[i], ".") : 0
                  printf "%s", (i > 1 ? " " : "") (a[i] == "-" || b[i] == "-" ? "-" : sprintf("%." d "f", (a[i] + b[i]) / 2))
              }
              print "" }'
}

# spread_line -> " lo-hi |" per cell of the run values appended to
# $TMP/spread (one line per cell) since the last call (--repeat); lo-hi of
# the good runs, and "(N failed)" after it when N runs failed (that cell's
# figure is then "-")
spread_line() {
    awk '{ lo = ""; hi = ""; nf = 0
           for (i = 1; i <= NF; i++) if ($i == "-") nf++; else {
               if (lo == "" || $i + 0 < lo) lo = $i + 0; if (hi == "" || $i + 0 > hi) hi = $i + 0 }
           s = lo == "" ? "-" : sprintf("%.1f-%.1f", lo, hi)
           printf " %15s |", s (nf ? " (" nf " failed)" : "") }' "$TMP/spread"
    : > "$TMP/spread"
}

# --- plots (gnuplot, Debian's gnuplot-nox) ---
# A benchmark takes --plot DIR and calls bench_plot_init NAME "$DIR" once:
# the PNGs (and the .dat tables they are drawn from) go to DIR as
# NAME-WHAT.png; without --plot, beside the output when stdout is a file
# (hxb-bench-rails > out/rails.txt: out/rails-WHAT.png), else nowhere. It
# says where in a "# plots:" line. Then, per figure, lines "X SERIES Y" go
# to plot_add WHAT, and plot_make WHAT TITLE XLABEL YLABEL [OPTS] draws
# them (series names without spaces). bench_plot draws any table file; another bench may call it
# alone (hxb-bench-lib.sh needs only $top).
PLOT_DIR="" PLOT_PREFIX=""
bench_plot_init() {
    local name=$1 dir=${2:-} out
    PLOT_PREFIX=$name PLOT_DIR=""
    if [ -z "$dir" ]; then
        out=$(readlink -f "/proc/$$/fd/1" 2>/dev/null || true)
        if [ -n "$out" ] && [ -f "$out" ]; then
            dir=$(dirname "$out")
            PLOT_PREFIX=$(basename "${out%.*}")
        fi
    fi
    if [ -z "$dir" ]; then
        echo "# plots: none (stdout is not a file; --plot DIR writes them)"
        return 0
    fi
    if ! command -v gnuplot >/dev/null; then
        echo "# plots: none (gnuplot not installed: apt-get install gnuplot-nox)"
        return 0
    fi
    mkdir -p "$dir" || { echo "${0##*/}: cannot create the plot directory $dir" >&2; return 1; }
    PLOT_DIR=$(cd "$dir" && pwd)
    rm -f "$PLOT_DIR/$PLOT_PREFIX"-*.long
    echo "# plots: $PLOT_DIR/$PLOT_PREFIX-*.png"
}

# plot_add WHAT X SERIES Y: one point of figure WHAT (nothing without plots)
plot_add() {
    [ -n "$PLOT_DIR" ] || return 0
    echo "$2 $3 $4" >> "$PLOT_DIR/$PLOT_PREFIX-$1.long"
}

# plot_make WHAT TITLE XLABEL YLABEL [OPTS]: figure WHAT as
# $PLOT_DIR/$PLOT_PREFIX-WHAT.png, from its .dat table
plot_make() {
    local what=$1; shift
    [ -n "$PLOT_DIR" ] && [ -s "$PLOT_DIR/$PLOT_PREFIX-$what.long" ] || return 0
    local base=$PLOT_DIR/$PLOT_PREFIX-$what
    bench_plot_table "$base.long" "$base.dat" "${2// /_}" && rm -f "$base.long" &&
        bench_plot "$base.dat" "$base.png" "$@"
}

# bench_plot_table LONG DAT XNAME: lines "X SERIES Y" of LONG as the table
# DAT: a header "# XNAME SERIES...", then one row per X, "-" where a series
# has no point (X and series in the order they first appear)
bench_plot_table() {
    awk -v xname="$3" '
        !($1 in seenx) { seenx[$1] = 1; xs[++nx] = $1 }
        !($2 in seens) { seens[$2] = 1; ss[++ns] = $2 }
        { y[$1 SUBSEP $2] = $3 }
        END { printf "# %s", xname; for (j = 1; j <= ns; j++) printf " %s", ss[j]; print ""
              for (i = 1; i <= nx; i++) { printf "%s", xs[i]
                  for (j = 1; j <= ns; j++) printf " %s", ((xs[i], ss[j]) in y) ? y[xs[i], ss[j]] : "-"
                  print "" } }' "$1" > "$2"
}

# bench_plot DAT PNG TITLE XLABEL YLABEL [logx] [logy] [y0] [bars] [errbars]:
# a PNG of table DAT (a "# X NAME..." header, then rows "x y...", "-" for a
# missing value; bench_plot_table writes such tables): one line per column
# after the first, named by the header; logx, logy: logarithmic axes, y0:
# the y axis from 0; bars: the first column is a category (a word, e.g. a
# transport), drawn as clustered bars, one per series; errbars: the columns
# after the first come in threes, value, low and high (plot_add them as
# SERIES, SERIES_lo, SERIES_hi, in that order), drawn with error bars from
# low to high and named by the first. Returns 1, with a message, if gnuplot is
# missing or fails or the PNG comes out empty.
bench_plot() {
    local dat=$1 png=$2 title=$3 xl=$4 yl=$5 opt cmd="" i n names bars=0 err=0
    shift 5
    # in gnuplot's single-quoted strings a quote is doubled
    title=${title//\'/\'\'} xl=${xl//\'/\'\'} yl=${yl//\'/\'\'}
    command -v gnuplot >/dev/null ||
        { echo "${0##*/}: no plot $png: gnuplot not installed (apt-get install gnuplot-nox)" >&2; return 1; }
    names=$(sed -n '1s/^# *//p' "$dat")
    n=$(echo "$names" | wc -w)
    [ "$n" -ge 2 ] || { echo "${0##*/}: no plot $png: $dat has no header '# X NAME...'" >&2; return 1; }
    for opt in "$@"; do
        case $opt in
            logx) cmd+="set logscale x 2; set format x \"%.0f\"; " ;;
            logy) cmd+="set logscale y; " ;;
            y0) cmd+="set yrange [0:*]; " ;;
            bars) bars=1 ;;
            errbars) err=1 ;;
            *) echo "${0##*/}: bench_plot: unknown option '$opt' (logx, logy, y0, bars, errbars)" >&2; return 1 ;;
        esac
    done
    [ $err = 0 ] || [ $(((n - 1) % 3)) = 0 ] ||
        { echo "${0##*/}: no plot $png: errbars wants columns in threes (value, low, high) after the first" >&2; return 1; }
    if [ $bars = 1 ]; then
        cmd+="set style data histograms; set style fill solid 0.7 border -1; set boxwidth 0.9; "
        cmd+="set xtics nomirror; set grid noxtics; set yrange [0:*]; set offsets 0, 0, graph 0.05, 0; "
        if [ $err = 1 ]; then cmd+="set style histogram errorbars gap 1 lw 1; "
        else cmd+="set style histogram clustered gap 1; "; fi
    elif [ $err = 1 ]; then
        cmd+="set offsets graph 0.03, graph 0.03, 0, 0; "   # the first and last bars in sight
    fi
    local plots="" u w nm
    for ((i = 2; i <= n; i += 1 + 2 * err)); do
        nm=$(echo "$names" | awk -v i="$i" '{ print $i }'); nm=${nm//\'/\'\'}
        u=$i w=linespoints
        [ $err = 0 ] || u="$i:$((i + 1)):$((i + 2))" w=yerrorlines
        if [ $bars = 1 ]; then
            u+=":xtic(1)" w=""
        else
            u="1:$u"; w="with $w"
        fi
        plots+="${plots:+, }'$dat' using $u $w title '$nm'"
    done
    # shellcheck disable=SC2016
    gnuplot -e "set terminal png size 900,560 noenhanced; set output '$png';
        set title '$title'; set xlabel '$xl'; set ylabel '$yl'; set grid;
        set key outside right; set datafile missing '-'; $cmd plot $plots" 2>"$png.err" &&
        [ -s "$png" ] && rm -f "$png.err" && return 0
    echo "${0##*/}: no plot $png: gnuplot failed: $(head -3 "$png.err" 2>/dev/null)" >&2
    return 1
}
