#!/usr/bin/env python3
"""HELLOs for the relay daemons' authentication test (root: raw sockets).
  hello_frames.py capture IFACE SRC_NODE FILE   keep one genuine HELLO of SRC_NODE
  hello_frames.py replay IFACE FILE COUNT       send it again, COUNT times
  hello_frames.py forge IFACE SRC_NODE DIM RAIL COUNT
                                                HELLOs of SRC_NODE under no key
                                                (tag 0, then random tags), each
                                                with a later epoch and counter
Frames go to the broadcast MAC every 50 ms, as a daemon's do."""
import os
import socket
import struct
import sys
import time

ETH_P_HXB = 0x88B5
HDR = "<BBBBHBBQHHHHIIIII"   # hxb_hdr_t, 44 bytes, little-endian
EXT = "<BBHI"                # hxb_hello_ext_t
K_HELLO, VERSION = 20, 4


def sock(ifname):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM, socket.htons(ETH_P_HXB))
    s.bind((ifname, ETH_P_HXB))
    return s


def send(s, ifname, frames):
    for f in frames:
        s.sendto(f, (ifname, ETH_P_HXB, 0, 0, b"\xff" * 6))
        time.sleep(0.05)


cmd, ifname = sys.argv[1], sys.argv[2]
s = sock(ifname)
if cmd == "capture":
    node, path = int(sys.argv[3]), sys.argv[4]
    s.settimeout(5)
    while True:
        f = s.recv(256)
        h = struct.unpack_from(HDR, f)
        if len(f) >= 52 and h[1] == K_HELLO and h[8] == node:
            open(path, "wb").write(f)
            print("captured a HELLO of node", node, "seq", h[14])
            break
elif cmd == "replay":
    f = open(sys.argv[3], "rb").read()
    send(s, ifname, [f] * int(sys.argv[4]))
    print("replayed", sys.argv[4])
elif cmd == "forge":
    node, dim, rail, count = map(int, sys.argv[3:7])
    epoch = int(time.time() * 1000) & 0xffffffff
    frames = []
    for i in range(count):
        tag = 0 if i < count // 2 else struct.unpack("<Q", os.urandom(8))[0]
        frames.append(struct.pack(HDR, VERSION, K_HELLO, 0, 1, 8, 0, 0, tag, node, 0,
                                  0xffff, 0, epoch, 0, 1000000 + i, 0, 0) +
                      struct.pack(EXT, dim, rail, 100, 0))
    send(s, ifname, frames)
    print("forged", count)
