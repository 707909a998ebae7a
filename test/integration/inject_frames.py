#!/usr/bin/env python3
"""Send malformed hxb frames to one process: inject_frames.py IFACE DST_MAC
DST_NODE DST_PROC JOB_KEY COUNT (IFACE udp:ADDRESS: as UDP datagrams). Each frame is addressed correctly (so the
kernel steers it to the process) but is wrong in exactly one way. The
process authenticates frames (UCX_HXB_AUTH=header): a frame whose tag is
another job's key, or its own job key (what a forger who knows the key
sends, all that authentication off asks for), fails the tag."""
import socket
import struct
import sys

ifname, mac, node, proc, key, count = sys.argv[1:7]
node, proc, key, count = int(node), int(proc), int(key, 0), int(count)
ETH_P_HXB = 0x88B5
HDR = "<BBBBHBBQHHHHIIIII"   # hxb_hdr_t, 44 bytes, little-endian
K_NOP, F_SEQ, F_CSUM = 5, 0x02, 0x01
VERSION = 4                  # HXB_VERSION (uct_hxb/hxb_wire.h)


def frame(version=VERSION, kind=K_NOP, flags=F_SEQ, length=0, jkey=key, csum=0,
          payload=b""):    # jkey: the tag field
    return struct.pack(HDR, version, kind, flags, 8, length, 0, 0, jkey,
                       999, 999, node, proc, 1, 0, 1, 0, csum) + payload


bad = [
    frame(jkey=key ^ 0xdead),              # another job's key as the tag
    frame(jkey=key),                       # the job key as the tag: forged
    frame(version=7),                      # unknown version
    frame(kind=99),                        # unknown kind
    frame(length=4000, payload=b"x" * 8),  # length says more than the frame has
    frame(flags=F_SEQ | F_CSUM, csum=0x12345678),  # checksum does not match
]
if ifname.startswith("udp:"):
    # to a process on UDP rails: the same frames as datagrams to its port
    # (the process id) at the rail address given as IFACE=udp:ADDRESS; no
    # privilege needed, DST_MAC is ignored
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for f in bad:
        for _ in range(count):
            s.sendto(f, (ifname[4:], proc))
else:
    s = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM, socket.htons(ETH_P_HXB))
    dst = bytes.fromhex(mac.replace(":", ""))
    for f in bad:
        for _ in range(count):
            s.sendto(f, (ifname, ETH_P_HXB, 0, 0, dst))
print("sent", len(bad) * count, "frames")
