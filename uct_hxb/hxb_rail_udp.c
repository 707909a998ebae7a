/* UDP rail: one socket bound to the rail's address. Works unprivileged and
 * across IP routers; sendmmsg/recvmmsg batch the system calls. */
#include "hxb_rail.h"
#include "hxb_wire.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define UDP_RX_BATCH   32
#define UDP_IOV_MAX    4
#define UDP_BUF_SIZE   9216
#define UDP_SOCKBUF    (8 << 20)

typedef struct hxb_rail_udp {
    hxb_rail_t         super;
    /* TX batch */
    struct mmsghdr     txm[HXB_RAIL_BATCH];
    struct iovec       txiov[HXB_RAIL_BATCH][UDP_IOV_MAX];
    struct sockaddr_in txaddr[HXB_RAIL_BATCH];
    int                ntx;
    /* RX batch */
    struct mmsghdr     rxm[UDP_RX_BATCH];
    struct iovec       rxiov[UDP_RX_BATCH];
    struct sockaddr_in rxaddr[UDP_RX_BATCH];
    uint8_t           *rxbuf;
} hxb_rail_udp_t;

static int udp_flush(hxb_rail_t *r)
{
    hxb_rail_udp_t *u = (hxb_rail_udp_t *)r;
    int done = 0, n, i;

    while (done < u->ntx) {
        n = sendmmsg(r->fd, u->txm + done, u->ntx - done, MSG_DONTWAIT);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            /* the socket buffer is full (EAGAIN) or the network refused
             * (ENOBUFS, ECONNREFUSED, ENETUNREACH): these frames are lost
             * like frames dropped on the wire; reliability resends them */
            if (errno == EAGAIN || errno == ENOBUFS) {
                r->stats.tx_again += u->ntx - done;
            } else {
                r->stats.tx_errors += u->ntx - done;
            }
            break;
        }
        for (i = done; i < done + n; i++) {
            r->stats.tx_bytes += u->txm[i].msg_len;
        }
        r->stats.tx_frames += n;
        done += n;
    }
    u->ntx = 0;
    return 0;
}

static int udp_send(hxb_rail_t *r, const hxb_raddr_t *dst,
                    const struct iovec *iov, int iovcnt)
{
    hxb_rail_udp_t *u = (hxb_rail_udp_t *)r;
    struct msghdr *m;
    int k = u->ntx;

    if (iovcnt > UDP_IOV_MAX) {
        return -EINVAL;
    }
    if (dst->ip == 0 || dst->port == 0) {
        return -EHOSTUNREACH;
    }
    u->txaddr[k].sin_family = AF_INET;
    u->txaddr[k].sin_port = dst->port;
    u->txaddr[k].sin_addr.s_addr = dst->ip;
    memcpy(u->txiov[k], iov, iovcnt * sizeof(*iov));
    m = &u->txm[k].msg_hdr;
    memset(m, 0, sizeof(*m));
    m->msg_name = &u->txaddr[k];
    m->msg_namelen = sizeof(u->txaddr[k]);
    m->msg_iov = u->txiov[k];
    m->msg_iovlen = iovcnt;
    if (++u->ntx == HXB_RAIL_BATCH) {
        udp_flush(r);
    }
    return 0;
}

static int udp_recv(hxb_rail_t *r, hxb_rx_cb_t cb, void *arg, int max)
{
    hxb_rail_udp_t *u = (hxb_rail_udp_t *)r;
    hxb_raddr_t src;
    int n, i;

    if (max > UDP_RX_BATCH) {
        max = UDP_RX_BATCH;
    }
    for (i = 0; i < max; i++) {
        u->rxm[i].msg_hdr.msg_namelen = sizeof(u->rxaddr[i]);
    }
    n = recvmmsg(r->fd, u->rxm, max, MSG_DONTWAIT, NULL);
    if (n <= 0) {
        return 0;
    }
    memset(&src, 0, sizeof(src));
    for (i = 0; i < n; i++) {
        src.ip = u->rxaddr[i].sin_addr.s_addr;
        src.port = u->rxaddr[i].sin_port;
        r->stats.rx_frames++;
        r->stats.rx_bytes += u->rxm[i].msg_len;
        cb(arg, r, u->rxiov[i].iov_base, u->rxm[i].msg_len, &src);
    }
    return n;
}

static void udp_close(hxb_rail_t *r)
{
    hxb_rail_udp_t *u = (hxb_rail_udp_t *)r;

    udp_flush(r);
    close(r->fd);
    free(u->rxbuf);
    free(u);
}

static const hxb_rail_ops_t udp_ops = {
    .send = udp_send, .flush = udp_flush, .recv = udp_recv, .close = udp_close,
};

int hxb_rail_udp_open(const char *ifname, uint16_t *port, hxb_rail_t **rail_p,
                      char *err, size_t errlen)
{
    hxb_rail_udp_t *u;
    struct sockaddr_in sa;
    struct ifreq ifr;
    socklen_t salen = sizeof(sa);
    int fd, i, bufsz = UDP_SOCKBUF, ret;

    u = calloc(1, sizeof(*u));
    if (!u || !(u->rxbuf = malloc((size_t)UDP_RX_BATCH * UDP_BUF_SIZE))) {
        free(u);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        ret = -errno;
        snprintf(err, errlen, "%s: socket: %s", ifname, strerror(errno));
        goto fail;
    }
    memset(&ifr, 0, sizeof(ifr));
    snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
    if (ioctl(fd, SIOCGIFADDR, &ifr) < 0) {
        ret = -errno;
        snprintf(err, errlen, "%s: has no IPv4 address, so it cannot be a UDP rail",
                 ifname);
        goto fail_fd;
    }
    memset(&sa, 0, sizeof(sa));
    sa.sin_family = AF_INET;
    sa.sin_addr = ((struct sockaddr_in *)&ifr.ifr_addr)->sin_addr;
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
    if (ioctl(fd, SIOCGIFMTU, &ifr) < 0) {
        ret = -errno;
        snprintf(err, errlen, "%s: cannot read MTU: %s", ifname, strerror(errno));
        goto fail_fd;
    }
    u->super.mtu = (size_t)ifr.ifr_mtu - 28;
    if (u->super.mtu > UDP_BUF_SIZE) {
        u->super.mtu = UDP_BUF_SIZE;
    }
    for (i = 0; i < UDP_RX_BATCH; i++) {
        u->rxiov[i].iov_base = u->rxbuf + (size_t)i * UDP_BUF_SIZE;
        u->rxiov[i].iov_len = UDP_BUF_SIZE;
        u->rxm[i].msg_hdr.msg_iov = &u->rxiov[i];
        u->rxm[i].msg_hdr.msg_iovlen = 1;
        u->rxm[i].msg_hdr.msg_name = &u->rxaddr[i];
    }
    u->super.ops = &udp_ops;
    u->super.fd = fd;
    u->super.port = *port;
    snprintf(u->super.ifname, sizeof(u->super.ifname), "%s", ifname);
    *rail_p = &u->super;
    return 0;

fail_fd:
    close(fd);
fail:
    free(u->rxbuf);
    free(u);
    return ret;
}
