/* Sending side of a peer: operations become sequenced frames in the TX
 * window, frames are striped over the rails, acknowledgements release them,
 * and lost frames are retransmitted (per-rail loss detection, RTO). */
#include "hxb_engine_int.h"

#include <stdlib.h>
#include <string.h>

#define W(p)         ((p)->e->cfg.window)
#define SLOT(p, s)   (&(p)->tx[(s) & (W(p) - 1)])

/* an operation waits in one of the queues, not yet cut into frames */
static int ops_queued(const hxb_peer_t *p)
{
    int i;

    for (i = 0; i < HXB_NQ; i++) {
        if (p->q[i].head) {
            return 1;
        }
    }
    return 0;
}

int hxb_peer_tx_idle(const hxb_peer_t *p)
{
    /* a GET is complete only when its data has come */
    return p->tx_una == p->tx_next && !ops_queued(p) && !p->flushes &&
           !p->gets_pending;
}

unsigned hxb_peer_unacked(const hxb_peer_t *p)
{
    return p->tx_next - p->tx_una;
}

static unsigned tx_room(const hxb_peer_t *p)
{
    return W(p) - (p->tx_next - p->tx_una);
}

void hxb_tx_hdr(hxb_peer_t *p, hxb_hdr_t *h, unsigned kind, size_t len)
{
    const hxb_engine_cfg_t *c = &p->e->cfg;

    h->version = HXB_VERSION;
    h->kind = (uint8_t)kind;
    h->flags = p->e->idle ? HXB_F_BUSY : 0;
    h->hops = HXB_HOPS_MAX;
    h->len = (uint16_t)len;
    h->rail = 0;
    h->reserved = 0;
    h->job_key = c->job_key;
    h->src_node = c->node_id;
    h->src_proc = c->proc_id;
    h->dst_node = p->node;
    h->dst_proc = p->proc;
    h->src_epoch = c->epoch;
    h->dst_epoch = p->epoch;
    h->seq = 0;
    h->ack = p->rx_next;
    h->csum = 0;
}

/* Frames rail r may still take to the peer: the rail's in-flight cap (all
 * peers) and the path's congestion window, whichever is closer. */
static double tx_rail_room(const hxb_peer_t *p, int r)
{
    double cap = p->e->rail_cap[r] - p->e->rail_inflight[r];
    double out = p->cwnd[r] - p->rail_out[r];

    return cap < out ? cap : out;
}

/* May a new burst to the peer start? Only once its rails have room for
 * HXB_BURST_MIN frames together (a quarter of their windows, if less). The
 * last frame of a window-limited burst is acked at once; a sender that
 * went whenever a frame's room opened would answer an ack that frees two
 * frames with a burst of two, whose last frame draws the next ack at once:
 * bursts and acks would split down to a few frames each (PROTOCOL.md 8.4).
 * A burst under way goes on while any rail has room. */
static int tx_burst_room(const hxb_peer_t *p)
{
    const hxb_engine_t *e = p->e;
    double room = 0, limit = 0, r_room;
    int r;

    for (r = 0; r < e->nrails; r++) {
        if (!(p->rail_mask & (1u << r)) || !e->rails[r]->up) {
            continue;
        }
        r_room = tx_rail_room(p, r);
        if (r_room > 0) {
            room += r_room;
        }
        limit += e->rail_cap[r] < p->cwnd[r] ? e->rail_cap[r] : p->cwnd[r];
    }
    return room >= HXB_BURST_MIN || (room >= 1 && room >= limit / 4);
}

/* Choose the rail for the next frame: the least loaded (frames in flight
 * per byte/s of speed) among the usable rails that reach the peer and have
 * room. Rails that lost frames recently are used only if nothing else is.
 * `avoid` >= 0 asks for a retransmission's rail: any room will do. */
int hxb_tx_pick_rail(hxb_peer_t *p, int avoid)
{
    hxb_engine_t *e = p->e;
    double best = 1e300, load;
    int r, pick = -1, pass;

    if (avoid < 0 && !p->bursting && !tx_burst_room(p)) {
        return -1;
    }
    for (pass = 0; pass < 2 && pick < 0; pass++) {
        uint32_t mask = p->rail_mask & ~(pass ? 0 : p->suspect_mask);
        for (r = 0; r < e->nrails; r++) {
            if (!(mask & (1u << r)) || !e->rails[r]->up || tx_rail_room(p, r) <= 0) {
                continue;
            }
            load = (e->rail_inflight[r] + 1) / e->rails[r]->speed;
            if (r == avoid) {
                load *= 4; /* prefer another rail for a retransmission */
            }
            if (load < best) {
                best = load;
                pick = r;
            }
        }
    }
    return pick;
}

/* frames in flight, per rail (all peers), per path and per peer */
static void inflight_add(hxb_peer_t *p, int r)
{
    p->e->rail_inflight[r]++;
    p->rail_out[r]++;
    p->tx_inflight++;
}

/* a frame sent on rail r left flight (acked, resent elsewhere, released) */
static void inflight_sub(hxb_peer_t *p, int r)
{
    p->e->rail_inflight[r]--;
    p->rail_out[r]--;
    p->tx_inflight--;
}

/* Will the windows let another frame follow the frame `seq` about to
 * leave on rail r, without waiting for an ack? If not, the receiver must
 * ack that frame at once rather than after its ack delay. */
static int tx_window_open_after(hxb_peer_t *p, uint32_t seq, int r)
{
    int open;

    if (seq + 1 == p->tx_next && tx_room(p) == 0) {
        return 0;               /* no sequence number for the next frame */
    }
    inflight_add(p, r);
    open = hxb_tx_pick_rail(p, -1) >= 0;
    inflight_sub(p, r);
    return open;
}

static void tx_transmit(hxb_peer_t *p, uint32_t seq, hxb_txslot_t *s, int r)
{
    hxb_engine_t *e = p->e;
    hxb_hdr_t *h = (hxb_hdr_t *)s->hb;
    struct iovec iov[3];
    size_t flen;
    int n = 1;

    h->ack = p->rx_next;
    h->rail = (uint8_t)r;
    /* a first transmission with later frames right behind it: their acks
     * cover it. The last of a burst, the last the windows let out before
     * an ack must open them, and every retransmission ask for an ack as
     * soon as the peer's queues drain (PROTOCOL.md 8.4). */
    p->bursting = 1;
    if (s->state == TX_QUEUED && (seq + 1 != p->tx_next || ops_queued(p)) &&
        tx_window_open_after(p, seq, r)) {
        h->flags |= HXB_F_MORE;
    } else {
        p->bursting = 0;      /* the burst ends: the peer acks at once */
        h->flags &= (uint8_t)~HXB_F_MORE;
    }
    iov[0].iov_base = s->hb;
    iov[0].iov_len = s->hb_len;
    if (s->inl_len) {
        iov[n].iov_base = s->inl;
        iov[n++].iov_len = s->inl_len;
    }
    if (s->data_len) {
        iov[n].iov_base = (void *)s->data;
        iov[n++].iov_len = s->data_len;
    }
    flen = s->hb_len + s->inl_len + s->data_len;
    if (e->cfg.csum == HXB_CSUM_ALL ||
        (e->cfg.csum == HXB_CSUM_CARRIER &&
         !hxb_rail_carrier_csum(e->rails[r], &p->addr[r], flen))) {
        /* the sum covers the extension (in hb after the header) and data */
        struct iovec civ[3];
        civ[0].iov_base = h + 1;
        civ[0].iov_len = s->hb_len - sizeof(*h);
        memcpy(civ + 1, iov + 1, (n - 1) * sizeof(*iov));
        h->flags |= HXB_F_CSUM;
        h->csum = hxb_frame_csum(h, civ, n);
    } else {
        h->flags &= (uint8_t)~HXB_F_CSUM;  /* a resend may take another path */
        h->csum = 0;
    }
    e->rails[r]->ops->send(e->rails[r], &p->addr[r], iov, n);
    if (s->state == TX_INFLIGHT) {
        inflight_sub(p, s->rail);      /* a retransmission moves the frame */
    }
    s->state = TX_INFLIGHT;
    s->rail = (uint8_t)r;
    s->lane = (uint8_t)hxb_rail_lane(e->rails[r], r, &p->addr[r], flen);
    s->rail_ctr = ++p->rail_ctr[s->lane];
    s->sent_at = e->now;
    inflight_add(p, r);
    /* it may be due before the RTO check planned when the others left
     * (none in flight then, or the RTO has shrunk since) */
    if (e->now + p->rto < p->next_rto_check) {
        p->next_rto_check = e->now + p->rto;
    }
    e->stats.tx_frames++;
    /* the cumulative ack rode along: a separate ACK is needed only while
     * frames beyond a hole wait to be acknowledged selectively */
    if (p->rx_hi == p->rx_next) {
        p->rx_unacked = 0;
    }
}

static void tx_retransmit(hxb_peer_t *p, uint32_t seq, hxb_txslot_t *s)
{
    int r = hxb_tx_pick_rail(p, s->rail);

    if (r < 0) {
        /* every rail is full: send on the old one anyway, losses must heal */
        r = s->rail;
        if (!(p->rail_mask & (1u << r))) {
            return;
        }
    }
    if (s->retx < 255) {
        s->retx++;
    }
    p->e->stats.retransmits++;
    p->cc_retx++;
    tx_transmit(p, seq, s, r);
}

static hxb_txslot_t *slot_new(hxb_peer_t *p, unsigned kind, unsigned flags,
                              const void *ext, size_t ext_len, size_t payload)
{
    hxb_txslot_t *s = SLOT(p, p->tx_next);
    hxb_hdr_t *h = (hxb_hdr_t *)s->hb;

    if (p->tx_next == p->tx_una) {
        /* work after an idle spell: the peer timeout counts from now, not
         * from the last ack of long ago (e->now may be stale here) */
        p->last_ack_progress = hxb_now();
    }
    p->bundle_open = 0;       /* a newer frame: the last one is final */
    hxb_tx_hdr(p, h, kind, ext_len + payload);
    h->flags = (uint8_t)(flags | HXB_F_SEQ);
    h->seq = p->tx_next++;
    memcpy(h + 1, ext, ext_len);
    s->hb_len = (uint8_t)(sizeof(*h) + ext_len);
    s->state = TX_QUEUED;
    s->retx = 0;
    s->err = 0;
    s->last = !!(flags & HXB_F_AM_LAST);
    s->inl_len = 0;
    s->data = NULL;
    s->data_len = 0;
    s->buf = NULL;
    s->comp = NULL;
    s->owner = NULL;
    s->user = 0;
    s->opid = ++p->e->op_serial;   /* its own operation, unless told */
    return s;
}

/* The queue to cut the next frame from: the queues take turns frame by
 * frame, so bulk data one way stalls neither the other side's reads nor
 * our own AMs. ob1's and UCP's rendezvous replies and FINs are AMs: behind
 * a 3 MiB PUT they held up the peer's transfer (one message each way at
 * once ran at 54-62 %). A flush waits at the head of ours until the PUTs
 * posted before it are cut (numbered), so the sequence it waits for
 * covers them. */
static hxb_opq_t *tx_next_queue(hxb_peer_t *p)
{
    unsigned i, k;

    for (i = 0; i < HXB_NQ; i++) {
        hxb_op_t *head;
        k = (p->fill_turn + i) % HXB_NQ;
        head = p->q[k].head;
        if (!head || (head->kind == OP_FLUSH &&
                      (int32_t)(p->puts_framed - head->put_mark) < 0)) {
            continue;
        }
        p->fill_turn = k + 1;
        return &p->q[k];
    }
    return NULL;
}

/* where the op's next frame takes its data (refusals and empty ops have
 * none: no offset is added to NULL) */
static const uint8_t *op_cursor(const hxb_op_t *op)
{
    return op->data ? op->data + op->off : NULL;
}

/* cut the queued operations into frames while the window has room */
static void tx_fill(hxb_peer_t *p)
{
    hxb_engine_t *e = p->e;
    size_t frag = e->frag, chunk;
    hxb_txslot_t *s;
    hxb_opq_t *q;
    hxb_op_t *op;

    /* Number only a few frames beyond those the rails have taken: frames
     * leave in sequence order, so a request numbered behind a window's
     * worth of queued bulk frames (a GET_REQ behind our GET_RESPs) would
     * wait for all of them - and the peer's data for that request with
     * it, which halved GET traffic both ways at once. */
    while (tx_room(p) > 0 && p->tx_next - p->tx_push < HXB_TX_AHEAD &&
           (q = tx_next_queue(p))) {
        op = q->head;
        switch (op->kind) {
        case OP_AM_ZC: {
            hxb_am_ext_t ext = {.am_id = (uint8_t)op->am_id,
                                .total = (uint32_t)(op->hdr_len + op->len)};
            unsigned fl = 0;
            size_t inl = 0;
            if (op->off == 0 && !(op->status & 1)) {
                fl |= HXB_F_AM_FIRST;
                inl = op->hdr_len;
                op->status |= 1;       /* header sent */
            }
            chunk = op->len - op->off;
            if (chunk > frag - inl) {
                chunk = frag - inl;
            }
            if (op->off + chunk == op->len) {
                fl |= HXB_F_AM_LAST;
            }
            s = slot_new(p, HXB_K_AM, fl, &ext, sizeof(ext), inl + chunk);
            memcpy(s->inl, op->hdr, inl);
            s->inl_len = (uint16_t)inl;
            s->data = op_cursor(op);
            s->data_len = (uint32_t)chunk;
            s->owner = op->owner;
            s->user = 1;
            break;
        }
        case OP_PUT: {
            hxb_put_ext_t ext = {.addr = op->raddr + op->off, .rkey = op->rkey};
            chunk = op->len - op->off < frag ? op->len - op->off : frag;
            /* a put of one frame is placed in order (ucx_perftest's put_bw
             * waits for a sentinel every put overwrites); bulk puts land on
             * arrival, striped, without holding buffers */
            s = slot_new(p, HXB_K_PUT, op->len <= frag ? HXB_F_ORDERED : 0, &ext,
                         sizeof(ext), chunk);
            s->data = op_cursor(op);
            s->data_len = (uint32_t)chunk;
            s->owner = op->owner;
            s->user = 1;
            break;
        }
        case OP_GET_REQ: {
            hxb_get_req_ext_t ext = {.addr = op->raddr, .rkey = op->rkey,
                                     .length = (uint32_t)op->len,
                                     .get_id = op->get_id};
            chunk = op->len;           /* the request carries no data */
            s = slot_new(p, HXB_K_GET_REQ, 0, &ext, sizeof(ext), 0);
            break;
        }
        case OP_GET_RESP: {
            hxb_get_resp_ext_t ext = {.get_id = op->get_id,
                                      .offset = (uint32_t)op->off,
                                      .status = op->status};
            chunk = op->len - op->off < frag ? op->len - op->off : frag;
            s = slot_new(p, HXB_K_GET_RESP, 0, &ext, sizeof(ext), chunk);
            if (op->hdr_len) {         /* an atomic's old value: kept here */
                memcpy(s->inl, op->hdr, chunk);
                s->inl_len = (uint16_t)chunk;
            } else {
                s->data = op_cursor(op);
                s->data_len = (uint32_t)chunk;
                s->region = op->rkey;
            }
            p->resp_end = p->tx_next;
            break;
        }
        case OP_FLUSH: {
            hxb_flushreq_t *f = malloc(sizeof(*f));
            if (!f) {
                return;
            }
            f->seq = p->tx_next;
            f->comp = op->comp;
            f->owner = op->owner;
            f->next = p->flushes;
            p->flushes = f;
            chunk = op->len;           /* zero: pops below */
            s = NULL;
            break;
        }
        case OP_NOP:
            chunk = 0;
            s = slot_new(p, HXB_K_NOP, 0, NULL, 0, 0);
            break;
        default:
            return;
        }
        if (s) {
            s->opid = op->opid;
        }
        op->off += chunk;
        if (op->off >= op->len) {
            if (s) {
                s->comp = op->comp;
                s->last = 1;
                if (op->err) {         /* an earlier frame was refused */
                    if (s->comp) {
                        s->err = op->err;
                    } else if (!p->err_pending) {
                        p->err_pending = op->err;
                    }
                }
            }
            q->head = op->next;
            if (!q->head) {
                q->tail = NULL;
            }
            if (q != &p->q[HXB_Q_RESP]) {
                p->nops--;
            }
            if (q == &p->q[HXB_Q_PUTS]) {
                p->puts_framed++;
            }
            op->next = e->free_ops;
            e->free_ops = op;
        }
    }
}

void hxb_tx_progress(hxb_peer_t *p)
{
    hxb_txslot_t *s;
    int r;

    if (p->failed) {
        return;
    }
    p->bundle_open = 0;       /* pushed frames are final */
    for (;;) {
        tx_fill(p);
        if (p->tx_push == p->tx_next) {
            break;      /* nothing (more) to send */
        }
        while (p->tx_push != p->tx_next) {
            r = hxb_tx_pick_rail(p, -1);
            if (r < 0) {
                return; /* flow control: every rail is full or down */
            }
            s = SLOT(p, p->tx_push);
            tx_transmit(p, p->tx_push, s, r);
            p->tx_push++;
        }
    }
}

static void complete(hxb_engine_t *e, void *comp, int status)
{
    if (comp && e->deferring) {
        hxb_engine_defer(e, comp, status, NULL);
    } else if (comp && e->cb.complete) {
        e->cb.complete(e->cb.arg, comp, status);
    }
}

static void slot_release(hxb_peer_t *p, hxb_txslot_t *s, int status)
{
    hxb_engine_t *e = p->e;

    if (s->state == TX_INFLIGHT) {
        inflight_sub(p, s->rail);
    }
    if (s->buf) {
        hxb_pool_put(&e->bpool, s->buf);
        s->buf = NULL;
    }
    s->state = TX_FREE;
    if (s->comp) {
        void *c = s->comp;
        s->comp = NULL;
        complete(e, c, s->err ? (int)s->err : status);
    }
}

/* RFC 6298 smoothing: gains 1/8 for the mean, 1/4 for the deviation */
static void rtt_smooth(double *srtt, double *rttvar, double rtt)
{
    double d;

    if (*srtt == 0) {
        *srtt = rtt;
        *rttvar = rtt / 2;
        return;
    }
    d = rtt > *srtt ? rtt - *srtt : *srtt - rtt;
    *rttvar = 0.75 * *rttvar + 0.25 * d;
    *srtt = 0.875 * *srtt + 0.125 * rtt;
}

static void rtt_sample(hxb_peer_t *p, double rtt)
{
    const hxb_engine_cfg_t *c = &p->e->cfg;

    if (p->min_rtt == 0 || rtt < p->min_rtt) {
        p->min_rtt = rtt;
    }
    rtt_smooth(&p->srtt, &p->rttvar, rtt);
    p->rto = p->srtt + 4 * p->rttvar;
    if (p->rto < c->rto_min) p->rto = c->rto_min;
    if (p->rto > c->rto_max) p->rto = c->rto_max;
}

static void rail_acked(hxb_peer_t *p, hxb_txslot_t *s)
{
    /* Only a frame sent once tells which transmission arrived: an ack of a
     * retransmitted frame may be for the original, on another rail, and
     * would make frames still in flight on the new rail look lost. */
    if (s->state != TX_INFLIGHT || s->retx != 0) {
        return;
    }
    /* each rail has its own queue: its own round trip, for RACK */
    rtt_smooth(&p->rail_srtt[s->rail], &p->rail_rttvar[s->rail],
               p->e->now - s->sent_at);
    p->rail_losses[s->rail] = 0;
    p->rail_last_ack[s->rail] = p->e->now;
    hxb_engine_rail_acked(p->e, s->rail);
    if (p->cc_ss & (1u << s->rail)) {
        p->cwnd[s->rail] += 1;
        if (p->cwnd[s->rail] > p->e->cfg.rail_inflight) p->cwnd[s->rail] = p->e->cfg.rail_inflight;
    } else if (!(p->cc_over & (1u << s->rail))) {
        p->cwnd[s->rail] = hxb_win_grown(p->cwnd[s->rail], p->e->cfg.rail_inflight);
    }
    if (hxb_seq_lt(p->rail_hi[s->lane], s->rail_ctr)) {
        p->rail_hi[s->lane] = s->rail_ctr;
        p->rail_hi_sent[s->lane] = s->sent_at;
    }
    p->suspect_mask &= ~(1u << s->rail);
}

/* Loss-based control alone fills a path's queues until they overflow:
 * shallow switch ports (a few ms) then drop runs of frames whenever two
 * or three senders meet, and every control message (a rendezvous
 * handshake) waits behind the queue. So, like Swift (Kumar et al.,
 * SIGCOMM 2020) and TCP Vegas, the window also follows the queueing delay.
 * rtt is a path round trip of a frame sent on rail r: from its send to
 * when the ACK naming it (hold_seq) would have arrived had the peer
 * answered at once, i.e. less the time the frame and the ACK spent in the
 * two hosts (kernel receive times at both ends): a receiver or sender off
 * the CPU is not a queue on the path (Swift's split of fabric and endpoint
 * delay). The least rtt of a period (a round trip, by sequence) above the
 * path's base by more than the target is a standing queue, and the window
 * shrinks by the excess share. */
static void tx_cc_delay(hxb_peer_t *p, int r, double sent_at, double rtt)
{
    hxb_engine_t *e = p->e;
    double target = e->cfg.cc_target, q, f;

    /* frames sent before the last cut queued behind the old window */
    if (target <= 0 || sent_at < p->cc_dcut[r]) {
        return;
    }
    e->stats.cc_delay_samples++;
    if (e->now >= p->cc_base_renew) {
        memcpy(p->cc_base, p->cc_base_next, sizeof(p->cc_base));
        memset(p->cc_base_next, 0, sizeof(p->cc_base_next));
        p->cc_base_renew = e->now + HXB_CC_BASE_SPAN;
    }
    if (p->cc_base[r] == 0 || rtt < p->cc_base[r]) p->cc_base[r] = rtt;
    if (p->cc_base_next[r] == 0 || rtt < p->cc_base_next[r]) p->cc_base_next[r] = rtt;
    if (p->cc_pmin[r] == 0) {
        /* A period opens with a sample and closes with the first sample of
         * a frame sent after it opened: a round trip. After a stall (a
         * receiver or sender off the CPU) every ack of the frames sent
         * before it is late, several ACKs' worth; they fall in one period
         * with the first frame sent after the stall, which is not late. */
        p->cc_pmin[r] = rtt;
        p->cc_popen[r] = e->now;
        return;
    }
    if (rtt < p->cc_pmin[r]) p->cc_pmin[r] = rtt;
    if (sent_at < p->cc_popen[r]) {
        return;
    }
    q = p->cc_pmin[r] - p->cc_base[r];
    if (q > target / 2) {
        p->cc_ss &= ~(1u << r);
    }
    if (q > target) {
        /* not below HXB_CC_WIN_MIN: a host whose cores are saturated
         * (8 rails of 1 Gbit/s here) delays frames where hold times do not
         * see it too (in the kernel before the receive stamp), and a
         * window of a few frames idles fast rails; a full queue still
         * halves it below that (losses) */
        f = 1 - HXB_CC_BETA * (q - target) / p->cc_pmin[r];
        f = p->cwnd[r] * (f < 0.5 ? 0.5 : f);
        if (f < HXB_CC_WIN_MIN) f = HXB_CC_WIN_MIN;
        if (f < p->cwnd[r]) p->cwnd[r] = f;
        p->cc_over |= 1u << r;
        p->cc_dcut[r] = e->now;
        e->stats.cc_delay_cuts++;
    } else {
        p->cc_over &= ~(1u << r);
    }
    p->cc_pmin[r] = 0;
}

/* Frame s, sent on its rail towards p, was found lost. Scattered losses
 * are taken for noise (corrupt frames, a descheduled peer's ring): random
 * loss must not throttle a path. HXB_CWND_LOSSES losses found within one
 * round trip are a full queue on the path, which drops frames in runs:
 * halve the path's window, once per round trip (losses of frames sent
 * before the halving are part of the same event). */
static void tx_path_loss(hxb_peer_t *p, const hxb_txslot_t *s)
{
    hxb_engine_t *e = p->e;
    int r = s->rail;

    if (s->sent_at < p->cc_cut[r]) {
        return;
    }
    if (e->now - p->cc_first[r] > p->srtt) {
        p->cc_first[r] = e->now;
        p->cc_losses[r] = 0;
    }
    if (++p->cc_losses[r] < HXB_CWND_LOSSES) {
        return;
    }
    if (e->now >= p->cc_episode_end) {
        /* a new episode: its retransmissions so far are this event's */
        memset(p->cc_prior, 0, sizeof(p->cc_prior));
        p->cc_retx = HXB_CWND_LOSSES - 1;
        p->cc_dups = 0;
    }
    /* a duplicate is reported a round trip after its retransmission, a
     * scheduler time slice later if the peer is descheduled */
    p->cc_episode_end = e->now + (4 * p->rto > HXB_CWND_UNDO_SPAN ?
                                  4 * p->rto : HXB_CWND_UNDO_SPAN);
    if (p->cc_prior[r] == 0) {
        p->cc_prior[r] = p->cwnd[r];
    }
    p->cwnd[r] = hxb_win_halved(p->cwnd[r], HXB_CWND_MIN);
    p->cc_ss &= ~(1u << r);
    p->cc_cut[r] = e->now;
    p->cc_losses[r] = 0;
    e->stats.cwnd_cuts++;
}

/* Every retransmission of the open episode came back as a duplicate: the
 * cuts were for late frames, not lost ones (like TCP's DSACK undo) */
static void tx_path_undo(hxb_peer_t *p)
{
    int r;

    if (p->e->now >= p->cc_episode_end || p->cc_dups < p->cc_retx) {
        return;
    }
    for (r = 0; r < p->e->nrails; r++) {
        if (p->cc_prior[r] > p->cwnd[r]) {
            p->cwnd[r] = p->cc_prior[r];
        }
        p->cc_prior[r] = 0;
    }
    p->cc_episode_end = 0;
    p->e->stats.cwnd_undos++;
}

/* Stop preferring rail r for this peer and probe it at once; a PONG
 * restores it (hxb_rx.c), so a rail suspected wrongly is back after one
 * round trip. The frames in flight on it stay: RACK finds each one lost
 * when it is due. Moving them all at once doubled a deep queue's worth of
 * frames whenever a rail was merely slow, and the duplicates slowed the
 * other rails into suspicion in turn. */
static void tx_suspect_rail(hxb_peer_t *p, int r)
{
    hxb_engine_t *e = p->e;

    p->suspect_mask |= 1u << r;
    p->suspect_since[r] = e->now - e->cfg.probe_interval;
    e->stats.rail_failovers++;
}

/* The peer received n duplicates: retransmissions were spurious, frames
 * were late, not lost. Widen the reordering window (RFC 8985's DSACK
 * rule); it shrinks back over time (tx_reo_window). */
void hxb_tx_spurious(hxb_peer_t *p, unsigned n)
{
    p->e->stats.spurious += n;
    p->cc_dups += n;
    tx_path_undo(p);
    if (p->reo_mult < 64) {
        p->reo_mult = p->reo_mult ? p->reo_mult * 2 : 2;
    }
    p->reo_decay_at = p->e->now + HXB_REO_DECAY;
}

/* what a frame on rail r usually takes to be acked: that rail's own
 * smoothed round trip and four deviations (rails queue differently) */
static double rail_rtt_bound(const hxb_peer_t *p, int r)
{
    return p->rail_srtt[r] + 4 * p->rail_rttvar[r];
}

/* how late a frame may be, beyond its round trip, before it counts lost */
static double tx_reo_window(hxb_peer_t *p)
{
    double reo = p->srtt / 8, cap = p->srtt + 4 * p->rttvar;

    if (reo < 100e-6) {
        reo = 100e-6;
    }
    if (p->reo_mult > 1) {
        if (p->e->now >= p->reo_decay_at) {
            p->reo_mult /= 2;
            p->reo_decay_at = p->e->now + HXB_REO_DECAY;
        }
        reo *= p->reo_mult;
        if (reo > cap && cap > 100e-6) {
            reo = cap;
        }
    }
    return reo;
}

/* Loss detection without timeouts, two rules:
 * - per lane: a rail's queue keeps order, so a frame sent before an acked
 *   frame in the same lane (rail and queue: a dual rail's raw and UDP
 *   frames are two lanes, read from two sockets), and not acked itself, was
 *   lost;
 * - across rails (RACK, RFC 8985): a frame sent before the latest-sent
 *   acked frame, on any rail, is lost once it is overdue by that frame's
 *   round trip plus a reordering window. This repairs the last frames of a
 *   rail (no later frame on it to expose them) while other rails carry
 *   traffic, which is the common case when one message is striped.
 * A rail that loses this way and has acknowledged nothing since the lost
 * frame left is suspect (as after two RTOs). */
static void tx_detect_losses(hxb_peer_t *p)
{
    hxb_engine_t *e = p->e;
    double now = e->now, next = 0, reo, due, span, horizon;
    uint32_t seq;
    int lane;

    reo = tx_reo_window(p);
    /* Both rules need a frame sent before an acked one, at `horizon` at the
     * latest. Frames are first sent in sequence order, so the first one
     * sent only once and after the horizon ends the scan: all later ones,
     * retransmitted or not, left later still. Per ack, this scans the
     * frames acks are about, not the whole window. */
    horizon = p->rack_sent;
    for (lane = 0; lane < e->nrails * HXB_RAIL_LANES; lane++) {
        if (p->rail_hi_sent[lane] > horizon) {
            horizon = p->rail_hi_sent[lane];
        }
    }
    for (seq = p->tx_una; seq != p->tx_push; seq++) {
        hxb_txslot_t *s = SLOT(p, seq);
        if (s->retx == 0 && s->sent_at > horizon) {
            break;
        }
        if (s->state != TX_INFLIGHT) {
            continue;
        }
        if (hxb_seq_lt(s->rail_ctr, p->rail_hi[s->lane])) {
            e->stats.fast_retx++;
            tx_path_loss(p, s);
            tx_retransmit(p, seq, s);
            continue;
        }
        if (s->sent_at >= p->rack_sent) {
            continue;
        }
        /* overdue by the later frame's round trip and by what this
         * frame's own rail usually takes (rails queue differently) */
        span = rail_rtt_bound(p, s->rail);
        if (span < p->rack_rtt) {
            span = p->rack_rtt;
        }
        due = s->sent_at + span + reo;
        if (now < due) {
            if (!next || due < next) {
                next = due;
            }
            continue;
        }
        e->stats.rack_retx++;
        if (++p->rail_losses[s->rail] >= 4 &&
            p->rail_last_ack[s->rail] < s->sent_at &&
            !(p->suspect_mask & (1u << s->rail))) {
            /* several frames lost on this rail and nothing came back on it
             * since they left, while later frames on other rails did */
            tx_suspect_rail(p, s->rail);
        }
        tx_path_loss(p, s);
        tx_retransmit(p, seq, s);
    }
    p->rack_check_at = next;
}

/* RACK's reference: the latest-sent frame known delivered. A retransmitted
 * frame counts too (else a lost retransmission could only be found by the
 * RTO), unless its ack came sooner than any round trip could: then the ack
 * is for the earlier transmission. */
static void rack_update(hxb_peer_t *p, const hxb_txslot_t *s)
{
    double rtt = p->e->now - s->sent_at;

    if (!p->e->cfg.rack || s->state != TX_INFLIGHT || s->sent_at <= p->rack_sent ||
        (s->retx && rtt < p->min_rtt)) {
        return;
    }
    p->rack_sent = s->sent_at;
    p->rack_rtt = rtt;
}

/* What an acknowledged frame tells of round trips (Karn: a first
 * transmission only): the freshest send time of the ACK, and the send of
 * the frame its hold names */
static void ack_times(const hxb_txslot_t *s, uint32_t seq, uint32_t hold_seq,
                      double *newest, double *hold_sent, int *hold_rail)
{
    if (s->state != TX_INFLIGHT || s->retx != 0) {
        return;
    }
    if (s->sent_at > *newest) {
        *newest = s->sent_at;
    }
    if (seq == hold_seq) {
        *hold_sent = s->sent_at;
        *hold_rail = s->rail;
    }
}

void hxb_tx_ack_rcvd(hxb_peer_t *p, uint32_t cum, const void *bits,
                     unsigned nbits, uint32_t hold_seq, double hold_at)
{
    hxb_engine_t *e = p->e;
    double now = e->now, newest = 0, cc_sent = 0;
    uint32_t seq, base;
    uint64_t word = 0;
    unsigned i;
    int lost_check = 0, cc_rail = 0;

    /* an ack for frames never sent is corrupt or forged: ignore it */
    if (hxb_seq_lt(p->tx_push, cum)) {
        return;
    }
    /* ACKs ride on different rails and may arrive out of order: an older
     * one still carries valid selective bits, relative to its own cum */
    base = cum;
    if (hxb_seq_lt(cum, p->tx_una)) {
        cum = p->tx_una;
    }
    if (cum != p->tx_una) {
        /* released slots get reused: no queued frame may still point at one */
        hxb_engine_flush_rails(e);
    }
    for (seq = p->tx_una; seq != cum; seq++) {
        hxb_txslot_t *s = SLOT(p, seq);
        ack_times(s, seq, hold_seq, &newest, &cc_sent, &cc_rail);
        rack_update(p, s);
        rail_acked(p, s);
        slot_release(p, s, 0);
        lost_check = 1;
    }
    if (cum != p->tx_una) {
        p->tx_una = cum;
        p->last_ack_progress = now;
    }
    for (i = 0; i < nbits; i++) {
        if (i % 64 == 0) {      /* the bitmap sits at offset 60 in the frame */
            memcpy(&word, (const char *)bits + i / 8, sizeof(word));
        }
        if (!(word & (1ull << (i % 64)))) {
            continue;
        }
        seq = base + 1 + i;
        if (!hxb_seq_lt(seq, p->tx_push)) {
            break;
        }
        if (hxb_seq_lt(seq, p->tx_una)) {
            continue;
        }
        hxb_txslot_t *s = SLOT(p, seq);
        if (s->state == TX_INFLIGHT) {
            ack_times(s, seq, hold_seq, &newest, &cc_sent, &cc_rail);
            rack_update(p, s);
            rail_acked(p, s);
            inflight_sub(p, s->rail);
            s->state = TX_SACKED;
            lost_check = 1;
        }
    }
    if (newest > 0) {
        rtt_sample(p, now - newest);  /* one sample per ACK: the freshest */
    }
    /* hold_at 0: no hold (piggybacked); a sample must be positive (0 means
     * "unset" in tx_cc_delay) */
    if (cc_sent > 0 && hold_at > cc_sent) {
        tx_cc_delay(p, cc_rail, cc_sent, hold_at - cc_sent);
    }
    if (lost_check) {
        tx_detect_losses(p);
    }
    hxb_tx_flush_check(p);
}

/* A flush completes when everything sent before it is acknowledged and no
 * GET is waiting for data. GETs are not ordered against the flush, so a GET
 * issued after it also holds it back: conservative, never early. */
void hxb_tx_flush_check(hxb_peer_t *p)
{
    hxb_flushreq_t **fp, *f;

    if (p->gets_pending) {
        return;
    }
    for (fp = &p->flushes; (f = *fp);) {
        if (hxb_seq_le(f->seq, p->tx_una)) {
            *fp = f->next;
            complete(p->e, f->comp, (int)p->err_pending);
            p->err_pending = 0;
            free(f);
        } else {
            fp = &f->next;
        }
    }
}

void hxb_tx_err_rcvd(hxb_peer_t *p, uint32_t seq, uint32_t status)
{
    uint32_t s;

    if (!hxb_seq_le(p->tx_una, seq) || !hxb_seq_lt(seq, p->tx_push)) {
        return;
    }
    /* mark the operation's last frame (the one holding its completion);
     * an operation without completion (put_short, put_bcopy, posted
     * atomics) reports through the next flush, never through another
     * operation: frames of others may sit between its own (frames by
     * copy are numbered at once, beside a zero-copy op being cut) */
    uint32_t id = SLOT(p, seq)->opid;
    hxb_op_t *op;
    int i;

    for (s = seq; s != p->tx_next; s++) {
        hxb_txslot_t *t = SLOT(p, s);
        if (t->opid == id && t->last) {
            if (t->comp) {
                t->err = (uint8_t)status;
            } else if (!p->err_pending) {
                p->err_pending = status;
            }
            return;
        }
    }
    /* its last frame is not cut yet: the operation is still queued */
    for (i = 0; i < HXB_NQ; i++) {
        for (op = p->q[i].head; op; op = op->next) {
            if (op->opid == id) {
                op->err = (uint8_t)status;
                return;
            }
        }
    }
}

static void peer_fail(hxb_peer_t *p)
{
    hxb_engine_t *e = p->e;

    p->failed = 1;
    e->stats.peers_failed++;
    hxb_tx_fail_all(p, HXB_E_PEER);
    if (e->cb.peer_failed) {
        e->cb.peer_failed(e->cb.arg, p);
    }
}

/* Rail r acknowledged nothing since `since` while another rail did: the
 * rail, not the peer, is the problem. When every rail is silent the peer
 * (descheduled, its queues deep) is, and moving frames would only add
 * duplicates to its backlog. */
static int rail_silent_alone(const hxb_peer_t *p, int r, double since)
{
    int q;

    if (p->rail_last_ack[r] >= since) {
        return 0;
    }
    for (q = 0; q < p->e->nrails; q++) {
        if (q != r && (p->rail_mask & (1u << q)) && p->rail_last_ack[q] > since) {
            return 1;
        }
    }
    return 0;
}

void hxb_tx_timers(hxb_peer_t *p)
{
    hxb_engine_t *e = p->e;
    double now = e->now;
    uint32_t seq;
    int r;

    if (p->failed) {
        return;
    }
    /* outstanding: frames not acked (sent or not: with every rail down
     * nothing leaves) or reads whose data has not all come */
    if ((p->tx_una != p->tx_next || p->gets_pending) &&
        now - hxb_peer_alive_at(p) > e->cfg.peer_timeout) {
        peer_fail(p);       /* silent: neither acks nor "busy" (8.7) */
        return;
    }
    if (p->rack_check_at && now >= p->rack_check_at) {
        tx_detect_losses(p);
    }
    /* RTO, checked when the first frame in flight can be due, at most every
     * rto_min/2 (a sleeping sender wakes for nothing else). Like TCP, a timeout resends
     * only the oldest frame: if it was merely late (a descheduled peer,
     * a deep queue) little is wasted, and if frames were really lost the
     * ack of the resent one lets per-rail loss detection find the rest.
     * Only when the frame's rail has acknowledged nothing for two timeouts
     * is the rail suspect, and then everything in flight on it moves. */
    if (now >= p->next_rto_check && p->tx_inflight && hxb_peer_busy(p, now)) {
        /* what it has not read waits in its host: resending, or suspecting
         * rails, would only fill its queues (8.7) */
        p->next_rto_check = p->busy_at + e->cfg.peer_timeout / 2;
    } else if (now >= p->next_rto_check && p->tx_inflight) {
        hxb_txslot_t *old = NULL;
        uint32_t old_seq = 0;

        double rto[HXB_MAX_RAILS];

        /* a frame times out by its own rail's round trip too: the peer's
         * estimate follows the freshest frames, which found short queues */
        for (r = 0; r < e->nrails; r++) {
            rto[r] = rail_rtt_bound(p, r);
            if (rto[r] < p->rto) {
                rto[r] = p->rto;
            }
        }
        double first = 0;       /* the earliest deadline not yet due */
        unsigned due = 0;

        for (seq = p->tx_una; seq != p->tx_push; seq++) {
            hxb_txslot_t *s = SLOT(p, seq);
            if (s->state != TX_INFLIGHT) {
                continue;
            }
            if (now - s->sent_at < rto[s->rail]) {
                first = hxb_wake_min(first, s->sent_at + rto[s->rail]);
                continue;
            }
            due++;
            if (!old || s->sent_at < old->sent_at) {
                old = s;
                old_seq = seq;
            }
        }
        if (due > 1) {
            first = now;            /* the others at the next check */
        }
        if (old) {
            r = old->rail;
            e->stats.rto_fired++;
            if (rail_silent_alone(p, r, old->sent_at) &&
                !(p->suspect_mask & (1u << r))) {
                tx_suspect_rail(p, r);
            }
            tx_retransmit(p, old_seq, old);
            p->rto *= 2;
            if (p->rto > e->cfg.rto_max) {
                p->rto = e->cfg.rto_max;
            }
            first = hxb_wake_min(first, now + p->rto);
        }
        if (!first || first < now + e->cfg.rto_min / 2) {
            first = now + e->cfg.rto_min / 2;
        }
        p->next_rto_check = first;
    }
    /* probe suspect rails; a PONG clears them (hxb_rx.c) */
    for (r = 0; r < e->nrails; r++) {
        if ((p->suspect_mask & (1u << r)) &&
            now - p->suspect_since[r] >= e->cfg.probe_interval) {
            hxb_ping_ext_t ping = {.stamp = 0, .rail = (uint8_t)r};
            memcpy(&ping.stamp, &now, sizeof(now));
            p->suspect_since[r] = now;
            hxb_tx_send_unseq(p, r, HXB_K_PING, &ping, sizeof(ping));
        }
    }
}

/* A frame of the peer said whether it is busy (8.7): alive but not
 * reading, so its silence is no loss. A busy frame acking less than we
 * know it has (a late one) says nothing; any other frame ends the busy
 * spell, and the RTO check put off meanwhile comes back. */
void hxb_tx_peer_busy(hxb_peer_t *p, int busy, uint32_t ack)
{
    hxb_engine_t *e = p->e;

    if (busy) {
        e->stats.busy_rcvd++;
        if (ack == p->tx_una) {
            p->busy_at = e->now;
            p->busy = 1;
        }
    } else if (p->busy) {
        p->busy = 0;
        if (p->next_rto_check > e->now + p->rto) {
            p->next_rto_check = e->now + p->rto;
        }
    }
}

/* The deadlines hxb_tx_timers works to, for a caller that sleeps until a
 * frame arrives or the first of them: the peer timeout while anything is
 * outstanding, a loss RACK will declare, the next RTO check while frames
 * are in flight, a suspect rail's next probe. Frames queued behind full
 * windows need no timer: only arriving acks open them. */
double hxb_tx_wake_at(const hxb_peer_t *p)
{
    const hxb_engine_cfg_t *c = &p->e->cfg;
    double t = 0;
    int r;

    if (p->failed) {
        return 0;
    }
    if (p->tx_una != p->tx_next || p->gets_pending) {
        t = hxb_peer_alive_at(p) + c->peer_timeout;
    }
    t = hxb_wake_min(t, p->rack_check_at);
    if (p->tx_inflight) {
        t = hxb_wake_min(t, p->next_rto_check);
    }
    for (r = 0; r < p->e->nrails; r++) {
        if (p->suspect_mask & (1u << r)) {
            t = hxb_wake_min(t, p->suspect_since[r] + c->probe_interval);
        }
    }
    return t;
}

void hxb_tx_fail_all(hxb_peer_t *p, int status)
{
    hxb_engine_t *e = p->e;
    hxb_flushreq_t *f;
    hxb_op_t *op;
    uint32_t seq;
    int i;

    for (seq = p->tx_una; seq != p->tx_next; seq++) {
        hxb_txslot_t *s = SLOT(p, seq);
        if (s->state == TX_QUEUED) {
            s->state = TX_FREE;
        }
        s->err = 0;
        slot_release(p, s, status);
    }
    p->tx_una = p->tx_push = p->tx_next;
    /* a GET_RESP op has no completion (complete() skips NULL) */
    for (i = 0; i < HXB_NQ; i++) {
        while ((op = p->q[i].head)) {
            p->q[i].head = op->next;
            complete(e, op->comp, status);
            op->next = e->free_ops;
            e->free_ops = op;
        }
        p->q[i].tail = NULL;
    }
    p->puts_framed = p->puts_posted;
    p->nops = 0;
    while ((f = p->flushes)) {
        p->flushes = f->next;
        complete(e, f->comp, status);
        free(f);
    }
    for (i = 0; i < HXB_MAX_GETS; i++) {
        if (e->gets[i].peer == p) {
            e->gets[i].peer = NULL;
            complete(e, e->gets[i].comp, status);
        }
    }
    p->gets_pending = 0;
}

/* The rail for an ACK or ERR: the least loaded of those the peer's frames
 * came in on since our last ACK, else of the other usable rails, leaving
 * out suspect rails and those our ACKs seem lost on while others remain.
 * Not by load alone: with nothing of ours in flight that was always the
 * first rail, and where the path from it was dead (a relayed peer whose
 * first relay lost its link) the peer never heard from us and failed us. */
int hxb_tx_ctl_rail(hxb_peer_t *p)
{
    hxb_engine_t *e = p->e;
    uint32_t up = 0, good;
    double best = 1e300, load;
    int r, pick = -1;

    for (r = 0; r < e->nrails; r++) {
        up |= (uint32_t)!!e->rails[r]->up << r;
    }
    up &= p->rail_mask;
    if (p->ack_avoid && e->now - p->ack_avoid_at > HXB_ACK_AVOID) {
        p->ack_avoid = 0;
    }
    good = up & ~p->suspect_mask & ~p->ack_avoid;
    if (!good) {
        good = up & ~p->suspect_mask & ~p->ack_rail;   /* move on, at least */
    }
    if (!good) {
        good = up;
    }
    if (good & p->rx_rails) {
        good &= p->rx_rails;
    }
    for (r = 0; r < e->nrails; r++) {
        if (good & (1u << r)) {
            load = (e->rail_inflight[r] + 1) / e->rails[r]->speed;
            if (load < best) {
                best = load;
                pick = r;
            }
        }
    }
    return pick;
}

void hxb_tx_send_unseq(hxb_peer_t *p, int r, unsigned kind, const void *ext,
                       size_t ext_len)
{
    hxb_engine_t *e = p->e;
    uint8_t hb[HXB_HB_MAX + HXB_SACK_BITS / 8];
    hxb_hdr_t *h = (hxb_hdr_t *)hb;
    struct iovec iov;

    if (r < 0 && (r = hxb_tx_ctl_rail(p)) < 0) {
        return;
    }
    if (kind == HXB_K_ACK) {
        p->ack_rail = 1u << r;
        p->rx_rails = 0;
    }
    hxb_tx_hdr(p, h, kind, ext_len);
    h->rail = (uint8_t)r;
    memcpy(h + 1, ext, ext_len);
    iov.iov_base = hb;
    iov.iov_len = sizeof(*h) + ext_len;
    if (e->cfg.csum) {
        struct iovec body = {h + 1, ext_len};
        h->flags |= HXB_F_CSUM;
        h->csum = hxb_frame_csum(h, &body, 1);
    }
    e->rails[r]->ops->send(e->rails[r], &p->addr[r], &iov, 1);
    /* the frame lives on our stack: it must leave before we return */
    e->rails[r]->ops->flush(e->rails[r]);
}

/* ---- operations ---- */

static hxb_op_t *op_new(hxb_peer_t *p, int kind)
{
    hxb_engine_t *e = p->e;
    hxb_op_t *op = e->free_ops;

    if (op) {
        e->free_ops = op->next;
    } else if (!(op = malloc(sizeof(*op)))) {
        return NULL;
    }
    memset(op, 0, offsetof(hxb_op_t, hdr));
    op->kind = kind;
    op->owner = p->owner;
    op->opid = ++e->op_serial;
    return op;
}

static void op_append(hxb_opq_t *q, hxb_op_t *op)
{
    if (q->tail) {
        q->tail->next = op;
    } else {
        q->head = op;
    }
    q->tail = op;
}

/* An operation posted between progress passes is framed now, timed now
 * (not at the last pass, which may be long past), and left in the rails'
 * batches for the next pass to send with whatever it adds: a caller that
 * posts in a progress loop pays one flush per pass, not one per post (a
 * flush per post cost 2-3 points of tag_bw 64 KiB at 8 rails, all of
 * the host's CPU). If the next pass comes late (MPI_Isend, then
 * computation), it times them again when they really leave
 * (hxb_tx_restamp). */
static void tx_kick(hxb_peer_t *p)
{
    hxb_engine_t *e = p->e;

    e->now = hxb_now();
    e->asleep = 0;              /* a post: the caller is up (idle tick) */
    hxb_tx_progress(p);
    if (!e->in_pass && !e->held_since) {
        e->held_since = e->now;
    }
}

/* Frames framed since `since` by posts outside a pass leave only now: time
 * them from now, or the timers of this pass take a computation's gap for
 * their round trip, resend them at once and fail the peer after a gap
 * longer than the peer timeout, all before they left. */
void hxb_tx_restamp(hxb_peer_t *p, double since)
{
    hxb_txslot_t *first = SLOT(p, p->tx_una);
    uint32_t seq;

    if (p->tx_una != p->tx_push && first->state == TX_INFLIGHT &&
        first->sent_at >= since) {
        p->last_ack_progress = p->e->now;   /* nothing older was waiting */
    }
    for (seq = p->tx_una; seq != p->tx_push; seq++) {
        hxb_txslot_t *s = SLOT(p, seq);
        if (s->state == TX_INFLIGHT && s->sent_at >= since) {
            s->sent_at = p->e->now;
        }
    }
}

static void op_enqueue(hxb_peer_t *p, hxb_op_t *op)
{
    hxb_op_t **at;

    op->next = NULL;
    if (op->kind == OP_GET_RESP) {
        op_append(&p->q[HXB_Q_RESP], op);
        hxb_peer_activate(p);
        tx_kick(p);
        return;
    }
    if (op->kind == OP_GET_REQ) {
        /* one frame, unordered against PUTs and AMs (a fence waits at the
         * endpoint): it goes ahead of queued bulk data, after the operation
         * being cut and the reads already ahead */
        at = &p->q[HXB_Q_OPS].head;
        if (*at && ((*at)->off || ((*at)->status & 1))) {
            at = &(*at)->next;
        }
        while (*at && (*at)->kind == OP_GET_REQ) {
            at = &(*at)->next;
        }
        op->next = *at;
        *at = op;
        if (!op->next) {
            p->q[HXB_Q_OPS].tail = op;
        }
    } else if (op->kind == OP_PUT) {
        op_append(&p->q[HXB_Q_PUTS], op);
        p->puts_posted++;
    } else {
        if (op->kind == OP_FLUSH) {
            op->put_mark = p->puts_posted;
        }
        op_append(&p->q[HXB_Q_OPS], op);
    }
    p->nops++;
    hxb_peer_activate(p);
    tx_kick(p);
}

#define HXB_MAX_OPS 256

/* Append a short AM to the newest frame if it is still waiting to be
 * pushed: the rail carries one frame for several messages (message rate
 * of small sends). The first AM's frame becomes a bundle on the second. */
static int am_bundle(hxb_peer_t *p, unsigned am_id, const struct iovec *iov,
                     int iovcnt, size_t len)
{
    hxb_engine_t *e = p->e;
    hxb_txslot_t *s = SLOT(p, p->tx_next - 1);
    hxb_hdr_t *h = (hxb_hdr_t *)s->hb;
    hxb_am_ext_t *ext = (hxb_am_ext_t *)(h + 1);
    hxb_am_rec_t rec = {.am_id = (uint8_t)am_id, .len = (uint16_t)len};
    int bundled = h->flags & HXB_F_AM_BUNDLE;
    size_t need = ext->total + sizeof(rec) + len + (bundled ? 0 : sizeof(rec));
    uint8_t *q;
    int i;

    if (!p->bundle_open || s->state != TX_QUEUED || h->kind != HXB_K_AM ||
        need > e->frag - sizeof(*ext) || need > e->bpool.size) {
        return 0;
    }
    if (!bundled) {
        /* second AM: the first becomes a record in a buffer */
        hxb_am_rec_t first = {.am_id = ext->am_id, .len = (uint16_t)ext->total};
        if (s->buf) {             /* am_bcopy: its data is in the buffer */
            memmove(s->buf->data + sizeof(first), s->buf->data, ext->total);
        } else {                  /* am_short: its data is inline */
            if (!(s->buf = hxb_pool_get(&e->bpool))) {
                return 0;
            }
            memcpy(s->buf->data + sizeof(first), s->inl, s->inl_len);
            s->inl_len = 0;
        }
        memcpy(s->buf->data, &first, sizeof(first));
        s->buf->len = sizeof(first) + ext->total;
        s->data = s->buf->data;
        ext->am_id = 0;
        h->flags |= HXB_F_AM_BUNDLE;
    }
    q = s->buf->data + s->buf->len;
    memcpy(q, &rec, sizeof(rec));
    q += sizeof(rec);
    for (i = 0; i < iovcnt; i++) {
        memcpy(q, iov[i].iov_base, iov[i].iov_len);
        q += iov[i].iov_len;
    }
    s->buf->len += sizeof(rec) + len;
    s->data_len = (uint32_t)s->buf->len;
    ext->total = (uint32_t)s->buf->len;
    h->len = (uint16_t)(sizeof(*ext) + s->buf->len);
    e->stats.am_bundled++;
    return 1;
}

/* A short AM's frame waits for company (a bundle) only when another short
 * AM went to this peer since the last progress pass: a stream of sends.
 * A lone message - a protocol reply, a rendezvous step - is pushed at once,
 * as before bundling: holding those back halved MPI's bidirectional
 * bandwidth (ob1 over btl hxb), for reasons not pinned down. */
static void defer_or_push(hxb_peer_t *p, unsigned *last_pass)
{
    if (*last_pass == p->e->pass) {
        p->bundle_open = 1;   /* pushed by the engine's next pass */
    } else {
        *last_pass = p->e->pass;
        tx_kick(p);
    }
}

static void am_defer_or_push(hxb_peer_t *p)
{
    defer_or_push(p, &p->am_pass);
}

/* puts keep their own pass: a lone put must not make the next lone AM
 * (a rendezvous step) wait for the next pass, nor the other way round */
static void put_defer_or_push(hxb_peer_t *p)
{
    defer_or_push(p, &p->put_pass);
}

/* Append a short put to the newest frame if it is a PUT still waiting to
 * be pushed, as am_bundle does for AMs: small puts (UCP's RMA, OpenSHMEM)
 * cost the host a frame each otherwise, about 4 us here (91 % of it in
 * the kernel): 236k puts/s. The first put's frame becomes a bundle on the
 * second: its extension's addr and rkey move into the first record. */
static int put_bundle(hxb_peer_t *p, const void *data, size_t len, uint64_t raddr,
                      uint64_t rkey)
{
    hxb_engine_t *e = p->e;
    hxb_txslot_t *s = SLOT(p, p->tx_next - 1);
    hxb_hdr_t *h = (hxb_hdr_t *)s->hb;
    hxb_put_ext_t *ext = (hxb_put_ext_t *)(h + 1);
    hxb_put_rec_t rec = {.addr = raddr, .rkey = rkey, .len = (uint16_t)len};
    int bundled = h->flags & HXB_F_AM_BUNDLE;
    size_t have, need;
    uint8_t *q;

    if (!p->bundle_open || s->state != TX_QUEUED || h->kind != HXB_K_PUT) {
        return 0;
    }
    have = bundled ? s->buf->len : sizeof(rec) + s->inl_len + (s->buf ? s->buf->len : 0);
    need = have + sizeof(rec) + len;
    if (need > e->frag || need > e->bpool.size) {
        return 0;
    }
    if (!bundled) {
        /* second put: the first becomes a record in a buffer */
        hxb_put_rec_t first = {.addr = ext->addr, .rkey = ext->rkey};
        if (s->buf) {             /* put_bcopy: its data is in the buffer */
            first.len = (uint16_t)s->buf->len;
            memmove(s->buf->data + sizeof(first), s->buf->data, s->buf->len);
        } else {                  /* put_short: its data is inline */
            if (!(s->buf = hxb_pool_get(&e->bpool))) {
                return 0;
            }
            first.len = s->inl_len;
            memcpy(s->buf->data + sizeof(first), s->inl, s->inl_len);
            s->inl_len = 0;
        }
        memcpy(s->buf->data, &first, sizeof(first));
        s->buf->len = sizeof(first) + first.len;
        s->data = s->buf->data;
        ext->addr = 0;
        ext->rkey = 0;
        h->flags |= HXB_F_AM_BUNDLE;
    }
    q = s->buf->data + s->buf->len;
    memcpy(q, &rec, sizeof(rec));
    memcpy(q + sizeof(rec), data, len);
    s->buf->len += sizeof(rec) + len;
    s->data_len = (uint32_t)s->buf->len;
    h->len = (uint16_t)(sizeof(*ext) + s->buf->len);
    e->stats.put_bundled++;
    return 1;
}

int hxb_put_short(hxb_peer_t *p, const void *data, size_t len, uint64_t raddr,
                  uint64_t rkey)
{
    hxb_put_ext_t ext = {.addr = raddr, .rkey = rkey};
    hxb_txslot_t *s;

    if (p->failed) {
        return -HXB_E_PEER;
    }
    if (len > HXB_AM_INLINE || len > p->e->frag) {
        return -1;
    }
    p->e->stats.put_copied++;
    if (put_bundle(p, data, len, raddr, rkey)) {
        return HXB_OK;
    }
    if (tx_room(p) == 0) {
        return HXB_EAGAIN;
    }
    s = slot_new(p, HXB_K_PUT, HXB_F_ORDERED, &ext, sizeof(ext), len);
    memcpy(s->inl, data, len);
    s->inl_len = (uint16_t)len;
    s->last = 1;          /* a refusal of it goes to the next flush */
    hxb_peer_activate(p);
    put_defer_or_push(p);
    return HXB_OK;
}

long hxb_put_bcopy(hxb_peer_t *p, hxb_pack_cb_t pack, void *arg, uint64_t raddr,
                   uint64_t rkey)
{
    hxb_engine_t *e = p->e;
    hxb_put_ext_t ext = {.addr = raddr, .rkey = rkey};
    hxb_txslot_t *s;
    hxb_buf_t *b;
    size_t len;

    if (p->failed) {
        return -HXB_E_PEER;
    }
    if (tx_room(p) == 0 || !(b = hxb_pool_get(&e->bpool))) {
        return HXB_EAGAIN;
    }
    len = pack(b->data, arg);
    if (len > e->frag) {
        hxb_pool_put(&e->bpool, b);
        return -1;
    }
    b->len = len;
    e->stats.put_copied++;
    if (len <= HXB_BUNDLE_MAX && put_bundle(p, b->data, len, raddr, rkey)) {
        hxb_pool_put(&e->bpool, b);
        return (long)len;
    }
    s = slot_new(p, HXB_K_PUT, HXB_F_ORDERED, &ext, sizeof(ext), len);
    s->data = b->data;
    s->data_len = (uint32_t)len;
    s->buf = b;
    s->last = 1;
    hxb_peer_activate(p);
    if (len <= HXB_BUNDLE_MAX) {
        put_defer_or_push(p);  /* small: later ones may join */
    } else {
        tx_kick(p);
    }
    return (long)len;
}

int hxb_am_send(hxb_peer_t *p, unsigned am_id, const struct iovec *iov, int iovcnt)
{
    hxb_am_ext_t ext = {.am_id = (uint8_t)am_id};
    size_t len = 0, off = 0;
    hxb_txslot_t *s;
    int i;

    if (p->failed) {
        return -HXB_E_PEER;
    }
    if (p->q[HXB_Q_OPS].head) {   /* an earlier AM zcopy (or read, flush) */
        return HXB_EAGAIN;
    }
    for (i = 0; i < iovcnt; i++) {
        len += iov[i].iov_len;
    }
    if (len > HXB_AM_INLINE || len > p->e->frag) {
        return -1;
    }
    if (am_bundle(p, am_id, iov, iovcnt, len)) {
        return HXB_OK;
    }
    if (tx_room(p) == 0) {
        return HXB_EAGAIN;
    }
    ext.total = (uint32_t)len;
    s = slot_new(p, HXB_K_AM, HXB_F_AM_FIRST | HXB_F_AM_LAST, &ext, sizeof(ext), len);
    for (i = 0; i < iovcnt; i++) {
        memcpy(s->inl + off, iov[i].iov_base, iov[i].iov_len);
        off += iov[i].iov_len;
    }
    s->inl_len = (uint16_t)len;
    hxb_peer_activate(p);
    am_defer_or_push(p);
    return HXB_OK;
}

long hxb_am_bcopy(hxb_peer_t *p, unsigned am_id, hxb_pack_cb_t pack, void *arg)
{
    hxb_engine_t *e = p->e;
    hxb_am_ext_t ext = {.am_id = (uint8_t)am_id};
    size_t frag = e->frag, len, off = 0, chunk;
    unsigned nfrag_max = (unsigned)((e->cfg.max_msg + frag - 1) / frag);
    hxb_txslot_t *s = NULL;
    hxb_buf_t *b;

    if (p->failed) {
        return -HXB_E_PEER;
    }
    if (p->q[HXB_Q_OPS].head || tx_room(p) < nfrag_max) {
        return HXB_EAGAIN;
    }
    b = hxb_pool_get(&e->bpool);
    if (!b) {
        return HXB_EAGAIN;
    }
    len = pack(b->data, arg);
    b->len = len;
    if (len <= HXB_BUNDLE_MAX) {
        struct iovec iov = {.iov_base = b->data, .iov_len = len};
        if (am_bundle(p, am_id, &iov, 1, len)) {
            hxb_pool_put(&e->bpool, b);
            return (long)len;
        }
    }
    ext.total = (uint32_t)len;
    do {
        unsigned fl = 0;
        uint32_t opid = s ? s->opid : 0;
        chunk = len - off < frag ? len - off : frag;
        if (off == 0) fl |= HXB_F_AM_FIRST;
        if (off + chunk == len) fl |= HXB_F_AM_LAST;
        s = slot_new(p, HXB_K_AM, fl, &ext, sizeof(ext), chunk);
        if (opid) {
            s->opid = opid;         /* one message, one operation */
        }
        s->data = b->data + off;
        s->data_len = (uint32_t)chunk;
        off += chunk;
    } while (off < len);
    s->buf = b;     /* the last frame frees the buffer: all others are acked first */
    hxb_peer_activate(p);
    if (len <= HXB_BUNDLE_MAX && len <= frag) {
        am_defer_or_push(p);  /* small: later ones may join (as am_send) */
    } else {
        tx_kick(p);
    }
    return (long)len;
}

int hxb_am_zcopy(hxb_peer_t *p, unsigned am_id, const void *hdr, size_t hdr_len,
                 const void *data, size_t len, void *comp)
{
    hxb_op_t *op;

    if (p->failed) {
        return -HXB_E_PEER;
    }
    if (hdr_len > HXB_AM_INLINE || hdr_len + len > p->e->cfg.max_msg) {
        return -1;
    }
    if (p->nops >= HXB_MAX_OPS || !(op = op_new(p, OP_AM_ZC))) {
        return HXB_EAGAIN;
    }
    op->am_id = am_id;
    memcpy(op->hdr, hdr, hdr_len);
    op->hdr_len = (uint16_t)hdr_len;
    op->data = data;
    op->len = len;
    op->comp = comp;
    op_enqueue(p, op);
    return HXB_INPROGRESS;
}

int hxb_put(hxb_peer_t *p, const void *data, size_t len, uint64_t raddr,
            uint64_t rkey, void *comp)
{
    hxb_op_t *op;

    if (p->failed) {
        return -HXB_E_PEER;
    }
    if (p->nops >= HXB_MAX_OPS || !(op = op_new(p, OP_PUT))) {
        return HXB_EAGAIN;
    }
    op->data = data;
    op->len = len;
    op->raddr = raddr;
    op->rkey = rkey;
    op->comp = comp;
    if (len == 0) {
        op->len = 0;     /* one empty frame still orders with the rest */
    }
    op_enqueue(p, op);
    return HXB_INPROGRESS;
}

/* a free entry of the reads table for len bytes to data; NULL if full */
static hxb_get_t *get_entry(hxb_peer_t *p, void *data, size_t len, void *comp)
{
    hxb_engine_t *e = p->e;
    hxb_get_t *g;
    unsigned i;

    for (i = 0; i < HXB_MAX_GETS; i++) {
        unsigned k = (e->get_gen + i) % HXB_MAX_GETS;
        if (!e->gets[k].peer) {
            g = &e->gets[k];
            e->get_gen++;
            g->id = k | ((e->get_gen & 0x3fffff) << 10);
            g->peer = p;
            g->buf = data;
            g->len = len;
            g->got = 0;
            g->comp = comp;
            g->owner = p->owner;
            g->status = 0;
            return g;
        }
    }
    return NULL;
}

int hxb_get(hxb_peer_t *p, void *data, size_t len, uint64_t raddr, uint64_t rkey,
            void *comp)
{
    hxb_get_t *g = NULL;
    hxb_op_t *op;

    if (p->failed) {
        return -HXB_E_PEER;
    }
    if (len == 0) {
        return HXB_OK;
    }
    if (len > UINT32_MAX || p->nops >= HXB_MAX_OPS) {
        return len > UINT32_MAX ? -1 : HXB_EAGAIN;
    }
    if (!(g = get_entry(p, data, len, comp)) || !(op = op_new(p, OP_GET_REQ))) {
        if (g) {
            g->peer = NULL;
        }
        return HXB_EAGAIN;
    }
    op->raddr = raddr;
    op->rkey = rkey;
    op->len = len;
    op->get_id = g->id;
    p->gets_pending++;
    op_enqueue(p, op);
    return HXB_INPROGRESS;
}

/* Append an atomic to the newest frame if it is an ATOMIC still waiting to
 * be pushed: posted adds (UCP's ucp_atomic_add, SHMEM's) cost a frame each
 * otherwise, about 4 us of host time here (220k/s). The extension is the
 * first operation; the payload holds the others, whole extensions. */
static int atomic_bundle(hxb_peer_t *p, const hxb_atomic_ext_t *x)
{
    hxb_engine_t *e = p->e;
    hxb_txslot_t *s = SLOT(p, p->tx_next - 1);
    hxb_hdr_t *h = (hxb_hdr_t *)s->hb;

    size_t have;

    if (!p->bundle_open || s->state != TX_QUEUED || h->kind != HXB_K_ATOMIC) {
        return 0;
    }
    have = s->buf ? s->buf->len : 0;
    if (have + 2 * sizeof(*x) > e->frag || have + sizeof(*x) > e->bpool.size) {
        return 0;
    }
    if (!s->buf) {
        if (!(s->buf = hxb_pool_get(&e->bpool))) {
            return 0;
        }
        s->buf->len = 0;
        s->data = s->buf->data;
        h->flags |= HXB_F_AM_BUNDLE;
    }
    memcpy(s->buf->data + s->buf->len, x, sizeof(*x));
    s->buf->len += sizeof(*x);
    s->data_len = (uint32_t)s->buf->len;
    h->len = (uint16_t)(sizeof(*x) + s->buf->len);
    e->stats.atomic_bundled++;
    return 1;
}

int hxb_atomic(hxb_peer_t *p, unsigned aop, unsigned size, uint64_t value,
               uint64_t compare, uint64_t raddr, uint64_t rkey, void *result,
               void *comp)
{
    hxb_atomic_ext_t ext = {.op = (uint8_t)aop, .size = (uint8_t)size,
                            .fetch = result != NULL, .addr = raddr, .rkey = rkey,
                            .value = value, .compare = compare};
    hxb_get_t *g = NULL;
    hxb_txslot_t *s;

    if (p->failed) {
        return -HXB_E_PEER;
    }
    if ((size != 4 && size != 8) || aop >= HXB_AOP_MAX ||
        (!result && (aop == HXB_AOP_SWAP || aop == HXB_AOP_CSWAP))) {
        return -1;
    }
    /* a fetch is a read of the old value: its answer and every way it can
     * end (failure, cancel, flush) are a GET's */
    if (result) {
        if (!(g = get_entry(p, result, size, comp))) {
            return HXB_EAGAIN;
        }
        ext.get_id = g->id;
    }
    if (atomic_bundle(p, &ext)) {
        p->gets_pending += g != NULL;
    } else {
        if (tx_room(p) == 0) {
            if (g) {
                g->peer = NULL;
            }
            return HXB_EAGAIN;
        }
        p->gets_pending += g != NULL;   /* before the frame may leave */
        s = slot_new(p, HXB_K_ATOMIC, 0, &ext, sizeof(ext), 0);
        s->last = 1;          /* a refused post goes to the next flush */
        hxb_peer_activate(p);
        put_defer_or_push(p);
    }
    return result ? HXB_INPROGRESS : HXB_OK;
}

/* the operation on the target, by this CPU: atomic against every other
 * CPU's atomics on the same word (UCT_IFACE_FLAG_ATOMIC_CPU) */
#define HXB_ATOMIC_DO(_t, _ptr, _x)                                           \
    do {                                                                      \
        _t *q = (_t *)(_ptr), v = (_t)(_x)->value, c = (_t)(_x)->compare;     \
        switch ((_x)->op) {                                                   \
        case HXB_AOP_ADD:  old = __atomic_fetch_add(q, v, __ATOMIC_SEQ_CST); break; \
        case HXB_AOP_AND:  old = __atomic_fetch_and(q, v, __ATOMIC_SEQ_CST); break; \
        case HXB_AOP_OR:   old = __atomic_fetch_or(q, v, __ATOMIC_SEQ_CST); break;  \
        case HXB_AOP_XOR:  old = __atomic_fetch_xor(q, v, __ATOMIC_SEQ_CST); break; \
        case HXB_AOP_SWAP: old = __atomic_exchange_n(q, v, __ATOMIC_SEQ_CST); break; \
        default:                                                              \
            __atomic_compare_exchange_n(q, &c, v, 0, __ATOMIC_SEQ_CST,        \
                                        __ATOMIC_SEQ_CST);                    \
            old = c;           /* the value found, swapped or not */         \
        }                                                                     \
    } while (0)

/* one operation of an ATOMIC frame; returns 1 if a post was refused */
static int tx_atomic_one(hxb_peer_t *p, const uint8_t *rec)
{
    hxb_engine_t *e = p->e;
    hxb_atomic_ext_t x;
    hxb_op_t *op;
    uint64_t old = 0;
    int refused;

    memcpy(&x, rec, sizeof(x));
    refused = (x.size != 4 && x.size != 8) || x.op >= HXB_AOP_MAX ||
              (x.addr & (x.size - 1)) ||
              (e->cb.mem_check && e->cb.mem_check(e->cb.arg, x.addr, x.rkey, x.size, 1));
    if (refused) {
        e->stats.drops[HXB_DROP_RKEY]++;
    } else if (e->stats.atomics_done++, x.size == 4) {
        uint32_t o32;
        HXB_ATOMIC_DO(uint32_t, (uintptr_t)x.addr, &x);
        o32 = (uint32_t)old;
        old = o32;
    } else {
        HXB_ATOMIC_DO(uint64_t, (uintptr_t)x.addr, &x);
    }
    if (!x.fetch) {
        return refused;
    }
    if (!(op = op_new(p, OP_GET_RESP))) {
        /* no memory: no answer, and the fetch waits for good (as a GET
         * would); the operation itself was done */
        return 0;
    }
    op->get_id = x.get_id;
    if (refused) {
        op->status = HXB_E_RKEY;
        op->len = 0;
    } else {
        memcpy(op->hdr, &old, x.size);     /* little-endian: the low bytes */
        op->hdr_len = x.size;
        op->len = x.size;
    }
    op_enqueue(p, op);
    return 0;
}

int hxb_tx_atomic(hxb_peer_t *p, const hxb_hdr_t *h)
{
    const uint8_t *rec = (const uint8_t *)(h + 1);
    size_t n = h->len / sizeof(hxb_atomic_ext_t), i;
    int refused = 0;

    /* one operation, or a bundle of whole ones (PROTOCOL.md section 5) */
    if ((h->len % sizeof(hxb_atomic_ext_t)) ||
        (n != 1 && !(h->flags & HXB_F_AM_BUNDLE))) {
        p->e->stats.drops[HXB_DROP_LEN]++;
        return 0;
    }
    for (i = 0; i < n; i++) {
        refused |= tx_atomic_one(p, rec + i * sizeof(hxb_atomic_ext_t));
    }
    return refused;
}

/* responder side: answer a GET_REQ with GET_RESP frames from our memory */
int hxb_tx_get_resp(hxb_peer_t *p, const hxb_get_req_ext_t *req)
{
    hxb_engine_t *e = p->e;
    hxb_op_t *op = op_new(p, OP_GET_RESP);

    if (!op) {
        return -1;
    }
    op->get_id = req->get_id;
    op->rkey = req->rkey;
    if (req->length == 0 ||
        (e->cb.mem_check &&
         e->cb.mem_check(e->cb.arg, req->addr, req->rkey, req->length, 0))) {
        e->stats.drops[HXB_DROP_RKEY] += req->length != 0;
        op->status = HXB_E_RKEY;
        op->len = 0;
    } else {
        op->data = (const uint8_t *)(uintptr_t)req->addr;
        op->len = req->length;
    }
    op_enqueue(p, op);
    return 0;
}

/* GET_RESP frames point into the responder's memory until acked, and a
 * retransmission reads it again. When a region goes (deregistered, or
 * invalidated because its reader failed), what is still queued or unacked
 * from it turns into a refusal without data: the memory may be unmapped.
 * After a completed read this changes nothing the reader sees (it has
 * every frame, so any resend is a duplicate, dropped unread); a read still
 * in progress completes at the reader with HXB_E_RKEY. Matched by rkey,
 * not address: the same buffer may be registered again for another read. */
static void tx_region_gone(hxb_peer_t *p, uint64_t rkey)
{
    hxb_op_t *op;
    uint32_t seq;

    for (op = p->q[HXB_Q_RESP].head; op; op = op->next) {
        if (op->rkey == rkey && op->off < op->len && !op->hdr_len) {
            op->status = HXB_E_RKEY;
            op->len = op->off;         /* one data-less frame at the offset */
            p->e->stats.resp_revoked++;
        }
    }
    for (seq = p->tx_una; seq != p->tx_next && hxb_seq_lt(seq, p->resp_end);
         seq++) {
        hxb_txslot_t *s = SLOT(p, seq);
        hxb_hdr_t *h = (hxb_hdr_t *)s->hb;
        hxb_get_resp_ext_t *ext = (hxb_get_resp_ext_t *)(h + 1);

        if (s->state == TX_FREE || h->kind != HXB_K_GET_RESP ||
            s->region != rkey || s->data_len == 0) {
            continue;
        }
        ext->status = HXB_E_RKEY;
        h->len = (uint16_t)(h->len - s->data_len);
        p->e->stats.resp_revoked++;
        s->data = NULL;
        s->data_len = 0;
    }
}

void hxb_engine_region_gone(hxb_engine_t *e, uint64_t rkey)
{
    hxb_peer_t *p;

    /* a peer with frames unacked or operations queued is active */
    for (p = e->active; p; p = p->anext) {
        tx_region_gone(p, rkey);
    }
}

int hxb_flush(hxb_peer_t *p, void *comp)
{
    hxb_op_t *op;

    if (p->failed) {
        return -HXB_E_PEER;
    }
    if (hxb_peer_tx_idle(p)) {
        int err = (int)p->err_pending;
        p->err_pending = 0;
        return err ? -err : HXB_OK;
    }
    if (!comp) {
        return HXB_INPROGRESS;   /* caller polls */
    }
    if (!(op = op_new(p, OP_FLUSH))) {
        return HXB_EAGAIN;
    }
    op->comp = comp;
    op_enqueue(p, op);
    return HXB_INPROGRESS;
}

void hxb_peer_set_owner(hxb_peer_t *p, void *owner)
{
    p->owner = owner;
}

static int mine(const void *whose, const void *owner)
{
    return !owner || whose == owner;
}

/* A numbered frame of a cancelled operation keeps its sequence number but
 * not its data (user memory the caller may free now): whenever it is sent
 * again it goes out as a NOP. A NOP in sequence ends the receiver's AM
 * reassembly in progress, so the rest of a cancelled message is dropped
 * there as a length violation instead of running into the next one. */
static void slot_cancel(hxb_txslot_t *s)
{
    hxb_hdr_t *h = (hxb_hdr_t *)s->hb;

    if (h->kind == HXB_K_AM || h->kind == HXB_K_PUT) {
        h->kind = HXB_K_NOP;
        h->flags &= (uint8_t)~(HXB_F_AM_FIRST | HXB_F_AM_LAST | HXB_F_AM_BUNDLE |
                               HXB_F_ORDERED);
        h->len = 0;
        s->hb_len = (uint8_t)sizeof(*h);
        s->inl_len = 0;
        s->data = NULL;
        s->data_len = 0;
        s->last = 0;
    }
    s->owner = NULL;
    s->user = 0;
}

void hxb_peer_cancel(hxb_peer_t *p, void *owner)
{
    hxb_engine_t *e = p->e;
    hxb_flushreq_t **fp, *f;
    hxb_op_t **at, *op;
    uint32_t seq;
    int i;

    for (seq = p->tx_una; seq != p->tx_next; seq++) {
        hxb_txslot_t *s = SLOT(p, seq);
        if (s->state != TX_FREE && s->user && mine(s->owner, owner)) {
            void *c = s->comp;
            s->comp = NULL;
            slot_cancel(s);
            complete(e, c, HXB_E_CANCEL);
        }
    }
    for (i = 0; i < HXB_NQ; i++) {
        if (i == HXB_Q_RESP) {
            continue;              /* reads the peer makes of our memory */
        }
        for (at = &p->q[i].head; (op = *at);) {
            void *c = op->comp;
            if (op->kind == OP_NOP || !mine(op->owner, owner)) {
                at = &op->next;
                continue;
            }
            op->comp = NULL;
            op->owner = NULL;
            if (op->kind == OP_AM_ZC && (op->off || (op->status & 1))) {
                op->kind = OP_NOP;     /* cut in part: end it at the peer */
                op->data = NULL;
                op->len = op->off = 0;
                at = &op->next;
            } else if (op->kind == OP_PUT && op->off) {
                op->data = NULL;       /* cut in part: the rest goes empty */
                op->len = op->off;
                at = &op->next;
            } else {
                *at = op->next;        /* not started: never sent */
                if (op->kind == OP_PUT) {
                    p->puts_framed++;  /* as if cut: flushes count on it */
                }
                if (op->kind == OP_GET_REQ) {
                    hxb_get_t *g = &e->gets[op->get_id % HXB_MAX_GETS];
                    c = g->comp;       /* a read's completion is its entry's */
                    g->peer = NULL;
                    p->gets_pending--;
                }
                p->nops--;
                op->next = e->free_ops;
                e->free_ops = op;
            }
            complete(e, c, HXB_E_CANCEL);
        }
        p->q[i].tail = NULL;
        for (op = p->q[i].head; op; op = op->next) {
            p->q[i].tail = op;
        }
    }
    for (fp = &p->flushes; (f = *fp);) {
        if (mine(f->owner, owner)) {
            *fp = f->next;
            complete(e, f->comp, HXB_E_CANCEL);
            free(f);
        } else {
            fp = &f->next;
        }
    }
    for (i = 0; i < HXB_MAX_GETS; i++) {
        hxb_get_t *g = &e->gets[i];
        if (g->peer == p && mine(g->owner, owner)) {
            void *c = g->comp;
            g->comp = NULL;
            g->owner = NULL;
            g->buf = NULL;             /* what still arrives is dropped */
            complete(e, c, HXB_E_CANCEL);
        }
    }
    hxb_tx_flush_check(p);
}
