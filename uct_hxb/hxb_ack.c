/* Acknowledgements, both ways: as receiver, which frames are owed an ACK
 * and when it goes (coalescing, hold times, the rail it takes), and ERR
 * frames for refused ones; as sender, what an ACK or a piggybacked
 * cumulative ack releases, the round trips it measures, and the loss
 * detection it triggers. */
#include "hxb_engine_int.h"

#include <string.h>

/* a frame in flight was acknowledged: what it tells loss detection, and,
 * sent only once, the windows of its rail and path */
static void ack_path_acked(hxb_peer_t *p, hxb_txslot_t *s)
{
    hxb_loss_acked(p, s);
    /* Only a frame sent once tells which transmission arrived: an ack of a
     * retransmitted frame may be for the original, on another rail. */
    if (s->state != TX_INFLIGHT || s->retx != 0) {
        return;
    }
    hxb_core_rail_acked(p->e, s->rail);
    hxb_cc_acked(p, s->rail);
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

void hxb_ack_rcvd(hxb_peer_t *p, uint32_t cum, const void *bits,
                     unsigned nbits, uint32_t hold_seq, double hold_at)
{
    hxb_engine_t *e = p->e;
    double now = e->now, newest = 0, cc_sent = 0;
    uint32_t seq, base;
    uint64_t word = 0;
    unsigned i;
    int lost_check = 0, cc_rail = 0;

    /* an ack for frames never sent is corrupt or forged: ignore it */
    if (hxb_seq_lt(p->tx.push, cum)) {
        return;
    }
    /* ACKs ride on different rails and may arrive out of order: an older
     * one still carries valid selective bits, relative to its own cum */
    base = cum;
    if (hxb_seq_lt(cum, p->tx.una)) {
        cum = p->tx.una;
    }
    if (cum != p->tx.una) {
        /* released slots get reused: no queued frame may still point at one */
        hxb_core_flush_rails(e);
    }
    for (seq = p->tx.una; seq != cum; seq++) {
        hxb_txslot_t *s = HXB_TX_SLOT(p, seq);
        ack_times(s, seq, hold_seq, &newest, &cc_sent, &cc_rail);
        ack_path_acked(p, s);
        hxb_tx_slot_release(p, s, 0);
        lost_check = 1;
    }
    if (cum != p->tx.una) {
        hxb_tx_acked_to(p, cum);
        p->last_ack_progress = now;
        hxb_loss_ack_progress(p);
    }
    for (i = 0; i < nbits; i++) {
        if (i % 64 == 0) {      /* the bitmap sits at offset 60 in the frame */
            memcpy(&word, (const char *)bits + i / 8, sizeof(word));
        }
        if (!(word & (1ull << (i % 64)))) {
            continue;
        }
        seq = base + 1 + i;
        if (!hxb_seq_lt(seq, p->tx.push)) {
            break;
        }
        if (hxb_seq_lt(seq, p->tx.una)) {
            continue;
        }
        hxb_txslot_t *s = HXB_TX_SLOT(p, seq);
        if (s->state == TX_INFLIGHT) {
            ack_times(s, seq, hold_seq, &newest, &cc_sent, &cc_rail);
            ack_path_acked(p, s);
            hxb_tx_sacked(p, s);
            lost_check = 1;
        }
    }
    if (newest > 0) {
        hxb_loss_rtt_sample(p, now - newest);  /* one sample per ACK: the freshest */
    }
    /* hold_at 0: no hold (piggybacked); a sample must be positive (0 means
     * "unset" in hxb_cc_delay) */
    if (cc_sent > 0 && hold_at > cc_sent) {
        hxb_cc_delay(p, cc_rail, cc_sent, hold_at - cc_sent);
    }
    if (lost_check) {
        hxb_loss_detect(p);
    }
    hxb_ops_flush_check(p);
}

/* ERR: the peer refused one of our frames (PROTOCOL.md 8.12) */
void hxb_err_rcvd(hxb_peer_t *p, uint32_t seq, uint32_t status)
{
    if (!hxb_seq_le(p->tx.una, seq) || !hxb_seq_lt(seq, p->tx.push)) {
        return;
    }
    hxb_ops_refused(p, seq, status);
}

/* The rail for an ACK or ERR: the least loaded of those the peer's frames
 * came in on since our last ACK, else of the other usable rails, leaving
 * out suspect rails and those our ACKs seem lost on while others remain.
 * Not by load alone: with nothing of ours in flight that was always the
 * first rail, and where the path from it was dead (a relayed peer whose
 * first relay lost its link) the peer never heard from us and failed us. */
int hxb_ack_ctl_rail(hxb_peer_t *p)
{
    hxb_engine_t *e = p->e;
    uint32_t up = 0, good;
    double best = 1e300, load;
    int r, pick = -1;

    for (r = 0; r < e->nrails; r++) {
        up |= (uint32_t)!!e->rails[r]->up << r;
    }
    up &= p->rail_mask;
    if (p->ack.avoid && e->now - p->ack.avoid_at > HXB_ACK_AVOID) {
        p->ack.avoid = 0;
    }
    good = up & ~p->loss.suspect & ~p->ack.avoid;
    if (!good) {
        good = up & ~p->loss.suspect & ~p->ack.rail;   /* move on, at least */
    }
    if (!good) {
        good = up;
    }
    if (good & p->ack.rails_in) {
        good &= p->ack.rails_in;
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

/* The next ACK, which covers the refused frame, follows the ERR on its
 * rail: on another rail it could arrive first, and the sender would
 * complete the operation as a success before it heard of the refusal */
void hxb_err_send(hxb_peer_t *p, uint32_t seq, uint32_t status)
{
    hxb_err_ext_t ext = {.seq = seq, .status = status};
    int r = hxb_ack_ctl_rail(p);

    hxb_tx_send_ctl(p, r, HXB_K_ERR, &ext, sizeof(ext));
    p->ack.err_rail = (uint32_t)(r + 1);
}

static void ack_send(hxb_peer_t *p, int r)
{
    struct {
        hxb_ack_ext_t ext;
        uint64_t      bits[HXB_SACK_BITS / 64];
    } a;
    uint32_t span = p->rx.hi - p->rx.next, i;
    unsigned nbits = 0;

    memset(&a, 0, sizeof(a));
    a.ext.cum = p->rx.next;
    if (span > 1) {
        nbits = ((span - 1 + 63) / 64) * 64;
        /* whole 64-bit words (the wire requires it), even when the
         * window is smaller: span <= window keeps the bits in it */
        if (nbits > HXB_SACK_BITS) {
            nbits = HXB_SACK_BITS;
        }
        for (i = 0; i < nbits && i + 1 < span; i++) {
            if (HXB_RX_SLOT(p, p->rx.next + 1 + i)->state != RX_EMPTY) {
                a.bits[i / 64] |= 1ull << (i % 64);
            }
        }
    }
    a.ext.nbits = (uint16_t)nbits;
    a.ext.dups = p->ack.dups;
    a.ext.hold_seq = p->ack.hold_seq;
    a.ext.hold_us = HXB_HOLD_NONE;
    if (p->ack.err_rail && p->e->rails[p->ack.err_rail - 1]->up) {
        r = (int)p->ack.err_rail - 1;    /* behind our ERR (hxb_err_send) */
    }
    p->ack.err_rail = 0;
    if (r < 0) {
        r = hxb_ack_ctl_rail(p);     /* -1: none up, nothing is sent */
    }
    if (p->ack.hold_at > 0) {
        /* here since the frame arrived, and until the ACK leaves: at most
         * what our own frames to the peer on that rail take for a whole
         * round trip, as they wait in the same queue (an overestimate
         * would hide queues on the path from the peer's window) */
        double wait = r >= 0 ? hxb_core_rail_wait(p->e, r) : 0;
        double us;

        if (r >= 0 && wait > p->loss.path[r].srtt) {
            wait = p->loss.path[r].srtt;
        }
        us = (p->e->now - p->ack.hold_at + wait) * 1e6;
        a.ext.hold_us = us < 0 ? 0 : us >= HXB_HOLD_NONE ? HXB_HOLD_NONE - 1 : (uint32_t)us;
    }
    p->ack.dups = 0;
    if (r >= 0) {
        p->ack.rail = 1u << r;
        p->ack.rails_in = 0;
    }
    hxb_tx_send_ctl(p, r, HXB_K_ACK, &a, sizeof(a.ext) + nbits / 8);
    p->e->stats.acks_sent++;
    p->ack.unacked = 0;
    p->ack.carried_seen = p->tx.acks_carried;
    p->ack.now = 0;
    p->ack.drained = 0;
}

void hxb_ack_send(hxb_peer_t *p)
{
    ack_send(p, -1);
}

/* the idle tick's ACK (HXB_F_BUSY, from the engine's idle flag), on every
 * rail that is up: the caller reads nothing meanwhile, so we would not
 * learn that a rail's path to the peer is dead, and one ACK lost on it
 * must not leave the peer without news for a whole period */
void hxb_ack_send_busy(hxb_peer_t *p)
{
    hxb_engine_t *e = p->e;
    int r;

    for (r = 0; r < e->nrails; r++) {
        if ((p->rail_mask & (1u << r)) && e->rails[r]->up) {
            ack_send(p, r);
            e->stats.busy_sent++;
        }
    }
}

/* A frame without HXB_F_MORE ends a burst: acked once queues drain. So
 * does a frame numbered below such a frame that came in after it: the
 * sender sent it first, and nothing follows it right behind (a burst
 * striped over rails leaves rail by rail, each rail's frames as one
 * datagram, and the rail with the burst's last frame need not leave last:
 * the frames of the rails after it, all with MORE, waited out the ack
 * delay, twice at the slack, while the sender waited for their ack to
 * complete a put, 1.5 ms per 48 KB message at MTU 1500). */
void hxb_ack_owed(hxb_peer_t *p, const hxb_hdr_t *h)
{
    p->ack.pass = p->e->pass;
    if (p->ack.asked && hxb_seq_le(p->ack.ask_hi, p->rx.next)) {
        p->ack.asked = 0;     /* long passed: no wrap-around comparisons */
    }
    if (!(h->flags & HXB_F_MORE)) {
        p->ack.drained = 1;   /* the end of a burst: ack once queues drain */
        if (!p->ack.asked || hxb_seq_le(p->ack.ask_hi, h->seq)) {
            p->ack.ask_hi = h->seq + 1;
            p->ack.asked = 1;
        }
    } else if (p->ack.asked && hxb_seq_lt(h->seq, p->ack.ask_hi)) {
        p->ack.drained = 1;   /* sent before the burst's end, came after */
    }
    p->ack.unacked = hxb_ack_owed_count(p);
    p->ack.carried_seen = p->tx.acks_carried;
    if (p->ack.unacked++ == 0) {
        p->ack.due = p->e->now + p->e->cfg.ack_delay;
    }
    hxb_peer_activate(p);
}

/* A frame we have: the peer resent it, so our ACK of it was probably
 * lost (or the peer resent early). Ack at once, on another rail than the
 * last ACK took (hxb_ack_ctl_rail). */
void hxb_ack_dup(hxb_peer_t *p, const hxb_hdr_t *h)
{
    hxb_engine_t *e = p->e;

    e->stats.drops[HXB_DROP_DUP]++;
    p->ack.dups += p->ack.dups < UINT16_MAX;
    p->ack.now = 1;
    if (p->ack.rail) {
        p->ack.avoid |= p->ack.rail;
        p->ack.avoid_at = e->now;
    }
    hxb_ack_owed(p, h);
}

/* when the kernel received the frame being handled (the pass's time if
 * the rail does not say, or says later) */
static double ack_arrival(const hxb_engine_t *e, const hxb_rail_t *rail)
{
    return rail->rx_stamp > 0 && rail->rx_stamp < e->now ? rail->rx_stamp : e->now;
}

/* the frame that reached this host last: the next ACK says how long it has
 * been here (hold_us), so the sender can tell path delay from ours */
void hxb_ack_hold(hxb_peer_t *p, const hxb_rail_t *rail, uint32_t seq)
{
    double at = ack_arrival(p->e, rail);

    if (at >= p->ack.hold_at) {
        p->ack.hold_at = at;
        p->ack.hold_seq = seq;
    }
}

/* Frames owed an ack: those received since our last ACK, unless a frame of
 * ours carried the cumulative ack since with nothing beyond a hole (a
 * separate ACK is needed only while frames past a hole wait to be acked
 * selectively) */
unsigned hxb_ack_owed_count(const hxb_peer_t *p)
{
    return p->tx.acks_carried != p->ack.carried_seen ? 0 : p->ack.unacked;
}

/* May the frames missing below rx.hi be late rather than lost? A rail
 * keeps order, so a frame missing from it is lost once a later one came by
 * that rail; the missing frame at rx.next may be in flight while some rail
 * has brought nothing beyond it. Rails that brought nothing in the last
 * `span` frames (idle or gone) do not count. A dual rail's two lanes and
 * relayed paths may reorder within a rail: that only makes a gap look
 * like loss, as it did before rails were told apart. */
static int ack_gap_in_flight(const hxb_peer_t *p, uint32_t span)
{
    int r;

    for (r = 0; r < p->e->nrails; r++) {
        uint32_t hi = p->rx.rail_hi[r];
        if (hi && hxb_seq_le(hi, p->rx.next) && p->rx.hi - hi < span) {
            return 1;
        }
    }
    return 0;
}

/* Where coalescing ends: the count of owed frames (*every) and the time
 * at which what is owed goes. Twice the usual count and delay while what
 * we received has no gap, or only gaps that rails striping a burst leave
 * (a rail has not yet brought anything past the first hole:
 * ack_gap_in_flight), when an ACK tells the peer only that its windows
 * have room; the usual pace once every rail has passed a hole, since then
 * ACKs carry the loss signal. Half the ACKs halve a bulk
 * sender's wake-ups (MTU 1500, 1 rail: host CPU per GB -13 %); coalescing
 * twice as long everywhere cost 5 points of throughput at 1 % loss. */
static double ack_coalesce_end(const hxb_peer_t *p, unsigned *every)
{
    const hxb_engine_t *e = p->e;
    unsigned slack = p->rx.hi == p->rx.next ||
                     ack_gap_in_flight(p, HXB_ACK_SLACK_SPAN * e->ack_every) ? HXB_ACK_SLACK : 1;

    *every = e->ack_every * slack;
    return p->ack.due + (slack - 1) * e->cfg.ack_delay;
}

/* Does an ACK go now (drained: every rail's receive queue was emptied in
 * this pass)? Acks are coalesced only while frames keep coming: once every
 * rail's queue is drained, what is owed goes at the next progress call (a
 * caller may block elsewhere for long once it has its data, and the sender
 * must not wait for its timeout) - not in this one: the caller usually
 * answers first (a reply, a rendezvous step), and its frame carries the
 * ack for free. */
int hxb_ack_due(const hxb_peer_t *p, int drained)
{
    const hxb_engine_t *e = p->e;
    unsigned owed = hxb_ack_owed_count(p), every;
    double end;

    if (!owed) {
        return 0;
    }
    end = ack_coalesce_end(p, &every);
    return p->ack.now || (drained && p->ack.drained && p->ack.pass != e->pass) ||
           owed >= every || e->now >= end;
}

/* when an owed ACK goes if nothing else happens: the next progress pass,
 * or when coalescing ends (0: nothing owed) */
double hxb_ack_wake_at(const hxb_peer_t *p)
{
    unsigned owed = hxb_ack_owed_count(p), every;
    double end;

    if (!owed) {
        return 0;
    }
    end = ack_coalesce_end(p, &every);
    return p->ack.now || p->ack.drained || owed >= every ? p->e->now : end;
}

void hxb_ack_frame_rcvd(hxb_peer_t *p, const hxb_rail_t *rail, const hxb_hdr_t *h)
{
    hxb_engine_t *e = p->e;
    const hxb_ack_ext_t *a = (const hxb_ack_ext_t *)(h + 1);
    /* when it would have arrived had the peer answered at once */
    double hold_at = a->hold_us == HXB_HOLD_NONE ? 0
                     : ack_arrival(e, rail) - a->hold_us * 1e-6;

    e->stats.acks_rcvd++;
    if (a->dups) {
        hxb_loss_spurious(p, a->dups);
    }
    hxb_ack_rcvd(p, a->cum, a + 1, a->nbits, a->hold_seq, hold_at);
}

/* a frame of the peer came in on rail r: that path from it works */
void hxb_ack_rail_seen(hxb_peer_t *p, int r)
{
    p->ack.rails_in |= 1u << r;
}

/* the frame just counted as owed was dropped after all (no buffer to
 * hold it): not acked, the sender will resend it */
void hxb_ack_unowed(hxb_peer_t *p)
{
    p->ack.unacked--;
}

/* the peer restarted: nothing is owed to its old run */
void hxb_ack_reset(hxb_peer_t *p)
{
    p->ack.unacked = 0;
    p->ack.carried_seen = p->tx.acks_carried;
    p->ack.now = 0;
    p->ack.asked = 0;
}
