/* Active messages: delivery exactly once and in order under faults, both
 * directions, zero copy, short AMs bundled into shared frames, reassembly
 * of multi-frame messages, and AMs passing bulk PUTs. */
#include "test_world.h"

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

/* UCX_HXB_FRAME_MAX caps what a side sends, not what it takes: A sends
 * frames of at most 1500 bytes over rails of MTU 9000, B its full ones;
 * AMs of every size both ways (short frames included), a PUT and a GET
 * each way arrive intact, exactly once, in order. A cap below the
 * smallest frame is an error. */
START_TEST(test_am_frame_cap)
{
    const size_t n = 1u << 20;
    opts_t o = {.nrails = 2, .mtu = 9000, .csum = 0, .a_frame_cap = 1500, .region_len = n};
    uint8_t *src = malloc(n);
    comp_t pa = {0}, pb = {0};
    int i;

    run_am(&o, 300, 300, 1);
    ck_assert_uint_le(hxb_engine_frag_size(W.a.e), 1500);
    ck_assert_uint_gt(hxb_engine_frag_size(W.b.e), 8000);
    fill_pattern(src, n, 11);
    ck_assert_int_eq(hxb_put(W.a.peer, src, n, (uintptr_t)W.b.region, RKEY_B, &pa),
                     HXB_INPROGRESS);
    ck_assert_int_eq(hxb_put(W.b.peer, src, n, (uintptr_t)W.a.region, RKEY_A, &pb),
                     HXB_INPROGRESS);
    PUMP_UNTIL(pa.count && pb.count);
    ASSERT_DONE_ONCE(pa, 0);
    ASSERT_DONE_ONCE(pb, 0);
    ck_assert(memcmp(W.b.region, src, n) == 0);
    ck_assert(memcmp(W.a.region, src, n) == 0);
    /* and a GET each way: the replies come in the responder's frames */
    for (i = 0; i < 2; i++) {
        side_t *from = i ? &W.b : &W.a, *to = i ? &W.a : &W.b;
        comp_t g = {0};

        memset(src, 0, n);
        ck_assert_int_eq(hxb_get(from->peer, src, n, (uintptr_t)to->region, i ? RKEY_A : RKEY_B,
                                 &g), HXB_INPROGRESS);
        PUMP_UNTIL(g.count);
        ASSERT_DONE_ONCE(g, 0);
        ck_assert(memcmp(to->region, src, n) == 0);
    }
    for (i = 0; i < o.nrails; i++) {
        ck_assert_uint_le(hxb_rail_mem_tx_largest(W.ra[i]), 1500);
        ck_assert_uint_gt(hxb_rail_mem_tx_largest(W.rb[i]), 8000);
    }
    free(src);
    {
        /* a cap below the smallest frame is refused, not raised */
        hxb_engine_cfg_t c;
        hxb_callbacks_t cb = {0};
        hxb_engine_t *e = NULL;

        hxb_engine_cfg_default(&c);
        c.frame_cap = HXB_FRAME_MIN - 1;
        ck_assert_int_lt(hxb_engine_create(&c, &cb, &e), 0);
        ck_assert_ptr_null(e);
    }
}
END_TEST

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

/* A sends its next planned message and both pump until B has it and A has
 * nothing in flight: the mask of A's rails that carried frames of it */
static uint32_t send_one_rails(unsigned long k)
{
    uint64_t before[HXB_MAX_RAILS];
    uint32_t used = 0;
    int r;

    for (r = 0; r < W.nrails; r++) before[r] = W.ra[r]->stats.tx_frames;
    ck_assert_int_eq(send_next(&W.a), 1);
    PUMP_UNTIL(W.b.am_rcvd == k + 1 && hxb_peer_tx_idle(W.a.peer));
    for (r = 0; r < W.nrails; r++) {
        if (W.ra[r]->stats.tx_frames != before[r]) used |= 1u << r;
    }
    return used;
}

/* A message of a few frames (MPI's 28 KB eager message: 4 frames at MTU
 * 9000) leaves whole on one rail, as one train, and the next one on
 * another rail, until every rail has taken its turn; a longer message
 * (64 KiB) still stripes over several rails. Sent one at a time, each
 * acked before the next; the first `warm` messages are not checked: a new
 * path's window (slow start) takes 2 frames, the rest of a message then
 * stripes. */
START_TEST(test_am_short_burst_one_rail)
{
    opts_t o = {.nrails = 6, .mtu = 9000, .csum = 0, .rto_min = 10.0};
    unsigned long k, warm = 12, n = 25;
    uint32_t used = 0, m;
    int rails;

    world_init(&o);
    plan_am(&W.a, n, 0);
    for (k = 0; k < n; k++) {
        W.a.plan_len[k] = k + 1 < n ? 28000 : hxb_engine_cfg(W.a.e)->max_msg;
    }
    for (k = 0; k < n; k++) {
        m = send_one_rails(k);
        if (k < warm) {
            continue;
        }
        rails = __builtin_popcount(m);
        if (k + 1 < n) {
            used |= m;
            ck_assert_msg(rails == 1, "message %lu (28000 B) went over %d rails", k, rails);
        } else {
            ck_assert_msg(rails > 1, "a 64 KiB message went over %d rail", rails);
        }
    }
    ck_assert_uint_eq(used, (1u << o.nrails) - 1);
    ck_assert_uint_eq(hxb_engine_stats(W.a.e)->retransmits, 0);
}
END_TEST

/* A message larger than UCX_HXB_TRAIN_MAX stripes over as many rails as
 * pay for their datagrams (UCX_HXB_TRAIN_COST): a 56 000-byte AM at MTU
 * 1500 over 6 rails that say 10 Gbit/s takes 2 of them, each a block of
 * consecutive frames, so nothing arrives out of order (the rails' batches
 * leave in rail order); over rails of 1 Gbit/s, or with no cost, all 6;
 * over rails of 40 Gbit/s one, also where there are only two; 64 KiB,
 * two datagrams on one rail, over two.
 * Returns the fewest and most rails a message took after the windows
 * opened, and the frames B held out of order meanwhile. */
static void stripe_run(int nrails, double speed, double cost, size_t len, int *lo,
                       int *hi, unsigned long *held)
{
    opts_t o = {.nrails = nrails, .mtu = 1500, .csum = 0, .rto_min = 10.0,
                .rail_speed = speed, .train_cost = cost};
    uint64_t held0 = 0;
    unsigned long k, warm = 12, n = 24;
    int rails;

    o.faults.batch = 1;
    o.faults.udp = 1;
    world_init(&o);
    plan_am(&W.a, n, 0);
    for (k = 0; k < n; k++) {
        W.a.plan_len[k] = len;
    }
    *lo = HXB_MAX_RAILS;
    *hi = 0;
    for (k = 0; k < n; k++) {
        if (k == warm) {
            held0 = hxb_engine_stats(W.b.e)->ooo_held;
        }
        rails = __builtin_popcount(send_one_rails(k));
        if (k < warm) {
            continue;
        }
        if (rails < *lo) *lo = rails;
        if (rails > *hi) *hi = rails;
    }
    *held = hxb_engine_stats(W.b.e)->ooo_held - held0;
    ck_assert_uint_eq(hxb_engine_stats(W.a.e)->retransmits, 0);
    finish_am();
}

START_TEST(test_am_stripe_width)
{
    unsigned long held;
    int lo, hi;

    stripe_run(6, 1.25e9, 0, 56000, &lo, &hi, &held);
    ck_assert_msg(lo == 2 && hi == 2, "56 KB over 10 Gbit/s rails: %d-%d rails", lo, hi);
    ck_assert_msg(held == 0, "%lu frames held out of order", held);
    teardown();
    stripe_run(6, 0, 0, 56000, &lo, &hi, &held);
    ck_assert_msg(lo == 6, "56 KB over 1 Gbit/s rails: %d-%d rails", lo, hi);
    teardown();
    stripe_run(6, 1.25e9, -1, 56000, &lo, &hi, &held);
    ck_assert_msg(lo == 6, "56 KB with no cost per datagram: %d-%d rails", lo, hi);
    teardown();
    stripe_run(6, 5e9, 0, 56000, &lo, &hi, &held);
    ck_assert_msg(lo == 1 && hi == 1, "56 KB over 40 Gbit/s rails: %d-%d rails", lo, hi);
    teardown();
    stripe_run(2, 5e9, 0, 56000, &lo, &hi, &held);
    ck_assert_msg(lo == 1 && hi == 1, "56 KB over two 40 Gbit/s rails: %d-%d rails", lo, hi);
    teardown();
    stripe_run(2, 1.25e9, 0, 56000, &lo, &hi, &held);
    ck_assert_msg(lo == 2, "56 KB over two 10 Gbit/s rails: %d-%d rails", lo, hi);
    teardown();
    /* 64 KiB at MTU 1500 is two datagrams on one rail or one on each of
     * two: over 40 Gbit/s rails, two */
    stripe_run(6, 5e9, 0, 65536, &lo, &hi, &held);
    ck_assert_msg(lo == 2 && hi == 2, "64 KiB over 40 Gbit/s rails: %d-%d rails", lo, hi);
    ck_assert_msg(held == 0, "%lu frames held out of order", held);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("am");
    TCase *tc;

    tc = world_tcase(s, "am");
    /* HXB_TEST_SEEDS=N runs the fault test with N seeds (stress runs) */
    tcase_add_loop_test(tc, test_am_faults, 0,
                        getenv("HXB_TEST_SEEDS") ? atoi(getenv("HXB_TEST_SEEDS")) : 2);
    tcase_add_test(tc, test_am_bidirectional);
    tcase_add_test(tc, test_am_bundles);
    tcase_add_test(tc, test_am_one_rail_clean);
    tcase_add_test(tc, test_am_frame_cap);
    tcase_add_test(tc, test_am_passes_put);
    tcase_add_test(tc, test_am_short_burst_one_rail);
    tcase_add_test(tc, test_am_stripe_width);
    return world_run(s);
}
