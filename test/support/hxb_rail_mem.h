/* In-memory rail pairs with seeded faults, for the unit tests and the
 * fuzzers only (not part of libuct_hxb): frames sent on one rail appear on
 * its partner. Its stalls and rate limits run on hxb_now() (hxb_clock.h):
 * build it with the same HXB_VIRTUAL_CLOCK setting as the engine. */
#ifndef HXB_RAIL_MEM_H
#define HXB_RAIL_MEM_H

#include "hxb_rail.h"

#include <stddef.h>
#include <stdint.h>

typedef struct hxb_mem_faults {
    unsigned drop_ppm, dup_ppm, corrupt_ppm, reorder_ppm;
    unsigned qlimit;   /* frames waiting at the receiver beyond which a send is
                        * refused (tx_again), like a full qdisc; 0: none */
    unsigned dlimit;   /* frames waiting at the receiver beyond which a frame
                        * is lost silently, like a full switch port or relay
                        * queue further on; 0: none */
    unsigned stall_ppm, stall_us; /* by chance per frame sent, the partner
                        * delivers nothing for stall_us: late frames on one
                        * rail, as from a queue or a receiver off the CPU */
    int      stall_host; /* the stall holds every rail whose faults set this
                        * (one receiving host off the CPU: all its rails at
                        * once), not only this one; one such host per process */
    size_t   lane_min; /* frames of this many bytes or more take a second
                        * lane (0: one lane), delivered after the first's
                        * frames and lane_us later than sent: a dual rail's
                        * UDP socket beside its raw ring */
    unsigned lane_us;
    int      batch;    /* frames leave at the next flush, their data read
                        * only then, as raw and UDP rails' batches do */
    double   rate;     /* bytes per second the link carries (0: no limit):
                        * a frame arrives when the ones before it have
                        * gone through, so what waits is a queue that delays */
    int      no_backlog; /* the rail does not tell its queue (backlog op,
                        * as a raw rail), though it has one (rate) */
    int      udp;      /* a UDP carrier: frames may go in their short form
                        * (hxb_short.h), each delivered with room in front;
                        * a corrupted frame is dropped (UDP's checksum) */
    uint64_t seed;
} hxb_mem_faults_t;

int  hxb_rail_mem_pair(size_t mtu, const hxb_mem_faults_t *faults,
                       hxb_rail_t **a, hxb_rail_t **b);
void hxb_rail_mem_set_faults(hxb_rail_t *rail, const hxb_mem_faults_t *faults);
void hxb_rail_mem_set_down(hxb_rail_t *rail, int down);
/* frames are waiting for this rail's recv: what poll() on a real rail's fd
 * would report (for tests of callers that sleep between progress calls) */
int  hxb_rail_mem_pending(const hxb_rail_t *rail);
/* rate-limited link: how long a frame sent to this rail now would queue
 * behind the ones still on the wire (s) */
double hxb_rail_mem_queue_delay(const hxb_rail_t *rail);
/* sequenced frames (data) this rail's faults dropped: a test of recovery
 * asserts its loss happened */
unsigned long hxb_rail_mem_dropped_seq(const hxb_rail_t *rail);
/* the longest frame this rail sent (UCX_HXB_FRAME_MAX's test) */
size_t hxb_rail_mem_tx_largest(const hxb_rail_t *rail);

#endif
