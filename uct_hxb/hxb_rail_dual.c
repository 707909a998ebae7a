/* Dual rail: one NIC used two ways (UCX_HXB_MODE=dual). Bulk frames to a
 * peer whose UDP address is known go by UDP, where a train of them leaves
 * as one segmented datagram and reaches the receiver back to back
 * (hxb_rail_udp.c): a fraction of the per-frame CPU. Everything else - acks,
 * short messages, frames to relayed peers (relays forward raw frames only) -
 * goes as raw Ethernet, which has the shorter path for a single frame (an
 * mmapped ring to receive from, no IP stack). Both carry the same hxb
 * frames; the receiver reads both sockets as one rail, each pass both.
 * Frames must not pass each other between the paths (the sender's per-rail
 * loss detection takes a frame overtaken on its rail for lost): whenever
 * a frame takes the other path than the one before, what waits on that one
 * is handed to the kernel first, so frames reach the NIC's queue in the
 * order they were sent. */
#include "hxb_rail.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

typedef struct hxb_rail_dual {
    hxb_rail_t  super;
    hxb_rail_t *raw, *udp;
    hxb_rail_t *last;           /* the path the previous frame took */
} hxb_rail_dual_t;

/* Frames this long or longer go by UDP: data fragments, not acks or short
 * messages (a full frame of a 1 MiB transfer is ~9 KB at MTU 9000) - or
 * half the MTU, if less: at MTU 1500 every frame is under 2 KB, and bulk
 * data went raw, one system-call slot and one trip through the stack per
 * frame, at 45 % of 4 rails where UDP's segmentation offload reached 93 %
 * (issue 26). */
#define DUAL_BULK_MIN 2048

static void dual_stats(hxb_rail_dual_t *d)
{
    const hxb_rail_stats_t *a = &d->raw->stats, *b = &d->udp->stats;
    hxb_rail_stats_t *s = &d->super.stats;

    s->tx_frames = a->tx_frames + b->tx_frames;
    s->tx_bytes = a->tx_bytes + b->tx_bytes;
    s->tx_again = a->tx_again + b->tx_again;
    s->tx_errors = a->tx_errors + b->tx_errors;
    s->rx_frames = a->rx_frames + b->rx_frames;
    s->rx_bytes = a->rx_bytes + b->rx_bytes;
    s->rx_ring_drops = a->rx_ring_drops + b->rx_ring_drops;
    s->tx_gso = b->tx_gso;
    s->rx_gro = b->rx_gro;
}

static int dual_by_udp(const hxb_rail_dual_t *d, const hxb_raddr_t *dst, size_t len)
{
    size_t bulk = d->super.mtu / 2 < DUAL_BULK_MIN ? d->super.mtu / 2 : DUAL_BULK_MIN;

    return len >= bulk && dst->ip && dst->port;
}

/* A frame that goes by UDP has UDP's checksum (carrier_csum) and joins the
 * UDP socket's queue, lane 1 (lane): one answer serves both ops. */
static int dual_udp_path(hxb_rail_t *r, const hxb_raddr_t *dst, size_t len)
{
    return dual_by_udp((const hxb_rail_dual_t *)r, dst, len);
}

static int dual_send(hxb_rail_t *r, const hxb_raddr_t *dst,
                     const struct iovec *iov, int iovcnt)
{
    hxb_rail_dual_t *d = (hxb_rail_dual_t *)r;
    hxb_rail_t *path;
    size_t len = 0;
    int i;

    for (i = 0; i < iovcnt; i++) {
        len += iov[i].iov_len;
    }
    path = dual_by_udp(d, dst, len) ? d->udp : d->raw;
    if (path != d->last) {
        d->last->ops->flush(d->last);   /* keep the order across paths */
        d->last = path;
    }
    return path->ops->send(path, dst, iov, iovcnt);
}

static int dual_flush(hxb_rail_t *r)
{
    hxb_rail_dual_t *d = (hxb_rail_dual_t *)r;

    d->raw->ops->flush(d->raw);
    d->udp->ops->flush(d->udp);
    dual_stats(d);
    return 0;
}

/* all raw halves in one system call, as raw rails do (hxb_rail_raw.c) */
static void dual_flush_many(hxb_rail_t **rails, int n)
{
    hxb_rail_t *raws[HXB_MAX_RAILS];
    int i;

    if (n <= 0) {
        return;
    }
    for (i = 0; i < n && i < HXB_MAX_RAILS; i++) {
        raws[i] = ((hxb_rail_dual_t *)rails[i])->raw;
    }
    raws[0]->ops->flush_many(raws, i);
    for (i = 0; i < n; i++) {
        hxb_rail_dual_t *d = (hxb_rail_dual_t *)rails[i];
        d->udp->ops->flush(d->udp);
        dual_stats(d);
    }
}

/* the halves deliver as the dual rail: the engine knows only it */
typedef struct dual_rx {
    hxb_rx_cb_t  cb;
    void        *arg;
    hxb_rail_t  *rail;
} dual_rx_t;

static void dual_rx_cb(void *arg, hxb_rail_t *half, void *data, size_t len,
                       const hxb_raddr_t *src)
{
    dual_rx_t *x = arg;

    x->rail->rx_stamp = half->rx_stamp;
    x->rail->rx_room = half->rx_room;
    x->cb(x->arg, x->rail, data, len, src);
}

/* below max means both sockets are drained (the engine relies on it) */
static int dual_recv(hxb_rail_t *r, hxb_rx_cb_t cb, void *arg, int max)
{
    hxb_rail_dual_t *d = (hxb_rail_dual_t *)r;
    dual_rx_t x = {.cb = cb, .arg = arg, .rail = r};
    int n;

    d->raw->real_off = d->udp->real_off = r->real_off;
    n = d->raw->ops->recv(d->raw, dual_rx_cb, &x, max);
    if (n < max) {
        d->udp->sys_ready = r->sys_ready;
        n += d->udp->ops->recv(d->udp, dual_rx_cb, &x, max - n);
    }
    if (n) {
        dual_stats(d);
    }
    return n;
}

static int dual_peek(hxb_rail_t *r, hxb_rx_cb_t cb, void *arg, int max)
{
    hxb_rail_dual_t *d = (hxb_rail_dual_t *)r;
    dual_rx_t x = {.cb = cb, .arg = arg, .rail = r};
    int n;

    n = d->raw->ops->peek(d->raw, dual_rx_cb, &x, max);
    return n + d->udp->ops->peek(d->udp, dual_rx_cb, &x, max - n);
}

/* bulk goes by UDP: its socket holds what our ACKs queue behind */
static long dual_backlog(hxb_rail_t *r)
{
    hxb_rail_dual_t *d = (hxb_rail_dual_t *)r;

    return d->udp->ops->backlog(d->udp);
}

static void dual_close(hxb_rail_t *r)
{
    hxb_rail_dual_t *d = (hxb_rail_dual_t *)r;

    d->raw->ops->close(d->raw);
    d->udp->ops->close(d->udp);
    close(r->fd);
    free(d);
}

static const hxb_rail_ops_t dual_ops = {
    .send = dual_send, .flush = dual_flush, .flush_many = dual_flush_many,
    .recv = dual_recv, .peek = dual_peek, .backlog = dual_backlog, .close = dual_close,
    .carrier_csum = dual_udp_path,
    .lane = dual_udp_path,
};

int hxb_rail_dual_open(const char *ifname, uint16_t *port, hxb_rail_t **rail_p,
                       char *err, size_t errlen)
{
    struct epoll_event ev = {.events = EPOLLIN};
    hxb_rail_dual_t *d = calloc(1, sizeof(*d));
    int ret;

    if (!d) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    /* the UDP port is the process id the raw half steers frames by */
    ret = hxb_rail_udp_open(ifname, port, &d->udp, err, errlen);
    if (ret < 0) {
        free(d);
        return ret;
    }
    ret = hxb_rail_raw_open(ifname, ntohs(*port), &d->raw, err, errlen);
    if (ret < 0) {
        d->udp->ops->close(d->udp);
        free(d);
        return ret;
    }
    /* one descriptor to sleep on for both halves */
    d->super.fd = epoll_create1(EPOLL_CLOEXEC);
    if (d->super.fd < 0 || epoll_ctl(d->super.fd, EPOLL_CTL_ADD, d->raw->fd, &ev) < 0 ||
        epoll_ctl(d->super.fd, EPOLL_CTL_ADD, d->udp->fd, &ev) < 0) {
        ret = -errno;
        snprintf(err, errlen, "%s: epoll: %s", ifname, strerror(errno));
        if (d->super.fd >= 0) {
            close(d->super.fd);
        }
        d->raw->ops->close(d->raw);
        d->udp->ops->close(d->udp);
        free(d);
        return ret;
    }
    d->super.ops = &dual_ops;
    d->super.udp_carrier = 1;      /* for frames carrier_csum sends by UDP */
    d->last = d->raw;
    d->super.sysfd = d->udp->fd;
    d->super.sys_ready = 1;
    d->super.port = *port;
    /* every frame must fit both halves */
    d->super.mtu = d->raw->mtu < d->udp->mtu ? d->raw->mtu : d->udp->mtu;
    snprintf(d->super.ifname, sizeof(d->super.ifname), "%s", ifname);
    *rail_p = &d->super;
    return 0;
}
