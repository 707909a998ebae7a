/* hxb wire format: every frame hxb puts on a rail. See doc/PROTOCOL.md for the
 * specification; this header is its C form. All multi-byte fields are
 * little-endian on the wire. */
#ifndef HXB_WIRE_H
#define HXB_WIRE_H

#include "hxb_auth.h"

#include <stddef.h>
#include <stdint.h>

#define HXB_ETHERTYPE   0x88B5  /* IEEE 802 local experimental */
#define HXB_VERSION     4       /* 4: the job key field became the tag (8.13) */
#define HXB_HOPS_MAX    8       /* hop limit a source puts in a frame */
#define HXB_NODE_NONE   0xffff
#define HXB_RELAY_PORT  885     /* UDP rails send frames for relayed peers to
                                 * this port of the first relay (8.10)     */
#define HXB_TAG_IOV     4       /* pieces of a frame hxb_frame_tag takes */

enum hxb_kind {
    HXB_K_AM       = 1,  /* active-message fragment, delivered in order     */
    HXB_K_PUT      = 2,  /* bulk write, placed at its offset on arrival      */
    HXB_K_GET_REQ  = 3,  /* read request; answered by GET_RESP frames        */
    HXB_K_GET_RESP = 4,  /* read data, placed at its offset on arrival       */
    HXB_K_NOP      = 5,  /* sequenced filler (fence, keeps seq space dense)  */
    HXB_K_ATOMIC   = 6,  /* atomic op on 4 or 8 bytes; a fetch is answered by
                          * a GET_RESP carrying the old value              */
    HXB_K_ACK      = 16, /* cumulative + selective acknowledgement (unseq.)  */
    HXB_K_ERR      = 17, /* a sequenced frame was refused (bad rkey, ...)    */
    HXB_K_PING     = 18, /* rail liveness probe (unsequenced)                */
    HXB_K_PONG     = 19,
    HXB_K_HELLO    = 20, /* relay daemon's neighbour liveness beacon (unseq.) */
    HXB_K_MAX
};
/* hxb-cablecheck's probe: a HELLO's header and extension, sent to
 * HXB_NODE_NONE; no relay or process takes it (hxb_ext_len() knows no such
 * kind), only hxb-cablecheck listens for it (PROTOCOL.md 5) */
#define HXB_K_PROBE 21

/* flags */
#define HXB_F_CSUM      0x01  /* csum field is valid                          */
#define HXB_F_SEQ       0x02  /* frame is sequenced (reliable)                */
#define HXB_F_AM_FIRST  0x10  /* AM: first fragment of a message              */
#define HXB_F_AM_LAST   0x20  /* AM: last fragment of a message               */
#define HXB_F_MORE      0x08  /* more frames follow right behind this one:
                               * the receiver need not ack it on its own    */
#define HXB_F_AM_BUNDLE 0x40  /* AM: payload is several short AMs, each
                               * hxb_am_rec_t + data (with FIRST|LAST);
                               * PUT: several short puts, each hxb_put_rec_t
                               * + data (the extension's addr, rkey are 0)  */
#define HXB_F_BUSY      0x04  /* the sender's caller does not progress: it
                               * lives but reads nothing until it does      */
#define HXB_F_ORDERED   0x80  /* PUT: place in sequence order, not on arrival
                               * (a put of one frame; puts by copy)         */

typedef struct __attribute__((packed)) hxb_hdr {
    uint8_t  version;     /* HXB_VERSION                                     */
    uint8_t  kind;        /* enum hxb_kind                                   */
    uint8_t  flags;       /* HXB_F_*                                         */
    uint8_t  hops;        /* hop limit, decremented by each relay            */
    uint16_t len;         /* bytes after this header: extension + payload    */
    uint8_t  rail;        /* sender's rail index the frame left on           */
    uint8_t  reserved;
    uint64_t tag;         /* MAC of the frame under the job's key, or the
                           * job key with authentication off (8.13)         */
    uint16_t src_node;    /* originating node                                */
    uint16_t src_proc;    /* originating process on that node                */
    uint16_t dst_node;    /* final destination node (relays route on it)     */
    uint16_t dst_proc;    /* final destination process (kernel steering)     */
    uint32_t src_epoch;   /* the sender's instance: wall-clock ms at start */
    uint32_t dst_epoch;   /* receiver's epoch as the sender knows it         */
    uint32_t seq;         /* per-peer sequence number (if HXB_F_SEQ)          */
    uint32_t ack;         /* cumulative: next sequence expected from the peer */
    uint32_t csum;        /* checksum of header (csum=0) + rest, if F_CSUM   */
} hxb_hdr_t;                                                 /* 44 bytes */

/* Kind-specific extensions follow the header. */
typedef struct __attribute__((packed)) hxb_am_ext {
    uint8_t  am_id;
    uint8_t  pad[3];
    uint32_t total;       /* whole message length (first fragment)           */
} hxb_am_ext_t;

typedef struct __attribute__((packed)) hxb_put_ext {
    uint64_t addr;        /* destination address in the receiver             */
    uint64_t rkey;        /* key of the registered region it must lie in     */
} hxb_put_ext_t;

typedef struct __attribute__((packed)) hxb_get_req_ext {
    uint64_t addr;        /* source address in the responder                 */
    uint64_t rkey;
    uint32_t length;      /* bytes requested                                 */
    uint32_t get_id;      /* requester's operation id                        */
} hxb_get_req_ext_t;

typedef struct __attribute__((packed)) hxb_get_resp_ext {
    uint32_t get_id;
    uint32_t offset;      /* offset of this payload in the requested range   */
    uint32_t status;      /* 0 = data, else the request was refused          */
} hxb_get_resp_ext_t;

#define HXB_SACK_BITS 1024
/* ATOMIC (PROTOCOL.md section 4) */
enum {
    HXB_AOP_ADD, HXB_AOP_AND, HXB_AOP_OR, HXB_AOP_XOR, HXB_AOP_SWAP, HXB_AOP_CSWAP,
    HXB_AOP_MAX
};
typedef struct __attribute__((packed)) hxb_atomic_ext {
    uint8_t  op;          /* HXB_AOP_*                                        */
    uint8_t  size;        /* 4 or 8: the operand and the target's width       */
    uint8_t  fetch;       /* 1: answer with the old value (GET_RESP, get_id) */
    uint8_t  pad;
    uint32_t get_id;      /* fetch: the requester's id for the answer         */
    uint64_t addr;        /* target, aligned to size                          */
    uint64_t rkey;
    uint64_t value;       /* operand; CSWAP: the value swapped in             */
    uint64_t compare;     /* CSWAP: the value expected                        */
} hxb_atomic_ext_t;

/* one short put inside a PUT bundle frame (HXB_F_AM_BUNDLE on a PUT) */
typedef struct __attribute__((packed)) hxb_put_rec {
    uint64_t addr;        /* destination of the data that follows            */
    uint64_t rkey;        /* the region that must contain it                 */
    uint16_t len;         /* data bytes that follow                          */
} hxb_put_rec_t;

/* one short AM inside a bundle frame (HXB_F_AM_BUNDLE) */
typedef struct __attribute__((packed)) hxb_am_rec {
    uint8_t  am_id;
    uint8_t  pad;
    uint16_t len;         /* data bytes that follow                          */
} hxb_am_rec_t;

#define HXB_HOLD_NONE 0xffffffffu

typedef struct __attribute__((packed)) hxb_ack_ext {
    uint32_t cum;         /* every seq < cum was received                    */
    uint16_t nbits;       /* bits of the bitmap that follow (multiple of 64)  */
    uint16_t dups;        /* duplicates received since the previous ACK
                           * (saturating): the sender's retransmissions were
                           * spurious, like TCP's DSACK (0 from old peers)  */
    uint32_t hold_seq;    /* the sequenced frame that reached this host last */
    uint32_t hold_us;     /* microseconds from its arrival (the kernel's
                           * receive time) to this ACK: time spent in the
                           * receiving host, not on the path; HXB_HOLD_NONE:
                           * nothing received yet                           */
    /* uint64_t bitmap[nbits/64]: bit i set = seq cum+1+i was received       */
} hxb_ack_ext_t;

typedef struct __attribute__((packed)) hxb_err_ext {
    uint32_t seq;         /* the refused frame                                */
    uint32_t status;      /* HXB_E_*                                          */
} hxb_err_ext_t;

typedef struct __attribute__((packed)) hxb_ping_ext {
    uint64_t stamp;       /* sender's timestamp, echoed in PONG               */
    uint8_t  rail;        /* rail the probe was sent on; HXB_PING_CHALLENGE:
                           * an epoch challenge, stamp its nonce (8.9)       */
    uint8_t  pad[7];
} hxb_ping_ext_t;
#define HXB_PING_CHALLENGE 0xfe

/* HELLO: sent by hxb-relayd to the broadcast address of each rail, with
 * dst_node = HXB_NODE_NONE, dst_proc = 0 (no process); its tag is the
 * header MAC of PROTOCOL.md 8.13 under the cluster key (section 5, HELLO). PROBE
 * (hxb-cablecheck) has the same form. */
typedef struct __attribute__((packed)) hxb_hello_ext {
    uint8_t  dim;         /* dimension of the sending interface (0..2)        */
    uint8_t  rail;        /* its rail number within the dimension             */
    uint16_t interval_ms; /* the sender says HELLO this often                 */
    uint32_t pad;
} hxb_hello_ext_t;

/* reasons a frame is rejected: each has a counter */
enum hxb_drop {
    HXB_DROP_SHORT = 0,   /* shorter than a header                           */
    HXB_DROP_VERSION,     /* unknown version                                 */
    HXB_DROP_AUTH,        /* tag does not match: forged, or another job's    */
    HXB_DROP_KIND,        /* unknown kind                                    */
    HXB_DROP_LEN,         /* length field disagrees with frame size          */
    HXB_DROP_CSUM,        /* checksum mismatch                               */
    HXB_DROP_DST,         /* not for this process / stale epoch              */
    HXB_DROP_HOPS,        /* hop limit reached                               */
    HXB_DROP_ROUTE,       /* destination unknown or unreachable              */
    HXB_DROP_DUP,         /* duplicate of an already received frame          */
    HXB_DROP_WINDOW,      /* sequence outside the receive window             */
    HXB_DROP_RKEY,        /* PUT/GET outside any registered region           */
    HXB_DROP_NOBUF,       /* no buffer to hold an out-of-order frame         */
    HXB_DROP_UNPROVEN,    /* from a new run of a peer not yet proven (8.9)   */
    HXB_DROP_MAX
};

extern const char *hxb_drop_names[HXB_DROP_MAX];

/* extension size of each kind, or -1 for variable/unknown */
size_t hxb_ext_len(unsigned kind);

/* Validate a received frame of `size` bytes. Returns HXB_DROP_MAX if valid,
 * else the reason. Checks version, kind, lengths, (if flagged) the
 * checksum, then the tag; never reads past `size`. */
int hxb_frame_check(const void *frame, size_t size, const hxb_auth_t *auth);
/* hxb_frame_check but the tag (a short frame's was checked before it was
 * rebuilt, hxb_short.h) */
int hxb_frame_fields_check(const void *frame, size_t size);

/* The tag of a frame: its header (tag, csum, hops and rail, which relays
 * rewrite, as zero; the checksum flag left out) and what follows it, in
 * iov: the first bytes (the kind's extension, an ACK's bitmap) or all of
 * them, as auth->mode says. */
uint64_t hxb_frame_tag(const hxb_auth_t *auth, const hxb_hdr_t *hdr,
                       const struct iovec *iov, int iovcnt);
/* bytes after the header the tag covers (what a part of a frame must hold
 * for its tag to be checked) */
size_t hxb_frame_tag_len(const hxb_auth_t *auth, const hxb_hdr_t *hdr);

/* Checksum over a frame whose csum field is zero. */
uint32_t hxb_csum(const void *data, size_t len);
uint32_t hxb_frame_csum(const hxb_hdr_t *hdr, const struct iovec *iov, int iovcnt);

/* circular sequence comparison */
static inline int hxb_seq_lt(uint32_t a, uint32_t b) { return (int32_t)(a - b) < 0; }
static inline int hxb_seq_le(uint32_t a, uint32_t b) { return (int32_t)(a - b) <= 0; }

#endif
