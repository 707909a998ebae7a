/* Loss detection and retransmission: round-trip estimates (per peer and
 * per path), per-lane and time-based (RACK) loss detection, the
 * retransmission timeout, spurious retransmissions (reordering window),
 * and suspect rails, probed by PING until a PONG clears them. */
#include "hxb_engine_int.h"

#include <string.h>

/* RFC 6298 smoothing: gains 1/8 for the mean, 1/4 for the deviation */
void hxb_rtt_smooth(double *srtt, double *rttvar, double rtt)
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

/* RFC 6298's timeout for an estimate: the mean and four deviations */
static inline double loss_rtt_bound(double srtt, double rttvar)
{
    return srtt + 4 * rttvar;
}

/* the raised bound (rto_ext) halves once per HXB_RTO_EXT_DECAY, and ends
 * below UCX_HXB_RTO_MAX */
static void loss_rto_ext_decay(hxb_peer_t *p)
{
    if (p->loss.rto_ext > 0 && p->e->now >= p->loss.rto_ext_decay_at) {
        p->loss.rto_ext /= 2;
        p->loss.rto_ext_decay_at = p->e->now + HXB_RTO_EXT_DECAY;
        if (p->loss.rto_ext < p->e->cfg.rto_max) {
            p->loss.rto_ext = 0;
        }
    }
}

/* The largest RTO: UCX_HXB_RTO_MAX bounds the backoff, never the round
 * trip itself, nor a peer proven slower than it. A peer that answers after
 * 300 ms (off the CPU on an oversubscribed node) with the timeout held at
 * 200 ms had every frame resent while its ack was on the way: each resend
 * makes its frame useless for timing (Karn), so the estimate never learned,
 * and the resends loaded the peer further. Duplicates it reports (resends
 * that were not needed) raise the bound (rto_ext, halving back once per
 * HXB_RTO_EXT_DECAY) until a frame's ack beats its timeout and is timed.
 * RFC 6298 puts the bound at 60 s, above any estimate; ours is a quarter
 * of the peer timeout too. */
static double loss_rto_cap(const hxb_peer_t *p)
{
    double cap = loss_rtt_bound(p->loss.srtt, p->loss.rttvar);

    cap = cap > p->loss.rto_ext ? cap : p->loss.rto_ext;
    cap = cap > p->e->cfg.rto_max ? cap : p->e->cfg.rto_max;
    /* a lost frame is resent a few times before the peer timeout fails
     * the peer: RTOs beyond a quarter of it would fail peers on two
     * losses in a row (also below UCX_HXB_RTO_MAX: a timeout under 0.8 s) */
    if (cap > p->e->cfg.peer_timeout / 4) {
        cap = p->e->cfg.peer_timeout / 4;
    }
    return cap > HXB_RTO_CEIL ? HXB_RTO_CEIL : cap;
}

void hxb_loss_rtt_sample(hxb_peer_t *p, double rtt)
{
    const hxb_engine_cfg_t *c = &p->e->cfg;
    double cap;

    if (p->loss.min_rtt == 0 || rtt < p->loss.min_rtt) {
        p->loss.min_rtt = rtt;
    }
    hxb_rtt_smooth(&p->loss.srtt, &p->loss.rttvar, rtt);
    p->loss.rto = loss_rtt_bound(p->loss.srtt, p->loss.rttvar);
    if (p->loss.rto < c->rto_min) p->loss.rto = c->rto_min;
    loss_rto_ext_decay(p);
    cap = loss_rto_cap(p);
    if (p->loss.rto > cap) p->loss.rto = cap;
}

/* Stop preferring rail r for this peer and probe it at once; a PONG
 * restores it (hxb_loss_pong_rcvd), so a rail suspected wrongly is back after one
 * round trip. The frames in flight on it stay: RACK finds each one lost
 * when it is due. Moving them all at once doubled a deep queue's worth of
 * frames whenever a rail was merely slow, and the duplicates slowed the
 * other rails into suspicion in turn. */
static void loss_suspect_rail(hxb_peer_t *p, int r)
{
    hxb_engine_t *e = p->e;

    p->loss.suspect |= 1u << r;
    p->loss.path[r].suspect_since = e->now - e->cfg.probe_interval;
    e->stats.rail_failovers++;
}

/* The peer received n duplicates: retransmissions were spurious, frames
 * were late, not lost. Widen the reordering window (RFC 8985's DSACK
 * rule); it shrinks back over time (loss_reo_window). */
void hxb_loss_spurious(hxb_peer_t *p, unsigned n)
{
    p->e->stats.spurious += n;
    hxb_cc_spurious(p, n);
    if (p->loss.rto >= p->e->cfg.rto_max) {
        /* resent at the largest timeout, and still not needed (a larger
         * bound raised before stays) */
        if (p->loss.rto_ext < 2 * p->loss.rto) {
            p->loss.rto_ext = 2 * p->loss.rto;
        }
        p->loss.rto_ext_decay_at = p->e->now + HXB_RTO_EXT_DECAY;
    }
    if (p->loss.reo_mult < 64) {
        p->loss.reo_mult = p->loss.reo_mult ? p->loss.reo_mult * 2 : 2;
    }
    p->loss.reo_decay_at = p->e->now + HXB_REO_DECAY;
}

/* what a frame on rail r usually takes to be acked: that rail's own
 * smoothed round trip and four deviations (rails queue differently) */
static double loss_rail_rtt_bound(const hxb_peer_t *p, int r)
{
    return loss_rtt_bound(p->loss.path[r].srtt, p->loss.path[r].rttvar);
}

/* How long the peer may hold its ack of frame s (PROTOCOL.md 8.4): a
 * frame sent with HXB_F_MORE is acked with the frames behind it, at most
 * the slack times UCX_HXB_ACK_DELAY later; others are acked as soon as the
 * peer's queues drain. A timer that leaves this out finds frames lost that
 * are only not yet acked (QUIC adds the peer's max_ack_delay likewise,
 * RFC 9002 6.2.1). Round trips do not cover it: they are sampled from the
 * freshest frame an ACK covers, which waited least. */
static double loss_ack_wait(const hxb_peer_t *p, const hxb_txslot_t *s)
{
    const hxb_hdr_t *h = (const hxb_hdr_t *)s->hb;

    return h->flags & HXB_F_MORE ? HXB_ACK_SLACK * p->e->cfg.ack_delay : 0;
}

/* how late a frame may be, beyond its round trip, before it counts lost:
 * a quarter of the round trip (RFC 8985 takes a quarter of the least one).
 * An eighth was too little where rails queue: a rail's round trip sits
 * still (rttvar a few us) and then one rail runs 15-20 % behind the
 * others for a while (the testbed's token buckets, bursts of a whole
 * window): 18-476 spurious resends per 400 MiB over 4 rails at MTU 1500,
 * 0-46 with a quarter. */
static double loss_reo_window(hxb_peer_t *p)
{
    double reo = p->loss.srtt / 4, cap = loss_rtt_bound(p->loss.srtt, p->loss.rttvar);

    if (reo < 100e-6) {
        reo = 100e-6;
    }
    if (p->loss.reo_mult > 1) {
        if (p->e->now >= p->loss.reo_decay_at) {
            p->loss.reo_mult /= 2;
            p->loss.reo_decay_at = p->e->now + HXB_REO_DECAY;
        }
        reo *= p->loss.reo_mult;
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
static void loss_detect(hxb_peer_t *p, int timer)
{
    hxb_engine_t *e = p->e;
    double now = e->now, next = 0, reo, due, span, horizon, wait;
    uint32_t seq;
    int lane;

    reo = loss_reo_window(p);
    /* Both rules need a frame sent before an acked one, at `horizon` at the
     * latest. Frames are first sent in sequence order, so the first one
     * sent only once and after the horizon ends the scan: all later ones,
     * retransmitted or not, left later still. Per ack, this scans the
     * frames acks are about, not the whole window. */
    horizon = p->loss.rack_sent;
    for (lane = 0; lane < e->nrails * HXB_RAIL_LANES; lane++) {
        if (p->loss.lane_hi_sent[lane] > horizon) {
            horizon = p->loss.lane_hi_sent[lane];
        }
    }
    for (seq = p->tx.una; seq != p->tx.push; seq++) {
        hxb_txslot_t *s = HXB_TX_SLOT(p, seq);
        if (s->retx == 0 && s->sent_at > horizon) {
            break;
        }
        if (s->state != TX_INFLIGHT) {
            continue;
        }
        if (hxb_seq_lt(s->rail_ctr, p->loss.lane_hi[s->lane])) {
            e->stats.fast_retx++;
            hxb_cc_loss(p, s);
            hxb_tx_retransmit(p, seq, s);
            continue;
        }
        if (s->sent_at >= p->loss.rack_sent) {
            continue;
        }
        /* overdue by the later frame's round trip and by what this
         * frame's own rail usually takes (rails queue differently) */
        span = loss_rail_rtt_bound(p, s->rail);
        if (span < p->loss.rack_rtt) {
            span = p->loss.rack_rtt;
        }
        due = s->sent_at + span + reo;
        wait = loss_ack_wait(p, s);
        if (now < due || (timer && now < due + wait)) {
            if (!next || due + wait < next) {
                next = due + wait;
            }
            continue;
        }
        e->stats.rack_retx++;
        if (++p->loss.path[s->rail].losses >= 4 &&
            p->loss.path[s->rail].last_ack < s->sent_at &&
            !(p->loss.suspect & (1u << s->rail))) {
            /* several frames lost on this rail and nothing came back on it
             * since they left, while later frames on other rails did */
            loss_suspect_rail(p, s->rail);
        }
        hxb_cc_loss(p, s);
        hxb_tx_retransmit(p, seq, s);
    }
    p->loss.rack_check_at = next;
}

void hxb_loss_detect(hxb_peer_t *p)
{
    loss_detect(p, 0);
}

/* RACK's reference: the latest-sent frame known delivered. A retransmitted
 * frame counts too (else a lost retransmission could only be found by the
 * RTO), unless its ack came sooner than any round trip could: then the ack
 * is for the earlier transmission. */
static void loss_rack_update(hxb_peer_t *p, const hxb_txslot_t *s)
{
    double rtt = p->e->now - s->sent_at;

    if (!p->e->cfg.rack || s->state != TX_INFLIGHT || s->sent_at <= p->loss.rack_sent ||
        (s->retx && rtt < p->loss.min_rtt)) {
        return;
    }
    p->loss.rack_sent = s->sent_at;
    p->loss.rack_rtt = rtt;
}

void hxb_loss_acked(hxb_peer_t *p, const hxb_txslot_t *s)
{
    loss_rack_update(p, s);
    /* Only a frame sent once tells which transmission arrived: an ack of a
     * retransmitted frame may be for the original, on another rail, and
     * would make frames still in flight on the new rail look lost. */
    if (s->state != TX_INFLIGHT || s->retx != 0) {
        return;
    }
    /* each rail has its own queue: its own round trip, for RACK */
    hxb_rtt_smooth(&p->loss.path[s->rail].srtt, &p->loss.path[s->rail].rttvar,
                   p->e->now - s->sent_at);
    p->loss.path[s->rail].losses = 0;
    p->loss.path[s->rail].last_ack = p->e->now;
    if (hxb_seq_lt(p->loss.lane_hi[s->lane], s->rail_ctr)) {
        p->loss.lane_hi[s->lane] = s->rail_ctr;
        p->loss.lane_hi_sent[s->lane] = s->sent_at;
    }
    p->loss.suspect &= ~(1u << s->rail);
}

/* An ack of new data (the cumulative ack moved): the next RTO check comes
 * no sooner than an RTO from now, as TCP restarts its timer (RFC 6298,
 * 5.3). The check was set for the oldest frame then in flight, which is
 * acked now: a sender asleep while acks flow woke for it for nothing
 * (MTU 1500, 1 rail: 3 562 of its 8 512 sleeps). A frame is still due by
 * its own send time when the check comes; a lost one stops the cumulative
 * ack, and from then on nothing puts its check off. */
void hxb_loss_ack_progress(hxb_peer_t *p)
{
    double at = p->e->now + p->loss.rto;

    if (p->tx.rto_at < at) {
        hxb_tx_rto_set(p, at);
    }
}

/* a new peer: its rails get the benefit of the doubt */
void hxb_loss_init(hxb_peer_t *p)
{
    int r;

    p->loss.rto = p->e->cfg.rto_init;
    for (r = 0; r < HXB_MAX_RAILS; r++) {
        p->loss.path[r].last_ack = p->e->now;
    }
}

/* Rail r acknowledged nothing since `since` while another rail did: the
 * rail, not the peer, is the problem. When every rail is silent the peer
 * (descheduled, its queues deep) is, and moving frames would only add
 * duplicates to its backlog. */
static int loss_rail_silent_alone(const hxb_peer_t *p, int r, double since)
{
    int q;

    if (p->loss.path[r].last_ack >= since) {
        return 0;
    }
    for (q = 0; q < p->e->nrails; q++) {
        if (q != r && (p->rail_mask & (1u << q)) && p->loss.path[q].last_ack > since) {
            return 1;
        }
    }
    return 0;
}

/* A busy peer is not resent to, but for one frame (the oldest due) once
 * per half a peer timeout without ack progress (the ack clock, not the
 * busy spell: a peer whose spells keep restarting would put it off for
 * ever): "busy" says it has not read
 * what waits in its host, not that what we sent got there. A peer off the
 * CPU between its passes (16 polling ranks on 2 cores) says it is busy at
 * every period while it polls, and a frame lost on the way to it was then
 * never resent: both ends waited for ever (the Open MPI 5 hang of issue
 * 28). A frame merely unread comes back as one duplicate. */
static double loss_busy_probe_at(const hxb_peer_t *p)
{
    double from = p->busy_probe_at > p->last_ack_progress ? p->busy_probe_at
                                                          : p->last_ack_progress;

    return from + p->e->cfg.peer_timeout / 2;
}

/* What is due of loss detection when no ack came: a RACK loss, the
 * retransmission timeout, a suspect rail's probe. away: the caller is away
 * and an idle tick asks (PROTOCOL.md 8.7). The tick reads nothing, so acks
 * of what it resends wait unread: one frame per timeout, the oldest not
 * acked by a frame the tick saw waiting (p->peeked_ack), with the backoff,
 * and no rail suspected for a silence nobody listened to. */
void hxb_loss_timers(hxb_peer_t *p, int away)
{
    hxb_engine_t *e = p->e;
    double now = e->now;
    uint32_t seq;
    int r;

    if (p->loss.rack_check_at && now >= p->loss.rack_check_at) {
        loss_detect(p, 1);
    }
    /* RTO, checked when the first frame in flight can be due, at most every
     * rto_min/2 (a sleeping sender wakes for nothing else). Like TCP, a timeout resends
     * only the oldest frame: if it was merely late (a descheduled peer,
     * a deep queue) little is wasted, and if frames were really lost the
     * ack of the resent one lets per-rail loss detection find the rest.
     * Only when the frame's rail has acknowledged nothing for two timeouts
     * is the rail suspect, and then everything in flight on it moves. */
    if (now >= p->tx.rto_at && p->tx.inflight && hxb_peer_busy(p, now) &&
        now < loss_busy_probe_at(p)) {
        /* what it has not read waits in its host: resending, or suspecting
         * rails, would only fill its queues (8.7) */
        double at = loss_busy_probe_at(p);
        hxb_tx_rto_set(p, hxb_wake_min(at, p->busy_at + e->cfg.peer_timeout / 2));
    } else if (now >= p->tx.rto_at && p->tx.inflight) {
        hxb_txslot_t *old = NULL;
        uint32_t old_seq = 0;
        double rto[HXB_MAX_RAILS], cap;

        loss_rto_ext_decay(p);
        cap = loss_rto_cap(p);
        /* a frame times out by its own rail's round trip too: the peer's
         * estimate follows the freshest frames, which found short queues.
         * Bounded as the RTO is: a rail whose round trips swung by seconds
         * (a peer off the CPU now and then) has a bound beyond the peer
         * timeout, and a frame lost on it was never resent before the
         * peer failed. */
        for (r = 0; r < e->nrails; r++) {
            rto[r] = loss_rail_rtt_bound(p, r);
            if (rto[r] > cap) {
                rto[r] = cap;
            }
            if (rto[r] < p->loss.rto) {
                rto[r] = p->loss.rto;
            }
        }
        double first = 0;       /* the earliest deadline not yet due */
        double lane_due[HXB_MAX_LANES] = {0};
        unsigned due = 0;

        for (seq = p->tx.una; seq != p->tx.push; seq++) {
            hxb_txslot_t *s = HXB_TX_SLOT(p, seq);
            double at;

            if (s->state != TX_INFLIGHT ||
                (away && p->peeked && hxb_seq_lt(seq, p->peeked_ack))) {
                continue;       /* acked, the ack waiting unread */
            }
            /* A lane keeps order: a frame cannot be acked before the
             * frames sent ahead of it in its lane have arrived, so it is
             * not due before they are. (The last frame before the windows
             * close asks for a prompt ack, those before it wait for it.) */
            at = s->sent_at + rto[s->rail] + loss_ack_wait(p, s);
            if (s->retx == 0) {
                if (at < lane_due[s->lane]) {
                    at = lane_due[s->lane];
                }
                lane_due[s->lane] = at;
            }
            if (now < at) {
                first = hxb_wake_min(first, at);
                continue;
            }
            due++;
            if (!old || s->sent_at < old->sent_at) {
                old = s;
                old_seq = seq;
            }
        }
        if (due > 1 && !away) {
            first = now;            /* the others at the next check */
        }
        if (old) {
            r = old->rail;
            e->stats.rto_fired++;
            if (!away && loss_rail_silent_alone(p, r, old->sent_at) && !hxb_peer_busy(p, now) &&
                !(p->loss.suspect & (1u << r))) {
                loss_suspect_rail(p, r);
            }
            hxb_tx_retransmit(p, old_seq, old);
            if (hxb_peer_busy(p, now)) {
                p->busy_probe_at = now;
            }
            p->loss.rto *= 2;
            if (p->loss.rto > cap) {
                p->loss.rto = cap;
            }
            first = away ? now + p->loss.rto : hxb_wake_min(first, now + p->loss.rto);
        }
        if (!first || first < now + e->cfg.rto_min / 2) {
            first = now + e->cfg.rto_min / 2;
        }
        hxb_tx_rto_set(p, first);
    }
    /* probe suspect rails; a PONG clears them (hxb_loss_pong_rcvd) */
    for (r = 0; r < e->nrails; r++) {
        if ((p->loss.suspect & (1u << r)) &&
            now - p->loss.path[r].suspect_since >= e->cfg.probe_interval) {
            hxb_ping_ext_t ping = {.stamp = 0, .rail = (uint8_t)r};
            memcpy(&ping.stamp, &now, sizeof(now));
            p->loss.path[r].suspect_since = now;
            hxb_tx_send_ctl(p, r, HXB_K_PING, &ping, sizeof(ping));
        }
    }
}

/* the deadlines of hxb_loss_timers (0: none) */
double hxb_loss_wake_at(const hxb_peer_t *p)
{
    const hxb_engine_cfg_t *c = &p->e->cfg;
    double t = p->loss.rack_check_at;
    int r;

    if (p->tx.inflight) {
        t = hxb_wake_min(t, p->tx.rto_at);
    }
    for (r = 0; r < p->e->nrails; r++) {
        if (p->loss.suspect & (1u << r)) {
            t = hxb_wake_min(t, p->loss.path[r].suspect_since + c->probe_interval);
        }
    }
    return t;
}

/* PING on a suspect rail: answer on the rail it came in on */
void hxb_loss_ping_rcvd(hxb_peer_t *p, const hxb_rail_t *rail, const hxb_hdr_t *h)
{
    hxb_tx_send_ctl(p, rail->index, HXB_K_PONG, h + 1, sizeof(hxb_ping_ext_t));
}

/* a PONG: the rail it names works again */
void hxb_loss_pong_rcvd(hxb_peer_t *p, const hxb_hdr_t *h)
{
    const hxb_ping_ext_t *x = (const hxb_ping_ext_t *)(h + 1);

    if (x->rail < HXB_MAX_RAILS) {
        p->loss.suspect &= ~(1u << x->rail);
        p->loss.path[x->rail].last_ack = p->e->now;
    }
}

/* the peer restarted: nothing of the old sequence space is in flight */
void hxb_loss_reset(hxb_peer_t *p)
{
    int r;

    memset(p->loss.lane_hi, 0, sizeof(p->loss.lane_hi));
    memset(p->loss.lane_hi_sent, 0, sizeof(p->loss.lane_hi_sent));
    p->loss.reo_mult = 0;
    p->loss.rack_sent = p->loss.rack_rtt = p->loss.rack_check_at = 0;
    for (r = 0; r < HXB_MAX_RAILS; r++) {
        p->loss.path[r].losses = 0;
    }
}
