/* hxb_ucp_test: exchange messages of random sizes through UCP (tag API) in
 * both directions and verify every one: intact, exactly once, in order.
 * Sizes are log-uniform from 0 to --max bytes, so eager, multi-fragment and
 * rendezvous paths are all crossed. Both sides draw the same sizes from the
 * seed; the payload of message i is a pattern of (seed, direction, i).
 *
 *   server: hxb_ucp_test -p PORT [options]
 *   client: hxb_ucp_test -c SERVER_IP -p PORT [options]
 * Options: -n COUNT  -m MAXSIZE  -s SEED  -w WINDOW  -t TIMEOUT_S
 *          -f: every message is MAXSIZE bytes; -q: check lengths only (for
 *          bandwidth runs: filling and checking would cost more than moving)
 *          -o: one way: only the client sends
 *          -b: block: when UCP has nothing to do, sleep on the worker's
 *          event fd (ucp_worker_arm) instead of polling, so CPU time is
 *          work done, not polling; "cpu:" then gives this process's CPU
 *          seconds and the whole host's busy seconds during the transfer
 * Exit 0 and "ok" on success (with the bandwidth of both directions
 * together); 1 with the first mismatch otherwise. */
#include <arpa/inet.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <ucp/api/ucp.h>

#include "hxb_oob.h"

#define TAG_BASE 0x4858420000000000ull

typedef struct {
    int      done;
    size_t   length;
    ucs_status_t status;
} req_ctx_t;

static unsigned long g_count = 1000, g_seed = 1, g_window = 16, g_timeout = 120;
static size_t g_max = 4 << 20;
#define HXB_UCP_TEST_PORT 13337
static int g_fixed, g_quick, g_no_errh, g_block, g_oneway, g_efd = -1;
static unsigned long g_sleeps, g_sleeps_out;   /* -b: sleeps, those that ran out */

/* One progress call. Blocking (-b): when it found nothing to do, arm the
 * worker and sleep on its event fd, and on fd2 if given (>= 0), for at
 * most 100 ms (a bound, never relied on: the transport wakes us). */
static unsigned progress(ucp_worker_h worker, int fd2)
{
    struct pollfd pfd[2] = {{.fd = g_efd, .events = POLLIN},
                            {.fd = fd2, .events = POLLIN}};
    unsigned n = ucp_worker_progress(worker);

    if (!n && g_block && ucp_worker_arm(worker) == UCS_OK) {
        g_sleeps++;
        g_sleeps_out += poll(pfd, fd2 >= 0 ? 2 : 1, 100) == 0;
    }
    return n;
}

/* CPU seconds: this process (user + system), and the whole host's busy
 * time (all CPUs), which counts the kernel's packet processing wherever it
 * ran: the CPUs' time less their idle, iowait and steal time (/proc/stat).
 * Not the sum of its busy fields: those are sampled at ticks and miss
 * short runs between idle spells (they read less than this process's own
 * time on this VM), while idle time is measured (nohz). A point on a
 * scale whose differences count; to 10 ms. */
static void cpu_now(double *proc, double *host)
{
    struct rusage ru;
    struct timespec t;
    unsigned long long v[10] = {0};
    FILE *f = fopen("/proc/stat", "r");
    double idle = 0;

    getrusage(RUSAGE_SELF, &ru);
    clock_gettime(CLOCK_BOOTTIME, &t);
    *proc = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
            ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
    if (f && fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
                    &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
                    &v[8], &v[9]) >= 8) {
        /* idle, iowait, steal (the hypervisor ran others) */
        idle = (double)(v[3] + v[4] + v[7]) / sysconf(_SC_CLK_TCK);
    }
    if (f) {
        fclose(f);
    }
    *host = (t.tv_sec + t.tv_nsec * 1e-9) * sysconf(_SC_NPROCESSORS_ONLN) - idle;
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

static size_t msg_size(int dir, unsigned long i)
{
    uint64_t r = mix(g_seed * 1000003 + dir * 7919 + i);
    unsigned bits = 0;
    size_t max = g_max, s;

    if (g_fixed) {
        return g_max;
    }
    while (max >> bits) {
        bits++;
    }
    s = (r >> 8) & ((1ull << (r % (bits + 1))) - 1);   /* log-uniform */
    if (i % 97 == 0) {
        s = 0;                                         /* empty messages too */
    } else if (i % 89 == 0) {
        s = g_max;
    }
    return s > g_max ? g_max : s;
}

static void fill(uint8_t *buf, size_t len, int dir, unsigned long i)
{
    uint64_t x = mix(g_seed ^ ((uint64_t)dir << 62) ^ (i << 20));
    size_t k;

    for (k = 0; k < len; k++) {
        if ((k & 7) == 0) {
            x = mix(x + k);
        }
        buf[k] = (uint8_t)(x >> ((k & 7) * 8));
    }
}

static long check(const uint8_t *buf, size_t len, int dir, unsigned long i,
                  uint8_t *scratch)
{
    size_t k;

    fill(scratch, len, dir, i);
    for (k = 0; k < len; k++) {
        if (buf[k] != scratch[k]) {
            return (long)k;
        }
    }
    return -1;
}

static void send_cb(void *request, ucs_status_t status, void *user_data)
{
    req_ctx_t *c = user_data;
    c->status = status;
    c->done = 1;
}

static void recv_cb(void *request, ucs_status_t status,
                    const ucp_tag_recv_info_t *info, void *user_data)
{
    req_ctx_t *c = user_data;
    c->status = status;
    c->length = info->length;
    c->done = 1;
}

/* the client connects to host; the server (host NULL) takes one client */
static int oob_connect(const char *host, int port)
{
    int lfd, fd;

    if (host) {
        return hxb_oob_connect(host, port);
    }
    lfd = hxb_oob_listen(port, 1);
    if (lfd < 0) {
        perror("hxb_ucp_test: listen");
        return -1;
    }
    fd = accept(lfd, NULL, NULL);
    close(lfd);
    return fd;
}

/* The final handshake: one byte each way over the out-of-band socket, with
 * UCP progressing meanwhile, as UCX requires: the other side may still
 * need our acknowledgements to finish its flush. */
static int handshake(int fd, ucp_worker_h worker)
{
    struct pollfd pfd = {.fd = fd, .events = POLLIN};
    char c = 'x';

    if (hxb_oob_xfer(fd, &c, 1, 1)) {
        return -1;
    }
    for (;;) {
        progress(worker, fd);
        if (poll(&pfd, 1, 0) > 0) {
            return hxb_oob_xfer(fd, &c, 1, 0);
        }
    }
}

/* peer-failure mode (as an MPI with fault handling asks): a dead peer must
 * be reported, through this callback, never a hang */
static volatile int g_ep_failed;

static void on_ep_error(void *arg, ucp_ep_h ep, ucs_status_t status)
{
    (void)arg;
    (void)ep;
    fprintf(stderr, "hxb_ucp_test: FAIL: endpoint error: %s\n",
            ucs_status_string(status));
    g_ep_failed = 1;
}


static void usage(FILE *f)
{
    fprintf(f,
            "usage: hxb-ucp-test [-p PORT] [options]               (server)\n"
            "       hxb-ucp-test -c SERVER_IP [-p PORT] [options]  (client)\n"
            "Exchange messages of log-uniform random sizes (0 to -m bytes) through UCP's\n"
            "tag API both ways and verify each: intact, exactly once, in order. Prints\n"
            "\"ok\" and the bandwidth of both directions together; exit 1 at the first\n"
            "mismatch or timeout.\n"
            "  -c IP       connect to the server at IP (default: be the server)\n"
            "  -p PORT     TCP port of the address exchange (default %d)\n"
            "  -n COUNT    messages each way (default %lu)\n"
            "  -m BYTES    largest message (default %zu)\n"
            "  -s SEED     sizes and payloads (default %lu; both sides must agree)\n"
            "  -w N        messages in flight each way (default %lu)\n"
            "  -t SECS     give up after this long (default %lu)\n"
            "  -f          every message -m bytes\n"
            "  -q          check lengths only (bandwidth runs)\n"
            "  -N          no peer error handling (UCP's default mode)\n"
            "  -b          sleep on the worker's event fd when idle; print CPU time\n"
            "  -o          one way: only the client sends\n"
            "  -h, --help  this text\n"
            "Transports as UCX chooses them: e.g. LD_PRELOAD=libuct_hxb.so UCX_TLS=hxb,self.\n",
            HXB_UCP_TEST_PORT, g_count, g_max, g_seed, g_window, g_timeout);
}

int main(int argc, char **argv)
{
    const char *server = NULL;
    int port = HXB_UCP_TEST_PORT, opt, fd, dir_tx, dir_rx;
    ucp_params_t params = {.field_mask = UCP_PARAM_FIELD_FEATURES,
                           .features = UCP_FEATURE_TAG};
    ucp_worker_params_t wparams = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
                                   .thread_mode = UCS_THREAD_MODE_SINGLE};
    ucp_context_h ctx;
    ucp_worker_h worker;
    ucp_address_t *addr, *peer_addr;
    size_t addr_len;
    uint64_t peer_len;
    ucp_ep_h ep;
    ucp_ep_params_t eparams;
    unsigned long sent = 0, rcvd = 0, posted = 0, w;
    uint8_t **sbuf, **rbuf, *scratch;
    req_ctx_t *sctx, *rctx;
    void **sreq, **rreq;
    size_t bytes = 0, tx_bytes = 0;
    double t_start, t_end, cpu0, cpu1, host0, host1;
    unsigned long n_tx, n_rx;

    static const struct option long_opts[] = {{"help", 0, NULL, 'h'}, {NULL, 0, NULL, 0}};

    while ((opt = getopt_long(argc, argv, "c:p:n:m:s:w:t:fqNboh", long_opts, NULL)) != -1) {
        switch (opt) {
        case 'c': server = optarg; break;
        case 'p': port = atoi(optarg); break;
        case 'n': g_count = strtoul(optarg, NULL, 0); break;
        case 'm': g_max = strtoul(optarg, NULL, 0); break;
        case 's': g_seed = strtoul(optarg, NULL, 0); break;
        case 'w': g_window = strtoul(optarg, NULL, 0); break;
        case 't': g_timeout = strtoul(optarg, NULL, 0); break;
        case 'f': g_fixed = 1; break;
        case 'q': g_quick = 1; break;
        case 'N': g_no_errh = 1; break;
        case 'b': g_block = 1; break;
        case 'o': g_oneway = 1; break;
        case 'h': usage(stdout); return 0;
        default:  usage(stderr); return 2;
        }
    }
    hxb_oob_timeout("hxb_ucp_test", g_timeout);
    dir_tx = server ? 1 : 0;
    dir_rx = !dir_tx;
    /* -o: only the client sends */
    n_tx = g_oneway && !server ? 0 : g_count;
    n_rx = g_oneway && server ? 0 : g_count;

    if (g_block) {
        params.features |= UCP_FEATURE_WAKEUP;
    }
    if (ucp_init(&params, NULL, &ctx) != UCS_OK ||
        ucp_worker_create(ctx, &wparams, &worker) != UCS_OK ||
        ucp_worker_get_address(worker, &addr, &addr_len) != UCS_OK) {
        fprintf(stderr, "hxb_ucp_test: FAIL: UCP init\n");
        return 1;
    }
    if (g_block && ucp_worker_get_efd(worker, &g_efd) != UCS_OK) {
        fprintf(stderr, "hxb_ucp_test: FAIL: no event fd for -b\n");
        return 1;
    }
    fd = oob_connect(server, port);
    if (fd < 0) {
        fprintf(stderr, "hxb_ucp_test: FAIL: cannot reach the other side\n");
        return 1;
    }
    peer_len = addr_len;
    if (hxb_oob_xfer(fd, &peer_len, sizeof(peer_len), 1) || hxb_oob_xfer(fd, addr, addr_len, 1) ||
        hxb_oob_xfer(fd, &peer_len, sizeof(peer_len), 0)) {
        fprintf(stderr, "hxb_ucp_test: FAIL: address exchange\n");
        return 1;
    }
    peer_addr = malloc(peer_len);
    if (hxb_oob_xfer(fd, peer_addr, peer_len, 0)) {
        fprintf(stderr, "hxb_ucp_test: FAIL: address exchange\n");
        return 1;
    }
    eparams.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS |
                         UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE |
                         UCP_EP_PARAM_FIELD_ERR_HANDLER;
    /* PEER mode is what a fault-tolerant user asks for; UCP 1.13 then
     * moves rendezvous data as AMs, not with GET. -N: UCP's default. */
    eparams.err_mode = g_no_errh ? UCP_ERR_HANDLING_MODE_NONE :
                                   UCP_ERR_HANDLING_MODE_PEER;
    eparams.err_handler.cb = on_ep_error;
    eparams.err_handler.arg = NULL;
    eparams.address = peer_addr;
    if (ucp_ep_create(worker, &eparams, &ep) != UCS_OK) {
        fprintf(stderr, "hxb_ucp_test: FAIL: ep create\n");
        return 1;
    }
    if (getenv("HXB_UCP_TEST_EP_INFO")) {
        ucp_ep_print_info(ep, stderr);   /* lanes and protocol thresholds */
    }

    sbuf = calloc(g_window, sizeof(*sbuf));
    rbuf = calloc(g_window, sizeof(*rbuf));
    sctx = calloc(g_window, sizeof(*sctx));
    rctx = calloc(g_window, sizeof(*rctx));
    sreq = calloc(g_window, sizeof(*sreq));
    rreq = calloc(g_window, sizeof(*rreq));
    scratch = malloc(g_max + 1);
    for (w = 0; w < g_window; w++) {
        sbuf[w] = malloc(g_max + 1);
        rbuf[w] = malloc(g_max + 1);
        sctx[w].done = rctx[w].done = 1;
    }

    /* both directions at once: up to WINDOW sends and receives in flight */
    t_start = hxb_oob_now();
    cpu_now(&cpu0, &host0);
    while (rcvd < n_rx || sent < n_tx) {
        int busy = 0;
        /* post receives in message order: same tag, so UCP matches them in
         * the order messages arrive, which must be the order they were sent */
        while (posted < n_rx && posted - rcvd < g_window) {
            ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FLAG_NO_IMM_CMPL |
                                                     UCP_OP_ATTR_FIELD_CALLBACK |
                                                     UCP_OP_ATTR_FIELD_USER_DATA,
                                     .cb.recv = recv_cb};
            w = posted % g_window;
            rctx[w].done = 0;
            p.user_data = &rctx[w];
            if (!g_quick) {
                memset(rbuf[w], 0xee, msg_size(dir_rx, posted) + 1);
            }
            rreq[w] = ucp_tag_recv_nbx(worker, rbuf[w], g_max + 1, TAG_BASE | dir_rx,
                                       ~0ull, &p);
            if (UCS_PTR_IS_ERR(rreq[w])) {
                fprintf(stderr, "hxb_ucp_test: FAIL: recv post %s\n",
                        ucs_status_string(UCS_PTR_STATUS(rreq[w])));
                return 1;
            }
            posted++;
        }
        while (rcvd < posted && rctx[rcvd % g_window].done) {
            size_t want = msg_size(dir_rx, rcvd);
            long bad;
            w = rcvd % g_window;
            if (rctx[w].status != UCS_OK) {
                fprintf(stderr, "hxb_ucp_test: FAIL: message %lu: %s\n", rcvd,
                        ucs_status_string(rctx[w].status));
                return 1;
            }
            if (rctx[w].length != want) {
                fprintf(stderr, "hxb_ucp_test: FAIL: message %lu has %zu bytes, "
                        "expected %zu (lost, duplicated or reordered)\n", rcvd,
                        rctx[w].length, want);
                return 1;
            }
            bad = g_quick ? -1 : check(rbuf[w], want, dir_rx, rcvd, scratch);
            if (bad >= 0 || (!g_quick && rbuf[w][want] != 0xee)) {
                fprintf(stderr, "hxb_ucp_test: FAIL: message %lu (%zu bytes) "
                        "differs at byte %ld\n", rcvd, want, bad);
                return 1;
            }
            if (rreq[w]) {
                ucp_request_free(rreq[w]);
            }
            bytes += want;
            rcvd++;
            busy = 1;
        }
        while (sent < n_tx && sctx[sent % g_window].done) {
            ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FLAG_NO_IMM_CMPL |
                                                     UCP_OP_ATTR_FIELD_CALLBACK |
                                                     UCP_OP_ATTR_FIELD_USER_DATA,
                                     .cb.send = send_cb};
            size_t len = msg_size(dir_tx, sent);
            w = sent % g_window;
            if (sreq[w]) {
                if (sctx[w].status != UCS_OK) {
                    fprintf(stderr, "hxb_ucp_test: FAIL: send: %s\n",
                            ucs_status_string(sctx[w].status));
                    return 1;
                }
                ucp_request_free(sreq[w]);
                sreq[w] = NULL;
            }
            if (!g_quick) {
                fill(sbuf[w], len, dir_tx, sent);
            }
            sctx[w].done = 0;
            p.user_data = &sctx[w];
            tx_bytes += len;
            sreq[w] = ucp_tag_send_nbx(ep, sbuf[w], len, TAG_BASE | dir_tx, &p);
            if (UCS_PTR_IS_ERR(sreq[w])) {
                fprintf(stderr, "hxb_ucp_test: FAIL: send %s\n",
                        ucs_status_string(UCS_PTR_STATUS(sreq[w])));
                return 1;
            }
            if (sreq[w] == NULL) {
                sctx[w].done = 1;     /* completed in place */
            } else if (rctx[w].done && 0) {
                busy = 1;
            }
            sent++;
            busy = 1;
        }
        if (!busy) {
            progress(worker, -1);
        }
        if (g_ep_failed) {
            goto failed;
        }
    }
    /* wait for our sends to complete, then a handshake so neither side
     * closes while the other still needs its acknowledgements */
    for (w = 0; w < g_window; w++) {
        while (!sctx[w].done && !g_ep_failed) {
            progress(worker, -1);
        }
        if (g_ep_failed) {
            goto failed;
        }
        if (sreq[w]) {
            ucp_request_free(sreq[w]);
        }
    }
    t_end = hxb_oob_now();
    cpu_now(&cpu1, &host1);
    {
        ucp_request_param_t p = {.op_attr_mask = 0};
        void *r = ucp_ep_flush_nbx(ep, &p);
        while (r && UCS_PTR_IS_PTR(r) && ucp_request_check_status(r) == UCS_INPROGRESS) {
            progress(worker, -1);
        }
        if (r && UCS_PTR_IS_PTR(r)) {
            ucp_request_free(r);
        }
    }
    if (handshake(fd, worker)) {
        fprintf(stderr, "hxb_ucp_test: FAIL: final handshake\n");
        return 1;
    }
    {
        ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
                                 .flags = UCP_EP_CLOSE_FLAG_FORCE};
        void *r = ucp_ep_close_nbx(ep, &p);
        while (r && UCS_PTR_IS_PTR(r) && ucp_request_check_status(r) == UCS_INPROGRESS) {
            progress(worker, -1);
        }
        if (r && UCS_PTR_IS_PTR(r)) {
            ucp_request_free(r);
        }
    }
    ucp_worker_release_address(worker, addr);
    ucp_worker_destroy(worker);
    ucp_cleanup(ctx);
    printf("hxb_ucp_test: ok: %lu messages sent, %lu received and %s "
           "(%zu bytes), max %zu; both ways %.1f MB/s (tx %.1f, rx %.1f)\n",
           sent, rcvd, g_quick ? "length-checked" : "verified", bytes, g_max,
           (tx_bytes + bytes) / (t_end - t_start) / 1e6,
           tx_bytes / (t_end - t_start) / 1e6, bytes / (t_end - t_start) / 1e6);
    printf("hxb_ucp_test: cpu: process %.3f s, host busy %.3f s, in %.3f s (%s)\n",
           cpu1 - cpu0, host1 - host0, t_end - t_start, g_block ? "blocking" : "polling");
    if (g_block) {
        printf("hxb_ucp_test: sleeps: %lu, %lu ran out their 100 ms\n", g_sleeps, g_sleeps_out);
    }
    fflush(stdout);
    close(fd);
    return 0;

failed:
    /* destroying the worker closes the transport, which prints its stats */
    ucp_worker_destroy(worker);
    ucp_cleanup(ctx);
    return 1;
}
