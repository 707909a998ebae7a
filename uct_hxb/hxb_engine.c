/* Engine: owns rails and peers, dispatches received frames, drives timers. */
#include "hxb_engine_int.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

void hxb_engine_cfg_default(hxb_engine_cfg_t *c)
{
    memset(c, 0, sizeof(*c));
    c->job_key = 0x6878622d6b657931ull; /* "hxb-key1" */
    c->window = 1024;
    c->max_msg = 64 * 1024;
    c->csum = 1;
    c->rto_min = 1e-3;
    c->rto_init = 20e-3;
    c->rack = 1;
    c->send_at_once = 1;
    c->lazy_acks = 1;
    c->short_frames = 1;
    c->train_max = 32768;
    c->train_cost = 10e-6;
    c->rto_max = 200e-3;
    c->ack_delay = 1e-3;
    c->ack_every = 16;
    c->rail_inflight = 32;
    c->cc_target = 2e-3;
    c->peer_timeout = 10.0;
    c->probe_interval = 50e-3;
    c->auth = HXB_AUTH_HEADER;
}

int hxb_engine_create(const hxb_engine_cfg_t *cfg, const hxb_callbacks_t *cb,
                      hxb_engine_t **e_p)
{
    hxb_engine_t *e;

    if (!cfg->window || (cfg->window & (cfg->window - 1)) ||
        cfg->window > HXB_SACK_BITS || (cfg->frame_cap && cfg->frame_cap < HXB_FRAME_MIN)) {
        return -EINVAL;
    }
    e = calloc(1, sizeof(*e));
    if (!e) {
        return -ENOMEM;
    }
    e->cfg = *cfg;
    e->cb = *cb;
    e->auth.mode = cfg->auth;
    e->auth.job_key = cfg->job_key;
    if (cfg->auth_key[0] | cfg->auth_key[1]) {
        e->auth.key[0] = cfg->auth_key[0];
        e->auth.key[1] = cfg->auth_key[1];
    } else {
        /* no secret given: one derived from the job key, as guessable */
        hxb_auth_derive(&cfg->job_key, sizeof(cfg->job_key), e->auth.key);
    }
    e->frag = 0;
    e->wscale = 1.0;
    e->rail_max = e->cfg.rail_inflight;
    e->ack_every = e->cfg.ack_every;
    e->bpool.size = cfg->max_msg;
    e->bpool.max = 2 * cfg->window;
    e->now = hxb_now();
    e->pollfd = -1;
    e->poll_first = -1;
    *e_p = e;
    return 0;
}

static void peer_free(hxb_peer_t *p)
{
    hxb_tx_free(p);
    hxb_ops_free(p);
    hxb_rx_free(p);
    hxb_am_free(p);
    free(p);
}

void hxb_engine_destroy(hxb_engine_t *e)
{
    hxb_peer_t *p;
    hxb_op_t *op;
    hxb_flushreq_t *f;
    int i;

    /* What we received is acked before we go: a burst that did not ask
     * for a prompt ACK (UCX_HXB_LAZY_ACKS), or one that came in just
     * before the close, would leave its sender waiting for an ACK that
     * never comes, and failing us after the peer timeout while it still
     * runs (an MPI rank finalizing after its last peer has). */
    e->now = hxb_now();
    for (p = e->active; p; p = p->anext) {
        if (!p->failed && hxb_ack_owed_count(p)) {
            hxb_ack_send(p);
        }
    }
    /* the rails next: closing flushes their batches, whose iovecs point
     * into the peers' slots */
    for (i = 0; i < e->nrails; i++) {
        e->rails[i]->ops->close(e->rails[i]);
    }
    for (i = 0; i < HXB_PEER_HASH; i++) {
        while ((p = e->hash[i])) {
            e->hash[i] = p->hnext;
            peer_free(p);
        }
    }
    if (e->pollfd >= 0) {
        close(e->pollfd);
    }
    while ((op = e->free_ops)) {
        e->free_ops = op->next;
        free(op);
    }
    while ((f = e->free_flush)) {
        e->free_flush = f->next;
        free(f);
    }
    while (e->defer_head) {
        hxb_defer_t *d = e->defer_head;
        e->defer_head = d->next;
        free(d);
    }
    hxb_pool_cleanup(&e->bpool);
    hxb_pool_cleanup(&e->rpool);
    free(e);
}

/* the rail joins the epoll set the pass asks first (engine_rails_ready) */
static void engine_poll_add(hxb_engine_t *e, hxb_rail_t *rail)
{
    struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)rail->index};

    if (e->npoll < 0) {
        return;
    }
    if (e->pollfd < 0) {
        e->pollfd = epoll_create1(EPOLL_CLOEXEC);
    }
    if (e->pollfd < 0 || epoll_ctl(e->pollfd, EPOLL_CTL_ADD, rail->sysfd, &ev) < 0) {
        e->npoll = -1;          /* poll every rail every pass instead */
        e->poll_mask = 0;
    } else {
        e->npoll++;
        e->poll_mask |= 1u << rail->index;
    }
}

int hxb_engine_add_rail(hxb_engine_t *e, hxb_rail_t *rail)
{
    size_t frag;
    int i;

    if (e->nrails == HXB_MAX_RAILS) {
        return -ENOSPC;
    }
    if (rail->mtu < HXB_FRAME_MIN) {
        return -EMSGSIZE;
    }
    rail->index = e->nrails;
    rail->sys_ready = 1;
    e->rails[e->nrails++] = rail;
    if (rail->sysfd >= 0 && e->npoll >= 0) {
        /* one rail is read every pass anyway: no epoll set until a second
         * (each set a socket is in costs the sender's softirq a wake-up
         * call per datagram, on the latency path) */
        if (e->poll_first < 0 && e->npoll == 0) {
            e->poll_first = rail->index;
        } else {
            if (e->poll_first >= 0) {
                engine_poll_add(e, e->rails[e->poll_first]);
                e->poll_first = -1;
            }
            engine_poll_add(e, rail);
        }
    }
    /* every frame must fit every rail: a retransmission may change rail;
     * and the cap (UCX_HXB_FRAME_MAX), if any: frame_max, what may arrive,
     * stays the rails' */
    if (!e->frame_max || rail->mtu < e->frame_max) {
        e->frame_max = rail->mtu;
    }
    e->frame_tx = e->frame_max;
    if (e->cfg.frame_cap && e->frame_tx > e->cfg.frame_cap) {
        e->frame_tx = e->cfg.frame_cap;
    }
    frag = (e->frame_tx - sizeof(hxb_hdr_t) - sizeof(hxb_put_ext_t)) & ~(size_t)63;
    if (!e->frag || frag < e->frag) {
        e->frag = frag;
    }
    /* windows hold bytes, not frames: the per-frame costs of a round (a
     * sender's wake-up per ACK, a receiver's per train) would otherwise
     * be 6x as many per byte at MTU 1500 as at 9000 (doc/DESIGN.md) */
    e->wscale = e->frag < HXB_FRAME_REF ? (double)HXB_FRAME_REF / (double)e->frag : 1.0;
    e->rail_max = e->cfg.rail_inflight * e->wscale;
    e->ack_every = (unsigned)(e->cfg.ack_every * e->wscale);
    e->rail_cap[rail->index] = e->rail_max;
    for (i = 0; i < rail->index; i++) {
        if (e->rail_cap[i] > e->rail_max) {
            e->rail_cap[i] = e->rail_max;
        }
    }
    e->rpool.size = e->frag + HXB_HB_MAX + HXB_AM_INLINE;
    if (e->rpool.size < e->frame_max + HXB_SHORT_GROW) {
        e->rpool.size = e->frame_max + HXB_SHORT_GROW;  /* a held short frame, expanded */
    }
    e->rpool.max = 4 * e->cfg.window;
    return 0;
}

int hxb_engine_num_rails(hxb_engine_t *e) { return e->nrails; }
hxb_rail_t *hxb_engine_rail(hxb_engine_t *e, int i) { return e->rails[i]; }
size_t hxb_engine_frag_size(hxb_engine_t *e) { return e->frag; }

size_t hxb_engine_am_whole(hxb_engine_t *e, size_t max)
{
    int all = hxb_tx_short_allowed(e) && e->nrails > 0, r;   /* later fragments short */
    size_t first, next;

    for (r = 0; r < e->nrails; r++) {
        all &= e->rails[r]->udp_carrier;
    }
    first = hxb_tx_frag(e, HXB_K_AM, 1, all);
    next = hxb_tx_frag(e, HXB_K_AM, 0, all);
    return max <= first ? max : first + (max - first) / next * next;
}
const hxb_engine_stats_t *hxb_engine_stats(hxb_engine_t *e) { return &e->stats; }
const hxb_engine_cfg_t *hxb_engine_cfg(hxb_engine_t *e) { return &e->cfg; }

int hxb_engine_fds(hxb_engine_t *e, int *fds, int max)
{
    int i, n = 0;

    for (i = 0; i < e->nrails && n < max; i++) {
        if (e->rails[i]->fd >= 0) {
            fds[n++] = e->rails[i]->fd;
        }
    }
    return n;
}

static unsigned peer_hash(uint16_t node, uint16_t proc)
{
    return ((unsigned)node * 31u + proc * 2654435761u) % HXB_PEER_HASH;
}

static hxb_peer_t *peer_lookup(hxb_engine_t *e, uint16_t node, uint16_t proc)
{
    hxb_peer_t *p;

    for (p = e->hash[peer_hash(node, proc)]; p; p = p->hnext) {
        if (p->node == node && p->proc == proc) {
            return p;
        }
    }
    return NULL;
}

static hxb_peer_t *peer_new(hxb_engine_t *e, uint16_t node, uint16_t proc,
                            uint32_t epoch)
{
    hxb_peer_t *p = calloc(1, sizeof(*p));
    unsigned h;

    if (!p) {
        return NULL;
    }
    /* the windows and the reassembly buffer come with the first frames
     * each way (hxb_tx_room, hxb_rx_frame, hxb_am_rcvd): a peer that is
     * only known costs sizeof(hxb_peer_t) */
    p->e = e;
    p->node = node;
    p->proc = proc;
    p->epoch = epoch;
    hxb_loss_init(p);
    hxb_cc_init(p);
    p->last_ack_progress = e->now;
    p->last_rx = e->now;
    h = peer_hash(node, proc);
    p->hnext = e->hash[h];
    e->hash[h] = p;
    return p;
}

hxb_peer_t *hxb_peer_get(hxb_engine_t *e, uint16_t node, uint16_t proc,
                         uint32_t epoch, const hxb_raddr_t *addrs,
                         uint32_t rail_mask)
{
    hxb_peer_t *p = peer_lookup(e, node, proc);
    int i;

    if (!p) {
        p = peer_new(e, node, proc, epoch);
        if (!p) {
            return NULL;
        }
    } else if (p->epoch != epoch) {
        e->deferring = 1;       /* no callback from inside this call */
        hxb_peer_restart(p, epoch);
        e->deferring = 0;
    }
    for (i = 0; i < e->nrails; i++) {
        if (rail_mask & (1u << i)) {
            p->addr[i] = addrs[i];
        }
    }
    p->rail_mask |= rail_mask;
    p->refs++;
    return p;
}

void hxb_peer_put_ref(hxb_peer_t *p)
{
    /* peers live as long as the engine: a late frame of a closed endpoint
     * must still find its sequence state, or it would be taken for new */
    if (p->refs > 0) {
        p->refs--;
    }
}

int hxb_peer_failed(const hxb_peer_t *p) { return p->failed; }
uint32_t hxb_peer_epoch(const hxb_peer_t *p) { return p->epoch; }
double hxb_engine_wake_at(const hxb_engine_t *e)
{
    const hxb_peer_t *p;
    double t = 0;
    int i;

    for (p = e->active; p; p = p->anext) {
        t = hxb_wake_min(t, hxb_ack_wake_at(p));
        t = hxb_wake_min(t, hxb_peer_wake_at(p));
    }
    for (i = 0; e->active && i < e->nrails; i++) {
        if (!e->rails[i]->up) {
            /* a rail coming back up is found only by polling its link (one
             * going down with frames on it is found by their RTO) */
            t = hxb_wake_min(t, e->next_link_check);
            break;
        }
    }
    return t;
}

int hxb_engine_may_sleep(hxb_engine_t *e, double *until)
{
    *until = hxb_engine_wake_at(e);
    /* asleep, the caller wakes on frames: not busy (idle tick) */
    e->asleep = !*until || *until > hxb_now();
    return e->asleep;
}

uint32_t hxb_peer_rail_mask(const hxb_peer_t *p) { return p->rail_mask; }

/* rails to receive from in this pass: those outside the epoll set, and
 * those in it with something to read (an epoll error: all of them) */
static uint32_t engine_rails_ready(hxb_engine_t *e)
{
    struct epoll_event ev[HXB_MAX_RAILS];
    uint32_t ready = ~e->poll_mask;
    int n, i;

    n = epoll_wait(e->pollfd, ev, HXB_MAX_RAILS, 0);
    if (n < 0) {
        return ~0u;
    }
    for (i = 0; i < n; i++) {
        ready |= 1u << ev[i].data.u32;
    }
    return ready;
}

/* learn (or refresh) where the peer is on this rail */
static void engine_learn_addr(hxb_peer_t *p, hxb_rail_t *rail, const hxb_raddr_t *src)
{
    if (rail->ip && src->ip) {
        p->addr[rail->index].ip = src->ip;
        p->addr[rail->index].port = src->port;
    }
    if (src->mac[0] | src->mac[1] | src->mac[2] | src->mac[3] | src->mac[4] | src->mac[5]) {
        memcpy(p->addr[rail->index].mac, src->mac, 6);   /* not by UDP */
    }
    p->rail_mask |= 1u << rail->index;
}

/* a valid frame not for us (relaying frames of other nodes is the
 * router's job, issue 3), or out of hops: the drop reason, else
 * HXB_DROP_MAX */
static int engine_dst_check(const hxb_engine_t *e, const hxb_hdr_t *h)
{
    if (h->dst_node != e->cfg.node_id || h->dst_proc != e->cfg.proc_id ||
        h->dst_epoch != e->cfg.epoch) {
        return HXB_DROP_DST;
    }
    return h->hops == 0 ? HXB_DROP_HOPS : HXB_DROP_MAX;
}

/* A short frame (PROTOCOL.md 3.1) checked (its tag too, under what we know
 * of its sender) and made whole in front of its payload; NULL (counted)
 * if it cannot be: it came by a rail with no room in front (raw), from a
 * peer we have not heard of (its first frame is never short), or fails. */
static hxb_hdr_t *engine_short_expand(hxb_engine_t *e, hxb_rail_t *rail, void *data,
                                      size_t *size, hxb_peer_t **peer)
{
    const hxb_short_hdr_t *s = data;
    hxb_short_ctx_t ctx;
    hxb_hdr_t *h;
    hxb_peer_t *p;
    int why = HXB_DROP_VERSION;

    if (rail->rx_room < HXB_SHORT_GROW) {
        e->stats.drops[why]++;
        return NULL;
    }
    if (*size < sizeof(*s) || !(p = peer_lookup(e, s->src_node, s->src_proc))) {
        e->stats.drops[*size < sizeof(*s) ? HXB_DROP_SHORT : HXB_DROP_DST]++;
        return NULL;
    }
    ctx.dst_node = e->cfg.node_id;
    ctx.dst_proc = e->cfg.proc_id;
    ctx.src_epoch = p->epoch;
    ctx.dst_epoch = e->cfg.epoch;
    h = hxb_short_expand(data, size, &e->auth, &ctx, &why);
    if (!h) {
        e->stats.drops[why]++;
    }
    *peer = p;
    return h;
}

static void engine_rx_cb(void *arg, hxb_rail_t *rail, void *data, size_t size,
                         const hxb_raddr_t *src)
{
    hxb_engine_t *e = arg;
    hxb_hdr_t *h = data;
    hxb_peer_t *p = NULL;
    uint32_t ack;
    int why, busy, known, is_short = 0;

    if (size && *(const uint8_t *)data == HXB_VERSION_SHORT) {
        if (!(h = engine_short_expand(e, rail, data, &size, &p))) {
            return;
        }
        data = h;
        is_short = 1;
    }
    why = is_short ? hxb_frame_fields_check(data, size) : hxb_frame_check(data, size, &e->auth);
    if (why == HXB_DROP_MAX) {
        why = engine_dst_check(e, h);
    }
    if (why != HXB_DROP_MAX) {
        e->stats.drops[why]++;
        return;
    }
    e->stats.rx_frames++;
    if (!is_short) {             /* a short frame's sender was looked up already */
        p = peer_lookup(e, h->src_node, h->src_proc);
    }
    if (!p) {
        p = peer_new(e, h->src_node, h->src_proc, h->src_epoch);
        if (!p) {
            e->stats.drops[HXB_DROP_NOBUF]++;
            return;
        }
    } else if (p->epoch != h->src_epoch) {
        /* a frame of an earlier run of the peer, still in a queue or sent
         * by a dying process, must not reset its successor; an older epoch
         * is believed only once the current one has been silent for a peer
         * timeout (the peer's clock may have stepped back) */
        if (hxb_seq_lt(h->src_epoch, p->epoch) &&
            e->now - p->last_rx < e->cfg.peer_timeout) {
            e->stats.drops[HXB_DROP_DST]++;
            return;
        }
        /* nothing ends a peer on one unconfirmed frame (8.9) */
        if (!hxb_peer_epoch_proven(p, rail, h, size)) {
            e->stats.drops[HXB_DROP_UNPROVEN]++;
            return;
        }
        hxb_peer_restart(p, h->src_epoch);
    }
    if (is_short) {
        h->ack = p->tx.una;      /* it carries none (3.1): nothing acked */
        e->stats.rx_short++;
    }
    p->last_rx = e->now;
    p->stats.rx_frames++;
    p->stats.rx_bytes += size;
    /* Where the peer is on this rail: from its first frame here, then only
     * from sequenced frames not seen before. A genuine frame replayed by
     * someone else passes every check up to the duplicate test; learned
     * from, it would send our frames to the replayer. */
    known = (p->rail_mask >> rail->index) & 1;
    if (!known) {
        engine_learn_addr(p, rail, src);
    }
    busy = (h->flags & HXB_F_BUSY) != 0;
    ack = h->ack;
    if (hxb_rx_frame(p, rail, h, size) && known) {
        engine_learn_addr(p, rail, src);
    }
    hxb_peer_busy_rcvd(p, busy, ack);     /* after its ack is taken in */
}

/* a full header to us seen by a peek, or NULL */
static const hxb_hdr_t *engine_peeked_hdr(const hxb_engine_t *e, const void *data,
                                          size_t size)
{
    const hxb_hdr_t *h = data;

    return size >= sizeof(*h) && h->version == HXB_VERSION &&
           engine_dst_check(e, h) == HXB_DROP_MAX ? h : NULL;
}

/* ... checked as a received one is, its tag too (the whole frame, or its
 * first bytes: a UDP datagram passed the kernel's checksum); after the
 * cheaper checks of the caller */
static int engine_peeked_ok(hxb_engine_t *e, const hxb_hdr_t *h, size_t size)
{
    if (size >= sizeof(*h) + h->len) {
        return hxb_frame_check(h, size, &e->auth) == HXB_DROP_MAX;
    }
    struct iovec iov = {(void *)(h + 1), size - sizeof(*h)};
    return size >= sizeof(*h) + hxb_frame_tag_len(&e->auth, h) &&
           hxb_frame_tag(&e->auth, h, &iov, 1) == h->tag;
}

/* The idle tick's look at a frame waiting in a rail (maybe its first
 * HXB_RAIL_PEEK_LEN bytes only): a peer we do not know yet sends to us
 * while our caller computes. We learn it, so that it hears we are busy
 * instead of failing us; the frame itself waits for the next pass. A whole
 * frame is checked as a received one; a part of one by its fields and its
 * tag (a UDP rail's datagram passed the kernel's checksum), so with header
 * authentication the part must hold the header and its extension, and with
 * full authentication the whole frame: nobody makes us keep a peer by a
 * forged frame. Known peers are left as they are. */
static void engine_peek_cb(void *arg, hxb_rail_t *rail, void *data, size_t size,
                           const hxb_raddr_t *src)
{
    hxb_engine_t *e = arg;
    const hxb_hdr_t *h = engine_peeked_hdr(e, data, size);
    hxb_peer_t *p;

    if (!h || peer_lookup(e, h->src_node, h->src_proc) || !engine_peeked_ok(e, h, size)) {
        return;
    }
    p = peer_new(e, h->src_node, h->src_proc, h->src_epoch);
    if (p) {
        engine_learn_addr(p, rail, src);
        e->stats.busy_learned++;
    }
}

/* An idle tick's look for acks (8.7): a frame of a known peer, of its
 * current run, to us, checked as a received one is, says in its header
 * how far it acknowledged. Short frames carry no ack and are not looked
 * at. */
static void engine_peek_ack_cb(void *arg, hxb_rail_t *rail, void *data, size_t size,
                               const hxb_raddr_t *src)
{
    hxb_engine_t *e = arg;
    const hxb_hdr_t *h = engine_peeked_hdr(e, data, size);
    hxb_peer_t *p;

    if (!h || !(p = peer_lookup(e, h->src_node, h->src_proc)) || !p->active ||
        h->src_epoch != p->epoch || (p->peeked && hxb_seq_le(h->ack, p->peeked_ack)) ||
        !engine_peeked_ok(e, h, size)) {
        return;
    }
    p->peeked_ack = h->ack;
    p->peeked     = 1;
}

/* The caller is away: resend what is due, but not what a frame waiting
 * in our rails acknowledged (the caller reads that ack when it is back).
 * On an oversubscribed node ranks are off the CPU longer than their RTO
 * all the time: without the look, every such spell cost a needless resend
 * (NPB is.A on 8 ranks per 2 cores: 3.5x the spurious resends). */
static void engine_away_timers(hxb_engine_t *e, double now)
{
    hxb_peer_t *p;
    int due = 0, i;

    for (p = e->active; p; p = p->anext) {
        p->peeked = 0;
        due |= p->tx.inflight && now >= p->tx.rto_at;
    }
    if (!due) {
        return;
    }
    for (i = 0; i < e->nrails; i++) {
        if (e->rails[i]->ops->peek) {
            e->rails[i]->ops->peek(e->rails[i], engine_peek_ack_cb, e, HXB_PEEK_MAX);
        }
    }
    for (p = e->active; p; p = p->anext) {
        hxb_peer_timers(p, 1);
        p->peeked = 0;
    }
}

static void engine_check_links(hxb_engine_t *e)
{
    double real_off = hxb_clock_real_offset();
    int i;

    for (i = 0; i < e->nrails; i++) {
        hxb_rail_t *r = e->rails[i];
        int was = r->up;

        r->real_off = real_off;
        if (r->ifname[0]) {       /* a NIC (not a test's in-memory rail) */
            hxb_rail_refresh(r);
        }
        if (was && !r->up) {
            e->stats.rail_failovers++;
        }
    }
}

unsigned hxb_engine_progress(hxb_engine_t *e)
{
    hxb_peer_t *p, **pp;
    unsigned n = 0;
    uint32_t ready = ~0u;
    int i, drained = 1;

    double prev = e->last_pass;
    int was_asleep = e->asleep;

    e->now = e->last_pass = hxb_now();
    if (!was_asleep && prev > 0 && e->now - prev > e->cfg.peer_timeout / 8 &&
        e->now - e->back_at > e->cfg.peer_timeout) {
        /* away, not asleep on the event fd; a grace at most once per peer
         * timeout, or a caller back every few seconds never fails a dead
         * peer */
        e->back_at = e->now;
    }
    e->asleep = 0;
    e->asleep_ready = 0;
    e->pass++;
    e->in_pass = 1;
    hxb_tx_held_restamp(e);
    if (e->defer_head) {
        hxb_core_run_deferred(e);
    }
    if (e->npoll > 1) {
        ready = engine_rails_ready(e);
    }
    for (i = 0; i < e->nrails; i++) {
        int got;

        e->rails[i]->sys_ready = !!(ready & (1u << i));
        got = e->rails[i]->ops->recv(e->rails[i], engine_rx_cb, e, 64);
        n += got;
        drained &= got < 64;
    }
    e->pass_drained = drained;
    if (drained) {
        e->drained_at = e->now;
    }
    if (n) {
        e->now = hxb_now();
    }
    if (e->now >= e->next_link_check) {
        engine_check_links(e);
        e->next_link_check = e->now + 0.1;
        e->now = hxb_now();         /* the links' checks read the kernel */
    }
    for (pp = &e->active; (p = *pp);) {
        /* data going out carries the cumulative ack */
        hxb_ops_progress(p);
        if (hxb_ack_due(p, drained)) {
            hxb_ack_send(p);
        }
        hxb_peer_timers(p, 0);
        if (!hxb_ack_owed_count(p) && hxb_peer_tx_idle(p)) {   /* idle includes GETs */
            p->active = 0;          /* nothing left to do for this peer */
            *pp = p->anext;
        } else {
            pp = &p->anext;
        }
    }
    hxb_core_flush_rails(e);
    e->in_pass = 0;
    /* a long pass is no idle time either: the time after the receive
     * callbacks (where a pass's time goes) and link checks, which the rest
     * of the pass does not move much; not a clock read per pass */
    e->last_pass = e->now;
    if (e->defer_head) {
        hxb_core_run_deferred(e);      /* restarts seen in this pass */
    }
    return n;
}

static void engine_peek_none(void *arg, hxb_rail_t *rail, void *data, size_t size,
                             const hxb_raddr_t *src)
{
}

/* frames wait in a rail: one poll of the rails' descriptors (rails
 * without one, in-memory rails, are asked by a peek) */
static int engine_rails_waiting(hxb_engine_t *e)
{
    struct pollfd pfd[HXB_MAX_RAILS];
    int n = 0, i;

    for (i = 0; i < e->nrails; i++) {
        hxb_rail_t *r = e->rails[i];
        if (r->fd >= 0) {
            pfd[n].fd = r->fd;
            pfd[n++].events = POLLIN;
        } else if (r->ops->peek && r->ops->peek(r, engine_peek_none, NULL, 1) > 0) {
            return 1;
        }
    }
    return n > 0 && poll(pfd, (nfds_t)n, 0) > 0;
}

/* The caller has not progressed for HXB_IDLE_AFTER (it computes): frames
 * posted before leave now, and every peer hears that we are busy, once per
 * quarter of a peer timeout, by an ACK of what we had received
 * (HXB_F_BUSY): one that sends to us meanwhile would fail us after a peer
 * timeout without progress (PROTOCOL.md 8.7). Peers are those we know and
 * those whose frames wait in the rails (peeked, not taken). Nothing is
 * received: what arrives waits in the kernel for the caller's next pass. */
void hxb_engine_idle_tick(hxb_engine_t *e)
{
    double now = hxb_now();
    hxb_peer_t *p;
    unsigned h;
    int i;

    if (e->in_pass || now - e->last_pass < HXB_IDLE_AFTER) {
        return;
    }
    e->now = now;
    if (e->held_since) {
        for (p = e->active; p; p = p->anext) {
            hxb_tx_restamp(p, e->held_since);
        }
        e->held_since = 0;
    }
    /* resends due, also with the caller asleep (its timer would wake it,
     * but UCP arms ifaces it does not wait on): a frame lost just before
     * the caller went away is otherwise resent only when it comes back,
     * and the peer may be waiting for it meanwhile */
    engine_away_timers(e, now);
    hxb_core_flush_rails(e);
    /* Asleep on the event fd, frames wake the caller: not busy. Unless
     * frames wait for two ticks in a row: then it is not asleep there
     * (UCP arms unused ifaces and goes on, an application may wake on
     * another fd and compute). */
    if (e->asleep) {
        if (!engine_rails_waiting(e)) {
            e->asleep_ready = 0;
            return;
        }
        if (++e->asleep_ready < 2) {
            return;
        }
    }
    /* it computes: what it posted before, also what a pass would have
     * pushed (a message kept open for company, operations not yet cut
     * into frames), leaves now; no completion runs from here. Not while
     * it sleeps on the event fd: the deadline it armed would not cover
     * these frames' timers (event_arm's pass left nothing behind). */
    for (p = e->active; p; p = p->anext) {
        hxb_ops_progress(p);
    }
    hxb_core_flush_rails(e);
    e->idle = 1;
    if (now - e->peek_at >= hxb_busy_period(e)) {
        e->peek_at = now;
        for (i = 0; i < e->nrails; i++) {
            if (e->rails[i]->ops->peek) {
                e->rails[i]->ops->peek(e->rails[i], engine_peek_cb, e, HXB_PEEK_MAX);
            }
        }
    }
    for (h = 0; h < HXB_PEER_HASH; h++) {
        for (p = e->hash[h]; p; p = p->hnext) {
            if (!p->failed && now - p->alive_sent >= hxb_busy_period(e)) {
                p->alive_sent = now;
                hxb_ack_send_busy(p);
            }
        }
    }
    e->idle = 0;
}
