# Sourced by the contrib/bench/hxb-bench-* scripts, after they set $top.
# shellcheck shell=bash
: "${top:?set top, the source tree, before sourcing hxb-bench-lib.sh}"

# host_note before|after: the host's memory bandwidth now, which other
# tenants of this VM's host share (doc/RESULTS.md, "The slow mode"), and
# before the runs the testbed's checksum mode (contrib/testbed/README.md)
host_note() {
    [ "$1" != before ] || echo "# testbed checksums: ${HXB_TESTBED_CSUM:-hw} (contrib/testbed/README.md)"
    [ ! -x "$top/hxb-membw" ] || echo "# host memory bandwidth $1: $("$top/hxb-membw" 1)"
}

# spread_line -> " lo-hi |" per cell of the run values appended to
# $TMP/spread (one line per cell) since the last call (--repeat)
spread_line() {
    awk '{ lo = ""; hi = ""; for (i = 1; i <= NF; i++) if ($i != "-") {
               if (lo == "" || $i + 0 < lo) lo = $i + 0; if (hi == "" || $i + 0 > hi) hi = $i + 0 }
           printf " %15s |", lo == "" ? "-" : sprintf("%.1f-%.1f", lo, hi) }' "$TMP/spread"
    : > "$TMP/spread"
}
