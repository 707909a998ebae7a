/* hxb-relayd's neighbour table and its judgement of a received HELLO
 * (doc/PROTOCOL.md 5, HELLO; 8.10 liveness): a function of the frame's
 * bytes, its source address and the table, so that a fuzz target
 * (test/fuzz/fuzz_hello.c) can call it as the daemon does. */
#ifndef HXB_RELAY_HELLO_H
#define HXB_RELAY_HELLO_H

#include "hxb_wire.h"

#include <stddef.h>
#include <stdint.h>

/* a neighbour on one of our rails */
typedef struct relay_nbr {
    int      node, dim, rail;
    uint8_t  mac[6];
    double   heard;          /* last HELLO, 0 = never */
    double   period;         /* its HELLO period (s), 0 = not heard yet */
    int      alive;
    uint32_t epoch, seq;     /* of its last HELLO taken: later ones only */
} relay_nbr_t;

/* what hxb_relay_hello_check() made of a frame */
enum {
    HXB_HELLO_IGNORED = 0,   /* not a well-formed HELLO                   */
    HXB_HELLO_OTHER_LINE,    /* a well-formed HELLO, but not of this
                                rail's (dim, rail) from a neighbour the
                                topology names there: a cable on the
                                wrong switch, here or at the sender       */
    HXB_HELLO_OTHER_MAC,     /* a neighbour's HELLO from another MAC      */
    HXB_HELLO_BAD_TAG,       /* with a key: the tag is wrong              */
    HXB_HELLO_REPLAYED,      /* with a key: not later than the last taken */
    HXB_HELLO_TAKEN          /* proof that the neighbour is alive         */
};

relay_nbr_t *hxb_relay_find_nbr(relay_nbr_t *nb, int n, int node, int dim, int rail);

/* the HELLO's tag: its header and extension's MAC, as header
 * authentication tags a frame (hxb_frame_tag) */
uint64_t hxb_relay_hello_tag(const uint64_t key[2], const hxb_hdr_t *h,
                             const hxb_hello_ext_t *x);

/* Judge a frame of len bytes received on the rail (dim, rail) from the
 * link-layer address from_mac (from_halen bytes), against the neighbour
 * table nb[nnb], under the cluster key (NULL: HELLOs not authenticated).
 * *nbr is the neighbour it names, for every verdict but IGNORED and
 * OTHER_LINE (else NULL). TAKEN with a key records the HELLO's epoch and counter in it;
 * nothing else is changed: the caller marks it heard and alive. Reads no
 * byte outside buf[0, len). */
int hxb_relay_hello_check(const void *buf, size_t len, int dim, int rail,
                          const uint8_t *from_mac, unsigned from_halen,
                          relay_nbr_t *nb, int nnb, const uint64_t *key,
                          relay_nbr_t **nbr);

#endif
