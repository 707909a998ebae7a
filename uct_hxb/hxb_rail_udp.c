/* UDP rail: one socket bound to the rail's address. Works unprivileged and
 * across IP routers; sendmmsg/recvmmsg batch the system calls.
 *
 * Segmentation offload: consecutive frames of a batch to one destination
 * with equal lengths (the last may be shorter) leave as one datagram with
 * UDP_SEGMENT, so a 7-frame burst crosses the stack, veths, bridges and
 * qdiscs as one skb; the kernel (or the NIC) cuts it into one datagram per
 * frame on the wire. With UDP_GRO a receiver gets such trains back in one
 * piece, with the segment size in a control message, and splits them here.
 * Per-skb costs, not per-byte ones, dominate at 9 KB frames: this is what
 * TCP's TSO/GRO do for UCX's tcp transport. Each segment is still a whole
 * hxb frame, so the wire format and a peer without offload are unchanged.
 *
 * Shared socket (hxb_rail_udp_open_shared, UCX_HXB_UDP_SHARED): the UDP
 * rails of a process may share one socket bound to the port on every
 * address. One recvmmsg per pass then reads every rail (the arrival
 * interface, IP_PKTINFO, names the rail), where separate sockets need
 * epoll first and a second call for what came; a datagram leaves by its
 * rail's interface and address (IP_PKTINFO on send). The socket's buffers
 * are then shared by its rails too. */
#include "hxb_clock.h"
#include "hxb_rail.h"
#include "hxb_short.h"
#include "hxb_wire.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/udp.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define UDP_RX_BATCH   32
#define UDP_IOV_MAX    4
#define UDP_BUF_SIZE   9216
#define UDP_SOCKBUF    (8 << 20)
#define UDP_GRO_BATCH  16      /* receive buffers of UDP_GRO_BUF with GRO  */
#define UDP_GRO_BUF    65536

/* one datagram of the TX batch: frames [first, first + nframes) */
typedef struct udp_dgram {
    int      first, nframes;
    uint16_t seg;                                   /* 0: no segmentation */
    union {
        char           buf[CMSG_SPACE(sizeof(uint16_t)) +
                           CMSG_SPACE(sizeof(struct in_pktinfo))];
        struct cmsghdr align;
    } ctl;
} udp_dgram_t;

typedef struct hxb_rail_udp hxb_rail_udp_t;

/* the socket of shared rails; the rail that opened it reads it for all
 * (udp_reader) */
typedef struct udp_hub {
    int             fd;
    int             nrails;
    hxb_rail_udp_t *rails[HXB_MAX_RAILS];
} udp_hub_t;

struct hxb_rail_udp {
    hxb_rail_t         super;
    int                sfd;        /* the socket (a shared one: the hub's) */
    udp_hub_t         *hub;        /* NULL: a socket of its own            */
    int                ifindex;    /* shared: the rail's interface...      */
    struct in_addr     src;        /* ... and address, for IP_PKTINFO      */
    int                gso, gro;   /* offloads this socket has (1) or lost */
    /* TX batch: one entry per frame, then one per datagram at flush */
    struct iovec       txiov[HXB_RAIL_BATCH][UDP_IOV_MAX];
    int                txiovcnt[HXB_RAIL_BATCH];
    size_t             txlen[HXB_RAIL_BATCH];
    struct sockaddr_in txaddr[HXB_RAIL_BATCH];
    uint32_t           txfinal[HXB_RAIL_BATCH]; /* the frame's dst_node, dst_proc */
    int                ntx;
    struct mmsghdr     dgm[HXB_RAIL_BATCH];
    struct iovec       dgiov[HXB_RAIL_BATCH * UDP_IOV_MAX];
    udp_dgram_t        dg[HXB_RAIL_BATCH];
    /* RX batch */
    struct mmsghdr     rxm[UDP_RX_BATCH];
    struct iovec       rxiov[UDP_RX_BATCH];
    struct sockaddr_in rxaddr[UDP_RX_BATCH];
    union {   /* UDP_GRO's segment size, SO_TIMESTAMPNS's stamp, IP_PKTINFO */
        char           buf[CMSG_SPACE(sizeof(int)) + CMSG_SPACE(sizeof(struct timespec)) +
                           CMSG_SPACE(sizeof(struct in_pktinfo))];
        struct cmsghdr align;
    } rxctl[UDP_RX_BATCH];
    int                nrx;        /* receive buffers                       */
    int                rx_dirty;   /* rxm entries the kernel filled since
                                      they were last made ready: it writes
                                      back only the datagrams it returns   */
    uint8_t           *rxbuf;
};

/* Frames i and j may share a datagram: the same address, and the same
 * final destination - a relay routes a whole segmented datagram by its
 * first frame, and frames to several peers behind it share its address. */
static int same_dst(const hxb_rail_udp_t *u, int i, int j)
{
    return u->txaddr[i].sin_addr.s_addr == u->txaddr[j].sin_addr.s_addr &&
           u->txaddr[i].sin_port == u->txaddr[j].sin_port &&
           u->txfinal[i] == u->txfinal[j];
}

/* Group the batch's frames from `from` on into datagrams: a run of frames
 * to one destination, all of one length but the last, which may be
 * shorter, goes as one segmented datagram. The datagrams are written from
 * dgm[nd] on; returns the index past the last. */
static int udp_build(hxb_rail_udp_t *u, int from, int nd)
{
    int niov = 0, i = from, k;

    while (i < u->ntx) {
        udp_dgram_t *d = &u->dg[nd];
        struct msghdr *m = &u->dgm[nd].msg_hdr;
        size_t seg = u->txlen[i], total = 0;

        d->first = i;
        d->nframes = 0;
        memset(m, 0, sizeof(*m));
        m->msg_name = &u->txaddr[i];
        m->msg_namelen = sizeof(u->txaddr[i]);
        m->msg_iov = &u->dgiov[niov];
        do {
            for (k = 0; k < u->txiovcnt[i]; k++) {
                u->dgiov[niov++] = u->txiov[i][k];
            }
            total += u->txlen[i];
            d->nframes++;
            i++;
        } while (u->gso && i < u->ntx && same_dst(u, i, d->first) &&
                 u->txlen[i - 1] == seg && u->txlen[i] <= seg &&
                 total + u->txlen[i] <= HXB_UDP_GSO_BYTES && d->nframes < HXB_UDP_GSO_SEGS);
        m->msg_iovlen = (size_t)(&u->dgiov[niov] - m->msg_iov);
        d->seg = 0;
        if ((d->nframes > 1) || u->hub) {
            struct cmsghdr *c = &d->ctl.align;
            size_t len = 0;

            m->msg_control = d->ctl.buf;
            if (d->nframes > 1) {
                d->seg = (uint16_t)seg;
                c->cmsg_level = SOL_UDP;
                c->cmsg_type = UDP_SEGMENT;
                c->cmsg_len = CMSG_LEN(sizeof(uint16_t));
                memcpy(CMSG_DATA(c), &d->seg, sizeof(d->seg));
                len += CMSG_SPACE(sizeof(uint16_t));
                c = (struct cmsghdr *)(d->ctl.buf + len);
            }
            if (u->hub) {       /* by the rail's interface, from its address */
                struct in_pktinfo pi = {.ipi_ifindex = u->ifindex, .ipi_spec_dst = u->src};

                c->cmsg_level = IPPROTO_IP;
                c->cmsg_type = IP_PKTINFO;
                c->cmsg_len = CMSG_LEN(sizeof(pi));
                memcpy(CMSG_DATA(c), &pi, sizeof(pi));
                len += CMSG_SPACE(sizeof(pi));
            }
            m->msg_controllen = len;
        }
        nd++;
    }
    return nd;
}

/* datagram i of rail u's batch left: count it */
static void udp_sent(hxb_rail_udp_t *u, int i)
{
    u->super.stats.tx_bytes += u->dgm[i].msg_len;
    u->super.stats.tx_frames += u->dg[i].nframes;
    u->super.stats.tx_gso += u->dg[i].nframes > 1;
}

/* the batch's datagrams [done, nd) of rail u, built by udp_build */
static void udp_send_dgrams(hxb_rail_udp_t *u, int done, int nd)
{
    hxb_rail_t *r = &u->super;
    int n, i;

    while (done < nd) {
        n = sendmmsg(u->sfd, u->dgm + done, nd - done, MSG_DONTWAIT);
        if (n < 0) {
            int lost = u->ntx - u->dg[done].first;

            if (errno == EINTR) {
                continue;
            }
            if (u->dg[done].seg && (errno == EIO || errno == EINVAL)) {
                /* no segmentation offload on this path (a device without
                 * checksum offload, an old kernel): send frame by frame */
                u->gso = 0;
                nd = udp_build(u, u->dg[done].first, done);
                continue;
            }
            /* the socket buffer is full (EAGAIN, ENOBUFS): the rest is
             * lost like frames dropped on the wire, and reliability resends
             * it. Anything else (EMSGSIZE, EPERM from a firewall rule,
             * ENETUNREACH) is this datagram's destination or size: only
             * its frames are lost, the others still go. */
            if (errno == EAGAIN || errno == ENOBUFS) {
                r->stats.tx_again += lost;
                break;
            }
            r->stats.tx_errors += u->dg[done].nframes;
            done++;
            continue;
        }
        for (i = done; i < done + n; i++) {
            udp_sent(u, i);
        }
        done += n;
    }
}

static int udp_flush(hxb_rail_t *r)
{
    hxb_rail_udp_t *u = (hxb_rail_udp_t *)r;

    if (u->ntx == 0) {
        return 0;               /* every pass flushes every rail */
    }
    udp_send_dgrams(u, 0, udp_build(u, 0, 0));
    u->ntx = 0;
    return 0;
}

/* Every shared rail's batch in one sendmmsg: each datagram names its rail
 * by IP_PKTINFO, so the one socket sends them all, and a pass that sends
 * on 6 rails makes 1 system call, not 6 (as raw rails do). The rails'
 * datagrams keep their order, rail by rail. Any error other than EINTR
 * (the socket buffer full, a path without segmentation offload) leaves
 * the rest to each rail's own sending, which knows what to do. Rails with
 * sockets of their own flush one by one. */
#define UDP_GATHER 64
static void udp_flush_many(hxb_rail_t **rails, int nrails)
{
    struct mmsghdr m[UDP_GATHER];
    int own[UDP_GATHER], nd[HXB_MAX_RAILS], sent[HXB_MAX_RAILS];
    hxb_rail_udp_t *u0 = (hxb_rail_udp_t *)rails[0];
    int i, k, cnt, n, ri;

    for (i = 0; i < nrails; i++) {
        if (!((hxb_rail_udp_t *)rails[i])->hub ||
            ((hxb_rail_udp_t *)rails[i])->hub != u0->hub || nrails > HXB_MAX_RAILS) {
            for (i = 0; i < nrails; i++) {
                udp_flush(rails[i]);
            }
            return;
        }
    }
    for (i = 0; i < nrails; i++) {
        hxb_rail_udp_t *u = (hxb_rail_udp_t *)rails[i];
        nd[i] = u->ntx ? udp_build(u, 0, 0) : 0;
        sent[i] = 0;
    }
    for (ri = 0;;) {
        for (cnt = 0, i = ri; i < nrails && cnt < UDP_GATHER; i++) {
            hxb_rail_udp_t *u = (hxb_rail_udp_t *)rails[i];
            for (k = sent[i]; k < nd[i] && cnt < UDP_GATHER; k++, cnt++) {
                m[cnt] = u->dgm[k];
                own[cnt] = i;
            }
        }
        if (cnt == 0) {
            break;
        }
        n = sendmmsg(u0->sfd, m, cnt, MSG_DONTWAIT);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            for (i = ri; i < nrails; i++) {
                udp_send_dgrams((hxb_rail_udp_t *)rails[i], sent[i], nd[i]);
                sent[i] = nd[i];
            }
            break;
        }
        for (k = 0; k < n; k++) {
            hxb_rail_udp_t *u = (hxb_rail_udp_t *)rails[own[k]];
            u->dgm[sent[own[k]]].msg_len = m[k].msg_len;
            udp_sent(u, sent[own[k]]++);
        }
        while (ri < nrails && sent[ri] == nd[ri]) {
            ri++;
        }
    }
    for (i = 0; i < nrails; i++) {
        ((hxb_rail_udp_t *)rails[i])->ntx = 0;
    }
}

static int udp_send(hxb_rail_t *r, const hxb_raddr_t *dst,
                    const struct iovec *iov, int iovcnt)
{
    hxb_rail_udp_t *u = (hxb_rail_udp_t *)r;
    int k = u->ntx, i;

    if (iovcnt > UDP_IOV_MAX) {
        return -EINVAL;
    }
    if (dst->ip == 0 || dst->port == 0) {
        return -EHOSTUNREACH;
    }
    u->txaddr[k].sin_family = AF_INET;
    u->txaddr[k].sin_port = dst->port;
    u->txaddr[k].sin_addr.s_addr = dst->ip;
    u->txfinal[k] = 0;
    if (iov[0].iov_len && *(const uint8_t *)iov[0].iov_base == HXB_VERSION_SHORT) {
        /* no relay reads a short frame: it goes to its receiver's own
         * address, and may join the frame before it there */
        if (k && u->txaddr[k - 1].sin_addr.s_addr == dst->ip &&
            u->txaddr[k - 1].sin_port == dst->port) {
            u->txfinal[k] = u->txfinal[k - 1];
        }
    } else if (iov[0].iov_len >= sizeof(hxb_hdr_t)) {
        memcpy(&u->txfinal[k], (const uint8_t *)iov[0].iov_base +
               offsetof(hxb_hdr_t, dst_node), sizeof(u->txfinal[k]));
    }
    memcpy(u->txiov[k], iov, iovcnt * sizeof(*iov));
    u->txiovcnt[k] = iovcnt;
    u->txlen[k] = 0;
    for (i = 0; i < iovcnt; i++) {
        u->txlen[k] += iov[i].iov_len;
    }
    if (++u->ntx == HXB_RAIL_BATCH) {
        udp_flush(r);
    }
    return 0;
}

/* The segment size of a coalesced datagram (its length if it is one),
 * when the kernel received it (real time; 0 if not stamped; a coalesced
 * datagram's is its first segment's) and the interface it came by (0 if
 * not told) */
static size_t udp_rx_meta(struct msghdr *m, size_t len, double *real, int *ifindex)
{
    struct cmsghdr *c;
    struct timespec ts;
    struct in_pktinfo pi;
    size_t seg = len;
    int s;

    *real = 0;
    *ifindex = 0;
    for (c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c)) {
        if (c->cmsg_level == SOL_UDP && c->cmsg_type == UDP_GRO) {
            memcpy(&s, CMSG_DATA(c), sizeof(s));
            seg = s > 0 ? (size_t)s : len;
        } else if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
            memcpy(&ts, CMSG_DATA(c), sizeof(ts));
            *real = (double)ts.tv_sec + ts.tv_nsec * 1e-9;
        } else if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_PKTINFO) {
            memcpy(&pi, CMSG_DATA(c), sizeof(pi));
            *ifindex = pi.ipi_ifindex;
        }
    }
    return seg;
}

/* The rail a datagram to this socket is for: a rail's own socket, its
 * rail; a shared one, the rail of the interface it came by (NULL: an
 * interface that is no rail of ours, the management network, lo) */
static hxb_rail_udp_t *udp_rx_rail(hxb_rail_udp_t *u, int ifindex)
{
    int i;

    if (!u->hub) {
        return u;
    }
    for (i = 0; i < u->hub->nrails; i++) {
        if (u->hub->rails[i]->ifindex == ifindex) {
            return u->hub->rails[i];
        }
    }
    return NULL;
}

/* receive entry i ready for the kernel: its address and control buffers
 * whole again */
static void udp_rx_ready(hxb_rail_udp_t *u, int i)
{
    u->rxm[i].msg_hdr.msg_namelen = sizeof(u->rxaddr[i]);
    u->rxm[i].msg_hdr.msg_control = u->rxctl[i].buf;
    u->rxm[i].msg_hdr.msg_controllen = sizeof(u->rxctl[i].buf);
}

/* a shared socket is read by the rail that opened it alone (it has the
 * receive buffers); after it closes, by none: the others are closing too */
static int udp_reader(const hxb_rail_udp_t *u)
{
    return u->rxbuf != NULL;
}

/* Delivers whole datagrams until at least max frames are delivered or the
 * socket is drained, so a return below max still means drained (the
 * engine's end-of-burst ack relies on it); a coalesced datagram may take
 * the count past max. */
static int udp_recv(hxb_rail_t *r, hxb_rx_cb_t cb, void *arg, int max)
{
    hxb_rail_udp_t *u = (hxb_rail_udp_t *)r, *to;
    hxb_raddr_t src;
    double real_off = 0, real;
    int n, i, want, ifindex, got = 0;

    if (!r->sys_ready || !udp_reader(u)) {
        return 0;                   /* the engine's epoll saw nothing */
    }
    memset(&src, 0, sizeof(src));
    while (got < max) {
        want = max - got < u->nrx ? max - got : u->nrx;
        for (i = 0; i < u->rx_dirty; i++) {
            udp_rx_ready(u, i);
        }
        u->rx_dirty = 0;
        n = recvmmsg(u->sfd, u->rxm, want, MSG_DONTWAIT, NULL);
        if (n <= 0) {
            break;
        }
        u->rx_dirty = n;
        if (got == 0) {
            real_off = hxb_rail_real_off(r);
        }
        for (i = 0; i < n; i++) {
            uint8_t *p = u->rxiov[i].iov_base;
            size_t len = u->rxm[i].msg_len, seg, off;

            src.ip = u->rxaddr[i].sin_addr.s_addr;
            src.port = u->rxaddr[i].sin_port;
            seg = udp_rx_meta(&u->rxm[i].msg_hdr, len, &real, &ifindex);
            to = udp_rx_rail(u, ifindex);
            if (!to) {
                r->stats.rx_foreign++;  /* counted, dropped, nothing learned */
                continue;
            }
            to->super.stats.rx_bytes += len;
            to->super.rx_stamp = real > 0 ? real - real_off : 0;
            to->super.stats.rx_gro += seg < len;
            off = 0;
            do {                        /* an empty datagram: one empty frame */
                size_t flen = len - off < seg ? len - off : seg;

                to->super.stats.rx_frames++;
                got++;
                cb(arg, &to->super, p + off, flen, &src);
                off += flen;
            } while (off < len);
        }
        if (n < want) {
            break;
        }
    }
    return got;
}

/* Each datagram's first bytes, without taking it: with a peek offset set,
 * MSG_PEEK | MSG_TRUNC moves it past the whole datagram (a coalesced train
 * too), so the next peek sees the next one. The offset is switched off
 * again after, since while set every read of the socket updates it. */
static int udp_peek(hxb_rail_t *r, hxb_rx_cb_t cb, void *arg, int max)
{
    hxb_rail_udp_t *u = (hxb_rail_udp_t *)r, *to;
    uint8_t buf[HXB_RAIL_PEEK_LEN];
    union {   /* IP_PKTINFO, behind SO_TIMESTAMPNS's stamp */
        char           buf[CMSG_SPACE(sizeof(struct timespec)) +
                           CMSG_SPACE(sizeof(struct in_pktinfo))];
        struct cmsghdr align;
    } ctl;
    struct sockaddr_in from;
    struct iovec iov = {buf, sizeof(buf)};
    struct msghdr m;
    hxb_raddr_t src;
    int on = 0, off = -1, n = 0, ifindex;
    double real;
    ssize_t len;

    if (!udp_reader(u) ||
        (setsockopt(u->sfd, SOL_SOCKET, SO_PEEK_OFF, &on, sizeof(on)) < 0)) {
        return 0;
    }
    memset(&src, 0, sizeof(src));
    while (n < max) {
        memset(&m, 0, sizeof(m));
        m.msg_name = &from;
        m.msg_namelen = sizeof(from);
        m.msg_iov = &iov;
        m.msg_iovlen = 1;
        m.msg_control = u->hub ? ctl.buf : NULL;
        m.msg_controllen = u->hub ? sizeof(ctl.buf) : 0;
        len = recvmsg(u->sfd, &m, MSG_PEEK | MSG_TRUNC | MSG_DONTWAIT);
        if (len < 0) {
            break;
        }
        src.ip = from.sin_addr.s_addr;
        src.port = from.sin_port;
        udp_rx_meta(&m, (size_t)len, &real, &ifindex);
        to = udp_rx_rail(u, ifindex);
        if (to) {
            cb(arg, &to->super, buf, (size_t)len < sizeof(buf) ? (size_t)len : sizeof(buf),
               &src);
        }
        n++;
    }
    setsockopt(u->sfd, SOL_SOCKET, SO_PEEK_OFF, &off, sizeof(off));
    return n;
}

/* the socket's skbs not yet sent by the interface (a rate-limited qdisc
 * holds them): counted in their allocation size, a few % above the data */
static long udp_backlog(hxb_rail_t *r)
{
    hxb_rail_udp_t *u = (hxb_rail_udp_t *)r;
    int q;

    if (u->hub && (u->hub->nrails > 1)) {
        return -1;              /* the socket's holds every rail's: unknown */
    }
    return ioctl(u->sfd, SIOCOUTQ, &q) < 0 ? -1 : q;
}

void hxb_rail_udp_no_offload(hxb_rail_t *r)
{
    hxb_rail_udp_t *u = (hxb_rail_udp_t *)r;
    int off = 0;

    u->gso = 0;
    if (u->gro) {
        setsockopt(u->sfd, SOL_UDP, UDP_GRO, &off, sizeof(off));
        u->gro = 0;
    }
}

static void udp_close(hxb_rail_t *r)
{
    hxb_rail_udp_t *u = (hxb_rail_udp_t *)r;
    udp_hub_t *hub = u->hub;
    int i, j;

    udp_flush(r);
    if (!hub) {
        close(u->sfd);
    } else {
        for (i = j = 0; i < hub->nrails; i++) {
            if (hub->rails[i] != u) {
                hub->rails[j++] = hub->rails[i];
            }
        }
        hub->nrails = j;
        if (j == 0) {
            close(hub->fd);
            free(hub);
        }
    }
    free(u->rxbuf);
    free(u);
}

static const hxb_rail_ops_t udp_ops = {
    .send = udp_send, .flush = udp_flush, .flush_many = udp_flush_many, .recv = udp_recv, .peek = udp_peek,
    .backlog = udp_backlog, .close = udp_close,
};

/* the rail's interface: its IPv4 address (a UDP rail needs one), index
 * and largest frame, asked through fd */
static int udp_iface(hxb_rail_udp_t *u, int fd, const char *ifname, char *err, size_t errlen)
{
    struct ifreq ifr;
    int ret;

    memset(&ifr, 0, sizeof(ifr));
    snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
    if (ioctl(fd, SIOCGIFADDR, &ifr) < 0) {
        ret = -errno;
        snprintf(err, errlen, "%s: has no IPv4 address, so it cannot be a UDP rail",
                 ifname);
        return ret;
    }
    u->src = ((struct sockaddr_in *)&ifr.ifr_addr)->sin_addr;
    if (ioctl(fd, SIOCGIFMTU, &ifr) < 0) {
        ret = -errno;
        snprintf(err, errlen, "%s: cannot read MTU: %s", ifname, strerror(errno));
        return ret;
    }
    u->super.mtu = (size_t)ifr.ifr_mtu - 28;
    if (u->super.mtu > UDP_BUF_SIZE) {
        u->super.mtu = UDP_BUF_SIZE;
    }
    u->ifindex = (int)if_nametoindex(ifname);
    snprintf(u->super.ifname, sizeof(u->super.ifname), "%s", ifname);
    u->super.ops = &udp_ops;
    u->super.udp_carrier = 1;
    u->super.rx_room = HXB_SHORT_GROW;   /* every buffer's, and a coalesced
                                          * train's frames after the first
                                          * have the one before them, read */
    u->gso = 1;
    return 0;
}

/* A socket for the rails: bound to the rail's address (any = 0) or to
 * every address (any = 1, shared), on *port (0: any; returns the one
 * bound), with its receive buffers in u */
static int udp_socket(hxb_rail_udp_t *u, const char *ifname, int any, uint16_t *port,
                      char *err, size_t errlen)
{
    struct sockaddr_in sa;
    socklen_t salen = sizeof(sa);
    int fd, i, bufsz = UDP_SOCKBUF, ret;
    size_t bufsize = UDP_BUF_SIZE;

    fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        ret = -errno;
        snprintf(err, errlen, "%s: socket: %s", ifname, strerror(errno));
        return ret;
    }
    ret = udp_iface(u, fd, ifname, err, errlen);
    if (ret < 0) {
        goto fail_fd;
    }
    /* segmentation offload is asked for per datagram; a kernel without it
     * refuses the first one and the rail falls back (udp_flush) */
    i = 1;
    u->gro = setsockopt(fd, SOL_UDP, UDP_GRO, &i, sizeof(i)) == 0;
    /* receive times, for the hold the ACKs report (without: unknown) */
    (void)setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &i, sizeof(i));
    /* shared: which interface, so which rail, a datagram came by */
    if (any && (setsockopt(fd, IPPROTO_IP, IP_PKTINFO, &i, sizeof(i)) < 0)) {
        ret = -errno;
        snprintf(err, errlen, "%s: IP_PKTINFO: %s", ifname, strerror(errno));
        goto fail_fd;
    }
    u->nrx = UDP_RX_BATCH;
    if (u->gro) {
        u->nrx = UDP_GRO_BATCH;
        bufsize = UDP_GRO_BUF;
    }
    /* each buffer has room in front for a short frame to grow into */
    u->rxbuf = malloc((size_t)u->nrx * (HXB_SHORT_GROW + bufsize));
    if (!u->rxbuf) {
        ret = -ENOMEM;
        snprintf(err, errlen, "out of memory");
        goto fail_fd;
    }
    memset(&sa, 0, sizeof(sa));
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = any ? htonl(INADDR_ANY) : u->src.s_addr;
    sa.sin_port = *port;
    if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
        ret = -errno;
        snprintf(err, errlen, "%s: bind to %s port %u: %s", ifname,
                 inet_ntoa(sa.sin_addr), ntohs(*port), strerror(errno));
        goto fail_fd;
    }
    getsockname(fd, (struct sockaddr *)&sa, &salen);
    *port = sa.sin_port;
    /* large socket buffers: losses must come from the wire, not from us;
     * the FORCE variants need CAP_NET_ADMIN, the plain ones are capped */
    if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bufsz, sizeof(bufsz)) < 0) {
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bufsz, sizeof(bufsz));
    }
    if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &bufsz, sizeof(bufsz)) < 0) {
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bufsz, sizeof(bufsz));
    }
    /* do not fragment: a frame larger than the path MTU is a bug to see */
    i = IP_PMTUDISC_PROBE;
    setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &i, sizeof(i));
    for (i = 0; i < u->nrx; i++) {
        u->rxiov[i].iov_base = u->rxbuf + (size_t)i * (HXB_SHORT_GROW + bufsize) +
                               HXB_SHORT_GROW;
        u->rxiov[i].iov_len = bufsize;
        u->rxm[i].msg_hdr.msg_iov = &u->rxiov[i];
        u->rxm[i].msg_hdr.msg_iovlen = 1;
        u->rxm[i].msg_hdr.msg_name = &u->rxaddr[i];
        udp_rx_ready(u, i);
    }
    u->sfd = u->super.fd = u->super.sysfd = fd;
    u->super.sys_ready = 1;
    u->super.port = *port;
    return 0;

fail_fd:
    close(fd);
    free(u->rxbuf);
    u->rxbuf = NULL;
    return ret;
}

int hxb_rail_udp_open(const char *ifname, uint16_t *port, hxb_rail_t **rail_p,
                      char *err, size_t errlen)
{
    hxb_rail_udp_t *u = calloc(1, sizeof(*u));
    int ret;

    if (!u) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    ret = udp_socket(u, ifname, 0, port, err, errlen);
    if (ret < 0) {
        free(u);
        return ret;
    }
    *rail_p = &u->super;
    return 0;
}

int hxb_rail_udp_open_shared(const char *ifname, uint16_t *port, hxb_rail_t *share,
                             hxb_rail_t **rail_p, char *err, size_t errlen)
{
    hxb_rail_udp_t *u = calloc(1, sizeof(*u)), *first = (hxb_rail_udp_t *)share;
    udp_hub_t *hub;
    int ret;

    if (!u) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    if (!first) {
        hub = calloc(1, sizeof(*hub));
        ret = hub ? udp_socket(u, ifname, 1, port, err, errlen) : -ENOMEM;
        if (ret < 0) {
            if (!hub) {
                snprintf(err, errlen, "out of memory");
            }
            free(hub);
            free(u);
            return ret;
        }
        hub->fd = u->sfd;
    } else {
        hub = first->hub;
        if (!hub || (hub->nrails == HXB_MAX_RAILS)) {
            free(u);
            snprintf(err, errlen, "%s: cannot share that rail's socket", ifname);
            return -EINVAL;
        }
        ret = udp_iface(u, hub->fd, ifname, err, errlen);
        if (ret < 0) {
            free(u);
            return ret;
        }
        /* the first rail reads the socket for all: nothing to poll here */
        u->sfd = hub->fd;
        u->super.fd = u->super.sysfd = -1;
        u->super.sys_ready = 1;
        u->super.port = first->super.port;
        u->gro = first->gro;
        *port = first->super.port;
    }
    u->hub = hub;
    hub->rails[hub->nrails++] = u;
    *rail_p = &u->super;
    return 0;
}
