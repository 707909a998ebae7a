/* The send window of a peer and its frames: sequence numbers, slots,
 * framing, the choice of rail for each frame (striping), transmission and
 * retransmission, and unsequenced control frames. What is cut into frames
 * is decided in hxb_ops.c; which frames are lost, in hxb_loss.c. */
#include "hxb_engine_int.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

unsigned hxb_peer_unacked(const hxb_peer_t *p)
{
    return p->tx.next - p->tx.una;
}

/* The slots of the window live in a ring of tx.cap slots (a power of two,
 * at most the window), allocated at the first send and doubled whenever
 * the frames in flight outgrow it: a peer we only hear from costs no
 * slots, one with a few frames in flight HXB_TX_RING_MIN of them (with
 * thousands of peers, each one's share of the rails is small), and only a
 * peer that fills the window pays for all of it. Make room for n more:
 * frames queued in the rails' batches point into the old ring, so those
 * leave first. */
static int tx_ring_fit(hxb_peer_t *p, unsigned n)
{
    unsigned used = p->tx.next - p->tx.una, cap = p->tx.cap, ncap;
    hxb_txslot_t *ring;
    uint32_t seq;

    if (used + n <= cap) {
        return 0;
    }
    for (ncap = cap ? 2 * cap : HXB_TX_RING_MIN; ncap < used + n; ncap *= 2) {
    }
    if (ncap > HXB_WIN(p)) {
        ncap = HXB_WIN(p);
    }
    if (!(ring = calloc(ncap, sizeof(*ring)))) {
        return -1;
    }
    if (p->tx.slot) {
        hxb_core_flush_rails(p->e);
        for (seq = p->tx.una; seq != p->tx.next; seq++) {
            ring[seq & (ncap - 1)] = p->tx.slot[seq & (cap - 1)];
        }
        free(p->tx.slot);
    }
    p->tx.slot = ring;
    p->tx.cap = ncap;
    return 0;
}

/* frames that may be numbered now (0: the window is full, or no memory
 * for a slot); at least one of them has its slot */
unsigned hxb_tx_room(hxb_peer_t *p)
{
    unsigned room = HXB_WIN(p) - (p->tx.next - p->tx.una);

    return room && tx_ring_fit(p, 1) == 0 ? room : 0;
}

/* may n frames be numbered now, each with its slot? */
int hxb_tx_fits(hxb_peer_t *p, unsigned n)
{
    return HXB_WIN(p) - (p->tx.next - p->tx.una) >= n && tx_ring_fit(p, n) == 0;
}

/* The newest frame, if it is of this kind and still open for more (not
 * pushed, and its sender asked hxb_tx_keep_open): bundles grow in it. */
hxb_txslot_t *hxb_tx_open_slot(hxb_peer_t *p, unsigned kind)
{
    hxb_txslot_t *s;

    if (!p->tx.open_last) {
        return NULL;
    }
    s = HXB_TX_SLOT(p, p->tx.next - 1);
    return s->state == TX_QUEUED && ((hxb_hdr_t *)s->hb)->kind == kind ? s : NULL;
}

/* the newest frame waits for the next pass, open for more of its kind */
void hxb_tx_keep_open(hxb_peer_t *p)
{
    p->tx.open_last = 1;
}

/* the next RTO check comes at `at` (hxb_tx_rto_arm: at the latest) */
void hxb_tx_rto_set(hxb_peer_t *p, double at)
{
    p->tx.rto_at = at;
}

void hxb_tx_rto_arm(hxb_peer_t *p, double at)
{
    if (at < p->tx.rto_at) {
        p->tx.rto_at = at;
    }
}

/* everything before cum is acknowledged: the window moves on (the caller
 * released those slots) */
void hxb_tx_acked_to(hxb_peer_t *p, uint32_t cum)
{
    p->tx.una = cum;
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
    h->tag = 0;                   /* set when the frame leaves */
    h->src_node = c->node_id;
    h->src_proc = c->proc_id;
    h->dst_node = p->node;
    h->dst_proc = p->proc;
    h->src_epoch = c->epoch;
    h->dst_epoch = p->epoch;
    h->seq = 0;
    h->ack = p->rx.next;
    h->csum = 0;
}

/* Frames rail r may still take to the peer: the rail's in-flight cap (all
 * peers) and the path's congestion window, whichever is closer. */
static double tx_rail_room(const hxb_peer_t *p, int r)
{
    double cap = p->e->rail_cap[r] - p->e->rail_inflight[r];
    double out = p->cc.path[r].cwnd - p->tx.path_out[r];

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
        limit += e->rail_cap[r] < p->cc.path[r].cwnd ? e->rail_cap[r] : p->cc.path[r].cwnd;
    }
    return room >= HXB_BURST_MIN * e->wscale || (room >= 1 && room >= limit / 4);
}

/* may rail r (in mask, up, and with room for another frame to the peer if
 * `room`) take a frame? */
static int tx_rail_usable(const hxb_peer_t *p, uint32_t mask, int r, int room)
{
    return ((mask >> r) & 1) && p->e->rails[r]->up && (!room || tx_rail_room(p, r) > 0);
}

/* The least loaded (frames in flight per byte/s of speed) of the rails
 * tx_rail_usable says may take a frame; -1 if none */
static int tx_least_loaded(const hxb_peer_t *p, uint32_t mask, int room)
{
    const hxb_engine_t *e = p->e;
    double best = 1e300, load;
    int r, pick = -1;

    for (r = 0; r < e->nrails; r++) {
        if (!tx_rail_usable(p, mask, r, room)) {
            continue;
        }
        load = (e->rail_inflight[r] + 1) / e->rails[r]->speed;
        if (load < best) {
            best = load;
            pick = r;
        }
    }
    return pick;
}

/* Choose the rail for the next frame: the least loaded among the usable
 * rails that reach the peer and have room. Rails that lost frames recently are used only if nothing else is.
 * `avoid` >= 0 asks for a retransmission's rail: any room will do, on the
 * rail that lost the frame only if no other has room (a weight against it
 * lost to the load of full windows: a dead rail not yet suspected took
 * the same frame again and again). */
int hxb_tx_pick_rail(hxb_peer_t *p, int avoid)
{
    int pick = -1, pass;

    if (avoid < 0 && !p->tx.bursting && !tx_burst_room(p)) {
        return -1;
    }
    for (pass = avoid < 0; pass < 3 && pick < 0; pass++) {
        uint32_t mask = p->rail_mask & ~(pass < 2 ? p->loss.suspect : 0);
        if (pass == 0) {
            mask &= ~(1u << avoid);
        }
        pick = tx_least_loaded(p, mask, 1);
    }
    return pick;
}

/* frames in flight, per rail (all peers), per path and per peer */
static void tx_inflight_add(hxb_peer_t *p, int r)
{
    p->e->rail_inflight[r]++;
    p->tx.path_out[r]++;
    p->tx.inflight++;
}

/* a frame sent on rail r left flight (acked, resent elsewhere, released) */
static void tx_inflight_sub(hxb_peer_t *p, int r)
{
    p->e->rail_inflight[r]--;
    p->tx.path_out[r]--;
    p->tx.inflight--;
}

/* Will the windows let another frame follow the frame `seq` about to
 * leave on rail r, without waiting for an ack? If not, the receiver must
 * ack that frame at once rather than after its ack delay. */
static int tx_window_open_after(hxb_peer_t *p, uint32_t seq, int r)
{
    int open;

    if (seq + 1 == p->tx.next && p->tx.next - p->tx.una == HXB_WIN(p)) {
        return 0;               /* no sequence number for the next frame */
    }
    tx_inflight_add(p, r);
    /* the rail it leaves on still has room (the usual case within a
     * burst): no need to look at the others */
    open = tx_rail_usable(p, p->rail_mask, r, 1) || hxb_tx_pick_rail(p, -1) >= 0;
    tx_inflight_sub(p, r);
    return open;
}

/* May the last frame of a burst (seq, on rail r) leave without asking for
 * a prompt ack (HXB_F_MORE, PROTOCOL.md 8.4)? When nothing waits on the
 * acks: no completion of a frame sent (an eager message by copy has none)
 * or of this one, no flush, no fence (they ask: hxb_ask_ack), windows wide
 * open (half the sequence window free, a rail with room for the next
 * frame). The receiver then acks with its next frame to us or within its
 * ACK delay: one ACK instead of one per message where the answer goes
 * elsewhere (NAS CG on 8 ranks: 1 000-1 400 ACKs per rank and run, 11-79). */
static int tx_lazy_end(hxb_peer_t *p, const hxb_txslot_t *s, uint32_t seq, int r)
{
    const hxb_hdr_t *h = (const hxb_hdr_t *)s->hb;

    return p->e->cfg.lazy_acks && s->state == TX_QUEUED && h->kind != HXB_K_NOP &&
           !(p->tx.comp_wait && !hxb_seq_lt(p->tx.comp_seq, p->tx.una)) &&
           !hxb_ops_flush_waits(p) && p->tx.next - p->tx.una < HXB_WIN(p) / 2 &&
           tx_window_open_after(p, seq, r);
}

/* frames in flight of which an ack is on its way soon (a burst asked) */
int hxb_tx_awaits_ack(const hxb_peer_t *p)
{
    return p->tx.una != p->tx.push && !p->tx.lazy;
}

/* Frames in flight whose burst did not ask for a prompt ack, which
 * something now waits on: clears the mark, the caller asks (hxb_ask_ack) */
int hxb_tx_lazy_take(hxb_peer_t *p)
{
    int lazy = p->tx.lazy && p->tx.una != p->tx.push;

    p->tx.lazy = 0;
    return lazy;
}

/* Does a frame of len bytes to p on rail r go by UDP straight to the peer,
 * so in its short form if it has one (PROTOCOL.md 3.1)? Not to a relay,
 * which routes by the full header; not raw, which has no room in front. */
static int tx_short_path(const hxb_peer_t *p, int r, size_t len)
{
    hxb_rail_t *rail = p->e->rails[r];
    const hxb_raddr_t *a = &p->addr[r];

    return rail->udp_carrier && a->port != htons(HXB_RELAY_PORT) &&
           (!rail->ops->carrier_csum || rail->ops->carrier_csum(rail, a, len));
}

int hxb_tx_short_peer(const hxb_peer_t *p)
{
    const hxb_engine_t *e = p->e;
    int r;

    if (!hxb_tx_short_allowed(e) || !p->rail_mask) {
        return 0;
    }
    for (r = 0; r < e->nrails; r++) {
        if (((p->rail_mask >> r) & 1) && !tx_short_path(p, r, e->frame_tx)) {
            return 0;
        }
    }
    return 1;
}

size_t hxb_tx_frag(const hxb_engine_t *e, unsigned kind, int first, int short_peer)
{
    size_t n;

    if (short_peer && !first && (n = hxb_short_kind_len(kind))) {
        return e->frame_tx - n;
    }
    return kind == HXB_K_AM ? e->frame_tx - sizeof(hxb_hdr_t) - sizeof(hxb_am_ext_t)
                            : e->frag;
}

/* the short header's length if frame s leaves on rail r in short form, 0
 * if whole */
static size_t tx_short_len(const hxb_peer_t *p, const hxb_txslot_t *s, int r)
{
    const hxb_engine_t *e = p->e;
    size_t n;

    if (!hxb_tx_short_allowed(e) || !(n = hxb_short_len((const hxb_hdr_t *)s->hb))) {
        return 0;
    }
    return tx_short_path(p, r, n + s->inl_len + s->data_len) ? n : 0;
}

/* Does an earlier frame still ask for the ack that will open the windows?
 * Then a burst that fills them again need not ask too: that ack comes
 * once the peer has drained its queues, and covers this burst's frames
 * that arrived by then. Without, any ack inside a window (one piggybacked
 * on the peer's own frames, a GET_REQ) split it into two bursts that each
 * asked, for good: a GET_RESP stream at MTU 1500 drew an ACK per 65
 * frames, AM fragments per 173. Only while nothing was resent lately
 * (HXB_ASK_CALM): when the one asking frame is lost, the windows wait for
 * the peer's ACK delay, and at 2 % loss over 4 rails that moved 87-90 % of
 * the loss-free rate instead of 91-96 %. A resent asking frame no longer
 * counts: every retransmission asks. */
static int tx_asking(hxb_peer_t *p)
{
    const hxb_txslot_t *a;

    if (!p->tx.asking) {
        return 0;
    }
    a = HXB_TX_SLOT(p, p->tx.ask_seq);
    if (hxb_seq_lt(p->tx.ask_seq, p->tx.una) || !hxb_seq_lt(p->tx.ask_seq, p->tx.push) ||
        a->state != TX_INFLIGHT || a->retx) {
        p->tx.asking = 0;
    }
    return p->tx.asking && p->e->now - p->tx.retx_at >= HXB_ASK_CALM;
}

static void tx_send(hxb_peer_t *p, uint32_t seq, hxb_txslot_t *s, int r)
{
    hxb_engine_t *e = p->e;
    hxb_hdr_t *h = (hxb_hdr_t *)s->hb;
    struct iovec iov[3], body[3];
    size_t flen, shl;
    int n = 1, behind;    /* a first transmission, more frames behind it */

    h->ack = p->rx.next;
    h->rail = (uint8_t)r;
    h->flags &= (uint8_t)~HXB_F_CSUM;    /* a resend may take another path */
    h->csum = 0;
    /* a first transmission with later frames right behind it: their acks
     * cover it. The last of a burst, the last the windows let out before
     * an ack must open them (unless an earlier one asks:
     * tx_asking), and every retransmission ask for an ack as soon as the
     * peer's queues drain (PROTOCOL.md 8.4). */
    behind = s->state == TX_QUEUED && (seq + 1 != p->tx.next || hxb_ops_queued(p));
    if (s->state == TX_QUEUED && s->comp) {
        p->tx.comp_wait = 1;     /* its completion waits for its ack */
        p->tx.comp_seq = seq;
    }
    p->tx.bursting = 1;
    if (behind && (tx_window_open_after(p, seq, r) || tx_asking(p))) {
        h->flags |= HXB_F_MORE;
    } else if (!behind && tx_lazy_end(p, s, seq, r)) {
        p->tx.bursting = 0;      /* the burst ends; its ack may come later */
        p->tx.lazy = 1;
        h->flags |= HXB_F_MORE;
    } else {
        p->tx.bursting = 0;      /* the burst ends: the peer acks at once */
        p->tx.lazy = 0;
        h->flags &= (uint8_t)~HXB_F_MORE;
        if (behind) {
            p->tx.asking = 1;    /* the windows closed: this frame asks */
            p->tx.ask_seq = seq;
        }
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
    /* the tag and the sum cover what follows the header: the extension
     * (in hb after the header) and the data */
    body[0].iov_base = h + 1;
    body[0].iov_len = s->hb_len - sizeof(*h);
    memcpy(body + 1, iov + 1, (n - 1) * sizeof(*iov));
    shl = tx_short_len(p, s, r);
    if (shl) {
        /* the tag covers what the receiver adds (8.13) */
        hxb_short_ctx_t ctx = {.dst_node = h->dst_node, .dst_proc = h->dst_proc,
                               .src_epoch = h->src_epoch, .dst_epoch = h->dst_epoch};
        uint64_t tag;

        hxb_short_pack(h, s->sh);
        tag = hxb_short_tag(&e->auth, s->sh, shl, &ctx, body + 1, n - 1);
        memcpy(s->sh + offsetof(hxb_short_hdr_t, tag), &tag, sizeof(tag));
        iov[0].iov_base = s->sh;
        iov[0].iov_len = shl;
        flen = flen - s->hb_len + shl;
        e->stats.tx_short++;
    } else {
        h->tag = hxb_frame_tag(&e->auth, h, body, n);
        if (e->cfg.csum == HXB_CSUM_ALL ||
            (e->cfg.csum == HXB_CSUM_CARRIER &&
             !hxb_rail_carrier_csum(e->rails[r], &p->addr[r], flen))) {
            h->flags |= HXB_F_CSUM;
            h->csum = hxb_frame_csum(h, body, n);
        }
    }
    e->rails[r]->ops->send(e->rails[r], &p->addr[r], iov, n);
    if (s->state == TX_INFLIGHT) {
        tx_inflight_sub(p, s->rail);      /* a retransmission moves the frame */
    }
    s->state = TX_INFLIGHT;
    s->rail = (uint8_t)r;
    s->lane = (uint8_t)hxb_rail_lane(e->rails[r], r, &p->addr[r], flen);
    s->rail_ctr = ++p->tx.lane_ctr[s->lane];
    s->sent_at = e->now;
    tx_inflight_add(p, r);
    /* it may be due before the RTO check planned when the others left
     * (none in flight then, or the RTO has shrunk since) */
    hxb_tx_rto_arm(p, e->now + p->loss.rto);
    e->stats.tx_frames++;
    p->stats.tx_frames++;
    p->stats.tx_bytes += flen;
    /* the cumulative ack rode along: a separate ACK is needed only while
     * frames beyond a hole wait to be acknowledged selectively */
    if (p->rx.hi == p->rx.next && !shl) {     /* a short frame has none */
        p->tx.acks_carried++;
    }
}

/* Every rail is full, and a loss must heal all the same: the least loaded
 * other usable rail takes the frame one over its window (a retransmission
 * back on the rail that lost it may be lost again, on a dead rail until
 * the rail is suspected), else the rail it was on. -1: no rail reaches
 * the peer. */
static int tx_retransmit_rail(hxb_peer_t *p, int lost_on)
{
    uint32_t others = p->rail_mask & ~(1u << lost_on);
    int pick = tx_least_loaded(p, others & ~p->loss.suspect, 0);

    if (pick < 0) {
        pick = tx_least_loaded(p, others, 0);
    }
    if (pick < 0 && (p->rail_mask & (1u << lost_on))) {
        pick = lost_on;
    }
    return pick;
}

/* resend frame seq, on another rail if one has room */
void hxb_tx_retransmit(hxb_peer_t *p, uint32_t seq, hxb_txslot_t *s)
{
    int r = hxb_tx_pick_rail(p, s->rail);

    if (r < 0 && (r = tx_retransmit_rail(p, s->rail)) < 0) {
        return;
    }
    if (s->retx < 255) {
        s->retx++;
    }
    p->e->stats.retransmits++;
    p->stats.retransmits++;
    p->tx.retx_at = p->e->now;
    hxb_cc_retransmitted(p);
    tx_send(p, seq, s, r);
}

hxb_txslot_t *hxb_tx_slot_new(hxb_peer_t *p, unsigned kind, unsigned flags,
                              const void *ext, size_t ext_len, size_t payload)
{
    hxb_txslot_t *s = HXB_TX_SLOT(p, p->tx.next);
    hxb_hdr_t *h = (hxb_hdr_t *)s->hb;

    if (p->tx.next == p->tx.una) {
        /* work after an idle spell: the peer timeout counts from now, not
         * from the last ack of long ago (e->now may be stale here) */
        p->last_ack_progress = hxb_now();
    }
    p->tx.open_last = 0;          /* a newer frame: the last one is final */
    hxb_tx_hdr(p, h, kind, ext_len + payload);
    h->flags = (uint8_t)(flags | HXB_F_SEQ);
    h->seq = p->tx.next++;
    if (ext_len) {
        memcpy(h + 1, ext, ext_len);
    }
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

void hxb_tx_slot_release(hxb_peer_t *p, hxb_txslot_t *s, int status)
{
    hxb_engine_t *e = p->e;

    if (s->state == TX_INFLIGHT) {
        tx_inflight_sub(p, s->rail);
    }
    if (s->buf) {
        hxb_pool_put(&e->bpool, s->buf);
        s->buf = NULL;
    }
    s->state = TX_FREE;
    if (s->comp) {
        void *c = s->comp;
        s->comp = NULL;
        hxb_complete(e, c, s->err ? (int)s->err : status);
    }
}

/* bytes of the frames numbered and not pushed, summed until past limit */
static size_t tx_numbered_bytes(const hxb_peer_t *p, size_t limit)
{
    size_t bytes = 0;
    uint32_t seq;

    for (seq = p->tx.push; seq != p->tx.next && bytes <= limit; seq++) {
        const hxb_txslot_t *s = HXB_TX_SLOT(p, seq);
        bytes += s->hb_len + s->inl_len + s->data_len;
    }
    return bytes;
}

/* The least loaded usable rail in mask, were `add` frames more on it, ties
 * taken in turn after tx.train_rail, which becomes it; -1 if none */
static int tx_turn_pick(hxb_peer_t *p, uint32_t mask, unsigned add)
{
    hxb_engine_t *e = p->e;
    double best = 1e300, load;
    int i, r, pick = -1;

    for (i = 1; i <= e->nrails; i++) {
        r = (p->tx.train_rail + i) % e->nrails;
        if (!tx_rail_usable(p, mask, r, 1)) {
            continue;
        }
        load = (e->rail_inflight[r] + add) / e->rails[r]->speed;
        if (load < best) {
            best = load;
            pick = r;
        }
    }
    if (pick >= 0) {
        p->tx.train_rail = pick;
    }
    return pick;
}

/* A short burst - a message of a few frames, such as an MPI eager message
 * of 28 KB (4 frames at MTU 9000) - goes whole on one rail, the next such
 * burst on the next rail. Striped frame by frame it took a send and a
 * receive system call and a trip through each kernel per frame, instead
 * of one UDP GSO train and one GRO receive, and arrived out of order: NAS
 * CG's exchanges ran 1.5x btl tcp's time over 6 rails, level over 1 rail
 * (doc/RESULTS.md). Longer bursts stripe over the rails that pay for
 * their datagrams (tx_stripe_begin): their time on the wire is what
 * striping shortens (UCX_HXB_TRAIN_MAX, 0: every burst). */
/* The rail for the frames numbered and not pushed, or -1 (stripe them):
 * the least loaded usable rail with room, ties taken in turn after the
 * last short burst's rail. A rail with room for fewer than all of them
 * (a path in slow start: 2 frames) takes what it can, the rest stripe;
 * requiring room for all would leave a rail never used in slow start
 * forever. */
static int tx_train_rail(hxb_peer_t *p)
{
    hxb_engine_t *e = p->e;
    unsigned n = p->tx.next - p->tx.push;

    if (n < 2 || e->nrails < 2 || (!p->tx.bursting && !tx_burst_room(p)) ||
        tx_numbered_bytes(p, e->cfg.train_max) > e->cfg.train_max) {
        return -1;
    }
    return tx_turn_pick(p, p->rail_mask & ~p->loss.suspect, n);
}

/* Over which rails the burst about to leave (more than UCX_HXB_TRAIN_MAX)
 * stripes (tx.stripe; 0: all), in blocks of how many frames. Each rail
 * more costs both hosts datagrams (a system call and a socket buffer each
 * way, UCX_HXB_TRAIN_COST each) and saves time on the wire: k rails cost
 * k blocks of as many datagrams as segmentation offload needs for each (a
 * block past 64 KiB is two) plus a k-th of the wire time, and the least
 * total wins. 1 on fast rails (one datagram, as a short burst; 10 Gbit/s
 * at the default cost: only below 25 KB, which UCX_HXB_TRAIN_MAX already
 * sends whole), all for long bursts or at no cost; a burst that needs
 * several datagrams anyway spreads them over as many rails. A 56 KB
 * message at MTU 1500 over rails that say 10 Gbit/s: 2 rails, a half
 * round trip of 45 us where six took 103 (the testbed, whose 1 Gbit/s
 * shaping passes a lone message of less than its 4 ms bucket at once);
 * over rails of 1 Gbit/s: all six (75 us on the wire against 450 on one).
 * Raw rails send a packet per frame whatever the rail (and all rails' in
 * one call): all of them. */
static void tx_stripe_begin(hxb_peer_t *p)
{
    hxb_engine_t *e = p->e;
    uint32_t mask = p->rail_mask & ~p->loss.suspect, pick = 0;
    double speed = 0, t, best = 0;
    size_t bytes, cap, frames, per, blk;
    int r, n = 0, k = 1, j, b;

    p->tx.stripe = 0;
    for (r = 0; r < e->nrails; r++) {
        if (tx_rail_usable(p, mask, r, 1)) {
            if (!e->rails[r]->udp_carrier) {
                return;     /* raw frames cost a packet each on any rail */
            }
            speed += e->rails[r]->speed;
            n++;
        }
    }
    if (e->cfg.train_cost <= 0 || n < 2) {
        return;
    }
    /* the burst: its numbered frames and what its operations still hold,
     * counted only up to where every rail pays (k = n: (n - 1) n < x) */
    cap = (size_t)((n - 1) * speed * e->cfg.train_cost) + 1;
    bytes = tx_numbered_bytes(p, cap - 1);
    if (bytes < cap) {
        bytes += hxb_ops_queued_bytes(p, cap - bytes);
    }
    if (bytes >= cap) {
        return;         /* every rail pays */
    }
    /* k rails: k blocks, each as many datagrams as segmentation offload
     * needs for it, and a k-th of the wire time; the least total, ties to
     * fewer rails */
    frames = (bytes + e->frame_tx - 1) / e->frame_tx;
    per = hxb_udp_gso_frames(e->frame_tx);
    for (j = 1; j <= n; j++) {
        blk = (frames + j - 1) / j;
        t = (double)(j * ((blk + per - 1) / per)) * e->cfg.train_cost +
            (double)bytes * n / (j * speed);
        if (j == 1 || t < best) {
            best = t;
            k = j;
        }
    }
    if (k >= n) {
        return;
    }
    /* the k least loaded, ties taken in turn after the last burst's rail */
    while (k-- && (b = tx_turn_pick(p, mask & ~pick, 1)) >= 0) {
        pick |= 1u << b;
    }
    if (!pick) {
        return;
    }
    /* blocks of a k-th of the burst's frames each */
    k = __builtin_popcount(pick);
    p->tx.stripe = pick;
    p->tx.stripe_per = (unsigned)((frames + k - 1) / k);
    p->tx.stripe_rail = -1;
    p->tx.stripe_left = 0;
}

/* The rail for a striped burst's next frame: its rails take consecutive
 * blocks of frames, in rail order (the order the rails' batches leave
 * in), so each rail's datagram arrives in sequence and after the one
 * before it: frames interleaved over the rails arrive half out of order,
 * and an AM's must then be copied aside until the gap fills (a 56 KB
 * message over 2 rails: 80 us a half round trip against 45 in blocks).
 * A rail without room passes its block on; none: any rail
 * (hxb_tx_pick_rail). */
static int tx_stripe_pick(hxb_peer_t *p)
{
    hxb_engine_t *e = p->e;
    uint32_t mask = p->tx.stripe & ~p->loss.suspect;
    int r;

    if (!p->tx.stripe || (!p->tx.bursting && !tx_burst_room(p))) {
        return hxb_tx_pick_rail(p, -1);
    }
    r = p->tx.stripe_rail;
    if (p->tx.stripe_left && r >= 0 && tx_rail_usable(p, mask, r, 1)) {
        p->tx.stripe_left--;
        return r;
    }
    for (r = p->tx.stripe_rail + 1; r < e->nrails; r++) {
        if (tx_rail_usable(p, mask, r, 1)) {
            p->tx.stripe_rail = r;
            p->tx.stripe_left = p->tx.stripe_per - 1;
            return r;
        }
    }
    return hxb_tx_pick_rail(p, -1);
}

/* send the numbered frames not sent yet: a short burst on one rail
 * (tx_train_rail), a longer one over the rails tx_stripe_begin chooses
 * (the rest of it too, which the next call numbers), until they are all
 * out or no rail has room */
void hxb_tx_push(hxb_peer_t *p)
{
    hxb_txslot_t *s;
    int r, train = -1;

    p->tx.open_last = 0;          /* pushed frames are final */
    if (!p->tx.bursting) {
        p->tx.stripe = 0;         /* a new burst */
    }
    if (!p->tx.stripe) {
        train = tx_train_rail(p);
        if (train < 0 && p->tx.next - p->tx.push > 1) {
            tx_stripe_begin(p);
        }
    }
    while (p->tx.push != p->tx.next) {
        r = train >= 0 && tx_rail_room(p, train) > 0 ? train : tx_stripe_pick(p);
        if (r < 0) {
            return;     /* flow control: every rail is full or down */
        }
        s = HXB_TX_SLOT(p, p->tx.push);
        tx_send(p, p->tx.push, s, r);
        p->tx.push++;
    }
}

/* a frame in flight was acknowledged selectively: it leaves flight, its
 * slot waits for the cumulative ack */
void hxb_tx_sacked(hxb_peer_t *p, hxb_txslot_t *s)
{
    tx_inflight_sub(p, s->rail);
    s->state = TX_SACKED;
}

void hxb_tx_send_ctl(hxb_peer_t *p, int r, unsigned kind, const void *ext,
                       size_t ext_len)
{
    hxb_tx_send_ctl_to(p, r, p->epoch, kind, ext, ext_len);
}

void hxb_tx_send_ctl_to(hxb_peer_t *p, int r, uint32_t dst_epoch, unsigned kind,
                        const void *ext, size_t ext_len)
{
    hxb_engine_t *e = p->e;
    uint8_t hb[HXB_HB_MAX + HXB_SACK_BITS / 8];
    hxb_hdr_t *h = (hxb_hdr_t *)hb;
    struct iovec iov, body;

    if (r < 0) {
        return;                 /* no rail up */
    }
    hxb_tx_hdr(p, h, kind, ext_len);
    h->rail = (uint8_t)r;
    h->dst_epoch = dst_epoch;
    memcpy(h + 1, ext, ext_len);
    iov.iov_base = hb;
    iov.iov_len = sizeof(*h) + ext_len;
    body.iov_base = h + 1;
    body.iov_len = ext_len;
    h->tag = hxb_frame_tag(&e->auth, h, &body, 1);
    if (e->cfg.csum) {
        h->flags |= HXB_F_CSUM;
        h->csum = hxb_frame_csum(h, &body, 1);
    }
    e->rails[r]->ops->send(e->rails[r], &p->addr[r], &iov, 1);
    /* the frame lives on our stack: it must leave before we return */
    e->rails[r]->ops->flush(e->rails[r]);
}

/* Frames framed since `since` by posts outside a pass leave only now: time
 * them from now, or the timers of this pass take a computation's gap for
 * their round trip, resend them at once and fail the peer after a gap
 * longer than the peer timeout, all before they left. */
void hxb_tx_restamp(hxb_peer_t *p, double since)
{
    uint32_t seq;

    if (p->tx.una != p->tx.push && HXB_TX_SLOT(p, p->tx.una)->state == TX_INFLIGHT &&
        HXB_TX_SLOT(p, p->tx.una)->sent_at >= since) {
        p->last_ack_progress = p->e->now;   /* nothing older was waiting */
    }
    for (seq = p->tx.una; seq != p->tx.push; seq++) {
        hxb_txslot_t *s = HXB_TX_SLOT(p, seq);
        if (s->state == TX_INFLIGHT && s->sent_at >= since) {
            s->sent_at = p->e->now;
        }
    }
}

/* Frames posted since the last pass leave now (at the end of the pass
 * that calls this, or in hxb_tx_send_held): those held back for longer
 * than a moment are timed from now. */
void hxb_tx_held_restamp(hxb_engine_t *e)
{
    hxb_peer_t *p;

    if (e->held_since) {
        if (e->now - e->held_since > HXB_HELD_GAP) {
            for (p = e->active; p; p = p->anext) {
                hxb_tx_restamp(p, e->held_since);
            }
        }
        e->held_since = 0;
    }
}

/* outside a pass: whatever waits in the rails' batches leaves now */
void hxb_tx_send_held(hxb_engine_t *e)
{
    hxb_tx_held_restamp(e);
    hxb_core_flush_rails(e);
}

/* A numbered frame of a cancelled operation keeps its sequence number but
 * not its data (user memory the caller may free now). An AM frame sent
 * again goes out as a NOP: a NOP in sequence ends the receiver's AM
 * reassembly in progress, so the rest of a cancelled message is dropped
 * there as a length violation instead of running into the next one. A
 * PUT frame goes out as an empty PUT: PUT frames interleave with another
 * owner's AM frames, whose message a NOP would end (PROTOCOL.md 8.14). */
static void tx_slot_cancel(hxb_txslot_t *s)
{
    hxb_hdr_t *h = (hxb_hdr_t *)s->hb;

    if (h->kind == HXB_K_PUT && s->data) {
        h->len = (uint16_t)(h->len - s->data_len);
        s->data = NULL;
        s->data_len = 0;
    } else if (h->kind == HXB_K_AM) {
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

/* every frame of the window ends with status (the peer failed or restarted) */
void hxb_tx_fail(hxb_peer_t *p, int status)
{
    uint32_t seq;

    for (seq = p->tx.una; seq != p->tx.next; seq++) {
        hxb_txslot_t *s = HXB_TX_SLOT(p, seq);
        if (s->state == TX_QUEUED) {
            s->state = TX_FREE;
        }
        s->err = 0;
        hxb_tx_slot_release(p, s, status);
    }
    p->tx.una = p->tx.push = p->tx.next;
}

/* the peer restarted: its sequence space starts over */
void hxb_tx_reset(hxb_peer_t *p)
{
    unsigned i;

    for (i = 0; i < p->tx.cap; i++) {
        p->tx.slot[i].state = TX_FREE;
    }
    p->tx.next = p->tx.push = p->tx.una = 0;
    p->tx.asking = 0;
    memset(p->tx.lane_ctr, 0, sizeof(p->tx.lane_ctr));
}

/* the owner's frames lose their data (NOPs from now on) and complete */
void hxb_tx_cancel(hxb_peer_t *p, void *owner)
{
    uint32_t seq;

    for (seq = p->tx.una; seq != p->tx.next; seq++) {
        hxb_txslot_t *s = HXB_TX_SLOT(p, seq);
        if (s->state != TX_FREE && s->user && hxb_owner_mine(s->owner, owner)) {
            void *c = s->comp;
            s->comp = NULL;
            tx_slot_cancel(s);
            hxb_complete(p->e, c, HXB_E_CANCEL);
        }
    }
}

/* the engine drops the peer: its window and the buffers still in it */
void hxb_tx_free(hxb_peer_t *p)
{
    unsigned i;

    for (i = 0; i < p->tx.cap; i++) {
        if (p->tx.slot[i].buf) {
            hxb_pool_put(&p->e->bpool, p->tx.slot[i].buf);
        }
    }
    free(p->tx.slot);
}
