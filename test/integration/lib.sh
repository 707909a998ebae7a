# Shared helpers for the integration tests: each test brings up its own
# testbed (name = test name), tears it down on exit, and fails loudly.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TB="$top/contrib/testbed/hxb-testbed"
HXB_LIB=${HXB_LIB:-$top/.libs/libuct_hxb.so}
HXB_BIN=${HXB_BIN:-$top}
TNAME=${TNAME:-t$$}
TOPO=/run/hxb/$TNAME/topo.conf
LOG=$(mktemp -d /tmp/hxb-test.XXXXXX)
KEY=0x5eed0fc0ffee

cleanup() {
    local rc=$?
    jobs -p | xargs -r kill 2>/dev/null || true
    "$TB" down --name "$TNAME" >/dev/null 2>&1 || true
    if [ $rc -ne 0 ]; then
        echo "--- logs of the failed test ($LOG):"
        for f in "$LOG"/*; do
            [ -f "$f" ] || continue
            echo "--- $f"
            # (a key is binary and secret: its size, not its bytes)
            case "$f" in
                *.key) echo "(a key, $(stat -c %s "$f") bytes)" ;;
                *) tail -20 "$f" ;;
            esac
        done
        # again after the logs: a CI summary keeps only the tail
        [ -z "${HXB_FAILED:-}" ] || echo "FAIL ($TNAME, again): $HXB_FAILED"
    fi
    if [ -n "${HXB_KEEP_LOGS:-}" ]; then echo "logs kept in $LOG"; else rm -rf "$LOG"; fi
    exit $rc
}
trap cleanup EXIT

fail() { HXB_FAILED="$*"; echo "FAIL: $*" >&2; exit 1; }
note() { echo "  $*"; }

# ucx_perftest as the tests run it. Built with MPI (Debian 13's UCX 1.18),
# it calls MPI_Init whenever its stdin is not a terminal and then wants two
# MPI processes; -P 0 turns that off (1.13's, built without MPI, has no -P)
PERFTEST=ucx_perftest
case $(ucx_perftest -h 2>&1 </dev/null || true) in *"-P <0|1>"*) PERFTEST="ucx_perftest -P 0" ;; esac

tb_up() { "$TB" up --name "$TNAME" "$@" > "$LOG/testbed" 2>&1 || fail "testbed up $*"; }
# on NODE CMD...: CMD as root inside NODE: testbed plumbing, hxb-relayd,
# frame injectors, inspection (ss, cat)
on() { local n=$1; shift; "$TB" exec --name "$TNAME" "$n" "$@"; }
# proc_port COMM NODE: the UDP port (= hxb process id) of COMM's process on
# NODE, once it has bound one (within 10 s; the relays' 885 is not it)
proc_port() {
    local p=""
    for _ in $(seq 100); do
        p=$(on "$2" ss -Hulpn 2>/dev/null | awk -v c="\"$1\"" 'index($0, c) && $4 !~ /:885$/ {n = split($4, a, ":"); print a[n]; exit}')
        [ -n "$p" ] && break
        sleep 0.1
    done
    [ -n "$p" ] || fail "no UDP port of $1 on $2"
    echo "$p"
}
# iface_mac NODE IFNAME, iface_ip NODE IFNAME: that rail's MAC and IPv4
# address, as the testbed's topology file gives them
iface_mac() { awk -v n="$1" -v i="$2" '$1 == "iface" && $2 == n && $5 == i {print $6}' "$TOPO"; }
iface_ip() { awk -v n="$1" -v i="$2" '$1 == "iface" && $2 == n && $5 == i {split($7, a, "/"); print a[1]}' "$TOPO"; }

# Job processes (hxb-ucp-test, ucx_perftest, mpirun, Open MPI's daemons and
# the ranks) run as an ordinary user, HXB_TEST_USER (default hxbuser, made by
# "hxb-testbed up"), without capabilities: hxb then runs on UDP rails
# (UCX_HXB_MODE=auto without CAP_NET_RAW), as a cluster's users do.
# HXB_TEST_USER=root runs them as root, as before (for comparison; a test
# may set it for one step whose point is privilege, e.g. raw rails).
# Their output goes through redirections made by this (root) shell, so the
# test's log directory, root's, need not be writable by the user.
HXB_TEST_USER=${HXB_TEST_USER:-hxbuser}
# on_user NODE CMD...: CMD as HXB_TEST_USER inside NODE
on_user() { local n=$1; shift; "$TB" exec --name "$TNAME" --user "$HXB_TEST_USER" "$n" "$@"; }
# what mpirun needs to run as root (Open MPI refuses root otherwise); none
# for a user
ompi_root_env() { [ "$HXB_TEST_USER" != root ] || echo OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; }

# unprivileged PID...: each process runs as HXB_TEST_USER (real, effective,
# saved and filesystem uid and gid) and holds no capability (CapInh, CapPrm,
# CapEff and CapAmb all 0; CapBnd stays full, as in any login). Sets
# UNPRIV_N to how many it checked; fails the test on the first that does
# not. A process gone meanwhile is skipped. Nothing to check for root.
unprivileged() {
    local pid n=0 uid gid st
    UNPRIV_N=0
    [ "$HXB_TEST_USER" != root ] || return 0
    uid=$(id -u "$HXB_TEST_USER") gid=$(id -g "$HXB_TEST_USER")
    for pid in "$@"; do
        st=$(cat "/proc/$pid/status" 2>/dev/null) || continue
        awk -v u="$uid" -v g="$gid" '
            $1 == "Uid:" { for (i = 2; i <= 5; i++) if ($i != u) bad = bad " " $0 }
            $1 == "Gid:" { for (i = 2; i <= 5; i++) if ($i != g) bad = bad " " $0 }
            $1 ~ /^Cap(Inh|Prm|Eff|Amb):$/ { if ($2 !~ /^0+$/) bad = bad " " $0 }
            END { if (bad != "") { print bad; exit 1 } }' <<<"$st" >/dev/null ||
            fail "process $pid ($(cat "/proc/$pid/comm" 2>/dev/null)) is privileged: $(grep -E '^(Name|Uid|Gid|Cap(Inh|Prm|Eff|Amb)):' <<<"$st" | tr '\t\n' '  ')"
        n=$((n + 1))
    done
    UNPRIV_N=$n
}
# node_procs REGEX: PIDs of the processes whose name (comm) matches REGEX in
# every node of this test's testbed
node_procs() {
    local ns pid
    for ns in $(ip netns list | awk -v t="$TNAME" '$1 ~ "^" t "-n[0-9]+$" {print $1}'); do
        for pid in $(ip netns pids "$ns" 2>/dev/null); do
            [[ $(cat "/proc/$pid/comm" 2>/dev/null) =~ ^($1)$ ]] && echo "$pid"
        done
    done
    return 0
}
# assert_unprivileged REGEX MIN [WHILE_PID]: within 30 s (while WHILE_PID
# lives), at least MIN processes named REGEX run in the testbed's nodes, and
# every one is unprivileged
assert_unprivileged() {
    local pids=()
    [ "$HXB_TEST_USER" != root ] || return 0
    for _ in $(seq 300); do
        mapfile -t pids < <(node_procs "$1")
        [ ${#pids[@]} -ge "$2" ] && break
        [ -z "${3:-}" ] || kill -0 "$3" 2>/dev/null || break
        sleep 0.1
    done
    [ ${#pids[@]} -ge "$2" ] || fail "only ${#pids[@]} of $2 processes named '$1' seen"
    unprivileged "${pids[@]}"
    [ "$UNPRIV_N" -ge "$2" ] || fail "only $UNPRIV_N of $2 processes named '$1' could be checked"
    note "$UNPRIV_N processes '$1' run as $HXB_TEST_USER without capabilities"
}
hxb_env() {
    echo env LD_PRELOAD="$HXB_LIB" UCX_HXB_TOPO="$TOPO" UCX_HXB_JOB_KEY=$KEY \
        UCX_TLS=hxb,self UCX_HXB_PRINT_STATS=y UCX_WARN_UNUSED_ENV_VARS=n "$@"
}

# ucp_pair NAME [hxb-ucp-test args]: server on $SRV (n0), client on $CLI
# (n1); both must verify every message. Leaves logs in $LOG/NAME.{srv,cli}.
ucp_pair() {
    local name=$1; shift
    local port=$((20000 + RANDOM % 20000)) srv_node=${SRV:-n0} cli_node=${CLI:-n1}
    # shellcheck disable=SC2046
    on_user "$srv_node" $(hxb_env $EXTRA_ENV) "$HXB_BIN/hxb-ucp-test" -p $port "$@" > "$LOG/$name.srv" 2>&1 &
    local srv=$!
    # CHECK_UNPRIV=1: the server, once it runs, is an ordinary user's process
    [ -z "${CHECK_UNPRIV:-}" ] || assert_unprivileged hxb-ucp-test 1 $srv
    # shellcheck disable=SC2046
    on_user "$cli_node" $(hxb_env $EXTRA_ENV) "$HXB_BIN/hxb-ucp-test" -c "198.18.0.$((${srv_node#n} + 1))" \
        -p $port "$@" > "$LOG/$name.cli" 2>&1 ||
        fail "$name: client: $(grep -h FAIL "$LOG/$name.cli" | head -1)"
    wait $srv || fail "$name: server: $(grep -h FAIL "$LOG/$name.srv" | head -1)"
    grep -q "hxb_ucp_test: ok" "$LOG/$name.srv" || fail "$name: server did not verify"
    note "$name: $(grep -h 'hxb_ucp_test: ok' "$LOG/$name.cli" | sed 's/hxb_ucp_test: ok: //')"
}

# Open MPI's own component directories that exist, each followed by ':'.
# Open MPI 4.1 stops scanning mca_base_component_path at the first missing
# directory (e.g. ~/.openmpi/components), so ours is appended to these only.
ompi_comp_path() {
    local d p=
    for d in $(ompi_info --param mca base --level 9 --parsable |
               sed -n 's/^mca:mca:base:param:mca_base_component_path:value:"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' |
               tr ':' ' '); do
        [ -d "$d" ] && p="$p$d:"
    done
    [ -n "$p" ] || fail "cannot read Open MPI's mca_base_component_path"
    echo "$p"
}

# Open MPI's major version (4: Debian 12, 5: Debian 13), 0 without mpirun
OMPI_MAJOR=$( { mpirun --version 2>/dev/null || true; } | sed -n 's/.*(Open MPI) \([0-9]*\)\..*/\1/p' | head -1)
OMPI_MAJOR=${OMPI_MAJOR:-0}
# Open MPI's own collectives to compare with: on 5.0 without coll han, whose
# allgather of a strided datatype returns wrong data (5.0.7, also over btl
# tcp without hxb: hxb-mpi-coll -t, "world allgather ... strided 1")
OMPI_OWN_COLL=()
[ "$OMPI_MAJOR" -lt 5 ] || OMPI_OWN_COLL=(--mca coll ^han)

# tb_mpirun SECS NAME MPIRUN-ARGS...: mpirun inside node n0 (it starts the
# other nodes' daemons through hxb-rsh), one rank per node first, its
# control traffic on the management network, bounded by SECS; output in
# $LOG/NAME; fails the test with the first error lines if mpirun does.
# mpirun runs as HXB_TEST_USER; hxb-rsh, called by it as that user, enters
# the other nodes through sudo and starts the daemons as the same user.
# HXB_MPI_YIELD=0: ranks poll when idle (default 1: they yield, since a
# test's ranks share this host's cores); empty: not set (Open MPI's own
# choice).
# CHECK_RANKS="COMM N": while the job runs, its N rank processes named COMM,
# Open MPI's daemons and mpirun itself must be unprivileged.
tb_mpirun() {
    local secs=$1 name=$2 rc=0 job y=${HXB_MPI_YIELD-1} yield=(); shift 2
    [ -z "$y" ] || yield=(--mca mpi_yield_when_idle "$y")
    # shellcheck disable=SC2046
    on_user n0 env $(ompi_root_env) \
        OMPI_MCA_btl_hxb_verbose="${HXB_BTL_VERBOSE:-0}" \
        timeout "$secs" mpirun --mca plm_rsh_agent "$top/contrib/testbed/hxb-rsh" \
        --hostfile "/run/hxb/$TNAME/hostfile" --map-by node --bind-to none \
        "${yield[@]}" \
        --mca oob_tcp_if_include mgmt --mca btl_tcp_if_include mgmt \
        -x UCX_WARN_UNUSED_ENV_VARS=n "$@" > "$LOG/$name" 2>&1 &
    job=$!
    if [ -n "${CHECK_RANKS:-}" ]; then
        # shellcheck disable=SC2086
        set -- $CHECK_RANKS
        assert_unprivileged "$1" "$2" $job
        assert_unprivileged "orted|prted|mpirun|prterun" 2 $job
    fi
    wait $job || rc=$?
    # Open MPI 5: PMIx reads mca_base_component_path too and complains, with
    # NUL bytes, of every library there that is not its own: keep the log text
    tr -d '\000' < "$LOG/$name" > "$LOG/$name.txt" && mv "$LOG/$name.txt" "$LOG/$name"
    [ $rc = 0 ] ||
        fail "$name: mpirun failed: $(grep -h -m2 -E 'FAIL|rror|timeout' "$LOG/$name")"
}

# need_mpi PROG: skip (77) the test unless mpirun, the BTL and PROG (an MPI
# test program in the build tree) are there
need_mpi() {
    command -v mpirun >/dev/null || { echo "  mpirun not installed"; exit 77; }
    [ -f "$top/.libs/mca_btl_hxb.so" ] && [ -x "$top/$1" ] ||
        { echo "  BTL not built (libopenmpi-dev missing?)"; exit 77; }
}

# hxb_carried LOGFILE: at least two processes' hxb stats show frames received
# (the transport, not another path, carried the job's messages)
# (Open MPI 5's mpirun forwards output in chunks, not lines: a long stats
# line may be cut by another process's output, so it is matched anywhere,
# and logs are read as text whatever NUL bytes PMIx printed into them)
hxb_carried() {
    local n
    n=$(grep -ao "hxb stats node [0-9]* proc [0-9]*: tx_frames=[0-9]* rx_frames=[1-9]" "$1" | wc -l)
    [ "$n" -ge 2 ] || fail "${1##*/}: hxb carried nothing ($n processes with frames)"
}

# stat LOGFILE COUNTER: the counter from the hxb stats line of that process
stat() { grep -ao " $2=[0-9]*" "$1" | head -1 | cut -d= -f2; }
# coll_stats LOG: the "coll hxb stats:" lines of a job's output, wherever
# they start: Open MPI 5 forwards a process's output in chunks, so another
# process's long line may be cut and this one glued to its first part
coll_stats() { grep -ao 'coll hxb stats: host=.*' "$1"; }
# tb_drops: frames the testbed's injected loss has dropped so far (nft counters)
tb_drops() {
    "$TB" status --name "$TNAME" 2>/dev/null |
        awk '/comment "loss/ { for (i = 1; i < NF; i++) if ($i == "packets") s += $(i + 1) }
             END { print s + 0 }'
}
EXTRA_ENV=${EXTRA_ENV:-}

# relay_up: hxb-relayd on every node of the testbed (it reads HXB_TOPO and
# HXB_NODE from "exec"), HELLOs authenticated with one cluster key
# ($LOG/cluster.key, root's alone); returns when each has attached and
# written its stats file $LOG/relay-nI. They end with the testbed.
# (hxb-relayd runs as root, a node's service; the jobs it relays run as
# HXB_TEST_USER, on UDP rails, whose datagrams it forwards like raw frames)
relay_up() {
    local n nodes
    [ -x "$HXB_BIN/hxb-relayd" ] || { echo "SKIP: hxb-relayd not built (clang, libbpf-dev)"; exit 77; }
    [ -s "$LOG/cluster.key" ] || (umask 077; head -c 32 /dev/urandom > "$LOG/cluster.key")
    nodes=$(awk '$1 == "node" {print $2}' "$TOPO")
    for n in $nodes; do relay_start "$n"; done
    for n in $nodes; do relay_started "$n"; done
}
# relay_start NODE [KEYFILE]: (re)start NODE's daemon in the background
relay_start() {
    rm -f "$LOG/relay-$1"
    on "$1" "$HXB_BIN/hxb-relayd" --key "${2:-$LOG/cluster.key}" --stats "$LOG/relay-$1" \
        > "$LOG/relayd-$1" 2>&1 &
}
# relay_started NODE: its daemon wrote its stats file within 10 s
relay_started() {
    for _ in $(seq 100); do [ -s "$LOG/relay-$1" ] && return 0; sleep 0.1; done
    fail "hxb-relayd on $1 did not start: $(head -3 "$LOG/relayd-$1")"
}
# relay_wait NODE STATE [NODE STATE...]: each NODE's relay reports
# "neighbour STATE" (e.g. "x0 n3 dead") within 10 s, else the test fails
relay_wait() {
    local args=("$@") i ok
    for _ in $(seq 100); do
        ok=1
        for ((i = 0; i < ${#args[@]}; i += 2)); do
            grep -q "^neighbour ${args[i + 1]}\$" "$LOG/relay-${args[i]}" || { ok=0; break; }
        done
        [ $ok = 1 ] && return 0
        sleep 0.1
    done
    fail "relay ${args[i]} did not report 'neighbour ${args[i + 1]}' within 10 s"
}
# relay_stat NODE COUNTER: a counter of that node's relay (forwarded, local,
# hop_limit, no_route, deflected, detour)
relay_stat() { grep -o " $2=[0-9]*" "$LOG/relay-$1" | head -1 | cut -d= -f2; }
# relay_stat_pos NODE COUNTER: the counter once it is positive, or 0 after 5 s
# (hxb-relayd rewrites its stats file every interval, later on a busy host)
relay_stat_pos() {
    local v
    for _ in $(seq 50); do
        v=$(relay_stat "$1" "$2"); [ "${v:-0}" -gt 0 ] && break; sleep 0.1
    done
    echo "${v:-0}"
}
# node_kill NODE SIGNAL COMM: signal the processes named COMM in NODE's
# namespace (this test's testbed: all of them are ours). Fails if none.
node_kill() {
    local pid n=0
    for pid in $(ip netns pids "$TNAME-$1"); do
        [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$3" ] || continue
        kill "-$2" "$pid" 2>/dev/null && n=$((n + 1))
    done
    [ $n -gt 0 ]
}
# wait_listen NODE PORT: a TCP socket listens on PORT in NODE within 10 s
# (a server started in the background; its clients connect only once)
wait_listen() {
    for _ in $(seq 100); do
        on "$1" ss -Hltn "sport = :$2" 2>/dev/null | grep -q . && return 0
        sleep 0.1
    done
    fail "nothing listens on $1:$2 after 10 s"
}
