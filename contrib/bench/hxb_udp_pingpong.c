/* hxb-udp-pingpong: the floor of a UDP round trip on this host, by how the
 * receiver waits, to decide how hxb's UDP rails should poll (issue 25's
 * latency target, issue 26's idle pass). Not a test: it prints figures.
 *
 *   server: hxb-udp-pingpong -s ADDR PORT [-m MODE] [-n N]
 *   client: hxb-udp-pingpong -c ADDR PORT PEER_ADDR PEER_PORT [-m MODE] [-n N]
 *
 * Both sides busy-poll as hxb's progress does. MODE:
 *   recvmmsg  one recvmmsg(MSG_DONTWAIT) per pass, as hxb_rail_udp.c
 *   recvmsg   one recvmsg(MSG_DONTWAIT) per pass
 *   uring     io_uring multishot recvmsg into a provided buffer ring; a pass
 *             reads the completion queue in memory: no system call while
 *             nothing arrived (the kernel interrupts the process to complete
 *             a receive; PP_TASKRUN=defer: it completes when asked, a call)
 *   connected recvmmsg on a UDP socket connected to the peer: the kernel
 *             keeps its routes (no route lookup per datagram either way:
 *             early demux on receive), as TCP does
 *   reuseport the rail's socket and one connected to the peer on the same
 *             address and port (SO_REUSEPORT: the kernel gives the peer's
 *             datagrams to the connected one, early demux, no routes); a
 *             pass asks epoll which is ready and reads that one (UCX tcp's
 *             way: one call while idle, two when something came)
 *   epoll     one unconnected socket, a pass asks epoll first (the cost of
 *             epoll alone, beside recvmmsg)
 *   tcp       a TCP connection instead, one recv(MSG_DONTWAIT) per pass (the
 *             kernel path UCX's tcp transport takes), for comparison
 *   rail      the socket as an hxb UDP rail sets it up (hxb_rail_udp.c):
 *             bound to the port on every address, SO_TIMESTAMPNS, IP_PKTINFO
 *             (the arrival interface read; each datagram sent by sendmmsg
 *             with the rail's interface and address), UDP_GRO and 16
 *             buffers of 64 KiB per recvmmsg. PP_RAIL="any ts pktinfo gro"
 *             (the default, also when empty; "none" for none) names the
 *             parts to keep, to find what each costs. The rail's interface
 *             is the one holding ADDR.
 * Sends are sendto() of 52 bytes (an hxb header and an 8-byte message).
 * The client prints the median and mean half round trip in microseconds.
 * The server ends after answering the client's N + 1000 datagrams (1000 to
 * warm up), or 2 s after the last one: a busy-polling server left behind
 * would take a core from whatever runs next. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <sys/epoll.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/udp.h>
#include <sys/mman.h>
#include <liburing.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define LEN      52
#define NBUF     64
#define BUFSZ    2048
#define BGID     7

typedef struct pp {
    int mode, fd, cfd, epfd;
    struct io_uring ring;
    struct io_uring_buf_ring *br;
    uint8_t *bufs;
    struct msghdr mh;
} pp_t;

enum { M_RECVMMSG, M_RECVMSG, M_URING, M_TCP, M_CONNECTED, M_REUSE, M_EPOLL, M_RAIL };
static int g_reuse;

#ifndef UDP_GRO
#define UDP_GRO 104
#endif

/* M_RAIL: which of an hxb rail's socket options are on, its interface and
 * address, and the sender of the last datagram read */
static struct {
    int any, ts, pktinfo, gro, ifindex;
    struct in_addr src;
    struct sockaddr_in from;
} g_rail;

static void rail_opts(const char *addr)
{
    const char *s = getenv("PP_RAIL");
    struct ifaddrs *ifa, *a;

    if (!s || !*s) {            /* unset or empty: as a rail; "none": none */
        s = "any ts pktinfo gro";
    }

    g_rail.any = strstr(s, "any") != NULL;
    g_rail.ts = strstr(s, "ts") != NULL;
    g_rail.pktinfo = strstr(s, "pktinfo") != NULL;
    g_rail.gro = strstr(s, "gro") != NULL;
    inet_pton(AF_INET, addr, &g_rail.src);
    if (getifaddrs(&ifa) == 0) {
        for (a = ifa; a; a = a->ifa_next) {
            if (a->ifa_addr && a->ifa_addr->sa_family == AF_INET &&
                ((struct sockaddr_in *)a->ifa_addr)->sin_addr.s_addr == g_rail.src.s_addr) {
                g_rail.ifindex = (int)if_nametoindex(a->ifa_name);
            }
        }
        freeifaddrs(ifa);
    }
}

/* M_RAIL's send: sendmmsg of one datagram, with IP_PKTINFO naming the
 * rail's interface and address when the socket is bound to every address */
static void rail_send(int fd, const void *msg, size_t len, const struct sockaddr_in *to)
{
    union {
        char buf[CMSG_SPACE(sizeof(struct in_pktinfo))];
        struct cmsghdr align;
    } ctl;
    struct iovec iov = {(void *)msg, len};
    struct mmsghdr m;

    memset(&m, 0, sizeof(m));
    m.msg_hdr.msg_name = (void *)to;
    m.msg_hdr.msg_namelen = sizeof(*to);
    m.msg_hdr.msg_iov = &iov;
    m.msg_hdr.msg_iovlen = 1;
    if (g_rail.pktinfo) {
        struct cmsghdr *c;
        struct in_pktinfo pi;
        memset(&ctl, 0, sizeof(ctl));
        m.msg_hdr.msg_control = ctl.buf;
        m.msg_hdr.msg_controllen = sizeof(ctl.buf);
        c = CMSG_FIRSTHDR(&m.msg_hdr);
        c->cmsg_level = IPPROTO_IP;
        c->cmsg_type = IP_PKTINFO;
        c->cmsg_len = CMSG_LEN(sizeof(pi));
        memset(&pi, 0, sizeof(pi));
        pi.ipi_ifindex = g_rail.ifindex;
        pi.ipi_spec_dst = g_rail.src;
        memcpy(CMSG_DATA(c), &pi, sizeof(pi));
    }
    sendmmsg(fd, &m, 1, 0);
}

static double now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static void arm(pp_t *p)
{
    struct io_uring_sqe *sqe = io_uring_get_sqe(&p->ring);

    io_uring_prep_recvmsg_multishot(sqe, p->fd, &p->mh, 0);
    sqe->flags |= IOSQE_BUFFER_SELECT;
    sqe->buf_group = BGID;
    io_uring_submit(&p->ring);
}

static int uring_init(pp_t *p)
{
    struct io_uring_params par;
    int i, ret;

    memset(&par, 0, sizeof(par));
    /* by default the kernel interrupts us to complete a receive (task
     * work with a signal): the completion then waits in memory. With
     * PP_TASKRUN=defer it completes only when we ask (a system call). */
    if (getenv("PP_TASKRUN") && !strcmp(getenv("PP_TASKRUN"), "defer")) {
        par.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
    }
    ret = io_uring_queue_init_params(64, &p->ring, &par);
    if (ret < 0) {
        fprintf(stderr, "io_uring_queue_init: %s\n", strerror(-ret));
        return -1;
    }
    {   /* liburing 2.3 has no io_uring_setup_buf_ring: by hand */
        struct io_uring_buf_reg reg;
        p->br = mmap(NULL, NBUF * sizeof(struct io_uring_buf), PROT_READ | PROT_WRITE,
                     MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
        if (p->br == MAP_FAILED) {
            return -1;
        }
        io_uring_buf_ring_init(p->br);
        memset(&reg, 0, sizeof(reg));
        reg.ring_addr = (unsigned long)p->br;
        reg.ring_entries = NBUF;
        reg.bgid = BGID;
        ret = io_uring_register_buf_ring(&p->ring, &reg, 0);
        if (ret < 0) {
            fprintf(stderr, "buf ring: %s\n", strerror(-ret));
            return -1;
        }
    }
    p->bufs = malloc((size_t)NBUF * BUFSZ);
    for (i = 0; i < NBUF; i++) {
        io_uring_buf_ring_add(p->br, p->bufs + (size_t)i * BUFSZ, BUFSZ, i,
                              io_uring_buf_ring_mask(NBUF), i);
    }
    io_uring_buf_ring_advance(p->br, NBUF);
    memset(&p->mh, 0, sizeof(p->mh));
    p->mh.msg_namelen = sizeof(struct sockaddr_in);
    arm(p);
    return 0;
}

/* one pass: 1 if a datagram came, 0 if not */
static int poll_once(pp_t *p)
{
    static uint8_t buf[BUFSZ];
    struct io_uring_cqe *cqe;
    struct mmsghdr m;
    struct iovec iov = {buf, sizeof(buf)};
    int got = 0;

    switch (p->mode) {
    case M_REUSE:
    case M_EPOLL: {
        struct epoll_event ev[2];
        int k, ne = epoll_wait(p->epfd, ev, 2, 0);
        for (k = 0; k < ne; k++) {
            m.msg_hdr = (struct msghdr){.msg_iov = &iov, .msg_iovlen = 1};
            got |= recvmmsg(ev[k].data.fd, &m, 1, MSG_DONTWAIT, NULL) >= 1;
        }
        return got;
    }
    case M_CONNECTED:
    case M_RECVMMSG: {
        /* PP_VLEN (default 1) entries of PP_BUF bytes, as hxb's rail asks
         * for 16 of 64 KiB */
        static struct mmsghdr mm[64];
        static struct iovec iv[64];
        static uint8_t *big;
        static int vlen;
        int j;
        if (!vlen) {
            size_t bs = getenv("PP_BUF") ? (size_t)atoi(getenv("PP_BUF")) : BUFSZ;
            vlen = getenv("PP_VLEN") ? atoi(getenv("PP_VLEN")) : 1;
            vlen = vlen < 1 ? 1 : vlen > 64 ? 64 : vlen;
            big = malloc(bs * (size_t)vlen);
            for (j = 0; j < vlen; j++) {
                iv[j].iov_base = big + bs * (size_t)j;
                iv[j].iov_len = bs;
                mm[j].msg_hdr.msg_iov = &iv[j];
                mm[j].msg_hdr.msg_iovlen = 1;
            }
        }
        (void)m;
        (void)iov;
        return recvmmsg(p->fd, mm, (unsigned)vlen, MSG_DONTWAIT, NULL) >= 1;
    }
    case M_RAIL: {
        /* as udp_recv: 16 buffers (of 64 KiB with GRO), a control buffer
         * and the sender's address each, re-armed where the kernel wrote,
         * the control messages walked; a datagram by another interface
         * is dropped (hxb counts it rx_foreign) */
        static struct mmsghdr mm[16];
        static struct iovec iv[16];
        static struct sockaddr_in nm[16];
        static union {
            char buf[128];
            struct cmsghdr align;
        } ctl[16];
        static uint8_t *big;
        static int dirty = 16;
        size_t bs = g_rail.gro ? 65536 : BUFSZ;
        struct cmsghdr *c;
        int j, r, ours = 1;
        if (!big) {
            big = malloc(bs * 16);
        }
        for (j = 0; j < dirty; j++) {
            iv[j].iov_base = big + bs * (size_t)j;
            iv[j].iov_len = bs;
            mm[j].msg_hdr = (struct msghdr){.msg_name = &nm[j], .msg_namelen = sizeof(nm[j]),
                                            .msg_iov = &iv[j], .msg_iovlen = 1,
                                            .msg_control = ctl[j].buf,
                                            .msg_controllen = sizeof(ctl[j].buf)};
        }
        r = recvmmsg(p->fd, mm, 16, MSG_DONTWAIT, NULL);
        dirty = r > 0 ? r : 0;
        if (r < 1) {
            return 0;
        }
        for (c = CMSG_FIRSTHDR(&mm[0].msg_hdr); c; c = CMSG_NXTHDR(&mm[0].msg_hdr, c)) {
            if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_PKTINFO) {
                struct in_pktinfo pi;
                memcpy(&pi, CMSG_DATA(c), sizeof(pi));
                ours = pi.ipi_ifindex == g_rail.ifindex;
            }
        }
        g_rail.from = nm[0];
        return ours;
    }
    case M_TCP: {
        static size_t have;
        ssize_t r = recv(p->fd, buf + have, LEN - have, MSG_DONTWAIT);
        if (r > 0 && (have += (size_t)r) == LEN) {
            have = 0;
            return 1;
        }
        return 0;
    }
    case M_RECVMSG:
        memset(&m, 0, sizeof(m));
        m.msg_hdr.msg_iov = &iov;
        m.msg_hdr.msg_iovlen = 1;
        return recvmsg(p->fd, &m.msg_hdr, MSG_DONTWAIT) > 0;
    default:
        if (io_uring_peek_cqe(&p->ring, &cqe) != 0) {
            if (!(p->ring.flags & IORING_SETUP_DEFER_TASKRUN)) {
                return 0;                   /* a memory read, no call */
            }
            io_uring_get_events(&p->ring);  /* deferred: one call */
            if (io_uring_peek_cqe(&p->ring, &cqe) != 0) {
                return 0;
            }
        }
        if (cqe->res >= 0 && (cqe->flags & IORING_CQE_F_BUFFER)) {
            unsigned bid = cqe->flags >> IORING_CQE_BUFFER_SHIFT;
            io_uring_buf_ring_add(p->br, p->bufs + (size_t)bid * BUFSZ, BUFSZ, bid,
                                  io_uring_buf_ring_mask(NBUF), 0);
            io_uring_buf_ring_advance(p->br, 1);
            got = 1;
        }
        if (!(cqe->flags & IORING_CQE_F_MORE)) {
            io_uring_cqe_seen(&p->ring, cqe);
            arm(p);
            return got;
        }
        io_uring_cqe_seen(&p->ring, cqe);
        return got;
    }
}

static int sock_at(const char *addr, int port, struct sockaddr_in *sa)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0), one = 1;

    if (fd >= 0 && g_reuse) {
        setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one));
    }
    memset(sa, 0, sizeof(*sa));
    sa->sin_family = AF_INET;
    sa->sin_port = htons(port);
    inet_pton(AF_INET, addr, &sa->sin_addr);
    if (fd >= 0 && g_rail.src.s_addr) {   /* M_RAIL */
        if (g_rail.any) {
            sa->sin_addr.s_addr = htonl(INADDR_ANY);
        }
        if (g_rail.ts) {
            setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
        }
        if (g_rail.pktinfo) {
            setsockopt(fd, IPPROTO_IP, IP_PKTINFO, &one, sizeof(one));
        }
        if (g_rail.gro) {
            setsockopt(fd, SOL_UDP, UDP_GRO, &one, sizeof(one));
        }
    }
    if (fd < 0 || bind(fd, (struct sockaddr *)sa, sizeof(*sa)) < 0) {
        perror("bind");
        exit(1);
    }
    return fd;
}

/* reuseport: a second socket on our address and port, connected to the
 * peer, in the epoll set beside the first */
static void reuse_connect(pp_t *p, const char *addr, int port, const struct sockaddr_in *to)
{
    struct sockaddr_in me;
    struct epoll_event ev = {.events = EPOLLIN};

    p->cfd = sock_at(addr, port, &me);
    if (connect(p->cfd, (const struct sockaddr *)to, sizeof(*to)) < 0) {
        perror("connect");
        exit(1);
    }
    ev.data.fd = p->cfd;
    epoll_ctl(p->epfd, EPOLL_CTL_ADD, p->cfd, &ev);
}

/* the server's end: after `want` answers, or 2 s without a datagram */
static long g_answered, g_want;
static double g_last;

static int server_done(int answered_now)
{
    static unsigned k;

    if (answered_now) {
        g_last = 0;
        return ++g_answered >= g_want;
    }
    if ((++k & 1023) == 0) {
        double t = now_us();
        if (g_last == 0) {
            g_last = t;
        }
        return g_answered > 0 && t - g_last > 2e6;
    }
    return 0;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    static uint8_t msg[LEN];
    struct sockaddr_in me, peer, from;
    socklen_t fl;
    int server = 0, n = 100000, i, opt;
    const char *mode = "recvmmsg";
    double *rt, t0, sum = 0;
    pp_t p;

    while ((opt = getopt(argc, argv, "scm:n:")) != -1) {
        switch (opt) {
        case 's': server = 1; break;
        case 'c': server = 0; break;
        case 'm': mode = optarg; break;
        case 'n': n = atoi(optarg); break;
        default: return 2;
        }
    }
    if (argc - optind < (server ? 2 : 4)) {
        fprintf(stderr, "usage: %s -s ADDR PORT | -c ADDR PORT PEER PEERPORT [-m recvmmsg|recvmsg|uring|connected|reuseport|epoll|tcp|rail] [-n N]\n",
                argv[0]);
        return 2;
    }
    memset(&p, 0, sizeof(p));
    p.mode = !strcmp(mode, "uring") ? M_URING : !strcmp(mode, "recvmsg") ? M_RECVMSG :
             !strcmp(mode, "tcp") ? M_TCP : !strcmp(mode, "connected") ? M_CONNECTED :
             !strcmp(mode, "reuseport") ? M_REUSE : !strcmp(mode, "epoll") ? M_EPOLL :
             !strcmp(mode, "rail") ? M_RAIL : M_RECVMMSG;
    g_reuse = p.mode == M_REUSE;
    if (p.mode == M_RAIL) {
        rail_opts(argv[optind]);
    }
    if (p.mode == M_TCP) {
        int one = 1, l;
        memset(&me, 0, sizeof(me));
        me.sin_family = AF_INET;
        me.sin_port = htons(atoi(argv[optind + 1]));
        inet_pton(AF_INET, argv[optind], &me.sin_addr);
        l = socket(AF_INET, SOCK_STREAM, 0);
        setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
        if (bind(l, (struct sockaddr *)&me, sizeof(me)) < 0) {
            perror("bind");
            return 1;
        }
        if (server) {
            listen(l, 1);
            p.fd = accept(l, NULL, NULL);
        } else {
            memset(&peer, 0, sizeof(peer));
            peer.sin_family = AF_INET;
            peer.sin_port = htons(atoi(argv[optind + 3]));
            inet_pton(AF_INET, argv[optind + 2], &peer.sin_addr);
            if (connect(l, (struct sockaddr *)&peer, sizeof(peer)) < 0) {
                perror("connect");
                return 1;
            }
            p.fd = l;
        }
        setsockopt(p.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
        if (server) {
            g_want = n + 1000L;
            for (;;) {
                int got = poll_once(&p);
                if (got) {
                    send(p.fd, msg, LEN, 0);
                }
                if (server_done(got)) {
                    return 0;
                }
            }
        }
    } else {
        p.fd = sock_at(argv[optind], atoi(argv[optind + 1]), &me);
    }
    if (p.mode == M_URING && uring_init(&p) < 0) {
        return 1;
    }
    if (p.mode == M_REUSE || p.mode == M_EPOLL) {
        struct epoll_event ev = {.events = EPOLLIN, .data.fd = p.fd};
        p.epfd = epoll_create1(0);
        epoll_ctl(p.epfd, EPOLL_CTL_ADD, p.fd, &ev);
    }
    if (server && p.mode != M_TCP) {
        /* answer every datagram to its sender, until server_done. The
         * sender is learned from the first datagram (recvfrom; a connected
         * socket then connects to it); after it the plain modes keep
         * reading by recvfrom, uring and connected by poll_once. */
        int known = 0, got;

        g_want = n + 1000L;
        for (;;) {
            if (p.mode == M_RAIL) {
                got = poll_once(&p);
                if (got) {
                    rail_send(p.fd, msg, LEN, &g_rail.from);
                }
                if (server_done(got)) {
                    return 0;
                }
                continue;
            }
            if (!known || p.mode == M_RECVMMSG || p.mode == M_RECVMSG) {
                fl = sizeof(from);
                got = recvfrom(p.fd, msg, sizeof(msg), MSG_DONTWAIT, (struct sockaddr *)&from,
                               &fl) > 0;
                if (got && !known) {
                    known = p.mode != M_CONNECTED ||
                            connect(p.fd, (struct sockaddr *)&from, sizeof(from)) == 0;
                    if (p.mode == M_REUSE) {
                        reuse_connect(&p, argv[optind], atoi(argv[optind + 1]), &from);
                    }
                }
            } else {
                got = poll_once(&p);
            }
            if (got && p.mode == M_CONNECTED && known) {
                send(p.fd, msg, LEN, 0);
            } else if (got && p.mode == M_REUSE) {
                send(p.cfd, msg, LEN, 0);
            } else if (got) {
                sendto(p.fd, msg, LEN, 0, (struct sockaddr *)&from, sizeof(from));
            }
            if (server_done(got)) {
                return 0;
            }
        }
    }
    if (p.mode != M_TCP) {
        memset(&peer, 0, sizeof(peer));
        peer.sin_family = AF_INET;
        peer.sin_port = htons(atoi(argv[optind + 3]));
        inet_pton(AF_INET, argv[optind + 2], &peer.sin_addr);
    }
    if (p.mode == M_CONNECTED && connect(p.fd, (struct sockaddr *)&peer, sizeof(peer)) < 0) {
        perror("connect");
        return 1;
    }
    if (p.mode == M_REUSE) {
        reuse_connect(&p, argv[optind], atoi(argv[optind + 1]), &peer);
    }
    rt = calloc((size_t)n, sizeof(*rt));
    for (i = -1000; i < n; i++) {         /* 1000 warm-up round trips */
        double deadline;
        t0 = now_us();
        deadline = t0 + 1e6;
        if (p.mode == M_TCP || p.mode == M_CONNECTED) {
            send(p.fd, msg, LEN, 0);
        } else if (p.mode == M_REUSE) {
            send(p.cfd, msg, LEN, 0);
        } else if (p.mode == M_RAIL) {
            rail_send(p.fd, msg, LEN, &peer);
        } else {
            sendto(p.fd, msg, LEN, 0, (struct sockaddr *)&peer, sizeof(peer));
        }
        while (!poll_once(&p)) {
            if (now_us() > deadline) {
                fprintf(stderr, "no answer within 1 s\n");
                return 1;
            }
        }
        if (i >= 0) {
            rt[i] = (now_us() - t0) / 2;
            sum += rt[i];
        }
    }
    qsort(rt, (size_t)n, sizeof(*rt), cmp);
    printf("%s: half round trip median %.2f us, mean %.2f us, p99 %.2f us (%d)\n", mode,
           rt[n / 2], sum / n, rt[n * 99 / 100], n);
    return 0;
}
