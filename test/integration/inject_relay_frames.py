#!/usr/bin/env python3
"""Send hxb frames that a relay must drop:
  inject_relay_frames.py IFACE DST_MAC DST_NODE HOPS COUNT          (raw, root)
  inject_relay_frames.py --udp RELAY_IP DST_NODE HOPS COUNT [PROC]  (UDP, anyone)
The frames go to the relay (its MAC, or its relay port 885) but name
another node; a destination outside the grid must count no_route there, a
hop limit that runs out must count hop_limit where it does, a datagram for
a port outside the processes' range (PROC) refused at the last relay."""
import socket
import struct
import sys

udp = sys.argv[1] == "--udp"
if udp:
    ifname, node, hops, count = sys.argv[2:6]       # ifname: the relay's IP
    proc = int(sys.argv[6]) if len(sys.argv) > 6 else 1
else:
    ifname, mac, node, hops, count = sys.argv[1:6]
    proc = 1
node, hops, count = int(node), int(hops), int(count)
ETH_P_HXB = 0x88B5
HDR = "<BBBBHBBQHHHHIIIII"   # hxb_hdr_t, 44 bytes, little-endian
K_NOP, F_SEQ = 5, 0x02
VERSION = 4                  # HXB_VERSION (uct_hxb/hxb_wire.h)
# src 999/999, dst proc 1: a valid NOP that no process will ever accept
f = struct.pack(HDR, VERSION, K_NOP, F_SEQ, hops, 0, 0, 0, 0x1234, 999, 999, node,
                proc, 1, 0, 1, 0, 0)
if udp:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for _ in range(count):
        s.sendto(f, (ifname, 885))   # ifname: the relay's address
    print("sent", count, "datagrams")
    sys.exit(0)
s = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM, socket.htons(ETH_P_HXB))
dst = bytes.fromhex(mac.replace(":", ""))
for _ in range(count):
    s.sendto(f, (ifname, ETH_P_HXB, 0, 0, dst))
print("sent", count, "frames")
