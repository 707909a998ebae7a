/* Maps shared by the tc program (hxb_relay_bpf.c) and hxb-relayd, which
 * fills them. Kernel types only: this header is compiled for BPF too. */
#ifndef HXB_RELAY_MAPS_H
#define HXB_RELAY_MAPS_H

#include <linux/types.h>

/* the wire version the program forwards (HXB_VERSION; hxb_relayd.c checks
 * that they agree, since the BPF side cannot include hxb_wire.h) */
#define HXB_RELAY_VERSION 4

#define HXB_RELAY_MAX_PORTS 4096     /* (dimension, coordinate, rail) entries */
#define HXB_RELAY_MAX_IFS   64
#define HXB_RELAY_DETOUR_TRIES 3     /* coordinates tried per detour dimension */

/* UDP rails' relayed datagrams go to this port of the next relay's rail
 * address (HXB_RELAY_UDP_PORT in hxb_wire.h; hxb_relayd.c checks that they
 * agree). Below 1024, so that only root (hxb-relayd binds it) can receive
 * what is sent there, should the tc program be missing. */
#define HXB_RELAY_UDP_PORT 885

/* this node: set once at start */
struct hxb_relay_cfg {
    __u16 node;              /* our node id                                  */
    __u16 num_nodes;
    __u16 size[3];           /* grid X, Y, Z                                 */
    __u16 coord[3];          /* our coordinates                              */
    /* the UDP ports processes bind (the kernel's ephemeral range): a
     * relayed datagram goes to no other port of its destination, so relays
     * cannot be used to reach other services from a privileged port */
    __u16 port_min, port_max;
};

/* an interface of ours, by ifindex: which rail it is */
struct hxb_relay_in {
    __u8 dim, rail;
};

/* where frames go that must change dimension `dim` to coordinate `coord`,
 * having arrived on rail number `rail`: the daemon points it at the same
 * rail number if that rail and the neighbour on it are alive, else at
 * another live rail of the dimension, and deletes it when none is */
struct hxb_relay_key {
    __u8  dim, rail;
    __u16 coord;
};

struct hxb_relay_port {
    __u32 ifindex;           /* our interface to send on                     */
    __u8  dmac[6];           /* the neighbour's MAC on that rail             */
    __u8  smac[6];           /* our MAC on that rail                         */
    __be32 dip;              /* the neighbour's IPv4 address on that rail and */
    __be32 sip;              /* ours, for UDP rails' datagrams (0: none)      */
};

/* counters (per CPU) */
enum {
    HXB_RELAY_FWD = 0,       /* frames forwarded                             */
    HXB_RELAY_LOCAL,         /* hxb frames for this node, passed up          */
    HXB_RELAY_HOPS,          /* dropped: hop limit reached                   */
    HXB_RELAY_NOROUTE,       /* dropped: destination outside the grid, or no
                                live rail towards it                         */
    HXB_RELAY_DEFLECT,       /* forwarded on another dimension order         */
    HXB_RELAY_DETOUR,        /* no live rail fixes a dimension (the last hop
                                is dead): sent along a fixed one instead     */
    HXB_RELAY_UDP,           /* of the forwarded: UDP rails' datagrams       */
    HXB_RELAY_REFUSED,       /* dropped: a UDP datagram to a port outside the
                                processes' range, or to a rail without
                                addresses                                    */
    HXB_RELAY_NCOUNTERS
};

#endif
