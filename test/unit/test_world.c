/* The shared fixture of the engine tests (test_world.h): two engines A and
 * B in one process, joined by in-memory rail pairs with seeded faults
 * (test/support/hxb_rail_mem.c), pumped by hand, on the real or the
 * virtual clock (built twice: libtest_world.la, libtest_world_vclock.la). */
#include "test_world.h"
#include "hxb_short.h"

#include <stdio.h>
#include <time.h>

#ifdef HXB_VIRTUAL_CLOCK
/* the *_vclock programs: the same tests with the engine on a virtual clock
 * (hxb_clock.h) that moves VSTEP per pump, as if every progress pass took
 * that long: timings no longer depend on how much CPU this process gets
 * (a loaded host, valgrind), and a failure replays exactly */
#define VSTEP 10e-6
double hxb_virtual_now = 1000.0;
double now_sec(void) { return hxb_virtual_now; }
void tick(void) { hxb_virtual_now += VSTEP; }
#else
double now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
void tick(void) {}
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

world_t W;

/* bytes of AM message k sent in direction dir */
void msg_fill(unsigned dir, unsigned long k, uint8_t *buf, size_t len)
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
int side_mem_intact_except(const side_t *s, size_t off, size_t len)
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

void world_init(const opts_t *o)
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
    ca.send_at_once = !o->held;
    ca.lazy_acks = !o->prompt_acks;
    if (o->train_cost) {
        ca.train_cost = o->train_cost < 0 ? 0 : o->train_cost;
    }
    cb = ca;
    ca.frame_cap = o->a_frame_cap;
    ca.node_id = NODE_A;
    ca.proc_id = PROC_A;
    ca.epoch = EPOCH_A;
    cb.node_id = NODE_B;
    cb.proc_id = PROC_B;
    cb.epoch = o->b_epoch ? o->b_epoch : EPOCH_B;
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
        if (o->rail_speed > 0) {
            W.ra[i]->speed = W.rb[i]->speed = o->rail_speed;
        }
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

void teardown(void)
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
void (*pump_hook)(void);

void pump(void)
{
    hxb_engine_progress(W.a.e);
    hxb_engine_progress(W.b.e);
    tick();
    pumps++;
    if (pump_hook) {
        pump_hook();
    }
}

/* pump for a while of real time (bounded by itself) */
void pump_for(double sec)
{
    double end = now_sec() + sec;
    while (now_sec() < end) {
        pump();
    }
}

void pump_n(unsigned long n)
{
    while (n--) {
        pump();
    }
}

/* ---- AM plans ---- */

void plan_am(side_t *s, unsigned long n, int zcopy)
{
    size_t max = hxb_engine_cfg(s->e)->max_msg, frag = hxb_engine_frag_size(s->e);
    size_t whole = hxb_engine_am_whole(s->e, max);   /* full frames, short after the first */
    const size_t special[] = {0, 1, 15, 16, 17, HXB_AM_INLINE, HXB_AM_INLINE + 1,
                              frag - 1, frag, frag + 1, 2 * frag, max - 1, max,
                              whole - 1, whole, whole + 1};
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
void plan_am_short(side_t *s, unsigned long n)
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
int send_next(side_t *s)
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
void send_all(void)
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
void finish_am(void)
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
void run_am(const opts_t *o, unsigned long na, unsigned long nb, int zcopy)
{
    world_init(o);
    plan_am(&W.a, na, zcopy);
    if (nb) {
        plan_am(&W.b, nb, zcopy);
    }
    send_all();
    finish_am();
}

const hxb_mem_faults_t FAULTS = {
    .drop_ppm = 20000, .dup_ppm = 10000, .reorder_ppm = 10000,
    .corrupt_ppm = 5000, .seed = 1,
};

/* ---- frames forged as B would send them ---- */

/* a frame as B's engine makes it to A (untagged), into f of size bytes */
static void b_frame(uint8_t *f, size_t size, unsigned kind, unsigned flags, uint32_t seq,
                    uint32_t src_epoch, const void *ext, size_t ext_len, const void *pl,
                    size_t pl_len)
{
    hxb_hdr_t *h = (hxb_hdr_t *)f;

    ck_assert_uint_le(sizeof(*h) + ext_len + pl_len, size);
    memset(h, 0, sizeof(*h));
    h->version = HXB_VERSION;
    h->kind = (uint8_t)kind;
    h->flags = (uint8_t)flags;
    h->hops = HXB_HOPS_MAX;
    h->len = (uint16_t)(ext_len + pl_len);
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
}

/* a frame as B would send it to A (run src_epoch), forged and pushed into
 * A's first rail: kind, flags, seq, extension and payload as given */
void send_from_b(unsigned kind, unsigned flags, uint32_t seq, uint32_t src_epoch,
                        const void *ext, size_t ext_len, const void *pl, size_t pl_len)
{
    uint8_t f[2048] = {0};
    hxb_hdr_t *h = (hxb_hdr_t *)f;
    hxb_raddr_t to = {0};
    struct iovec iov = {f, sizeof(*h) + ext_len + pl_len};

    b_frame(f, sizeof(f), kind, flags, seq, src_epoch, ext, ext_len, pl, pl_len);
    {
        /* tagged as B's engine would: header authentication under the key
         * both derive from the job key (no secret given) */
        hxb_auth_t auth = {.mode = HXB_AUTH_HEADER, .job_key = KEY_A};
        struct iovec body = {f + sizeof(*h), ext_len + pl_len};
        uint64_t key = KEY_A;

        hxb_auth_derive(&key, sizeof(key), auth.key);
        h->tag = hxb_frame_tag(&auth, h, &body, 1);
    }
    ck_assert_int_eq(W.rb[0]->ops->send(W.rb[0], &to, &iov, 1), 0);
    W.rb[0]->ops->flush(W.rb[0]);
}

void send_short_from_b(unsigned kind, unsigned flags, unsigned am_id, uint32_t seq,
                       uint32_t src_epoch, uint64_t key, const void *ext,
                       size_t ext_len, const void *pl, size_t pl_len)
{
    uint8_t f[2048] = {0}, sh[HXB_SHORT_MAX];
    hxb_hdr_t *h = (hxb_hdr_t *)f;
    hxb_raddr_t to = {0};
    hxb_auth_t auth = {.mode = HXB_AUTH_HEADER, .job_key = key};
    struct iovec iov[2];
    size_t n;

    b_frame(f, sizeof(f), kind, flags | HXB_F_SEQ, seq, src_epoch, ext, ext_len, pl, pl_len);
    if (kind == HXB_K_AM) {
        ((hxb_am_ext_t *)(h + 1))->am_id = (uint8_t)am_id;
    }
    n = hxb_short_len(h);
    ck_assert_uint_gt(n, 0);
    hxb_auth_derive(&key, sizeof(key), auth.key);
    hxb_short_pack(h, sh);
    {
        hxb_short_ctx_t ctx = {NODE_A, PROC_A, src_epoch, EPOCH_A};
        struct iovec pl = {f + sizeof(*h) + ext_len, pl_len};
        uint64_t tag = hxb_short_tag(&auth, sh, n, &ctx, &pl, 1);
        memcpy(sh + offsetof(hxb_short_hdr_t, tag), &tag, sizeof(tag));
    }
    iov[0].iov_base = sh;
    iov[0].iov_len = n;
    iov[1].iov_base = f + sizeof(*h) + ext_len;
    iov[1].iov_len = pl_len;
    ck_assert_int_eq(W.rb[0]->ops->send(W.rb[0], &to, iov, 2), 0);
    W.rb[0]->ops->flush(W.rb[0]);
}

/* B's seq-th sequenced frame, of its current run */
void send_seq_from_b(unsigned kind, unsigned flags, uint32_t seq, const void *ext,
                            size_t ext_len, const void *pl, size_t pl_len)
{
    send_from_b(kind, flags | HXB_F_SEQ, seq, EPOCH_B, ext, ext_len, pl, pl_len);
}

void send_ping_from_b(uint32_t src_epoch)
{
    hxb_ping_ext_t ping = {0};

    send_from_b(HXB_K_PING, 0, 0, src_epoch, &ping, sizeof(ping), NULL, 0);
}

/* an ACK frame from B acknowledging A's frames below cum */
void send_ack_from_b(uint32_t cum)
{
    hxb_ack_ext_t a = {.cum = cum, .hold_us = HXB_HOLD_NONE};

    send_from_b(HXB_K_ACK, 0, 0, EPOCH_B, &a, sizeof(a), NULL, 0);
}

/* ---- verification ---- */

void fill_pattern(uint8_t *p, size_t len, unsigned salt)
{
    size_t i;
    for (i = 0; i < len; i++) {
        p[i] = (uint8_t)((i >> 3) * 7 + i * salt + (i >> 16));
    }
}

/* a test case of the usual kind: world torn down after each test, 120 s */
TCase *world_tcase(Suite *s, const char *name)
{
    TCase *tc = tcase_create(name);

    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return tc;
}

/* run every test of s; the exit status for make check */
int world_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
