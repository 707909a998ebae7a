#!/bin/bash
# Frames with a wrong tag (another job's key, or the job key itself where
# the process authenticates frames), a bad version, an unknown kind, a lying
# length or a bad checksum reach a process (they pass the kernel filter:
# right destination process) and are dropped and counted, never delivered;
# the process then still talks normally. Twice:
#  - raw: root's processes (HXB_TEST_USER=root), on purpose: the frames are
#    raw Ethernet frames (inject_frames.py on AF_PACKET, as root), which
#    reach only raw rails, and those need CAP_NET_RAW;
#  - udp: an ordinary user's processes (UDP rails), and the same frames as
#    UDP datagrams sent by another ordinary user (hxbuser2): what anyone on
#    the cluster can send; and that user, on the job's node, can open
#    nothing that would show it the job's frames. Twice: on both rails (one
#    socket bound to every address, UCX_HXB_UDP_SHARED) and on one rail (its
#    own socket, bound to the rail's address).
TNAME=t40
. "$(dirname "$0")/lib.sh"
tb_up --grid 2 --rails 2

# bad_frames NAME INJECTOR_USER IFACE [ENV...]: server on n0, injection
# from n1, client; ENV (VAR=VALUE) for both processes
bad_frames() {
    local name=$1 injector=$2 iface=$3 port=$((20000 + RANDOM % 20000)) proc mac srv
    shift 3
    # shellcheck disable=SC2046
    on_user n0 $(hxb_env "$@") "$HXB_BIN/hxb-ucp-test" -p $port -n 100 -m 100000 -t 120 > "$LOG/$name.srv" 2>&1 &
    srv=$!
    # the server's process id on its node is the UDP port it reserved
    proc=$(proc_port hxb-ucp-test n0) || fail "$name: server did not start"
    mac=$(iface_mac n0 x0)
    HXB_TEST_USER=$injector on_user n1 python3 "$top/test/integration/inject_frames.py" "$iface" "$mac" 0 "$proc" $KEY 5 \
        > "$LOG/$name.inject" 2>&1 || fail "$name: injector: $(cat "$LOG/$name.inject")"
    if [ "$name" = udp ]; then
        # the rails' shared socket listens on every address: datagrams to
        # the job's port at an address that is no rail's (the management
        # network's) are counted as foreign and dropped, whatever they hold
        HXB_TEST_USER=$injector on_user n1 python3 "$top/test/integration/inject_frames.py" udp:198.18.0.1 "$mac" 0 "$proc" $KEY 2 \
            > "$LOG/$name.inject2" 2>&1 || fail "$name: injector (management address): $(cat "$LOG/$name.inject2")"
    fi
    if [ "$injector" != root ]; then
        # nor can that user read the job's frames, on the job's own node:
        # not by its port (taken, even with SO_REUSEPORT: another user's),
        # not raw, not at the relays' port 885
        HXB_TEST_USER=$injector on_user n0 python3 -c '
import errno, socket, sys
ip, port = sys.argv[1], int(sys.argv[2])
def refused(what, f, codes):
    try:
        f()
    except OSError as e:
        if e.errno in codes:
            return
        sys.exit("%s: %s, not refused as expected" % (what, e))
    sys.exit("%s: allowed" % what)
def bind_reuse(addr):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    s.bind(addr)
refused("bind the job port", lambda: bind_reuse((ip, port)), (errno.EADDRINUSE,))
refused("bind any address at the job port", lambda: bind_reuse(("0.0.0.0", port)), (errno.EADDRINUSE,))
refused("a packet socket", lambda: socket.socket(socket.AF_PACKET, socket.SOCK_RAW), (errno.EPERM,))
refused("bind port 885", lambda: bind_reuse(("0.0.0.0", 885)), (errno.EACCES,))
print("refused: the job port, raw sockets, port 885")' \
            "$(iface_ip n0 x0)" "$proc" \
            > "$LOG/$name.read" 2>&1 || fail "$name: $injector could read the job's frames: $(cat "$LOG/$name.read")"
        note "$name: $injector on the job's node: $(cat "$LOG/$name.read")"
    fi
    # shellcheck disable=SC2046
    on_user n1 $(hxb_env "$@") "$HXB_BIN/hxb-ucp-test" -c 198.18.0.1 -p $port -n 100 -m 100000 -t 120 > "$LOG/$name.cli" 2>&1 ||
        fail "$name: client: $(grep FAIL "$LOG/$name.cli")"
    wait $srv || fail "$name: server: $(grep FAIL "$LOG/$name.srv")"
    for c in auth:10 version:5 kind:5 length:5 checksum:5; do
        v=$(stat "$LOG/$name.srv" "${c%:*}")
        [ "$v" = "${c#*:}" ] || fail "$name: counter ${c%:*} is '$v', expected ${c#*:} (so many such frames injected)"
    done
    note "$name: 5 each of another job's tag, a forged tag (the job key), bad version, unknown kind, lying length, bad checksum: dropped and counted"
    if [ "$name" = udp ]; then
        v=$(stat "$LOG/$name.srv" rx_foreign)
        [ "$v" = 12 ] || fail "$name: rx_foreign is '$v', expected 12 (datagrams sent to the job's port at the management address)"
        note "$name: 12 datagrams to the job's port at the management address: counted as foreign, dropped"
    fi
}
HXB_TEST_USER=root bad_frames raw root x0
if [ "$HXB_TEST_USER" != root ]; then
    bad_frames udp hxbuser2 "udp:$(iface_ip n0 x0)"
    # a socket per rail, bound to its address (as a process on one UDP
    # rail has): isolated the same way; datagrams to the management
    # address never reach it
    bad_frames udp_own hxbuser2 "udp:$(iface_ip n0 x0)" UCX_HXB_UDP_SHARED=n
fi
