/* hxb-udp-floor: the least CPU any design on UDP sockets pays to move
 * bytes one way over the testbed's rails, for hxb-bench-rails --cpu. No
 * protocol: the sender paces trains of datagrams (UDP_SEGMENT, as hxb's
 * UDP path sends them) round robin over one socket per rail; the receiver
 * reads them with recvmmsg, asleep when idle. Losses are not repaired
 * (the pace stays under the rails' rate), and trains are taken whole
 * (UDP_GRO) as hxb's rails take them. Each side prints its own CPU.
 *
 *   hxb-udp-floor recv PORT BYTES
 *   hxb-udp-floor send PORT BYTES RATE ADDR...     (RATE in bytes/s)
 *
 * HXB_FLOOR_SEG: datagram payload (default 8948, a 9000-byte IP packet;
 * 1472 at MTU 1500), trains of as many as fit 64 KiB. HXB_FLOOR_ZC=1: the
 * sender uses MSG_ZEROCOPY (SO_ZEROCOPY; completions reaped from the error
 * queue, and counted where the kernel copied after all). HXB_FLOOR_HDR=N:
 * each datagram is written from two pieces, its first N bytes from a
 * header buffer and the rest from the data, as hxb's frames that carry
 * the user's data go (an iovec pair per frame; 0, the default: one piece
 * per train).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <linux/errqueue.h>
#include <netinet/udp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif
#ifndef SO_ZEROCOPY
#define SO_ZEROCOPY 60
#endif
#ifndef MSG_ZEROCOPY
#define MSG_ZEROCOPY 0x4000000
#endif
#define SEG     8948            /* a 9000-byte IP packet */
#ifndef UDP_GRO
#define UDP_GRO 104
#endif
#define NRX     64
#define MAXRAIL 16

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void report(const char *who, double bytes, double secs)
{
    struct rusage u;
    double c;

    getrusage(RUSAGE_SELF, &u);
    c = u.ru_utime.tv_sec + u.ru_utime.tv_usec * 1e-6 +
        u.ru_stime.tv_sec + u.ru_stime.tv_usec * 1e-6;
    printf("hxb-udp-floor %s: %.0f bytes in %.2f s, cpu %.3f s\n", who, bytes, secs, c);
}

static int do_recv(int port, double want)
{
    static char buf[NRX][65536];
    struct mmsghdr m[NRX];
    struct iovec iov[NRX];
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
    struct timeval tv = {3, 0};
    int fd = socket(AF_INET, SOCK_DGRAM, 0), sz = 8 << 20, i, n, one = 1;
    double got = 0, t0 = 0;

    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
        fprintf(stderr, "hxb-udp-floor: port %d: %s\n", port, strerror(errno));
        return 1;
    }
    if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)) < 0) {
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
    }
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    /* trains whole, as hxb's UDP rails take them (a GSO train stays one skb
     * to a socket that asks for it) */
    setsockopt(fd, SOL_UDP, UDP_GRO, &one, sizeof(one));
    memset(m, 0, sizeof(m));
    for (i = 0; i < NRX; i++) {
        iov[i].iov_base = buf[i];
        iov[i].iov_len = sizeof(buf[i]);
        m[i].msg_hdr.msg_iov = &iov[i];
        m[i].msg_hdr.msg_iovlen = 1;
    }
    while (got < want) {
        n = recvmmsg(fd, m, NRX, MSG_WAITFORONE, NULL);
        if (n <= 0) {
            break;          /* 3 s of silence: the rest was lost */
        }
        if (t0 == 0) {
            t0 = now();
        }
        for (i = 0; i < n; i++) {
            got += m[i].msg_len;
        }
    }
    report("recv", got, t0 ? now() - t0 : 0);
    return 0;
}

/* MSG_ZEROCOPY completions waiting in fd's error queue: how many sends
 * they cover, and of those how many the kernel copied all the same */
static void zc_reap(int fd, unsigned long *done, unsigned long *copied)
{
    char ctl[128];
    struct msghdr m = {.msg_control = ctl, .msg_controllen = sizeof(ctl)};
    struct cmsghdr *c;

    while (recvmsg(fd, &m, MSG_ERRQUEUE | MSG_DONTWAIT) >= 0) {
        for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
            struct sock_extended_err *e = (struct sock_extended_err *)CMSG_DATA(c);
            if (e->ee_origin == SO_EE_ORIGIN_ZEROCOPY) {
                unsigned long n = e->ee_data - e->ee_info + 1;
                *done += n;
                if (e->ee_code & SO_EE_CODE_ZEROCOPY_COPIED) {
                    *copied += n;
                }
            }
        }
        m.msg_controllen = sizeof(ctl);
    }
}

static int do_send(int port, double want, double rate, char **addrs, int naddr)
{
    static char buf[65536], hbuf[64 * 64];
    static struct iovec iov[2 * 64];
    const char *v = getenv("HXB_FLOOR_SEG"), *z = getenv("HXB_FLOOR_ZC");
    const char *hv = getenv("HXB_FLOOR_HDR");
    int fd[MAXRAIL], seg = v ? atoi(v) : SEG, pmtu = IP_PMTUDISC_PROBE, i, one = 1;
    int zc = z && atoi(z), train, flags = 0, hdr = hv ? atoi(hv) : 0;
    struct msghdr m = {.msg_iov = iov};
    unsigned long nsent = 0, done = 0, copied = 0;
    double sent = 0, t0, d;
    size_t len;

    if (seg < 64 || seg > 8972) {
        fprintf(stderr, "hxb-udp-floor: HXB_FLOOR_SEG %d: 64 to 8972\n", seg);
        return 2;
    }
    if (hdr < 0 || hdr > 64 || hdr >= seg) {
        fprintf(stderr, "hxb-udp-floor: HXB_FLOOR_HDR %d: 0 to 64, below the segment\n", hdr);
        return 2;
    }
    train = 65000 / seg < 64 ? 65000 / seg : 64;
    len = (size_t)train * seg;
    for (i = 0; hdr && i < train; i++) {
        iov[2 * i].iov_base = hbuf + 64 * i;
        iov[2 * i].iov_len = (size_t)hdr;
        iov[2 * i + 1].iov_base = buf + (size_t)i * (seg - hdr);
        iov[2 * i + 1].iov_len = (size_t)(seg - hdr);
    }
    m.msg_iovlen = hdr ? 2 * (size_t)train : 0;

    for (i = 0; i < naddr && i < MAXRAIL; i++) {
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
        fd[i] = socket(AF_INET, SOCK_DGRAM, 0);
        if (fd[i] < 0 || inet_pton(AF_INET, addrs[i], &a.sin_addr) != 1 ||
            connect(fd[i], (struct sockaddr *)&a, sizeof(a)) < 0 ||
            setsockopt(fd[i], SOL_UDP, UDP_SEGMENT, &seg, sizeof(seg)) < 0) {
            fprintf(stderr, "hxb-udp-floor: %s: %s\n", addrs[i], strerror(errno));
            return 1;
        }
        setsockopt(fd[i], IPPROTO_IP, IP_MTU_DISCOVER, &pmtu, sizeof(pmtu));
        if (zc && setsockopt(fd[i], SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)) < 0) {
            fprintf(stderr, "hxb-udp-floor: SO_ZEROCOPY: %s\n", strerror(errno));
            return 1;
        }
    }
    naddr = i;
    flags = zc ? MSG_ZEROCOPY : 0;
    t0 = now();
    for (i = 0; sent < want; i = (i + 1) % naddr) {
        d = t0 + sent / rate - now();
        if (d > 0) {
            struct timespec ts = {(time_t)d, (long)((d - (time_t)d) * 1e9)};
            nanosleep(&ts, NULL);
        }
        if ((hdr ? sendmsg(fd[i], &m, flags) : send(fd[i], buf, len, flags)) < 0) {
            if (errno != ENOBUFS) {
                fprintf(stderr, "hxb-udp-floor: send: %s\n", strerror(errno));
                return 1;
            }
        } else {
            nsent++;
        }
        if (zc) {
            zc_reap(fd[i], &done, &copied);
        }
        sent += len;
    }
    if (zc) {
        for (d = now() + 1; done < nsent && now() < d;) {
            for (i = 0; i < naddr; i++) {
                zc_reap(fd[i], &done, &copied);
            }
        }
        printf("hxb-udp-floor send (MSG_ZEROCOPY): %lu sends, %lu completed, %lu copied by the kernel\n",
               nsent, done, copied);
    }
    report("send", sent, now() - t0);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "recv")) {
        return do_recv(atoi(argv[2]), atof(argv[3]));
    }
    if (argc >= 6 && !strcmp(argv[1], "send")) {
        return do_send(atoi(argv[2]), atof(argv[3]), atof(argv[4]), argv + 5, argc - 5);
    }
    fprintf(stderr, "usage: hxb-udp-floor recv PORT BYTES | send PORT BYTES RATE ADDR...\n");
    return 2;
}
