/* A node's report gathered on the node (hxb_cable_listen.h). */
#include "hxb_cable_listen.h"

#include "hxb_relay_hello.h"
#include "hxb_relay_sock.h"
#include "hxb_wire.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define PROBE_MS 100

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static long read_sysfs(const char *ifname, const char *what)
{
    char path[128], buf[64];
    FILE *f;
    long v = -1;

    snprintf(path, sizeof(path), "/sys/class/net/%s/%s", ifname, what);
    f = fopen(path, "r");
    if (f) {
        if (fgets(buf, sizeof(buf), f)) {
            v = strtol(buf, NULL, 10);
        }
        fclose(f);
    }
    return v;
}

/* link, MTU, MAC (ioctl) and speed (sysfs, as hxb_rail_sys.c reads it) */
static void link_facts(int sock, cable_if_t *c, const char *ifname)
{
    struct ifreq ifr;

    memset(&ifr, 0, sizeof(ifr));
    snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
    if (ioctl(sock, SIOCGIFFLAGS, &ifr) < 0) {
        return;     /* no such interface */
    }
    c->present = 1;
    c->up = (ifr.ifr_flags & IFF_UP) && (ifr.ifr_flags & IFF_RUNNING);
    if (ioctl(sock, SIOCGIFMTU, &ifr) == 0) {
        c->mtu = ifr.ifr_mtu;
    }
    if (ioctl(sock, SIOCGIFHWADDR, &ifr) == 0) {
        memcpy(c->mac, ifr.ifr_hwaddr.sa_data, 6);
    }
    c->speed = read_sysfs(ifname, "speed");   /* -1 when down or unknown */
    if (c->speed <= 0) {
        c->speed = -1;
    }
}

/* a PROBE: a HELLO's header and extension under another kind, so that no
 * relay takes it for its neighbour's liveness (PROTOCOL.md 5, PROBE) */
static void send_probe(int fd, int ifindex, const hxb_topo_iface_t *ti,
                       const uint64_t *key, uint32_t epoch, uint32_t *seq)
{
    struct __attribute__((packed)) {
        hxb_hdr_t       h;
        hxb_hello_ext_t x;
    } f;
    struct sockaddr_ll sll;

    memset(&f, 0, sizeof(f));
    f.h.version  = HXB_VERSION;
    f.h.kind     = HXB_K_PROBE;
    f.h.hops     = 1;
    f.h.len      = sizeof(f.x);
    f.h.src_node = ti->node;
    f.h.dst_node = HXB_NODE_NONE;
    f.x.dim      = ti->dim;
    f.x.rail     = ti->rail;
    f.x.interval_ms = PROBE_MS;
    if (key) {
        f.h.src_epoch = epoch;
        f.h.seq = ++*seq;
        f.h.tag = hxb_relay_hello_tag(key, &f.h, &f.x);
    }
    memset(&sll, 0, sizeof(sll));
    sll.sll_family   = AF_PACKET;
    sll.sll_protocol = htons(HXB_ETHERTYPE);
    sll.sll_ifindex  = ifindex;
    sll.sll_halen    = 6;
    memset(sll.sll_addr, 0xff, 6);
    sendto(fd, &f, sizeof(f), MSG_DONTWAIT, (struct sockaddr *)&sll, sizeof(sll));
}

/* record one received frame, once per (sender, its rail, MAC, verdict) */
static void take_frame(const hxb_topo_t *t, cable_if_t *c, const uint8_t *buf,
                       ssize_t len, const struct sockaddr_ll *from, const uint64_t *key)
{
    const hxb_hdr_t *h = (const void *)buf;
    const hxb_hello_ext_t *x = (const void *)(h + 1);
    cable_heard_t n;
    int i;

    if (len != (ssize_t)(sizeof(*h) + sizeof(*x)) || h->version != HXB_VERSION ||
        (h->kind != HXB_K_HELLO && h->kind != HXB_K_PROBE) ||
        h->dst_node != HXB_NODE_NONE || x->dim >= HXB_DIMS || from->sll_halen != 6) {
        return;
    }
    memset(&n, 0, sizeof(n));
    n.src_raw = h->src_node;
    n.src = h->src_node < t->num_nodes ? h->src_node : -1;
    n.dim = x->dim;
    n.rail = x->rail;
    memcpy(n.mac, from->sll_addr, 6);
    n.bad_tag = key && h->tag != hxb_relay_hello_tag(key, h, x);
    for (i = 0; i < c->nheard; i++) {
        const cable_heard_t *o = &c->heard[i];
        if (o->src_raw == n.src_raw && o->dim == n.dim && o->rail == n.rail &&
            o->bad_tag == n.bad_tag && !memcmp(o->mac, n.mac, 6)) {
            return;
        }
    }
    cable_heard_add(c, &n);   /* full: a flood of forged senders; enough said */
}

int cable_listen(const hxb_topo_t *t, int node, const uint64_t *key, int wait_ms,
                 int passive, cable_report_t *r)
{
    int fds[CABLE_MAX_IFS], idx[CABLE_MAX_IFS], ifx[CABLE_MAX_IFS], nfd = 0, sock, i;
    int rc = -1;
    struct pollfd pfd[CABLE_MAX_IFS];
    double end, next = 0;
    uint32_t epoch, seq = 0;
    struct timespec ts;

    memset(r, 0, sizeof(*r));
    r->node = node;
    r->keyed = key != NULL;
    clock_gettime(CLOCK_REALTIME, &ts);
    epoch = (uint32_t)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
    sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (sock < 0) {
        snprintf(r->err, sizeof(r->err), "socket: %s", strerror(errno));
        return -1;
    }
    for (i = 0; i < t->num_ifaces && r->nifs < CABLE_MAX_IFS; i++) {
        cable_if_t *c;
        unsigned ifindex;
        if (t->ifaces[i].node != node) {
            continue;
        }
        c = &r->ifs[r->nifs++];
        c->ti = i;
        c->mtu = -1;
        c->speed = -1;
        link_facts(sock, c, t->ifaces[i].ifname);
        ifindex = c->present ? if_nametoindex(t->ifaces[i].ifname) : 0;
        if (!ifindex) {
            continue;
        }
        fds[nfd] = hxb_relay_hello_socket(ifindex, 1);
        if (fds[nfd] < 0) {
            snprintf(r->err, sizeof(r->err), "packet socket on %s: %s (needs CAP_NET_RAW: "
                     "run as root)", t->ifaces[i].ifname, strerror(-fds[nfd]));
            goto out;
        }
        ifx[nfd] = ifindex;
        idx[nfd++] = r->nifs - 1;
    }
    end = now_s() + wait_ms * 1e-3;
    for (;;) {
        double tn = now_s();
        int ms;
        if (tn >= end) {
            break;
        }
        if (!passive && tn >= next) {
            next = tn + PROBE_MS * 1e-3;
            for (i = 0; i < nfd; i++) {
                const cable_if_t *c = &r->ifs[idx[i]];
                if (c->up) {
                    send_probe(fds[i], ifx[i], &t->ifaces[c->ti], key, epoch, &seq);
                }
            }
        }
        for (i = 0; i < nfd; i++) {
            pfd[i].fd = fds[i];
            pfd[i].events = POLLIN;
        }
        ms = (int)(((passive || next > end ? end : next) - tn) * 1000) + 1;
        if (poll(pfd, nfd, ms) <= 0) {
            continue;
        }
        for (i = 0; i < nfd; i++) {
            uint8_t buf[256];
            struct sockaddr_ll from;
            socklen_t fl;
            ssize_t len;
            int errs = 0;
            if (!(pfd[i].revents & (POLLIN | POLLERR))) {
                continue;
            }
            for (;;) {
                fl = sizeof(from);
                len = recvfrom(fds[i], buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
                if (len < 0) {
                    /* a link that went down leaves ENETDOWN pending */
                    if (errno == EAGAIN || errno == EWOULDBLOCK || ++errs > 4) {
                        break;
                    }
                    continue;
                }
                if (from.sll_ifindex == ifx[i]) {
                    take_frame(t, &r->ifs[idx[i]], buf, len, &from, key);
                }
            }
        }
    }
    r->have = 1;
    rc = 0;
out:
    for (i = 0; i < nfd; i++) {
        close(fds[i]);
    }
    close(sock);
    return rc;
}
