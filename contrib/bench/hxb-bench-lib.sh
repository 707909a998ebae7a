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
# before the runs the testbed's checksum mode (contrib/testbed/README.md)
host_note() {
    [ "$1" != before ] || echo "# testbed checksums: ${HXB_TESTBED_CSUM:-hw}, GRO: ${HXB_TESTBED_GRO:-off} (contrib/testbed/README.md)"
    [ ! -x "$top/hxb-membw" ] || echo "# host memory bandwidth $1: $("$top/hxb-membw" 1)"
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
