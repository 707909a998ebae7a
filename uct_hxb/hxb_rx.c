/* Receiving side of a peer: duplicate suppression, the reorder window (the
 * seed paper's lock-free slot array: slot = seq mod window, empty or the
 * buffer holding that frame), in-order AM delivery with reassembly, direct
 * placement of PUT/GET data, and coalesced cumulative + selective ACKs. */
#include "hxb_engine_int.h"

#include <string.h>

#define W(p)        ((p)->e->cfg.window)
#define RSLOT(p, s) (&(p)->rx[(s) & (W(p) - 1)])

void hxb_rx_reset(hxb_peer_t *p)
{
    unsigned i;

    for (i = 0; i < W(p); i++) {
        if (p->rx[i].buf) {
            hxb_pool_put(&p->e->rpool, p->rx[i].buf);
        }
        p->rx[i].buf = NULL;
        p->rx[i].state = RX_EMPTY;
    }
    p->rx_next = p->rx_hi = 0;
    p->rx_unacked = 0;
    p->ack_now = 0;
    p->asm_active = 0;
}

static void send_err(hxb_peer_t *p, uint32_t seq, uint32_t status)
{
    hxb_err_ext_t ext = {.seq = seq, .status = status};

    hxb_tx_send_unseq(p, -1, HXB_K_ERR, &ext, sizeof(ext));
}

/* Active message fragment, called in sequence order. */
/* A bundle of short AMs: every record is checked before any is delivered,
 * so a malformed frame delivers nothing. */
static void rx_am_bundle(hxb_peer_t *p, uint8_t *data, size_t len)
{
    hxb_engine_t *e = p->e;
    hxb_am_rec_t rec;
    size_t off;

    for (off = 0; off < len; off += sizeof(rec) + rec.len) {
        if (len - off < sizeof(rec)) {
            e->stats.drops[HXB_DROP_LEN]++;
            return;
        }
        memcpy(&rec, data + off, sizeof(rec));
        if (rec.len > len - off - sizeof(rec)) {
            e->stats.drops[HXB_DROP_LEN]++;
            return;
        }
    }
    for (off = 0; off < len; off += sizeof(rec) + rec.len) {
        memcpy(&rec, data + off, sizeof(rec));
        e->stats.am_delivered++;
        e->cb.am(e->cb.arg, p, rec.am_id, data + off + sizeof(rec), rec.len);
    }
}

static void rx_am(hxb_peer_t *p, hxb_hdr_t *h)
{
    hxb_engine_t *e = p->e;
    hxb_am_ext_t *ext = (hxb_am_ext_t *)(h + 1);
    uint8_t *data = (uint8_t *)(ext + 1);
    size_t len = h->len - sizeof(*ext);
    unsigned fl = h->flags & (HXB_F_AM_FIRST | HXB_F_AM_LAST);

    if (fl == (HXB_F_AM_FIRST | HXB_F_AM_LAST)) {
        if (ext->total != len || p->asm_active) {
            e->stats.drops[HXB_DROP_LEN]++;
            p->asm_active = 0;
            return;
        }
        if (h->flags & HXB_F_AM_BUNDLE) {
            rx_am_bundle(p, data, len);
            return;
        }
        e->stats.am_delivered++;
        e->cb.am(e->cb.arg, p, ext->am_id, data, len);
        return;
    }
    if (h->flags & HXB_F_AM_BUNDLE) {
        e->stats.drops[HXB_DROP_LEN]++;   /* a bundle is one frame */
        p->asm_active = 0;
        return;
    }
    if (fl & HXB_F_AM_FIRST) {
        if (p->asm_active || ext->total > e->cfg.max_msg || len > ext->total) {
            e->stats.drops[HXB_DROP_LEN]++;
            p->asm_active = 0;
            return;
        }
        p->asm_active = 1;
        p->asm_total = ext->total;
        p->asm_id = ext->am_id;
        p->asm_len = 0;
    } else if (!p->asm_active || ext->am_id != p->asm_id) {
        e->stats.drops[HXB_DROP_LEN]++;
        p->asm_active = 0;
        return;
    }
    if (p->asm_len + len > p->asm_total) {
        e->stats.drops[HXB_DROP_LEN]++;
        p->asm_active = 0;
        return;
    }
    memcpy(p->asm_buf + p->asm_len, data, len);
    p->asm_len += len;
    if (fl & HXB_F_AM_LAST) {
        p->asm_active = 0;
        if (p->asm_len != p->asm_total) {
            e->stats.drops[HXB_DROP_LEN]++;
            return;
        }
        e->stats.am_delivered++;
        e->cb.am(e->cb.arg, p, p->asm_id, p->asm_buf, p->asm_len);
    }
}

/* A NOP in sequence: a cancelled frame (PROTOCOL.md 8.14). The message it
 * was part of can no longer be whole: drop what was gathered of it. */
static void rx_nop(hxb_peer_t *p)
{
    if (p->asm_active) {
        p->e->stats.drops[HXB_DROP_LEN]++;
        p->asm_active = 0;
    }
}

/* A PUT bundle (PROTOCOL.md section 5): every record must lie inside the
 * payload before any is placed; a record the rkey check refuses is not
 * placed, the others are, and one ERR tells the sender. */
static void rx_put_bundle(hxb_peer_t *p, hxb_hdr_t *h, uint8_t *q, size_t len)
{
    hxb_engine_t *e = p->e;
    uint8_t *end = q + len, *r;
    hxb_put_rec_t rec;
    int refused = 0;

    for (r = q; r < end; r += sizeof(rec) + rec.len) {
        if ((size_t)(end - r) < sizeof(rec)) {
            e->stats.drops[HXB_DROP_LEN]++;
            return;
        }
        memcpy(&rec, r, sizeof(rec));
        if ((size_t)(end - r) - sizeof(rec) < rec.len) {
            e->stats.drops[HXB_DROP_LEN]++;
            return;
        }
    }
    for (r = q; r < end; r += sizeof(rec) + rec.len) {
        memcpy(&rec, r, sizeof(rec));
        if (!rec.len) {
            continue;
        }
        if (e->cb.mem_check &&
            e->cb.mem_check(e->cb.arg, rec.addr, rec.rkey, rec.len, 1)) {
            refused = 1;
            continue;
        }
        memcpy((void *)(uintptr_t)rec.addr, r + sizeof(rec), rec.len);
    }
    if (refused) {
        e->stats.drops[HXB_DROP_RKEY]++;
        send_err(p, h->seq, HXB_E_RKEY);
    }
}

/* PUT / GET frames: placed or answered on arrival, in any order. */
static void rx_unordered(hxb_peer_t *p, hxb_hdr_t *h)
{
    hxb_engine_t *e = p->e;

    switch (h->kind) {
    case HXB_K_PUT: {
        hxb_put_ext_t *ext = (hxb_put_ext_t *)(h + 1);
        size_t len = h->len - sizeof(*ext);
        if (h->flags & HXB_F_AM_BUNDLE) {
            rx_put_bundle(p, h, (uint8_t *)(ext + 1), len);
            return;
        }
        if (len && e->cb.mem_check &&
            e->cb.mem_check(e->cb.arg, ext->addr, ext->rkey, len, 1)) {
            e->stats.drops[HXB_DROP_RKEY]++;
            send_err(p, h->seq, HXB_E_RKEY);
            return;
        }
        if (len) {
            memcpy((void *)(uintptr_t)ext->addr, ext + 1, len);
        }
        break;
    }
    case HXB_K_GET_REQ:
        hxb_tx_get_resp(p, (hxb_get_req_ext_t *)(h + 1));
        break;
    case HXB_K_ATOMIC:
        if (hxb_tx_atomic(p, h)) {
            send_err(p, h->seq, HXB_E_RKEY);   /* the next flush reports it */
        }
        break;
    case HXB_K_GET_RESP: {
        hxb_get_resp_ext_t *ext = (hxb_get_resp_ext_t *)(h + 1);
        hxb_get_t *g = &e->gets[ext->get_id % HXB_MAX_GETS];
        size_t len = h->len - sizeof(*ext);
        void *comp;
        if (g->peer != p || g->id != ext->get_id) {
            e->stats.drops[HXB_DROP_DST]++;     /* stale or forged */
            return;
        }
        p->last_ack_progress = e->now;          /* the read is advancing */
        if (ext->status || ext->offset > g->len || len > g->len - ext->offset) {
            g->status = ext->status ? (int)ext->status : HXB_E_RKEY;
            g->got = g->len;
        } else {
            if (g->buf) {                       /* NULL: cancelled, dropped */
                memcpy(g->buf + ext->offset, ext + 1, len);
            }
            g->got += len;
        }
        if (g->got >= g->len) {
            comp = g->comp;
            g->peer = NULL;
            p->gets_pending--;
            if (comp && e->cb.complete) {
                e->cb.complete(e->cb.arg, comp, g->status);
            }
            hxb_tx_flush_check(p);
        }
        break;
    }
    default:
        break;
    }
}

static void rx_ack(hxb_peer_t *p, int r)
{
    struct {
        hxb_ack_ext_t ext;
        uint64_t      bits[HXB_SACK_BITS / 64];
    } a;
    uint32_t span = p->rx_hi - p->rx_next, i;
    unsigned nbits = 0;

    memset(&a, 0, sizeof(a));
    a.ext.cum = p->rx_next;
    if (span > 1) {
        nbits = ((span - 1 + 63) / 64) * 64;
        /* whole 64-bit words (the wire requires it), even when the
         * window is smaller: span <= window keeps the bits in it */
        if (nbits > HXB_SACK_BITS) {
            nbits = HXB_SACK_BITS;
        }
        for (i = 0; i < nbits && i + 1 < span; i++) {
            if (RSLOT(p, p->rx_next + 1 + i)->state != RX_EMPTY) {
                a.bits[i / 64] |= 1ull << (i % 64);
            }
        }
    }
    a.ext.nbits = (uint16_t)nbits;
    a.ext.dups = p->rx_dups;
    a.ext.hold_seq = p->rx_hold_seq;
    a.ext.hold_us = HXB_HOLD_NONE;
    if (r < 0) {
        r = hxb_tx_ctl_rail(p);     /* -1: none up, nothing is sent */
    }
    if (p->rx_hold_at > 0) {
        /* here since the frame arrived, and until the ACK leaves: at most
         * what our own frames to the peer on that rail take for a whole
         * round trip, as they wait in the same queue (an overestimate
         * would hide queues on the path from the peer's window) */
        double wait = r >= 0 ? hxb_engine_rail_wait(p->e, r) : 0;
        double us;

        if (r >= 0 && wait > p->rail_srtt[r]) {
            wait = p->rail_srtt[r];
        }
        us = (p->e->now - p->rx_hold_at + wait) * 1e6;
        a.ext.hold_us = us < 0 ? 0 : us >= HXB_HOLD_NONE ? HXB_HOLD_NONE - 1 : (uint32_t)us;
    }
    p->rx_dups = 0;
    hxb_tx_send_unseq(p, r, HXB_K_ACK, &a, sizeof(a.ext) + nbits / 8);
    p->e->stats.acks_sent++;
    p->rx_unacked = 0;
    p->ack_now = 0;
    p->ack_drained = 0;
}

void hxb_rx_send_ack(hxb_peer_t *p)
{
    rx_ack(p, -1);
}

/* the idle tick's ACK (HXB_F_BUSY, from the engine's idle flag), on every
 * rail that is up: the caller reads nothing meanwhile, so we would not
 * learn that a rail's path to the peer is dead, and one ACK lost on it
 * must not leave the peer without news for a whole period */
void hxb_rx_send_busy(hxb_peer_t *p)
{
    hxb_engine_t *e = p->e;
    int r;

    for (r = 0; r < e->nrails; r++) {
        if ((p->rail_mask & (1u << r)) && e->rails[r]->up) {
            rx_ack(p, r);
            e->stats.busy_sent++;
        }
    }
}

static void rx_mark(hxb_peer_t *p, const hxb_hdr_t *h)
{
    p->rx_pass = p->e->pass;
    if (!(h->flags & HXB_F_MORE)) {
        p->ack_drained = 1;   /* the end of a burst: ack once queues drain */
    }
    if (p->rx_unacked++ == 0) {
        p->ack_due = p->e->now + p->e->cfg.ack_delay;
    }
    hxb_peer_activate(p);
}

/* A frame we have: the peer resent it, so our ACK of it was probably
 * lost (or the peer resent early). Ack at once, on another rail than the
 * last ACK took (hxb_tx.c, hxb_tx_ctl_rail). */
static void rx_dup(hxb_peer_t *p, const hxb_hdr_t *h)
{
    hxb_engine_t *e = p->e;

    e->stats.drops[HXB_DROP_DUP]++;
    p->rx_dups += p->rx_dups < UINT16_MAX;
    p->ack_now = 1;
    if (p->ack_rail) {
        p->ack_avoid |= p->ack_rail;
        p->ack_avoid_at = e->now;
    }
    rx_mark(p, h);
}

/* when the kernel received the frame being handled (the pass's time if
 * the rail does not say, or says later) */
static double rx_arrival(const hxb_engine_t *e, const hxb_rail_t *rail)
{
    return rail->rx_stamp > 0 && rail->rx_stamp < e->now ? rail->rx_stamp : e->now;
}

/* the frame that reached this host last: the next ACK says how long it has
 * been here (hold_us), so the sender can tell path delay from ours */
static void rx_hold(hxb_peer_t *p, const hxb_rail_t *rail, uint32_t seq)
{
    double at = rx_arrival(p->e, rail);

    if (at >= p->rx_hold_at) {
        p->rx_hold_at = at;
        p->rx_hold_seq = seq;
    }
}

void hxb_rx_frame(hxb_peer_t *p, hxb_rail_t *rail, hxb_hdr_t *h, size_t size)
{
    hxb_engine_t *e = p->e;
    hxb_rxslot_t *slot;
    uint32_t seq;

    p->rx_rails |= 1u << rail->index;   /* a path from the peer that works */
    if (h->kind == HXB_K_ACK) {
        hxb_ack_ext_t *a = (hxb_ack_ext_t *)(h + 1);
        /* when it would have arrived had the peer answered at once */
        double hold_at = a->hold_us == HXB_HOLD_NONE ? 0
                         : rx_arrival(e, rail) - a->hold_us * 1e-6;
        e->stats.acks_rcvd++;
        if (a->dups) {
            hxb_tx_spurious(p, a->dups);
        }
        hxb_tx_ack_rcvd(p, a->cum, a + 1, a->nbits, a->hold_seq, hold_at);
        return;
    }
    if (h->ack != p->tx_una) {
        hxb_tx_ack_rcvd(p, h->ack, NULL, 0, 0, 0);   /* piggybacked cumulative ack */
    }
    if (!(h->flags & HXB_F_SEQ)) {
        switch (h->kind) {
        case HXB_K_ERR: {
            hxb_err_ext_t *x = (hxb_err_ext_t *)(h + 1);
            hxb_tx_err_rcvd(p, x->seq, x->status);
            break;
        }
        case HXB_K_PING:
            hxb_tx_send_unseq(p, rail->index, HXB_K_PONG, h + 1,
                              sizeof(hxb_ping_ext_t));
            break;
        case HXB_K_PONG: {
            hxb_ping_ext_t *x = (hxb_ping_ext_t *)(h + 1);
            if (x->rail < HXB_MAX_RAILS) {
                p->suspect_mask &= ~(1u << x->rail);
                p->rail_last_ack[x->rail] = p->e->now;
            }
            break;
        }
        default:
            e->stats.drops[HXB_DROP_KIND]++;
        }
        return;
    }
    if (h->kind == HXB_K_ACK || h->kind >= HXB_K_ACK) {
        e->stats.drops[HXB_DROP_KIND]++;    /* control kinds are never sequenced */
        return;
    }
    seq = h->seq;
    if (hxb_seq_lt(seq, p->rx_next)) {
        rx_dup(p, h);
        return;
    }
    if (seq - p->rx_next >= W(p)) {
        e->stats.drops[HXB_DROP_WINDOW]++;
        return;
    }
    slot = RSLOT(p, seq);
    if (slot->state != RX_EMPTY) {
        rx_dup(p, h);
        return;
    }
    if (hxb_seq_le(p->rx_hi, seq)) {
        p->rx_hi = seq + 1;
    }
    rx_hold(p, rail, seq);
    rx_mark(p, h);
    if (seq != p->rx_next) {
        if (h->kind == HXB_K_AM ||
            (h->kind == HXB_K_PUT && (h->flags & HXB_F_ORDERED))) {
            /* an AM must wait for its turn: keep a copy, the rail's buffer
             * is reused as soon as we return */
            hxb_buf_t *b = hxb_pool_get(&e->rpool);
            if (!b || size > e->rpool.size) {
                if (b) {
                    hxb_pool_put(&e->rpool, b);
                }
                e->stats.drops[HXB_DROP_NOBUF]++;
                p->rx_unacked--;
                return;          /* not acked: the sender will resend */
            }
            memcpy(b->data, h, sizeof(*h) + h->len);
            slot->buf = b;
            slot->state = RX_HELD;
            e->stats.ooo_held++;
        } else if (h->kind == HXB_K_NOP) {
            slot->state = RX_NOP;
        } else {
            rx_unordered(p, h);
            slot->state = RX_DONE;
        }
        return;
    }
    /* in order: handle in place, then everything that waited for it */
    if (h->kind == HXB_K_AM) {
        rx_am(p, h);
    } else if (h->kind == HXB_K_NOP) {
        rx_nop(p);
    } else {
        rx_unordered(p, h);
    }
    p->rx_next++;
    while ((slot = RSLOT(p, p->rx_next))->state != RX_EMPTY) {
        if (slot->state == RX_HELD) {
            hxb_hdr_t *held = (hxb_hdr_t *)slot->buf->data;
            if (held->kind == HXB_K_AM) {
                rx_am(p, held);
            } else {
                rx_unordered(p, held);      /* an ordered PUT */
            }
            hxb_pool_put(&e->rpool, slot->buf);
            slot->buf = NULL;
        } else if (slot->state == RX_NOP) {
            rx_nop(p);
        }
        slot->state = RX_EMPTY;
        p->rx_next++;
    }
}
