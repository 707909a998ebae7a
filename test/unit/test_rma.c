/* RMA: PUT and GET of several MiB under faults, PUT bundles (and malformed
 * ones), the order of one-frame puts, atomics, rkeys and bounds refused,
 * regions going away mid-read, and flush. */
#include "test_world.h"

#define BIG (6u << 20)

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

/* Puts of one frame land in the order they were issued, though striped
 * over four rails that reorder, lose and duplicate frames: 2000 puts to the
 * same word (by copy, then zero-copy), each in its own frame, leave the
 * last value there, as ucx_perftest's put_bw expects of its sentinel. */
START_TEST(test_put_order)
{
    enum { N = 2000 };
    opts_t o = {.nrails = 4, .faults = FAULTS, .csum = 1, .region_len = 4096};
    uint64_t *vals = malloc(N * sizeof(*vals)), v, v0, seen = 0;
    comp_t *c = calloc(N, sizeof(*c)), fl = {0};
    int i, r;

    o.faults.seed = 77;
    world_init(&o);
    memcpy(&v0, W.b.region, 8);   /* the region's initial pattern, until a put lands */
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
        if (v == v0 && seen == 0) {
            continue;         /* nothing landed yet (the first puts were lost) */
        }
        ck_assert_msg(v >= seen && v <= (uint64_t)i + 1, "put %lu landed after put %lu (%d issued)",
                      (unsigned long)v, (unsigned long)seen, i + 1);
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
    unsigned long dropped;
    long r;
    int i;

    o.faults.seed = 17;
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
    for (i = 0, dropped = 0; i < o.nrails; i++) {
        dropped += hxb_rail_mem_dropped_seq(W.ra[i]);
    }
    ck_assert_uint_gt(dropped, 0);   /* the seed lost data: recovery was tested */
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
    /* a refused post is reported by an ERR frame, which is best effort
     * (PROTOCOL.md 8.12): asserted on clean rails, since a lost ERR leaves
     * the flush a success (seen once in make check under the faults) */
    for (i = 0; i < o.nrails; i++) {
        const hxb_mem_faults_t none = {0};

        hxb_rail_mem_set_faults(W.ra[i], &none);
        hxb_rail_mem_set_faults(W.rb[i], &none);
    }
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

/* a flush (and a fence, which waits for the same idle state) covers a GET:
 * it completes only after the GET's data has all arrived */
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

#ifdef HXB_VIRTUAL_CLOCK
/* A put striped over rails completes (its sender learns that it arrived)
 * about a round trip after its last frame lands, whichever rail brought
 * the frame that ended the burst. Rails 1-3 deliver 200 us late, rail 0 at
 * once: for some sizes the burst's last frame (the one without MORE) comes
 * first and the frames still on rails 1-3, all with MORE, land after it.
 * Their ack used to wait for B's ack delay at the slack (2 ms): ob1's
 * rendezvous by puts took 1.5 ms per 48 KB message at MTU 1500. Virtual
 * clock: the time is the engines' own behaviour, not the host's speed. */
START_TEST(test_put_acked_when_late_rails_land)
{
    opts_t o = {.nrails = 4, .mtu = 1500, .region_len = 64 * 1024};
    uint8_t *src = malloc(64 * 1024);
    double worst = 0, t0, dt;
    unsigned n, worst_n = 0;
    int r;

    o.faults.batch = 1;
    o.faults.udp = 1;
    world_init(&o);
    fill_pattern(src, 64 * 1024, 7);
    for (r = 1; r < 4; r++) {
        hxb_mem_faults_t f = o.faults;
        f.stall_ppm = 1000000;
        f.stall_us = 200;
        hxb_rail_mem_set_faults(W.ra[r], &f);
    }
    /* above UCX_HXB_TRAIN_MAX (32 KiB), so striped: 24-35 frames */
    for (n = 24; n < 36; n++) {
        size_t len = n * 1400;
        comp_t c = {0};

        t0 = now_sec();
        ck_assert_int_eq(hxb_put(W.a.peer, src, len, (uintptr_t)W.b.region, RKEY_B, &c),
                         HXB_INPROGRESS);
        PUMP_UNTIL(c.count);
        ASSERT_DONE_ONCE(c, 0);
        ck_assert(memcmp(W.b.region, src, len) == 0);
        dt = now_sec() - t0;
        if (dt > worst) {
            worst = dt;
            worst_n = n;
        }
        pump_for(5e-3);       /* every ack in, nothing owed */
    }
    /* 200 us late rails, a few passes each way: well under the ack delay */
    ck_assert_msg(worst < 0.6e-3, "a put of %u frames completed after %.0f us", worst_n,
                  worst * 1e6);
    free(src);
}
END_TEST
#endif

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

int main(void)
{
    Suite *s = suite_create("rma");
    TCase *tc;

    tc = world_tcase(s, "rma");
    tcase_add_test(tc, test_put_faults);
    tcase_add_test(tc, test_get_faults);
    tcase_add_test(tc, test_put_get_bidirectional);
    tcase_add_test(tc, test_rkey_refused);
    tcase_add_test(tc, test_put_bundles);
    tcase_add_test(tc, test_put_order);
    tcase_add_test(tc, test_err_before_last_frame);
    tcase_add_test(tc, test_atomics);
    tcase_add_test(tc, test_put_bundle_malformed);
    tcase_add_test(tc, test_region_gone_mid_read);
    tcase_add_test(tc, test_region_gone_other_rkey);
    tcase_add_test(tc, test_flush);
    tcase_add_test(tc, test_flush_waits_get);
#ifdef HXB_VIRTUAL_CLOCK
    tcase_add_test(tc, test_put_acked_when_late_rails_land);
#endif
    return world_run(s);
}
