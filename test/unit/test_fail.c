/* Failures: a rail going down or dark during a transfer, a peer that stops
 * answering (and one merely idle), peers restarting (epochs), frames of
 * another job, and operations cancelled by their owner. */
#include "test_world.h"

/* A frame from an earlier run of B (older epoch, e.g. still queued when B
 * restarted) reaches A in the middle of B's traffic: it is dropped and
 * counted, and must not reset A's state for the current B (which would fail
 * or lose B's messages). Nor does one claiming a later run that B does not
 * confirm: A challenges that run at B's address, the B that is there drops
 * the challenge (not its epoch), and nothing ends (8.9). */
START_TEST(test_stale_epoch)
{
    opts_t o = {.nrails = 2, .csum = 0};
    uint64_t dst0, bdst0;

    world_init(&o);
    plan_am(&W.b, 400, 0);
    W.b.plan_n = 200;
    send_all();
    dst0 = hxb_engine_stats(W.a.e)->drops[HXB_DROP_DST];
    send_ping_from_b(EPOCH_B - 1000);
    W.b.plan_n = 300;
    send_all();
    /* a later epoch B does not confirm: challenged, nothing ends */
    bdst0 = hxb_engine_stats(W.b.e)->drops[HXB_DROP_DST];
    send_ping_from_b(EPOCH_B + 1000);
    W.b.plan_n = 400;
    send_all();
    finish_am();
    ck_assert_uint_eq(hxb_engine_stats(W.a.e)->drops[HXB_DROP_DST], dst0 + 1);
    ck_assert_uint_eq(hxb_engine_stats(W.a.e)->drops[HXB_DROP_UNPROVEN], 1);
    ck_assert_uint_eq(hxb_engine_stats(W.a.e)->challenges, 1);
    ck_assert_uint_eq(hxb_engine_stats(W.b.e)->drops[HXB_DROP_DST], bdst0 + 1);
    ck_assert_uint_eq(hxb_engine_stats(W.a.e)->peers_reset, 0);
    ck_assert_int_eq(W.a.peer_reset_calls, 0);
    ck_assert_int_eq(W.a.peer_failed_calls, 0);
    ck_assert_uint_eq(hxb_peer_epoch(W.a.peer), EPOCH_B);
}
END_TEST

/* B really restarted (its engine runs a later epoch than A knows): its
 * first frames are dropped until A's challenge comes back answered, then A
 * adopts the new run, reports the restart once, and B's messages arrive */
START_TEST(test_restart_proven)
{
    opts_t o = {.nrails = 2, .b_epoch = EPOCH_B + 1000};

    world_init(&o);
    plan_am(&W.b, 200, 0);
    send_all();
    finish_am();
    ck_assert_uint_ge(hxb_engine_stats(W.a.e)->drops[HXB_DROP_UNPROVEN], 1);
    ck_assert_uint_ge(hxb_engine_stats(W.a.e)->challenges, 1);
    ck_assert_uint_eq(hxb_engine_stats(W.a.e)->peers_reset, 1);
    ck_assert_int_eq(W.a.peer_reset_calls, 1);
    ck_assert_uint_eq(hxb_peer_epoch(W.a.peer), EPOCH_B + 1000);
    ck_assert_int_eq(W.a.peer_failed_calls + W.b.peer_failed_calls, 0);
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
    PUMP_UNTIL(sb->drops[HXB_DROP_AUTH] >= 25 && sa->drops[HXB_DROP_AUTH] >= 20);
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

int main(void)
{
    Suite *s = suite_create("failures");
    TCase *tc;

    tc = world_tcase(s, "failures");
    tcase_add_loop_test(tc, test_rail_down, 0, 2);
    tcase_add_test(tc, test_rail_blackhole);
    tcase_add_test(tc, test_peer_timeout);
    tcase_add_test(tc, test_peer_timeout_nothing_sent);
    tcase_add_test(tc, test_peer_timeout_get_pending);
    tcase_add_test(tc, test_peer_idle_not_failed);
    tcase_add_test(tc, test_foreign_key);
    tcase_add_test(tc, test_cancel_owner);
    tcase_add_test(tc, test_restart_deferred);
    tcase_add_test(tc, test_stale_epoch);
    tcase_add_test(tc, test_restart_proven);
    tcase_add_test(tc, test_atomic_cancel);
    return world_run(s);
}
