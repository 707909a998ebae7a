/* Fuzz target: hxb-relayd's tc program (contrib/relay/hxb_relay_bpf.c),
 * the very object hxb-relayd embeds (hxb_relay_obj.c), loaded with libbpf
 * and run on each input by BPF_PROG_TEST_RUN. Needs root (CAP_BPF,
 * CAP_NET_ADMIN): without it the target exits 77 (skipped).
 *
 * The relay is node 13 = (1,1,1) of a 3x3x3 grid with 2 rails, receiving
 * on the loopback device (the only one BPF_PROG_TEST_RUN takes in any
 * namespace), which the harness maps to a rail. Input: byte 0 selects the
 * arrival rail (dim = b % 3, rail = b / 3 % 2); bytes 1-3 a mask of the
 * 18 port entries (dimension, coordinate, rail) the daemon deleted (dead
 * rails or neighbours); byte 4 control bits: 0x01 the Ethernet
 * destination is ours (else as given), 0x02 the rest is an hxb frame the
 * harness wraps in a valid IPv4/UDP datagram to the relay port 885, 0x04
 * that datagram has no UDP checksum (0), 0x08 its destination port is
 * taken from the input's first two bytes instead. The rest is the frame
 * (with 0x02: the UDP payload; else from its Ethernet header on).
 *
 * Invariants, whatever the input:
 *  - the program loads (verifier) and every run succeeds; it returns
 *    TC_ACT_OK, TC_ACT_SHOT or TC_ACT_REDIRECT, and the packet keeps its
 *    length;
 *  - a packet passed up or dropped is unchanged;
 *  - a redirect happens only for a frame that has a version-4 hxb header
 *    (raw: EtherType 0x88B5; UDP: IPv4 without options, not a fragment,
 *    UDP to port 885), to our MAC, for a node of the grid that is not
 *    ours, with hops > 1; it goes out on a port entry the daemon keeps
 *    (not a deleted one), with that entry's MACs; it changes nothing but
 *    the Ethernet addresses and the hop count (one less), and for UDP the
 *    addresses, ports and checksums;
 *  - a relayed datagram goes to port 885 of the next relay, or on the last
 *    hop to dst_proc, which must lie in the processes' port range; its IPv4
 *    checksum is valid, and its UDP checksum is valid if it was (0 stays 0);
 *  - a hop that is not a detour fixes a dimension: the entry's coordinate
 *    is the destination's there, and ours differs. */
#include "hxb_relay_maps.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <linux/udp.h>
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern const unsigned char hxb_relay_obj[], hxb_relay_obj_end[];

#define ME        13                     /* (1,1,1) */
#define PORT_MIN  32768
#define PORT_MAX  60999
#define LO        1                      /* the loopback device's ifindex */
#define PKT_MAX   2048

static int g_prog = -1, g_in, g_ports, g_stats;
static uint64_t g_prev[HXB_RELAY_NCOUNTERS];
static struct bpf_object *g_obj;

/* libFuzzer sees the harness's code, not the program's (it runs in the
 * kernel): which of the program's counters moved, and its verdict, are
 * made edges here so that inputs reaching new rules count as new */
static volatile unsigned g_sink;
#define COVER(bit) do { if (path & (1u << (bit))) { g_sink += bit; } } while (0)
static void cover(unsigned path)
{
    COVER(0); COVER(1); COVER(2); COVER(3); COVER(4); COVER(5); COVER(6);
    COVER(7); COVER(8); COVER(9); COVER(10); COVER(11); COVER(12);
}

static void die(const char *what)
{
    fprintf(stderr, "fuzz_relay_bpf: %s\n", what);
    abort();
}

static void init(void)
{
    LIBBPF_OPTS(bpf_object_open_opts, oopts, .object_name = "hxb_relay");
    struct hxb_relay_cfg cfg = {.node = ME, .num_nodes = 27, .size = {3, 3, 3},
                                .coord = {1, 1, 1}, .port_min = PORT_MIN,
                                .port_max = PORT_MAX};
    __u32 zero = 0;
    int cfd;

    if (geteuid() != 0) {
        fprintf(stderr, "fuzz_relay_bpf: needs root (BPF_PROG_TEST_RUN): skipped\n");
        exit(77);
    }
    libbpf_set_print(NULL);
    g_obj = bpf_object__open_mem(hxb_relay_obj, hxb_relay_obj_end - hxb_relay_obj, &oopts);
    if (!g_obj || bpf_object__load(g_obj)) {
        if (errno == EPERM) {
            fprintf(stderr, "fuzz_relay_bpf: may not load BPF programs: skipped\n");
            exit(77);
        }
        die("the tc program does not load (verifier)");
    }
    g_prog  = bpf_program__fd(bpf_object__find_program_by_name(g_obj, "hxb_relay"));
    cfd     = bpf_object__find_map_fd_by_name(g_obj, "hxb_cfg");
    g_in    = bpf_object__find_map_fd_by_name(g_obj, "hxb_in");
    g_ports = bpf_object__find_map_fd_by_name(g_obj, "hxb_ports");
    g_stats = bpf_object__find_map_fd_by_name(g_obj, "hxb_stats");
    if (g_prog < 0 || cfd < 0 || g_in < 0 || g_ports < 0 || g_stats < 0 ||
        bpf_map_update_elem(cfd, &zero, &cfg, BPF_ANY)) {
        die("maps missing");
    }
}

/* port entry (dim, coord, rail): its MACs and addresses say which it is */
static void port_of(int dim, int coord, int rail, struct hxb_relay_port *p)
{
    memset(p, 0, sizeof(*p));
    p->ifindex = 100 + dim * 10 + rail;
    memcpy(p->dmac, (uint8_t[6]){2, 0x68, 0x62, dim, coord, rail}, 6);
    memcpy(p->smac, (uint8_t[6]){2, 0x68, 0x62, dim, 1, rail}, 6);
    p->dip = htonl(0xc6130000 | (dim * 2 + rail) << 8 | (coord + 1));
    p->sip = htonl(0xc6130000 | (dim * 2 + rail) << 8 | 2);
}

static uint32_t csum_add(uint32_t s, const uint8_t *p, size_t n)
{
    size_t i;

    for (i = 0; i + 1 < n; i += 2) {
        s += p[i] << 8 | p[i + 1];
    }
    if (n & 1) {
        s += p[n - 1] << 8;
    }
    return s;
}

static uint16_t csum_fold(uint32_t s)
{
    while (s >> 16) {
        s = (s & 0xffff) + (s >> 16);
    }
    return (uint16_t)~s;
}

/* the UDP checksum over the pseudo header and the datagram, as stored
 * (0 if the datagram as given is right) */
static uint16_t udp_check(const uint8_t *ip, size_t udplen)
{
    uint8_t ph[4] = {0, IPPROTO_UDP, udplen >> 8, udplen & 0xff};
    uint32_t s = csum_add(csum_add(0, ip + 12, 8), ph, 4);

    return csum_fold(csum_add(s, ip + 20, udplen));
}

static uint64_t counter(__u32 k)
{
    int ncpu = libbpf_num_possible_cpus(), i;
    __u64 v[ncpu > 0 ? ncpu : 1];
    uint64_t s = 0;

    if (bpf_map_lookup_elem(g_stats, &k, v)) {
        die("stats map");
    }
    for (i = 0; i < ncpu; i++) {
        s += v[i];
    }
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint8_t own_mac[6] = {0};      /* the loopback device's */
    /* IPv4 and UDP headers at 4-byte aligned addresses, as in an skb */
    static uint8_t pkt_buf[PKT_MAX + 2] __attribute__((aligned(8)));
    static uint8_t out_buf[PKT_MAX + 64 + 2] __attribute__((aligned(8)));
    uint8_t *pkt = pkt_buf + 2, *out = out_buf + 2;
    struct __sk_buff ctx = {.ifindex = LO};
    struct hxb_relay_in in;
    size_t len, hoff = 0;
    uint32_t dead, ifk = LO;
    unsigned ctl, dim, coord, rail, node, hops, dst[3];
    int udp = 0, r, live[3][3][2];
    uint64_t detours;
    const uint8_t *h;

    if (g_prog < 0) {
        init();
    }
    if (size < 5) {
        return 0;
    }
    in.dim  = data[0] % 3;
    in.rail = data[0] / 3 % 2;
    dead    = data[1] | data[2] << 8 | (data[3] & 3) << 16;
    ctl     = data[4];
    data += 5;
    size -= 5;
    if (bpf_map_update_elem(g_in, &ifk, &in, BPF_ANY)) {
        die("hxb_in");
    }
    for (dim = 0; dim < 3; dim++) {
        for (coord = 0; coord < 3; coord++) {
            for (rail = 0; rail < 2; rail++) {
                struct hxb_relay_key k = {.dim = dim, .rail = rail, .coord = coord};
                struct hxb_relay_port p;
                unsigned bit = (dim * 3 + coord) * 2 + rail;
                live[dim][coord][rail] = coord != 1 && !(dead & (1u << bit));
                if (live[dim][coord][rail]) {
                    port_of(dim, coord, rail, &p);
                    bpf_map_update_elem(g_ports, &k, &p, BPF_ANY);
                } else {
                    bpf_map_delete_elem(g_ports, &k);
                }
            }
        }
    }
    memset(pkt, 0, PKT_MAX);
    if (ctl & 2) {
        /* Ethernet + IPv4 + UDP to port 885 around the hxb frame */
        struct iphdr *ip = (void *)(pkt + ETH_HLEN);
        struct udphdr *uh = (void *)(pkt + ETH_HLEN + sizeof(*ip));
        size_t n = size > PKT_MAX - 42 ? PKT_MAX - 42 : size;
        udp = 1;
        hoff = 42;
        len = hoff + n;
        memcpy(pkt + hoff, data, n);
        memset(pkt + 6, 0x22, 6);
        pkt[12] = 0x08;
        ip->version = 4;
        ip->ihl = 5;
        ip->ttl = 64;
        ip->protocol = IPPROTO_UDP;
        ip->tot_len = htons(len - ETH_HLEN);
        ip->saddr = htonl(0xc6130105);
        ip->daddr = htonl(0xc6130102);
        ip->check = htons(csum_fold(csum_add(0, (uint8_t *)ip, 20)));
        uh->source = htons(40000);
        uh->dest = (ctl & 8) && n >= 2 ? htons(data[0] << 8 | data[1])
                                       : htons(HXB_RELAY_UDP_PORT);
        uh->len = htons(len - ETH_HLEN - sizeof(*ip));
        if (!(ctl & 4)) {
            uh->check = htons(udp_check((uint8_t *)ip, len - ETH_HLEN - sizeof(*ip)));
            if (!uh->check) {
                uh->check = 0xffff;
            }
        }
    } else {
        len = size > PKT_MAX ? PKT_MAX : size;
        memcpy(pkt, data, len);
        if (len < ETH_HLEN) {
            len = ETH_HLEN;     /* BPF_PROG_TEST_RUN wants an Ethernet header */
        }
        hoff = ETH_HLEN;
    }
    if (ctl & 1) {
        memcpy(pkt, own_mac, 6);
    }
    detours = g_prev[HXB_RELAY_DETOUR];
    {
        LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt, .data_size_in = len,
                    .data_out = out, .data_size_out = PKT_MAX + 64,
                    .ctx_in = &ctx, .ctx_size_in = sizeof(ctx), .repeat = 1);
        r = bpf_prog_test_run_opts(g_prog, &o);
        /* BPF_PROG_TEST_RUN itself refuses an IPv4 or IPv6 packet too
         * short for its IP header (the kernel's test harness, before the
         * program runs): not the program's business */
        if (r && errno == EINVAL &&
            ((pkt[12] == 0x08 && pkt[13] == 0x00 && len < ETH_HLEN + 20) ||
             (pkt[12] == 0x86 && pkt[13] == 0xdd && len < ETH_HLEN + 40))) {
            return 0;
        }
        if (r) {
            fprintf(stderr, "BPF_PROG_TEST_RUN: %s\n", strerror(errno));
            die("test run failed");
        }
        if (o.data_size_out != len) {
            die("the program changed the packet's length");
        }
        r = o.retval;
    }
    {
        unsigned path = r == TC_ACT_OK ? 1 : r == TC_ACT_SHOT ? 2 : r == TC_ACT_REDIRECT ? 4 : 0;
        __u32 k;
        for (k = 0; k < HXB_RELAY_NCOUNTERS; k++) {
            uint64_t v = counter(k);
            if (v != g_prev[k]) {
                path |= 8u << k;
            }
            g_prev[k] = v;
        }
        cover(path | (udp ? 1u << 11 : 0));
    }
    if (getenv("FUZZ_VERBOSE")) {
        fprintf(stderr, "verdict %d, %zu bytes%s\n", r, len, udp ? ", UDP" : "");
    }
    if (r != TC_ACT_OK && r != TC_ACT_SHOT && r != TC_ACT_REDIRECT) {
        die("unexpected verdict");
    }
    if (r != TC_ACT_REDIRECT) {
        if (memcmp(pkt, out, len)) {
            die("a packet not redirected was changed");
        }
        return 0;
    }
    /* a redirect: the input must have deserved it */
    if (memcmp(pkt, own_mac, 6)) {
        die("redirected a frame not sent to our MAC");
    }
    if (!udp && !(pkt[12] == 0x88 && pkt[13] == 0xb5)) {
        const struct iphdr *ip = (const void *)(pkt + ETH_HLEN);
        const struct udphdr *uh = (const void *)(pkt + ETH_HLEN + sizeof(*ip));
        if (!(pkt[12] == 0x08 && pkt[13] == 0) || len < 42 || ip->ihl != 5 ||
            ip->protocol != IPPROTO_UDP || (ntohs(ip->frag_off) & 0x3fff) ||
            ntohs(uh->dest) != HXB_RELAY_UDP_PORT) {
            die("redirected something that is neither a raw frame nor a datagram to 885");
        }
        udp = 1;
        hoff = 42;
    }
    if (udp && ntohs(((const struct udphdr *)(pkt + 34))->dest) != HXB_RELAY_UDP_PORT) {
        die("redirected a datagram not sent to the relay port");
    }
    if (len < hoff + 44) {
        die("redirected a frame shorter than an hxb header");
    }
    h = pkt + hoff;
    node = h[20] | h[21] << 8;
    hops = h[3];
    if (h[0] != HXB_RELAY_VERSION || node == ME || node >= 27 || hops <= 1) {
        die("redirected a frame that is not to relay (version, node, hops)");
    }
    if (out[hoff + 3] != hops - 1) {
        die("the hop count was not decremented");
    }
    /* which entry: its destination MAC names it */
    if (out[0] != 2 || out[1] != 0x68 || out[2] != 0x62 || out[3] > 2 || out[4] > 2 ||
        out[5] > 1 || !live[out[3]][out[4]][out[5]]) {
        die("redirected to a port the daemon does not keep");
    }
    {
        struct hxb_relay_port p;
        port_of(out[3], out[4], out[5], &p);
        if (memcmp(out + 6, p.smac, 6)) {
            die("wrong source MAC");
        }
        dst[0] = node % 3;
        dst[1] = node / 3 % 3;
        dst[2] = node / 9;
        if (g_prev[HXB_RELAY_DETOUR] == detours &&
            (out[4] != dst[out[3]] || dst[out[3]] == 1)) {
            die("a hop that is not a detour fixes no dimension");
        }
        if (udp) {
            const struct iphdr *ip = (const void *)(out + ETH_HLEN);
            const struct udphdr *uh = (const void *)(out + 34);
            const struct udphdr *ouh = (const void *)(pkt + 34);
            unsigned dport = ntohs(uh->dest), proc = h[22] | h[23] << 8, d, last = 1;
            for (d = 0; d < 3; d++) {
                unsigned here = d == out[3] ? out[4] : 1;
                if (here != dst[d]) {
                    last = 0;
                }
            }
            if (ip->saddr != p.sip || ip->daddr != p.dip ||
                ntohs(uh->source) != HXB_RELAY_UDP_PORT) {
                die("wrong addresses on a relayed datagram");
            }
            if (last ? dport != proc || proc < PORT_MIN || proc > PORT_MAX
                     : dport != HXB_RELAY_UDP_PORT) {
                fprintf(stderr, "last %u dport %u proc %u\n", last, dport, proc);
                die("a relayed datagram goes to the wrong port");
            }
            if (!csum_fold(csum_add(0, pkt + ETH_HLEN, 20)) &&
                csum_fold(csum_add(0, out + ETH_HLEN, 20))) {
                die("the IPv4 checksum is wrong after the rewrite");
            }
            if (ouh->check == 0 ? uh->check != 0
                : (!udp_check(pkt + ETH_HLEN, len - 34) && udp_check(out + ETH_HLEN, len - 34))) {
                die("the UDP checksum is wrong after the rewrite");
            }
            /* nothing else changed: the IPv4 header but addresses and
             * checksum, the UDP length, the hxb frame but its hops */
            if (memcmp(pkt + 14, out + 14, 10) || memcmp(pkt + 38, out + 38, 2) ||
                memcmp(pkt + hoff, out + hoff, 3) ||
                memcmp(pkt + hoff + 4, out + hoff + 4, len - hoff - 4)) {
                die("a relayed datagram changed beyond addresses, ports, hops and checksums");
            }
        } else if (memcmp(pkt + 12, out + 12, hoff + 3 - 12) ||
                   memcmp(pkt + hoff + 4, out + hoff + 4, len - hoff - 4)) {
            die("a relayed frame changed beyond its addresses and hops");
        }
    }
    return 0;
}
