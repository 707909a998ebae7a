/* The engine's bottom layer: buffer, operation and read-entry pools,
 * completion delivery (the one way a completion reaches the caller), the
 * rails' shared accounting (windows, queue waits, flushes) and the list of
 * peers with work. Calls nothing above it. */
#include "hxb_engine_int.h"

#include <stdlib.h>
#include <string.h>

hxb_buf_t *hxb_pool_get(hxb_pool_t *pool)
{
    hxb_buf_t *b = pool->free;

    if (b) {
        pool->free = b->next;
        return b;
    }
    if (pool->count >= pool->max) {
        return NULL;
    }
    b = malloc(sizeof(*b) + pool->size);
    if (b) {
        pool->count++;
    }
    return b;
}

void hxb_pool_put(hxb_pool_t *pool, hxb_buf_t *b)
{
    b->next = pool->free;
    pool->free = b;
}

void hxb_pool_cleanup(hxb_pool_t *pool)
{
    hxb_buf_t *b;

    while ((b = pool->free)) {
        pool->free = b->next;
        free(b);
    }
}

void hxb_complete(hxb_engine_t *e, void *comp, int status)
{
    if (comp && e->deferring) {
        hxb_core_defer(e, comp, status, NULL);
    } else if (comp && e->cb.complete) {
        e->cb.complete(e->cb.arg, comp, status);
    }
}

void hxb_core_defer(hxb_engine_t *e, void *comp, int status, hxb_peer_t *peer)
{
    hxb_defer_t *d = malloc(sizeof(*d));

    if (!d) {
        return;     /* lost: the caller's request would hang, but so would
                     * everything else without memory for 32 bytes */
    }
    d->next = NULL;
    d->comp = comp;
    d->status = status;
    d->peer = peer;
    if (e->defer_tail) {
        e->defer_tail->next = d;
    } else {
        e->defer_head = d;
    }
    e->defer_tail = d;
}

void hxb_core_run_deferred(hxb_engine_t *e)
{
    hxb_defer_t *d;

    while ((d = e->defer_head)) {
        e->defer_head = d->next;
        if (!e->defer_head) {
            e->defer_tail = NULL;
        }
        if (d->comp && e->cb.complete) {
            e->cb.complete(e->cb.arg, d->comp, d->status);
        } else if (!d->comp && e->cb.peer_reset) {
            e->cb.peer_reset(e->cb.arg, d->peer);
        }
        free(d);
    }
}

/* a free entry of the reads table for len bytes to data; NULL if full */
hxb_get_t *hxb_get_alloc(hxb_peer_t *p, void *data, size_t len, void *comp)
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
            g->owner = p->ops.owner;
            g->status = 0;
            return g;
        }
    }
    return NULL;
}

void hxb_peer_activate(hxb_peer_t *p)
{
    if (!p->active) {
        p->active = 1;
        p->anext = p->e->active;
        p->e->active = p;
    }
}

/* A rail's own queue (qdisc, socket buffer) refused frames in the last
 * flush: the rail is slower than the frames we keep in flight on it (a rate
 * limit, other processes or relayed traffic sharing it). Halve its window,
 * as TCP does on a loss, at most once per window: not before the frames in
 * flight at the cut are acked (refusals of frames sent before the cut are
 * not news). The refused
 * frames themselves are lost frames: RACK resends them once later frames
 * on the rail are acked. Without this, a rail slower than the window
 * overflowed its queue on every burst: an eighth of all frames resent. */
static void core_rail_backoff(hxb_engine_t *e)
{
    int i;

    for (i = 0; i < e->nrails; i++) {
        hxb_rail_t *r = e->rails[i];
        double cap;

        if (r->stats.tx_again == e->rail_again[i]) {
            continue;
        }
        e->rail_again[i] = r->stats.tx_again;
        if (e->rail_acks[i] < e->rail_cut_at[i]) {
            continue;
        }
        cap = e->rail_cap[i] < e->rail_inflight[i] ? e->rail_cap[i] : e->rail_inflight[i];
        e->rail_cap[i] = hxb_win_halved(cap, HXB_RAIL_CAP_MIN);
        e->rail_cut_at[i] = e->rail_acks[i] + e->rail_inflight[i];
        e->stats.rail_cuts++;
    }
}

/* How long a frame queued on rail r now waits in this host before it
 * leaves: its interface's queue holds our earlier frames (a NIC slower
 * than the host, or a rate limit). An ACK that waits there waits for us,
 * not on the path: it goes into the ACK's hold (PROTOCOL.md 8.4), or the
 * peer's delay-based window counts our own data's queue, both ways at
 * once on one rail. The queue drains at the wire's rate, measured here
 * (bytes handed to the rail less the queue's growth, between two samples
 * where no more drained than the first found queued: a FIFO that never
 * emptied meanwhile); the interface's speed says nothing of a rate limit.
 * The caller bounds the result (an fq qdisc serves a small frame at
 * once, and the socket counts its buffers' sizes, not bytes). */
double hxb_core_rail_wait(hxb_engine_t *e, int r)
{
    hxb_rail_t *rail = e->rails[r];
    double dt = e->now - e->bl_at[r], rate, drained;
    long q;

    if (!rail->ops->backlog ||
        (e->bl_q[r] == 0 && rail->stats.tx_bytes == e->bl_tx[r])) {
        return 0;           /* nothing sent since the queue was empty */
    }
    q = rail->ops->backlog(rail);
    if (q <= 0) {
        e->bl_q[r] = 0;
        e->bl_at[r] = e->now;
        e->bl_tx[r] = rail->stats.tx_bytes;
        return 0;
    }
    if (dt >= HXB_DRAIN_SPAN) {
        drained = (double)(rail->stats.tx_bytes - e->bl_tx[r]) - (double)(q - e->bl_q[r]);
        if (drained > 0 && drained <= e->bl_q[r]) {
            rate = drained / dt;
            e->bl_drain[r] = e->bl_drain[r] > 0 ? 0.75 * e->bl_drain[r] + 0.25 * rate
                                                : rate;
        }
        e->bl_q[r] = q;
        e->bl_at[r] = e->now;
        e->bl_tx[r] = rail->stats.tx_bytes;
    }
    rate = e->bl_drain[r] > 0 ? e->bl_drain[r] : rail->speed;
    return q / rate;
}

/* a frame sent on rail r was acked: additive increase, one frame per window */
void hxb_core_rail_acked(hxb_engine_t *e, int r)
{
    e->rail_acks[r]++;
    e->rail_cap[r] = hxb_win_grown(e->rail_cap[r], e->rail_max);
}

void hxb_core_flush_rails(hxb_engine_t *e)
{
    /* one call for all rails when they are all of one kind that can */
    int i, many = e->nrails > 1 && e->rails[0]->ops->flush_many;

    for (i = 1; many && i < e->nrails; i++) {
        many = e->rails[i]->ops == e->rails[0]->ops;
    }
    if (many) {
        e->rails[0]->ops->flush_many(e->rails, e->nrails);
    } else {
        for (i = 0; i < e->nrails; i++) {
            e->rails[i]->ops->flush(e->rails[i]);
        }
    }
    core_rail_backoff(e);
}

/* a read whose request was never sent: its entry is free again; returns
 * its completion */
void *hxb_get_forget(hxb_peer_t *p, uint32_t id)
{
    hxb_get_t *g = &p->e->gets[id % HXB_MAX_GETS];

    g->peer = NULL;
    p->gets_pending--;
    return g->comp;
}
