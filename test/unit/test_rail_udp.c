/* Unit tests of the UDP rail (uct_hxb/hxb_rail_udp.c) on the loopback
 * interface: trains of frames leave as segmented datagrams (UDP_SEGMENT)
 * and come back coalesced (UDP_GRO); every frame must still arrive whole,
 * once and in order, whatever the lengths and destinations in a batch.
 * Needs no privilege: UDP sockets on 127.0.0.1. Every test runs twice:
 * rails with a socket each, and rails on a shared socket (bound to every
 * address, IP_PKTINFO naming the interface both ways). */
#include "hxb_rail.h"

#include <arpa/inet.h>
#include <check.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXF 256

typedef struct got {
    int     n;
    size_t  len[MAXF];
    uint8_t first[MAXF], last[MAXF];
    int     bad;                 /* frames whose bytes were not their own */
    hxb_raddr_t src;
} got_t;

/* frame k of a test: every byte is (k * 31 + i) & 0xff, so a frame cut at
 * the wrong place, or two frames swapped, shows - but for bytes 20-23, the
 * header's dst_node and dst_proc: one peer's (FINAL_A) for frames below
 * g_split, another's behind the same address (FINAL_B) from there on */
#define FINAL_A 0x00010002u
#define FINAL_B 0x00030002u
static int g_split = 1 << 30;
static uint8_t pat(int k, size_t i)
{
    if (i >= 20 && i < 24) {
        return (uint8_t)((k < g_split ? FINAL_A : FINAL_B) >> (8 * (i - 20)));
    }
    return (uint8_t)(k * 31 + i);
}

static void on_frame(void *arg, hxb_rail_t *rail, void *data, size_t len,
                     const hxb_raddr_t *src)
{
    got_t *g = arg;
    const uint8_t *p = data;
    size_t i;
    int k = g->n;

    (void)rail;
    if (k >= MAXF) {
        g->bad++;
        return;
    }
    for (i = 0; i < len; i++) {
        if (p[i] != pat(k, i)) {
            g->bad++;
            break;
        }
    }
    g->len[k] = len;
    g->src = *src;
    g->n++;
}

/* shared: a rail on a socket shared by rails (the loop's _i) */
static hxb_rail_t *open_lo(int shared)
{
    char err[256];
    uint16_t port = 0;
    hxb_rail_t *r = NULL;
    int ret = shared ? hxb_rail_open_udp_shared("lo", &port, NULL, &r, err, sizeof(err)) :
                         hxb_rail_open(HXB_RAIL_UDP, "lo", 0, &port, &r, err, sizeof(err));

    ck_assert_msg(ret == 0, "open a UDP rail on lo: %s", err);
    ck_assert_uint_ne(port, 0);
    return r;
}

static hxb_raddr_t addr_of(const hxb_rail_t *r)
{
    hxb_raddr_t a;

    memset(&a, 0, sizeof(a));
    a.ip = htonl(INADDR_LOOPBACK);
    a.port = r->port;
    return a;
}

/* send frame k of length len to dst, in two pieces as the engine does
 * (header buffer, then data) */
static void send_frame(hxb_rail_t *r, const hxb_raddr_t *dst, int k, size_t len,
                       uint8_t *buf)
{
    struct iovec iov[2];
    size_t i, h = len < 44 ? len : 44;

    for (i = 0; i < len; i++) {
        buf[i] = pat(k, i);
    }
    iov[0].iov_base = buf;
    iov[0].iov_len = h;
    iov[1].iov_base = buf + h;
    iov[1].iov_len = len - h;
    ck_assert_int_eq(r->ops->send(r, dst, iov, 2), 0);
}

/* receive until n frames came (bounded: 2 s of empty polls) */
static void recv_all(hxb_rail_t *r, got_t *g, int n, int max)
{
    struct pollfd pfd = {.fd = r->fd, .events = POLLIN};
    int idle = 0;

    while (g->n < n && idle < 200) {
        int before = g->n, got = r->ops->recv(r, on_frame, g, max);

        ck_assert_int_eq(got, g->n - before);
        if (got == 0) {
            idle += poll(&pfd, 1, 10) == 0;
        }
    }
}

/* a batch as the engine makes one: trains of full frames, shorter last
 * frames, a frame longer than the one before it, a second destination */
static const size_t LENS[] = {
    8000, 8000, 8000, 8000, 8000, 8000, 8000, 8000, 8000, 8000, 3000, /* train, short end */
    8000, 8000, 1000, 1000, 1000, 9000,     /* a shorter one ends it; longer starts anew */
    2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000,
    2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000,
    2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000,
    2000, 2000, 2000, 100,                 /* 36 x 2000 B: past a batch */
};
#define NLENS ((int)(sizeof(LENS) / sizeof(LENS[0])))

static void run_batch(int shared, int offload, int max)
{
    hxb_rail_t *a = open_lo(shared), *b = open_lo(shared), *c = open_lo(shared);
    hxb_raddr_t to_b = addr_of(b), to_c = addr_of(c);
    static uint8_t buf[NLENS + 3][9216];
    got_t gb = {0}, gc = {0};
    int k;

    if (!offload) {
        hxb_rail_udp_no_offload(a);
        hxb_rail_udp_no_offload(b);
    }
    for (k = 0; k < NLENS; k++) {
        send_frame(a, &to_b, k, LENS[k], buf[k]);
    }
    /* interleaved destinations in one batch: never one datagram */
    send_frame(a, &to_c, 0, 5000, buf[NLENS]);
    send_frame(a, &to_b, NLENS, 5000, buf[NLENS + 1]);
    send_frame(a, &to_c, 1, 5000, buf[NLENS + 2]);
    ck_assert_int_eq(a->ops->flush(a), 0);

    recv_all(b, &gb, NLENS + 1, max);
    recv_all(c, &gc, 2, max);
    ck_assert_int_eq(gb.n, NLENS + 1);
    ck_assert_int_eq(gc.n, 2);
    ck_assert_int_eq(gb.bad + gc.bad, 0);
    for (k = 0; k < NLENS; k++) {
        ck_assert_uint_eq(gb.len[k], LENS[k]);
    }
    ck_assert_uint_eq(gb.len[NLENS], 5000);
    ck_assert_uint_eq(gb.src.port, a->port);
    ck_assert_uint_eq(a->stats.tx_frames, NLENS + 3);
    ck_assert_uint_eq(b->stats.rx_frames, NLENS + 1);
    ck_assert_uint_eq(a->stats.tx_again + a->stats.tx_errors, 0);
    if (offload) {
        /* trains went as single datagrams, and loopback keeps them whole */
        ck_assert_uint_gt(a->stats.tx_gso, 0);
        ck_assert_uint_gt(b->stats.rx_gro, 0);
    } else {
        ck_assert_uint_eq(a->stats.tx_gso, 0);
        ck_assert_uint_eq(b->stats.rx_gro, 0);
    }
    a->ops->close(a);
    b->ops->close(b);
    c->ops->close(c);
}

START_TEST(test_trains) { run_batch(_i, 1, 64); }
END_TEST

START_TEST(test_trains_small_recv) { run_batch(_i, 1, 3); }
END_TEST

START_TEST(test_no_offload) { run_batch(_i, 0, 64); }
END_TEST

/* frames to two peers behind one address (a relay's: it routes a whole
 * segmented datagram by its first frame) never share a datagram */
START_TEST(test_trains_per_final_dst)
{
    hxb_rail_t *a = open_lo(_i), *b = open_lo(_i);
    hxb_raddr_t to_b = addr_of(b);
    static uint8_t buf[20][9216];
    got_t g = {0};
    int k;

    g_split = 10;
    for (k = 0; k < 20; k++) {   /* 40 KB: one datagram for one peer */
        send_frame(a, &to_b, k, 2000, buf[k]);
    }
    ck_assert_int_eq(a->ops->flush(a), 0);
    recv_all(b, &g, 20, 64);
    g_split = 1 << 30;
    ck_assert_int_eq(g.n, 20);
    ck_assert_int_eq(g.bad, 0);
    ck_assert_uint_eq(a->stats.tx_frames, 20);
    ck_assert_uint_eq(a->stats.tx_gso, 2);     /* one train per peer */
    a->ops->close(a);
    b->ops->close(b);
}
END_TEST

/* a return below max means the socket is drained (the engine's end of
 * burst ack relies on it), even when coalesced datagrams overshoot max */
START_TEST(test_recv_drained)
{
    hxb_rail_t *a = open_lo(_i), *b = open_lo(_i);
    hxb_raddr_t to_b = addr_of(b);
    static uint8_t buf[40][9216];
    struct pollfd pfd = {.fd = b->fd, .events = POLLIN};
    got_t g = {0};
    int k, got;

    for (k = 0; k < 40; k++) {
        send_frame(a, &to_b, k, 4000, buf[k]);
    }
    a->ops->flush(a);
    ck_assert_int_eq(poll(&pfd, 1, 2000), 1);
    do {
        got = b->ops->recv(b, on_frame, &g, 5);
    } while (got >= 5);
    ck_assert_int_eq(g.n, 40);
    ck_assert_int_eq(g.bad, 0);
    ck_assert_int_eq(poll(&pfd, 1, 0), 0);
    a->ops->close(a);
    b->ops->close(b);
}
END_TEST

/* a datagram the kernel refuses (here: too long, EMSGSIZE; in the field a
 * firewall's EPERM or ENETUNREACH for one peer) loses its own frames only:
 * the frames to a healthy peer behind it in the batch still go */
START_TEST(test_refused_datagram_alone)
{
    hxb_rail_t *a = open_lo(_i), *b = open_lo(_i), *c = open_lo(_i);
    hxb_raddr_t to_b = addr_of(b), to_c = addr_of(c);
    static uint8_t big[70000], buf[3][1000];
    struct iovec iov = {big, sizeof(big)};
    got_t g = {0};
    int k;

    ck_assert_int_eq(a->ops->send(a, &to_c, &iov, 1), 0);
    for (k = 0; k < 3; k++) {
        send_frame(a, &to_b, k, 1000, buf[k]);
    }
    a->ops->flush(a);
    recv_all(b, &g, 3, 64);
    ck_assert_int_eq(g.n, 3);
    ck_assert_int_eq(g.bad, 0);
    ck_assert_uint_eq(a->stats.tx_errors, 1);
    ck_assert_uint_eq(a->stats.tx_frames, 3);
    a->ops->close(a);
    b->ops->close(b);
    c->ops->close(c);
}
END_TEST

/* peek (the idle tick's look at who sends) shows each waiting datagram's
 * start and its sender, takes nothing, and leaves recv as it was: every
 * frame still arrives, once and whole */
static int peeks;
static uint8_t peek_first[HXB_RAIL_PEEK_LEN];
static size_t peek_len;
static hxb_raddr_t peek_src;

static void on_peek(void *arg, hxb_rail_t *rail, void *data, size_t len,
                    const hxb_raddr_t *src)
{
    (void)arg;
    (void)rail;
    if (peeks++ == 0) {
        peek_len = len;
        memcpy(peek_first, data, len < sizeof(peek_first) ? len : sizeof(peek_first));
        peek_src = *src;
    }
}

START_TEST(test_peek_leaves_frames)
{
    hxb_rail_t *a = open_lo(_i), *b = open_lo(_i);
    hxb_raddr_t to_b = addr_of(b);
    static uint8_t buf[3][1000];
    struct pollfd pfd = {.fd = b->fd, .events = POLLIN};
    got_t g = {0};
    size_t i;
    int k, round;

    ck_assert_int_eq(b->ops->peek(b, on_peek, NULL, 16), 0);
    for (k = 0; k < 3; k++) {
        send_frame(a, &to_b, k, 1000, buf[k]);
        a->ops->flush(a);
    }
    ck_assert_int_eq(poll(&pfd, 1, 2000), 1);
    for (round = 0; round < 2; round++) {       /* a second look sees the same */
        peeks = 0;
        ck_assert_int_ge(b->ops->peek(b, on_peek, NULL, 16), 1);
        ck_assert_int_eq(peek_len, HXB_RAIL_PEEK_LEN);
        for (i = 0; i < peek_len; i++) {
            ck_assert_uint_eq(peek_first[i], pat(0, i));
        }
        ck_assert_uint_eq(peek_src.port, a->port);
    }
    recv_all(b, &g, 3, 64);
    ck_assert_int_eq(g.n, 3);
    ck_assert_int_eq(g.bad, 0);
    for (k = 0; k < 3; k++) {
        ck_assert_uint_eq(g.len[k], 1000);
    }
    ck_assert_int_eq(b->ops->peek(b, on_peek, NULL, 16), 0);
    a->ops->close(a);
    b->ops->close(b);
}
END_TEST

/* rails on one shared socket: the first reads for all, the others have no
 * descriptor and the first one's port (the process id); each sends by its
 * own interface from that port; a socket that holds several rails' data
 * cannot tell one rail's backlog; closed in any order, the port is free
 * only after the last (tested on lo: one interface, so the arrival side's
 * choice between rails is t40's, in the testbed) */
START_TEST(test_shared_rails)
{
    hxb_rail_t *r0, *r1, *p;
    hxb_raddr_t to_p, to_r;
    static uint8_t buf[8][9216];
    struct sockaddr_in sa = {.sin_family = AF_INET};
    char err[256];
    uint16_t port = 0, port1 = 0;
    got_t g0 = {0}, gp = {0};
    int k, fd;

    ck_assert_int_eq(hxb_rail_open_udp_shared("lo", &port, NULL, &r0, err, sizeof(err)), 0);
    ck_assert_int_eq(hxb_rail_open_udp_shared("lo", &port1, r0, &r1, err, sizeof(err)), 0);
    ck_assert_uint_eq(port1, port);
    ck_assert_uint_eq(r1->port, r0->port);
    ck_assert_int_ge(r0->fd, 0);
    ck_assert_int_eq(r1->fd, -1);
    ck_assert_int_eq(r1->sysfd, -1);
    ck_assert_int_eq(r0->ops->backlog(r0), -1);
    p = open_lo(0);
    to_p = addr_of(p);
    to_r = addr_of(r0);
    /* out by the second rail, from the shared port */
    for (k = 0; k < 4; k++) {
        send_frame(r1, &to_p, k, 3000, buf[k]);
    }
    ck_assert_int_eq(r1->ops->flush(r1), 0);
    recv_all(p, &gp, 4, 64);
    ck_assert_int_eq(gp.n, 4);
    ck_assert_int_eq(gp.bad, 0);
    ck_assert_uint_eq(gp.src.port, r0->port);
    ck_assert_uint_eq(r1->stats.tx_frames, 4);
    ck_assert_uint_eq(r0->stats.tx_frames, 0);
    /* in by the first: the second reads nothing */
    for (k = 0; k < 4; k++) {
        send_frame(p, &to_r, k, 3000, buf[4 + k]);
    }
    ck_assert_int_eq(p->ops->flush(p), 0);
    recv_all(r0, &g0, 4, 64);
    ck_assert_int_eq(g0.n, 4);
    ck_assert_int_eq(g0.bad, 0);
    ck_assert_int_eq(r1->ops->recv(r1, on_frame, &g0, 64), 0);
    ck_assert_uint_eq(r0->stats.rx_foreign, 0);
    /* both rails' batches in one call (flush_many): every frame intact,
     * counted on its own rail, both batches emptied */
    {
        hxb_rail_t *both[2] = {r0, r1};
        uint64_t t0 = r0->stats.tx_frames, t1 = r1->stats.tx_frames;

        ck_assert_ptr_nonnull(r0->ops->flush_many);
        for (k = 0; k < 3; k++) {
            send_frame(r0, &to_p, k, 3000, buf[k]);
        }
        for (k = 0; k < 4; k++) {
            send_frame(r1, &to_p, 3 + k, 1000, buf[3 + k]);
        }
        r0->ops->flush_many(both, 2);
        gp.n = 0;
        recv_all(p, &gp, 7, 64);
        ck_assert_int_eq(gp.n, 7);
        ck_assert_int_eq(gp.bad, 0);
        ck_assert_uint_eq(r0->stats.tx_frames - t0, 3);
        ck_assert_uint_eq(r1->stats.tx_frames - t1, 4);
        r0->ops->flush_many(both, 2);
        ck_assert_int_eq(p->ops->recv(p, on_frame, &gp, 64), 0);
    }
    /* the port stays ours until the last rail closes */
    sa.sin_port = port;
    r0->ops->close(r0);
    fd = socket(AF_INET, SOCK_DGRAM, 0);
    ck_assert_int_lt(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
    for (k = 0; k < 2; k++) {   /* and the other rail still sends */
        send_frame(r1, &to_p, k, 1000, buf[k]);
    }
    ck_assert_int_eq(r1->ops->flush(r1), 0);
    gp.n = 0;
    recv_all(p, &gp, 2, 64);
    ck_assert_int_eq(gp.n, 2);
    r1->ops->close(r1);
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
    close(fd);
    p->ops->close(p);
}
END_TEST

static Suite *udp_suite(void)
{
    Suite *s = suite_create("rail_udp");
    TCase *tc = tcase_create("trains");

    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, test_trains, 0, 2);
    tcase_add_loop_test(tc, test_trains_small_recv, 0, 2);
    tcase_add_loop_test(tc, test_no_offload, 0, 2);
    tcase_add_loop_test(tc, test_trains_per_final_dst, 0, 2);
    tcase_add_loop_test(tc, test_recv_drained, 0, 2);
    tcase_add_loop_test(tc, test_refused_datagram_alone, 0, 2);
    tcase_add_loop_test(tc, test_peek_leaves_frames, 0, 2);
    tcase_add_test(tc, test_shared_rails);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(udp_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
