/* A peer's life: the peer timeout and failure, busy peers (alive but not
 * reading), restarts (a new epoch), cancellation of an owner's operations,
 * and the timers a sleeping caller must wake for. Each module ends its own
 * part of the peer's state; this file says when. */
#include "hxb_engine_int.h"
#include <string.h>
#include <sys/random.h>

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
    p->failed_unacked = p->tx.next - p->tx.una;   /* failing releases them */
    p->failed_gets = p->gets_pending;
    e->stats.peers_failed++;
    hxb_peer_fail_all(p, HXB_E_PEER);
    if (e->cb.peer_failed) {
        e->cb.peer_failed(e->cb.arg, p);
    }
}

/* away: the caller is away and an idle tick asks. Loss detection's
 * resends are due then too (a peer may wait for a lost frame while our
 * caller waits elsewhere), a failure is not: the acks that would move
 * the peer's ack clock wait unread in our rails. */
void hxb_peer_timers(hxb_peer_t *p, int away)
{
    hxb_engine_t *e = p->e;

    if (p->failed) {
        return;
    }
    if (!away && life_outstanding(p) && e->now - hxb_peer_alive_at(p) > e->cfg.peer_timeout &&
        hxb_engine_listened(e)) {
        life_fail(p);       /* silent: neither acks nor "busy" (8.7) */
        return;
    }
    hxb_loss_timers(p, away);
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
        if (t < p->e->back_at + p->e->cfg.peer_timeout / 2) {
            t = p->e->back_at + p->e->cfg.peer_timeout / 2;
        }
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
    p->busy = 0;                 /* the old run's word */
    p->busy_at = p->busy_probe_at = 0;
    p->last_ack_progress = e->now;
}

/* A frame of a later run of the peer (a higher epoch) ends everything in
 * flight to the current one: it is believed only once that run proves it
 * is there, in the spirit of TCP's challenge ACK (RFC 5961), so that a
 * stray, forged or replayed frame cannot end a peer even with
 * authentication off. We PING the peer's known address (not the frame's
 * source) with the claimed epoch as destination and a random nonce; only a
 * process of that run at that address takes the PING (any other drops it as
 * not its own) and echoes the nonce in its PONG, the proof. Returns 1 for
 * that PONG; else 0, having challenged (at most once an rto_min), and the
 * frame is dropped: the new run resends it. */
int hxb_peer_epoch_proven(hxb_peer_t *p, const hxb_rail_t *rail, const hxb_hdr_t *h,
                          size_t size)
{
    hxb_engine_t *e = p->e;
    const hxb_ping_ext_t *x = (const hxb_ping_ext_t *)(h + 1);
    hxb_ping_ext_t ping;
    int r = rail->index;

    if (h->kind == HXB_K_PONG && size >= sizeof(*h) + sizeof(*x) && p->chal_at > 0 &&
        h->src_epoch == p->chal_epoch && x->rail == HXB_PING_CHALLENGE &&
        x->stamp == p->chal_nonce) {
        p->chal_at = 0;
        return 1;
    }
    if (p->chal_at > 0 && p->chal_epoch == h->src_epoch &&
        e->now - p->chal_at < e->cfg.rto_min) {
        return 0;
    }
    if (!(p->rail_mask & (1u << r))) {
        r = p->rail_mask ? __builtin_ctz(p->rail_mask) : -1;
    }
    memset(&ping, 0, sizeof(ping));
    if (getrandom(&ping.stamp, sizeof(ping.stamp), GRND_NONBLOCK) != sizeof(ping.stamp)) {
        ping.stamp ^= (uint64_t)(e->now * 1e9) * 0x9e3779b97f4a7c15ull;
    }
    ping.rail = HXB_PING_CHALLENGE;
    p->chal_epoch = h->src_epoch;
    p->chal_nonce = ping.stamp;
    p->chal_at = e->now > 0 ? e->now : 1e-9;
    e->stats.challenges++;
    hxb_tx_send_ctl_to(p, r, h->src_epoch, HXB_K_PING, &ping, sizeof(ping));
    return 0;
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
