/* Congestion control of the paths to a peer (a path: the frames to one
 * peer that leave on one of our rails): a window per path that grows with
 * acks (slow start, then a frame per window), halves on a run of losses
 * within a round trip, shrinks on a standing queue (delay), and returns
 * when the losses prove spurious (undo). The rails' own windows are in
 * hxb_core.c. */
#include "hxb_engine_int.h"

#include <string.h>

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
void hxb_cc_delay(hxb_peer_t *p, int r, double sent_at, double rtt)
{
    hxb_engine_t *e = p->e;
    double target = e->cfg.cc_target, q, f;

    /* frames sent before the last cut queued behind the old window */
    if (target <= 0 || sent_at < p->cc.path[r].dcut) {
        return;
    }
    e->stats.cc_delay_samples++;
    if (e->now >= p->cc.base_renew) {
        int i;
        for (i = 0; i < HXB_MAX_RAILS; i++) {
            p->cc.path[i].base = p->cc.path[i].base_next;
            p->cc.path[i].base_next = 0;
        }
        p->cc.base_renew = e->now + HXB_CC_BASE_SPAN;
    }
    if (p->cc.path[r].base == 0 || rtt < p->cc.path[r].base) p->cc.path[r].base = rtt;
    if (p->cc.path[r].base_next == 0 || rtt < p->cc.path[r].base_next) p->cc.path[r].base_next = rtt;
    if (p->cc.path[r].pmin == 0) {
        /* A period opens with a sample and closes with the first sample of
         * a frame sent after it opened: a round trip. After a stall (a
         * receiver or sender off the CPU) every ack of the frames sent
         * before it is late, several ACKs' worth; they fall in one period
         * with the first frame sent after the stall, which is not late. */
        p->cc.path[r].pmin = rtt;
        p->cc.path[r].popen = e->now;
        return;
    }
    if (rtt < p->cc.path[r].pmin) p->cc.path[r].pmin = rtt;
    if (sent_at < p->cc.path[r].popen) {
        return;
    }
    q = p->cc.path[r].pmin - p->cc.path[r].base;
    if (q > target / 2) {
        p->cc.ss &= ~(1u << r);
    }
    if (q > target) {
        /* not below HXB_CC_WIN_MIN: a host whose cores are saturated
         * (8 rails of 1 Gbit/s here) delays frames where hold times do not
         * see it too (in the kernel before the receive stamp), and a
         * window of a few frames idles fast rails; a full queue still
         * halves it below that (losses) */
        f = 1 - HXB_CC_BETA * (q - target) / p->cc.path[r].pmin;
        f = p->cc.path[r].cwnd * (f < 0.5 ? 0.5 : f);
        if (f < HXB_CC_WIN_MIN * e->wscale) f = HXB_CC_WIN_MIN * e->wscale;
        if (f < p->cc.path[r].cwnd) p->cc.path[r].cwnd = f;
        p->cc.over |= 1u << r;
        p->cc.path[r].dcut = e->now;
        e->stats.cc_delay_cuts++;
    } else {
        p->cc.over &= ~(1u << r);
    }
    p->cc.path[r].pmin = 0;
}

/* Frame s, sent on its rail towards p, was found lost. Scattered losses
 * are taken for noise (corrupt frames, a descheduled peer's ring): random
 * loss must not throttle a path. HXB_CWND_LOSSES losses found within one
 * round trip are a full queue on the path, which drops frames in runs:
 * halve the path's window, once per round trip (losses of frames sent
 * before the halving are part of the same event). */
void hxb_cc_loss(hxb_peer_t *p, const hxb_txslot_t *s)
{
    hxb_engine_t *e = p->e;
    int r = s->rail;

    if (s->sent_at < p->cc.path[r].cut) {
        return;
    }
    if (e->now - p->cc.path[r].first > p->loss.srtt) {
        p->cc.path[r].first = e->now;
        p->cc.path[r].losses = 0;
    }
    if (++p->cc.path[r].losses < HXB_CWND_LOSSES) {
        return;
    }
    if (e->now >= p->cc.episode_end) {
        /* a new episode: its retransmissions so far are this event's */
        int i;
        for (i = 0; i < HXB_MAX_RAILS; i++) {
            p->cc.path[i].prior = 0;
        }
        p->cc.retx = HXB_CWND_LOSSES - 1;
        p->cc.dups = 0;
    }
    /* a duplicate is reported a round trip after its retransmission, a
     * scheduler time slice later if the peer is descheduled */
    p->cc.episode_end = e->now + (4 * p->loss.rto > HXB_CWND_UNDO_SPAN ?
                                  4 * p->loss.rto : HXB_CWND_UNDO_SPAN);
    if (p->cc.path[r].prior == 0) {
        p->cc.path[r].prior = p->cc.path[r].cwnd;
    }
    p->cc.path[r].cwnd = hxb_win_halved(p->cc.path[r].cwnd, HXB_CWND_MIN);
    p->cc.ss &= ~(1u << r);
    p->cc.path[r].cut = e->now;
    p->cc.path[r].losses = 0;
    e->stats.cwnd_cuts++;
}

/* Every retransmission of the open episode came back as a duplicate: the
 * cuts were for late frames, not lost ones (like TCP's DSACK undo) */
static void cc_undo(hxb_peer_t *p)
{
    int r;

    if (p->e->now >= p->cc.episode_end || p->cc.dups < p->cc.retx) {
        return;
    }
    for (r = 0; r < p->e->nrails; r++) {
        if (p->cc.path[r].prior > p->cc.path[r].cwnd) {
            p->cc.path[r].cwnd = p->cc.path[r].prior;
        }
        p->cc.path[r].prior = 0;
    }
    p->cc.episode_end = 0;
    p->e->stats.cwnd_undos++;
}

/* The peer received n duplicates: if they account for every retransmission
 * of the open episode, its cuts were for late frames (undo) */
void hxb_cc_spurious(hxb_peer_t *p, unsigned n)
{
    p->cc.dups += n;
    cc_undo(p);
}

/* a frame was sent again: an episode's undo waits for its duplicate */
void hxb_cc_retransmitted(hxb_peer_t *p)
{
    p->cc.retx++;
}

/* a frame sent once on rail r was acked: the path's window grows (by a
 * frame in slow start, else by a frame per window), unless its period
 * found a standing queue */
void hxb_cc_acked(hxb_peer_t *p, int r)
{
    double max = p->e->rail_max;

    if (p->cc.ss & (1u << r)) {
        p->cc.path[r].cwnd += 1;
        if (p->cc.path[r].cwnd > max) p->cc.path[r].cwnd = max;
    } else if (!(p->cc.over & (1u << r))) {
        p->cc.path[r].cwnd = hxb_win_grown(p->cc.path[r].cwnd, max);
    }
}

/* a new peer: every path in slow start from HXB_CWND_INIT (with delay
 * control; without it, at the rail's window) */
void hxb_cc_init(hxb_peer_t *p)
{
    const hxb_engine_cfg_t *c = &p->e->cfg;
    double max = p->e->rail_max;
    int r;

    for (r = 0; r < HXB_MAX_RAILS; r++) {
        p->cc.path[r].cwnd = c->cc_target > 0 && HXB_CWND_INIT < max ? HXB_CWND_INIT : max;
    }
    p->cc.ss = c->cc_target > 0 ? ~0u : 0;
}
