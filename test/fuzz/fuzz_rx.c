/* Fuzz target: the engine's receive path against frames nobody checked.
 *
 * Two engines, A and B, joined by two in-memory rails, run a script read
 * from the input: B and A exchange real active messages, puts and gets
 * (so A has windows, reorder slots, reads and regions a forged frame can
 * hit), and forged frames are pushed into A's rails as if B had sent them.
 * A forged frame's fields are taken from the input; a fix-up byte decides
 * which of them are made right first (version, key, addresses, epochs,
 * length, checksum), so the fuzzer gets past validation as often as it
 * fails it. Whatever arrives, A must not read or write outside what it
 * owns (AddressSanitizer), must not hand an active message that overruns
 * its buffer to the user, and must free everything on destroy (LeakSanitizer).
 *
 * Built two ways: with clang -fsanitize=fuzzer as a libFuzzer target
 * (test/fuzz/run-fuzz), and with fuzz_replay.c as a plain program that
 * make check runs over the committed corpus (test/fuzz/corpus/rx). */
#include "hxb_engine.h"
#include "hxb_rail_mem.h"
#include "hxb_rail.h"
#include "hxb_short.h"
#include "hxb_wire.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#define KEY     0x6878622d66757a7aull
#define NODE_A  1
#define PROC_A  0
#define NODE_B  2
#define PROC_B  3
#define EPOCH_A 0x0a0a0a0au
#define EPOCH_B 0x0b0b0b0bu
#define RKEY_A  0x1111222233334444ull
#define RKEY_B  0x5555666677778888ull
#define REGION  (64 * 1024)
#define MTU     1500
#define NRAILS  2
#define STEPS   96              /* actions per input at most */
#define PASS_US 20              /* virtual time a progress pass takes */

double hxb_virtual_now = 1000.0;  /* hxb_clock.h, built with HXB_VIRTUAL_CLOCK */

typedef struct side {
    hxb_engine_t *e;
    hxb_peer_t   *peer;
    uint8_t      *region;       /* registered, REGION bytes, rkey RKEY_x */
    uint64_t      rkey;
    unsigned long am_bytes, completions;
} side_t;

typedef struct cursor {
    const uint8_t *p;
    size_t         left;
} cursor_t;

static unsigned take(cursor_t *c, unsigned bytes)
{
    unsigned v = 0;

    while (bytes--) {
        v <<= 8;
        if (c->left) {
            v |= *c->p++;
            c->left--;
        }
    }
    return v;
}

static void cb_am(void *arg, hxb_peer_t *peer, unsigned am_id, void *data, size_t len)
{
    side_t *s = arg;
    const volatile uint8_t *d = data;
    uint8_t x = 0;
    size_t i;

    (void)peer;
    (void)am_id;
    for (i = 0; i < len; i++) {     /* the sanitizer checks every byte */
        x ^= d[i];
    }
    s->am_bytes += len + x;
}

static void cb_complete(void *arg, void *comp, int status)
{
    (void)comp;
    (void)status;
    ((side_t *)arg)->completions++;
}

static int cb_mem_check(void *arg, uint64_t addr, uint64_t rkey, size_t len, int write)
{
    side_t *s = arg;
    uint64_t base = (uintptr_t)s->region;

    (void)write;
    return !(rkey == s->rkey && addr >= base && len <= REGION &&
             addr - base <= REGION - len);
}

static void cb_peer_failed(void *arg, hxb_peer_t *peer)
{
    (void)arg;
    (void)peer;
}

#define MAX_MSG (48 * 1024)

/* bcopy's contract: at most max_msg bytes */
static size_t pack_pattern(void *dest, void *arg)
{
    size_t len = *(size_t *)arg;

    if (len > MAX_MSG) {
        len = MAX_MSG;
    }
    memset(dest, 0x5a, len);
    return len;
}

/* a frame from the input into A's rail r, as if B had sent it */
static void forge(cursor_t *c, hxb_rail_t **rb, const hxb_engine_cfg_t *cfg,
                  const side_t *a)
{
    uint8_t frame[MTU];
    hxb_hdr_t *h = (hxb_hdr_t *)frame;
    unsigned fix = take(c, 1), rb_byte = take(c, 1), r = rb_byte % NRAILS;
    unsigned fix2 = rb_byte & 0x80 ? take(c, 1) : 0;   /* more fix-ups */
    size_t len = take(c, 2) % (MTU + 1), i;
    struct iovec iov = {frame, 0};
    hxb_raddr_t to = {{0}, 0, 0};

    for (i = 0; i < len; i++) {
        frame[i] = (uint8_t)take(c, 1);
    }
    iov.iov_len = len;
    if (len >= sizeof(*h)) {
        if (fix & 0x01) h->version = HXB_VERSION;
        if (fix & 0x02) h->tag = cfg->job_key;   /* authentication off */
        if (fix & 0x04) {
            h->src_node = NODE_B;
            h->src_proc = PROC_B;
            h->dst_node = NODE_A;
            h->dst_proc = PROC_A;
        }
        if (fix & 0x08) {
            h->dst_epoch = EPOCH_A;
            if (!(fix2 & 0x08)) {   /* else B restarted, or an old B */
                h->src_epoch = EPOCH_B;
            }
        }
        if (fix & 0x10) h->kind = (uint8_t)(h->kind % HXB_K_MAX);
        if (fix & 0x20) h->len = (uint16_t)(len - sizeof(*h));
        if (fix & 0x40) h->hops = HXB_HOPS_MAX;
        /* A's region is somewhere on the heap: aim PUTs and reads at it */
        if ((fix2 & 0x01) && len >= sizeof(*h) + sizeof(hxb_put_ext_t) &&
            (h->kind == HXB_K_PUT || h->kind == HXB_K_GET_REQ)) {
            hxb_put_ext_t *x = (hxb_put_ext_t *)(h + 1);   /* GET_REQ starts alike */
            uint64_t off = x->addr % (REGION + 64);      /* sometimes past its end */
            x->addr = (uintptr_t)a->region + off;
            x->rkey = a->rkey;
        }
        if (fix2 & 0x02) h->flags |= HXB_F_SEQ;
        if (fix2 & 0x04) h->ack = 0;
        h->csum = 0;
        if (fix & 0x80) {
            struct iovec body = {h + 1, len - sizeof(*h)};
            h->flags |= HXB_F_CSUM;
            h->csum = hxb_frame_csum(h, &body, 1);
        }
    }
    /* a short frame (PROTOCOL.md 3.1), rebuilt by A where the rail has
     * room (setup bit 4), refused where it has not */
    if ((fix2 & 0x10) && len >= sizeof(hxb_short_hdr_t)) {
        static const uint8_t kinds[3] = {HXB_K_AM, HXB_K_PUT, HXB_K_GET_RESP};
        hxb_short_hdr_t *s = (hxb_short_hdr_t *)frame;

        s->version = HXB_VERSION_SHORT;
        if (fix & 0x10) s->kind = kinds[s->kind % 3];
        if (fix & 0x04) {
            s->src_node = NODE_B;
            s->src_proc = PROC_B;
        }
        if (fix & 0x02) s->tag = cfg->job_key;
        if (fix2 & 0x02) s->flags |= HXB_F_SEQ;
        if (fix2 & 0x20) s->flags &= (uint8_t)~(HXB_F_CSUM | HXB_F_AM_FIRST | HXB_F_AM_BUNDLE);
    }
    if (rb[r]->ops->send(rb[r], &to, &iov, 1) == 0) {
        rb[r]->ops->flush(rb[r]);
    }
}

static void progress(side_t *a, side_t *b, unsigned n)
{
    while (n--) {
        hxb_engine_progress(a->e);
        hxb_engine_progress(b->e);
        (void)hxb_engine_wake_at(a->e);     /* what a sleeping caller asks */
        hxb_virtual_now += PASS_US * 1e-6;
    }
}

/* an operation of `from` towards `to`, sized by the input */
static void operate(cursor_t *c, side_t *from, side_t *to, uint8_t *src)
{
    unsigned op = take(c, 1) % 6;
    size_t len = take(c, 3) % (3 * REGION / 2), off = take(c, 2) % REGION;
    size_t fit = len > REGION - off ? REGION - off : len;
    uint64_t raddr = (uintptr_t)to->region + off;
    uint64_t rkey = take(c, 1) == 0xff ? 0xbad : to->rkey;  /* sometimes refused */
    struct iovec iov = {src, len > REGION ? REGION : len};

    switch (op) {
    case 0:
        hxb_am_send(from->peer, op, &iov, 1);
        break;
    case 1:
        hxb_am_bcopy(from->peer, 7, pack_pattern, &iov.iov_len);
        break;
    case 2:
        hxb_put(from->peer, src, fit, raddr, rkey, from);
        break;
    case 3:
        hxb_get(from->peer, from->region + (REGION - fit), fit, raddr, rkey, from);
        break;
    case 4:
        hxb_am_zcopy(from->peer, 9, src, take(c, 1), src, len > REGION ? REGION : len, from);
        break;
    default:
        hxb_flush(from->peer, from);
        break;
    }
}

static int side_init(side_t *s, const hxb_engine_cfg_t *cfg, uint64_t rkey)
{
    hxb_callbacks_t cb = {0};

    memset(s, 0, sizeof(*s));
    s->rkey = rkey;
    s->region = calloc(1, REGION);
    cb.arg = s;
    cb.am = cb_am;
    cb.complete = cb_complete;
    cb.mem_check = cb_mem_check;
    cb.peer_failed = cb_peer_failed;
    return s->region && hxb_engine_create(cfg, &cb, &s->e) == 0 ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cursor_t c = {data, size};
    hxb_engine_cfg_t ca, cb;
    hxb_rail_t *ra[NRAILS], *rb[NRAILS];
    hxb_raddr_t addrs[HXB_MAX_RAILS];
    side_t a, b;
    uint8_t *src = malloc(REGION);
    hxb_mem_faults_t faults = {0};
    unsigned step, i, setup;

    if (!src) {
        return 0;
    }
    hxb_virtual_now = 1000.0;
    memset(src, 0xa5, REGION);
    hxb_engine_cfg_default(&ca);
    ca.job_key = KEY;
    /* the tag is the job key: the fuzzer reaches what comes after the
     * tag check (test_wire tests the check itself) */
    ca.auth = HXB_AUTH_OFF;
    setup = take(&c, 1);
    ca.csum = setup & 1 ? HXB_CSUM_ALL : HXB_CSUM_NONE;
    if (setup & 2) {            /* two lanes per rail, as dual rails have */
        faults.lane_min = 600;
        faults.lane_us = 50;
    }
    faults.udp = (setup & 4) != 0;  /* rails that carry short frames */
    ca.window = 64;
    ca.max_msg = MAX_MSG;
    cb = ca;
    ca.node_id = NODE_A;
    ca.proc_id = PROC_A;
    ca.epoch = EPOCH_A;
    cb.node_id = NODE_B;
    cb.proc_id = PROC_B;
    cb.epoch = EPOCH_B;
    if (side_init(&a, &ca, RKEY_A) || side_init(&b, &cb, RKEY_B)) {
        abort();
    }
    for (i = 0; i < NRAILS; i++) {
        if (hxb_rail_mem_pair(MTU, &faults, &ra[i], &rb[i]) ||
            hxb_engine_add_rail(a.e, ra[i]) || hxb_engine_add_rail(b.e, rb[i])) {
            abort();
        }
    }
    memset(addrs, 0, sizeof(addrs));
    a.peer = hxb_peer_get(a.e, NODE_B, PROC_B, EPOCH_B, addrs, (1u << NRAILS) - 1);
    b.peer = hxb_peer_get(b.e, NODE_A, PROC_A, EPOCH_A, addrs, (1u << NRAILS) - 1);
    if (!a.peer || !b.peer) {
        abort();
    }
    for (step = 0; step < STEPS && c.left; step++) {
        switch (take(&c, 1) % 8) {
        case 0: case 1: case 2:
            forge(&c, rb, &cb, &a);
            progress(&a, &b, 1);
            break;
        case 3: case 4:
            operate(&c, &b, &a, src);
            break;
        case 5:
            operate(&c, &a, &b, src);
            break;
        case 6:
            progress(&a, &b, 1 + take(&c, 1) % 16);
            break;
        default:    /* both off the CPU for up to 65 s: timeouts, probes,
                     * peer failure */
            hxb_virtual_now += take(&c, 2) * 1e-3;
            progress(&a, &b, 1);
            break;
        }
    }
    progress(&a, &b, 32);
    /* A destroyed with operations and frames outstanding: nothing may leak */
    hxb_peer_put_ref(a.peer);
    hxb_peer_put_ref(b.peer);
    hxb_engine_destroy(a.e);
    hxb_engine_destroy(b.e);
    free(a.region);
    free(b.region);
    free(src);
    return 0;
}
