/* hxb_bench_nbx: the 3-D neighbour exchange of the PACS-CS paper, through
 * UCP (tag API), one process per node: the centre drives all its
 * neighbours at once from one worker (non-blocking tag sends and receives,
 * a window of outstanding messages per neighbour and direction), so it is
 * the centre's rails, not a process per pair, that are measured.
 * Neighbours sleep on UCP's event fd between progress calls (see
 * nbr_wait), so that on a small host the centre gets the cycles.
 *
 *   centre:    hxb-bench-nbx -N NBRS [-p PORT] [options]
 *   neighbour: hxb-bench-nbx -c CENTRE_IP [-p PORT] [options]
 * Options: -m send|recv|both (direction as seen from the centre; default
 *          both), -s SIZE (1 MiB), -n COUNT messages per neighbour and
 *          direction (200), -w WINDOW outstanding per neighbour and
 *          direction (8), -t TIMEOUT_S (120).
 * The centre prints one line:
 *   nbx: mode M size S count N nbrs K send MB/s recv MB/s both MB/s
 *        (each direction: its bytes over the time from "go" to its last
 *        completion; both: all bytes over the time to the last of all)
 *   followed by per-neighbour "nbr I send MB/s recv MB/s".
 * Every message carries its index in its first 8 bytes; the receiver checks
 * length and index (exactly once, in order per neighbour), not the rest
 * (filling 1 MiB would cost more than moving it). MB/s = 10^6 bytes/s.
 * Out of band: one TCP connection per neighbour to the centre carries the
 * UCP addresses and the ready / go / done handshakes. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <ucp/api/ucp.h>

#include "hxb_oob.h"

#define NBX_TAG      0x4e42580000000000ull  /* "NBX" */
#define NBX_TO_NBR   0x10000ull             /* centre -> neighbour i: | i */
#define NBX_TO_CTR   0x20000ull             /* neighbour i -> centre: | i */
#define NBX_MAX_NBRS 26

typedef struct {
    int          done;
    size_t       length;
    ucs_status_t status;
} nbx_req_t;

/* one direction of one peer: a ring of WINDOW buffers and requests */
typedef struct {
    uint8_t    **buf;
    nbx_req_t   *ctx;
    void       **req;
    unsigned long posted, completed;
    double       t_end;
} nbx_dir_t;

typedef struct {
    int        fd;            /* out-of-band socket */
    ucp_ep_h   ep;
    nbx_dir_t  tx, rx;
    uint64_t   tx_tag, rx_tag;
} nbx_peer_t;

static unsigned long g_count = 200, g_window = 8, g_timeout = 120;
static size_t g_size = 1 << 20;
static int g_send = 1, g_recv = 1;   /* directions, as seen from the centre */

static int die(const char *what, const char *why)
{
    fprintf(stderr, "hxb-bench-nbx: FAIL: %s%s%s\n", what, why ? ": " : "",
            why ? why : "");
    exit(1);
}

/* our address out, the peer's in, and an endpoint to it */
static void exchange(ucp_worker_h w, const ucp_address_t *addr, size_t len,
                     nbx_peer_t *p)
{
    uint64_t l = len, pl;
    ucp_ep_params_t ep = {.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS};
    void *peer;

    if (hxb_oob_xfer(p->fd, &l, sizeof(l), 1) || hxb_oob_xfer(p->fd, (void *)addr, len, 1) ||
        hxb_oob_xfer(p->fd, &pl, sizeof(pl), 0) || pl > (1u << 20)) {
        die("address exchange", NULL);
    }
    peer = malloc(pl);
    if (!peer || hxb_oob_xfer(p->fd, peer, pl, 0)) {
        die("address exchange", NULL);
    }
    ep.address = peer;
    if (ucp_ep_create(w, &ep, &p->ep) != UCS_OK) {
        die("ep create", NULL);
    }
    free(peer);
}

static void dir_init(nbx_dir_t *d)
{
    unsigned long i;

    d->buf = calloc(g_window, sizeof(*d->buf));
    d->ctx = calloc(g_window, sizeof(*d->ctx));
    d->req = calloc(g_window, sizeof(*d->req));
    if (!d->buf || !d->ctx || !d->req) {
        die("out of memory", NULL);
    }
    for (i = 0; i < g_window; i++) {
        d->buf[i] = calloc(1, g_size < 8 ? 8 : g_size);
        if (!d->buf[i]) {
            die("out of memory", NULL);
        }
        d->ctx[i].done = 1;
    }
}

static void send_cb(void *request, ucs_status_t status, void *user_data)
{
    nbx_req_t *c = user_data;

    c->status = status;
    c->done   = 1;
}

static void recv_cb(void *request, ucs_status_t status,
                    const ucp_tag_recv_info_t *info, void *user_data)
{
    nbx_req_t *c = user_data;

    c->status = status;
    c->length = info->length;
    c->done   = 1;
}

/* slot k's operation is done and checked: free its request, count it */
static void dir_retire(nbx_dir_t *d, unsigned long k, unsigned long count)
{
    if (d->req[k]) {
        ucp_request_free(d->req[k]);
        d->req[k] = NULL;
    }
    if (++d->completed == count) {
        d->t_end = hxb_oob_now();
    }
}

/* Reap completed operations in order and keep the window full. Returns
 * how many it completed or posted (0: nothing to do right now). */
static int pump_tx(ucp_worker_h w, nbx_peer_t *p, unsigned long count)
{
    nbx_dir_t *d = &p->tx;
    int n = 0;

    while (d->completed < d->posted && d->ctx[d->completed % g_window].done) {
        unsigned long k = d->completed % g_window;
        if (d->ctx[k].status != UCS_OK) {
            die("send", ucs_status_string(d->ctx[k].status));
        }
        dir_retire(d, k, count);
        n++;
    }
    while (d->posted < count && d->posted - d->completed < g_window) {
        unsigned long k = d->posted % g_window;
        ucp_request_param_t prm = {
            .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
            .cb.send = send_cb, .user_data = &d->ctx[k]};
        uint64_t idx = d->posted;

        if (g_size >= sizeof(idx)) {
            memcpy(d->buf[k], &idx, sizeof(idx));
        }
        d->ctx[k].done = 0;
        d->req[k] = ucp_tag_send_nbx(p->ep, d->buf[k], g_size, p->tx_tag, &prm);
        if (UCS_PTR_IS_ERR(d->req[k])) {
            die("send", ucs_status_string(UCS_PTR_STATUS(d->req[k])));
        }
        if (d->req[k] == NULL) {
            d->ctx[k].done   = 1;     /* completed in place */
            d->ctx[k].status = UCS_OK;
        }
        d->posted++;
        n++;
    }
    return n;
}

static int pump_rx(ucp_worker_h w, nbx_peer_t *p, unsigned long count)
{
    nbx_dir_t *d = &p->rx;
    int n = 0;

    while (d->completed < d->posted && d->ctx[d->completed % g_window].done) {
        unsigned long k = d->completed % g_window;
        uint64_t idx = 0;
        if (d->ctx[k].status != UCS_OK) {
            die("receive", ucs_status_string(d->ctx[k].status));
        }
        if (g_size >= sizeof(idx)) {
            memcpy(&idx, d->buf[k], sizeof(idx));
        }
        if (d->ctx[k].length != g_size ||
            (g_size >= sizeof(idx) && idx != d->completed)) {
            fprintf(stderr, "hxb-bench-nbx: FAIL: message %lu: %zu bytes, index "
                    "%llu (lost, duplicated or reordered)\n", d->completed,
                    d->ctx[k].length, (unsigned long long)idx);
            exit(1);
        }
        dir_retire(d, k, count);
        n++;
    }
    /* same tag for all of a peer's messages: UCP matches them in order */
    while (d->posted < count && d->posted - d->completed < g_window) {
        unsigned long k = d->posted % g_window;
        ucp_request_param_t prm = {
            .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA |
                            UCP_OP_ATTR_FLAG_NO_IMM_CMPL,
            .cb.recv = recv_cb, .user_data = &d->ctx[k]};

        d->ctx[k].done = 0;
        memset(d->buf[k], 0xee, g_size < 8 ? g_size : 8);
        d->req[k] = ucp_tag_recv_nbx(w, d->buf[k], g_size, p->rx_tag, ~0ull, &prm);
        if (UCS_PTR_IS_ERR(d->req[k])) {
            die("receive", ucs_status_string(UCS_PTR_STATUS(d->req[k])));
        }
        d->posted++;
        n++;
    }
    return n;
}

/* A neighbour's idle wait: sleep on UCP's event fd (and the out-of-band
 * socket). hxb arms a timer at its next deadline, so an armed worker may
 * sleep long (100 ms is only a bound). When the worker cannot be armed
 * (work to do now), still sleep on the fd, but at most a millisecond; with
 * no event fd at all, give the CPU away before progressing again. */
static void nbr_wait(ucp_worker_h w, int efd, int oob)
{
    struct pollfd pfd[2] = {{.fd = efd, .events = POLLIN},
                            {.fd = oob, .events = POLLIN}};
    ucs_status_t st;

    if (efd < 0) {
        sched_yield();
        return;
    }
    st = ucp_worker_arm(w);
    poll(pfd, 2, st == UCS_OK ? 100 : 1);
}

static void progress_all(ucp_worker_h w)
{
    while (ucp_worker_progress(w)) {
    }
}

static void flush_close(ucp_worker_h w, ucp_ep_h ep)
{
    ucp_request_param_t prm = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
                               .flags = UCP_EP_CLOSE_FLAG_FORCE};
    void *r = ucp_ep_close_nbx(ep, &prm);

    while (r && UCS_PTR_IS_PTR(r) && ucp_request_check_status(r) == UCS_INPROGRESS) {
        ucp_worker_progress(w);
    }
    if (r && UCS_PTR_IS_PTR(r)) {
        ucp_request_free(r);
    }
}

/* one byte over the out-of-band socket while progressing UCP: the other
 * side may still need our acknowledgements (or GET responses) */
static void oob_byte_progress(ucp_worker_h w, int fd, int efd, int out, int nbr)
{
    struct pollfd pfd = {.fd = fd, .events = POLLIN};
    char c = 'x';

    if (out) {
        if (hxb_oob_xfer(fd, &c, 1, 1)) {
            die("out-of-band write", NULL);
        }
        return;
    }
    for (;;) {
        progress_all(w);
        if (poll(&pfd, 1, 0) > 0) {
            if (hxb_oob_xfer(fd, &c, 1, 0)) {
                die("out-of-band read", NULL);
            }
            return;
        }
        if (nbr) {
            nbr_wait(w, efd, fd);
        }
    }
}

static int run_neighbour(ucp_worker_h w, const ucp_address_t *addr, size_t alen,
                         const char *centre, int port, int efd)
{
    nbx_peer_t p;
    uint32_t id;
    int rx, tx;

    memset(&p, 0, sizeof(p));
    p.fd = hxb_oob_connect(centre, port);
    if (p.fd < 0) {
        die("cannot reach the centre", centre);
    }
    if (hxb_oob_xfer(p.fd, &id, sizeof(id), 0) || id >= NBX_MAX_NBRS) {
        die("no neighbour index from the centre", NULL);
    }
    exchange(w, addr, alen, &p);
    p.tx_tag = NBX_TAG | NBX_TO_CTR | id;
    p.rx_tag = NBX_TAG | NBX_TO_NBR | id;
    rx = g_send;                    /* the centre sends: we receive */
    tx = g_recv;
    dir_init(&p.tx);
    dir_init(&p.rx);
    if (rx) {
        pump_rx(w, &p, g_count);    /* receives posted before "ready" */
    }
    oob_byte_progress(w, p.fd, efd, 1, 1);     /* ready */
    oob_byte_progress(w, p.fd, efd, 0, 1);     /* go */
    while ((rx && p.rx.completed < g_count) || (tx && p.tx.completed < g_count)) {
        int n = 0;
        progress_all(w);
        if (rx) {
            n += pump_rx(w, &p, g_count);
        }
        if (tx) {
            n += pump_tx(w, &p, g_count);
        }
        if (!n) {
            nbr_wait(w, efd, -1);
        }
    }
    oob_byte_progress(w, p.fd, efd, 1, 1);     /* done */
    oob_byte_progress(w, p.fd, efd, 0, 1);     /* everyone done */
    flush_close(w, p.ep);
    close(p.fd);
    return 0;
}

static int run_centre(ucp_worker_h w, const ucp_address_t *addr, size_t alen,
                      int nnbr, int port, const char *mode)
{
    nbx_peer_t p[NBX_MAX_NBRS];
    int lfd = hxb_oob_listen(port, NBX_MAX_NBRS), i, busy;
    double t0, t_tx = 0, t_rx = 0, span;
    unsigned long total = g_count * nnbr;
    double bytes = (double)g_size * g_count;

    if (lfd < 0) {
        die("listen", strerror(errno));
    }
    memset(p, 0, sizeof(p));
    for (i = 0; i < nnbr; i++) {
        uint32_t id = i;
        p[i].fd = accept(lfd, NULL, NULL);
        if (p[i].fd < 0 || hxb_oob_xfer(p[i].fd, &id, sizeof(id), 1)) {
            die("accept", strerror(errno));
        }
        exchange(w, addr, alen, &p[i]);
        p[i].tx_tag = NBX_TAG | NBX_TO_NBR | i;
        p[i].rx_tag = NBX_TAG | NBX_TO_CTR | i;
        dir_init(&p[i].tx);
        dir_init(&p[i].rx);
    }
    close(lfd);
    for (i = 0; i < nnbr; i++) {
        if (g_recv) {
            pump_rx(w, &p[i], g_count);
        }
        oob_byte_progress(w, p[i].fd, -1, 0, 0);   /* ready */
    }
    t0 = hxb_oob_now();
    for (i = 0; i < nnbr; i++) {
        oob_byte_progress(w, p[i].fd, -1, 1, 0);   /* go */
    }
    do {
        unsigned long tx_done = 0, rx_done = 0;
        progress_all(w);
        for (i = 0; i < nnbr; i++) {
            if (g_send) {
                pump_tx(w, &p[i], g_count);
                tx_done += p[i].tx.completed;
            }
            if (g_recv) {
                pump_rx(w, &p[i], g_count);
                rx_done += p[i].rx.completed;
            }
        }
        busy = (g_send && tx_done < total) || (g_recv && rx_done < total);
    } while (busy);
    for (i = 0; i < nnbr; i++) {
        t_tx = p[i].tx.t_end > t_tx ? p[i].tx.t_end : t_tx;
        t_rx = p[i].rx.t_end > t_rx ? p[i].rx.t_end : t_rx;
    }
    span = (t_tx > t_rx ? t_tx : t_rx) - t0;
    for (i = 0; i < nnbr; i++) {
        oob_byte_progress(w, p[i].fd, -1, 0, 0);   /* neighbour done */
    }
    for (i = 0; i < nnbr; i++) {
        oob_byte_progress(w, p[i].fd, -1, 1, 0);   /* all done */
    }
    printf("nbx: mode %s size %zu count %lu nbrs %d send %.1f recv %.1f both %.1f MB/s\n",
           mode, g_size, g_count, nnbr,
           g_send ? bytes * nnbr / (t_tx - t0) / 1e6 : 0.0,
           g_recv ? bytes * nnbr / (t_rx - t0) / 1e6 : 0.0,
           bytes * nnbr * (g_send + g_recv) / span / 1e6);
    for (i = 0; i < nnbr; i++) {
        printf("nbr %d send %.1f recv %.1f MB/s\n", i,
               g_send ? bytes / (p[i].tx.t_end - t0) / 1e6 : 0.0,
               g_recv ? bytes / (p[i].rx.t_end - t0) / 1e6 : 0.0);
    }
    fflush(stdout);
    for (i = 0; i < nnbr; i++) {
        flush_close(w, p[i].ep);
        close(p[i].fd);
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *centre = NULL, *mode = "both";
    int port = 13400, nnbr = 0, opt, efd = -1;
    ucp_params_t params = {.field_mask = UCP_PARAM_FIELD_FEATURES,
                           .features = UCP_FEATURE_TAG | UCP_FEATURE_WAKEUP};
    ucp_worker_params_t wparams = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
                                   .thread_mode = UCS_THREAD_MODE_SINGLE};
    ucp_context_h ctx;
    ucp_worker_h worker;
    ucp_address_t *addr;
    size_t alen;
    int rc;

    while ((opt = getopt(argc, argv, "c:p:N:m:s:n:w:t:")) != -1) {
        switch (opt) {
        case 'c': centre = optarg; break;
        case 'p': port = atoi(optarg); break;
        case 'N': nnbr = atoi(optarg); break;
        case 'm': mode = optarg; break;
        case 's': g_size = strtoul(optarg, NULL, 0); break;
        case 'n': g_count = strtoul(optarg, NULL, 0); break;
        case 'w': g_window = strtoul(optarg, NULL, 0); break;
        case 't': g_timeout = strtoul(optarg, NULL, 0); break;
        default:
            fprintf(stderr, "usage: %s -N NBRS | -c CENTRE_IP  [-p port] "
                    "[-m send|recv|both] [-s size] [-n count] [-w window] "
                    "[-t timeout_s]\n", argv[0]);
            return 2;
        }
    }
    g_send = strcmp(mode, "recv") != 0;
    g_recv = strcmp(mode, "send") != 0;
    if ((!centre && (nnbr < 1 || nnbr > NBX_MAX_NBRS)) || !g_count || !g_window ||
        (strcmp(mode, "send") && strcmp(mode, "recv") && strcmp(mode, "both"))) {
        fprintf(stderr, "hxb-bench-nbx: need -N 1..%d (centre) or -c CENTRE_IP, "
                "-m send|recv|both, count and window > 0\n", NBX_MAX_NBRS);
        return 2;
    }
    hxb_oob_timeout("hxb-bench-nbx", g_timeout);
    if (ucp_init(&params, NULL, &ctx) != UCS_OK ||
        ucp_worker_create(ctx, &wparams, &worker) != UCS_OK ||
        ucp_worker_get_address(worker, &addr, &alen) != UCS_OK) {
        die("UCP init", NULL);
    }
    /* without an event fd (a transport that has none) neighbours yield */
    if (centre && ucp_worker_get_efd(worker, &efd) != UCS_OK) {
        efd = -1;
    }
    rc = centre ? run_neighbour(worker, addr, alen, centre, port, efd)
                : run_centre(worker, addr, alen, nnbr, port, mode);
    ucp_worker_release_address(worker, addr);
    ucp_worker_destroy(worker);
    ucp_cleanup(ctx);
    return rc;
}
