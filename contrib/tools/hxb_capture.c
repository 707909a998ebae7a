/* hxb-capture: capture a node's hxb frames, on one rail or all of them, into
 * one pcapng file with one interface (IDB) per rail, for Wireshark and the
 * dissector contrib/wireshark/hxb.lua.
 *
 * pcapng, written here (libpcap's pcap_dump writes classic pcap only, one
 * link and no interface names): one file keeps the rails' frames in one
 * place, each frame names the rail it was seen on (if_name), and the
 * capture's own counters go into the file too (an ISB per rail at the end),
 * so whoever opens it sees whether frames were lost.
 *
 * Kernel side: one libpcap handle per rail (TPACKET_V3 ring of -B MiB,
 * immediate mode off so frames come by the block), and a BPF filter built
 * from the options (carrier, kind, peer, hop count, job key with
 * authentication off). User side: the same filters again on the hxb header,
 * and those the kernel cannot do (the job's tag under authentication). */
#include "hxb_short.h"
#include "hxb_wire.h"
#include "hxb_auth.h"
#include "hxb_ident.h"
#include "hxb_topo.h"

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <net/if.h>
#include <pcap/pcap.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>

#define CAP_MAX_RAILS 32
#define CAP_TIMEOUT_MS 50          /* a ring block is handed over at least
                                    * this often (immediate mode is off)   */

typedef struct {
    char     name[IF_NAMESIZE];
    pcap_t  *pc;
    int      fd;
    uint32_t idb;                  /* interface id in the pcapng file      */
    struct pcap_stat st0;          /* counters when the filter was set     */
    uint64_t captured, filtered, written;
    uint64_t frames;               /* hxb frames in the written packets   */
    uint64_t recv, drop, ifdrop;   /* pcap_stats minus st0, at the end     */
} cap_rail_t;

/* what the user asked for */
typedef struct {
    uint32_t kinds;                /* bit k: kind k wanted; 0: every kind  */
    int      node, proc;           /* peer: src or dst; -1 any             */
    int      raw, udp;             /* carriers                             */
    int      relayed;              /* only frames relayed (hops < 8, or UDP
                                    * from/to the relay port)              */
    int      have_job;
    hxb_auth_t auth;               /* the job's tag rule (--job, --auth)   */
    unsigned port_lo, port_hi;     /* hxb processes' UDP ports             */
    int      any_version;          /* ports given: keep every datagram     */
} cap_filter_t;

static volatile sig_atomic_t g_stop;
static FILE *g_out;
static int g_nano = 1;             /* timestamps in ns (else us)           */
static uint64_t g_written, g_count;
static cap_filter_t g_f;
static const char *g_prog = "hxb-capture";

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", g_prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static void on_signal(int sig)
{
    (void)sig;
    g_stop = 1;
}

static const char *const kind_names[HXB_K_MAX] = {
    [HXB_K_AM] = "AM", [HXB_K_PUT] = "PUT", [HXB_K_GET_REQ] = "GET_REQ",
    [HXB_K_GET_RESP] = "GET_RESP", [HXB_K_NOP] = "NOP", [HXB_K_ATOMIC] = "ATOMIC",
    [HXB_K_ACK] = "ACK", [HXB_K_ERR] = "ERR", [HXB_K_PING] = "PING",
    [HXB_K_PONG] = "PONG", [HXB_K_HELLO] = "HELLO",
};

static void parse_kinds(char *list)
{
    char *tok, *save = NULL, *end;
    unsigned k;

    for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        for (k = 0; k < HXB_K_MAX; k++) {
            if (kind_names[k] && !strcasecmp(tok, kind_names[k])) {
                break;
            }
        }
        if (k == HXB_K_MAX) {
            k = (unsigned)strtoul(tok, &end, 0);
            if (*end || k >= 32) {
                die("--kind: unknown kind '%s' (AM, PUT, GET_REQ, GET_RESP, NOP, "
                    "ATOMIC, ACK, ERR, PING, PONG, HELLO, or a number below 32)", tok);
            }
        }
        g_f.kinds |= 1u << k;
    }
}

/* --- pcapng (https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-02.html):
 * little-endian blocks, options padded to 32 bits --- */
static void put(const void *p, size_t n)
{
    if (fwrite(p, 1, n, g_out) != n) {
        die("write: %s", strerror(errno));
    }
}

static size_t opt_len(size_t n) { return 4 + ((n + 3) & ~(size_t)3); }

static void put_opt(uint16_t code, const void *v, size_t n)
{
    static const uint8_t zero[4];
    uint16_t h[2] = {code, (uint16_t)n};
    put(h, 4);
    put(v, n);
    put(zero, ((n + 3) & ~(size_t)3) - n);
}

static void put_u32(uint32_t v) { put(&v, 4); }

static void write_shb(void)
{
    static const char app[] = "hxb-capture";
    uint32_t len = 28 + (uint32_t)opt_len(sizeof(app) - 1) + 4;
    uint16_t ver[2] = {1, 0};
    int64_t section = -1;

    put_u32(0x0a0d0d0a);
    put_u32(len);
    put_u32(0x1a2b3c4d);
    put(ver, 4);
    put(&section, 8);
    put_opt(4, app, sizeof(app) - 1);           /* shb_userappl */
    put_opt(0, NULL, 0);
    put_u32(len);
}

static void write_idb(const cap_rail_t *r, int linktype, int snaplen)
{
    uint8_t tsresol = g_nano ? 9 : 6;
    size_t nlen = strlen(r->name);
    uint32_t len = 20 + (uint32_t)(opt_len(nlen) + opt_len(1) + 4);
    uint16_t lt[2] = {(uint16_t)linktype, 0};

    put_u32(1);
    put_u32(len);
    put(lt, 4);
    put_u32((uint32_t)snaplen);
    put_opt(2, r->name, nlen);                  /* if_name */
    put_opt(9, &tsresol, 1);                    /* if_tsresol */
    put_opt(0, NULL, 0);
    put_u32(len);
}

static uint64_t ts_units(const struct timeval *tv)
{
    /* with nanosecond precision libpcap puts ns in tv_usec */
    return (uint64_t)tv->tv_sec * (g_nano ? 1000000000ull : 1000000ull) +
           (uint64_t)tv->tv_usec;
}

static void write_epb(uint32_t idb, const struct pcap_pkthdr *h, const uint8_t *data)
{
    static const uint8_t zero[4];
    uint32_t pad = ((h->caplen + 3) & ~3u) - h->caplen;
    uint32_t len = 32 + h->caplen + pad;
    uint64_t ts = ts_units(&h->ts);

    put_u32(6);
    put_u32(len);
    put_u32(idb);
    put_u32((uint32_t)(ts >> 32));
    put_u32((uint32_t)ts);
    put_u32(h->caplen);
    put_u32(h->len);
    put(data, h->caplen);
    put(zero, pad);
    put_u32(len);
}

/* Interface Statistics Block: the kernel's counts of the rail, so that a
 * reader of the file sees whether it is complete (isb_ifrecv, isb_ifdrop,
 * isb_filteraccept, isb_osdrop, isb_usrdeliv) */
static void write_isb(const cap_rail_t *r)
{
    struct timespec now;
    uint64_t ts, v;
    uint32_t len = 24 + 5 * (uint32_t)opt_len(8) + 4;

    clock_gettime(CLOCK_REALTIME, &now);
    ts = (uint64_t)now.tv_sec * (g_nano ? 1000000000ull : 1000000ull) +
         (uint64_t)(g_nano ? now.tv_nsec : now.tv_nsec / 1000);
    put_u32(5);
    put_u32(len);
    put_u32(r->idb);
    put_u32((uint32_t)(ts >> 32));
    put_u32((uint32_t)ts);
    v = r->recv;    put_opt(4, &v, 8);          /* isb_ifrecv */
    v = r->ifdrop;  put_opt(5, &v, 8);          /* isb_ifdrop */
    v = r->recv;    put_opt(6, &v, 8);          /* isb_filteraccept */
    v = r->drop;    put_opt(7, &v, 8);          /* isb_osdrop */
    v = r->written; put_opt(8, &v, 8);          /* isb_usrdeliv */
    put_opt(0, NULL, 0);
    put_u32(len);
}

/* --- user-space filter --- */

/* the hxb frame in a captured Ethernet frame, or NULL; *udp_relay: a UDP
 * datagram from or to the relay port */
static const uint8_t *hxb_payload(const uint8_t *p, uint32_t caplen, uint32_t *left,
                                  int *is_udp, int *relay_port)
{
    uint16_t type;
    uint32_t off = 14, ihl;
    unsigned sport, dport;

    *relay_port = 0;
    if (caplen < 14) {
        return NULL;
    }
    type = (uint16_t)(p[12] << 8 | p[13]);
    if (type == 0x8100 && caplen >= 18) {       /* one VLAN tag */
        type = (uint16_t)(p[16] << 8 | p[17]);
        off = 18;
    }
    if (type == HXB_ETHERTYPE) {
        *is_udp = 0;
        *left = caplen - off;
        return p + off;
    }
    if (type != 0x0800 || caplen < off + 20 || (p[off] >> 4) != 4 || p[off + 9] != 17) {
        return NULL;
    }
    ihl = (p[off] & 15u) * 4;
    if (caplen < off + ihl + 8) {
        return NULL;
    }
    off += ihl;
    sport = (unsigned)(p[off] << 8 | p[off + 1]);
    dport = (unsigned)(p[off + 2] << 8 | p[off + 3]);
    *relay_port = sport == HXB_RELAY_PORT || dport == HXB_RELAY_PORT;
    *is_udp = 1;
    *left = caplen - off - 8;
    return p + off + 8;
}

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

/* 1: write the frame. The kernel's filter has already done what it could:
 * this checks everything again (and the tag), on the first hxb frame of
 * the packet (a segmented UDP train carries one destination) */
static int wanted(const uint8_t *pkt, uint32_t caplen)
{
    const uint8_t *h;
    uint32_t left;
    int is_udp = 0, relay_port = 0;
    unsigned kind, sn, sp, dn, dp;

    h = hxb_payload(pkt, caplen, &left, &is_udp, &relay_port);
    if (!h || (is_udp ? !g_f.udp : !g_f.raw)) {
        return 0;
    }
    if (is_udp && left >= sizeof(hxb_short_hdr_t) && h[0] == HXB_VERSION_SHORT) {
        /* a short frame (PROTOCOL.md 3.1): never relayed; its tag covers
         * what its receiver rebuilds (epochs, destination), which it does
         * not carry, so --job cannot prove it (but with authentication
         * off: the job key); a node filter sees its source only */
        kind = h[1];
        sn = rd16(h + 4); sp = rd16(h + 6);
        uint64_t tag;

        memcpy(&tag, h + offsetof(hxb_short_hdr_t, tag), sizeof(tag));
        return !(g_f.have_job && (g_f.auth.mode != HXB_AUTH_OFF || tag != g_f.auth.job_key)) &&
               !g_f.relayed &&
               !(g_f.kinds && (kind >= 32 || !(g_f.kinds & (1u << kind)))) &&
               !(g_f.node >= 0 && !(sn == (unsigned)g_f.node &&
                                    (g_f.proc < 0 || sp == (unsigned)g_f.proc)));
    }
    if (left < sizeof(hxb_hdr_t)) {
        /* too short to be hxb's frame, or cut by the snaplen: kept unless
         * a filter needs its header (then it cannot pass) */
        return !(g_f.kinds || g_f.node >= 0 || g_f.have_job || g_f.relayed);
    }
    kind = h[1];
    if (g_f.kinds && (kind >= 32 || !(g_f.kinds & (1u << kind)))) {
        return 0;
    }
    sn = rd16(h + 16); sp = rd16(h + 18); dn = rd16(h + 20); dp = rd16(h + 22);
    if (g_f.node >= 0 &&
        !((sn == (unsigned)g_f.node && (g_f.proc < 0 || sp == (unsigned)g_f.proc)) ||
          (dn == (unsigned)g_f.node && (g_f.proc < 0 || dp == (unsigned)g_f.proc)))) {
        return 0;
    }
    if (g_f.relayed && !(relay_port || (h[3] < HXB_HOPS_MAX && kind != HXB_K_HELLO))) {
        return 0;
    }
    if (g_f.have_job) {
        hxb_hdr_t hdr;
        struct iovec iov;
        size_t need;

        memcpy(&hdr, h, sizeof(hdr));
        need = hxb_frame_tag_len(&g_f.auth, &hdr);
        if (left - sizeof(hdr) < need) {
            return 0;       /* cut before what the tag covers: not provable */
        }
        iov.iov_base = (void *)(h + sizeof(hdr));
        iov.iov_len = need;
        if (hxb_frame_tag(&g_f.auth, &hdr, &iov, 1) != hdr.tag) {
            return 0;
        }
    }
    return 1;
}

/* hxb frames in a packet: a UDP datagram may hold a train, back to back
 * (segmented, seen on its sender before the NIC cuts it; or coalesced by
 * GRO); only those whose header is within the captured bytes count */
static uint64_t count_frames(const uint8_t *pkt, uint32_t caplen)
{
    const uint8_t *h;
    uint32_t left, step, seg = 0;
    int is_udp = 0, relay_port;
    uint64_t n = 0;

    h = hxb_payload(pkt, caplen, &left, &is_udp, &relay_port);
    if (!h || !is_udp) {
        return 1;
    }
    while (left >= sizeof(hxb_short_hdr_t)) {
        if (h[0] == HXB_VERSION_SHORT) {
            /* no length: a train's frames are all of its first one's size
             * (but the last); a short frame first takes the datagram */
            step = seg ? seg : left;
        } else if (left >= sizeof(hxb_hdr_t)) {
            step = (uint32_t)sizeof(hxb_hdr_t) + rd16(h + 4);
        } else {
            break;
        }
        n++;
        if (!seg) {
            seg = step;
        }
        if (step >= left) {
            break;
        }
        h += step;
        left -= step;
    }
    return n ? n : 1;
}

static void on_frame(u_char *arg, const struct pcap_pkthdr *h, const u_char *data)
{
    cap_rail_t *r = (cap_rail_t *)arg;

    r->captured++;
    if (g_count && g_written >= g_count) {
        r->filtered++;      /* past -c: read (the ring must drain), not kept */
        return;
    }
    if (!wanted(data, h->caplen)) {
        r->filtered++;
        return;
    }
    write_epb(r->idb, h, data);
    r->written++;
    r->frames += count_frames(data, h->caplen);
    g_written++;
    if (g_count && g_written >= g_count) {
        g_stop = 1;
    }
}

/* --- the kernel's filter, in pcap's language --- */
static void cat(char *buf, size_t len, const char *fmt, ...)
{
    size_t n = strlen(buf);
    va_list ap;

    va_start(ap, fmt);
    if ((size_t)vsnprintf(buf + n, len - n, fmt, ap) >= len - n) {
        die("filter expression too long");
    }
    va_end(ap);
}

static uint16_t sw16(uint16_t v) { return (uint16_t)(v >> 8 | v << 8); }
static uint32_t sw32(uint32_t v) { return __builtin_bswap32(v); }

/* --kind: the byte at B[AT] is one of the kinds asked for */
static void kind_conds(char *buf, size_t len, const char *b, int at)
{
    unsigned k;
    int first = 1;

    if (!g_f.kinds) {
        return;
    }
    cat(buf, len, " and (");
    for (k = 0; k < 32; k++) {
        if (g_f.kinds & (1u << k)) {
            cat(buf, len, "%s%s[%d] = %u", first ? "" : " or ", b, at, k);
            first = 0;
        }
    }
    cat(buf, len, ")");
}

/* conditions on the hxb header at B[OFF] (B = "ether", OFF = 14; or
 * B = "udp", OFF = 8): header fields are little-endian, BPF loads are
 * big-endian, hence the swaps */
static void hdr_conds(char *buf, size_t len, const char *b, int off, int udp)
{
    kind_conds(buf, len, b, off + 1);
    if (g_f.node >= 0) {
        unsigned n = sw16((uint16_t)g_f.node), p = sw16((uint16_t)g_f.proc);
        if (g_f.proc >= 0) {
            cat(buf, len, " and ((%s[%d:2] = 0x%x and %s[%d:2] = 0x%x) or "
                "(%s[%d:2] = 0x%x and %s[%d:2] = 0x%x))", b, off + 16, n, b, off + 18, p,
                b, off + 20, n, b, off + 22, p);
        } else {
            cat(buf, len, " and (%s[%d:2] = 0x%x or %s[%d:2] = 0x%x)",
                b, off + 16, n, b, off + 20, n);
        }
    }
    if (g_f.relayed) {
        cat(buf, len, " and (%s(%s[%d] < %d and %s[%d] != %d))",
            udp ? "udp port 885 or " : "", b, off + 3, HXB_HOPS_MAX, b, off + 1,
            HXB_K_HELLO);
    }
    if (g_f.have_job && g_f.auth.mode == HXB_AUTH_OFF) {
        uint64_t j = g_f.auth.job_key;
        cat(buf, len, " and %s[%d:4] = 0x%x and %s[%d:4] = 0x%x", b, off + 8,
            sw32((uint32_t)j), b, off + 12, sw32((uint32_t)(j >> 32)));
    }
}

/* the same conditions on a short frame at udp[8] (PROTOCOL.md 3.1): kind
 * at 1, source at 4 and 6, tag at 12; never relayed; a job's tag only
 * with authentication off (else user space cannot prove it either) */
static void short_conds(char *buf, size_t len)
{
    if (g_f.relayed || (g_f.have_job && g_f.auth.mode != HXB_AUTH_OFF)) {
        cat(buf, len, " and 1 = 0");
        return;
    }
    kind_conds(buf, len, "udp", 9);
    if (g_f.node >= 0) {
        cat(buf, len, " and udp[12:2] = 0x%x", sw16((uint16_t)g_f.node));
        if (g_f.proc >= 0) {
            cat(buf, len, " and udp[14:2] = 0x%x", sw16((uint16_t)g_f.proc));
        }
    }
    if (g_f.have_job) {
        uint64_t j = g_f.auth.job_key;
        cat(buf, len, " and udp[20:4] = 0x%x and udp[24:4] = 0x%x",
            sw32((uint32_t)j), sw32((uint32_t)(j >> 32)));
    }
}

static void build_filter(char *buf, size_t len)
{
    buf[0] = 0;
    if (g_f.raw) {
        cat(buf, len, "(ether proto 0x%x", HXB_ETHERTYPE);
        hdr_conds(buf, len, "ether", 14, 0);
        cat(buf, len, ")");
    }
    if (g_f.udp) {
        cat(buf, len, "%s(udp and ip[6:2] & 0x1fff = 0 and ", g_f.raw ? " or " : "");
        if (g_f.any_version) {
            /* ports given: whatever reaches or leaves them, from anyone */
            cat(buf, len, "(port %d or portrange %u-%u)", HXB_RELAY_PORT, g_f.port_lo,
                g_f.port_hi);
        } else {
            /* the ephemeral range: both ends hxb's */
            cat(buf, len, "(src port %d or src portrange %u-%u) and "
                "(dst port %d or dst portrange %u-%u)", HXB_RELAY_PORT,
                g_f.port_lo, g_f.port_hi, HXB_RELAY_PORT, g_f.port_lo, g_f.port_hi);
        }
        /* version 4 (with ports given: anything but a short frame), or a
         * short frame */
        cat(buf, len, g_f.any_version ? " and ((udp[8] != %d" : " and ((udp[8] = %d",
            g_f.any_version ? HXB_VERSION_SHORT : HXB_VERSION);
        hdr_conds(buf, len, "udp", 8, 1);
        cat(buf, len, ") or (udp[8] = %d", HXB_VERSION_SHORT);
        short_conds(buf, len);
        cat(buf, len, ")))");
    }
}

/* --- which rails --- */

/* the processes' UDP ports: where the kernel puts unbound sockets, as the
 * relays assume (PROTOCOL.md 8.10 rule 8) */
static void default_ports(void)
{
    FILE *f = fopen("/proc/sys/net/ipv4/ip_local_port_range", "r");

    g_f.port_lo = 32768;
    g_f.port_hi = 60999;
    if (f) {
        if (fscanf(f, "%u %u", &g_f.port_lo, &g_f.port_hi) != 2) {
            g_f.port_lo = 32768;
            g_f.port_hi = 60999;
        }
        fclose(f);
    }
}

static int add_rail(cap_rail_t *rails, int n, const char *name)
{
    int i;

    for (i = 0; i < n; i++) {
        if (!strcmp(rails[i].name, name)) {
            return n;
        }
    }
    if (n == CAP_MAX_RAILS) {
        die("more than %d interfaces", CAP_MAX_RAILS);
    }
    if (strlen(name) >= IF_NAMESIZE) {
        die("interface name '%s' too long", name);
    }
    memset(&rails[n], 0, sizeof(rails[n]));
    strcpy(rails[n].name, name);
    return n + 1;
}

/* this node's rails in the topology file */
static int topo_rails(cap_rail_t *rails, const char *path, const char *self)
{
    char err[512], host[256];
    hxb_topo_t t;
    int node, i, n = 0;

    if (hxb_topo_load(path, &t, err, sizeof(err)) < 0) {
        die("%s", err);
    }
    if (!self || !*self) {
        if (gethostname(host, sizeof(host))) {
            die("gethostname: %s", strerror(errno));
        }
        host[sizeof(host) - 1] = 0;
        self = host;
    }
    node = hxb_topo_find_node(&t, self);
    if (node < 0) {
        die("%s: no node '%s' (set --self or HXB_NODE)", path, self);
    }
    for (i = 0; i < t.num_ifaces; i++) {
        if (t.ifaces[i].node == node) {
            n = add_rail(rails, n, t.ifaces[i].ifname);
        }
    }
    hxb_topo_free(&t);
    if (!n) {
        die("%s: node '%s' has no interface", path, self);
    }
    return n;
}

/* every Ethernet interface that is up, but the loopback */
static int up_ethernet(cap_rail_t *rails)
{
    DIR *d = opendir("/sys/class/net");
    struct dirent *e;
    char path[512];
    unsigned type, flags;
    FILE *f;
    int n = 0;

    if (!d) {
        die("/sys/class/net: %s", strerror(errno));
    }
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') {
            continue;
        }
        type = flags = 0;
        snprintf(path, sizeof(path), "/sys/class/net/%s/type", e->d_name);
        if ((f = fopen(path, "r"))) {
            if (fscanf(f, "%u", &type) != 1) type = 0;
            fclose(f);
        }
        snprintf(path, sizeof(path), "/sys/class/net/%s/flags", e->d_name);
        if ((f = fopen(path, "r"))) {
            if (fscanf(f, "%x", &flags) != 1) flags = 0;
            fclose(f);
        }
        if (type == 1 /* ARPHRD_ETHER */ && (flags & IFF_UP)) {
            n = add_rail(rails, n, e->d_name);
        }
    }
    closedir(d);
    if (!n) {
        die("no Ethernet interface is up (give one with -i)");
    }
    return n;
}

static void open_rail(cap_rail_t *r, int snaplen, int buf_mib, const char *filter)
{
    char err[PCAP_ERRBUF_SIZE];
    struct bpf_program prog;
    int rc;

    r->pc = pcap_create(r->name, err);
    if (!r->pc) {
        die("%s: %s", r->name, err);
    }
    pcap_set_snaplen(r->pc, snaplen);
    pcap_set_promisc(r->pc, 0);     /* frames to and from this node */
    pcap_set_buffer_size(r->pc, buf_mib << 20);
    pcap_set_immediate_mode(r->pc, 0);  /* by the block: fewer wakeups */
    pcap_set_timeout(r->pc, CAP_TIMEOUT_MS);
    if (pcap_set_tstamp_precision(r->pc, PCAP_TSTAMP_PRECISION_NANO) != 0) {
        g_nano = 0;
    }
    rc = pcap_activate(r->pc);
    if (rc < 0) {
        die("%s: %s%s", r->name, pcap_geterr(r->pc),
            rc == PCAP_ERROR_PERM_DENIED ? " (capturing needs CAP_NET_RAW: run as root)" : "");
    } else if (rc > 0) {
        fprintf(stderr, "%s: %s: warning: %s\n", g_prog, r->name, pcap_statustostr(rc));
    }
    if (pcap_get_tstamp_precision(r->pc) != PCAP_TSTAMP_PRECISION_NANO) {
        g_nano = 0;         /* every rail then in us (set before any IDB) */
    }
    if (pcap_datalink(r->pc) != DLT_EN10MB) {
        die("%s: not an Ethernet interface (link type %s)", r->name,
            pcap_datalink_val_to_name(pcap_datalink(r->pc)));
    }
    if (pcap_compile(r->pc, &prog, filter, 1, PCAP_NETMASK_UNKNOWN) < 0) {
        die("%s: filter '%s': %s", r->name, filter, pcap_geterr(r->pc));
    }
    if (pcap_setfilter(r->pc, &prog) < 0) {
        die("%s: setting the filter: %s", r->name, pcap_geterr(r->pc));
    }
    pcap_freecode(&prog);
    if (pcap_setnonblock(r->pc, 1, err) < 0) {
        die("%s: %s", r->name, err);
    }
    r->fd = pcap_get_selectable_fd(r->pc);
    if (r->fd < 0) {
        die("%s: no selectable descriptor", r->name);
    }
    /* what the ring saw before the filter was in place is not ours */
    if (pcap_stats(r->pc, &r->st0) < 0) {
        memset(&r->st0, 0, sizeof(r->st0));
    }
}

static void drain(cap_rail_t *r)
{
    int n;

    do {
        n = pcap_dispatch(r->pc, -1, on_frame, (u_char *)r);
        if (n < 0 && n != PCAP_ERROR_BREAK) {
            die("%s: %s", r->name, pcap_geterr(r->pc));
        }
    } while (n > 0 && !(g_count && g_written >= g_count));
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void usage(FILE *f)
{
    fprintf(f,
        "usage: %s -w FILE [-i IF]... [options]\n"
        "Capture hxb frames (raw EtherType 0x%04X, UDP rails and the relays' UDP\n"
        "port %d) on a node's rails into one pcapng file, one interface per rail.\n"
        "  -w, --write FILE     pcapng file to write ('-': standard output)\n"
        "  -i, --interface IF   capture on IF (repeatable); default: this node's\n"
        "                       rails in the topology file (--topo), else every\n"
        "                       Ethernet interface that is up\n"
        "      --topo FILE      topology file (default $HXB_TOPO, then $UCX_HXB_TOPO)\n"
        "      --self NAME      this node's name in it (default $HXB_NODE, else the host name)\n"
        "  -k, --kind LIST      only these kinds: AM,PUT,GET_REQ,GET_RESP,NOP,ATOMIC,\n"
        "                       ACK,ERR,PING,PONG,HELLO (names or numbers)\n"
        "  -p, --peer NODE[:PROC]  only frames from or to that node (and process);\n"
        "                       a datagram that starts with a short frame: from it\n"
        "      --job KEY        only frames of the job with UCX_HXB_JOB_KEY=KEY: their\n"
        "                       tag is checked (user space), or compared with the\n"
        "                       job key with --auth off (kernel); a datagram that\n"
        "                       starts with a short frame cannot be proven (but\n"
        "                       with --auth off)\n"
        "      --auth MODE      the job's UCX_HXB_AUTH: header (default), full, off\n"
        "      --raw, --udp     only raw frames, only UDP datagrams (default both)\n"
        "      --relayed        only relayed frames (hops below %d, or UDP to or from\n"
        "                       port %d)\n"
        "      --ports LO-HI    the processes' UDP ports. Default: the kernel's\n"
        "                       ip_local_port_range, datagrams between two such ports\n"
        "                       (or 885) that start with version %d (or a short\n"
        "                       frame); given: every\n"
        "                       datagram from or to one of them (or 885)\n"
        "  -s, --snaplen BYTES  bytes kept of each frame (default 262144; 128 keeps\n"
        "                       the headers, extensions and an ACK's first bitmap word)\n"
        "  -B, --buffer MIB     kernel ring per rail (default 64)\n"
        "  -c, --count N        stop after writing N frames\n"
        "  -G, --seconds S      stop after S seconds\n"
        "  -q, --quiet          no per-rail counters at exit, only the total\n"
        "  -h, --help           this text\n"
        "Stops on SIGINT or SIGTERM too. At exit it prints, per rail and in total,\n"
        "received (by the kernel's filter), dropped (ring full: frames lost; in the\n"
        "total also those still unread at exit), unread (per rail),\n"
        "ifdropped (by the interface, not the capture), captured (read from the\n"
        "ring), filtered (by the user-space filter), written (packets) and frames\n"
        "(hxb frames in them: a UDP datagram may hold a segmented train); the file's\n"
        "Interface Statistics Blocks hold the same counts. Exit status 3 if any\n"
        "frame was lost, 1 on errors. Needs CAP_NET_RAW.\n",
        g_prog, HXB_ETHERTYPE, HXB_RELAY_PORT, HXB_HOPS_MAX, HXB_RELAY_PORT, HXB_VERSION);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"write", 1, 0, 'w'}, {"interface", 1, 0, 'i'}, {"topo", 1, 0, 'T'},
        {"self", 1, 0, 'S'}, {"kind", 1, 0, 'k'}, {"peer", 1, 0, 'p'},
        {"job", 1, 0, 'J'}, {"auth", 1, 0, 'A'}, {"raw", 0, 0, 'R'},
        {"udp", 0, 0, 'U'}, {"relayed", 0, 0, 'r'}, {"ports", 1, 0, 'P'},
        {"snaplen", 1, 0, 's'}, {"buffer", 1, 0, 'B'}, {"count", 1, 0, 'c'},
        {"seconds", 1, 0, 'G'}, {"quiet", 0, 0, 'q'}, {"help", 0, 0, 'h'},
        {0, 0, 0, 0}};
    static cap_rail_t rails[CAP_MAX_RAILS];
    struct pollfd pfd[CAP_MAX_RAILS];
    const char *out = NULL, *topo = getenv("HXB_TOPO"), *self = getenv("HXB_NODE");
    const char *job = NULL;
    char filter[4096], *end;
    int nr = 0, i, opt, snaplen = 262144, buf_mib = 64, quiet = 0, only_raw = 0, only_udp = 0;
    double secs = 0, t_end = 0;
    struct sigaction sa;
    uint64_t tot[7] = {0};

    if (!topo || !*topo) {
        topo = getenv("UCX_HXB_TOPO");
    }
    g_f.node = g_f.proc = -1;
    g_f.auth.mode = HXB_AUTH_HEADER;
    default_ports();
    while ((opt = getopt_long(argc, argv, "w:i:k:p:s:B:c:G:qh", opts, NULL)) != -1) {
        switch (opt) {
        case 'w': out = optarg; break;
        case 'i': nr = add_rail(rails, nr, optarg); break;
        case 'T': topo = optarg; break;
        case 'S': self = optarg; break;
        case 'k': parse_kinds(optarg); break;
        case 'p':
            g_f.node = (int)strtol(optarg, &end, 0);
            if (*end == ':') {
                g_f.proc = (int)strtol(end + 1, &end, 0);
            }
            if (*end || g_f.node < 0 || g_f.node > 0xffff || g_f.proc > 0xffff) {
                die("--peer: '%s' is not NODE or NODE:PROC", optarg);
            }
            break;
        case 'J': job = optarg; break;
        case 'A':
            g_f.auth.mode = hxb_auth_mode(optarg);
            if (g_f.auth.mode < 0) {
                die("--auth: '%s' is not header, full or off", optarg);
            }
            break;
        case 'R': only_raw = 1; break;
        case 'U': only_udp = 1; break;
        case 'r': g_f.relayed = 1; break;
        case 'P':
            if (sscanf(optarg, "%u-%u", &g_f.port_lo, &g_f.port_hi) != 2 ||
                !g_f.port_lo || g_f.port_lo > g_f.port_hi || g_f.port_hi > 65535) {
                die("--ports: '%s' is not LO-HI", optarg);
            }
            g_f.any_version = 1;
            break;
        case 's':
            snaplen = (int)strtol(optarg, &end, 0);
            if (*end || snaplen < 64 || snaplen > 262144) {
                die("--snaplen: '%s' is not 64 .. 262144", optarg);
            }
            break;
        case 'B':
            buf_mib = (int)strtol(optarg, &end, 0);
            if (*end || buf_mib < 1 || buf_mib > 2047) {
                die("--buffer: '%s' is not 1 .. 2047 (MiB)", optarg);
            }
            break;
        case 'c': g_count = strtoull(optarg, NULL, 0); break;
        case 'G': secs = strtod(optarg, NULL); break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); return 0;
        default:  usage(stderr); return 2;
        }
    }
    if (!out || optind != argc) {
        usage(stderr);
        return 2;
    }
    g_f.raw = !only_udp;
    g_f.udp = !only_raw;
    if (job) {
        g_f.have_job = 1;
        g_f.auth.job_key = hxb_ident_job_key(job);
        /* as a process given UCX_HXB_JOB_KEY (and no launcher's key) */
        hxb_auth_derive(job, strlen(job), g_f.auth.key);
    }
    if (!nr) {
        nr = topo && *topo ? topo_rails(rails, topo, self) : up_ethernet(rails);
    }
    build_filter(filter, sizeof(filter));

    for (i = 0; i < nr; i++) {
        open_rail(&rails[i], snaplen, buf_mib, filter);
        rails[i].idb = (uint32_t)i;
        pfd[i].fd = rails[i].fd;
        pfd[i].events = POLLIN;
    }
    g_out = strcmp(out, "-") ? fopen(out, "wb") : stdout;
    if (!g_out) {
        die("%s: %s", out, strerror(errno));
    }
    setvbuf(g_out, NULL, _IOFBF, 1 << 20);
    write_shb();
    for (i = 0; i < nr; i++) {
        write_idb(&rails[i], DLT_EN10MB, snaplen);
    }
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    fprintf(stderr, "%s: capturing on", g_prog);
    for (i = 0; i < nr; i++) {
        fprintf(stderr, " %s", rails[i].name);
    }
    fprintf(stderr, " (snaplen %d, %d MiB per rail), filter: %s\n", snaplen, buf_mib, filter);

    if (secs > 0) {
        t_end = now_s() + secs;
    }
    while (!g_stop) {
        int timeout = CAP_TIMEOUT_MS;
        if (t_end) {
            double left = t_end - now_s();
            if (left <= 0) {
                break;
            }
            if (left * 1000 < timeout) {
                timeout = (int)(left * 1000) + 1;
            }
        }
        if (poll(pfd, (nfds_t)nr, timeout) < 0 && errno != EINTR) {
            die("poll: %s", strerror(errno));
        }
        for (i = 0; i < nr && !g_stop; i++) {
            drain(&rails[i]);   /* also on timeout: blocks retire by time */
        }
    }
    /* The kernel's counts now; then read what they count that is still in
     * the rings (open blocks retire within the block timeout). Frames
     * that arrive meanwhile are read too, beyond the counts. */
    for (i = 0; i < nr; i++) {
        cap_rail_t *r = &rails[i];
        struct pcap_stat st;

        if (pcap_stats(r->pc, &st) == 0) {
            r->recv = st.ps_recv - r->st0.ps_recv;
            r->drop = st.ps_drop - r->st0.ps_drop;
            r->ifdrop = st.ps_ifdrop - r->st0.ps_ifdrop;
        } else {
            fprintf(stderr, "%s: %s: no statistics: %s\n", g_prog, r->name, pcap_geterr(r->pc));
        }
    }
    if (!(g_count && g_written >= g_count)) {
        double until = now_s() + 4 * CAP_TIMEOUT_MS / 1000.0;
        int behind = 1;
        while (behind && now_s() < until) {
            poll(pfd, (nfds_t)nr, CAP_TIMEOUT_MS);
            behind = 0;
            for (i = 0; i < nr; i++) {
                drain(&rails[i]);
                behind |= rails[i].captured + rails[i].drop < rails[i].recv;
            }
        }
    }
    for (i = 0; i < nr; i++) {
        cap_rail_t *r = &rails[i];
        /* counted by the kernel, not read (not after -c: not wanted) */
        uint64_t unread = !(g_count && g_written >= g_count) &&
                          r->captured + r->drop < r->recv ? r->recv - r->drop - r->captured : 0;

        write_isb(r);
        if (!quiet) {
            fprintf(stderr, "%s: %s: received=%llu dropped=%llu unread=%llu ifdropped=%llu "
                    "captured=%llu filtered=%llu written=%llu frames=%llu\n", g_prog, r->name,
                    (unsigned long long)r->recv, (unsigned long long)r->drop,
                    (unsigned long long)unread,
                    (unsigned long long)r->ifdrop, (unsigned long long)r->captured,
                    (unsigned long long)r->filtered, (unsigned long long)r->written,
                    (unsigned long long)r->frames);
        }
        tot[0] += r->recv; tot[1] += r->drop + unread; tot[2] += r->ifdrop;
        tot[3] += r->captured; tot[4] += r->filtered; tot[5] += r->written;
        tot[6] += r->frames;
        pcap_close(r->pc);
    }
    if (fflush(g_out) || (g_out != stdout && fclose(g_out))) {
        die("%s: %s", out, strerror(errno));
    }
    fprintf(stderr, "%s: total: received=%llu dropped=%llu ifdropped=%llu "
            "captured=%llu filtered=%llu written=%llu frames=%llu\n", g_prog,
            (unsigned long long)tot[0], (unsigned long long)tot[1],
            (unsigned long long)tot[2], (unsigned long long)tot[3],
            (unsigned long long)tot[4], (unsigned long long)tot[5],
            (unsigned long long)tot[6]);
    return tot[1] ? 3 : 0;
}
