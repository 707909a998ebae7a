#!/usr/bin/env python3
"""An attacker on the job's network (root on a node of the rail switch) for
t79_adversary.sh. Two commands:

  hxb_adversary.py capture OUT SECS IFACE...
      record the hxb frames seen on IFACEs for SECS seconds (raw frames,
      EtherType 0x88B5, and UDP datagrams holding an hxb header), as JSON
      lines, the way a tap on the wire would (a root process on a job's
      node, or a mirror port of the switch)

  hxb_adversary.py attack CONF
      CONF (JSON): {"iface": our rail, "cap": capture file of this run,
      "earlier": capture of an earlier run (or null), "targets": [{"node",
      "proc", "ip", "mac"}...], "auth": "header"|"off", "key": job key,
      "scan": [ips to port-scan], "attacks": [names], "rate": frames/s,
      "out": result file}. Sends each attack to each target process and
      writes, per target, how many frames of each attack reached its
      socket (or raw ring) as far as the kernel lets them: "delivered";
      frames the kernel never hands to the process (an incomplete IP
      fragment, a raw frame for another dst_proc) are counted apart as
      "kernel". Each attack says which drop counter it expects.

Frames are addressed to the target's own IPv4 address and port (UDP), or to
its MAC with its dst_proc (raw: the kernel's socket filter steers by it),
always from this node's own MAC (never a stolen one: the switch would move
the victim's MAC to our port, an attack on the switch, not on hxb)."""
import errno
import json
import os
import random
import socket
import struct
import sys
import time

ETH_P_ALL, ETH_P_HXB, ETH_P_IP = 0x0003, 0x88B5, 0x0800
HDR = "<BBBBHBBQHHHHIIIII"   # hxb_hdr_t, 44 bytes, little-endian
HLEN = 44
VERSION = 4
K_AM, K_PUT, K_GET_REQ, K_GET_RESP, K_NOP, K_ATOMIC = 1, 2, 3, 4, 5, 6
K_ACK, K_ERR, K_PING, K_PONG, K_HELLO = 16, 17, 18, 19, 20
F_CSUM, F_SEQ, F_BUSY = 0x01, 0x02, 0x04
SEQUENCED = (K_AM, K_PUT, K_GET_REQ, K_GET_RESP, K_NOP, K_ATOMIC)
UDP_MAX = 9216               # the UDP rail's receive buffer (hxb_rail_udp.c)


def hdr(f):
    return list(struct.unpack_from(HDR, f))


def pack(h):
    return struct.pack(HDR, *h)


# field indexes in hdr()
VER, KIND, FLAGS, HOPS, LEN, RAIL, RES, TAG, SNODE, SPROC, DNODE, DPROC, \
    SEPOCH, DEPOCH, SEQ, ACK, CSUM = range(17)


def hxb_csum(f):
    """hxb_frame_csum (doc/PROTOCOL.md 8.8)"""
    h = hdr(f)
    h[CSUM] = h[HOPS] = h[RAIL] = 0
    b = pack(h) + f[HLEN:HLEN + h[LEN]]
    b += b"\0" * (-len(b) % 8)
    s = sum(struct.unpack("<%dQ" % (len(b) // 8), b))
    lo, hi = s & (2**64 - 1), s >> 64
    r = lo + hi
    if r >> 64:
        r = (r + 1) & (2**64 - 1)
    for _ in range(2):
        r = (r & 0xffffffff) + (r >> 32)
    return (r & 0xffffffff) ^ 0x5a5a5a5a


def fix_csum(f):
    """recompute the hxb checksum where the frame has one"""
    h = hdr(f)
    if h[FLAGS] & F_CSUM or h[CSUM]:
        h[CSUM] = hxb_csum(f)
        f = pack(h) + f[HLEN:]
    return f


def ip_csum(b):
    b += b"\0" * (len(b) & 1)
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def ipv4(src, dst, payload, ident=None, frag=0, proto=17):
    h = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload),
                    random.getrandbits(16) if ident is None else ident, frag, 64,
                    proto, 0, socket.inet_aton(src), socket.inet_aton(dst))
    return h[:10] + struct.pack("!H", ip_csum(h)) + h[12:] + payload


def udp(src, dst, sport, dport, payload):
    u = struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload
    ph = socket.inet_aton(src) + socket.inet_aton(dst) + struct.pack("!BBH", 0, 17, len(u))
    c = ip_csum(ph + u) or 0xffff
    return u[:6] + struct.pack("!H", c) + u[8:]


def mac_b(m):
    return bytes.fromhex(m.replace(":", ""))


def mac_s(b):
    return ":".join("%02x" % x for x in b)


# ------------------------------------------------------------- capture --

def capture(out, secs, ifaces):
    socks = []
    for i in ifaces:
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        s.bind((i, 0))
        s.setblocking(False)
        socks.append((i, s))
    import select
    end = time.time() + secs
    n = bad = 0
    with open(out, "w") as fo:
        while time.time() < end:
            r, _, _ = select.select([s for _, s in socks], [], [], 0.2)
            for i, s in socks:
                if s not in r:
                    continue
                while True:
                    try:
                        p = s.recv(65535)
                    except BlockingIOError:
                        break
                    rec = classify(p)
                    if rec is None:
                        continue
                    rec["if"] = i
                    f = bytes.fromhex(rec["hxb"])
                    h = hdr(f)
                    if h[FLAGS] & F_CSUM and hxb_csum(f) != h[CSUM]:
                        bad += 1       # our checksum code disagrees: say so
                    fo.write(json.dumps(rec) + "\n")
                    n += 1
    print("captured %d hxb frames on %s%s" % (n, ",".join(ifaces),
          ", %d with a checksum this tool computes otherwise" % bad if bad else ""))
    return 0 if n and not bad else 1


def classify(p):
    if len(p) < 14:
        return None
    et = struct.unpack_from("!H", p, 12)[0]
    if et == ETH_P_HXB and len(p) >= 14 + HLEN:
        f = p[14:]
        kind = "raw"
        extra = {}
    elif et == ETH_P_IP and len(p) >= 42 + HLEN and p[14] == 0x45 and p[23] == 17:
        if struct.unpack_from("!H", p, 20)[0] & 0x3fff:
            return None
        sport, dport, ulen = struct.unpack_from("!HHH", p, 34)
        f = p[42:14 + struct.unpack_from("!H", p, 16)[0]]
        kind = "udp"
        extra = {"sip": socket.inet_ntoa(p[26:30]), "dip": socket.inet_ntoa(p[30:34]),
                 "sport": sport, "dport": dport}
    else:
        return None
    h = hdr(f)
    if h[VER] != VERSION or h[KIND] == K_HELLO or HLEN + h[LEN] > len(f):
        return None
    # a tap before the NIC sees a UDP_SEGMENT train as one datagram: its
    # first frame is kept, one frame a record
    f = f[:HLEN + h[LEN]]
    rec = {"t": kind, "dmac": mac_s(p[0:6]), "smac": mac_s(p[6:12]), "hxb": f.hex()}
    rec.update(extra)
    return rec


# -------------------------------------------------------------- attack --

class Attacker:
    def __init__(self, conf):
        self.c = conf
        self.ifname = conf["iface"]
        self.raw = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        self.raw.bind((self.ifname, 0))
        self.mac = self.raw.getsockname()[4][:6]
        self.ip = conf["my_ip"]
        self.u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.u.bind((self.ip, 0))
        # IP_PMTUDISC_DONT: larger datagrams leave as IP fragments
        self.u.setsockopt(socket.IPPROTO_IP, 10, 0)
        # IP_RECVERR: a datagram our rail's full queue drops is an error
        # (ENOBUFS, retried), not a silent loss counted as delivered
        self.u.setsockopt(socket.IPPROTO_IP, 11, 1)   # IP_RECVERR
        self.u.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
        self.rate = conf.get("rate", 3000)
        self.sent = 0
        self.t0 = time.time()
        self.res = {}
        self.key = int(conf["key"], 0) if conf.get("key") else 0
        self.cap = load(conf.get("cap"))
        self.earlier = load(conf.get("earlier"))
        self.peers = {}

    def pace(self):
        """at most rate frames a second, so that no receive queue of the
        job overflows (a frame the kernel drops for want of room would not
        reach the process: the accounting counts only delivered ones)"""
        self.sent += 1
        ahead = self.sent / self.rate - (time.time() - self.t0)
        if ahead > 0.01:
            time.sleep(ahead)

    def tally(self, t, attack, where="delivered", n=1):
        d = self.res.setdefault("%d:%d" % (t["node"], t["proc"]), {})
        a = d.setdefault(attack, {"delivered": 0, "kernel": 0})
        a[where] += n

    # senders: a datagram from our own socket (the kernel makes the UDP
    # checksum), one with another source (built here, checksums computed),
    # a raw frame to the target's MAC
    @staticmethod
    def retry(send, *args):
        """a rate-limited rail's queue may be full (ENOBUFS, EAGAIN): wait
        for it, up to 2 s, rather than lose the frame uncounted"""
        for _ in range(2000):
            try:
                return send(*args)
            except OSError as e:
                # ECONNREFUSED: an earlier datagram's ICMP answer (the
                # scan's), reported once by the next send, which did not go
                if e.errno == errno.ECONNREFUSED:
                    continue
                if e.errno not in (errno.ENOBUFS, errno.EAGAIN):
                    raise
                time.sleep(0.001)
        raise OSError(errno.ENOBUFS, "the rail's queue stayed full for 2 s")

    def send_udp(self, t, payload):
        self.retry(self.u.sendto, payload, (t["ip"], t["proc"]))
        self.pace()

    def send_udp_from(self, t, src_ip, sport, payload):
        pkt = ipv4(src_ip, t["ip"], udp(src_ip, t["ip"], sport, t["proc"], payload))
        self.retry(self.raw.send, mac_b(t["mac"]) + self.mac + struct.pack("!H", ETH_P_IP) + pkt)
        self.pace()

    def send_raw(self, t, frame):
        self.retry(self.raw.send, mac_b(t["mac"]) + self.mac + struct.pack("!H", ETH_P_HXB) + frame)
        self.pace()

    def frames_to(self, t, recs, kinds=None):
        out = []
        for r in recs:
            f = bytes.fromhex(r["hxb"])
            h = hdr(f)
            if h[DNODE] == t["node"] and h[DPROC] == t["proc"] and \
                    (kinds is None or h[KIND] in kinds):
                out.append((r, f))
        return out

    def peer_of(self, t):
        """a frame the target's peer sent it: the peer's identity and the
        epochs, sequence and ack numbers in use"""
        k = (t["node"], t["proc"])
        if k not in self.peers:
            fs = self.frames_to(t, self.cap)
            self.peers[k] = hdr(fs[-1][1]) if fs else None
        return self.peers[k]

    def forge(self, t, kind, flags, ext, payload=b"", keyed=True, epoch=None, seq=None):
        p = self.peer_of(t)
        if p is None:
            return None
        h = p[:]
        h[VER], h[KIND], h[FLAGS], h[HOPS], h[LEN], h[RAIL], h[RES] = \
            VERSION, kind, flags, 8, len(ext) + len(payload), 0, 0
        # authentication off: the tag is the job key; on: a guess
        h[TAG] = self.key if keyed and self.c["auth"] == "off" else random.getrandbits(64)
        if epoch is not None:
            h[SEPOCH] = epoch
        h[SEQ] = (p[SEQ] + 3) & 0xffffffff if seq is None else seq
        h[CSUM] = 0
        return pack(h) + ext + payload

    def deliver(self, t, f, attack, rec_t="udp"):
        if rec_t == "raw" and t.get("mac"):
            self.send_raw(t, f)
            # short raw frames are padded by Ethernet, still steered by dst_proc
            self.tally(t, attack, "delivered" if hdr(f + b"\0" * 44)[DPROC] == t["proc"]
                       else "kernel")
        else:
            self.send_udp(t, f)
            self.tally(t, attack)

    # --- the attacks; each docstring names the counter that must see it ---
    def a_replay_same(self, t):
        """this run's frames to the target, again, as they were (from our
        address: the tag is right, the sequence number is old): duplicate
        (or window, destination after the job's end)"""
        fs = self.frames_to(t, self.cap, SEQUENCED)[:300]
        for r, f in fs:
            self.deliver(t, f, "replay_same", r["t"])
        # and with the real sender's IPv4 address and port (IP spoofing)
        for r, f in fs[:100]:
            if r["t"] == "udp":
                self.send_udp_from(t, r["sip"], r["sport"], f)
                self.tally(t, "replay_same_spoofed")

    def a_replay_unseq(self, t):
        """this run's ACK, PING and PONG frames again: valid and stale;
        taken and harmless, not dropped (an old cum releases nothing):
        reported apart, not in the drop accounting"""
        for r, f in self.frames_to(t, self.cap, (K_ACK, K_PING, K_PONG, K_ERR))[:100]:
            self.deliver(t, f, "replay_unsequenced", r["t"])

    def a_replay_earlier(self, t):
        """an earlier run's frames (its processes gone), to this run's
        processes: destination (dst_proc, dst_epoch not ours) or auth
        (another job key)"""
        for r in self.earlier[:300]:
            f = bytes.fromhex(r["hxb"])
            h = hdr(f)
            if h[KIND] not in SEQUENCED + (K_ACK, K_ERR, K_PING, K_PONG):
                continue
            self.deliver(t, f, "replay_earlier", r["t"])

    def a_bitflip(self, t):
        """this run's frames with one bit flipped in a field the tag covers,
        the hxb checksum recomputed where the frame has one (the UDP one by
        our kernel, or computed here): auth, or version, kind, length,
        checksum before it"""
        fs = self.frames_to(t, self.cap, SEQUENCED + (K_ACK,))[:300]
        rnd = random.Random(7)
        # header bytes a tag covers, but not dst_proc (22, 23: a raw frame
        # for another process is steered away by the kernel) nor hops (3)
        # and rail (6), which it leaves out on purpose (relays rewrite them)
        offs = [0, 1, 2, 4, 5, 16, 17, 18, 19, 20, 21] + list(range(24, 40))
        for r, f in fs:
            b = bytearray(f)
            o = rnd.choice(offs)
            bit = rnd.randrange(8)
            b[o] ^= 1 << bit
            g = bytes(b)
            if hdr(g)[VER] == VERSION:
                g = fix_csum(g)
            # the checksum flag (flags bit 0) is outside the tag on purpose
            # (8.13): such a flip leaves a replay (a duplicate, or for an
            # ACK a stale ACK, taken and harmless), reported apart
            self.deliver(t, g, "bitflip_untagged" if o == 2 and bit == 0 else "bitflip", r["t"])

    def a_forged_ack(self, t):
        """ACK/SACK of frames never sent (cum far ahead, every SACK bit):
        auth (with authentication off: taken and ignored, cum > tx_push)"""
        for i in range(100):
            p = self.peer_of(t)
            ext = struct.pack("<IHHII", (p[ACK] + 5000 + i) & 0xffffffff, 1024, 0,
                              p[ACK], 0) + b"\xff" * 128
            self.deliver(t, self.forge(t, K_ACK, 0, ext, seq=0), "forged_ack")

    def a_forged_busy(self, t):
        """ACKs with HXB_F_BUSY (would keep a dead peer alive): auth"""
        for i in range(100):
            p = self.peer_of(t)
            ext = struct.pack("<IHHII", p[ACK], 0, 0, 0, 0xffffffff)
            self.deliver(t, self.forge(t, K_ACK, F_BUSY, ext, seq=0), "forged_busy")

    def a_forged_err(self, t):
        """ERR frames refusing frames the target sent: auth"""
        for i in range(100):
            p = self.peer_of(t)
            ext = struct.pack("<II", (p[ACK] - 1 - i % 16) & 0xffffffff, 1)
            self.deliver(t, self.forge(t, K_ERR, 0, ext, seq=0), "forged_err")

    def a_rkey(self, t):
        """PUT and GET_REQ with random rkeys and addresses, in the window:
        auth (with authentication off: rkey, and the sequence number is
        taken from the real sender: not run so)"""
        for i in range(100):
            addr, rkey = random.getrandbits(47), random.getrandbits(64)
            if i % 2:
                f = self.forge(t, K_PUT, F_SEQ, struct.pack("<QQ", addr, rkey), b"x" * 64)
            else:
                f = self.forge(t, K_GET_REQ, F_SEQ, struct.pack("<QQII", addr, rkey, 4096, i))
            self.deliver(t, f, "rkey_guess")

    def a_new_epoch(self, t):
        """frames of the target's peer claiming a new run (a later
        src_epoch): auth, or with authentication off unproven (8.9: the
        real peer is challenged and does not answer for that epoch); no
        reset either way"""
        p = self.peer_of(t)
        for i in range(50):
            ext = struct.pack("<IHHII", p[ACK], 0, 0, 0, 0xffffffff)
            f = self.forge(t, K_ACK, 0, ext, epoch=(p[SEPOCH] + 1000 + i) & 0xffffffff, seq=0)
            self.deliver(t, f, "new_epoch")
            f = self.forge(t, K_NOP, F_SEQ, b"", epoch=(p[SEPOCH] + 2000 + i) & 0xffffffff, seq=i)
            self.deliver(t, f, "new_epoch")

    def a_truncated(self, t):
        """datagrams shorter than a header (short), and headers whose
        frame is cut inside the extension or payload (length)"""
        fs = self.frames_to(t, self.cap, SEQUENCED + (K_ACK,))[:50]
        for r, f in fs:
            for n in (0, 1, 20, 43):
                self.send_udp(t, f[:n])
                self.tally(t, "truncated")
            h = hdr(f)
            if h[LEN] > 0:
                self.send_udp(t, f[:HLEN + h[LEN] - 1])
                self.tally(t, "truncated")

    def a_oversized(self, t):
        """datagrams of 9 000 to 30 000 bytes, more than a rail's MTU (the
        kernel fragments them, IP_PMTUDISC_DONT) and than the process's
        9216-byte receive buffer (it reads the first 9216): a forged header
        (auth), or a genuine frame with junk behind it (duplicate)"""
        fs = self.frames_to(t, self.cap, SEQUENCED)[:20]
        for i in range(40):
            n = random.randint(9000, 30000)
            if i % 2 and fs:
                f = fs[i % len(fs)][1]
                payload = f + os.urandom(n - len(f)) if n > len(f) else f
            else:
                payload = (self.forge(t, K_AM, F_SEQ, struct.pack("<BBBBI", 1, 0, 0, 0, n - 52),
                                      keyed=False)
                           + os.urandom(n - 52))
            self.send_udp(t, payload)
            self.tally(t, "oversized_replay" if i % 2 and fs else "oversized")

    def a_fragments(self, t):
        """IP fragments of forged datagrams, built here: complete ones
        (reassembled, delivered: auth) and first fragments whose rest
        never comes (held by the kernel, then dropped: ReasmFails, never
        reach the process)"""
        for i in range(30):
            f = self.forge(t, K_AM, F_SEQ, struct.pack("<BBBBI", 1, 0, 0, 0, 3000), keyed=False) + \
                os.urandom(3000)
            u = udp(self.ip, t["ip"], 40000 + i, t["proc"], f)
            ident = random.getrandbits(16)
            parts = [(0, u[:1480], 1), (185, u[1480:2960], 1), (370, u[2960:], 0)]
            complete = i % 2 == 0
            for off, chunk, more in parts if complete else parts[:1]:
                pkt = ipv4(self.ip, t["ip"], chunk, ident=ident, frag=off | (more << 13))
                self.retry(self.raw.send, mac_b(t["mac"]) + self.mac + struct.pack("!H", ETH_P_IP) + pkt)
                self.pace()
            self.tally(t, "fragments", "delivered" if complete else "kernel")

    def a_hello(self, t):
        """forged HELLOs (relay daemons' beacons) sent to a process: auth"""
        p = self.peer_of(t)
        for i in range(50):
            h = [VERSION, K_HELLO, 0, 1, 8, 0, 0, random.getrandbits(64), p[SNODE], 0,
                 t["node"], t["proc"], p[SEPOCH], 0, 1000 + i, 0, 0]
            self.deliver(t, pack(h) + struct.pack("<BBHI", 0, 0, 100, 0), "hello")

    def scan(self, ips, targets):
        """a UDP port scan of the rails' addresses over the whole ephemeral
        range, one 52-byte forged AM each: the job's ports get one each
        (auth); the others answer ICMP port unreachable"""
        lo, hi = map(int, open("/proc/sys/net/ipv4/ip_local_port_range").read().split())
        probe = pack([VERSION, K_AM, F_SEQ, 8, 8, 0, 0, random.getrandbits(64), 999, 999,
                      0, 0, 1, 0, 1, 0, 0]) + struct.pack("<BBBBI", 1, 0, 0, 0, 0)
        for ip in ips:
            for port in range(lo, hi + 1):
                self.retry(self.u.sendto, probe, (ip, port))
                if port % 64 == 0:
                    time.sleep(0.002)
            for t in targets:
                if t["ip"] == ip:
                    self.tally(t, "port_scan")

    def hijacked(self, secs):
        """hxb frames the job sent to our UDP socket within secs"""
        n, end = 0, time.time() + secs
        self.u.settimeout(0.05)
        while time.time() < end:
            try:
                d = self.u.recv(65535)
            except OSError:          # timeout, or an ICMP error reported
                continue
            if len(d) >= 44 and d[0] == VERSION:
                n += 1
        return n

    def run(self):
        for t in self.c["targets"]:
            for a in self.c["attacks"]:
                t1 = time.time()
                getattr(self, "a_" + a)(t)
                self.res.setdefault("%d:%d" % (t["node"], t["proc"]), {}).setdefault(
                    "_time", {})[a] = round(time.time() - t1, 2)
        if self.c.get("scan"):
            self.scan(self.c["scan"], self.c["targets"])
        # the job must not have taken our address for a peer's: replays
        # from it passed every check but the duplicate test, and a process
        # that learned from them would now send its frames here
        self.res["_hijacked"] = self.hijacked(1.0)
        json.dump(self.res, open(self.c["out"], "w"), indent=1)
        print("frames the job sent to the attacker's address: %d" % self.res["_hijacked"])
        for k, v in self.res.items():
            if k.startswith("_"):
                continue
            print("target %s: %s" % (k, ", ".join("%s %d%s" % (a, x["delivered"],
                  " (+%d kept by the kernel)" % x["kernel"] if x["kernel"] else "")
                  for a, x in v.items() if a != "_time")))
            print("  seconds: %s" % v.get("_time"))


def load(path):
    if not path:
        return []
    out = []
    for line in open(path):
        out.append(json.loads(line))
    return out


def main():
    if sys.argv[1] == "capture":
        return capture(sys.argv[2], float(sys.argv[3]), sys.argv[4:])
    if sys.argv[1] == "attack":
        Attacker(json.load(open(sys.argv[2]))).run()
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
