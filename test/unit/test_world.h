/* The fixture shared by the engine tests (test_am.c, test_rma.c, test_cc.c,
 * test_loss.c, test_fail.c, test_progress.c): two engines A and B in one
 * process, connected by in-memory rail pairs with seeded faults, pumped by
 * hand. Tests use the engine through hxb_engine.h only.
 *
 * Every wait is bounded: PUMP_UNTIL gives up (and fails the test) after
 * WAIT_CAP seconds of real time or WAIT_ITERS iterations. Nothing asserts
 * on speed. */
#ifndef TEST_WORLD_H
#define TEST_WORLD_H

#include "hxb_engine.h"
#include "hxb_rail_mem.h"

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KEY_A      0x6878622d74657374ull
#define KEY_OTHER  0x6f746865722d6a6bull
#define NODE_A     1
#define PROC_A     0
#define EPOCH_A    0x1111aaaau
#define NODE_B     2
#define PROC_B     5
#define EPOCH_B    0x2222bbbbu
#define RKEY_A     0xa11ceull
#define RKEY_B     0xb0bull
#define GUARD      4096          /* bytes before and after each region */
#define WAIT_CAP   30.0          /* seconds: generous, valgrind is slow */
#define WAIT_ITERS 200000000ul

#ifdef HXB_VIRTUAL_CLOCK
extern double hxb_virtual_now;  /* hxb_clock.h: the tests move it */
#endif
/* seconds, on the engine's clock; tick() advances a virtual one per pump */
double now_sec(void);
void   tick(void);

/* a completion the engine signals */
typedef struct comp {
    int           count;      /* times called: must end at exactly 1 */
    int           status;
    unsigned long order;      /* when (n-th completion of its engine)  */
    uint8_t      *poison;     /* zcopy source: overwritten once done   */
    size_t        poison_len;
    void        (*hook)(struct comp *c);
} comp_t;

/* called exactly once, with this status (a macro: failures name the line) */
#define ASSERT_DONE_ONCE(c, st) do {                                          \
        ck_assert_int_eq((c).count, 1);                                       \
        ck_assert_int_eq((c).status, (st));                                   \
    } while (0)

typedef struct side side_t;
struct side {
    const char    *name;
    hxb_engine_t  *e;
    hxb_peer_t    *peer;          /* the other side, as this side sees it */
    side_t        *other;
    unsigned       dir;           /* messages this side sends: 0 A->B, 1 B->A */
    /* AMs this side sends */
    unsigned long  plan_n;
    size_t        *plan_len;
    uint8_t       *plan_id;
    unsigned long  sent;
    comp_t        *zc;            /* zcopy completions, per message */
    int            short_only;    /* am_send (bundled), a bcopy now and then */
    /* AMs this side received from the other */
    unsigned long  am_rcvd;
    /* registered memory: region inside an allocation with guards */
    uint8_t       *mem;
    uint8_t       *region;
    size_t         region_len;
    uint64_t       rkey;
    /* callbacks */
    unsigned long  ncomp;
    int            peer_failed_calls;
    hxb_peer_t    *failed_peer;
    int            peer_reset_calls;
    hxb_peer_t    *reset_peer;
    int            in_api;        /* inside an API call: no callback now */
    int            comps_done_at_failure;
    comp_t        *watch[4];      /* completions checked at peer failure */
    /* lenient: messages may be missing (cancelled), each counted in got[];
     * those from ordered_from on must still arrive in order */
    int            lenient;
    unsigned char *got;
    unsigned long  ordered_from;
    long           last_ordered;
};

typedef struct world {
    side_t      a, b;
    int         nrails;
    hxb_rail_t *ra[HXB_MAX_RAILS], *rb[HXB_MAX_RAILS];
} world_t;

extern world_t W;

/* bytes of AM message k sent in direction dir */
void msg_fill(unsigned dir, unsigned long k, uint8_t *buf, size_t len);
void fill_pattern(uint8_t *p, size_t len, unsigned salt);

typedef struct opts {
    int              nrails;
    size_t           mtu;
    hxb_mem_faults_t faults;
    uint64_t         key_b;       /* 0: same as A */
    unsigned         window;      /* 0: default */
    size_t           max_msg;     /* 0: default */
    double           peer_timeout;/* 0: 60 s (never, in these tests) */
    double           rto_min;     /* 0: 1 ms */
    double           cc_target;   /* 0: default; < 0: none (loss-based only) */
    int              csum;
    size_t           region_len;  /* each side's registered region */
    int              b_unknown;   /* B makes no peer for A: learns it */
    uint32_t         b_epoch;     /* 0: EPOCH_B; else B runs this epoch,
                                   * A still knows it as EPOCH_B (restarted) */
    size_t           a_frame_cap; /* A's UCX_HXB_FRAME_MAX; 0: none */
    int              held;        /* posts to an idle peer wait for the next
                                   * pass too (UCX_HXB_SEND_AT_ONCE=n) */
    double           rail_speed;  /* bytes/s every rail says; 0: 1 Gbit/s */
    double           train_cost;  /* UCX_HXB_TRAIN_COST; 0: default; < 0: 0 */
    int              prompt_acks; /* every burst asks for a prompt ACK
                                   * (UCX_HXB_LAZY_ACKS=n) */
} opts_t;

/* A and B, with o->nrails rail pairs, each knowing the other (unless
 * b_unknown), with registered regions if o->region_len */
void world_init(const opts_t *o);
void teardown(void);
/* region and its guards hold the initial pattern, except [off, off+len) */
int  side_mem_intact_except(const side_t *s, size_t off, size_t len);

/* one progress pass of each engine (and a tick of the virtual clock) */
void pump(void);
/* called after each pump if set (test_cc.c samples a queue with it) */
extern void (*pump_hook)(void);

/* pump both engines until cond holds; fail after WAIT_CAP s / WAIT_ITERS */
#define PUMP_UNTIL(cond) do {                                                 \
        double dl_ = now_sec() + WAIT_CAP;                                    \
        unsigned long it_ = 0;                                                \
        while (!(cond)) {                                                     \
            pump();                                                           \
            if (++it_ >= WAIT_ITERS || ((it_ & 255) == 0 && now_sec() > dl_)) \
                ck_abort_msg("%s:%d: gave up waiting for '%s' after %lu "     \
                             "iterations", __FILE__, __LINE__, #cond, it_);   \
        }                                                                     \
    } while (0)

/* pump for a while of the clock's time (bounded by itself) */
void pump_for(double sec);
void pump_n(unsigned long n);

/* AM plans: n messages of varied sizes (zero copy now and then), or n
 * short ones that share frames */
void plan_am(side_t *s, unsigned long n, int zcopy);
void plan_am_short(side_t *s, unsigned long n);
/* try to send the next planned message of s; 1 sent, 0 no room, 2 done */
int  send_next(side_t *s);
/* send every planned message of A (and of B if it has a plan), pumping */
void send_all(void);
/* everything delivered exactly once, in order, and nothing more after a
 * flush and some extra progress */
void finish_am(void);
/* the plain run: A (and B, if nb) send their planned AMs, and finish_am
 * checks that all of them arrived exactly once, in order */
void run_am(const opts_t *o, unsigned long na, unsigned long nb, int zcopy);

/* drop, duplicate, reorder and corrupt some frames (seed 1) */
extern const hxb_mem_faults_t FAULTS;

/* frames forged as B would send them, pushed into A's first rail */
void send_from_b(unsigned kind, unsigned flags, uint32_t seq, uint32_t src_epoch,
                 const void *ext, size_t ext_len, const void *pl, size_t pl_len);
/* a frame forged as B would send it in short form (hxb_short.h) under the
 * job key key (KEY_A: B's own), pushed into A's first rail; ext is the
 * kind's full extension (an AM's: its am_id is am_id) */
void send_short_from_b(unsigned kind, unsigned flags, unsigned am_id, uint32_t seq,
                       uint32_t src_epoch, uint64_t key, const void *ext,
                       size_t ext_len, const void *pl, size_t pl_len);
/* B's seq-th sequenced frame, of its current run */
void send_seq_from_b(unsigned kind, unsigned flags, uint32_t seq, const void *ext,
                     size_t ext_len, const void *pl, size_t pl_len);
void send_ping_from_b(uint32_t src_epoch);
/* an ACK frame from B acknowledging A's frames below cum */
void send_ack_from_b(uint32_t cum);

/* a test case of the usual kind (teardown after each test, 120 s), and
 * the run of a suite: the exit status for make check */
TCase *world_tcase(Suite *s, const char *name);
int    world_run(Suite *s);

#endif
