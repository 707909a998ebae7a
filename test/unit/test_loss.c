/* Loss and duplicates: detection and repair without timeouts (per rail,
 * per lane, across rails: RACK), a rail that loses everything, ACKs on a
 * one-way rail, duplicated frames counted and dropped. */
#include "test_world.h"

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

/* Every round trip takes 300 ms (a peer off the CPU that long, as on an
 * oversubscribed node), longer than the largest RTO (200 ms): the timeout
 * must follow the measured round trip (RFC 6298 caps it at 60 s, not
 * below the estimate), or every frame is resent while its ack is on the
 * way and the resends add to the load that made the peer late. Off the
 * CPU, the peer reads none of its rails (stall_host): stalls of each rail
 * on its own, started by whichever frame came first, let a rail that
 * stalled later hold frames sent before another rail's, which RACK and
 * each rail's round trips then took for losses once a short message took
 * one rail (hxb_tx.c, tx_train_rail). */
START_TEST(test_am_slow_peer_rto_above_max)
{
    opts_t o = {.nrails = 2, .csum = 1};
    hxb_mem_faults_t late = {.stall_ppm = 1000000, .stall_us = 300000, .stall_host = 1};
    const hxb_engine_stats_t *sa;

    world_init(&o);
    for (int r = 0; r < 2; r++) {
        hxb_rail_mem_set_faults(W.ra[r], &late);    /* B reads late */
    }
    plan_am(&W.a, 40, 0);
    send_all();
    finish_am();
    sa = hxb_engine_stats(W.a.e);
    ck_assert_msg(sa->retransmits <= 16, "%lu frames resent (%lu spurious) to a peer "
                  "that lost none, only answered late", (unsigned long)sa->retransmits,
                  (unsigned long)sa->spurious);
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
END_TEST

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

int main(void)
{
    Suite *s = suite_create("loss");
    TCase *tc;

    tc = world_tcase(s, "loss");
    tcase_add_test(tc, test_lanes_overtake);
    tcase_add_test(tc, test_am_fast_retransmit);
    tcase_add_test(tc, test_am_rail_blackhole_no_rto);
    tcase_add_test(tc, test_am_slow_peer_rto_above_max);
    tcase_add_test(tc, test_ack_rail_oneway);
    tcase_add_test(tc, test_duplicates);
    tcase_add_test(tc, test_duplicates_some);
    return world_run(s);
}
