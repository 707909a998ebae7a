/* A rail: one NIC (or one UDP address) hxb sends and receives frames on.
 * Kinds: raw Ethernet (AF_PACKET, mmapped RX ring) and UDP; the tests'
 * in-memory rail with seeded faults is in test/support/hxb_rail_mem.h.
 * Sends are batched: send() queues, flush() hands the batch to the kernel
 * in one system call. */
#ifndef HXB_RAIL_H
#define HXB_RAIL_H

#include "hxb_clock.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#define HXB_RAIL_BATCH 128 /* frames a UDP rail gathers per send call: two
                           * 64 KB segmented datagrams at MTU 1500 */
#define HXB_RAIL_PEEK_LEN 256 /* bytes of a frame a UDP rail's peek shows: a
                               * header and any extension (its tag's cover) */
#define HXB_MAX_RAILS  16
#define HXB_RAIL_LANES 2        /* ordered queues per rail (hxb_rail_ops_t.lane) */
#define HXB_MAX_LANES  (HXB_MAX_RAILS * HXB_RAIL_LANES)

typedef struct hxb_rail hxb_rail_t;

/* where a peer is on a rail */
typedef struct hxb_raddr {
    uint8_t  mac[6];
    uint16_t port;      /* UDP port, network order */
    uint32_t ip;        /* IPv4, network order     */
} hxb_raddr_t;

/* called for each received frame; `data` is valid only during the call */
typedef void (*hxb_rx_cb_t)(void *arg, hxb_rail_t *rail, void *data,
                            size_t len, const hxb_raddr_t *src);
/* (rail->rx_stamp tells when the kernel received the frame) */

typedef struct hxb_rail_ops {
    /* queue one frame; iov[0] starts with the hxb header. 0 or -errno
     * (-EAGAIN: the rail's queue is full, try later or another rail) */
    int  (*send)(hxb_rail_t *rail, const hxb_raddr_t *dst,
                 const struct iovec *iov, int iovcnt);
    int  (*flush)(hxb_rail_t *rail);
    /* optional: flush several rails of this kind in as few system calls as
     * possible (raw rails: one sendmmsg for all, each frame naming its
     * interface); the engine uses it when every rail has it */
    void (*flush_many)(hxb_rail_t **rails, int n);
    /* deliver up to max received frames to cb; returns how many */
    int  (*recv)(hxb_rail_t *rail, hxb_rx_cb_t cb, void *arg, int max);
    /* optional: show cb up to max frames waiting, oldest first, and leave
     * them for recv; data may hold only the frame's start (size bytes, at
     * least a header's if the frame has one). For the idle tick, which
     * learns who sends to a process that is not reading (8.7). */
    int  (*peek)(hxb_rail_t *rail, hxb_rx_cb_t cb, void *arg, int max);
    /* optional: bytes of ours this host still holds for the wire on the
     * rail's interface (socket, qdisc, driver), -1 if unknown */
    long (*backlog)(hxb_rail_t *rail);
    void (*close)(hxb_rail_t *rail);
    /* optional: a frame of len bytes to dst goes by a carrier with its own
     * checksum (dual rails: bulk frames by UDP), so hxb's may be left out */
    int  (*carrier_csum)(hxb_rail_t *rail, const hxb_raddr_t *dst, size_t len);
    /* optional: which of the rail's queues (lanes, 0..HXB_RAIL_LANES-1) a
     * frame of len bytes to dst joins. Frames keep their order within a
     * lane, not across lanes: a dual rail's raw and UDP frames reach the
     * receiver by different sockets, read one after the other. Without
     * it, a rail is one lane. */
    int  (*lane)(hxb_rail_t *rail, const hxb_raddr_t *dst, size_t len);
} hxb_rail_ops_t;

typedef struct hxb_rail_stats {
    uint64_t tx_frames, tx_bytes, tx_again, tx_errors;
    uint64_t rx_frames, rx_bytes, rx_ring_drops;
    uint64_t tx_gso, rx_gro;   /* UDP datagrams carrying several frames */
    uint64_t rx_foreign;       /* a shared UDP socket's datagrams that came
                                  by an interface that is no rail: dropped */
} hxb_rail_stats_t;

struct hxb_rail {
    const hxb_rail_ops_t *ops;
    int              index;        /* position in the engine's rail table  */
    int              fd;           /* pollable descriptor, -1 if none       */
    /* A socket recv reads with a system call even when nothing waits (UDP;
     * raw rails read their mmapped ring), -1 if none. With several rails,
     * the engine asks epoll which of these are ready, one call per pass,
     * and sets sys_ready before recv: 0 = nothing waits on sysfd. */
    int              sysfd;
    int              sys_ready;
    size_t           mtu;          /* largest hxb frame (header included)   */
    char             ifname[16];
    uint8_t          mac[6];
    uint32_t         ip;           /* network order, 0 if none              */
    uint8_t          prefix;
    uint16_t         port;         /* UDP rails: bound port, network order  */
    uint32_t         net_id;       /* which switch/subnet: rails with equal
                                      net_id reach each other directly      */
    uint8_t          dim, railno;  /* hyper-crossbar position (topology)    */
    double           speed;        /* bytes per second                      */
    int              up;           /* link state as last seen               */
    /* during a recv callback: when the kernel received that frame, in
     * hxb_now()'s clock (0: unknown); the receiver reports how long frames
     * waited in its host (ACK hold_us), which is not path delay */
    double           rx_stamp;
    /* during a recv callback: bytes in front of that frame the engine may
     * write over (a short frame grows into them, hxb_short.h), 0: none */
    size_t           rx_room;
    /* a frame that leaves by this rail's UDP (a UDP rail: all; a dual
     * rail: those carrier_csum sends by UDP) may go in its short form: the
     * receiver's UDP rail leaves room in front of every frame */
    int              udp_carrier;
    /* CLOCK_REALTIME minus hxb_now()'s clock, in which the kernel stamps
     * received frames: set by the engine every link check (0: not yet, ask
     * the clocks), so a receive costs no clock reads. Stale by up to that
     * period after a step of the wall clock; a hold it mismeasures then is
     * one ACK's. */
    double           real_off;
    hxb_rail_stats_t stats;
};

/* CLOCK_REALTIME minus hxb_now()'s clock for a receive: the engine's,
 * else asked now */
static inline double hxb_rail_real_off(const hxb_rail_t *rail)
{
    return rail->real_off ? rail->real_off : hxb_clock_real_offset();
}

static inline int hxb_rail_carrier_csum(hxb_rail_t *rail, const hxb_raddr_t *dst,
                                        size_t len)
{
    return rail->ops->carrier_csum && rail->ops->carrier_csum(rail, dst, len);
}

/* the lane, over all rails, of a frame of len bytes to dst on rail */
static inline int hxb_rail_lane(hxb_rail_t *rail, int index, const hxb_raddr_t *dst,
                                size_t len)
{
    return index * HXB_RAIL_LANES + (rail->ops->lane ? rail->ops->lane(rail, dst, len) : 0);
}

/* DUAL: raw and UDP on one NIC, bulk frames by UDP (hxb_rail_dual.c) */
typedef enum { HXB_RAIL_RAW = 0, HXB_RAIL_UDP = 1, HXB_RAIL_DUAL = 2 } hxb_rail_kind_t;

/* Open a rail on interface `ifname`. proc_id is this process's id on the
 * node (raw rails steer frames with it in the kernel); for UDP rails *port
 * is the port to bind (0 = any) and returns the port bound. On failure
 * returns -errno and writes a message (naming the missing privilege when it
 * is one) to err. */
int hxb_rail_open(hxb_rail_kind_t kind, const char *ifname, uint16_t proc_id,
                  uint16_t *port, hxb_rail_t **rail_p, char *err, size_t errlen);

/* the openers of each kind behind hxb_rail_open (the dual rail opens one
 * of each); same conventions */
int hxb_rail_raw_open(const char *ifname, uint16_t proc_id, hxb_rail_t **rail_p,
                      char *err, size_t errlen);
int hxb_rail_udp_open(const char *ifname, uint16_t *port, hxb_rail_t **rail_p,
                      char *err, size_t errlen);
int hxb_rail_dual_open(const char *ifname, uint16_t *port, hxb_rail_t **rail_p,
                       char *err, size_t errlen);

/* UDP rails sharing one socket, bound to *port on every address: the
 * first opened with share = NULL (binds; *port 0 = any, returns it), each
 * other with share = the first (its port). The first rail reads for all
 * (the others have no fd); each sends by its own interface. Closed in any
 * order. Same conventions as above. */
int hxb_rail_udp_open_shared(const char *ifname, uint16_t *port, hxb_rail_t *share,
                             hxb_rail_t **rail_p, char *err, size_t errlen);
/* ... checked and read like hxb_rail_open's */
int hxb_rail_open_udp_shared(const char *ifname, uint16_t *port, hxb_rail_t *share,
                             hxb_rail_t **rail_p, char *err, size_t errlen);

/* A UDP datagram with segmentation offload (UDP_SEGMENT) carries at most
 * the kernel's 64 segments and a payload below 64 KiB: how many frames of
 * frame_len bytes that is (the striping counts a rail's datagrams by it) */
#define HXB_UDP_GSO_BYTES  65000
#define HXB_UDP_GSO_SEGS   64
static inline size_t hxb_udp_gso_frames(size_t frame_len)
{
    size_t n = frame_len ? HXB_UDP_GSO_BYTES / frame_len : HXB_UDP_GSO_SEGS;

    return n < 1 ? 1 : n > HXB_UDP_GSO_SEGS ? HXB_UDP_GSO_SEGS : n;
}

/* UDP rails: send and receive frame by frame, without segmentation
 * offload (UDP_SEGMENT) and receive coalescing (UDP_GRO) */
void hxb_rail_udp_no_offload(hxb_rail_t *rail);

/* read link state, address, MTU and speed from the kernel */
int hxb_rail_refresh(hxb_rail_t *rail);

/* the interfaces to use when neither the settings nor a topology file name
 * any: every up (or "unknown") non-loopback Ethernet interface, in
 * /sys/class/net order; returns how many, at most max */
int hxb_rail_default_names(char names[][16], int max);

/* Reserve a process id unique on this node: a UDP port bound on every
 * address (*port, network order). Returns the socket holding it (raw mode
 * keeps it open for as long as the iface), -1 with errno on failure. */
int hxb_rail_reserve_port(uint16_t *port);

/* Where the rail sits before it is given to the engine: its dimension and
 * rail number on the hyper-crossbar (0 without a topology) and, when speed
 * (bytes per second) is positive, its speed instead of the kernel's. */
void hxb_rail_place(hxb_rail_t *rail, int dim, int railno, double speed);

#endif
