/* The hxb engine: rails, peers, reliable striped delivery. Free of UCX
 * types so it can be unit-tested directly; uct_hxb_*.c map UCT onto it.
 *
 * Dataflow (doc/DESIGN.md has the picture):
 *   send: op -> frames in the peer's TX window (sequence numbers) ->
 *         stripe: each frame on the least loaded rail that reaches the peer
 *   recv: rail burst -> validate -> peer -> ack/sack processing ->
 *         PUT/GET data placed at once; AM fragments through the reorder
 *         window -> delivered in sequence order
 *   acks: cumulative (piggybacked on every frame) + selective bitmap
 *         (ACK frames, coalesced); a frame is lost when a later frame sent on
 *         the same rail was acked (rails keep order) or on RTO. */
#ifndef HXB_ENGINE_H
#define HXB_ENGINE_H

#include "hxb_rail.h"
#include "hxb_wire.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HXB_OK        0
#define HXB_EAGAIN    (-11)   /* no resources now: retry after progress   */
#define HXB_INPROGRESS 1      /* accepted; completion callback will follow */

#define HXB_E_RKEY    1       /* remote refused: address outside region    */
#define HXB_E_PEER    2       /* peer unreachable / timed out              */
#define HXB_E_CANCEL  3       /* operation cancelled (endpoint destroyed)  */

#define HXB_AM_INLINE 192     /* am_short / am_zcopy header bytes kept in the slot */

/* bytes: the smallest frame a rail must take, and the smallest frame_cap */
#define HXB_FRAME_MIN (sizeof(hxb_hdr_t) + 64 + 256)

typedef struct hxb_engine hxb_engine_t;
typedef struct hxb_peer   hxb_peer_t;

/* hxb_engine_cfg_t.csum */
enum {
    HXB_CSUM_NONE    = 0,
    HXB_CSUM_ALL     = 1,   /* every frame                                  */
    HXB_CSUM_CARRIER = 2,   /* frames whose carrier has no checksum (raw)   */
};

typedef struct hxb_engine_cfg {
    uint64_t job_key;
    uint16_t node_id, proc_id;
    uint32_t epoch;           /* ours: wall-clock ms at its creation    */
    unsigned window;          /* frames in flight per peer, power of 2   */
    size_t   max_msg;         /* largest AM (bcopy) message              */
    int      csum;            /* HXB_CSUM_*: which frames carry a checksum */
    double   rto_min, rto_max;/* seconds                                 */
    double   rto_init;        /* before the first RTT sample             */
    double   ack_delay;       /* seconds a received frame may stay unacked */
    unsigned ack_every;       /* ack at once after this many frames      */
    unsigned rail_inflight;   /* frames in flight per rail (flow control)*/
    double   cc_target;       /* queueing delay a path may hold (s); 0: its
                               * window reacts to losses only           */
    double   peer_timeout;    /* no progress for this long: peer failed  */
    double   probe_interval;  /* liveness probes of suspect rails        */
    int      rack;            /* time-based loss detection across rails  */
    int      send_at_once;    /* a post to an idle peer leaves at once   */
    int      lazy_acks;       /* bursts nothing waits on ask no prompt ack */
    int      short_frames;    /* data frames by UDP in their short form  */
    size_t   train_max;       /* bursts up to this go whole on one rail  */
    double   train_cost;      /* host time per datagram (s): larger bursts
                               * stripe over as many rails as pays       */
    size_t   frame_cap;       /* frames sent at most this long (0: MTU),
                                * at least HXB_FRAME_MIN                  */
    int      auth;            /* HXB_AUTH_*: what each frame's tag covers  */
    uint64_t auth_key[2];     /* its key, from the job's secret
                               * (hxb_auth_derive); 0: from job_key      */
} hxb_engine_cfg_t;

typedef struct hxb_callbacks {
    void *arg;
    /* an active message, in order per peer; data valid during the call */
    void (*am)(void *arg, hxb_peer_t *peer, unsigned am_id, void *data,
               size_t len);
    /* an operation given a non-NULL comp finished (status 0 or HXB_E_*) */
    void (*complete)(void *arg, void *comp, int status);
    /* may a peer write (write=1) or read [addr, addr+len) under rkey? 0=yes */
    int  (*mem_check)(void *arg, uint64_t addr, uint64_t rkey, size_t len,
                      int write);
    /* the peer stopped answering; its pending operations completed with
     * HXB_E_PEER before this call */
    void (*peer_failed)(void *arg, hxb_peer_t *peer);
    /* the peer restarted (a new epoch, from its frames or hxb_peer_get):
     * what was pending towards its old run completed with HXB_E_PEER
     * before this call. Called from progress, never from hxb_peer_get. */
    void (*peer_reset)(void *arg, hxb_peer_t *peer);
} hxb_callbacks_t;

typedef struct hxb_engine_stats {
    uint64_t drops[HXB_DROP_MAX];
    uint64_t tx_frames, rx_frames, retransmits, rto_fired, fast_retx;
    uint64_t acks_sent, acks_rcvd, am_delivered, ooo_held, peers_failed;
    uint64_t peers_reset;     /* a peer restarted (new epoch)            */
    uint64_t challenges;      /* PINGs asking a claimed new run to prove it */
    uint64_t busy_sent;       /* idle ticks' ACKs saying we are busy (8.7) */
    uint64_t busy_rcvd;       /* frames of peers saying they are busy    */
    uint64_t busy_learned;    /* ... peers the idle tick found in the rails */
    uint64_t rack_retx;       /* lost frames found by time across rails  */
    uint64_t rail_failovers;
    uint64_t spurious;        /* duplicates the peer reported (late, not lost) */
    uint64_t am_bundled;      /* short AMs that rode in another AM's frame */
    uint64_t put_bundled;     /* short puts that rode in another put's frame */
    uint64_t put_copied;      /* puts by copy (put_short, put_bcopy) issued */
    uint64_t atomics_done;    /* atomic operations done on our memory      */
    uint64_t atomic_bundled;  /* atomics that rode in another one's frame  */
    uint64_t rail_cuts;       /* rail windows halved after local refusals */
    uint64_t cwnd_cuts;       /* path windows halved after congestion losses */
    uint64_t cc_delay_cuts;   /* path windows shrunk for queueing delay   */
    uint64_t cc_delay_samples;/* round trips the delay control weighed    */
    uint64_t cwnd_undos;      /* cuts undone: the losses were late frames */
    uint64_t resp_revoked;    /* GET_RESP frames refused: region went away */
    uint64_t tx_short, rx_short; /* frames sent, accepted in short form (3.1) */
} hxb_engine_stats_t;

/* one peer's traffic (hxb-stat; counted in place, no cost beyond an add) */
typedef struct hxb_peer_stats {
    uint64_t tx_frames, tx_bytes;  /* sequenced frames sent, resends included */
    uint64_t rx_frames, rx_bytes;  /* frames accepted from it, of any kind */
    uint64_t retransmits;
} hxb_peer_stats_t;

void hxb_engine_cfg_default(hxb_engine_cfg_t *cfg);
int  hxb_engine_create(const hxb_engine_cfg_t *cfg, const hxb_callbacks_t *cb,
                       hxb_engine_t **e_p);
void hxb_engine_destroy(hxb_engine_t *e);
/* the engine takes ownership of the rail */
int  hxb_engine_add_rail(hxb_engine_t *e, hxb_rail_t *rail);
int  hxb_engine_num_rails(hxb_engine_t *e);
hxb_rail_t *hxb_engine_rail(hxb_engine_t *e, int i);
size_t hxb_engine_frag_size(hxb_engine_t *e);  /* payload bytes per frame */
/* the largest AM of at most max bytes that fills its frames: a first
 * fragment, then later ones in short form where every rail can carry
 * them (PROTOCOL.md 3.1) */
size_t hxb_engine_am_whole(hxb_engine_t *e, size_t max);
const hxb_engine_stats_t *hxb_engine_stats(hxb_engine_t *e);
const hxb_engine_cfg_t *hxb_engine_cfg(hxb_engine_t *e);

/* receive, acknowledge, retransmit, send what is queued; returns how many
 * events happened (0 = idle) */
unsigned hxb_engine_progress(hxb_engine_t *e);
/* From a timer, in any thread, never at the same time as another engine
 * call: if no progress pass ran for a while (the caller computes), send
 * what posts left in the rails' batches and tell the peers that sent us
 * something lately that we are alive but busy (HXB_F_BUSY), so that they
 * wait for us instead of failing us. Calls back nothing. */
void hxb_engine_idle_tick(hxb_engine_t *e);
/* descriptors to poll() for blocking progress */
int  hxb_engine_fds(hxb_engine_t *e, int *fds, int max);

/* Peers. A peer is created by hxb_peer_get from its address or, for one
 * that contacts us first, on its first frame. addrs[i] is the peer's
 * address on local rail i (mask bit i set when rail i reaches it). */
hxb_peer_t *hxb_peer_get(hxb_engine_t *e, uint16_t node, uint16_t proc,
                         uint32_t epoch, const hxb_raddr_t *addrs,
                         uint32_t rail_mask);
void hxb_peer_put_ref(hxb_peer_t *p);
int  hxb_peer_failed(const hxb_peer_t *p);
/* the run of the peer this process talks to (changes when it restarts) */
uint32_t hxb_peer_epoch(const hxb_peer_t *p);
uint32_t hxb_peer_rail_mask(const hxb_peer_t *p);

/* Operations. Return HXB_OK (done, data copied), HXB_INPROGRESS (comp will
 * be called), HXB_EAGAIN (no room: progress and retry), or -HXB_E_PEER.
 * Zero-copy buffers must stay valid until completion. */
int hxb_am_send(hxb_peer_t *p, unsigned am_id, const struct iovec *iov,
                int iovcnt);
/* bcopy: pack(dest, arg) writes at most max_msg bytes and returns the length */
typedef size_t (*hxb_pack_cb_t)(void *dest, void *arg);
long hxb_am_bcopy(hxb_peer_t *p, unsigned am_id, hxb_pack_cb_t pack, void *arg);
int hxb_am_zcopy(hxb_peer_t *p, unsigned am_id, const void *hdr, size_t hdr_len,
                 const void *data, size_t len, void *comp);
int hxb_put(hxb_peer_t *p, const void *data, size_t len, uint64_t raddr,
            uint64_t rkey, void *comp);
/* Puts by copy: done on return (the data is copied into the frame); a
 * refusal by the peer (bad rkey) is reported by the next flush. Short ones
 * to one peer share frames (PUT bundles). put_short: at most HXB_AM_INLINE
 * bytes; put_bcopy: pack writes at most one frame's payload (frag). */
int hxb_put_short(hxb_peer_t *p, const void *data, size_t len, uint64_t raddr,
                  uint64_t rkey);
long hxb_put_bcopy(hxb_peer_t *p, hxb_pack_cb_t pack, void *arg, uint64_t raddr,
                   uint64_t rkey);
int hxb_get(hxb_peer_t *p, void *data, size_t len, uint64_t raddr, uint64_t rkey,
            void *comp);
/* Atomic operation (HXB_AOP_*) on size (4 or 8) bytes at raddr, done by
 * the peer's CPU when the frame arrives: atomic against its own CPU's
 * atomics on the same word. result NULL (ADD, AND, OR, XOR only): posted,
 * returns HXB_OK, a refusal goes to the next flush. Otherwise the value
 * found there is written to result (size bytes) and comp completes:
 * returns HXB_INPROGRESS. CSWAP swaps in value if it found compare. */
int hxb_atomic(hxb_peer_t *p, unsigned aop, unsigned size, uint64_t value,
               uint64_t compare, uint64_t raddr, uint64_t rkey, void *result,
               void *comp);
/* completes when everything issued so far on the peer is acknowledged */
int hxb_flush(hxb_peer_t *p, void *comp);
/* something waits on the acks of p's frames in flight (a fence): ask for a
 * prompt one; <0: no memory (retry) */
int hxb_ask_ack(hxb_peer_t *p);
/* Registered memory under rkey is going away: reads peers still make of
 * it get a refusal from now on, never its bytes (hxb_rma.c). */
void hxb_engine_region_gone(hxb_engine_t *e, uint64_t rkey);
/* Operations issued after this call belong to owner (a UCT endpoint: several
 * may share one peer), until it is called again. */
void hxb_peer_set_owner(hxb_peer_t *p, void *owner);
/* Cancel owner's operations (NULL: everyone's): each pending completion is
 * called now with HXB_E_CANCEL, and from then on the engine neither reads
 * nor writes their buffers. Frames already numbered still occupy their
 * sequence numbers: a resend goes out as a NOP (PROTOCOL.md 8.14). */
void hxb_peer_cancel(hxb_peer_t *p, void *owner);
int hxb_peer_tx_idle(const hxb_peer_t *p);
/* sequenced frames sent or queued but not yet acknowledged */
unsigned hxb_peer_unacked(const hxb_peer_t *p);
/* For a caller that sleeps between progress calls (on hxb_engine_fds):
 * the time, on hxb_now's clock, by which progress must run again even if
 * no frame arrives (acks owed, losses to declare, RTO checks, probes, the
 * peer timeout); 0 if only arriving frames can bring work. A time not
 * after now: progress at once. */
double hxb_engine_wake_at(const hxb_engine_t *e);
/* after a progress pass that found nothing: may the caller sleep (1), and
 * until when (*until: a wake time, 0 for "until a frame arrives")? 0: a
 * deadline is due, progress again */
int hxb_engine_may_sleep(hxb_engine_t *e, double *until);

/* What is inside a running engine, read out for operators (hxb_inspect.c:
 * hxb-stat's shared counters, the state dump). Read only, never between
 * another engine call's steps: from the thread that owns the engine. */
typedef struct hxb_peer_info {
    uint16_t node, proc;
    uint32_t epoch;
    uint32_t rail_mask;        /* local rails that reach it              */
    uint32_t suspect;          /* ... of which lost frames, being probed  */
    uint8_t  failed, busy, active;
    unsigned inflight;         /* frames sent, not yet acknowledged       */
    unsigned unacked;          /* ... and numbered but not yet sent       */
    unsigned ops_queued;       /* operations waiting to be cut into frames */
    unsigned gets_pending;     /* our reads waiting for its answer        */
    unsigned acks_owed;        /* its frames we have not acknowledged yet */
    double   srtt, rttvar, rto, min_rtt;   /* seconds (0: no sample yet) */
    double   last_rx;          /* its last frame, on hxb_engine_clock      */
    hxb_peer_stats_t stats;
} hxb_peer_info_t;

/* the clock of the last progress pass (hxb_now's) */
double hxb_engine_clock(const hxb_engine_t *e);
/* rail i's frames in flight (all peers) and its current window */
void hxb_engine_rail_load(const hxb_engine_t *e, int i, unsigned *inflight,
                          double *window);
/* up to max peers into info, in no particular order; returns how many
 * peers there are (may exceed max) */
int  hxb_engine_peers(const hxb_engine_t *e, hxb_peer_info_t *info, int max);
/* a state dump: engine, rails, and each peer's windows, queues and paths,
 * as text (for a person reading it, no stable format) */
void hxb_engine_dump(const hxb_engine_t *e, FILE *f);
/* the same of one peer (what a failure report shows) */
void hxb_peer_dump(const hxb_peer_t *p, FILE *f);

#endif
