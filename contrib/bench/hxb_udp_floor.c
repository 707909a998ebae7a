/* hxb-udp-floor: the least CPU any design on UDP sockets pays to move
 * bytes one way over the testbed's rails, for hxb-bench-rails --cpu. No
 * protocol: the sender paces trains of 7 datagrams (UDP_SEGMENT, as hxb's
 * UDP path sends them) round robin over one socket per rail; the receiver
 * reads them with recvmmsg, asleep when idle. Losses are not repaired
 * (the pace stays under the rails' rate). Each side prints its own CPU.
 *
 *   hxb-udp-floor recv PORT BYTES
 *   hxb-udp-floor send PORT BYTES RATE ADDR...     (RATE in bytes/s)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif
#define SEG     8948            /* a 9000-byte IP packet */
#define TRAIN   7               /* 7 x 8948 fits one 64 KiB datagram */
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
    int fd = socket(AF_INET, SOCK_DGRAM, 0), sz = 8 << 20, i, n;
    double got = 0, t0 = 0;

    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
        fprintf(stderr, "hxb-udp-floor: port %d: %s\n", port, strerror(errno));
        return 1;
    }
    if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)) < 0) {
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
    }
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
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

static int do_send(int port, double want, double rate, char **addrs, int naddr)
{
    static char buf[TRAIN * SEG];
    int fd[MAXRAIL], seg = SEG, pmtu = IP_PMTUDISC_PROBE, i;
    double sent = 0, t0, d;

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
    }
    naddr = i;
    t0 = now();
    for (i = 0; sent < want; i = (i + 1) % naddr) {
        d = t0 + sent / rate - now();
        if (d > 0) {
            struct timespec ts = {(time_t)d, (long)((d - (time_t)d) * 1e9)};
            nanosleep(&ts, NULL);
        }
        if (send(fd[i], buf, sizeof(buf), 0) < 0 && errno != ENOBUFS) {
            fprintf(stderr, "hxb-udp-floor: send: %s\n", strerror(errno));
            return 1;
        }
        sent += sizeof(buf);
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
