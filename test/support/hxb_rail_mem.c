/* In-memory rail pair for unit tests: frames sent on one rail are received
 * on its partner, with seeded, reproducible drop / duplicate / corrupt /
 * reorder faults. A FIFO per direction, like a real cable; with lanes, two
 * (bulk frames in the second, read after the first and a little later, as
 * a dual rail's UDP socket after its raw ring). */
#include "hxb_clock.h"
#include "hxb_rail_mem.h"
#include "hxb_short.h"
#include "hxb_wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MEM_QLEN 8192

typedef struct mem_frame {
    size_t  len;
    int     lane;
    double  due;                          /* arrives then (rate-limited link) */
    double  at;                           /* arrival: due, else when sent    */
    uint8_t data[];
} mem_frame_t;

typedef struct mem_queue {
    mem_frame_t *q[MEM_QLEN];
    unsigned     head, tail;
} mem_queue_t;

#define MEM_BATCH   64
#define MEM_IOV_MAX 4

typedef struct hxb_rail_mem {
    hxb_rail_t           super;
    struct hxb_rail_mem *peer;       /* NULL once the other end closed */
    uint8_t              peer_mac[6];   /* its frames' source, also then */
    mem_queue_t          in[HXB_RAIL_LANES]; /* frames for this rail to receive */
    mem_frame_t         *held;            /* reordering: frame held back     */
    struct {                              /* batch (f.batch): sends to come  */
        struct iovec     iov[MEM_IOV_MAX];
        int              iovcnt;
        hxb_raddr_t      dst;
    }                    bq[MEM_BATCH];
    int                  nbq;
    hxb_mem_faults_t     f;
    int                  down;
    double               stall_until;     /* deliver nothing before (s)  */
    int                  host_stall;      /* host_stall_until holds it too */
    double               busy_until;      /* rate: the link is busy until   */
    unsigned long        dropped_seq;     /* sequenced frames dropped (f.drop_ppm) */
    size_t               tx_largest;      /* the longest frame sent, bytes */
} hxb_rail_mem_t;

/* the stall of the one receiving host whose partners set f.stall_host */
static double host_stall_until;

/* the stall that holds this (receiving) rail: its own or its host's */
static double *mem_stall(hxb_rail_mem_t *m)
{
    return m->host_stall ? &host_stall_until : &m->stall_until;
}

static uint64_t mem_rand(hxb_rail_mem_t *m)
{
    /* xorshift64*: deterministic per seed */
    uint64_t x = m->f.seed ? m->f.seed : 0x9E3779B97F4A7C15ull;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    m->f.seed = x;
    return x * 0x2545F4914F6CDD1Dull;
}

static int mem_chance(hxb_rail_mem_t *m, unsigned ppm)
{
    return ppm && (mem_rand(m) % 1000000) < ppm;
}

static unsigned mem_queued(const hxb_rail_mem_t *m)
{
    unsigned n = 0;
    int lane;

    for (lane = 0; lane < HXB_RAIL_LANES; lane++) {
        n += m->in[lane].tail - m->in[lane].head;
    }
    return n;
}

static void mem_enqueue(hxb_rail_mem_t *dst, mem_frame_t *fr)
{
    mem_queue_t *in = &dst->in[fr->lane];

    if (in->tail - in->head == MEM_QLEN) {
        free(fr); /* receiver overrun: a loss */
        return;
    }
    in->q[in->tail++ % MEM_QLEN] = fr;
}

/* a rate-limited link's frame still on the wire */
static int mem_on_wire(const mem_frame_t *fr)
{
    return fr->due > 0 && fr->due > hxb_now();
}

/* the frame at the front of a lane if it has arrived (a FIFO: when it
 * is still on the wire, so is the rest), else NULL */
static mem_frame_t *mem_front(const mem_queue_t *in)
{
    mem_frame_t *fr;

    if (in->head == in->tail) {
        return NULL;
    }
    fr = in->q[in->head % MEM_QLEN];
    return mem_on_wire(fr) ? NULL : fr;
}

static int mem_lane(hxb_rail_t *r, const hxb_raddr_t *dst, size_t len)
{
    const hxb_rail_mem_t *m = (const hxb_rail_mem_t *)r;

    (void)dst;
    return m->f.lane_min && len >= m->f.lane_min;
}

static int mem_xmit(hxb_rail_t *r, const hxb_raddr_t *dst,
                    const struct iovec *iov, int iovcnt)
{
    hxb_rail_mem_t *m = (hxb_rail_mem_t *)r;
    size_t len = 0, off = 0;
    mem_frame_t *fr;
    int i;

    (void)dst;
    if (m->down || !m->peer) {      /* or the other end closed */
        r->stats.tx_errors++;
        return 0; /* like a dead link: the frame vanishes */
    }
    if (m->f.qlimit && mem_queued(m->peer) >= m->f.qlimit) {
        r->stats.tx_again++; /* refused by our own full queue */
        return 0;
    }
    for (i = 0; i < iovcnt; i++) {
        len += iov[i].iov_len;
    }
    r->stats.tx_frames++;
    r->stats.tx_bytes += len;
    if (len > m->tx_largest) {
        m->tx_largest = len;
    }
    if (mem_chance(m, m->f.drop_ppm) ||
        (m->f.dlimit && mem_queued(m->peer) >= m->f.dlimit)) {
        const uint8_t *h0 = iov[0].iov_base;
        if ((iov[0].iov_len >= sizeof(hxb_hdr_t) &&
             (((const hxb_hdr_t *)h0)->flags & HXB_F_SEQ)) ||
            (iov[0].iov_len && h0[0] == HXB_VERSION_SHORT)) {   /* always sequenced */
            m->dropped_seq++;
        }
        return 0;
    }
    fr = malloc(sizeof(*fr) + HXB_SHORT_GROW + len);   /* room in front: hxb_short.h */
    if (!fr) {
        return -ENOMEM;
    }
    fr->len = len;
    fr->lane = mem_lane(r, dst, len);
    fr->due = 0;
    fr->at = hxb_now();
    if (m->f.rate > 0) {
        double start = m->peer->busy_until > fr->at ? m->peer->busy_until : fr->at;
        fr->due = fr->at = m->peer->busy_until = start + len / m->f.rate;
    }
    if (fr->lane) {             /* the second socket is read later */
        fr->due = (fr->due > 0 ? fr->due : fr->at) + m->f.lane_us * 1e-6;
    }
    for (i = 0; i < iovcnt; i++) {
        memcpy(fr->data + HXB_SHORT_GROW + off, iov[i].iov_base, iov[i].iov_len);
        off += iov[i].iov_len;
    }
    if (len && m->f.udp && mem_chance(m, m->f.corrupt_ppm)) {
        free(fr);                /* UDP's checksum: the kernel drops it */
        return 0;
    }
    if (len && !m->f.udp && mem_chance(m, m->f.corrupt_ppm)) {
        fr->data[HXB_SHORT_GROW + mem_rand(m) % len] ^= (uint8_t)(1 + mem_rand(m) % 255);
    }
    if (mem_chance(m, m->f.dup_ppm)) {
        mem_frame_t *d = malloc(sizeof(*d) + HXB_SHORT_GROW + len);
        if (d) {
            memcpy(d, fr, sizeof(*d) + HXB_SHORT_GROW + len);
            mem_enqueue(m->peer, d);
        }
    }
    if (m->f.stall_host) {
        m->peer->host_stall = 1;
    }
    if (mem_chance(m, m->f.stall_ppm) && *mem_stall(m->peer) == 0) {
        *mem_stall(m->peer) = hxb_now() + m->f.stall_us * 1e-6;
    }
    if (!m->held && mem_chance(m, m->f.reorder_ppm)) {
        m->held = fr;           /* goes out after the next frame */
        return 0;
    }
    mem_enqueue(m->peer, fr);
    if (m->held) {
        mem_enqueue(m->peer, m->held);
        m->held = NULL;
    }
    return 0;
}

static int mem_flush(hxb_rail_t *r)
{
    hxb_rail_mem_t *m = (hxb_rail_mem_t *)r;
    int k;

    for (k = 0; k < m->nbq; k++) {
        mem_xmit(r, &m->bq[k].dst, m->bq[k].iov, m->bq[k].iovcnt);
    }
    m->nbq = 0;

    if (m->held) {              /* never hold a frame across a flush forever */
        if (m->peer) {
            mem_enqueue(m->peer, m->held);
        } else {
            free(m->held);      /* the other end closed meanwhile */
        }
        m->held = NULL;
    }
    return 0;
}

/* the caller's iovecs are kept, not copied, until the flush */
static int mem_send(hxb_rail_t *r, const hxb_raddr_t *dst,
                    const struct iovec *iov, int iovcnt)
{
    hxb_rail_mem_t *m = (hxb_rail_mem_t *)r;

    if (!m->f.batch) {
        return mem_xmit(r, dst, iov, iovcnt);
    }
    if (iovcnt > MEM_IOV_MAX) {
        return -EINVAL;
    }
    if (m->nbq == MEM_BATCH) {
        mem_flush(r);
    }
    memcpy(m->bq[m->nbq].iov, iov, iovcnt * sizeof(*iov));
    m->bq[m->nbq].iovcnt = iovcnt;
    m->bq[m->nbq].dst = *dst;
    m->nbq++;
    return 0;
}

static int mem_recv(hxb_rail_t *r, hxb_rx_cb_t cb, void *arg, int max)
{
    hxb_rail_mem_t *m = (hxb_rail_mem_t *)r;
    hxb_raddr_t src;
    mem_frame_t *fr;
    int n = 0, lane;

    if (*mem_stall(m)) {
        if (hxb_now() < *mem_stall(m)) {
            return 0;
        }
        *mem_stall(m) = 0;
    }
    memset(&src, 0, sizeof(src));
    memcpy(src.mac, m->peer_mac, 6);
    for (lane = 0; lane < HXB_RAIL_LANES; lane++) {   /* lane 0 first */
        mem_queue_t *in = &m->in[lane];

        while (n < max && (fr = mem_front(in))) {
            in->head++;
            if (!m->down) {
                r->stats.rx_frames++;
                r->stats.rx_bytes += fr->len;
                r->rx_stamp = fr->at;   /* a stall (receiver off the CPU) is host time */
                cb(arg, r, fr->data + HXB_SHORT_GROW, fr->len, &src);
            }
            free(fr);
            n++;
        }
    }
    return n;
}

static int mem_peek(hxb_rail_t *r, hxb_rx_cb_t cb, void *arg, int max)
{
    hxb_rail_mem_t *m = (hxb_rail_mem_t *)r;
    hxb_raddr_t src;
    mem_frame_t *fr;
    unsigned i;
    int n = 0, lane;

    if (m->down || (*mem_stall(m) && hxb_now() < *mem_stall(m))) {
        return 0;
    }
    memset(&src, 0, sizeof(src));
    memcpy(src.mac, m->peer_mac, 6);
    for (lane = 0; lane < HXB_RAIL_LANES; lane++) {
        mem_queue_t *in = &m->in[lane];

        for (i = in->head; n < max && i != in->tail; i++, n++) {
            fr = in->q[i % MEM_QLEN];
            if (mem_on_wire(fr)) {
                break;      /* and the rest of the lane */
            }
            cb(arg, r, fr->data + HXB_SHORT_GROW, fr->len, &src);
        }
    }
    return n;
}

/* a rate-limited link's queue of our frames, in bytes */
static long mem_backlog(hxb_rail_t *r)
{
    hxb_rail_mem_t *m = (hxb_rail_mem_t *)r;
    double q;

    if (m->f.rate <= 0 || m->f.no_backlog || !m->peer) {
        return -1;
    }
    q = m->peer->busy_until - hxb_now();
    return q > 0 ? (long)(q * m->f.rate) : 0;
}

static void mem_close(hxb_rail_t *r)
{
    hxb_rail_mem_t *m = (hxb_rail_mem_t *)r;
    int lane;

    for (lane = 0; lane < HXB_RAIL_LANES; lane++) {
        while (m->in[lane].head != m->in[lane].tail) {
            free(m->in[lane].q[m->in[lane].head++ % MEM_QLEN]);
        }
    }
    free(m->held);
    if (m->peer) {
        m->peer->peer = NULL;
    }
    free(m);
}

static const hxb_rail_ops_t mem_ops = {
    .send = mem_send, .flush = mem_flush, .recv = mem_recv, .peek = mem_peek,
    .backlog = mem_backlog,
    .close = mem_close,
    .lane = mem_lane,
};

int hxb_rail_mem_pair(size_t mtu, const hxb_mem_faults_t *faults,
                      hxb_rail_t **a, hxb_rail_t **b)
{
    static uint8_t next_mac = 1;
    hxb_rail_mem_t *x = calloc(1, sizeof(*x)), *y = calloc(1, sizeof(*y));
    hxb_rail_mem_t *both[2] = {x, y};
    int i;

    if (!x || !y) {
        free(x);
        free(y);
        return -ENOMEM;
    }
    host_stall_until = 0;       /* a new world: no host is off the CPU */
    x->peer = y;
    y->peer = x;
    for (i = 0; i < 2; i++) {
        hxb_rail_mem_t *m = both[i];
        m->super.ops = &mem_ops;
        m->super.fd = -1;
        m->super.sysfd = -1;
        m->super.mtu = mtu;
        m->super.up = 1;
        m->super.speed = 125e6;
        m->super.net_id = next_mac;      /* the pair shares a "switch" */
        m->super.mac[0] = 2;
        m->super.mac[5] = (uint8_t)(next_mac * 2 + i);
        both[1 - i]->peer_mac[0] = 2;
        both[1 - i]->peer_mac[5] = m->super.mac[5];
        m->super.ip = 1;                  /* looks addressable to the engine */
        m->super.port = 1;
        if (faults) {
            m->f = *faults;
            m->f.seed = faults->seed * 2 + i + 1;
        }
        m->super.udp_carrier = m->f.udp;
        m->super.rx_room = m->f.udp ? HXB_SHORT_GROW : 0;
    }
    next_mac++;
    *a = &x->super;
    *b = &y->super;
    return 0;
}

void hxb_rail_mem_set_faults(hxb_rail_t *rail, const hxb_mem_faults_t *faults)
{
    hxb_rail_mem_t *m = (hxb_rail_mem_t *)rail;
    uint64_t seed = m->f.seed;

    m->f = *faults;
    m->f.seed = seed ^ faults->seed;
    m->super.udp_carrier = m->f.udp;
    m->super.rx_room = m->f.udp ? HXB_SHORT_GROW : 0;
}

void hxb_rail_mem_set_down(hxb_rail_t *rail, int down)
{
    hxb_rail_mem_t *m = (hxb_rail_mem_t *)rail;

    m->down = down;
    m->super.up = !down;
    if (m->peer) {
        m->peer->down = down;
        m->peer->super.up = !down;
    }
}

int hxb_rail_mem_pending(const hxb_rail_t *rail)
{
    hxb_rail_mem_t *m = (hxb_rail_mem_t *)rail;
    int lane;

    if (*mem_stall(m) && hxb_now() < *mem_stall(m)) {
        return 0;
    }
    for (lane = 0; lane < HXB_RAIL_LANES; lane++) {
        if (mem_front(&m->in[lane])) {
            return 1;
        }
    }
    return 0;
}

double hxb_rail_mem_queue_delay(const hxb_rail_t *rail)
{
    const hxb_rail_mem_t *m = (const hxb_rail_mem_t *)rail;
    double now = hxb_now();

    return m->busy_until > now ? m->busy_until - now : 0;
}

unsigned long hxb_rail_mem_dropped_seq(const hxb_rail_t *rail)
{
    return ((const hxb_rail_mem_t *)rail)->dropped_seq;
}

size_t hxb_rail_mem_tx_largest(const hxb_rail_t *rail)
{
    return ((const hxb_rail_mem_t *)rail)->tx_largest;
}
