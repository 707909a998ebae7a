/* tc ingress program on every rail of a relay node: forwards hxb frames
 * addressed to other nodes without leaving the kernel and without copying
 * the payload. It decrements the hop limit, picks the next dimension by the
 * rule of uct_hxb/hxb_route_rule.h (the loop below is hxb_route_next_dim,
 * extended to skip dimensions with no live rail, and to detour along a
 * dimension already fixed when no rail fixes any), rewrites the Ethernet
 * addresses and redirects the frame to the egress of the chosen rail.
 * Raw frames (EtherType 0x88B5) and UDP rails' datagrams sent to the relay
 * port (HXB_RELAY_UDP_PORT) are forwarded alike; a datagram also gets the
 * next node's and our addresses, the relay port as its source and, on the
 * last hop, the destination process's port (its dst_proc) as its
 * destination, with both checksums updated, so that ordinary users' UDP
 * rails cross the hyper-crossbar as root's raw ones do. Frames for this
 * node, HELLOs and anything that is not hxb go up the stack unchanged.
 * Build: clang -O2 -target bpf. Loaded and fed by hxb-relayd. */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <linux/udp.h>
#include <stddef.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "hxb_relay_maps.h"

/* hxb header offsets (doc/PROTOCOL.md section 3) */
#define HXB_HDR_LEN     44
#define OFF_VERSION     0
#define OFF_HOPS        3
#define OFF_DST_NODE    20
#define OFF_DST_PROC    22
#define HXB_ETHERTYPE   0x88B5
#define HXB_NODE_NONE   0xffff
/* a UDP rail's datagram: Ethernet, IPv4 without options, UDP, hxb */
#define UDP_IP_OFF      ETH_HLEN
#define UDP_UDP_OFF     (ETH_HLEN + sizeof(struct iphdr))
#define UDP_HXB_OFF     (UDP_UDP_OFF + sizeof(struct udphdr))
#define IP_CSUM_OFF     (UDP_IP_OFF + offsetof(struct iphdr, check))
#define UDP_CSUM_OFF    (UDP_UDP_OFF + offsetof(struct udphdr, check))

struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct hxb_relay_cfg);
} hxb_cfg SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, HXB_RELAY_MAX_IFS);
    __type(key, __u32);
    __type(value, struct hxb_relay_in);
} hxb_in SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, HXB_RELAY_MAX_PORTS);
    __type(key, struct hxb_relay_key);
    __type(value, struct hxb_relay_port);
} hxb_ports SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, HXB_RELAY_NCOUNTERS);
    __type(key, __u32);
    __type(value, __u64);
} hxb_stats SEC(".maps");

/* element d of (a, b, c): the verifier refuses variable stack offsets */
static __always_inline __u32 pick(__u32 a, __u32 b, __u32 c, __u32 d)
{
    return d == 0 ? a : d == 1 ? b : c;
}

static __always_inline void count(__u32 what)
{
    __u64 *v = bpf_map_lookup_elem(&hxb_stats, &what);

    if (v) {
        (*v)++;
    }
}

/* Where the hxb header starts, 0 if the frame is not one to relay: a raw
 * frame, or an IPv4 datagram (not a fragment, no options) to the relay
 * port; the header is then in the linear part (pulled if it was not). */
static __always_inline __u32 hxb_header_at(struct __sk_buff *skb)
{
    void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
    struct ethhdr *eth = data;
    struct iphdr *ip;
    struct udphdr *uh;
    __u32 off;

    if (data + sizeof(*eth) > end) {
        return 0;
    }
    if (eth->h_proto == bpf_htons(HXB_ETHERTYPE)) {
        off = ETH_HLEN;
    } else if (eth->h_proto == bpf_htons(ETH_P_IP)) {
        /* every datagram of the node passes here: decide on what is
         * already linear before pulling anything */
        if (data + UDP_HXB_OFF > end) {
            return 0;
        }
        ip = data + UDP_IP_OFF;
        uh = data + UDP_UDP_OFF;
        if (ip->ihl != 5 || ip->protocol != IPPROTO_UDP ||
            (ip->frag_off & bpf_htons(0x3fff)) ||
            uh->dest != bpf_htons(HXB_RELAY_UDP_PORT)) {
            return 0;
        }
        off = UDP_HXB_OFF;
    } else {
        return 0;
    }
    if (data + off + HXB_HDR_LEN > end) {
        /* header not in the linear part: pull it (frames too short for
         * a header go up, where the receiver counts them) */
        if (bpf_skb_pull_data(skb, off + HXB_HDR_LEN)) {
            return 0;
        }
        if ((void *)(long)skb->data + off + HXB_HDR_LEN > (void *)(long)skb->data_end) {
            return 0;
        }
    }
    return off;
}

/* A UDP datagram's new addresses and ports for the next hop, with the IPv4
 * and UDP checksums updated (a datagram whose checksum is left to the NIC,
 * CHECKSUM_PARTIAL, is kept so by the helpers; a datagram without a UDP
 * checksum keeps none). The hop limit byte changes too: it is in UDP's
 * payload. Returns 0, or -1 if the datagram must be dropped. */
static __always_inline int udp_next_hop(struct __sk_buff *skb,
                                        const struct hxb_relay_port *port,
                                        __be16 dport)
{
    void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
    struct iphdr *ip = data + UDP_IP_OFF;
    struct udphdr *uh = data + UDP_UDP_OFF;
    __be32 osip, odip, nsip = port->sip, ndip = port->dip;
    __be16 osport, odport, nsport = bpf_htons(HXB_RELAY_UDP_PORT);
    union { __u16 w; __u8 b[2]; } hv;           /* flags, hops: as stored */
    __u16 ohops, nhops, *hw;

    if (data + UDP_HXB_OFF + HXB_HDR_LEN > end) {
        return -1;
    }
    hw     = data + UDP_HXB_OFF + 2;           /* flags and hops */
    osip   = ip->saddr;
    odip   = ip->daddr;
    osport = uh->source;
    odport = uh->dest;
    hv.w   = *hw;
    ohops  = hv.w;
    hv.b[1]--;
    nhops  = hv.w;
    if (bpf_l4_csum_replace(skb, UDP_CSUM_OFF, osip, nsip,
                            BPF_F_PSEUDO_HDR | BPF_F_MARK_MANGLED_0 | 4) ||
        bpf_l4_csum_replace(skb, UDP_CSUM_OFF, odip, ndip,
                            BPF_F_PSEUDO_HDR | BPF_F_MARK_MANGLED_0 | 4) ||
        bpf_l4_csum_replace(skb, UDP_CSUM_OFF, osport, nsport, BPF_F_MARK_MANGLED_0 | 2) ||
        bpf_l4_csum_replace(skb, UDP_CSUM_OFF, odport, dport, BPF_F_MARK_MANGLED_0 | 2) ||
        bpf_l4_csum_replace(skb, UDP_CSUM_OFF, ohops, nhops, BPF_F_MARK_MANGLED_0 | 2) ||
        bpf_l3_csum_replace(skb, IP_CSUM_OFF, osip, nsip, 4) ||
        bpf_l3_csum_replace(skb, IP_CSUM_OFF, odip, ndip, 4)) {
        return -1;
    }
    data = (void *)(long)skb->data;             /* the helpers moved them */
    end  = (void *)(long)skb->data_end;
    if (data + UDP_HXB_OFF + HXB_HDR_LEN > end) {
        return -1;
    }
    ip = data + UDP_IP_OFF;
    uh = data + UDP_UDP_OFF;
    ip->saddr = nsip;
    ip->daddr = ndip;
    uh->source = nsport;
    uh->dest = dport;
    *(__u16 *)(data + UDP_HXB_OFF + 2) = nhops;
    return 0;
}

SEC("tc")
int hxb_relay(struct __sk_buff *skb)
{
    struct hxb_relay_port *port = 0;
    struct hxb_relay_key key;
    struct hxb_relay_cfg *cfg;
    struct hxb_relay_in *in;
    __u32 dst0, dst1, dst2, d = 0, k, first = 3, detoured, last;
    __u32 zero = 0, ifindex, off;
    void *data, *end;
    struct ethhdr *eth;
    __u16 proc;
    __u8 *h;
    __u16 node;

    /* a switch floods frames for a MAC it has not learned (yet, or any
     * more: the port went down) to every port: only our own are ours */
    if (skb->pkt_type != PACKET_HOST) {
        return TC_ACT_OK;
    }
    off = hxb_header_at(skb);
    if (off == 0) {
        return TC_ACT_OK;
    }
    data = (void *)(long)skb->data;
    end  = (void *)(long)skb->data_end;
    if (off > UDP_HXB_OFF || data + off + HXB_HDR_LEN > end) {
        return TC_ACT_OK;
    }
    h    = data + off;
    node = h[OFF_DST_NODE] | (h[OFF_DST_NODE + 1] << 8);   /* little-endian */
    proc = h[OFF_DST_PROC] | (h[OFF_DST_PROC + 1] << 8);
    cfg  = bpf_map_lookup_elem(&hxb_cfg, &zero);
    ifindex = skb->ifindex;             /* map keys must live on the stack */
    in   = bpf_map_lookup_elem(&hxb_in, &ifindex);
    if (!cfg || !in || h[OFF_VERSION] != HXB_RELAY_VERSION || node == HXB_NODE_NONE) {
        return TC_ACT_OK;   /* not a rail, unknown version, or a HELLO */
    }
    if (node == cfg->node) {
        count(HXB_RELAY_LOCAL);
        return TC_ACT_OK;
    }
    if (node >= cfg->num_nodes || !cfg->size[0] || !cfg->size[1]) {
        count(HXB_RELAY_NOROUTE);
        return TC_ACT_SHOT;
    }
    /* the next hop would see hops == 0 and drop it: drop it here */
    if (h[OFF_HOPS] <= 1) {
        count(HXB_RELAY_HOPS);
        return TC_ACT_SHOT;
    }
    dst0 = node % cfg->size[0];
    dst1 = (node / cfg->size[0]) % cfg->size[1];
    dst2 = node / (cfg->size[0] * cfg->size[1]);
    /* every hop but a detour fixes the dimension it crossed: arriving with
     * that one still unfixed, the frame was detoured here, and fixing it
     * now would send it straight back to the node that detoured it */
    detoured = pick(cfg->coord[0], cfg->coord[1], cfg->coord[2], in->dim) !=
               pick(dst0, dst1, dst2, in->dim);
    /* the rule's dimension first; if no live rail leads there, the other
     * dimensions still to fix, in the same cyclic order (another
     * dimension order: every hop still fixes one dimension, so no loop) */
#pragma unroll
    for (k = 1; k <= 3; k++) {
        d = (in->dim + k) % 3;
        key.coord = pick(dst0, dst1, dst2, d);
        if (pick(cfg->coord[0], cfg->coord[1], cfg->coord[2], d) == key.coord ||
            (detoured && d == in->dim)) {
            continue;
        }
        if (first == 3) {
            first = d;
        }
        key.dim  = d;
        key.rail = in->rail;
        port = bpf_map_lookup_elem(&hxb_ports, &key);
        if (port) {
            break;
        }
    }
    /* no live rail fixes any dimension still to fix (typically: the last
     * hop, the destination's own rails of that dimension are dead): detour
     * along a dimension already fixed, to another node of that line, the
     * arrival dimension last (in a 2-node line it leads back). There the
     * rule fixes the dimension we could not, then this one last, so the
     * frame reaches the destination over another of its dimensions. The
     * hop limit ends any detour that finds no way. */
    if (!port) {
#pragma unroll
        for (k = 1; k <= 3; k++) {
            __u32 j, here, size, to, back;
            d = (in->dim + k) % 3;
            here = pick(cfg->coord[0], cfg->coord[1], cfg->coord[2], d);
            size = pick(cfg->size[0], cfg->size[1], cfg->size[2], d);
            to   = pick(dst0, dst1, dst2, d);
            /* after a detour, its own line also leads on: to another node
             * than the one it came from */
            back = detoured && d == in->dim;
            if (here != to && !back) {
                continue;
            }
#pragma unroll
            for (j = 1; j <= HXB_RELAY_DETOUR_TRIES; j++) {
                if (!port && j < size) {
                    /* the other nodes of the line, starting at one chosen by
                     * the hop count: a frame that comes by again tries
                     * another (lines of 3+ nodes; on 2 nodes it is the one) */
                    key.dim   = d;
                    key.rail  = in->rail;
                    key.coord = (here + 1 + (j - 1 + h[OFF_HOPS]) % (size - 1)) % size;
                    if (!back || key.coord != to) {
                        port = bpf_map_lookup_elem(&hxb_ports, &key);
                    }
                }
            }
            if (port) {
                break;
            }
        }
        if (!port) {
            count(HXB_RELAY_NOROUTE);
            return TC_ACT_SHOT;
        }
        count(HXB_RELAY_DETOUR);
    } else if (d != first) {
        count(HXB_RELAY_DEFLECT);
    }
    if (off == UDP_HXB_OFF) {
        /* the next node is the destination if the hop fixes the last
         * dimension that differs: then the datagram goes to its process's
         * port, else to the next relay's */
        last = key.coord == pick(dst0, dst1, dst2, key.dim);
#pragma unroll
        for (k = 0; k < 3; k++) {
            if (k != key.dim &&
                pick(cfg->coord[0], cfg->coord[1], cfg->coord[2], k) != pick(dst0, dst1, dst2, k)) {
                last = 0;
            }
        }
        if (!port->dip || !port->sip ||
            (last && (proc < cfg->port_min || proc > cfg->port_max))) {
            count(HXB_RELAY_REFUSED);
            return TC_ACT_SHOT;
        }
        if (udp_next_hop(skb, port, bpf_htons(last ? proc : HXB_RELAY_UDP_PORT))) {
            count(HXB_RELAY_REFUSED);
            return TC_ACT_SHOT;
        }
        count(HXB_RELAY_UDP);
    } else {
        h[OFF_HOPS]--;      /* outside the checksum: nothing else changes */
    }
    data = (void *)(long)skb->data;
    end  = (void *)(long)skb->data_end;
    eth  = data;
    if (data + sizeof(*eth) > end) {
        return TC_ACT_SHOT;
    }
    __builtin_memcpy(eth->h_dest, port->dmac, 6);
    __builtin_memcpy(eth->h_source, port->smac, 6);
    ifindex = port->ifindex;
    count(HXB_RELAY_FWD);
    return bpf_redirect(ifindex, 0);
}

char _license[] SEC("license") = "GPL";
