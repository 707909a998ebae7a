/* hxb-xdp-floor: what moving bytes one way over a testbed rail costs with
 * AF_XDP sockets (copy mode: veth has no zero-copy AF_XDP) and no protocol
 * at all, to set beside hxb-udp-floor. Raw Ethernet frames of 14 + 9000
 * bytes, EtherType 0x88B6 (not hxb's 0x88B5), umem of 4 KiB chunks, so a
 * frame is 3 descriptors (multi-buffer, XDP_USE_SG). The sender is paced
 * at RATE bytes/s in batches of BATCH frames; the receiver's XDP program
 * (hxb_xdp_floor_kern.o) redirects the frames to its socket, which it
 * drains in batches of 64, asleep in poll() when idle. Losses are not
 * repaired. Each side prints its own CPU (getrusage user+sys, whole process,
 * setup included; the setup share goes to stderr).
 *
 *   hxb-xdp-floor recv IFACE BYTES [KERN.o]
 *   hxb-xdp-floor send IFACE BYTES RATE DSTMAC [BATCH]
 *
 * HXB_XDP_MODE=drv|skb picks native or generic XDP for the receiver's
 * program (default: native, falling back to generic). KERN.o defaults to
 * contrib/bench/hxb_xdp_floor_kern.o of the build tree (make builds both,
 * not installed); doc/RESULTS.md has the commands that measured it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/if_link.h>
#include <linux/if_xdp.h>
#include <net/if.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef AF_XDP
#define AF_XDP 44
#endif
#ifndef SOL_XDP
#define SOL_XDP 283
#endif
#ifndef XDP_USE_SG
#define XDP_USE_SG (1 << 4)
#endif
#ifndef XDP_PKT_CONTD
#define XDP_PKT_CONTD (1 << 0)
#endif

#define ETYPE   0x88B6
#define PAYLOAD 9000            /* the rails' MTU */
#define FLEN    (14 + PAYLOAD)
#define CHUNK   4096
#define NCHUNK  4096            /* 16 MiB umem */
#define DPF     ((FLEN + CHUNK - 1) / CHUNK)    /* descriptors per frame */
#define RING    4096
#define NRX     64

struct ring {
    uint32_t *prod, *cons, *flags;
    void *desc;
    uint32_t mask;
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static double cpu(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_utime.tv_usec * 1e-6 +
           u.ru_stime.tv_sec + u.ru_stime.tv_usec * 1e-6;
}

static int die(const char *what)
{
    fprintf(stderr, "hxb-xdp-floor: %s: %s\n", what, strerror(errno));
    return 1;
}

static int map_ring(int fd, struct xdp_ring_offset *o, off_t pgoff, size_t dsz, struct ring *r)
{
    size_t len = o->desc + RING * dsz;
    char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, pgoff);

    if (p == MAP_FAILED) {
        return -1;
    }
    r->prod = (uint32_t *)(p + o->producer);
    r->cons = (uint32_t *)(p + o->consumer);
    r->flags = (uint32_t *)(p + o->flags);
    r->desc = p + o->desc;
    r->mask = RING - 1;
    return 0;
}

/* an AF_XDP socket on IFACE queue 0 with its own umem: fill and completion
 * rings always (bind wants both), rx or tx ring as asked */
static int xsk_open(const char *ifname, int rx, char **umem, struct ring *fq, struct ring *cq,
                    struct ring *q)
{
    struct xdp_umem_reg reg = {0};
    struct xdp_mmap_offsets off;
    struct sockaddr_xdp sa = {0};
    socklen_t ol = sizeof(off);
    int fd, sz = RING;

    *umem = mmap(NULL, (size_t)NCHUNK * CHUNK, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (*umem == MAP_FAILED) {
        return die("umem mmap");
    }
    fd = socket(AF_XDP, SOCK_RAW, 0);
    if (fd < 0) {
        return die("socket(AF_XDP)"), -1;
    }
    reg.addr = (uintptr_t)*umem;
    reg.len = (uint64_t)NCHUNK * CHUNK;
    reg.chunk_size = CHUNK;
    if (setsockopt(fd, SOL_XDP, XDP_UMEM_REG, &reg, sizeof(reg)) < 0) {
        return die("XDP_UMEM_REG"), -1;
    }
    if (setsockopt(fd, SOL_XDP, XDP_UMEM_FILL_RING, &sz, sizeof(sz)) < 0 ||
        setsockopt(fd, SOL_XDP, XDP_UMEM_COMPLETION_RING, &sz, sizeof(sz)) < 0 ||
        setsockopt(fd, SOL_XDP, rx ? XDP_RX_RING : XDP_TX_RING, &sz, sizeof(sz)) < 0) {
        return die("ring sizes"), -1;
    }
    if (getsockopt(fd, SOL_XDP, XDP_MMAP_OFFSETS, &off, &ol) < 0) {
        return die("XDP_MMAP_OFFSETS"), -1;
    }
    if (map_ring(fd, &off.fr, XDP_UMEM_PGOFF_FILL_RING, sizeof(uint64_t), fq) < 0 ||
        map_ring(fd, &off.cr, XDP_UMEM_PGOFF_COMPLETION_RING, sizeof(uint64_t), cq) < 0 ||
        map_ring(fd, rx ? &off.rx : &off.tx, rx ? XDP_PGOFF_RX_RING : XDP_PGOFF_TX_RING,
                 sizeof(struct xdp_desc), q) < 0) {
        return die("ring mmap"), -1;
    }
    sa.sxdp_family = AF_XDP;
    sa.sxdp_ifindex = if_nametoindex(ifname);
    sa.sxdp_queue_id = 0;
    sa.sxdp_flags = XDP_COPY | XDP_USE_NEED_WAKEUP | XDP_USE_SG;
    if (sa.sxdp_ifindex == 0) {
        return die(ifname), -1;
    }
    if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
        return die("bind(AF_XDP, XDP_COPY|XDP_USE_SG)"), -1;
    }
    return fd;
}

static void stats(int fd, const char *who)
{
    struct xdp_statistics s;
    socklen_t l = sizeof(s);

    if (getsockopt(fd, SOL_XDP, XDP_STATISTICS, &s, &l) == 0) {
        fprintf(stderr, "hxb-xdp-floor %s: rx_dropped %llu rx_invalid %llu tx_invalid %llu "
                "rx_ring_full %llu fill_empty %llu tx_ring_empty %llu\n", who,
                (unsigned long long)s.rx_dropped, (unsigned long long)s.rx_invalid_descs,
                (unsigned long long)s.tx_invalid_descs, (unsigned long long)s.rx_ring_full,
                (unsigned long long)s.rx_fill_ring_empty_descs,
                (unsigned long long)s.tx_ring_empty_descs);
    }
}

static int do_recv(const char *ifname, double want, const char *kern)
{
    struct ring fq, cq, rx;
    struct bpf_object *obj;
    struct bpf_program *prog;
    char *umem;
    const char *m = getenv("HXB_XDP_MODE");
    int fd, ifindex = if_nametoindex(ifname), mapfd, key = 0, err, i, n;
    uint32_t flags = 0, p, c;
    double got = 0, t0 = 0;
    unsigned long wakes = 0, frames = 0;

    fd = xsk_open(ifname, 1, &umem, &fq, &cq, &rx);
    if (fd < 0) {
        return 1;
    }
    for (i = 0; i < RING; i++) {        /* every chunk of the first RING to the kernel */
        ((uint64_t *)fq.desc)[i] = (uint64_t)i * CHUNK;
    }
    __atomic_store_n(fq.prod, RING, __ATOMIC_RELEASE);

    obj = bpf_object__open_file(kern, NULL);
    if (!obj || libbpf_get_error(obj)) {
        return die(kern);
    }
    if (bpf_object__load(obj)) {
        return die("bpf_object__load");
    }
    prog = bpf_object__find_program_by_name(obj, "hxb_xdp_floor");
    mapfd = bpf_object__find_map_fd_by_name(obj, "xsks");
    if (!prog || mapfd < 0 || bpf_map_update_elem(mapfd, &key, &fd, 0)) {
        return die("xsks map");
    }
    err = -1;
    if (!m || !strcmp(m, "drv")) {
        flags = XDP_FLAGS_DRV_MODE;
        err = bpf_xdp_attach(ifindex, bpf_program__fd(prog), flags, NULL);
        if (err) {
            fprintf(stderr, "hxb-xdp-floor: native XDP on %s: %s%s\n", ifname, strerror(-err),
                    m ? "" : ", trying generic (SKB) mode");
        }
    }
    if (err && (!m || !strcmp(m, "skb"))) {
        flags = XDP_FLAGS_SKB_MODE;
        err = bpf_xdp_attach(ifindex, bpf_program__fd(prog), flags, NULL);
        if (err) {
            fprintf(stderr, "hxb-xdp-floor: generic XDP on %s: %s\n", ifname, strerror(-err));
        }
    }
    if (err) {
        return 1;
    }
    fprintf(stderr, "hxb-xdp-floor recv: %s XDP on %s, AF_XDP copy mode\n",
            flags == XDP_FLAGS_DRV_MODE ? "native" : "generic (SKB)", ifname);
    fflush(stderr);

    double c0 = cpu();          /* setup (program load, umem fault-in) not counted */
    struct pollfd pfd = {.fd = fd, .events = POLLIN};
    while (got < want) {
        c = *rx.cons;
        p = __atomic_load_n(rx.prod, __ATOMIC_ACQUIRE);
        if (p == c) {
            if (poll(&pfd, 1, t0 ? 3000 : 20000) <= 0) {
                break;          /* 3 s of silence: the rest was lost */
            }
            wakes++;
            continue;
        }
        if (t0 == 0) {
            t0 = now();
        }
        n = p - c > NRX ? NRX : p - c;
        uint32_t fp = *fq.prod;
        for (i = 0; i < n; i++) {
            struct xdp_desc *d = &((struct xdp_desc *)rx.desc)[(c + i) & rx.mask];
            got += d->len;
            if (!(d->options & XDP_PKT_CONTD)) {
                got -= 14;      /* count payload, as the UDP floor does */
                frames++;
            }
            ((uint64_t *)fq.desc)[(fp + i) & fq.mask] = d->addr & ~(uint64_t)(CHUNK - 1);
        }
        __atomic_store_n(rx.cons, c + n, __ATOMIC_RELEASE);
        __atomic_store_n(fq.prod, fp + n, __ATOMIC_RELEASE);
        if (__atomic_load_n(fq.flags, __ATOMIC_ACQUIRE) & XDP_RING_NEED_WAKEUP) {
            recvfrom(fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
        }
    }
    double secs = t0 ? now() - t0 : 0, cp = cpu();
    stats(fd, "recv");
    fprintf(stderr, "hxb-xdp-floor recv: %lu frames, %lu poll wake-ups, setup cpu %.3f s\n",
            frames, wakes, c0);
    printf("hxb-xdp-floor recv: %.0f bytes in %.2f s, cpu %.3f s\n", got, secs, cp);
    fflush(stdout);
    bpf_xdp_detach(ifindex, flags, NULL);
    return 0;
}

static int parse_mac(const char *s, unsigned char *mac)
{
    return sscanf(s, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0], &mac[1], &mac[2], &mac[3],
                  &mac[4], &mac[5]) == 6 ? 0 : -1;
}

static int do_send(const char *ifname, double want, double rate, const char *dst, int batch)
{
    struct ring fq, cq, tx;
    struct ifreq ifr = {0};
    char *umem;
    int fd, i, j, nfr = NCHUNK / DPF;
    uint32_t prod = 0, cons_cq = 0;
    unsigned long frames = 0, kicks = 0, busy = 0, eagain = 0, stalls = 0;
    double sent = 0, t0, d;

    fd = xsk_open(ifname, 0, &umem, &fq, &cq, &tx);
    if (fd < 0) {
        return 1;
    }
    if (parse_mac(dst, (unsigned char *)umem) < 0) {
        fprintf(stderr, "hxb-xdp-floor: bad MAC %s\n", dst);
        return 2;
    }
    snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
    if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0) {
        int s = socket(AF_INET, SOCK_DGRAM, 0);
        if (s < 0 || ioctl(s, SIOCGIFHWADDR, &ifr) < 0) {
            return die("SIOCGIFHWADDR");
        }
        close(s);
    }
    memcpy(umem + 6, ifr.ifr_hwaddr.sa_data, 6);
    umem[12] = ETYPE >> 8;
    umem[13] = ETYPE & 0xff;
    for (i = 14; i < FLEN; i++) {
        umem[i] = (char)i;
    }
    for (i = 1; i < nfr; i++) {         /* the same frame in every slot */
        memcpy(umem + (size_t)i * DPF * CHUNK, umem, FLEN);
    }
    if (batch * DPF > RING / 2) {
        batch = RING / 2 / DPF;
    }

    double c0 = cpu();
    t0 = now();
    while (sent < want) {
        d = t0 + sent / rate - now();
        if (d > 0) {
            struct timespec ts = {(time_t)d, (long)((d - (time_t)d) * 1e9)};
            nanosleep(&ts, NULL);
        }
        /* completions: only their count matters, the frames never change */
        uint32_t cp = __atomic_load_n(cq.prod, __ATOMIC_ACQUIRE);
        if (cp != cons_cq) {
            __atomic_store_n(cq.cons, cp, __ATOMIC_RELEASE);
            cons_cq = cp;
        }
        uint32_t tc = __atomic_load_n(tx.cons, __ATOMIC_ACQUIRE);
        int room = (RING - (prod - tc)) / DPF, nb = batch < room ? batch : room;
        for (i = 0; i < nb; i++) {
            uint64_t base = (uint64_t)(frames % nfr) * DPF * CHUNK;
            for (j = 0; j < DPF; j++) {
                struct xdp_desc *x = &((struct xdp_desc *)tx.desc)[(prod + j) & tx.mask];
                x->addr = base + (uint64_t)j * CHUNK;
                x->len = j < DPF - 1 ? CHUNK : FLEN - (DPF - 1) * CHUNK;
                x->options = j < DPF - 1 ? XDP_PKT_CONTD : 0;
            }
            prod += DPF;
            frames++;
            sent += PAYLOAD;
        }
        __atomic_store_n(tx.prod, prod, __ATOMIC_RELEASE);
        /* copy mode sends at most 32 descriptors per call */
        while ((tc = __atomic_load_n(tx.cons, __ATOMIC_ACQUIRE)) != prod) {
            kicks++;
            if (sendto(fd, NULL, 0, MSG_DONTWAIT, NULL, 0) < 0) {
                if (errno == EBUSY || errno == ENOBUFS || errno == EAGAIN) {
                    busy++;
                    eagain += errno == EAGAIN;
                    cp = __atomic_load_n(cq.prod, __ATOMIC_ACQUIRE);
                    __atomic_store_n(cq.cons, cp, __ATOMIC_RELEASE);
                    cons_cq = cp;
                    if (__atomic_load_n(tx.cons, __ATOMIC_ACQUIRE) == tc) {
                        /* no progress (completion ring full or the device's
                         * queue stopped): sleep rather than spin */
                        struct timespec ts = {0, 50000};
                        stalls++;
                        nanosleep(&ts, NULL);
                    }
                    continue;
                }
                return die("sendto");
            }
        }
    }
    double secs = now() - t0, cpu_s = cpu();
    stats(fd, "send");
    fprintf(stderr, "hxb-xdp-floor send: %lu frames, %lu sendto, %lu failed (%lu EAGAIN), "
            "%lu stalls, setup cpu %.3f s\n", frames, kicks, busy, eagain, stalls, c0);
    printf("hxb-xdp-floor send: %.0f bytes in %.2f s, cpu %.3f s\n", sent, secs, cpu_s);
    return 0;
}

int main(int argc, char **argv)
{
    if ((argc == 4 || argc == 5) && !strcmp(argv[1], "recv")) {
        return do_recv(argv[2], atof(argv[3]), argc == 5 ? argv[4] : "contrib/bench/hxb_xdp_floor_kern.o");
    }
    if ((argc == 6 || argc == 7) && !strcmp(argv[1], "send")) {
        return do_send(argv[2], atof(argv[3]), atof(argv[4]), argv[5],
                       argc == 7 ? atoi(argv[6]) : 64);
    }
    fprintf(stderr, "usage: hxb-xdp-floor recv IFACE BYTES [KERN.o] | "
            "send IFACE BYTES RATE DSTMAC [BATCH]\n");
    return 2;
}
