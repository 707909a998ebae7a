/* Receiving from a peer: frames dispatched by kind; sequenced ones go
 * through the receive window (duplicates, the seed paper's lock-free slot
 * array: slot = seq mod window, empty or the buffer holding that frame)
 * and are delivered in order (AMs, ordered PUTs) or on arrival (PUT, GET,
 * ATOMIC). */
#include "hxb_engine_int.h"

#include <stdlib.h>
#include <string.h>

void hxb_rx_reset(hxb_peer_t *p)
{
    unsigned i;

    for (i = 0; p->rx.slot && i < HXB_WIN(p); i++) {
        if (p->rx.slot[i].buf) {
            hxb_pool_put(&p->e->rpool, p->rx.slot[i].buf);
        }
        p->rx.slot[i].buf = NULL;
        p->rx.slot[i].state = RX_EMPTY;
    }
    p->rx.next = p->rx.hi = 0;
    memset(p->rx.rail_hi, 0, sizeof(p->rx.rail_hi));
    hxb_ack_reset(p);
    hxb_am_reset(p);
}

/* PUT, GET and ATOMIC frames: placed or answered on arrival, in any
 * order (an ordered PUT, once its turn comes) */
static void rx_on_arrival(hxb_peer_t *p, hxb_hdr_t *h)
{
    switch (h->kind) {
    case HXB_K_PUT:
        hxb_rma_put_rcvd(p, h);
        break;
    case HXB_K_GET_REQ:
        hxb_rma_get_req_rcvd(p, (hxb_get_req_ext_t *)(h + 1));
        break;
    case HXB_K_ATOMIC:
        if (hxb_atomic_rcvd(p, h)) {
            hxb_err_send(p, h->seq, HXB_E_RKEY);   /* the next flush reports it */
        }
        break;
    case HXB_K_GET_RESP:
        hxb_rma_get_resp_rcvd(p, h);
        break;
    default:
        break;
    }
}

/* unsequenced frames other than ACK */
static void rx_control(hxb_peer_t *p, hxb_rail_t *rail, hxb_hdr_t *h)
{
    switch (h->kind) {
    case HXB_K_ERR: {
        hxb_err_ext_t *x = (hxb_err_ext_t *)(h + 1);
        hxb_err_rcvd(p, x->seq, x->status);
        break;
    }
    case HXB_K_PING:
        hxb_loss_ping_rcvd(p, rail, h);
        break;
    case HXB_K_PONG:
        hxb_loss_pong_rcvd(p, h);
        break;
    default:
        p->e->stats.drops[HXB_DROP_KIND]++;
    }
}

/* A valid frame of the peer (hxb_engine.c checked it). Returns 1 if it was
 * a sequenced frame not seen before (a replay cannot be one), else 0. */
int hxb_rx_frame(hxb_peer_t *p, hxb_rail_t *rail, hxb_hdr_t *h, size_t size)
{
    hxb_engine_t *e = p->e;
    hxb_rxslot_t *slot;
    uint32_t seq;

    hxb_ack_rail_seen(p, rail->index);
    if (h->kind == HXB_K_ACK) {
        hxb_ack_frame_rcvd(p, rail, h);
        return 0;
    }
    if (h->ack != p->tx.una) {
        hxb_ack_rcvd(p, h->ack, NULL, 0, 0, 0);   /* piggybacked cumulative ack */
    }
    if (!(h->flags & HXB_F_SEQ)) {
        rx_control(p, rail, h);
        return 0;
    }
    if (h->kind >= HXB_K_ACK) {
        e->stats.drops[HXB_DROP_KIND]++;    /* control kinds are never sequenced */
        return 0;
    }
    /* the window is allocated at the peer's first sequenced frame */
    if (!p->rx.slot && !(p->rx.slot = calloc(HXB_WIN(p), sizeof(*p->rx.slot)))) {
        e->stats.drops[HXB_DROP_NOBUF]++;
        return 0;                 /* not acked: the sender will resend */
    }
    seq = h->seq;
    if (hxb_seq_lt(seq, p->rx.next)) {
        hxb_ack_dup(p, h);
        return 0;
    }
    if (seq - p->rx.next >= HXB_WIN(p)) {
        e->stats.drops[HXB_DROP_WINDOW]++;
        return 0;
    }
    slot = HXB_RX_SLOT(p, seq);
    if (slot->state != RX_EMPTY) {
        hxb_ack_dup(p, h);
        return 0;
    }
    if (hxb_seq_le(p->rx.hi, seq)) {
        p->rx.hi = seq + 1;
    }
    if (!p->rx.rail_hi[rail->index] || hxb_seq_le(p->rx.rail_hi[rail->index], seq)) {
        p->rx.rail_hi[rail->index] = seq + 1;
    }
    hxb_ack_hold(p, rail, seq);
    hxb_ack_owed(p, h);
    if (seq != p->rx.next) {
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
                hxb_ack_unowed(p);
                return 1;        /* not acked: the sender will resend */
            }
            memcpy(b->data, h, sizeof(*h) + h->len);
            slot->buf = b;
            slot->state = RX_HELD;
            e->stats.ooo_held++;
        } else if (h->kind == HXB_K_NOP) {
            slot->state = RX_NOP;
        } else {
            rx_on_arrival(p, h);
            slot->state = RX_DONE;
        }
        return 1;
    }
    /* in order: handle in place, then everything that waited for it */
    if (h->kind == HXB_K_AM) {
        hxb_am_rcvd(p, h);
    } else if (h->kind == HXB_K_NOP) {
        hxb_am_nop_rcvd(p);
    } else {
        rx_on_arrival(p, h);
    }
    p->rx.next++;
    while ((slot = HXB_RX_SLOT(p, p->rx.next))->state != RX_EMPTY) {
        if (slot->state == RX_HELD) {
            hxb_hdr_t *held = (hxb_hdr_t *)slot->buf->data;
            if (held->kind == HXB_K_AM) {
                hxb_am_rcvd(p, held);
            } else {
                rx_on_arrival(p, held);      /* an ordered PUT */
            }
            hxb_pool_put(&e->rpool, slot->buf);
            slot->buf = NULL;
        } else if (slot->state == RX_NOP) {
            hxb_am_nop_rcvd(p);
        }
        slot->state = RX_EMPTY;
        p->rx.next++;
    }
    return 1;
}

/* the engine drops the peer: its window and the frames held in it */
void hxb_rx_free(hxb_peer_t *p)
{
    unsigned i;

    for (i = 0; p->rx.slot && i < HXB_WIN(p); i++) {
        if (p->rx.slot[i].buf) {
            hxb_pool_put(&p->e->rpool, p->rx.slot[i].buf);
        }
    }
    free(p->rx.slot);
}
