/* A peer's life: the peer timeout and failure, busy peers (alive but not
 * reading), restarts (a new epoch), cancellation of an owner's operations,
 * and the timers a sleeping caller must wake for. Each module ends its own
 * part of the peer's state; this file says when. */
#include "hxb_engine_int.h"

/* frames not acked (sent or not: with every rail down nothing leaves) or
 * reads whose data has not all come */
static int life_outstanding(const hxb_peer_t *p)
{
    return p->tx.una != p->tx.next || p->gets_pending;
}

void hxb_peer_fail_all(hxb_peer_t *p, int status)
{
    hxb_tx_fail(p, status);
    hxb_ops_fail(p, status);
    hxb_rma_fail(p, status);
}

static void life_fail(hxb_peer_t *p)
{
    hxb_engine_t *e = p->e;

    p->failed = 1;
    e->stats.peers_failed++;
    hxb_peer_fail_all(p, HXB_E_PEER);
    if (e->cb.peer_failed) {
        e->cb.peer_failed(e->cb.arg, p);
    }
}

void hxb_peer_timers(hxb_peer_t *p)
{
    hxb_engine_t *e = p->e;

    if (p->failed) {
        return;
    }
    if (life_outstanding(p) && e->now - hxb_peer_alive_at(p) > e->cfg.peer_timeout) {
        life_fail(p);       /* silent: neither acks nor "busy" (8.7) */
        return;
    }
    hxb_loss_timers(p);
}

/* A frame of the peer said whether it is busy (8.7): alive but not
 * reading, so its silence is no loss. A busy frame acking less than we
 * know it has (a late one) says nothing; any other frame ends the busy
 * spell, and the RTO check put off meanwhile comes back. */
void hxb_peer_busy_rcvd(hxb_peer_t *p, int busy, uint32_t ack)
{
    hxb_engine_t *e = p->e;

    if (busy) {
        e->stats.busy_rcvd++;
        if (ack == p->tx.una) {
            p->busy_at = e->now;
            p->busy = 1;
        }
    } else if (p->busy) {
        p->busy = 0;
        hxb_tx_rto_arm(p, e->now + p->loss.rto);
    }
}

/* The deadlines hxb_peer_timers works to, for a caller that sleeps until a
 * frame arrives or the first of them: the peer timeout while anything is
 * outstanding, and loss detection's (a loss RACK will declare, the next RTO
 * check while frames are in flight, a suspect rail's next probe). Frames
 * queued behind full windows need no timer: only arriving acks open them. */
double hxb_peer_wake_at(const hxb_peer_t *p)
{
    double t = 0;

    if (p->failed) {
        return 0;
    }
    if (life_outstanding(p)) {
        t = hxb_peer_alive_at(p) + p->e->cfg.peer_timeout;
    }
    return hxb_wake_min(t, hxb_loss_wake_at(p));
}

/* The peer restarted (new epoch): what we had in flight to its old
 * incarnation is lost, and its sequence space starts over. The caller
 * hears of it at the next progress (its endpoints to the old run fail). */
void hxb_peer_restart(hxb_peer_t *p, uint32_t epoch)
{
    hxb_engine_t *e = p->e;

    e->stats.peers_reset++;
    hxb_peer_fail_all(p, HXB_E_PEER);
    hxb_core_defer(e, NULL, 0, p);
    hxb_rx_reset(p);
    hxb_tx_reset(p);
    hxb_loss_reset(p);
    p->epoch = epoch;
    p->failed = 0;
    p->last_ack_progress = e->now;
}

/* The owner's operations end (HXB_E_CANCEL): frames already numbered keep
 * their sequence numbers but lose their data, queued operations go, reads
 * drop what still arrives. */
void hxb_peer_cancel(hxb_peer_t *p, void *owner)
{
    hxb_tx_cancel(p, owner);
    hxb_ops_cancel(p, owner);
    hxb_rma_cancel(p, owner);
    hxb_ops_flush_check(p);
}
