/* Raw Ethernet rail: an AF_PACKET socket for EtherType 0x88B5 with an
 * mmapped RX ring (the ring slot is the seed paper's "buffer ID": frames are
 * read in place, no copy, no system call per frame) and a classic-BPF filter
 * that lets the kernel steer frames to the process they are addressed to,
 * so several processes per node share the NIC without waking each other. */
#include "hxb_clock.h"
#include "hxb_rail.h"
#include "hxb_wire.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#define RAW_IOV_MAX     4
#define RAW_BLOCK_SIZE  (1u << 20)
#define RAW_RING_BYTES  (8u << 20)
#define RAW_SOCKBUF     (4 << 20)

typedef struct hxb_rail_raw {
    hxb_rail_t          super;
    int                 ifindex;
    /* RX ring */
    uint8_t            *ring;
    size_t              ring_size;
    unsigned            frame_size, frames_per_block, frame_nr, head;
    /* TX batch */
    struct mmsghdr      txm[HXB_RAIL_BATCH];
    struct iovec        txiov[HXB_RAIL_BATCH][RAW_IOV_MAX];
    struct sockaddr_ll  txaddr[HXB_RAIL_BATCH];
    int                 ntx;
} hxb_rail_raw_t;

static inline struct tpacket2_hdr *raw_frame(hxb_rail_raw_t *w, unsigned i)
{
    return (struct tpacket2_hdr *)(w->ring +
                                   (size_t)(i / w->frames_per_block) * RAW_BLOCK_SIZE +
                                   (size_t)(i % w->frames_per_block) * w->frame_size);
}


/* Every raw rail's batch in one sendmmsg: a packet socket sends on the
 * interface each message's sockaddr_ll names, so one socket serves all
 * rails, and a pass that sends on 8 rails makes 1 system call, not 8. A
 * frame the kernel refuses is counted on its rail and skipped (the
 * others still go). */
#define RAW_GATHER 64
static void raw_flush_many(hxb_rail_t **rails, int nrails)
{
    struct mmsghdr m[RAW_GATHER];
    hxb_rail_raw_t *own[RAW_GATHER];
    int ri = 0, k = 0, cnt, done, n, i;

    while (ri < nrails) {
        /* gather whole batches, rail by rail */
        for (cnt = 0; ri < nrails; ri++) {
            hxb_rail_raw_t *w = (hxb_rail_raw_t *)rails[ri];
            if (cnt + (w->ntx - k) > RAW_GATHER) {
                break;
            }
            for (; k < w->ntx; k++, cnt++) {
                m[cnt] = w->txm[k];
                own[cnt] = w;
            }
            k = 0;
        }
        if (cnt == 0 && ri < nrails) { /* one batch is larger: take a part */
            hxb_rail_raw_t *w = (hxb_rail_raw_t *)rails[ri];
            for (; k < w->ntx && cnt < RAW_GATHER; k++, cnt++) {
                m[cnt] = w->txm[k];
                own[cnt] = w;
            }
        }
        for (done = 0; done < cnt;) {
            n = sendmmsg(own[done]->super.fd, m + done, cnt - done, MSG_DONTWAIT);
            if (n < 0) {
                if (errno == EINTR) {
                    continue;
                }
                /* queue full or link down: like a loss on the wire */
                if (errno == EAGAIN || errno == ENOBUFS) {
                    own[done]->super.stats.tx_again++;
                } else {
                    own[done]->super.stats.tx_errors++;
                }
                done++;
                continue;
            }
            for (i = done; i < done + n; i++) {
                own[i]->super.stats.tx_bytes += m[i].msg_len;
                own[i]->super.stats.tx_frames++;
            }
            done += n;
        }
    }
    for (ri = 0; ri < nrails; ri++) {
        ((hxb_rail_raw_t *)rails[ri])->ntx = 0;
    }
}

/* one rail's batch (full batch, close): the same path as all rails' */
static int raw_flush(hxb_rail_t *r)
{
    raw_flush_many(&r, 1);
    return 0;
}

static int raw_send(hxb_rail_t *r, const hxb_raddr_t *dst,
                    const struct iovec *iov, int iovcnt)
{
    hxb_rail_raw_t *w = (hxb_rail_raw_t *)r;
    struct sockaddr_ll *sll;
    struct msghdr *m;
    int k = w->ntx;

    if (iovcnt > RAW_IOV_MAX) {
        return -EINVAL;
    }
    sll = &w->txaddr[k];
    memset(sll, 0, sizeof(*sll));
    sll->sll_family = AF_PACKET;
    sll->sll_protocol = htons(HXB_ETHERTYPE);
    sll->sll_ifindex = w->ifindex;
    sll->sll_halen = 6;
    memcpy(sll->sll_addr, dst->mac, 6);
    memcpy(w->txiov[k], iov, iovcnt * sizeof(*iov));
    m = &w->txm[k].msg_hdr;
    memset(m, 0, sizeof(*m));
    m->msg_name = sll;
    m->msg_namelen = sizeof(*sll);
    m->msg_iov = w->txiov[k];
    m->msg_iovlen = iovcnt;
    if (++w->ntx == HXB_RAIL_BATCH) {
        raw_flush(r);
    }
    return 0;
}

/* the ring slot's frame if the kernel has handed it to us, else NULL */
static struct tpacket2_hdr *raw_ready(hxb_rail_raw_t *w, unsigned slot)
{
    struct tpacket2_hdr *tp = raw_frame(w, slot);

    return __atomic_load_n(&tp->tp_status, __ATOMIC_ACQUIRE) & TP_STATUS_USER ? tp : NULL;
}

/* a ready slot's frame, its sender's MAC in src; NULL if truncated */
static void *raw_data(struct tpacket2_hdr *tp, hxb_raddr_t *src)
{
    const struct sockaddr_ll *sll;

    if (tp->tp_snaplen != tp->tp_len) {
        return NULL;
    }
    sll = (const struct sockaddr_ll *)((uint8_t *)tp +
                                       TPACKET_ALIGN(sizeof(struct tpacket2_hdr)));
    memcpy(src->mac, sll->sll_addr, 6);
    return (uint8_t *)tp + tp->tp_mac;
}

static int raw_recv(hxb_rail_t *r, hxb_rx_cb_t cb, void *arg, int max)
{
    hxb_rail_raw_t *w = (hxb_rail_raw_t *)r;
    struct tpacket2_hdr *tp;
    hxb_raddr_t src;
    double off = 0;
    void *data;
    int n = 0;

    memset(&src, 0, sizeof(src));
    while (n < max && (tp = raw_ready(w, w->head))) {
        if (n == 0) {
            off = hxb_rail_real_off(r);
        }
        r->rx_stamp = (double)tp->tp_sec + tp->tp_nsec * 1e-9 - off;
        if (tp->tp_status & TP_STATUS_LOSING) {
            r->stats.rx_ring_drops++;
        }
        if ((data = raw_data(tp, &src))) {   /* else truncated: drop */
            r->stats.rx_frames++;
            r->stats.rx_bytes += tp->tp_len;
            cb(arg, r, data, tp->tp_len, &src);
        }
        __atomic_store_n(&tp->tp_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
        w->head = (w->head + 1) % w->frame_nr;
        n++;
    }
    return n;
}

/* the ring is ours to read: frames the kernel handed over stay there
 * until recv returns them */
static int raw_peek(hxb_rail_t *r, hxb_rx_cb_t cb, void *arg, int max)
{
    hxb_rail_raw_t *w = (hxb_rail_raw_t *)r;
    struct tpacket2_hdr *tp;
    hxb_raddr_t src;
    unsigned slot = w->head;
    void *data;
    int n = 0;

    memset(&src, 0, sizeof(src));
    while (n < max && n < (int)w->frame_nr && (tp = raw_ready(w, slot))) {
        if ((data = raw_data(tp, &src))) {
            cb(arg, r, data, tp->tp_len, &src);
        }
        slot = (slot + 1) % w->frame_nr;
        n++;
    }
    return n;
}

static void raw_close(hxb_rail_t *r)
{
    hxb_rail_raw_t *w = (hxb_rail_raw_t *)r;

    raw_flush(r);
    if (w->ring) {
        munmap(w->ring, w->ring_size);
    }
    close(r->fd);
    free(w);
}

static const hxb_rail_ops_t raw_ops = {
    .send = raw_send, .flush = raw_flush, .flush_many = raw_flush_many,
    .recv = raw_recv, .peek = raw_peek, .close = raw_close,
};

/* Accept only frames whose dst_proc is ours. BPF loads are big-endian and
 * the field is little-endian, hence the byte swap of the constant. */
static int raw_attach_filter(int fd, uint16_t proc_id)
{
    struct sock_filter code[] = {
        BPF_STMT(BPF_LD | BPF_H | BPF_ABS, offsetof(hxb_hdr_t, dst_proc)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __builtin_bswap16(proc_id), 0, 1),
        BPF_STMT(BPF_RET | BPF_K, 0x40000),
        BPF_STMT(BPF_RET | BPF_K, 0),
    };
    struct sock_fprog prog = {.len = sizeof(code) / sizeof(code[0]), .filter = code};

    return setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog));
}

int hxb_rail_raw_open(const char *ifname, uint16_t proc_id, hxb_rail_t **rail_p,
                      char *err, size_t errlen)
{
    struct tpacket_req req;
    struct sockaddr_ll sll;
    hxb_rail_raw_t *w;
    int fd, v, ret, mtu;
    char path[96];
    FILE *f;

    w = calloc(1, sizeof(*w));
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
                htons(HXB_ETHERTYPE));
    if (fd < 0) {
        ret = -errno;
        if (errno == EPERM || errno == EACCES) {
            snprintf(err, errlen,
                     "%s: raw Ethernet rails need CAP_NET_RAW (run as root or "
                     "grant it with setcap), or use UDP rails: UCX_HXB_MODE=udp",
                     ifname);
        } else {
            snprintf(err, errlen, "%s: AF_PACKET socket: %s", ifname, strerror(errno));
        }
        goto fail;
    }
    /* filter before bind so no foreign frame is ever queued to us */
    if (raw_attach_filter(fd, proc_id) < 0) {
        ret = -errno;
        snprintf(err, errlen, "%s: attach BPF filter: %s", ifname, strerror(errno));
        goto fail_fd;
    }
    v = 1;
    setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &v, sizeof(v));
    v = RAW_SOCKBUF;
    if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &v, sizeof(v)) < 0) {
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v));
    }
    snprintf(path, sizeof(path), "/sys/class/net/%s/mtu", ifname);
    mtu = 1500;
    if ((f = fopen(path, "r"))) {
        if (fscanf(f, "%d", &mtu) != 1) {
            mtu = 1500;
        }
        fclose(f);
    }
    w->super.mtu = (size_t)mtu;
    v = TPACKET_V2;
    if (setsockopt(fd, SOL_PACKET, PACKET_VERSION, &v, sizeof(v)) < 0) {
        ret = -errno;
        snprintf(err, errlen, "%s: TPACKET_V2: %s", ifname, strerror(errno));
        goto fail_fd;
    }
    /* slot: tpacket2 header + sockaddr_ll + room for the link header + MTU */
    w->frame_size = TPACKET_ALIGN(TPACKET2_HDRLEN + 32 + (unsigned)mtu);
    w->frames_per_block = RAW_BLOCK_SIZE / w->frame_size;
    memset(&req, 0, sizeof(req));
    req.tp_block_size = RAW_BLOCK_SIZE;
    req.tp_block_nr = RAW_RING_BYTES / RAW_BLOCK_SIZE;
    req.tp_frame_size = w->frame_size;
    req.tp_frame_nr = req.tp_block_nr * w->frames_per_block;
    w->frame_nr = req.tp_frame_nr;
    if (setsockopt(fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req)) < 0) {
        ret = -errno;
        snprintf(err, errlen, "%s: PACKET_RX_RING: %s", ifname, strerror(errno));
        goto fail_fd;
    }
    w->ring_size = (size_t)req.tp_block_size * req.tp_block_nr;
    w->ring = mmap(NULL, w->ring_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (w->ring == MAP_FAILED) {
        ret = -errno;
        w->ring = NULL;
        snprintf(err, errlen, "%s: mmap RX ring: %s", ifname, strerror(errno));
        goto fail_fd;
    }
    w->ifindex = (int)if_nametoindex(ifname);
    memset(&sll, 0, sizeof(sll));
    sll.sll_family = AF_PACKET;
    sll.sll_protocol = htons(HXB_ETHERTYPE);
    sll.sll_ifindex = w->ifindex;
    if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
        ret = -errno;
        snprintf(err, errlen, "%s: bind: %s", ifname, strerror(errno));
        goto fail_map;
    }
    w->super.ops = &raw_ops;
    w->super.fd = fd;
    w->super.sysfd = -1;
    snprintf(w->super.ifname, sizeof(w->super.ifname), "%s", ifname);
    *rail_p = &w->super;
    return 0;

fail_map:
    munmap(w->ring, w->ring_size);
fail_fd:
    close(fd);
fail:
    free(w);
    return ret;
}
