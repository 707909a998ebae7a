/* Unit tests of the hxb engine: two engines A and B in one process,
 * connected by in-memory rail pairs with seeded faults, pumped by hand.
 *
 * Every wait is bounded: PUMP_UNTIL gives up (and fails the test) after
 * WAIT_CAP seconds of real time or WAIT_ITERS iterations. Nothing asserts
 * on speed. */
#include "hxb_engine.h"
#include "hxb_rail_mem.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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

/* ------------------------------------------------------------------ */
/* helpers                                                            */

#ifdef HXB_VIRTUAL_CLOCK
/* test_engine_vclock: the same tests with the engine on a virtual clock
 * (hxb_clock.h) that moves VSTEP per pump, as if every progress pass took
 * that long: timings no longer depend on how much CPU this process gets
 * (a loaded host, valgrind), and a failure replays exactly */
#define VSTEP 10e-6
double hxb_virtual_now = 1000.0;
static double now_sec(void) { return hxb_virtual_now; }
static void tick(void) { hxb_virtual_now += VSTEP; }
#else
static double now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
static void tick(void) {}
#endif

static uint64_t rng = 0x243F6A8885A308D3ull;

static uint64_t rnd(void)
{
    uint64_t x = rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng = x;
    return x * 0x2545F4914F6CDD1Dull;
}

static uint32_t fnv1a(const uint8_t *p, size_t len)
{
    uint32_t h = 2166136261u;
    while (len--) {
        h ^= *p++;
        h *= 16777619u;
    }
    return h;
}

static void fill_pattern(uint8_t *p, size_t len, unsigned salt);

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

static world_t W;

/* bytes of AM message k sent in direction dir */
static void msg_fill(unsigned dir, unsigned long k, uint8_t *buf, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++) {
        buf[i] = (uint8_t)(k * 0x9d + i * 31 + (i >> 8) * 7 + dir * 0x55);
    }
    if (len >= 16) {
        uint64_t seq = k;
        uint32_t l = (uint32_t)len, c = fnv1a(buf + 16, len - 16);
        memcpy(buf, &seq, 8);
        memcpy(buf + 8, &l, 4);
        memcpy(buf + 12, &c, 4);
    }
}

/* ---- engine callbacks ---- */

static void cb_am(void *arg, hxb_peer_t *peer, unsigned am_id, void *data,
                  size_t len)
{
    side_t *s = arg, *src = s->other;
    unsigned long k = s->am_rcvd;
    const uint8_t *d = data;
    uint8_t *expect;

    ck_assert_ptr_eq(peer, s->peer);
    if (s->lenient) {
        uint64_t seq;
        ck_assert_uint_ge(len, 16);
        memcpy(&seq, d, 8);
        ck_assert_msg(seq < src->plan_n, "%s: message %llu unknown", s->name,
                      (unsigned long long)seq);
        k = (unsigned long)seq;
        ck_assert_msg(len == src->plan_len[k] && am_id == src->plan_id[k],
                      "%s: message %lu: %zu bytes, am_id %u", s->name, k, len, am_id);
        expect = malloc(len);
        msg_fill(src->dir, k, expect, len);
        ck_assert_msg(memcmp(expect, d, len) == 0, "%s: message %lu: content differs "
                      "(a cancelled buffer read after its completion?)", s->name, k);
        free(expect);
        s->got[k]++;
        if (k >= s->ordered_from) {
            ck_assert_msg((long)k > s->last_ordered, "%s: message %lu after %ld",
                          s->name, k, s->last_ordered);
            s->last_ordered = (long)k;
        }
        s->am_rcvd++;
        return;
    }
    ck_assert_msg(k < src->plan_n, "%s: message %lu delivered, only %lu sent",
                  s->name, k, src->plan_n);
    ck_assert_msg(len == src->plan_len[k], "%s: message %lu: %zu bytes, sent %zu",
                  s->name, k, len, src->plan_len[k]);
    ck_assert_msg(am_id == src->plan_id[k], "%s: message %lu: am_id %u, sent %u",
                  s->name, k, am_id, src->plan_id[k]);
    if (len >= 16) {
        uint64_t seq;
        uint32_t l, c;
        memcpy(&seq, d, 8);
        memcpy(&l, d + 8, 4);
        memcpy(&c, d + 12, 4);
        ck_assert_msg(seq == k, "%s: message %llu delivered where %lu was due "
                      "(lost, duplicated or reordered)", s->name,
                      (unsigned long long)seq, k);
        ck_assert_uint_eq(l, len);
        ck_assert_msg(c == fnv1a(d + 16, len - 16),
                      "%s: message %lu: content checksum mismatch", s->name, k);
    }
    expect = malloc(len + 1);
    msg_fill(src->dir, k, expect, len);
    ck_assert_msg(memcmp(expect, d, len) == 0, "%s: message %lu: content differs",
                  s->name, k);
    free(expect);
    s->am_rcvd++;
}

static void cb_complete(void *arg, void *comp, int status)
{
    side_t *s = arg;
    comp_t *c = comp;

    ck_assert_msg(!s->in_api, "%s: a completion inside an API call", s->name);
    c->count++;
    c->status = status;
    c->order = ++s->ncomp;
    if (c->poison) {
        /* zero copy: the engine is done with the buffer; spoil it so a
         * late retransmission would deliver garbage */
        memset(c->poison, 0xee, c->poison_len);
    }
    if (c->hook) {
        c->hook(c);
    }
}

static int cb_mem_check(void *arg, uint64_t addr, uint64_t rkey, size_t len,
                        int write)
{
    side_t *s = arg;
    uint64_t base = (uintptr_t)s->region;

    (void)write;
    if (!s->region || rkey != s->rkey || addr < base || len > s->region_len ||
        addr - base > s->region_len - len) {
        return -1;
    }
    return 0;
}

static void cb_peer_reset(void *arg, hxb_peer_t *peer)
{
    side_t *s = arg;

    ck_assert_msg(!s->in_api, "%s: a restart report inside an API call", s->name);
    s->peer_reset_calls++;
    s->reset_peer = peer;
}

static void cb_peer_failed(void *arg, hxb_peer_t *peer)
{
    side_t *s = arg;
    int i;

    s->peer_failed_calls++;
    s->failed_peer = peer;
    /* pending operations must have completed before this call */
    s->comps_done_at_failure = 1;
    for (i = 0; i < 4; i++) {
        if (s->watch[i] && s->watch[i]->count != 1) {
            s->comps_done_at_failure = 0;
        }
    }
}

/* ---- setup ---- */

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
} opts_t;

static void side_region(side_t *s, size_t len, uint64_t rkey)
{
    size_t i;

    s->mem = malloc(len + 2 * GUARD);
    ck_assert_ptr_nonnull(s->mem);
    for (i = 0; i < len + 2 * GUARD; i++) {
        s->mem[i] = (uint8_t)(i * 13 + 0x21);
    }
    s->region = s->mem + GUARD;
    s->region_len = len;
    s->rkey = rkey;
}

/* region and its guards hold the initial pattern, except [off, off+len) */
static int side_mem_intact_except(const side_t *s, size_t off, size_t len)
{
    size_t i, total = s->region_len + 2 * GUARD;

    for (i = 0; i < total; i++) {
        if (i >= GUARD + off && i < GUARD + off + len) {
            continue;
        }
        if (s->mem[i] != (uint8_t)(i * 13 + 0x21)) {
            return 0;
        }
    }
    return 1;
}

static void world_init(const opts_t *o)
{
    hxb_engine_cfg_t ca, cb;
    hxb_callbacks_t cba = {0}, cbb = {0};
    hxb_raddr_t addrs[HXB_MAX_RAILS];
    uint32_t mask;
    int i;

    memset(&W, 0, sizeof(W));
    W.a.name = "A";
    W.b.name = "B";
    W.a.other = &W.b;
    W.b.other = &W.a;
    W.a.dir = 0;
    W.b.dir = 1;
    W.nrails = o->nrails;

    hxb_engine_cfg_default(&ca);
    ca.job_key = KEY_A;
    ca.csum = o->csum;
    ca.rto_min = o->rto_min > 0 ? o->rto_min : 1e-3;
    if (ca.rto_max < ca.rto_min) {
        ca.rto_max = ca.rto_min;
    }
    ca.peer_timeout = o->peer_timeout > 0 ? o->peer_timeout : 60.0;
    if (o->window) {
        ca.window = o->window;
    }
    if (o->max_msg) {
        ca.max_msg = o->max_msg;
    }
    if (o->cc_target) {
        ca.cc_target = o->cc_target < 0 ? 0 : o->cc_target;
    }
    cb = ca;
    ca.node_id = NODE_A;
    ca.proc_id = PROC_A;
    ca.epoch = EPOCH_A;
    cb.node_id = NODE_B;
    cb.proc_id = PROC_B;
    cb.epoch = EPOCH_B;
    if (o->key_b) {
        cb.job_key = o->key_b;
    }

    cba.arg = &W.a;
    cbb.arg = &W.b;
    cba.am = cbb.am = cb_am;
    cba.complete = cbb.complete = cb_complete;
    cba.mem_check = cbb.mem_check = cb_mem_check;
    cba.peer_failed = cbb.peer_failed = cb_peer_failed;
    cba.peer_reset = cbb.peer_reset = cb_peer_reset;

    ck_assert_int_eq(hxb_engine_create(&ca, &cba, &W.a.e), 0);
    ck_assert_int_eq(hxb_engine_create(&cb, &cbb, &W.b.e), 0);
    for (i = 0; i < o->nrails; i++) {
        hxb_mem_faults_t f = o->faults;
        f.seed = o->faults.seed * 7919 + i + 1;
        ck_assert_int_eq(hxb_rail_mem_pair(o->mtu ? o->mtu : 1500, &f, &W.ra[i],
                                           &W.rb[i]), 0);
        ck_assert_int_eq(hxb_engine_add_rail(W.a.e, W.ra[i]), 0);
        ck_assert_int_eq(hxb_engine_add_rail(W.b.e, W.rb[i]), 0);
    }
    ck_assert_int_eq(hxb_engine_num_rails(W.a.e), o->nrails);
    memset(addrs, 0, sizeof(addrs));
    mask = (1u << o->nrails) - 1;
    W.a.peer = hxb_peer_get(W.a.e, NODE_B, PROC_B, EPOCH_B, addrs, mask);
    if (!o->b_unknown) {
        W.b.peer = hxb_peer_get(W.b.e, NODE_A, PROC_A, EPOCH_A, addrs, mask);
        ck_assert_ptr_nonnull(W.b.peer);
    }
    ck_assert_ptr_nonnull(W.a.peer);
    ck_assert_uint_eq(hxb_peer_rail_mask(W.a.peer), mask);
    if (o->region_len) {
        side_region(&W.a, o->region_len, RKEY_A);
        side_region(&W.b, o->region_len, RKEY_B);
    }
}

static void side_free(side_t *s)
{
    unsigned long k;

    if (s->zc) {
        for (k = 0; k < s->plan_n; k++) {
            free(s->zc[k].poison);
        }
    }
    free(s->zc);
    free(s->plan_len);
    free(s->plan_id);
    free(s->got);
    free(s->mem);
}

static void teardown(void)
{
    if (W.a.e) {
        hxb_engine_destroy(W.a.e);
    }
    if (W.b.e) {
        hxb_engine_destroy(W.b.e);
    }
    side_free(&W.a);
    side_free(&W.b);
    memset(&W, 0, sizeof(W));
}

static unsigned long pumps;
static int qdelay_track;        /* record the longest queue towards B on rail 0 */
static double qdelay_max;       /* ... once B has half of A's plan (s) */

static void pump(void)
{
    hxb_engine_progress(W.a.e);
    hxb_engine_progress(W.b.e);
    tick();
    pumps++;
    if (qdelay_track && W.b.am_rcvd * 2 >= W.a.plan_n) {
        double q = hxb_rail_mem_queue_delay(W.rb[0]);
        if (q > qdelay_max) qdelay_max = q;
    }
}

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

/* pump for a while of real time (bounded by itself) */
static void pump_for(double sec)
{
    double end = now_sec() + sec;
    while (now_sec() < end) {
        pump();
    }
}

static void pump_n(unsigned long n)
{
    while (n--) {
        pump();
    }
}

/* ---- AM plans ---- */

static void plan_am(side_t *s, unsigned long n, int zcopy)
{
    size_t max = hxb_engine_cfg(s->e)->max_msg, frag = hxb_engine_frag_size(s->e);
    const size_t special[] = {0, 1, 15, 16, 17, HXB_AM_INLINE, HXB_AM_INLINE + 1,
                              frag - 1, frag, frag + 1, 2 * frag, max - 1, max};
    unsigned long k;

    s->plan_n = n;
    s->plan_len = calloc(n, sizeof(*s->plan_len));
    s->plan_id = calloc(n, sizeof(*s->plan_id));
    s->zc = zcopy ? calloc(n, sizeof(*s->zc)) : NULL;
    ck_assert_ptr_nonnull(s->plan_len);
    for (k = 0; k < n; k++) {
        size_t len;
        unsigned r = (unsigned)(rnd() % 100);
        if (k < sizeof(special) / sizeof(special[0])) {
            len = special[k];
        } else if (r < 45) {
            len = rnd() % (HXB_AM_INLINE + 1);               /* small */
        } else if (r < 75) {
            len = rnd() % 8192;                              /* medium */
        } else if (r < 95) {
            len = rnd() % (max + 1);                         /* anything */
        } else {
            len = max - rnd() % 3;                           /* largest */
        }
        if (len > max) {
            len = max;
        }
        s->plan_len[k] = len;
        s->plan_id[k] = (uint8_t)(rnd() % 32);
    }
}

/* n short AMs, sent with am_send back to back: they share frames */
static void plan_am_short(side_t *s, unsigned long n)
{
    unsigned long k;

    plan_am(s, n, 0);
    s->short_only = 1;
    for (k = 0; k < n; k++) {
        /* bcopy ones (send_next: k % 7 == 3) on both sides of the
         * largest bcopy that bundles */
        s->plan_len[k] = k % 7 == 3 ? rnd() % 3000 : rnd() % (HXB_AM_INLINE + 1);
    }
}

typedef struct pack_arg {
    unsigned      dir;
    unsigned long k;
    size_t        len;
} pack_arg_t;

static size_t pack_msg(void *dest, void *arg)
{
    pack_arg_t *p = arg;
    msg_fill(p->dir, p->k, dest, p->len);
    return p->len;
}

/* try to send the next planned message of s; 1 sent, 0 no room, 2 done */
static int send_next(side_t *s)
{
    unsigned long k = s->sent;
    size_t len;
    unsigned id;
    long r;

    if (k >= s->plan_n) {
        return 2;
    }
    len = s->plan_len[k];
    id = s->plan_id[k];
    if (len <= HXB_AM_INLINE && (s->short_only ? k % 7 != 3 : k % 3 == 0)) {
        uint8_t buf[HXB_AM_INLINE];
        struct iovec iov[2];
        size_t cut = len ? (size_t)(rnd() % (len + 1)) : 0;
        msg_fill(s->dir, k, buf, len);
        iov[0].iov_base = buf;
        iov[0].iov_len = cut;
        iov[1].iov_base = buf + cut;
        iov[1].iov_len = len - cut;
        r = hxb_am_send(s->peer, id, iov, 2);
        if (r == HXB_EAGAIN) {
            return 0;
        }
        ck_assert_int_eq(r, HXB_OK);
    } else if (s->zc && k % 4 == 1) {
        comp_t *c = &s->zc[k];
        size_t hl = len < 40 ? len : k % 41;
        if (!c->poison) {
            c->poison = malloc(len + 1);
            c->poison_len = len;
            ck_assert_ptr_nonnull(c->poison);
            msg_fill(s->dir, k, c->poison, len);
        }
        r = hxb_am_zcopy(s->peer, id, c->poison, hl, c->poison + hl, len - hl, c);
        if (r == HXB_EAGAIN) {
            return 0;
        }
        ck_assert_int_eq(r, HXB_INPROGRESS);
    } else {
        pack_arg_t pa = {s->dir, k, len};
        r = hxb_am_bcopy(s->peer, id, pack_msg, &pa);
        if (r == HXB_EAGAIN) {
            return 0;
        }
        ck_assert_int_eq(r, (long)len);
    }
    s->sent++;
    return 1;
}

/* send every planned message of A (and of B if it has a plan), pumping */
static void send_all(void)
{
    double dl = now_sec() + WAIT_CAP;
    unsigned long it = 0;

    for (;;) {
        int ra = send_next(&W.a), rb = send_next(&W.b);
        if (ra == 2 && rb == 2) {
            break;
        }
        if (ra == 0 || rb == 0 || (++it & 7) == 0) {
            pump();
        }
        if ((it & 255) == 0 && now_sec() > dl) {
            ck_abort_msg("gave up sending: A sent %lu/%lu, B sent %lu/%lu",
                         W.a.sent, W.a.plan_n, W.b.sent, W.b.plan_n);
        }
    }
}

static void check_zcopy_done(const side_t *s)
{
    unsigned long k;

    if (!s->zc) {
        return;
    }
    for (k = 0; k < s->plan_n; k++) {
        if (s->zc[k].poison) {
            ck_assert_msg(s->zc[k].count == 1, "%s: zcopy %lu completed %d times",
                          s->name, k, s->zc[k].count);
            ck_assert_int_eq(s->zc[k].status, 0);
        }
    }
}

/* everything delivered exactly once, in order, and nothing more after a
 * flush and some extra progress */
static void finish_am(void)
{
    comp_t fa = {0}, fb = {0};
    int r;

    PUMP_UNTIL(W.b.am_rcvd == W.a.plan_n && W.a.am_rcvd == W.b.plan_n);
    r = hxb_flush(W.a.peer, &fa);
    ck_assert(r == HXB_OK || r == HXB_INPROGRESS);
    if (r == HXB_OK) {
        fa.count = 1;
    }
    r = hxb_flush(W.b.peer, &fb);
    ck_assert(r == HXB_OK || r == HXB_INPROGRESS);
    if (r == HXB_OK) {
        fb.count = 1;
    }
    PUMP_UNTIL(fa.count && fb.count);
    pump_n(2000);
    ck_assert_int_eq(fa.count, 1);
    ck_assert_int_eq(fb.count, 1);
    ck_assert_uint_eq(W.b.am_rcvd, W.a.plan_n);
    ck_assert_uint_eq(W.a.am_rcvd, W.b.plan_n);
    ck_assert_uint_eq(hxb_engine_stats(W.b.e)->am_delivered, W.a.plan_n);
    ck_assert_uint_eq(hxb_engine_stats(W.a.e)->am_delivered, W.b.plan_n);
    check_zcopy_done(&W.a);
    check_zcopy_done(&W.b);
    ck_assert(hxb_peer_tx_idle(W.a.peer));
    ck_assert(hxb_peer_tx_idle(W.b.peer));
    ck_assert_int_eq(W.a.peer_failed_calls + W.b.peer_failed_calls, 0);
}

/* the plain run: A (and B, if nb) send their planned AMs, and finish_am
 * checks that all of them arrived exactly once, in order */
static void run_am(const opts_t *o, unsigned long na, unsigned long nb, int zcopy)
{
    world_init(o);
    plan_am(&W.a, na, zcopy);
    if (nb) {
        plan_am(&W.b, nb, zcopy);
    }
    send_all();
    finish_am();
}

/* frames A's rails sent, and (again) how many their queues refused */
static uint64_t a_rails_frames(uint64_t *again)
{
    uint64_t frames = 0;
    int i;

    if (again) {
        *again = 0;
    }
    for (i = 0; i < W.nrails; i++) {
        frames += W.ra[i]->stats.tx_frames;
        if (again) {
            *again += W.ra[i]->stats.tx_again;
        }
    }
    return frames;
}

static const hxb_mem_faults_t FAULTS = {
    .drop_ppm = 20000, .dup_ppm = 10000, .reorder_ppm = 10000,
    .corrupt_ppm = 5000, .seed = 1,
};

/* ------------------------------------------------------------------ */
/* A caller that sleeps between progress calls (UCT's event_arm: sleep on
 * the rails' fds and a timer at hxb_engine_wake_at). Its engine runs only
 * when the application posts, when a frame waits on one of its rails or
 * when its wake time has come. A deadline missing from the wake time (an
 * RTO for a lost last frame, an ack owed, a loss RACK would declare) leaves
 * both sides asleep for good, and the bounded loop fails. */

typedef struct sleeper {
    side_t      *s;
    hxb_rail_t **rails;
    int          asleep;
    unsigned long naps, naps_timed; /* slept; ... with work outstanding */
} sleeper_t;

static void sleeper_turn(sleeper_t *z, int posted)
{
    double at;
    int i, woken = posted;

    for (i = 0; i < W.nrails && !woken; i++) {
        woken = hxb_rail_mem_pending(z->rails[i]);
    }
    if (z->asleep && !woken && hxb_engine_may_sleep(z->s->e, &at)) {
        return;                      /* still asleep: its timer is not due */
    }
    z->asleep = 0;
    if (hxb_engine_progress(z->s->e)) {
        return;
    }
    if (hxb_engine_may_sleep(z->s->e, &at)) {   /* as event_arm decides */
        z->asleep = 1;
        z->naps++;
        z->naps_timed += at != 0;
    }
}

/* run both sides as sleeping callers, posting their plans, until all of
 * it is delivered and acknowledged; fail if that takes WAIT_CAP */
static void sleepers_run(sleeper_t *za, sleeper_t *zb)
{
    double dl = now_sec() + WAIT_CAP;
    unsigned long it = 0;

    while (W.b.am_rcvd < W.a.plan_n || W.a.am_rcvd < W.b.plan_n ||
           !hxb_peer_tx_idle(W.a.peer) || !hxb_peer_tx_idle(W.b.peer)) {
        sleeper_turn(za, send_next(&W.a) == 1);
        sleeper_turn(zb, send_next(&W.b) == 1);
        tick();
        if ((++it & 1023) == 0 && now_sec() > dl) {
            ck_abort_msg("stalled with both sides asleep: B got %lu/%lu, A got "
                         "%lu/%lu, A unacked %u, B unacked %u", W.b.am_rcvd,
                         W.a.plan_n, W.a.am_rcvd, W.b.plan_n,
                         hxb_peer_unacked(W.a.peer), hxb_peer_unacked(W.b.peer));
        }
    }
}

START_TEST(test_sleeping_caller)
{
    opts_t o = {.nrails = 4, .faults = FAULTS, .csum = 1};
    sleeper_t za = {.s = &W.a, .rails = W.ra}, zb = {.s = &W.b, .rails = W.rb};

    o.faults.seed = 23 + _i;
    world_init(&o);
    plan_am(&W.a, 1500, 1);
    plan_am(&W.b, 300, 0);
    sleepers_run(&za, &zb);
    /* the loss was real, and the sender slept with frames outstanding
     * (whether B, which sends a fifth as much, ever sleeps with its own
     * frames or an ack owed depends on how fast this host runs it) */
    ck_assert_uint_gt(hxb_engine_stats(W.a.e)->retransmits, 0);
    ck_assert_uint_gt(za.naps_timed, 0);
    finish_am();
}
END_TEST

/* The one frame in flight is lost and nothing else moves: only A's RTO
 * deadline wakes it to resend (else it sleeps until the peer timeout). */
START_TEST(test_sleeping_lost_frame)
{
    opts_t o = {.nrails = 2};
    const hxb_mem_faults_t drop_all = {.drop_ppm = 1000000, .seed = 3}, none = {0};
    sleeper_t za = {.s = &W.a, .rails = W.ra}, zb = {.s = &W.b, .rails = W.rb};
    int i;

    world_init(&o);
    plan_am(&W.a, 1, 0);
    for (i = 0; i < W.nrails; i++) {
        hxb_rail_mem_set_faults(W.ra[i], &drop_all);
    }
    ck_assert_int_eq(send_next(&W.a), 1);
    hxb_engine_progress(W.a.e);         /* the frame leaves and is lost */
    for (i = 0; i < W.nrails; i++) {
        hxb_rail_mem_set_faults(W.ra[i], &none);
    }
    ck_assert_uint_eq(W.b.am_rcvd, 0);
    sleepers_run(&za, &zb);
    ck_assert_uint_ge(hxb_engine_stats(W.a.e)->rto_fired, 1);
    ck_assert_uint_gt(za.naps_timed, 0);
    finish_am();
}
END_TEST

/* ------------------------------------------------------------------ */
/* (1) active messages under faults                                   */

START_TEST(test_am_faults)
{
    opts_t o = {.nrails = 4, .faults = FAULTS, .csum = 1};
    const hxb_engine_stats_t *sa, *sb;

    o.faults.seed = 11 + _i;
    run_am(&o, 3000, 0, 0);
    sa = hxb_engine_stats(W.a.e);
    sb = hxb_engine_stats(W.b.e);
    /* the faults really happened and were handled */
    ck_assert_uint_gt(sb->drops[HXB_DROP_CSUM], 0);
    ck_assert_uint_gt(sb->drops[HXB_DROP_DUP], 0);
    ck_assert_uint_gt(sa->retransmits, 0);
    ck_assert_uint_gt(sb->ooo_held, 0);
    /* the receiver reports its duplicates in ACKs (some ACKs are lost; an
     * ACK the network duplicated reports its duplicates twice) */
    ck_assert_uint_gt(sa->spurious, 0);
    ck_assert_uint_le(sa->spurious, 2 * sb->drops[HXB_DROP_DUP]);
}
END_TEST

/* Short AMs sent back to back share frames (bundles); under faults each
 * still arrives once, intact and in order, in both directions, with a
 * bcopy now and then closing a bundle. */
START_TEST(test_am_bundles)
{
    opts_t o = {.nrails = 4, .faults = FAULTS, .csum = 1};

    o.faults.seed = 5;
    world_init(&o);
    plan_am_short(&W.a, 6000);
    plan_am_short(&W.b, 3000);
    send_all();
    finish_am();
    ck_assert_uint_gt(hxb_engine_stats(W.a.e)->am_bundled, 1000);
    ck_assert_uint_gt(hxb_engine_stats(W.b.e)->am_bundled, 500);
    ck_assert_uint_gt(hxb_engine_stats(W.b.e)->drops[HXB_DROP_CSUM], 0);
}
END_TEST

/* both directions at once, zero copy too: acks ride on data frames */
START_TEST(test_am_bidirectional)
{
    opts_t o = {.nrails = 3, .faults = FAULTS, .csum = 1};

    o.faults.seed = 77;
    run_am(&o, 1500, 1500, 1);
    ck_assert_uint_gt(hxb_engine_stats(W.a.e)->drops[HXB_DROP_CSUM] +
                      hxb_engine_stats(W.b.e)->drops[HXB_DROP_CSUM], 0);
}
END_TEST

/* one rail, no faults: the plain path. A long RTO keeps a slow machine
 * (valgrind) from retransmitting, so any retransmission is a spurious
 * fast retransmit or a lost frame. */
START_TEST(test_am_one_rail_clean)
{
    opts_t o = {.nrails = 1, .csum = 0, .mtu = 9000, .rto_min = 10.0};

    run_am(&o, 500, 0, 1);
    ck_assert_uint_eq(hxb_engine_stats(W.a.e)->retransmits, 0);
    ck_assert_uint_eq(hxb_engine_stats(W.b.e)->drops[HXB_DROP_DUP], 0);
}
END_TEST

/* Dual rails: bulk frames go by UDP, short ones raw, and the receiver reads
 * its raw ring before its UDP socket, so a short frame often overtakes the
 * bulk frames sent before it on the same rail. Only the order within each
 * lane (queue) is kept: treating the rail as one ordered queue took every
 * overtaken frame for lost (about 0.5 % of frames resent, all of them
 * spurious, at 8 rails on the testbed). A long RTO keeps timeouts out, so
 * the per-lane rule is what is tested. */
START_TEST(test_lanes_overtake)
{
    opts_t o = {.nrails = 2, .csum = 1, .mtu = 1500, .rto_min = 10.0};
    const hxb_engine_stats_t *sa;

    o.faults.lane_min = 600;       /* full fragments in lane 1 */
    o.faults.lane_us = 300;        /* and read 0.3 ms after lane 0 */
    o.faults.seed = 3;
    run_am(&o, 1500, 600, 0);
    sa = hxb_engine_stats(W.a.e);
    ck_assert_msg(sa->fast_retx == 0 && hxb_engine_stats(W.b.e)->fast_retx == 0,
                  "%lu + %lu frames taken for lost by the order of their lane",
                  (unsigned long)sa->fast_retx,
                  (unsigned long)hxb_engine_stats(W.b.e)->fast_retx);
}
END_TEST

/* A rail whose own queue holds fewer frames than the rail window (a small
 * qdisc): the refused frames are lost frames and get resent, and the
 * window halves on refusals, so refusals stay rare instead of costing most
 * of every burst (a fixed window of 32 over a queue of 8 loses 3 in 4). */
START_TEST(test_rail_queue_backoff)
{
    opts_t o = {.nrails = 2, .csum = 0, .mtu = 9000};
    const hxb_engine_stats_t *sa;
    uint64_t again, frames;

    o.faults.qlimit = 6;
    run_am(&o, 1500, 300, 0);
    sa = hxb_engine_stats(W.a.e);
    frames = a_rails_frames(&again);
    ck_assert_uint_gt(again, 0);             /* the queue did refuse */
    ck_assert_uint_gt(sa->rail_cuts, 0);
    ck_assert_uint_gt(sa->retransmits, 0);   /* refused frames were resent */
    /* about 1 in 10 here; without the halving about 4 in 5 */
    ck_assert_msg(again * 4 < frames, "%lu of %lu frames refused", (unsigned long)again,
                  (unsigned long)frames);
}
END_TEST

/* A queue further on that holds fewer frames than the windows (a switch
 * port, a relay) drops the rest silently, in runs: the path window halves
 * on such runs, so the drops stay a small part of the traffic instead of
 * most of every burst (windows of 32 into a queue of 6). */
START_TEST(test_path_window)
{
    opts_t o = {.nrails = 2, .csum = 0, .mtu = 9000};
    const hxb_engine_stats_t *sa;
    uint64_t frames;

    o.faults.dlimit = 6;
    run_am(&o, 1500, 0, 0);
    sa = hxb_engine_stats(W.a.e);
    frames = a_rails_frames(NULL);
    ck_assert_msg(sa->retransmits * 4 < frames, "%lu of %lu frames resent",
                  (unsigned long)sa->retransmits, (unsigned long)frames);
    ck_assert_uint_gt(sa->cwnd_cuts, 0);
    ck_assert_uint_eq(sa->rail_cuts, 0);      /* nothing refused locally */
    ck_assert_uint_eq(sa->cwnd_undos, 0);     /* real loss: no duplicates */
}
END_TEST

/* A rail that stalls now and then (a receiver off the CPU on a loaded
 * node, a queue) makes frames late, not lost: RACK's resends of them come
 * back as duplicates, and the window cuts they caused must be undone, or
 * a path runs below its share for nothing. */
START_TEST(test_path_window_undo)
{
    opts_t o = {.nrails = 2, .csum = 0, .mtu = 9000, .cc_target = 1e-3};
    const hxb_engine_stats_t *sa;

    o.faults.stall_ppm = 2000;
    o.faults.stall_us = 3000;
    run_am(&o, 3000, 0, 0);
    /* frames still stalled (real time) arrive, and are reported, as the
     * duplicates they are: finish_am's pumps may take less than a stall */
    pump_for(4 * o.faults.stall_us * 1e-6);
    sa = hxb_engine_stats(W.a.e);
    ck_assert_uint_gt(sa->cwnd_cuts, 0);            /* late looked like lost */
    ck_assert_uint_gt(sa->cwnd_undos, 0);
    ck_assert_uint_eq(sa->retransmits, sa->spurious); /* nothing was lost */
    /* Stalls keep frames in the receiving host (and acks in the sending
     * one), 3 ms each, three times the 1 ms target, often back to back:
     * the ACKs' hold times take that out of the path's round trip, so
     * the delay control sees no queue (4-13 cuts when it could not) */
    ck_assert_uint_eq(sa->cc_delay_cuts, 0);
}
END_TEST

/* A slow link (a rate, no drops) queues whatever the windows let out, and
 * the queue delays every frame and ack behind it. Beyond cc_target of
 * queueing delay the path's window shrinks, so the queue stays short with
 * nothing lost; loss-based control alone keeps the whole window queued.
 * Returns the longest queue (s) in the second half of the transfer. */
static double delay_run(double cc_target)
{
    opts_t o = {.nrails = 1, .csum = 0, .mtu = 9000, .cc_target = cc_target};
    unsigned long k;

    o.faults.rate = 40e6;            /* 0.225 ms a full frame: 32 take 7.2 ms */
    world_init(&o);
    plan_am(&W.a, 200, 0);
    for (k = 0; k < W.a.plan_n; k++) {
        W.a.plan_len[k] = hxb_engine_cfg(W.a.e)->max_msg;   /* full frames */
    }
    qdelay_track = 1;
    qdelay_max = 0;
    /* a pass after every post, as a sender that progresses while it posts:
     * acks read late would look like a queue (send_all posts in runs) */
    PUMP_UNTIL((send_next(&W.a), W.a.sent == W.a.plan_n));
    finish_am();
    qdelay_track = 0;
    /* nothing is lost: a resend is a timer misled by the queue, now and then */
    ck_assert_uint_lt(hxb_engine_stats(W.a.e)->retransmits * 20, a_rails_frames(NULL));
    return qdelay_max;
}

START_TEST(test_path_delay)
{
    double q = delay_run(1e-3);

    ck_assert_uint_gt(hxb_engine_stats(W.a.e)->cc_delay_cuts, 0);
    /* the base is measured behind a frame or two of the sender's own: the
     * target is above that, plus the bursts of a window */
    ck_assert_msg(q < 3.5e-3, "%.2f ms queued with a 1 ms target", q * 1e3);
    teardown();
    q = delay_run(-1);               /* the test can fail: without, it fills */
    ck_assert_msg(q > 5e-3, "only %.2f ms queued without a target", q * 1e3);
    ck_assert_uint_eq(hxb_engine_stats(W.a.e)->cc_delay_cuts, 0);
}
END_TEST

/* Both ways at once over one slow link: each side's ACKs queue behind its
 * own data. That wait is the ACK sender's (hold_us), not the path's: if
 * it counted, each side's window would be cut for the other's queue. */
static void delay_both_ways(int no_backlog, uint64_t *cuts, uint64_t *samples)
{
    opts_t o = {.nrails = 1, .csum = 0, .mtu = 9000, .cc_target = 1e-3};
    unsigned long k;

    o.faults.rate = 40e6;
    o.faults.no_backlog = no_backlog;
    world_init(&o);
    plan_am(&W.a, 200, 0);
    plan_am(&W.b, 200, 0);
    for (k = 0; k < 200; k++) {
        W.a.plan_len[k] = W.b.plan_len[k] = hxb_engine_cfg(W.a.e)->max_msg;
    }
    PUMP_UNTIL((send_next(&W.a), send_next(&W.b),
                W.a.sent == W.a.plan_n && W.b.sent == W.b.plan_n));
    finish_am();
    *cuts = hxb_engine_stats(W.a.e)->cc_delay_cuts + hxb_engine_stats(W.b.e)->cc_delay_cuts;
    *samples = hxb_engine_stats(W.a.e)->cc_delay_samples +
               hxb_engine_stats(W.b.e)->cc_delay_samples;
}

START_TEST(test_path_delay_both_ways)
{
    uint64_t cuts, blind, samples, blind_samples;

    delay_both_ways(0, &cuts, &samples);    /* every message verified */
    teardown();
    delay_both_ways(1, &blind, &blind_samples); /* can fail: the old hold */
#ifdef HXB_VIRTUAL_CLOCK
    /* 0 against 194 here; on the real clock this harness, pumping both
     * engines in one thread, makes delays of its own (51-77 against
     * 56-177), so only the virtual clock compares */
    ck_assert_msg(cuts * 4 <= blind && blind >= 20, "%llu window cuts, %llu when "
                  "the ACK's wait in its own host counts", (unsigned long long)cuts,
                  (unsigned long long)blind);
    /* the delay control still weighs round trips: a wait too long would
     * leave it nothing (and no cuts) */
    ck_assert_uint_ge(samples * 2, blind_samples);
#endif
}
END_TEST

/* a window smaller than one SACK word: every ACK must still be valid */
START_TEST(test_am_small_window)
{
    opts_t o = {.nrails = 2, .faults = FAULTS, .csum = 1, .window = 16,
                .max_msg = 8192};
    const hxb_engine_stats_t *sa;

    o.faults.seed = 5;
    run_am(&o, 800, 0, 0);
    sa = hxb_engine_stats(W.a.e);
    ck_assert_uint_gt(sa->acks_rcvd, 0);
    /* ACK frames from B were all well formed (corrupted ones count as CSUM) */
    ck_assert_uint_eq(sa->drops[HXB_DROP_LEN], 0);
}
END_TEST

/* Loss recovery without timeouts: rails keep order, so a frame is known
 * lost as soon as a later frame sent on its rail is acknowledged, or (across
 * rails) once it is overdue behind a later acknowledged frame. Only a lost
 * last ACK of a burst needs the RTO: with a long RTO, nearly every loss
 * must be repaired the other ways; once the faults stop, later traffic on
 * every rail exposes the remaining holes. */
START_TEST(test_am_fast_retransmit)
{
    opts_t o = {.nrails = 4, .csum = 1, .rto_min = 0.05};
    const hxb_engine_stats_t *sa;
    hxb_mem_faults_t none = {0};
    int i;

    o.faults.drop_ppm = 30000;
    o.faults.seed = 7;
    world_init(&o);
    plan_am(&W.a, 1300, 0);
    W.a.plan_n = 1000;
    send_all();
    for (i = 0; i < W.nrails; i++) {
        hxb_rail_mem_set_faults(W.ra[i], &none);
        hxb_rail_mem_set_faults(W.rb[i], &none);
    }
    W.a.plan_n = 1300;
    send_all();
    finish_am();
    sa = hxb_engine_stats(W.a.e);
    ck_assert_uint_gt(sa->fast_retx, 0);
    ck_assert_msg(sa->rto_fired * 10 <= sa->fast_retx + sa->rack_retx,
                  "%lu timeouts for %lu + %lu timeout-free repairs",
                  (unsigned long)sa->rto_fired, (unsigned long)sa->fast_retx,
                  (unsigned long)sa->rack_retx);
    ck_assert_uint_gt(hxb_engine_stats(W.b.e)->ooo_held, 0);
}
END_TEST

/* a frame as B would send it to A (run src_epoch), forged and pushed into
 * A's first rail: kind, flags, seq, extension and payload as given */
static void send_from_b(unsigned kind, unsigned flags, uint32_t seq, uint32_t src_epoch,
                        const void *ext, size_t ext_len, const void *pl, size_t pl_len)
{
    uint8_t f[2048] = {0};
    hxb_hdr_t *h = (hxb_hdr_t *)f;
    hxb_raddr_t to = {0};
    struct iovec iov = {f, sizeof(*h) + ext_len + pl_len};

    ck_assert_uint_le(iov.iov_len, sizeof(f));
    h->version = HXB_VERSION;
    h->kind = (uint8_t)kind;
    h->flags = (uint8_t)flags;
    h->hops = HXB_HOPS_MAX;
    h->len = (uint16_t)(ext_len + pl_len);
    h->job_key = KEY_A;
    h->src_node = NODE_B;
    h->src_proc = PROC_B;
    h->dst_node = NODE_A;
    h->dst_proc = PROC_A;
    h->src_epoch = src_epoch;
    h->dst_epoch = EPOCH_A;
    h->seq = seq;
    h->ack = 0;                 /* B has sent nothing */
    memcpy(h + 1, ext, ext_len);
    memcpy(f + sizeof(*h) + ext_len, pl, pl_len);
    ck_assert_int_eq(W.rb[0]->ops->send(W.rb[0], &to, &iov, 1), 0);
    W.rb[0]->ops->flush(W.rb[0]);
}

/* B's seq-th sequenced frame, of its current run */
static void send_seq_from_b(unsigned kind, unsigned flags, uint32_t seq, const void *ext,
                            size_t ext_len, const void *pl, size_t pl_len)
{
    send_from_b(kind, flags | HXB_F_SEQ, seq, EPOCH_B, ext, ext_len, pl, pl_len);
}

static void send_ping_from_b(uint32_t src_epoch)
{
    hxb_ping_ext_t ping = {0};

    send_from_b(HXB_K_PING, 0, 0, src_epoch, &ping, sizeof(ping), NULL, 0);
}

/* A frame from an earlier run of B (older epoch, e.g. still queued when B
 * restarted) reaches A in the middle of B's traffic: it is dropped and
 * counted, and must not reset A's state for the current B (which would fail
 * or lose B's messages). A frame of a later run does reset. */
START_TEST(test_stale_epoch)
{
    opts_t o = {.nrails = 2, .csum = 0};
    uint64_t dst0;

    world_init(&o);
    plan_am(&W.b, 400, 0);
    W.b.plan_n = 200;
    send_all();
    dst0 = hxb_engine_stats(W.a.e)->drops[HXB_DROP_DST];
    send_ping_from_b(EPOCH_B - 1000);
    W.b.plan_n = 400;
    send_all();
    finish_am();
    ck_assert_uint_eq(hxb_engine_stats(W.a.e)->drops[HXB_DROP_DST], dst0 + 1);
    ck_assert_int_eq(W.a.peer_failed_calls, 0);

    /* a later epoch is a restart of B: A adopts it */
    send_ping_from_b(EPOCH_B + 1000);
    pump_n(100);
    ck_assert_uint_eq(hxb_engine_stats(W.a.e)->drops[HXB_DROP_DST], dst0 + 1);
    ck_assert_uint_eq(hxb_engine_stats(W.a.e)->peers_reset, 1);
    ck_assert_int_eq(W.a.peer_reset_calls, 1);       /* reported, once */
    ck_assert_ptr_eq(W.a.reset_peer, W.a.peer);
    ck_assert_uint_eq(hxb_peer_epoch(W.a.peer), EPOCH_B + 1000);
}
END_TEST

/* A PUT of src to B's region and a GET of it into dst, both outstanding */
static void start_put_get(uint8_t *src, uint8_t *dst, size_t n, unsigned salt,
                          comp_t *put, comp_t *get)
{
    fill_pattern(src, n, salt);
    ck_assert_int_eq(hxb_put(W.a.peer, src, n, (uintptr_t)W.b.region, RKEY_B, put),
                     HXB_INPROGRESS);
    ck_assert_int_eq(hxb_get(W.a.peer, dst, n, (uintptr_t)W.b.region, RKEY_B, get),
                     HXB_INPROGRESS);
}

/* A new endpoint to a restarted peer (hxb_peer_get with a new epoch, as
 * UCT's ep_create does): what was pending towards the old run completes
 * with HXB_E_PEER and the restart is reported, both at the next progress,
 * never inside the call (UCT allows callbacks only from progress). */
START_TEST(test_restart_deferred)
{
    const size_t n = 1u << 20;
    opts_t o = {.nrails = 2, .region_len = n};
    uint8_t *src = malloc(n), *dst = malloc(n);
    comp_t cp = {0}, cg = {0}, cf = {0};
    hxb_raddr_t addrs[HXB_MAX_RAILS];
    hxb_peer_t *p;

    world_init(&o);
    start_put_get(src, dst, n, 7, &cp, &cg);
    ck_assert_int_eq(hxb_flush(W.a.peer, &cf), HXB_INPROGRESS);
    hxb_engine_progress(W.a.e);          /* some frames out, B not running */
    memset(addrs, 0, sizeof(addrs));
    W.a.in_api = 1;
    p = hxb_peer_get(W.a.e, NODE_B, PROC_B, EPOCH_B + 1, addrs, 3);
    W.a.in_api = 0;
    ck_assert_ptr_eq(p, W.a.peer);
    ck_assert_uint_eq(hxb_peer_epoch(p), EPOCH_B + 1);
    ck_assert_int_eq(cp.count + cg.count + cf.count + W.a.peer_reset_calls, 0);
    hxb_engine_progress(W.a.e);
    ASSERT_DONE_ONCE(cp, HXB_E_PEER);
    ASSERT_DONE_ONCE(cg, HXB_E_PEER);
    ASSERT_DONE_ONCE(cf, HXB_E_PEER);
    ck_assert_int_eq(W.a.peer_reset_calls, 1);
    ck_assert_ptr_eq(W.a.reset_peer, p);
    ck_assert_int_eq(W.a.peer_failed_calls, 0);
    hxb_peer_put_ref(p);
    free(src);
    free(dst);
}
END_TEST

/* One rail silently loses everything while the others work, and the RTO
 * is out of reach: per-rail detection cannot see these losses (nothing
 * later on that rail is ever acked), the time-based rule across rails must,
 * and it must stop using the rail. */
START_TEST(test_am_rail_blackhole_no_rto)
{
    opts_t o = {.nrails = 4, .csum = 1, .rto_min = 1000.0};
    hxb_mem_faults_t all = {.drop_ppm = 1000000};
    const hxb_engine_stats_t *sa;

    world_init(&o);
    hxb_rail_mem_set_faults(W.ra[2], &all);
    plan_am(&W.a, 1500, 0);
    send_all();
    finish_am();
    sa = hxb_engine_stats(W.a.e);
    ck_assert_uint_eq(sa->rto_fired, 0);
    ck_assert_uint_gt(sa->rack_retx, 0);
    ck_assert_uint_gt(sa->rail_failovers, 0);
}

/* A rail that carries frames one way only: B's rail 0 loses everything B
 * sends, A's rail 0 works. A pure receiver learns nothing from its ACKs
 * (they are not acknowledged), so B must answer on the rails A's frames
 * come in on and move its ACKs off a rail when A resends what B had
 * already acknowledged. On the testbed this was a relayed peer whose first
 * relay had lost its link: the receiver acked into the dead path for ever
 * and the sender failed the peer (t77 with 1 MiB messages). */
START_TEST(test_ack_rail_oneway)
{
    opts_t o = {.nrails = 2, .csum = 1, .peer_timeout = 2.0};
    hxb_mem_faults_t all = {.drop_ppm = 1000000};

    world_init(&o);
    hxb_rail_mem_set_faults(W.rb[0], &all);
    plan_am(&W.a, 1500, 0);
    send_all();
    finish_am();
    ck_assert_uint_gt(W.rb[1]->stats.tx_frames, 0);
}
END_TEST
END_TEST

/* Raw and UDP rails batch frames until a flush. An AM posted between
 * progress passes waits in the batch for the next pass (MPI_Isend, then
 * computation), which used to run its timers on the post's time stamp:
 * the frame looked a gap old, was resent at once, and the peer was failed
 * after a gap longer than the peer timeout, all before the frame left. */
START_TEST(test_post_gap_not_resent)
{
    opts_t o = {.nrails = 2, .csum = 1, .peer_timeout = 10.0};
    unsigned long rto0;
    int i;

    o.faults.batch = 1;
    world_init(&o);
    plan_am(&W.a, 21, 0);
    W.a.plan_n = 20;                    /* a warm-up: round trips known */
    send_all();
    PUMP_UNTIL(W.b.am_rcvd == 20 && hxb_peer_tx_idle(W.a.peer));
    pump_n(100);
    W.a.plan_n = 21;
    rto0 = hxb_engine_stats(W.a.e)->rto_fired;
    ck_assert_int_eq(send_next(&W.a), 1);
    for (i = 0; i < 100; i++) {         /* only B runs: A computes */
        hxb_engine_progress(W.b.e);
    }
#ifdef HXB_VIRTUAL_CLOCK
    hxb_virtual_now += 11.0;            /* longer than the peer timeout */
#else
    usleep(30000);                      /* many RTOs (1 ms after the warm-up) */
#endif
    hxb_engine_progress(W.a.e);         /* MPI_Wait */
    finish_am();
    ck_assert_uint_eq(hxb_engine_stats(W.a.e)->rto_fired, rto0);
}
END_TEST

/* B computes for three peer timeouts while A sends to it: only B's idle
 * tick runs (a timer thread in the UCT glue). A must wait for B, not fail
 * it, and everything arrives once B progresses again. The posts B made
 * before computing leave on a tick, not at B's next pass. */
static void busy_b_for(double secs)
{
    double t;

    for (t = 0; t < secs; t += 0.01) {
        send_next(&W.a);
        hxb_engine_progress(W.a.e);
        hxb_engine_idle_tick(W.b.e);
#ifdef HXB_VIRTUAL_CLOCK
        hxb_virtual_now += 0.01;
#else
        usleep(10000);
#endif
    }
}

START_TEST(test_busy_peer_waited_for)
{
    opts_t o = {.nrails = 2, .csum = 1, .peer_timeout = 0.2};
    unsigned long a_rcvd;

    o.faults.batch = 1;
    world_init(&o);
    plan_am(&W.a, 300, 0);
    plan_am(&W.b, 1, 0);
    W.a.plan_n = 100;
    W.b.plan_n = 0;
    send_all();
    PUMP_UNTIL(W.b.am_rcvd == 100 && hxb_peer_tx_idle(W.a.peer));
    W.a.plan_n = 300;
    W.b.plan_n = 1;
    a_rcvd = W.a.am_rcvd;
    ck_assert_int_eq(send_next(&W.b), 1);   /* B posts, then computes */
    busy_b_for(0.6);
    ck_assert_uint_eq(W.a.am_rcvd, a_rcvd + 1);
    ck_assert_int_eq(W.a.peer_failed_calls, 0);
    ck_assert(!hxb_peer_failed(W.a.peer));
    ck_assert_uint_eq(W.b.am_rcvd, 100);     /* B read nothing meanwhile */
    send_all();
    finish_am();
}
END_TEST

/* B arms its event fd (UCP does so for ifaces it does not use, and goes
 * on) but does not sleep on it: it computes. Frames wait in its rails for
 * two idle ticks, so it is not asleep, and A hears it is busy. */
START_TEST(test_busy_armed_not_asleep)
{
    opts_t o = {.nrails = 2, .csum = 1, .peer_timeout = 0.2};
    double at;

    o.faults.batch = 1;
    world_init(&o);
    plan_am(&W.a, 50, 0);
    W.b.plan_n = 0;
    hxb_engine_progress(W.b.e);
    ck_assert(hxb_engine_may_sleep(W.b.e, &at));
    busy_b_for(0.6);
    ck_assert_int_eq(W.a.peer_failed_calls, 0);
    ck_assert(!hxb_peer_failed(W.a.peer));
    ck_assert_uint_ge(hxb_engine_stats(W.a.e)->busy_rcvd, 2);
    ck_assert_uint_eq(W.b.am_rcvd, 0);
    send_all();
    finish_am();
}
END_TEST

/* The same when B has never heard of A: its idle tick finds A's frames
 * waiting in the rails (peek, not taken) and tells A it is busy. A waits
 * without resending (B's silence is no loss) and everything arrives once
 * B progresses. */
START_TEST(test_busy_unknown_sender)
{
    opts_t o = {.nrails = 2, .csum = 1, .peer_timeout = 0.2, .b_unknown = 1};
    hxb_raddr_t addrs[HXB_MAX_RAILS];

    o.faults.batch = 1;
    world_init(&o);
    plan_am(&W.a, 50, 0);
    W.b.plan_n = 0;
    busy_b_for(0.6);
    ck_assert_int_eq(W.a.peer_failed_calls, 0);
    ck_assert(!hxb_peer_failed(W.a.peer));
    ck_assert_uint_eq(hxb_engine_stats(W.b.e)->busy_learned, 1);
    ck_assert_uint_ge(hxb_engine_stats(W.a.e)->busy_rcvd, 2);
    ck_assert_uint_eq(hxb_engine_stats(W.a.e)->retransmits, 0);
    ck_assert_uint_eq(W.b.am_rcvd, 0);
    memset(addrs, 0, sizeof(addrs));
    W.b.peer = hxb_peer_get(W.b.e, NODE_A, PROC_A, EPOCH_A, addrs, 3);
    ck_assert_ptr_nonnull(W.b.peer);
    send_all();
    finish_am();
}
END_TEST

/* ------------------------------------------------------------------ */
/* (2) PUT and (3) GET of several MiB under faults                    */

#define BIG (6u << 20)

static void fill_pattern(uint8_t *p, size_t len, unsigned salt)
{
    size_t i;
    for (i = 0; i < len; i++) {
        p[i] = (uint8_t)((i >> 3) * 7 + i * salt + (i >> 16));
    }
}

/* an ACK frame from B acknowledging A's frames below cum */
static void send_ack_from_b(uint32_t cum)
{
    hxb_ack_ext_t a = {.cum = cum, .hold_us = HXB_HOLD_NONE};

    send_from_b(HXB_K_ACK, 0, 0, EPOCH_B, &a, sizeof(a), NULL, 0);
}

/* A window-limited sender does not answer an ack that frees a frame or
 * two with a burst that short: its last frame would draw the next ack at
 * once, and acks would multiply (PROTOCOL.md 8.4, Bursts). It waits for
 * room for HXB_BURST_MIN frames, then fills the window. */
START_TEST(test_burst_waits_for_room)
{
    /* full windows from the start: no slow start (cc_target -1) */
    opts_t o = {.nrails = 1, .mtu = 9000, .region_len = 1u << 20, .cc_target = -1};
    uint8_t *src = malloc(1u << 20);
    comp_t c = {0};
    uint64_t sent;
    int i;

    world_init(&o);
    ck_assert_ptr_nonnull(src);
    fill_pattern(src, 1u << 20, 9);
    ck_assert_int_eq(hxb_put(W.a.peer, src, 1u << 20, (uintptr_t)W.b.region,
                             RKEY_B, &c), HXB_INPROGRESS);
    for (i = 0; i < 10; i++) {
        hxb_engine_progress(W.a.e);   /* B stays silent: the window fills */
    }
    sent = a_rails_frames(NULL);
    ck_assert_uint_gt(sent, 8);
    ck_assert_uint_lt(sent, 118);     /* 1 MiB is 118 frames of 8896 bytes */
    send_ack_from_b(2);
    for (i = 0; i < 10; i++) {
        hxb_engine_progress(W.a.e);
    }
    ck_assert_uint_eq(a_rails_frames(NULL), sent);   /* two frames of room */
    send_ack_from_b(10);
    for (i = 0; i < 10; i++) {
        hxb_engine_progress(W.a.e);
    }
    ck_assert_uint_eq(a_rails_frames(NULL), sent + 10); /* the window refilled */
    PUMP_UNTIL(c.count);
    ck_assert_int_eq(c.status, 0);
    ck_assert(memcmp(W.b.region, src, 1u << 20) == 0);
    free(src);
}
END_TEST

START_TEST(test_put_faults)
{
    opts_t o = {.nrails = 4, .faults = FAULTS, .csum = 1, .region_len = BIG};
    uint8_t *src = malloc(BIG);
    comp_t c[5] = {{0}};
    struct { size_t off, len; } small[4] = {{BIG - 1, 1}, {3, 0}, {100, 1409},
                                             {BIG - 5000, 4999}};
    int i, r;

    o.faults.seed = 21;
    world_init(&o);
    ck_assert_ptr_nonnull(src);
    fill_pattern(src, BIG, 3);
    /* the big one covers the whole region; the small ones overwrite parts
     * of it with the same bytes, so the final image is src */
    r = hxb_put(W.a.peer, src, BIG, (uintptr_t)W.b.region, RKEY_B, &c[0]);
    ck_assert_int_eq(r, HXB_INPROGRESS);
    for (i = 0; i < 4; i++) {
        r = hxb_put(W.a.peer, src + small[i].off, small[i].len,
                    (uintptr_t)W.b.region + small[i].off, RKEY_B, &c[i + 1]);
        ck_assert_int_eq(r, HXB_INPROGRESS);
    }
    PUMP_UNTIL(c[0].count && c[1].count && c[2].count && c[3].count && c[4].count);
    pump_n(2000);
    for (i = 0; i < 5; i++) {
        ck_assert_msg(c[i].count == 1, "put %d completed %d times", i, c[i].count);
        ck_assert_int_eq(c[i].status, 0);
    }
    /* completions come in issue order */
    for (i = 1; i < 5; i++) {
        ck_assert_uint_gt(c[i].order, c[i - 1].order);
    }
    ck_assert(memcmp(W.b.region, src, BIG) == 0);
    ck_assert(side_mem_intact_except(&W.b, 0, BIG));
    ck_assert(side_mem_intact_except(&W.a, 0, 0));      /* A's memory untouched */
    ck_assert_uint_gt(hxb_engine_stats(W.a.e)->retransmits, 0);
    ck_assert_uint_gt(hxb_engine_stats(W.b.e)->drops[HXB_DROP_CSUM], 0);
    free(src);
}
END_TEST

START_TEST(test_get_faults)
{
    opts_t o = {.nrails = 4, .faults = FAULTS, .csum = 1, .region_len = BIG};
    uint8_t *dst = malloc(BIG + 2 * GUARD), *small = malloc(3000);
    comp_t c[3] = {{0}};
    int i, r;

    o.faults.seed = 31;
    world_init(&o);
    ck_assert_ptr_nonnull(dst);
    fill_pattern(W.b.region, BIG, 5);
    memset(dst, 0xab, BIG + 2 * GUARD);
    memset(small, 0xab, 3000);
    r = hxb_get(W.a.peer, dst + GUARD, BIG, (uintptr_t)W.b.region, RKEY_B, &c[0]);
    ck_assert_int_eq(r, HXB_INPROGRESS);
    r = hxb_get(W.a.peer, small, 1, (uintptr_t)W.b.region + BIG - 1, RKEY_B, &c[1]);
    ck_assert_int_eq(r, HXB_INPROGRESS);
    r = hxb_get(W.a.peer, small + 1, 2999, (uintptr_t)W.b.region + 12345, RKEY_B,
                &c[2]);
    ck_assert_int_eq(r, HXB_INPROGRESS);
    /* an empty read is done at once */
    ck_assert_int_eq(hxb_get(W.a.peer, small, 0, (uintptr_t)W.b.region, RKEY_B,
                             &c[1]), HXB_OK);
    PUMP_UNTIL(c[0].count && c[1].count && c[2].count);
    pump_n(2000);
    for (i = 0; i < 3; i++) {
        ck_assert_msg(c[i].count == 1, "get %d completed %d times", i, c[i].count);
        ck_assert_int_eq(c[i].status, 0);
    }
    ck_assert(memcmp(dst + GUARD, W.b.region, BIG) == 0);
    for (i = 0; i < GUARD; i++) {
        ck_assert_uint_eq(dst[i], 0xab);
        ck_assert_uint_eq(dst[GUARD + BIG + i], 0xab);
    }
    ck_assert_uint_eq(small[0], W.b.region[BIG - 1]);
    ck_assert(memcmp(small + 1, W.b.region + 12345, 2999) == 0);
    ck_assert_uint_gt(hxb_engine_stats(W.b.e)->retransmits, 0);
    free(dst);
    free(small);
}
END_TEST

/* PUT and GET in both directions at once */
START_TEST(test_put_get_bidirectional)
{
    const size_t n = 2u << 20;
    opts_t o = {.nrails = 2, .faults = FAULTS, .csum = 1, .region_len = n};
    uint8_t *sa = malloc(n), *sb = malloc(n), *ga = malloc(n), *gb = malloc(n);
    comp_t c[4] = {{0}};

    o.faults.seed = 41;
    world_init(&o);
    /* each side's region: first half written by the other side, second
     * half read by the other side */
    fill_pattern(sa, n / 2, 7);
    fill_pattern(sb, n / 2, 9);
    fill_pattern(W.a.region + n / 2, n / 2, 11);
    fill_pattern(W.b.region + n / 2, n / 2, 13);
    ck_assert_int_eq(hxb_put(W.a.peer, sa, n / 2, (uintptr_t)W.b.region, RKEY_B,
                             &c[0]), HXB_INPROGRESS);
    ck_assert_int_eq(hxb_put(W.b.peer, sb, n / 2, (uintptr_t)W.a.region, RKEY_A,
                             &c[1]), HXB_INPROGRESS);
    ck_assert_int_eq(hxb_get(W.a.peer, ga, n / 2, (uintptr_t)W.b.region + n / 2,
                             RKEY_B, &c[2]), HXB_INPROGRESS);
    ck_assert_int_eq(hxb_get(W.b.peer, gb, n / 2, (uintptr_t)W.a.region + n / 2,
                             RKEY_A, &c[3]), HXB_INPROGRESS);
    PUMP_UNTIL(c[0].count && c[1].count && c[2].count && c[3].count);
    pump_n(1000);
    ck_assert(c[0].count == 1 && c[1].count == 1 && c[2].count == 1 && c[3].count == 1);
    ck_assert(!c[0].status && !c[1].status && !c[2].status && !c[3].status);
    ck_assert(memcmp(W.b.region, sa, n / 2) == 0);
    ck_assert(memcmp(W.a.region, sb, n / 2) == 0);
    ck_assert(memcmp(ga, W.b.region + n / 2, n / 2) == 0);
    ck_assert(memcmp(gb, W.a.region + n / 2, n / 2) == 0);
    free(sa);
    free(sb);
    free(ga);
    free(gb);
}
END_TEST

/* ------------------------------------------------------------------ */
/* (4) bad rkey / out of bounds                                       */

START_TEST(test_rkey_refused)
{
    const size_t n = 1u << 20;
    opts_t o = {.nrails = 4, .csum = 1, .region_len = n};
    uint8_t *src = malloc(n), *dst = malloc(n + 2 * GUARD);
    uint64_t base;
    comp_t c[8] = {{0}}, ok[2] = {{0}};
    size_t i;

    world_init(&o);
    base = (uintptr_t)W.b.region;
    fill_pattern(src, n, 17);
    memset(dst, 0xcd, n + 2 * GUARD);

    /* wrong key, right place: one frame and many frames */
    ck_assert_int_eq(hxb_put(W.a.peer, src, 100, base, RKEY_A, &c[0]), HXB_INPROGRESS);
    ck_assert_int_eq(hxb_put(W.a.peer, src, 200000, base, RKEY_B + 1, &c[1]),
                     HXB_INPROGRESS);
    /* right key, partly outside (one frame), and wholly past the end */
    ck_assert_int_eq(hxb_put(W.a.peer, src, 100, base + n - 50, RKEY_B, &c[2]),
                     HXB_INPROGRESS);
    ck_assert_int_eq(hxb_put(W.a.peer, src, 10, base + n, RKEY_B, &c[3]),
                     HXB_INPROGRESS);
    ck_assert_int_eq(hxb_put(W.a.peer, src, 10, base - 10, RKEY_B, &c[4]),
                     HXB_INPROGRESS);
    /* reads: wrong key, straddling the end, before the start */
    ck_assert_int_eq(hxb_get(W.a.peer, dst + GUARD, 5000, base, 0, &c[5]),
                     HXB_INPROGRESS);
    ck_assert_int_eq(hxb_get(W.a.peer, dst + GUARD, 5000, base + n - 4999, RKEY_B,
                             &c[6]), HXB_INPROGRESS);
    ck_assert_int_eq(hxb_get(W.a.peer, dst + GUARD, 64, base - 1, RKEY_B, &c[7]),
                     HXB_INPROGRESS);
    PUMP_UNTIL(c[0].count && c[1].count && c[2].count && c[3].count &&
               c[4].count && c[5].count && c[6].count && c[7].count);
    pump_n(1000);
    for (i = 0; i < 8; i++) {
        ck_assert_msg(c[i].count == 1, "op %zu completed %d times", i, c[i].count);
        ck_assert_msg(c[i].status == HXB_E_RKEY, "op %zu: status %d, expected "
                      "HXB_E_RKEY", i, c[i].status);
    }
    /* nothing was written anywhere */
    ck_assert(side_mem_intact_except(&W.b, 0, 0));
    for (i = 0; i < n + 2 * GUARD; i++) {
        ck_assert_uint_eq(dst[i], 0xcd);
    }
    ck_assert_uint_gt(hxb_engine_stats(W.b.e)->drops[HXB_DROP_RKEY], 0);

    /* the peer is still fine: good operations work */
    ck_assert_int_eq(hxb_put(W.a.peer, src, n, base, RKEY_B, &ok[0]), HXB_INPROGRESS);
    ck_assert_int_eq(hxb_get(W.a.peer, dst + GUARD, n, base, RKEY_B, &ok[1]),
                     HXB_INPROGRESS);
    PUMP_UNTIL(ok[0].count && ok[1].count);
    ck_assert_int_eq(ok[0].status, 0);
    ck_assert_int_eq(ok[1].status, 0);
    ck_assert(memcmp(W.b.region, src, n) == 0);
    ck_assert(memcmp(dst + GUARD, src, n) == 0);
    ck_assert_int_eq(W.a.peer_failed_calls, 0);

    /* a refused put without completion (put_short) must not fail the good
     * put after it; the next flush reports it, once */
    memset(ok, 0, sizeof(ok));
    ck_assert_int_eq(hxb_put(W.a.peer, src, 100, base, RKEY_A, NULL), HXB_INPROGRESS);
    ck_assert_int_eq(hxb_put(W.a.peer, src, 300000, base, RKEY_B, &ok[0]),
                     HXB_INPROGRESS);
    ck_assert_int_eq(hxb_flush(W.a.peer, &ok[1]), HXB_INPROGRESS);
    PUMP_UNTIL(ok[0].count && ok[1].count);
    ck_assert_int_eq(ok[0].status, 0);
    ck_assert_int_eq(ok[1].status, HXB_E_RKEY);
    ck_assert_int_eq(hxb_flush(W.a.peer, NULL), HXB_OK);
    free(src);
    free(dst);
}
END_TEST

/* An ERR for an early frame of a long zero-copy put comes back before the
 * put's last frame is even numbered (frames are cut a few at a time): the
 * refusal must still reach that put's completion, and only it. A good
 * put_short numbered between its frames is not charged with it. */
START_TEST(test_err_before_last_frame)
{
    const size_t n = BIG;
    opts_t o = {.nrails = 2, .csum = 1, .region_len = n};
    uint8_t *src = malloc(n);
    uint64_t base;
    comp_t c = {0}, fl = {0};
    int r, i;

    world_init(&o);
    base = (uintptr_t)W.b.region;
    fill_pattern(src, n, 41);
    /* starts 4 KiB before the region: its first frames are refused */
    r = hxb_put(W.a.peer, src, n - 8192, base - 4096, RKEY_B, &c);
    ck_assert_int_eq(r, HXB_INPROGRESS);
    for (i = 0; i < 20; i++) {
        pump_n(1);
        ck_assert_int_eq(hxb_put_short(W.a.peer, src, 8, base + n - 8, RKEY_B), HXB_OK);
    }
    PUMP_UNTIL(c.count);
    ck_assert_int_eq(c.count, 1);
    ck_assert_int_eq(c.status, HXB_E_RKEY);
    ck_assert_uint_gt(hxb_engine_stats(W.b.e)->drops[HXB_DROP_RKEY], 0);
    /* the puts by copy were fine: the flush has nothing to report */
    r = hxb_flush(W.a.peer, &fl);
    if (r == HXB_INPROGRESS) {
        PUMP_UNTIL(fl.count);
        r = fl.status;
    }
    ck_assert_int_eq(r, HXB_OK);
    free(src);
}
END_TEST

/* Fetches in flight whose owner is cancelled complete once each with
 * HXB_E_CANCEL, their results untouched even if the answers arrive, and
 * leave nothing for a flush to wait on. */
START_TEST(test_atomic_cancel)
{
    opts_t o = {.nrails = 2, .region_len = 4096};
    comp_t c[3] = {{0}};
    uint64_t res[3] = {7, 7, 7};
    int owner, i;

    world_init(&o);
    hxb_peer_set_owner(W.a.peer, &owner);
    for (i = 0; i < 3; i++) {
        ck_assert_int_eq(hxb_atomic(W.a.peer, HXB_AOP_ADD, 8, 1, 0, (uintptr_t)W.b.region,
                                    RKEY_B, &res[i], &c[i]), HXB_INPROGRESS);
    }
    hxb_peer_set_owner(W.a.peer, NULL);
    pump_n(1);                      /* requests leave; answers may be on their way */
    hxb_peer_cancel(W.a.peer, &owner);
    pump_n(500);
    for (i = 0; i < 3; i++) {
        ck_assert_msg(c[i].count == 1, "fetch %d completed %d times", i, c[i].count);
        ck_assert_int_eq(c[i].status, HXB_E_CANCEL);
        ck_assert_uint_eq(res[i], 7);
    }
    PUMP_UNTIL(hxb_flush(W.a.peer, NULL) == HXB_OK);
    ck_assert_int_eq(W.a.peer_failed_calls, 0);
}
END_TEST

/* Puts of one frame land in the order they were issued, though striped
 * over four rails that reorder, lose and duplicate frames: 2000 puts to the
 * same word (by copy, then zero-copy), each in its own frame, leave the
 * last value there, as ucx_perftest's put_bw expects of its sentinel. */
START_TEST(test_put_order)
{
    enum { N = 2000 };
    opts_t o = {.nrails = 4, .faults = FAULTS, .csum = 1, .region_len = 4096};
    uint64_t *vals = malloc(N * sizeof(*vals)), v, seen = 0;
    comp_t *c = calloc(N, sizeof(*c)), fl = {0};
    int i, r;

    o.faults.seed = 77;
    world_init(&o);
    for (i = 0; i < N; i++) {
        vals[i] = (uint64_t)i + 1;
        do {
            r = i < N / 2 ? hxb_put_short(W.a.peer, &vals[i], 8, (uintptr_t)W.b.region,
                                          RKEY_B)
                          : hxb_put(W.a.peer, &vals[i], 8, (uintptr_t)W.b.region, RKEY_B,
                                    &c[i]);
        } while (r == HXB_EAGAIN && (pump_n(1), 1));
        ck_assert_int_ge(r, 0);
        pump_n(1);            /* its own frame: no bundle keeps them in order */
        /* the word only ever moves forward: no older put lands late */
        memcpy(&v, W.b.region, 8);
        ck_assert_msg(v >= seen, "put %lu landed after put %lu", (unsigned long)v,
                      (unsigned long)seen);
        seen = v;
    }
    r = hxb_flush(W.a.peer, &fl);
    if (r == HXB_INPROGRESS) {
        PUMP_UNTIL(fl.count);
        r = fl.status;
    }
    ck_assert_int_eq(r, HXB_OK);
    memcpy(&v, W.b.region, 8);
    ck_assert_uint_eq(v, N);
    ck_assert_uint_gt(hxb_engine_stats(W.b.e)->ooo_held, 0);    /* some came early */
    free(vals);
    free(c);
}
END_TEST

/* put_bcopy's packer in the tests: copies {src, len} */
typedef struct put_piece {
    const uint8_t *src;
    size_t         len;
} put_piece_t;

static size_t pack_piece(void *dest, void *arg)
{
    put_piece_t *pc = arg;

    memcpy(dest, pc->src, pc->len);
    return pc->len;
}

/* Short puts and small bcopy puts issued back to back share frames (PUT
 * bundles): under loss, duplication and corruption every byte lands once,
 * where it belongs; a refused record in a bundle is not placed, the
 * others of its frame are, and the next flush reports the refusal. */
START_TEST(test_put_bundles)
{
    const size_t n = 64 * 1024;
    opts_t o = {.nrails = 4, .faults = FAULTS, .csum = 1, .region_len = n};
    uint8_t *src = malloc(n), zero[100] = {0};
    uint64_t base;
    comp_t fl[2] = {{0}};
    size_t off, len, k = 0;
    put_piece_t pc;
    long r;

    o.faults.seed = 9;
    world_init(&o);
    base = (uintptr_t)W.b.region;
    fill_pattern(src, n, 23);
    for (off = 0; off < n; off += len, k++) {
        len = (k % 9 == 8) ? 200 + (k * 131) % (hxb_engine_frag_size(W.a.e) - 200)
                           : 1 + (k * 37) % HXB_AM_INLINE;
        len = len < n - off ? len : n - off;
        do {
            if (k % 9 == 8) {
                pc.src = src + off;
                pc.len = len;
                r = hxb_put_bcopy(W.a.peer, pack_piece, &pc, base + off, RKEY_B);
            } else {
                r = hxb_put_short(W.a.peer, src + off, len, base + off, RKEY_B);
            }
        } while (r == HXB_EAGAIN && (pump_n(1), 1));
        ck_assert_msg(r >= 0, "put %zu: %ld", k, r);
        if (k % 64 == 63) {
            pump_n(1);     /* a progress pass now and then closes a bundle */
        }
    }
    r = hxb_flush(W.a.peer, &fl[0]);
    ck_assert_int_eq(r, HXB_INPROGRESS);
    PUMP_UNTIL(fl[0].count);
    ck_assert_int_eq(fl[0].status, 0);
    ck_assert(memcmp(W.b.region, src, n) == 0);
    ck_assert(side_mem_intact_except(&W.b, 0, n));
    ck_assert_uint_gt(hxb_engine_stats(W.a.e)->put_bundled, k / 2);
    ck_assert_uint_gt(hxb_engine_stats(W.a.e)->retransmits, 0);
    ck_assert_uint_eq(hxb_engine_stats(W.b.e)->drops[HXB_DROP_RKEY], 0);

    /* good, refused (wrong key), good: one bundle; only the good land */
    memset(W.b.region, 0, 300);
    ck_assert_int_eq(hxb_put_short(W.a.peer, src, 100, base, RKEY_B), HXB_OK);
    ck_assert_int_eq(hxb_put_short(W.a.peer, src + 100, 100, base + 100, RKEY_A), HXB_OK);
    ck_assert_int_eq(hxb_put_short(W.a.peer, src + 200, 100, base + 200, RKEY_B), HXB_OK);
    ck_assert_int_eq(hxb_flush(W.a.peer, &fl[1]), HXB_INPROGRESS);
    PUMP_UNTIL(fl[1].count);
    ck_assert_int_eq(fl[1].status, HXB_E_RKEY);
    ck_assert(memcmp(W.b.region, src, 100) == 0);
    ck_assert(memcmp((uint8_t *)W.b.region + 100, zero, 100) == 0);
    ck_assert(memcmp((uint8_t *)W.b.region + 200, src + 200, 100) == 0);
    ck_assert_uint_gt(hxb_engine_stats(W.b.e)->drops[HXB_DROP_RKEY], 0);
    ck_assert_int_eq(hxb_flush(W.a.peer, NULL), HXB_OK);    /* reported once */
    ck_assert_int_eq(W.a.peer_failed_calls, 0);
    free(src);
}
END_TEST

/* Atomics under loss, duplication, reordering and corruption: each is
 * done exactly once (2000 fetch-adds fetch 0..1999, each once), posted ones
 * count through the flush, every operation code gives its defined result on
 * both widths, and refusals (misaligned, outside the region, wrong key)
 * change nothing and are reported: a fetch by its completion, a post by
 * the next flush. */
static uint64_t atomic_wait(unsigned aop, unsigned size, uint64_t value,
                            uint64_t compare, size_t off, uint64_t rkey, int *status)
{
    comp_t c = {0};
    uint64_t res = 0xdeadbeefdeadbeefull;
    int r;

    r = hxb_atomic(W.a.peer, aop, size, value, compare, (uintptr_t)W.b.region + off,
                   rkey, &res, &c);
    ck_assert_int_eq(r, HXB_INPROGRESS);
    PUMP_UNTIL(c.count);
    ck_assert_int_eq(c.count, 1);
    *status = c.status;
    return size == 4 ? (uint32_t)res : res;
}

START_TEST(test_atomics)
{
    enum { N = 2000, NPOST = 500 };
    opts_t o = {.nrails = 4, .faults = FAULTS, .csum = 1, .region_len = 4096};
    uint64_t *res = calloc(N, sizeof(*res)), v64;
    uint32_t v32;
    uint8_t *seen = calloc(N, 1);
    comp_t *c = calloc(N, sizeof(*c)), fl = {0};
    uint8_t *m;
    int i, r, st;

    o.faults.seed = 13;
    world_init(&o);
    m = W.b.region;
    memset(m, 0, 64);
    /* 64-bit fetch-add at 0, many in flight at once: the first half a frame
     * each (a progress pass between them), the second back to back, in
     * bundles */
    for (i = 0; i < N; i++) {
        do {
            r = hxb_atomic(W.a.peer, HXB_AOP_ADD, 8, 1, 0, (uintptr_t)m, RKEY_B,
                           &res[i], &c[i]);
        } while (r == HXB_EAGAIN && (pump_n(1), 1));
        ck_assert_int_eq(r, HXB_INPROGRESS);
        if (i < N / 2) {
            pump_n(1);
        }
    }
    /* posted 32-bit adds at 8 */
    for (i = 0; i < NPOST; i++) {
        do {
            r = hxb_atomic(W.a.peer, HXB_AOP_ADD, 4, 3, 0, (uintptr_t)m + 8, RKEY_B,
                           NULL, NULL);
        } while (r == HXB_EAGAIN && (pump_n(1), 1));
        ck_assert_int_eq(r, HXB_OK);
    }
    ck_assert_int_eq(hxb_flush(W.a.peer, &fl), HXB_INPROGRESS);
    PUMP_UNTIL(fl.count);
    ck_assert_int_eq(fl.status, 0);
    for (i = 0; i < N; i++) {
        ck_assert_msg(c[i].count == 1 && c[i].status == 0, "fetch %d: %d times, status %d",
                      i, c[i].count, c[i].status);
        ck_assert_uint_lt(res[i], N);
        ck_assert_msg(!seen[res[i]], "old value %lu fetched twice", (unsigned long)res[i]);
        seen[res[i]] = 1;
    }
    memcpy(&v64, m, 8);
    ck_assert_uint_eq(v64, N);
    memcpy(&v32, m + 8, 4);
    ck_assert_uint_eq(v32, 3 * NPOST);
    ck_assert_uint_gt(hxb_engine_stats(W.a.e)->atomic_bundled, N / 4);   /* back to back */
    ck_assert_uint_eq(m[12], 0);                       /* 32 bits wide, no more */
    ck_assert_uint_gt(hxb_engine_stats(W.a.e)->retransmits, 0);
    ck_assert_uint_gt(hxb_engine_stats(W.b.e)->drops[HXB_DROP_DUP], 0);

    /* every operation, both widths, one at a time: known results */
    v64 = 0xf0f0f0f0f0f0f0f0ull;
    memcpy(m + 16, &v64, 8);
    ck_assert_uint_eq(atomic_wait(HXB_AOP_AND, 8, 0xff00ff00ff00ff00ull, 0, 16, RKEY_B, &st),
                      0xf0f0f0f0f0f0f0f0ull);
    ck_assert_uint_eq(atomic_wait(HXB_AOP_OR, 8, 0x1, 0, 16, RKEY_B, &st),
                      0xf000f000f000f000ull);
    ck_assert_uint_eq(atomic_wait(HXB_AOP_XOR, 8, 0xffffffffffffffffull, 0, 16, RKEY_B, &st),
                      0xf000f000f000f001ull);
    ck_assert_uint_eq(atomic_wait(HXB_AOP_SWAP, 8, 42, 0, 16, RKEY_B, &st),
                      0x0fff0fff0fff0ffeull);
    ck_assert_uint_eq(atomic_wait(HXB_AOP_CSWAP, 8, 7, 41, 16, RKEY_B, &st), 42); /* no swap */
    ck_assert_uint_eq(atomic_wait(HXB_AOP_CSWAP, 8, 7, 42, 16, RKEY_B, &st), 42); /* swap */
    memcpy(&v64, m + 16, 8);
    ck_assert_uint_eq(v64, 7);
    ck_assert_int_eq(st, 0);
    memset(m + 24, 0, 8);
    m[28] = 0x5a;                                      /* beside the 32-bit word */
    ck_assert_uint_eq(atomic_wait(HXB_AOP_ADD, 4, 0xffffffffu, 0, 24, RKEY_B, &st), 0);
    ck_assert_uint_eq(atomic_wait(HXB_AOP_ADD, 4, 2, 0, 24, RKEY_B, &st), 0xffffffffu);
    ck_assert_uint_eq(atomic_wait(HXB_AOP_CSWAP, 4, 9, 1, 24, RKEY_B, &st), 1);
    ck_assert_uint_eq(atomic_wait(HXB_AOP_SWAP, 4, 5, 0, 24, RKEY_B, &st), 9);
    memcpy(&v32, m + 24, 4);
    ck_assert_uint_eq(v32, 5);
    ck_assert_uint_eq(m[28], 0x5a);

    /* refusals: misaligned, past the end, wrong key; nothing changes, not
     * even the caller's result */
    ck_assert_uint_eq(atomic_wait(HXB_AOP_ADD, 8, 1, 0, 4, RKEY_B, &st),
                      0xdeadbeefdeadbeefull);
    ck_assert_int_eq(st, HXB_E_RKEY);
    ck_assert_uint_eq(atomic_wait(HXB_AOP_SWAP, 4, 1, 0, 4096, RKEY_B, &st), 0xdeadbeefu);
    ck_assert_int_eq(st, HXB_E_RKEY);
    ck_assert_uint_eq(atomic_wait(HXB_AOP_ADD, 8, 1, 0, 0, RKEY_A, &st),
                      0xdeadbeefdeadbeefull);
    ck_assert_int_eq(st, HXB_E_RKEY);
    memcpy(&v64, m, 8);
    ck_assert_uint_eq(v64, N);
    memset(&fl, 0, sizeof(fl));
    ck_assert_int_eq(hxb_atomic(W.a.peer, HXB_AOP_ADD, 8, 1, 0, (uintptr_t)m + 1, RKEY_B,
                                NULL, NULL), HXB_OK);
    ck_assert_int_eq(hxb_flush(W.a.peer, &fl), HXB_INPROGRESS);
    PUMP_UNTIL(fl.count);
    ck_assert_int_eq(fl.status, HXB_E_RKEY);
    memcpy(&v64, m, 8);
    ck_assert_uint_eq(v64, N);
    ck_assert(side_mem_intact_except(&W.b, 0, 64));
    /* a post must not fetch: swap and cswap need a result */
    ck_assert_int_lt(hxb_atomic(W.a.peer, HXB_AOP_SWAP, 8, 1, 0, (uintptr_t)m, RKEY_B,
                                NULL, NULL), 0);
    ck_assert_int_eq(W.a.peer_failed_calls, 0);
    free(res);
    free(seen);
    free(c);
}
END_TEST

/* PUT bundles that lie: a record running past the payload, a payload
 * shorter than one record header, nothing at all. Nothing of a lying
 * bundle is placed (not even its good first record); empty and zero-length
 * records are harmless; an honest bundle lands. */
START_TEST(test_put_bundle_malformed)
{
    opts_t o = {.nrails = 1, .csum = 0, .region_len = 4096};
    hxb_put_ext_t ext = {0};
    uint8_t pl[256], *m;
    hxb_put_rec_t rec;
    size_t n = 0;
    uint64_t base, len0;

    world_init(&o);
    m = W.a.region;
    base = (uintptr_t)m;
    memset(m, 0, 64);
    /* seq 0, honest: "abcd" at 0, an empty record at 8, "xyz" at 16 */
    rec = (hxb_put_rec_t){.addr = base, .rkey = RKEY_A, .len = 4};
    memcpy(pl + n, &rec, sizeof(rec)); n += sizeof(rec);
    memcpy(pl + n, "abcd", 4); n += 4;
    rec = (hxb_put_rec_t){.addr = base + 8, .rkey = RKEY_A, .len = 0};
    memcpy(pl + n, &rec, sizeof(rec)); n += sizeof(rec);
    rec = (hxb_put_rec_t){.addr = base + 16, .rkey = RKEY_A, .len = 3};
    memcpy(pl + n, &rec, sizeof(rec)); n += sizeof(rec);
    memcpy(pl + n, "xyz", 3); n += 3;
    send_seq_from_b(HXB_K_PUT, HXB_F_AM_BUNDLE, 0, &ext, sizeof(ext), pl, n);
    /* seq 1: a good record, then one claiming 100 bytes with 10 left */
    n = 0;
    rec = (hxb_put_rec_t){.addr = base + 32, .rkey = RKEY_A, .len = 4};
    memcpy(pl + n, &rec, sizeof(rec)); n += sizeof(rec);
    memcpy(pl + n, "EVIL", 4); n += 4;
    rec = (hxb_put_rec_t){.addr = base + 40, .rkey = RKEY_A, .len = 100};
    memcpy(pl + n, &rec, sizeof(rec)); n += sizeof(rec);
    memset(pl + n, 'Z', 10); n += 10;
    len0 = hxb_engine_stats(W.a.e)->drops[HXB_DROP_LEN];
    send_seq_from_b(HXB_K_PUT, HXB_F_AM_BUNDLE, 1, &ext, sizeof(ext), pl, n);
    /* seq 2: five bytes, less than a record header; seq 3: nothing */
    send_seq_from_b(HXB_K_PUT, HXB_F_AM_BUNDLE, 2, &ext, sizeof(ext), pl, 5);
    send_seq_from_b(HXB_K_PUT, HXB_F_AM_BUNDLE, 3, &ext, sizeof(ext), NULL, 0);
    pump_n(200);
    ck_assert(memcmp(m, "abcd", 4) == 0);
    ck_assert(memcmp(m + 16, "xyz", 3) == 0);
    ck_assert_uint_eq(m[32], 0);                       /* the lying bundle's good record */
    ck_assert_uint_eq(m[40], 0);
    ck_assert(side_mem_intact_except(&W.a, 0, 64));
    ck_assert_uint_eq(hxb_engine_stats(W.a.e)->drops[HXB_DROP_LEN], len0 + 2);
    ck_assert_uint_eq(hxb_engine_stats(W.a.e)->drops[HXB_DROP_RKEY], 0);

    /* ATOMIC bundles: two adds without the flag, one and a half with it,
     * then an honest pair; only the pair counts */
    {
        hxb_atomic_ext_t at[2] = {
            {.op = HXB_AOP_ADD, .size = 8, .addr = base + 48, .rkey = RKEY_A, .value = 5},
            {.op = HXB_AOP_ADD, .size = 8, .addr = base + 48, .rkey = RKEY_A, .value = 7}};
        uint64_t v;

        send_seq_from_b(HXB_K_ATOMIC, 0, 4, &at[0], sizeof(at[0]), &at[1], sizeof(at[1]));
        send_seq_from_b(HXB_K_ATOMIC, HXB_F_AM_BUNDLE, 5, &at[0], sizeof(at[0]), &at[1],
                        sizeof(at[1]) / 2);
        send_seq_from_b(HXB_K_ATOMIC, HXB_F_AM_BUNDLE, 6, &at[0], sizeof(at[0]), &at[1],
                        sizeof(at[1]));
        pump_n(200);
        memcpy(&v, m + 48, 8);
        ck_assert_uint_eq(v, 12);
        ck_assert_uint_eq(hxb_engine_stats(W.a.e)->drops[HXB_DROP_LEN], len0 + 4);
        ck_assert_uint_eq(hxb_engine_stats(W.a.e)->atomics_done, 2);
    }
}
END_TEST

/* ------------------------------------------------------------------ */
/* (5) flush                                                          */

static comp_t put_comps[10];
static int flush_saw_all_puts = -1, flush_saw_idle = -1, flush_saw_data = -1;
static const uint8_t *flush_src;

static void flush_hook(comp_t *c)
{
    int i;

    (void)c;
    flush_saw_all_puts = 1;
    for (i = 0; i < 10; i++) {
        if (put_comps[i].count != 1 || put_comps[i].status != 0) {
            flush_saw_all_puts = 0;
        }
    }
    flush_saw_idle = hxb_peer_tx_idle(W.a.peer);
    flush_saw_data = memcmp(W.b.region, flush_src, W.b.region_len) == 0;
}

/* a flush (and a fence, which waits for the same idle state) covers a GET:
 * it completes only after the GET's data has all arrived */
/* An AM issued after a large PUT does not wait for the PUT's frames: a
 * rendezvous reply or FIN must not queue behind megabytes of bulk data.
 * A flush issued after both still waits for the PUT. */
START_TEST(test_am_passes_put)
{
    const size_t n = 4u << 20;
    opts_t o = {.nrails = 2, .csum = 1, .region_len = n};
    uint8_t *src = malloc(n);
    comp_t put = {0}, fl = {0};

    world_init(&o);
    fill_pattern(src, n, 7);
    plan_am_short(&W.a, 1);
    ck_assert_int_eq(hxb_put(W.a.peer, src, n, (uintptr_t)W.b.region, RKEY_B, &put),
                     HXB_INPROGRESS);
    ck_assert_int_eq(send_next(&W.a), 1);
    ck_assert_int_eq(hxb_flush(W.a.peer, &fl), HXB_INPROGRESS);
    PUMP_UNTIL(W.b.am_rcvd == 1);
    ck_assert_int_eq(put.count, 0);
    ck_assert_int_eq(fl.count, 0);
    PUMP_UNTIL(fl.count);
    ASSERT_DONE_ONCE(put, 0);
    ck_assert_uint_lt(put.order, fl.order);
    ck_assert(memcmp(W.b.region, src, n) == 0);
    ck_assert(hxb_peer_tx_idle(W.a.peer));
    free(src);
}
END_TEST

/* B's region goes away (deregistered, invalidated) while A reads it: B
 * stops reading the memory at once - the rest of the read, queued or
 * unacked and resent, comes as a refusal - and A's read completes once,
 * with HXB_E_RKEY, holding no byte written after the release. */
START_TEST(test_region_gone_mid_read)
{
    opts_t o = {.nrails = 4, .faults = FAULTS, .csum = 1, .region_len = BIG};
    uint8_t *dst = malloc(BIG), *good = malloc(BIG);
    comp_t c = {0}, ok = {0};
    size_t i, got = 0;

    o.faults.seed = 53;
    world_init(&o);
    fill_pattern(W.b.region, BIG, 21);
    memcpy(good, W.b.region, BIG);
    memset(dst, 0xab, BIG);
    ck_assert_int_eq(hxb_get(W.a.peer, dst, BIG, (uintptr_t)W.b.region, RKEY_B,
                             &c), HXB_INPROGRESS);
    PUMP_UNTIL(hxb_peer_unacked(W.b.peer) > 0);
    pump_n(5);
    ck_assert_int_eq(c.count, 0);                /* the read is under way */
    ck_assert_uint_gt(hxb_peer_unacked(W.b.peer), 0);
    /* deregistration: the rkey is no longer valid, and the memory's
     * contents change (freed and reused, as far as the engine knows) */
    hxb_engine_region_gone(W.b.e, RKEY_B);
    W.b.rkey = 0;
    memset(W.b.region, 0xee, BIG);
    PUMP_UNTIL(c.count);
    pump_n(2000);
    ASSERT_DONE_ONCE(c, HXB_E_RKEY);
    for (i = 0; i < BIG; i++) {
        ck_assert_msg(dst[i] == good[i] || dst[i] == 0xab,
                      "byte %zu read after the release: 0x%02x", i, dst[i]);
        got += dst[i] == good[i];
    }
    ck_assert_uint_gt(got, 0);                   /* some came before it */
    ck_assert_uint_lt(got, BIG);
    ck_assert_uint_gt(hxb_engine_stats(W.b.e)->resp_revoked, 0);
    ck_assert_int_eq(W.a.peer_failed_calls, 0);
    /* a region registered again (new rkey) is read in full */
    W.b.rkey = RKEY_B + 1;
    memcpy(W.b.region, good, BIG);
    ck_assert_int_eq(hxb_get(W.a.peer, dst, BIG, (uintptr_t)W.b.region,
                             RKEY_B + 1, &ok), HXB_INPROGRESS);
    PUMP_UNTIL(ok.count);
    ck_assert_int_eq(ok.status, 0);
    ck_assert(memcmp(dst, good, BIG) == 0);
    free(dst);
    free(good);
}
END_TEST

/* Another region going away leaves a read under this one alone: the same
 * memory may be registered twice, for two readers. */
START_TEST(test_region_gone_other_rkey)
{
    opts_t o = {.nrails = 4, .faults = FAULTS, .csum = 1, .region_len = BIG};
    uint8_t *dst = malloc(BIG);
    comp_t c = {0};

    o.faults.seed = 59;
    world_init(&o);
    fill_pattern(W.b.region, BIG, 23);
    ck_assert_int_eq(hxb_get(W.a.peer, dst, BIG, (uintptr_t)W.b.region, RKEY_B,
                             &c), HXB_INPROGRESS);
    PUMP_UNTIL(hxb_peer_unacked(W.b.peer) > 0);
    pump_n(5);
    hxb_engine_region_gone(W.b.e, RKEY_B + 1);
    PUMP_UNTIL(c.count);
    pump_n(1000);
    ck_assert_uint_eq(hxb_engine_stats(W.b.e)->resp_revoked, 0);
    ASSERT_DONE_ONCE(c, 0);
    ck_assert(memcmp(dst, W.b.region, BIG) == 0);
    free(dst);
}
END_TEST

START_TEST(test_flush_waits_get)
{
    const size_t n = 2u << 20;
    opts_t o = {.nrails = 3, .csum = 1, .region_len = n};
    uint8_t *dst = malloc(n);
    comp_t get = {0}, fl = {0};

    o.faults.drop_ppm = 20000;
    o.faults.seed = 5;
    world_init(&o);
    ck_assert_int_eq(hxb_get(W.a.peer, dst, n, (uintptr_t)W.b.region, RKEY_B, &get),
                     HXB_INPROGRESS);
    ck_assert_int_eq(hxb_flush(W.a.peer, &fl), HXB_INPROGRESS);
    ck_assert(!hxb_peer_tx_idle(W.a.peer));
    PUMP_UNTIL(fl.count);
    ASSERT_DONE_ONCE(get, 0);
    ck_assert_uint_lt(get.order, fl.order);
    ck_assert(memcmp(dst, W.b.region, n) == 0);
    ck_assert(hxb_peer_tx_idle(W.a.peer));
    free(dst);
}
END_TEST

START_TEST(test_flush)
{
    const size_t n = 1u << 20, chunk = n / 10;
    opts_t o = {.nrails = 2, .faults = FAULTS, .csum = 1, .region_len = n};
    uint8_t *src = malloc(n);
    comp_t fc = {0}, fam = {0};
    int i;

    o.faults.seed = 51;
    world_init(&o);
    fill_pattern(src, n, 19);
    flush_src = src;
    memset(put_comps, 0, sizeof(put_comps));

    /* nothing issued: done at once */
    ck_assert_int_eq(hxb_flush(W.a.peer, &fc), HXB_OK);
    ck_assert_int_eq(fc.count, 0);

    for (i = 0; i < 10; i++) {
        ck_assert_int_eq(hxb_put(W.a.peer, src + i * chunk, i == 9 ? n - 9 * chunk : chunk,
                                 (uintptr_t)W.b.region + i * chunk, RKEY_B,
                                 &put_comps[i]), HXB_INPROGRESS);
    }
    fc.hook = flush_hook;
    ck_assert_int_eq(hxb_flush(W.a.peer, &fc), HXB_INPROGRESS);
    ck_assert_int_eq(hxb_flush(W.a.peer, NULL), HXB_INPROGRESS);
    /* B does not run: nothing can be acknowledged, the flush must wait */
    for (i = 0; i < 3000; i++) {
        hxb_engine_progress(W.a.e);
    }
    ck_assert_int_eq(fc.count, 0);
    ck_assert(!hxb_peer_tx_idle(W.a.peer));
    PUMP_UNTIL(fc.count);
    pump_n(1000);
    ASSERT_DONE_ONCE(fc, 0);
    ck_assert_int_eq(flush_saw_all_puts, 1);
    ck_assert_int_eq(flush_saw_idle, 1);
    ck_assert_int_eq(flush_saw_data, 1);
    for (i = 0; i < 10; i++) {
        ck_assert_uint_lt(put_comps[i].order, fc.order);
    }
    ck_assert_int_eq(hxb_flush(W.a.peer, &fc), HXB_OK);

    /* a flush after active messages: all of them are delivered by then */
    plan_am(&W.a, 300, 0);
    send_all();
    ck_assert_int_eq(hxb_flush(W.a.peer, &fam), HXB_INPROGRESS);
    PUMP_UNTIL(fam.count);
    ck_assert_uint_eq(W.b.am_rcvd, 300);
    pump_n(500);
    ck_assert_int_eq(fam.count, 1);
    ck_assert_uint_eq(W.b.am_rcvd, 300);
    free(src);
}
END_TEST

/* Cancel (a UCT endpoint destroyed or flushed with CANCEL): endpoint X's
 * AM zcopies, PUT, GET and flush, some cut in part and in flight on lossy
 * rails, complete at once with HXB_E_CANCEL, exactly once; their buffers
 * are spoiled right then and must never reach B (a resend goes out as a
 * NOP) nor be written (the GET's answers are dropped). Endpoint Y shares
 * the peer: its operations complete normally, its messages arrive intact
 * and in order, also after the cancel, as do X's messages that arrive at
 * all (whole or not at all: a NOP ends a reassembly it interrupts). */
START_TEST(test_cancel_owner)
{
    const size_t n = 1u << 20, nx = 10, ny = 10, nlate = 5;
    const unsigned long nmsg = nx + ny + nlate;
    opts_t o = {.nrails = 2, .faults = FAULTS, .csum = 1, .region_len = n};
    int ownx, owny, r;
    comp_t cam[25], cpx = {0}, cpy = {0}, cgx = {0}, cfx = {0}, cfy = {0};
    uint8_t *bufs[25], *srcx = malloc(n / 2), *copyx = malloc(n / 2);
    uint8_t *srcy = malloc(n / 4), *dstx = malloc(n / 4), *orig = malloc(n);
    unsigned long k;
    int done[10];
    size_t i;

    o.faults.seed = 61;
    world_init(&o);
    memcpy(orig, W.b.region, n);
    fill_pattern(srcx, n / 2, 23);
    memcpy(copyx, srcx, n / 2);
    fill_pattern(srcy, n / 4, 29);
    memset(dstx, 0x5a, n / 4);
    memset(cam, 0, sizeof(cam));
    W.a.plan_n = nmsg;
    W.a.plan_len = malloc(nmsg * sizeof(size_t));
    W.a.plan_id = malloc(nmsg);
    W.b.lenient = 1;
    W.b.got = calloc(nmsg, 1);
    W.b.ordered_from = nx;
    W.b.last_ordered = -1;
    for (k = 0; k < nmsg; k++) {
        W.a.plan_len[k] = 3000 + (k * 7919) % 60000;   /* 1 to 8 frames at MTU 1500 */
        W.a.plan_id[k] = (uint8_t)(k % 7 + 1);
        bufs[k] = malloc(W.a.plan_len[k]);
        msg_fill(0, k, bufs[k], W.a.plan_len[k]);
        cam[k].poison = bufs[k];
        cam[k].poison_len = W.a.plan_len[k];
    }
    cpx.poison = srcx;
    cpx.poison_len = n / 2;
    /* X and Y interleaved, both on the one engine peer */
    for (k = 0; k < nx + ny; k++) {
        unsigned long m = k / 2 + (k & 1 ? nx : 0);      /* X 0.., Y nx.. */
        hxb_peer_set_owner(W.a.peer, k & 1 ? (void *)&owny : (void *)&ownx);
        r = hxb_am_zcopy(W.a.peer, W.a.plan_id[m], NULL, 0, bufs[m],
                         W.a.plan_len[m], &cam[m]);
        ck_assert_int_eq(r, HXB_INPROGRESS);
        if (k == 6) {
            ck_assert_int_eq(hxb_put(W.a.peer, srcx, n / 2, (uintptr_t)W.b.region,
                                     RKEY_B, &cpx), HXB_INPROGRESS);
        }
        if (k == 7) {
            ck_assert_int_eq(hxb_put(W.a.peer, srcy, n / 4,
                                     (uintptr_t)W.b.region + 3 * n / 4, RKEY_B, &cpy),
                             HXB_INPROGRESS);
        }
        if (k == 8) {
            ck_assert_int_eq(hxb_get(W.a.peer, dstx, n / 4,
                                     (uintptr_t)W.b.region + n / 2, RKEY_B, &cgx),
                             HXB_INPROGRESS);
        }
    }
    hxb_peer_set_owner(W.a.peer, &ownx);
    ck_assert_int_eq(hxb_flush(W.a.peer, &cfx), HXB_INPROGRESS);
    hxb_peer_set_owner(W.a.peer, &owny);
    ck_assert_int_eq(hxb_flush(W.a.peer, &cfy), HXB_INPROGRESS);
    pump_n(8);              /* some frames out, some lost, ops cut in part */
    ck_assert_int_eq(cpx.count, 0);
    ck_assert_int_eq(cgx.count, 0);
    ck_assert_int_eq(cfx.count, 0);
    for (k = 0; k < nx; k++) {
        done[k] = cam[k].count;          /* finished before the cancel */
    }
    ck_assert_int_eq(done[nx - 1], 0);

    hxb_peer_cancel(W.a.peer, &ownx);
    memset(dstx, 0x5a, n / 4);           /* the GET's buffer is ours again */
    for (k = 0; k < nx; k++) {
        ck_assert_msg(cam[k].count == 1, "X message %lu: %d completions", k, cam[k].count);
        ck_assert_int_eq(cam[k].status, done[k] ? 0 : HXB_E_CANCEL);
    }
    ASSERT_DONE_ONCE(cpx, HXB_E_CANCEL);
    ASSERT_DONE_ONCE(cgx, HXB_E_CANCEL);
    ASSERT_DONE_ONCE(cfx, HXB_E_CANCEL);
    for (k = nx; k < nx + ny; k++) {
        ck_assert_msg(cam[k].count == 0 || cam[k].status == 0, "Y message %lu cancelled", k);
    }

    /* Y goes on: more messages after the cancel */
    hxb_peer_set_owner(W.a.peer, &owny);
    for (k = nx + ny; k < nmsg; k++) {
        ck_assert_int_eq(hxb_am_zcopy(W.a.peer, W.a.plan_id[k], NULL, 0, bufs[k],
                                      W.a.plan_len[k], &cam[k]), HXB_INPROGRESS);
    }
    PUMP_UNTIL(cfy.count && cpy.count && cam[nmsg - 1].count &&
               hxb_peer_tx_idle(W.a.peer));
    pump_n(3000);
    for (k = nx; k < nmsg; k++) {
        ck_assert_msg(cam[k].count == 1 && cam[k].status == 0,
                      "Y message %lu: %d completions, status %d", k, cam[k].count,
                      cam[k].status);
        ck_assert_msg(W.b.got[k] == 1, "Y message %lu delivered %d times", k, W.b.got[k]);
    }
    for (k = 0; k < nx; k++) {
        ck_assert_msg(W.b.got[k] <= 1, "X message %lu delivered %d times", k, W.b.got[k]);
        ck_assert_int_eq(cam[k].count, 1);
    }
    ck_assert_int_eq(cpx.count, 1);
    ck_assert_int_eq(cgx.count, 1);
    ck_assert_int_eq(cfx.count, 1);
    ck_assert_int_eq(cpy.status, 0);
    ck_assert_int_eq(cfy.status, 0);
    ck_assert(memcmp(W.b.region + 3 * n / 4, srcy, n / 4) == 0);
    for (i = 0; i < n / 2; i++) {         /* X's PUT: old bytes or its own */
        ck_assert_msg(W.b.region[i] == orig[i] || W.b.region[i] == copyx[i],
                      "B's byte %zu: %#x, a cancelled PUT's buffer read late", i,
                      W.b.region[i]);
    }
    for (i = 0; i < n / 4; i++) {
        ck_assert_msg(dstx[i] == 0x5a, "cancelled GET wrote byte %zu", i);
    }
    ck_assert(memcmp(W.b.region + n / 2, orig + n / 2, n / 4) == 0);
    ck_assert_uint_gt(hxb_engine_stats(W.a.e)->retransmits, 0);
    for (k = 0; k < nmsg; k++) {
        cam[k].poison = NULL;
        free(bufs[k]);
    }
    free(srcx);
    free(copyx);
    free(srcy);
    free(dstx);
    free(orig);
}
END_TEST

/* ------------------------------------------------------------------ */
/* (6) a rail fails during a transfer                                 */

static void rail_fail_transfer(int rail, int blackhole)
{
    const size_t n = 8u << 20, chunk = 128u << 10, nput = n / chunk;
    opts_t o = {.nrails = 4, .csum = 1, .region_len = n};
    uint8_t *src = malloc(n);
    comp_t *c = calloc(nput, sizeof(*c));
    size_t i, done;
    uint64_t tx_before;

    o.faults.drop_ppm = 2000;
    o.faults.seed = 61 + rail;
    world_init(&o);
    fill_pattern(src, n, 23);
    plan_am(&W.a, 400, 0);
    for (i = 0; i < nput; i++) {
        ck_assert_int_eq(hxb_put(W.a.peer, src + i * chunk, chunk,
                                 (uintptr_t)W.b.region + i * chunk, RKEY_B, &c[i]),
                         HXB_INPROGRESS);
    }
    /* let about a quarter complete, with AMs interleaved */
    PUMP_UNTIL((send_next(&W.a), c[nput / 4].count));
    ck_assert_int_eq(c[nput - 1].count, 0);
    if (blackhole) {
        /* frames vanish, but the link looks up: only time tells (the other
         * rails' acks, or timeouts) */
        hxb_mem_faults_t all = {.drop_ppm = 1000000};
        hxb_rail_mem_set_faults(W.ra[rail], &all);
        hxb_rail_mem_set_faults(W.rb[rail], &all);
    } else {
        hxb_rail_mem_set_down(W.ra[rail], 1);
        ck_assert_int_eq(W.ra[rail]->up, 0);
        ck_assert_int_eq(W.rb[rail]->up, 0);
    }
    send_all();
    PUMP_UNTIL(c[nput - 1].count);
    for (done = 0, i = 0; i < nput; i++) {
        ck_assert_msg(c[i].count == 1 && c[i].status == 0,
                      "put %zu: count %d status %d", i, c[i].count, c[i].status);
        done++;
    }
    ck_assert(memcmp(W.b.region, src, n) == 0);
    finish_am();
    ck_assert_int_eq(W.a.peer_failed_calls, 0);
    ck_assert(!hxb_peer_failed(W.a.peer));
    ck_assert_uint_gt(hxb_engine_stats(W.a.e)->retransmits, 0);
    if (blackhole) {
        ck_assert_uint_gt(hxb_engine_stats(W.a.e)->rto_fired +
                          hxb_engine_stats(W.a.e)->rack_retx, 0);
        ck_assert_uint_gt(hxb_engine_stats(W.a.e)->rail_failovers, 0);
    }

    /* the rail comes back and is used again */
    if (blackhole) {
        hxb_mem_faults_t none = {0};
        hxb_rail_mem_set_faults(W.ra[rail], &none);
        hxb_rail_mem_set_faults(W.rb[rail], &none);
    } else {
        hxb_rail_mem_set_down(W.ra[rail], 0);
    }
    tx_before = W.ra[rail]->stats.tx_frames;
    memset(c, 0, nput * sizeof(*c));
    fill_pattern(src, n, 29);
    for (i = 0; i < nput; i++) {
        ck_assert_int_eq(hxb_put(W.a.peer, src + i * chunk, chunk,
                                 (uintptr_t)W.b.region + i * chunk, RKEY_B, &c[i]),
                         HXB_INPROGRESS);
    }
    PUMP_UNTIL(c[nput - 1].count);
    ck_assert(memcmp(W.b.region, src, n) == 0);
    ck_assert_uint_gt(W.ra[rail]->stats.tx_frames, tx_before);
    (void)done;
    free(src);
    free(c);
}

START_TEST(test_rail_down)
{
    rail_fail_transfer(_i, 0);     /* rails 0 and 1 */
}
END_TEST

START_TEST(test_rail_blackhole)
{
    rail_fail_transfer(2, 1);
}
END_TEST

/* ------------------------------------------------------------------ */
/* (7) the peer stops answering                                       */

static void all_rails_down(void)
{
    int i;
    for (i = 0; i < W.nrails; i++) {
        hxb_rail_mem_set_down(W.ra[i], 1);
    }
}

static void check_failed_peer(side_t *s)
{
    comp_t late = {0};
    struct iovec iov = {"x", 1};

    ck_assert_int_eq(s->peer_failed_calls, 1);
    ck_assert_ptr_eq(s->failed_peer, s->peer);
    ck_assert(hxb_peer_failed(s->peer));
    ck_assert_uint_eq(hxb_engine_stats(s->e)->peers_failed, 1);
    ck_assert_int_eq(s->comps_done_at_failure, 1);
    /* new operations are refused at once */
    ck_assert_int_eq(hxb_put(s->peer, "x", 1, 0, 0, &late), -HXB_E_PEER);
    ck_assert_int_eq(hxb_am_send(s->peer, 1, &iov, 1), -HXB_E_PEER);
    ck_assert_int_eq(hxb_flush(s->peer, &late), -HXB_E_PEER);
    pump_n(1000);
    ck_assert_int_eq(late.count, 0);
    ck_assert_int_eq(s->peer_failed_calls, 1);
}

/* operations in flight when every rail goes dark */
START_TEST(test_peer_timeout)
{
    const size_t n = 4u << 20;
    opts_t o = {.nrails = 2, .csum = 1, .region_len = n, .peer_timeout = 0.2};
    uint8_t *src = malloc(n), *dst = malloc(n);
    comp_t put = {0}, get = {0}, zc = {0}, fl = {0};
    static uint8_t zdata[5000];

    world_init(&o);
    start_put_get(src, dst, n, 31, &put, &get);
    /* the flush waits for the PUT before it, and the AM behind the flush
     * with it (an AM alone would pass the PUT) */
    ck_assert_int_eq(hxb_flush(W.a.peer, &fl), HXB_INPROGRESS);
    ck_assert_int_eq(hxb_am_zcopy(W.a.peer, 3, "hdr", 3, zdata, sizeof(zdata), &zc),
                     HXB_INPROGRESS);
    W.a.watch[0] = &put;
    W.a.watch[1] = &get;
    W.a.watch[2] = &zc;
    W.a.watch[3] = &fl;
    pump_n(3);
    ck_assert_int_eq(put.count, 0);
    all_rails_down();
    PUMP_UNTIL(W.a.peer_failed_calls > 0);
    ASSERT_DONE_ONCE(put, HXB_E_PEER);
    ASSERT_DONE_ONCE(get, HXB_E_PEER);
    ASSERT_DONE_ONCE(zc, HXB_E_PEER);
    ASSERT_DONE_ONCE(fl, HXB_E_PEER);
    check_failed_peer(&W.a);
    ck_assert_int_eq(put.count + get.count + zc.count + fl.count, 4);
    free(src);
    free(dst);
}
END_TEST

/* operations issued after every rail went dark: nothing ever leaves */
START_TEST(test_peer_timeout_nothing_sent)
{
    opts_t o = {.nrails = 2, .csum = 1, .peer_timeout = 0.2};
    comp_t put = {0};
    static uint8_t data[3000];

    world_init(&o);
    all_rails_down();
    W.a.watch[0] = &put;
    ck_assert_int_eq(hxb_put(W.a.peer, data, sizeof(data), 0x1000, 1, &put),
                     HXB_INPROGRESS);
    PUMP_UNTIL(W.a.peer_failed_calls > 0);
    ASSERT_DONE_ONCE(put, HXB_E_PEER);
    check_failed_peer(&W.a);
}
END_TEST

/* only a GET is pending (its request was acknowledged) when the responder
 * goes silent: the reader must still give up */
START_TEST(test_peer_timeout_get_pending)
{
    const size_t n = 4u << 20;
    opts_t o = {.nrails = 2, .csum = 1, .region_len = n, .peer_timeout = 0.2};
    uint8_t *dst = malloc(n);
    comp_t get = {0};

    world_init(&o);
    ck_assert_int_eq(hxb_get(W.a.peer, dst, n, (uintptr_t)W.b.region, RKEY_B, &get),
                     HXB_INPROGRESS);
    W.a.watch[0] = &get;
    PUMP_UNTIL(hxb_peer_unacked(W.a.peer) == 0);   /* request acknowledged */
    ck_assert_int_eq(get.count, 0);
    all_rails_down();
    PUMP_UNTIL(W.a.peer_failed_calls > 0);
    ASSERT_DONE_ONCE(get, HXB_E_PEER);
    check_failed_peer(&W.a);
    /* the responder gave up on its side too */
    PUMP_UNTIL(W.b.peer_failed_calls > 0);
    free(dst);
}
END_TEST

/* a peer that was merely idle for longer than peer_timeout is fine */
START_TEST(test_peer_idle_not_failed)
{
    opts_t o = {.nrails = 2, .csum = 1, .peer_timeout = 0.2};
    comp_t fl = {0};
    int r;

    world_init(&o);
    plan_am(&W.a, 20, 0);
    W.a.plan_n = 10;                /* first half now, second after a pause */
    send_all();
    PUMP_UNTIL(W.b.am_rcvd == 10);
    r = hxb_flush(W.a.peer, &fl);
    if (r == HXB_INPROGRESS) {
        PUMP_UNTIL(fl.count);
    }
    pump_for(0.5);                  /* idle, more than peer_timeout */
    W.a.plan_n = 20;
    send_all();
    PUMP_UNTIL(W.b.am_rcvd == 20);
    pump_for(0.05);
    ck_assert_int_eq(W.a.peer_failed_calls, 0);
    ck_assert_int_eq(W.b.peer_failed_calls, 0);
    ck_assert(!hxb_peer_failed(W.a.peer));
    finish_am();
}
END_TEST

/* ------------------------------------------------------------------ */
/* (8) foreign job key                                                */

START_TEST(test_foreign_key)
{
    opts_t o = {.nrails = 2, .csum = 1, .key_b = KEY_OTHER, .region_len = 65536};
    const hxb_engine_stats_t *sa, *sb;
    comp_t put = {0};
    uint8_t src[5000];

    world_init(&o);
    fill_pattern(src, sizeof(src), 37);
    plan_am(&W.a, 20, 0);
    plan_am(&W.b, 20, 0);
    send_all();
    ck_assert_int_eq(hxb_put(W.a.peer, src, sizeof(src), (uintptr_t)W.b.region,
                             RKEY_B, &put), HXB_INPROGRESS);
    sa = hxb_engine_stats(W.a.e);
    sb = hxb_engine_stats(W.b.e);
    PUMP_UNTIL(sb->drops[HXB_DROP_KEY] >= 25 && sa->drops[HXB_DROP_KEY] >= 20);
    pump_n(2000);
    ck_assert_uint_eq(W.b.am_rcvd, 0);
    ck_assert_uint_eq(W.a.am_rcvd, 0);
    ck_assert_uint_eq(sb->rx_frames, 0);
    ck_assert_uint_eq(sa->rx_frames, 0);
    ck_assert_uint_eq(sb->acks_rcvd + sa->acks_rcvd, 0);
    ck_assert(side_mem_intact_except(&W.b, 0, 0));
    ck_assert_int_eq(put.count, 0);
    ck_assert(!hxb_peer_tx_idle(W.a.peer));
}
END_TEST

/* ------------------------------------------------------------------ */
/* (9) duplicates                                                     */

START_TEST(test_duplicates)
{
    const size_t n = 1u << 20;
    opts_t o = {.nrails = 2, .csum = 1, .region_len = n};
    const hxb_engine_stats_t *sa, *sb;
    uint8_t *src = malloc(n);
    comp_t put = {0};

    o.faults.dup_ppm = 1000000;          /* every frame arrives twice */
    o.faults.seed = 91;
    world_init(&o);
    fill_pattern(src, n, 41);
    plan_am(&W.a, 500, 1);
    send_all();
    ck_assert_int_eq(hxb_put(W.a.peer, src, n, (uintptr_t)W.b.region, RKEY_B, &put),
                     HXB_INPROGRESS);
    finish_am();
    PUMP_UNTIL(put.count);
    pump_n(1000);
    ASSERT_DONE_ONCE(put, 0);
    ck_assert(memcmp(W.b.region, src, n) == 0);
    sa = hxb_engine_stats(W.a.e);
    sb = hxb_engine_stats(W.b.e);
    /* every copy of a sequenced frame after the first is counted: each
     * transmission arrives twice, each sequence number is used once */
    ck_assert_uint_gt(sb->drops[HXB_DROP_DUP], 0);
    ck_assert_uint_eq(sb->drops[HXB_DROP_DUP], sa->tx_frames + sa->retransmits);
    free(src);
}
END_TEST

START_TEST(test_duplicates_some)
{
    opts_t o = {.nrails = 4, .csum = 1};

    o.faults.dup_ppm = 10000;
    o.faults.seed = 93;
    run_am(&o, 1000, 0, 0);
    ck_assert_uint_gt(hxb_engine_stats(W.b.e)->drops[HXB_DROP_DUP], 0);
}
END_TEST

/* ------------------------------------------------------------------ */

static Suite *engine_suite(void)
{
    Suite *s = suite_create("engine");
    TCase *tc;

    tc = tcase_create("am");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_set_timeout(tc, 120);
    /* HXB_TEST_SEEDS=N runs the fault test with N seeds (stress runs) */
    tcase_add_loop_test(tc, test_am_faults, 0,
                        getenv("HXB_TEST_SEEDS") ? atoi(getenv("HXB_TEST_SEEDS")) : 2);
    tcase_add_test(tc, test_am_bidirectional);
    tcase_add_test(tc, test_am_bundles);
    tcase_add_test(tc, test_am_one_rail_clean);
    tcase_add_test(tc, test_lanes_overtake);
    tcase_add_test(tc, test_burst_waits_for_room);
    tcase_add_test(tc, test_path_delay);
    tcase_add_test(tc, test_path_delay_both_ways);
    tcase_add_test(tc, test_rail_queue_backoff);
    tcase_add_test(tc, test_path_window);
    tcase_add_test(tc, test_path_window_undo);
    tcase_add_test(tc, test_am_small_window);
    tcase_add_test(tc, test_am_fast_retransmit);
    tcase_add_test(tc, test_stale_epoch);
    tcase_add_test(tc, test_am_rail_blackhole_no_rto);
    tcase_add_test(tc, test_ack_rail_oneway);
    tcase_add_test(tc, test_post_gap_not_resent);
    tcase_add_test(tc, test_busy_peer_waited_for);
    tcase_add_test(tc, test_busy_unknown_sender);
    tcase_add_test(tc, test_busy_armed_not_asleep);
    tcase_add_loop_test(tc, test_sleeping_caller, 0, 2);
    tcase_add_test(tc, test_sleeping_lost_frame);
    suite_add_tcase(s, tc);

    tc = tcase_create("rma");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_put_faults);
    tcase_add_test(tc, test_get_faults);
    tcase_add_test(tc, test_put_get_bidirectional);
    tcase_add_test(tc, test_rkey_refused);
    tcase_add_test(tc, test_put_bundles);
    tcase_add_test(tc, test_put_order);
    tcase_add_test(tc, test_err_before_last_frame);
    tcase_add_test(tc, test_atomics);
    tcase_add_test(tc, test_atomic_cancel);
    tcase_add_test(tc, test_put_bundle_malformed);
    tcase_add_test(tc, test_region_gone_mid_read);
    tcase_add_test(tc, test_region_gone_other_rkey);
    tcase_add_test(tc, test_flush);
    tcase_add_test(tc, test_am_passes_put);
    tcase_add_test(tc, test_flush_waits_get);
    suite_add_tcase(s, tc);

    tc = tcase_create("failures");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_rail_down, 0, 2);
    tcase_add_test(tc, test_rail_blackhole);
    tcase_add_test(tc, test_peer_timeout);
    tcase_add_test(tc, test_peer_timeout_nothing_sent);
    tcase_add_test(tc, test_peer_timeout_get_pending);
    tcase_add_test(tc, test_peer_idle_not_failed);
    tcase_add_test(tc, test_foreign_key);
    tcase_add_test(tc, test_duplicates);
    tcase_add_test(tc, test_cancel_owner);
    tcase_add_test(tc, test_restart_deferred);
    tcase_add_test(tc, test_duplicates_some);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(engine_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
