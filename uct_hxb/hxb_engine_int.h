/* Engine internals shared by the engine's modules (hxb_core.c .. hxb_engine.c,
 * doc/DESIGN.md "Where is X done?"): their types, and each module's functions. */
#ifndef HXB_ENGINE_INT_H
#define HXB_ENGINE_INT_H

#include "hxb_clock.h"
#include "hxb_engine.h"
#include "hxb_short.h"

#define HXB_HB_MAX    (sizeof(hxb_hdr_t) + 40)  /* header + largest extension */
#define HXB_MAX_GETS  1024
#define HXB_PEER_HASH 256
#define HXB_REO_DECAY 0.25    /* s: a widened reordering window halves */
#define HXB_TX_RING_MIN 64   /* send slots a peer gets at its first send */
#define HXB_TX_AHEAD  32     /* frames numbered but not yet pushed, at most */
#define HXB_BURST_MIN 8      /* frames of room before a new burst (hxb_tx.c) */
/* Windows count frames of HXB_FRAME_REF bytes: with smaller frames (MTU
 * 1500) a rail's window, the burst rule and the delay cut's floor hold as
 * many bytes, in more frames (e->wscale, set by hxb_engine_add_rail) */
#define HXB_FRAME_REF 8192
#define HXB_MAX_OPS   256     /* zero-copy operations queued per peer, at most */
#define HXB_BUNDLE_MAX 2048   /* am_bcopy messages up to this share frames */
#define HXB_RAIL_CAP_MIN 4.0  /* frames: a rail's window never shrinks below */
#define HXB_CWND_MIN 2.0      /* frames: a path's window never shrinks below */
#define HXB_CWND_LOSSES 4     /* losses within a round trip that make a congestion event */
#define HXB_CWND_UNDO_SPAN 20e-3 /* s: least time a cut waits for its duplicates */
#define HXB_CWND_INIT 2.0     /* frames: a new path's window, in slow start */
#define HXB_CC_WIN_MIN 8.0    /* frames: a delay cut stops there (losses go on) */
#define HXB_CC_BETA 0.8       /* delay cut: share of the excess delay removed */
#define HXB_CC_BASE_SPAN 10.0 /* s: a path's least round trip is renewed so often */
#define HXB_HELD_GAP 100e-6  /* s: posts held longer are timed from the pass that sends them */
#define HXB_IDLE_AFTER 5e-3   /* s: no pass for so long: idle ticks act */
#define HXB_RTO_EXT_DECAY 10.0 /* s: a raised RTO bound halves so often */
#define HXB_RTO_CEIL  60.0    /* s: no RTO above it (RFC 6298 2.4), however slow the peer */
#define HXB_PEEK_MAX 512      /* datagrams an idle tick looks at per rail
                               * (a UDP peek walks the queue from its head) */
#define HXB_BUSY_PERIOD 1.0   /* s: longest period of "busy" ACKs */
#define HXB_DRAIN_SPAN 200e-6 /* s: least span of a drain-rate sample */
#define HXB_ACK_AVOID 1.0     /* s: a rail our ACKs seemed lost on is left so long */
#define HXB_ACK_SLACK  2      /* ACKs wait so many times longer while no frame
                               * is known lost (hxb_ack.c; hxb_loss.c's timers) */
#define HXB_ASK_CALM  0.1     /* s: one frame at a time asks for an ack once
                               * nothing was resent for so long (hxb_tx.c) */
#define HXB_ACK_SLACK_SPAN 4  /* ack counts: a rail silent so long carries no gap */

/* The rail and path windows (frames in flight) follow one rule, TCP's:
 * one frame more per window of acked frames, up to max ... */
static inline double hxb_win_grown(double w, double max)
{
    return w < max ? w + 1.0 / w : w;
}

/* ... and halved on a congestion signal, never below min */
static inline double hxb_win_halved(double w, double min)
{
    return w / 2 < min ? min : w / 2;
}

/* the earlier of two deadlines, 0 meaning none */
static inline double hxb_wake_min(double a, double b)
{
    return !a || (b && b < a) ? b : a;
}

enum { TX_FREE = 0, TX_QUEUED, TX_INFLIGHT, TX_SACKED };
enum { RX_EMPTY = 0, RX_HELD, RX_DONE, RX_NOP };  /* RX_NOP: acts in order */
/* OP_NOP: what is left of a cancelled AM cut in part: one NOP frame, which
 * ends the receiver's reassembly of it */
enum { OP_AM_ZC = 1, OP_PUT, OP_GET_REQ, OP_GET_RESP, OP_FLUSH, OP_NOP };
/* A peer's operations wait in three queues, cut into frames one frame from
 * each in turn: ours (AMs, reads, flushes, in issue order: AMs keep their
 * order), our PUTs (so an AM - a rendezvous step, a FIN - never waits
 * behind megabytes of bulk data), the GET_RESPs we owe (so neither side's
 * reads wait behind the other's bulk data). */
enum { HXB_Q_OPS, HXB_Q_PUTS, HXB_Q_RESP, HXB_NQ };

typedef struct hxb_buf {          /* pooled copy buffer (bcopy data, held rx) */
    struct hxb_buf *next;
    size_t          len;
    uint8_t         data[];
} hxb_buf_t;

typedef struct hxb_pool {
    hxb_buf_t *free;
    size_t     size;              /* data bytes per buffer */
    unsigned   count, max;
} hxb_pool_t;

/* one sequenced frame in the TX window */
typedef struct hxb_txslot {
    uint8_t      state;
    uint8_t      rail;
    uint8_t      retx;
    uint8_t      hb_len;          /* header + extension bytes in hb        */
    uint8_t      err;             /* the receiver refused it (HXB_E_*)     */
    uint8_t      last;            /* last frame of its operation           */
    uint8_t      user;            /* data is the caller's (zcopy AM, PUT)   */
    uint32_t     opid;            /* the operation it belongs to: an ERR for
                                   * any of its frames marks that one's last */
    uint16_t     inl_len;         /* bytes of inl[] sent after hb          */
    uint8_t      lane;            /* rail's queue it took (hxb_rail_lane)   */
    uint32_t     rail_ctr;        /* n-th frame sent to this peer in lane   */
    uint32_t     data_len;
    double       sent_at;
    const void  *data;            /* payload (user memory or a pool buffer) */
    hxb_buf_t   *buf;             /* pool buffer to release when acked      */
    void        *comp;            /* completion to signal when acked        */
    void        *owner;           /* op's owner: its data is user memory    */
    uint64_t     region;          /* GET_RESP: the rkey its data is read under */
    uint8_t      hb[HXB_HB_MAX];
    uint8_t      sh[HXB_SHORT_MAX];   /* hb in short form, as last sent     */
    uint8_t      inl[HXB_AM_INLINE];
} hxb_txslot_t;

typedef struct hxb_rxslot {
    uint8_t    state;
    hxb_buf_t *buf;               /* held AM fragment (header included)     */
} hxb_rxslot_t;

/* A long operation, cut into frames later (hxb_ops.c). What only one kind
 * needs is in its member of the union. */
typedef struct hxb_op {
    struct hxb_op *next;
    uint8_t        kind;          /* OP_*                                   */
    uint8_t        first_cut;     /* its first frame is cut (an AM's header
                                   * goes in it, even without data)         */
    uint8_t        err;           /* a frame already sent was refused: its
                                   * last frame reports it (HXB_E_*)        */
    uint32_t       opid;          /* its frames' hxb_txslot_t.opid          */
    const uint8_t *data;          /* its frames' data (NULL: none)          */
    size_t         len, off;      /* bytes in all, and cut so far           */
    void          *comp;
    void          *owner;         /* hxb_peer_set_owner when it was issued  */
    union {
        struct { unsigned id; uint16_t hdr_len; } am;        /* OP_AM_ZC    */
        struct { uint64_t raddr, rkey; } put;                /* OP_PUT      */
        struct { uint64_t raddr, rkey; uint32_t id; } get;   /* OP_GET_REQ  */
        struct {                                             /* OP_GET_RESP */
            uint64_t rkey;        /* the region its data is read under      */
            uint32_t get_id, status;
            uint8_t  value_len;   /* an atomic's old value, sent from value[]
                                   * (0: the data is our memory)            */
            uint8_t  value[8];
        } resp;
        struct { uint32_t put_mark; } flush;  /* OP_FLUSH: PUTs posted before */
    } u;
    uint8_t        am_hdr[HXB_AM_INLINE];  /* OP_AM_ZC: the AM's header     */
} hxb_op_t;

typedef struct hxb_opq {
    hxb_op_t *head, *tail;
} hxb_opq_t;

typedef struct hxb_flushreq {     /* completes when tx.una reaches seq */
    struct hxb_flushreq *next;
    uint32_t             seq;
    void                *comp;
    void                *owner;
} hxb_flushreq_t;

typedef struct hxb_get {          /* a read this process asked for */
    hxb_peer_t *peer;
    uint8_t    *buf;              /* NULL: cancelled, responses dropped    */
    size_t      len, got;
    void       *comp;
    void       *owner;
    uint32_t    id;
    int         status;
} hxb_get_t;

/* What each module keeps of a peer. Each part is written by its own module
 * (others read it, or ask the module through its functions). */

/* A path: this peer over one of our rails. Its round trips and losses
 * (hxb_loss.c). */
typedef struct hxb_path {
    double   srtt, rttvar;        /* the rail's own round trip (RACK)       */
    double   last_ack;            /* last ack of a frame sent on it         */
    double   suspect_since;       /* suspect: its last probe                */
    unsigned losses;              /* RACK losses since its last ack         */
} hxb_path_t;

/* A path's congestion window (hxb_cc.c): frames in flight to the peer on
 * rail r stay below cwnd, which halves on a congestion event (a run of
 * losses within a round trip: a full queue somewhere on the path, typically
 * the peer's switch port shared by several senders, or a relay's) and grows
 * by a frame per window of acked frames. Delay: the least round trip seen
 * is the path's base (renewed every HXB_CC_BASE_SPAN from base_next), pmin
 * the least of the current period (opened at popen; it lasts until a frame
 * sent since is acked). A period whose least round trip exceeds the base by
 * more than cfg.cc_target is a standing queue: the window shrinks (at dcut:
 * frames sent before then are not judged), and grows again only after a
 * period below the target (hxb_cc_t.over). */
typedef struct hxb_cc_path {
    double   cwnd;
    double   first;               /* first loss of the pending event        */
    double   cut;                 /* last halving: losses of frames sent
                                   * before it belong to it                 */
    unsigned losses;
    double   prior;               /* the window before this episode's cut
                                   * (0: not cut in it)                     */
    double   base, base_next, pmin, popen, dcut;
} hxb_cc_path_t;

typedef struct hxb_cc {           /* hxb_cc.c */
    hxb_cc_path_t path[HXB_MAX_RAILS];
    /* Undo (hxb_cc_spurious): a cut opens an episode that lasts a few round
     * trips; if the peer reports as many duplicates as frames were
     * retransmitted in it, the losses were late frames (a descheduled
     * receiver's acks), not a full queue, and the cut windows return to
     * their prior size. */
    double   episode_end;
    unsigned retx, dups;
    double   base_renew;
    uint32_t over;                /* rails whose last period was over target */
    /* Slow start: a new path's window starts at HXB_CWND_INIT and grows by a
     * frame per frame acked until the queueing delay reaches half the target
     * (or a loss), so the base is measured on an empty queue, not behind a
     * first window of 32 frames sent blind. Rail bits. */
    uint32_t ss;
} hxb_cc_t;

typedef struct hxb_peer_tx {      /* hxb_tx.c: the send window */
    uint32_t      next, push, una; /* numbered, sent, acknowledged up to    */
    hxb_txslot_t *slot;           /* the window's ring (hxb_tx_room) ...    */
    unsigned      cap;            /* ... of so many slots (0: none yet)     */
    uint32_t      lane_ctr[HXB_MAX_LANES]; /* frames sent to it per lane
                                   * (a rail's ordered queue: hxb_rail_lane) */
    uint32_t      path_out[HXB_MAX_RAILS]; /* frames in flight on each path */
    unsigned      inflight;
    int           bursting;       /* a burst to it is under way             */
    int           asking;         /* ask_seq closed the windows, went       */
    uint32_t      ask_seq;        /* without HXB_F_MORE, awaits its ack     */
    int           lazy;           /* the last burst did not ask for a prompt
                                   * ack: nothing waited on it (tx_send)   */
    int           comp_wait;      /* comp_seq, the newest frame sent that  */
    uint32_t      comp_seq;       /* carries a completion: its ack awaited */
    double        retx_at;        /* our last retransmission to it          */
    int           train_rail;     /* the rail of its last short burst sent
                                   * whole on one rail (hxb_tx_push)        */
    uint32_t      stripe;         /* the rails the burst under way stripes
                                   * over (0: all; hxb_tx_push), in blocks */
    int           stripe_rail;    /* of `stripe_per` frames: the block's rail */
    unsigned      stripe_per, stripe_left; /* and what it has left       */
    double        rto_at;         /* the next RTO check (hxb_loss.c)        */
    int           open_last;      /* the newest frame, not yet pushed, takes
                                   * more short sends (bundles)             */
    unsigned      acks_carried;   /* frames sent that carried every ack we
                                   * owed (hxb_ack.c counts from it)        */
} hxb_peer_tx_t;

typedef struct hxb_peer_loss {    /* hxb_loss.c */
    hxb_path_t path[HXB_MAX_RAILS];
    uint32_t   suspect;           /* rails that lost frames, being probed   */
    double     srtt, rttvar, rto, min_rtt;
    double     rack_sent;         /* send time of the latest-sent frame acked */
    double     rack_rtt;          /* its round trip                         */
    double     rack_check_at;     /* a loss becomes due then (0: none)      */
    unsigned   reo_mult;          /* reordering window, in units of reo     */
    double     reo_decay_at;      /* when reo_mult next shrinks             */
    double     rto_ext;           /* RTO bound raised by spurious resends   */
    double     rto_ext_decay_at;  /* when rto_ext next halves               */
    uint32_t   lane_hi[HXB_MAX_LANES];      /* highest lane_ctr acked       */
    double     lane_hi_sent[HXB_MAX_LANES]; /* when that frame was sent     */
} hxb_peer_loss_t;

typedef struct hxb_peer_ops {     /* hxb_ops.c */
    hxb_opq_t       q[HXB_NQ];    /* operations waiting to be cut (HXB_Q_*) */
    uint32_t        puts_posted, puts_framed; /* PUT ops queued / cut so far */
    unsigned        nops;         /* in q[HXB_Q_OPS] and q[HXB_Q_PUTS]      */
    unsigned        fill_turn;    /* the queue ops_cut takes next           */
    unsigned        am_pass;      /* progress pass + 1 of our last lone AM  */
    unsigned        put_pass;     /* ... and of our last lone put by copy   */
    hxb_flushreq_t *flushes;
    void           *owner;        /* of the operations issued next          */
    uint32_t        err_pending;  /* a refused op had no completion: the
                                   * next flush reports it (HXB_E_*)        */
    uint32_t        resp_end;     /* after the last GET_RESP frame cut      */
} hxb_peer_ops_t;

/* ACKs are not acknowledged, so we never see them lost: they go on a rail
 * the peer's frames came in on since our last ACK (that path works; on a
 * relayed peer another may lead to a dead relay), and leave a rail for
 * HXB_ACK_AVOID once the peer resends what an ACK on it acknowledged
 * (hxb_ack_ctl_rail). Rail bit masks. */
typedef struct hxb_peer_ack {     /* hxb_ack.c: what we owe the peer */
    uint32_t rails_in;            /* the peer's frames came in on these     */
    uint32_t rail;                /* our latest ACK left on this one        */
    uint32_t avoid;               /* our ACKs seem lost on these ...        */
    double   avoid_at;            /* ... since then                         */
    unsigned unacked;             /* frames received since our last ack ... */
    unsigned carried_seen;        /* ... unless tx.acks_carried moved since */
    uint16_t dups;                /* duplicates since our last ACK          */
    unsigned pass;                /* progress pass of the last frame in     */
    int      drained;             /* a frame without HXB_F_MORE is unacked  */
    int      asked;               /* ... and ask_hi - 1 was the latest such  */
    uint32_t ask_hi;              /* frame received (while not yet passed)  */
    double   due;
    int      now;
    uint32_t hold_seq;            /* the frame that reached us last, and    */
    double   hold_at;             /* when (kernel time; 0: none yet)        */
    uint32_t err_rail;            /* our last ERR left on rail err_rail - 1
                                   * (0: none since our last ACK)           */
} hxb_peer_ack_t;

typedef struct hxb_peer_rx {      /* hxb_rx.c: the receive window */
    uint32_t      next;           /* every seq before it was received       */
    uint32_t      hi;             /* one past the highest seq received      */
    uint32_t      rail_hi[HXB_MAX_RAILS]; /* the same, per rail it came by
                                   * (0: none yet): what may be in flight  */
    hxb_rxslot_t *slot;           /* (allocated at the first frame)         */
} hxb_peer_rx_t;

typedef struct hxb_reasm {        /* hxb_am.c: an AM being reassembled */
    uint8_t *buf;                 /* max_msg bytes, at the first fragment   */
    size_t   len, total;
    unsigned id;
    int      active;
} hxb_reasm_t;

struct hxb_peer {
    hxb_engine_t  *e;
    hxb_peer_t    *hnext;          /* the engine's peer table               */
    uint16_t       node, proc;
    uint32_t       epoch;          /* the peer's epoch                      */
    int            refs;
    hxb_raddr_t    addr[HXB_MAX_RAILS];
    uint32_t       rail_mask;      /* local rails that reach the peer       */
    hxb_peer_t    *anext;          /* the engine's list of peers with work  */
    int            active;
    double         last_rx;        /* last frame accepted from the peer     */
    /* its life (hxb_peer_life.c) */
    int            failed;
    uint32_t       failed_unacked; /* frames in flight to it, and reads,   */
    unsigned       failed_gets;    /* when it failed (for the report)       */
    double         busy_at;        /* its last frame saying it is busy      */
    int            busy;           /* ... and no frame since said otherwise */
    double         busy_probe_at;  /* our last resend to it while busy       */
    double         alive_sent;     /* our last idle tick's ACK to it        */
    uint32_t       peeked_ack;     /* an idle tick saw its frames waiting  */
    int            peeked;         /* ... acking up to peeked_ack (8.7)    */
    double         last_ack_progress; /* its last sign of progress: acks of
                                    * new frames, read data, new work       */
    unsigned       gets_pending;   /* our reads still waiting (hxb_rma.c)   */
    uint32_t       chal_epoch;     /* a later run it claims, challenged ... */
    uint64_t       chal_nonce;     /* ... with this nonce ...               */
    double         chal_at;        /* ... at this time (0: none)            */
    hxb_peer_tx_t  tx;
    hxb_cc_t       cc;
    hxb_peer_loss_t loss;
    hxb_peer_ops_t ops;
    hxb_peer_ack_t ack;
    hxb_peer_rx_t  rx;
    hxb_reasm_t    reasm;
    hxb_peer_stats_t stats;        /* its traffic (read by hxb_inspect.c)   */
};

/* Completions and restart reports owed to the caller, made while it was
 * inside an API call (hxb_peer_get) where it must not be called back:
 * progress delivers them first thing. */
typedef struct hxb_defer {
    struct hxb_defer *next;
    void             *comp;       /* NULL: a restart report for peer */
    int               status;
    hxb_peer_t       *peer;
} hxb_defer_t;

struct hxb_engine {
    hxb_engine_cfg_t   cfg;
    hxb_auth_t         auth;        /* how frames are tagged and checked */
    hxb_callbacks_t    cb;
    hxb_rail_t        *rails[HXB_MAX_RAILS];
    int                nrails;
    int                pollfd;      /* epoll set of the rails' sysfds      */
    int                npoll;       /* ... how many, -1: epoll failed      */
    uint32_t           poll_mask;   /* ... which                            */
    int                poll_first;  /* the one rail not in it yet, or -1   */
    unsigned           rail_inflight[HXB_MAX_RAILS];
    /* Per-rail window (frames in flight), below cfg.rail_inflight: halved
     * when the rail's own queue refuses a frame (hxb_core.c, core_rail_backoff),
     * grown by one frame per window of acked frames. */
    double             rail_cap[HXB_MAX_RAILS];
    /* each rail's interface queue, for the wait our ACKs have in it
     * (hxb_core_rail_wait): last sample and the measured drain rate */
    double             bl_at[HXB_MAX_RAILS], bl_drain[HXB_MAX_RAILS];
    long               bl_q[HXB_MAX_RAILS];
    uint64_t           bl_tx[HXB_MAX_RAILS];
    uint64_t           rail_acks[HXB_MAX_RAILS];    /* frames acked so far */
    uint64_t           rail_cut_at[HXB_MAX_RAILS];  /* no new cut before rail_acks */
    uint64_t           rail_again[HXB_MAX_RAILS];   /* refusals seen so far */
    size_t             frag;        /* payload bytes per frame (min over rails) */
    size_t             frame_max;   /* largest frame every rail takes       */
    size_t             frame_tx;    /* largest frame sent: frame_max, capped */
    double             wscale;      /* frames per window frame: HXB_FRAME_REF / frag, >= 1 */
    double             rail_max;    /* a rail's and a path's largest window, frames */
    unsigned           ack_every;   /* cfg.ack_every, scaled as the windows */
    hxb_peer_t        *hash[HXB_PEER_HASH];
    hxb_peer_t        *active;      /* peers with work pending               */
    hxb_pool_t         bpool;       /* max_msg buffers for bcopy            */
    hxb_pool_t         rpool;       /* frame-sized buffers for held rx       */
    hxb_op_t          *free_ops;
    uint32_t           op_serial;     /* the last operation id given out     */
    hxb_flushreq_t    *free_flush;
    hxb_get_t          gets[HXB_MAX_GETS];
    uint32_t           get_gen;
    double             now;
    double             next_timer, next_link_check;
    unsigned           pass;           /* progress calls so far               */
    hxb_engine_stats_t stats;
    hxb_defer_t       *defer_head, *defer_tail;
    int                deferring;      /* completions go to the defer list */
    int                in_pass;        /* inside hxb_engine_progress          */
    int                idle;           /* inside hxb_engine_idle_tick         */
    double             last_pass;      /* when the last progress pass began   */
    double             back_at;        /* a pass after a long time away began:
                                        * peers' acks may still wait unread  */
    int                pass_drained;   /* this pass emptied every rail       */
    double             drained_at;     /* ... the last pass that did         */
    double             peek_at;        /* the idle tick's last look at rails  */
    int                asleep;         /* the caller may sleep on the event fd
                                        * (hxb_engine_may_sleep said so; until
                                        * the next pass or post)              */
    int                asleep_ready;   /* idle ticks that saw frames waiting
                                        * while it was "asleep"              */
    double             held_since;     /* posts outside a pass wait in the
                                        * rails' batches since (0: none)     */
};

#define HXB_WIN(p)         ((p)->e->cfg.window)
#define HXB_TX_SLOT(p, s)  (&(p)->tx.slot[(s) & ((p)->tx.cap - 1)])
#define HXB_RX_SLOT(p, s)  (&(p)->rx.slot[(s) & (HXB_WIN(p) - 1)])

/* a flush waits for the acks of frames numbered before it */
static inline int hxb_ops_flush_waits(const hxb_peer_t *p)
{
    return p->ops.flushes != NULL;
}

/* an operation waits in one of the queues, not yet cut into frames */
static inline int hxb_ops_queued(const hxb_peer_t *p)
{
    int i;

    for (i = 0; i < HXB_NQ; i++) {
        if (p->ops.q[i].head) {
            return 1;
        }
    }
    return 0;
}

/* bytes of the operations queued to p and not yet cut into frames,
 * counted up to `cap` (and cap if more than HXB_TX_AHEAD operations wait:
 * a walk per push stays short) */
static inline size_t hxb_ops_queued_bytes(const hxb_peer_t *p, size_t cap)
{
    const hxb_op_t *op;
    size_t n = 0;
    int i, ops = 0;

    for (i = 0; i < HXB_NQ; i++) {
        for (op = p->ops.q[i].head; op && n < cap; op = op->next) {
            if (++ops > HXB_TX_AHEAD) {
                return cap;
            }
            n += op->len - op->off;
        }
    }
    return n;
}

/* is an operation issued by `whose` one of `owner`'s (NULL: everyone's)? */
static inline int hxb_owner_mine(const void *whose, const void *owner)
{
    return !owner || whose == owner;
}

/* We listened long enough to blame a peer's silence on it: a pass read
 * every rail empty (this one, or none did for half a peer timeout: rails
 * that never drain must not keep a dead peer), and we have been back for
 * half a peer timeout since a long time away (computing, or off the CPU on
 * a busy node), when its acks waited in our sockets unread. */
static inline int hxb_engine_listened(const hxb_engine_t *e)
{
    return (e->pass_drained || e->now - e->drained_at >= e->cfg.peer_timeout / 2) &&
           e->now - e->back_at >= e->cfg.peer_timeout / 2;
}

/* the peer's last sign of life that counts against the peer timeout:
 * progress of its acks, or a frame saying it is alive but busy (8.7) */
static inline double hxb_peer_alive_at(const hxb_peer_t *p)
{
    return p->last_ack_progress > p->busy_at ? p->last_ack_progress : p->busy_at;
}

/* the peer's last frame said it is busy (not reading), not long ago: its
 * silence is no sign of loss (8.7) */
static inline int hxb_peer_busy(const hxb_peer_t *p, double now)
{
    return p->busy && now - p->busy_at < p->e->cfg.peer_timeout / 2;
}

/* how often an idle tick tells a peer we are busy: a quarter of our peer
 * timeout, at most a second (a peer with a shorter timeout than ours
 * waits for us half of its own) */
static inline double hxb_busy_period(const hxb_engine_t *e)
{
    return e->cfg.peer_timeout / 4 < HXB_BUSY_PERIOD ? e->cfg.peer_timeout / 4
                                                     : HXB_BUSY_PERIOD;
}

/* The modules, bottom up; each calls only those listed before it.
 *
 * hxb_core.c: pools, completions, the rails' shared accounting */
hxb_buf_t *hxb_pool_get(hxb_pool_t *pool);
void hxb_pool_put(hxb_pool_t *pool, hxb_buf_t *b);
void hxb_pool_cleanup(hxb_pool_t *pool);
/* the one way a completion reaches the caller (deferred while inside an
 * API call that must not call back) */
void hxb_complete(hxb_engine_t *e, void *comp, int status);
/* the peer restarted: its report reaches the caller at the next pass */
void hxb_core_defer(hxb_engine_t *e, void *comp, int status, hxb_peer_t *peer);
void hxb_core_run_deferred(hxb_engine_t *e);
/* a free entry of the reads table for len bytes to data; NULL if full */
hxb_get_t *hxb_get_alloc(hxb_peer_t *p, void *data, size_t len, void *comp);
/* a read whose request was never sent: its entry freed, its completion */
void *hxb_get_forget(hxb_peer_t *p, uint32_t id);
void hxb_peer_activate(hxb_peer_t *p);
void hxb_core_flush_rails(hxb_engine_t *e);
void hxb_core_rail_acked(hxb_engine_t *e, int r);
double hxb_core_rail_wait(hxb_engine_t *e, int r);

/* hxb_cc.c: the paths' congestion windows */
void hxb_cc_delay(hxb_peer_t *p, int r, double sent_at, double rtt);
void hxb_cc_loss(hxb_peer_t *p, const hxb_txslot_t *s);
void hxb_cc_retransmitted(hxb_peer_t *p);
void hxb_cc_acked(hxb_peer_t *p, int r);
void hxb_cc_spurious(hxb_peer_t *p, unsigned dups);
void hxb_cc_init(hxb_peer_t *p);

/* hxb_tx.c: the send window, framing, striping, (re)transmission */
unsigned hxb_tx_room(hxb_peer_t *p);
int  hxb_tx_fits(hxb_peer_t *p, unsigned n);
int  hxb_tx_lazy_take(hxb_peer_t *p);
int  hxb_tx_awaits_ack(const hxb_peer_t *p);
hxb_txslot_t *hxb_tx_open_slot(hxb_peer_t *p, unsigned kind);
void hxb_tx_keep_open(hxb_peer_t *p);
void hxb_tx_rto_set(hxb_peer_t *p, double at);
void hxb_tx_rto_arm(hxb_peer_t *p, double at);
void hxb_tx_acked_to(hxb_peer_t *p, uint32_t cum);
void hxb_tx_free(hxb_peer_t *p);
void hxb_tx_hdr(hxb_peer_t *p, hxb_hdr_t *h, unsigned kind, size_t len);
int  hxb_tx_pick_rail(hxb_peer_t *p, int avoid);
/* do the peer's rails all take short frames? Then its data frames are cut
 * for that form */
int  hxb_tx_short_peer(const hxb_peer_t *p);
/* payload bytes of a data frame of kind: an AM's first fragment (first),
 * never short, or a later one, a put's, a get reply's - for the short form
 * if short_peer (hxb_tx_short_peer) */
size_t hxb_tx_frag(const hxb_engine_t *e, unsigned kind, int first, int short_peer);
hxb_txslot_t *hxb_tx_slot_new(hxb_peer_t *p, unsigned kind, unsigned flags,
                              const void *ext, size_t ext_len, size_t payload);
void hxb_tx_slot_release(hxb_peer_t *p, hxb_txslot_t *s, int status);
void hxb_tx_push(hxb_peer_t *p);
void hxb_tx_retransmit(hxb_peer_t *p, uint32_t seq, hxb_txslot_t *s);
/* an unsequenced frame on rail r (>= 0), sent before returning */
void hxb_tx_send_ctl(hxb_peer_t *p, int r, unsigned kind, const void *ext,
                     size_t ext_len);
/* the same, to the peer's run dst_epoch (an epoch challenge, 8.9) */
void hxb_tx_send_ctl_to(hxb_peer_t *p, int r, uint32_t dst_epoch, unsigned kind,
                        const void *ext, size_t ext_len);
void hxb_tx_restamp(hxb_peer_t *p, double since);
void hxb_tx_held_restamp(hxb_engine_t *e);
void hxb_tx_send_held(hxb_engine_t *e);
void hxb_tx_sacked(hxb_peer_t *p, hxb_txslot_t *s);
void hxb_tx_fail(hxb_peer_t *p, int status);
void hxb_tx_reset(hxb_peer_t *p);
void hxb_tx_cancel(hxb_peer_t *p, void *owner);

/* hxb_loss.c: round trips, loss detection, RTO, suspect rails */
void hxb_rtt_smooth(double *srtt, double *rttvar, double rtt);
void hxb_loss_rtt_sample(hxb_peer_t *p, double rtt);
void hxb_loss_spurious(hxb_peer_t *p, unsigned n);
void hxb_loss_detect(hxb_peer_t *p);
/* a frame was acknowledged: what it tells of its rail and of RACK */
void hxb_loss_acked(hxb_peer_t *p, const hxb_txslot_t *s);
void hxb_loss_ack_progress(hxb_peer_t *p);
void hxb_loss_timers(hxb_peer_t *p, int away);
double hxb_loss_wake_at(const hxb_peer_t *p);
void hxb_loss_ping_rcvd(hxb_peer_t *p, const hxb_rail_t *rail, const hxb_hdr_t *h);
void hxb_loss_pong_rcvd(hxb_peer_t *p, const hxb_hdr_t *h);
void hxb_loss_init(hxb_peer_t *p);
void hxb_loss_reset(hxb_peer_t *p);

/* hxb_ops.c: operations, their queues, cutting them into frames, flushes */
hxb_op_t *hxb_op_new(hxb_peer_t *p, int kind);
void hxb_op_free(hxb_engine_t *e, hxb_op_t *op);
void hxb_op_enqueue(hxb_peer_t *p, hxb_op_t *op);
void hxb_ops_kick(hxb_peer_t *p);
/* a frame by copy was numbered: push it now, or leave it open for more
 * of its kind (a stream of small sends) until the next pass */
void hxb_ops_am_push(hxb_peer_t *p);
void hxb_ops_put_push(hxb_peer_t *p);
void hxb_ops_progress(hxb_peer_t *p);
void hxb_ops_flush_check(hxb_peer_t *p);
/* the peer refused frame seq (ERR): its operation reports status */
void hxb_ops_refused(hxb_peer_t *p, uint32_t seq, uint32_t status);
void hxb_ops_fail(hxb_peer_t *p, int status);
void hxb_ops_cancel(hxb_peer_t *p, void *owner);
void hxb_ops_free(hxb_peer_t *p);

/* hxb_ack.c: acknowledgements and refusals (ERR), both ways */
/* hold_at: when an ACK frame would have arrived had the peer answered the
 * frame hold_seq at once (0: a piggybacked ack, or the peer received nothing
 * yet): the path's round trip for the delay control */
void hxb_ack_rcvd(hxb_peer_t *p, uint32_t cum, const void *bits,
                  unsigned nbits, uint32_t hold_seq, double hold_at);
void hxb_err_rcvd(hxb_peer_t *p, uint32_t seq, uint32_t status);
void hxb_err_send(hxb_peer_t *p, uint32_t seq, uint32_t status);
/* the rail a control frame (ACK, ERR) to the peer takes, -1: none up */
int  hxb_ack_ctl_rail(hxb_peer_t *p);
void hxb_ack_send(hxb_peer_t *p);
void hxb_ack_send_busy(hxb_peer_t *p);
void hxb_ack_owed(hxb_peer_t *p, const hxb_hdr_t *h);
void hxb_ack_dup(hxb_peer_t *p, const hxb_hdr_t *h);
void hxb_ack_hold(hxb_peer_t *p, const hxb_rail_t *rail, uint32_t seq);
void hxb_ack_unowed(hxb_peer_t *p);
void hxb_ack_rail_seen(hxb_peer_t *p, int r);
void hxb_ack_reset(hxb_peer_t *p);
unsigned hxb_ack_owed_count(const hxb_peer_t *p);
int  hxb_ack_due(const hxb_peer_t *p, int drained);
double hxb_ack_wake_at(const hxb_peer_t *p);
/* an ACK frame: its hold time against our clock, then what it acks */
void hxb_ack_frame_rcvd(hxb_peer_t *p, const hxb_rail_t *rail, const hxb_hdr_t *h);

/* hxb_am.c, hxb_rma.c, hxb_atomic.c: what arrives for them */
void hxb_am_rcvd(hxb_peer_t *p, hxb_hdr_t *h);
void hxb_am_nop_rcvd(hxb_peer_t *p);
void hxb_am_reset(hxb_peer_t *p);
void hxb_am_free(hxb_peer_t *p);
void hxb_rma_put_rcvd(hxb_peer_t *p, hxb_hdr_t *h);
int  hxb_rma_get_req_rcvd(hxb_peer_t *p, const hxb_get_req_ext_t *req);
void hxb_rma_get_resp_rcvd(hxb_peer_t *p, hxb_hdr_t *h);
void hxb_rma_fail(hxb_peer_t *p, int status);
void hxb_rma_cancel(hxb_peer_t *p, void *owner);
/* do an ATOMIC frame's operations, answer its fetches; returns 1 if a
 * post was refused (the caller sends the ERR) */
int  hxb_atomic_rcvd(hxb_peer_t *p, const hxb_hdr_t *h);

/* hxb_rx.c: dispatch by kind, the receive window, delivery in order */
int  hxb_rx_frame(hxb_peer_t *p, hxb_rail_t *rail, hxb_hdr_t *h, size_t size);
void hxb_rx_reset(hxb_peer_t *p);
void hxb_rx_free(hxb_peer_t *p);

/* hxb_peer_life.c: timeouts, busy peers, failure, restart, cancel */
void hxb_peer_timers(hxb_peer_t *p, int away);
/* when hxb_peer_timers next has work if no frame arrives (0: never) */
double hxb_peer_wake_at(const hxb_peer_t *p);
void hxb_peer_fail_all(hxb_peer_t *p, int status);
void hxb_peer_busy_rcvd(hxb_peer_t *p, int busy, uint32_t ack);
void hxb_peer_restart(hxb_peer_t *p, uint32_t epoch);
int  hxb_peer_epoch_proven(hxb_peer_t *p, const hxb_rail_t *rail, const hxb_hdr_t *h,
                           size_t size);

/* may this engine send short frames at all (PROTOCOL.md 3.1)? Not when
 * told not to, nor when every frame carries hxb's checksum (a short frame
 * has none) */
static inline int hxb_tx_short_allowed(const hxb_engine_t *e)
{
    return e->cfg.short_frames && e->cfg.csum != HXB_CSUM_ALL;
}

#endif
