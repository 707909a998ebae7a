/* What is inside a running engine, read out for operators: the numbers
 * hxb-stat publishes (hxb_statfile.c) and the state dump. Reads every
 * module's part of a peer and writes none: it sits above the driver
 * (test/unit/check_layers.py) and nothing in the engine calls it. */
#include "hxb_engine_int.h"

#include <inttypes.h>

static const char *const q_names[HXB_NQ] = {"ops", "puts", "resp"};

double hxb_engine_clock(const hxb_engine_t *e)
{
    return e->now;
}

void hxb_engine_rail_load(const hxb_engine_t *e, int i, unsigned *inflight,
                          double *window)
{
    *inflight = e->rail_inflight[i];
    *window   = e->rail_cap[i];
}

static void peer_info(const hxb_peer_t *p, hxb_peer_info_t *in)
{
    in->node         = p->node;
    in->proc         = p->proc;
    in->epoch        = p->epoch;
    in->rail_mask    = p->rail_mask;
    in->suspect      = p->loss.suspect;
    in->failed       = !!p->failed;
    in->busy         = !!p->busy;
    in->active       = !!p->active;
    in->inflight     = p->tx.inflight;
    in->unacked      = hxb_peer_unacked(p);
    in->ops_queued   = p->ops.nops;
    in->gets_pending = p->gets_pending;
    in->acks_owed    = p->ack.unacked;
    in->srtt         = p->loss.srtt;
    in->rttvar       = p->loss.rttvar;
    in->rto          = p->loss.rto;
    in->min_rtt      = p->loss.min_rtt;
    in->last_rx      = p->last_rx;
    in->stats        = p->stats;
}

int hxb_engine_peers(const hxb_engine_t *e, hxb_peer_info_t *info, int max)
{
    const hxb_peer_t *p;
    int h, n = 0;

    for (h = 0; h < HXB_PEER_HASH; h++) {
        for (p = e->hash[h]; p; p = p->hnext) {
            if (n < max) {
                peer_info(p, &info[n]);
            }
            n++;
        }
    }
    return n;
}

static unsigned opq_len(const hxb_opq_t *q)
{
    const hxb_op_t *op;
    unsigned n = 0;

    for (op = q->head; op; op = op->next) {
        n++;
    }
    return n;
}

static void dump_peer(const hxb_engine_t *e, const hxb_peer_t *p, FILE *f)
{
    const hxb_flushreq_t *fl;
    unsigned nfl = 0, owed = hxb_ack_owed_count(p);
    int r, q;

    fprintf(f, "peer %u.%u epoch 0x%08x%s%s%s rails 0x%x suspect 0x%x "
            "last frame %.3f s ago\n", p->node, p->proc, p->epoch,
            p->failed ? " FAILED" : "", p->busy ? " busy" : "",
            p->active ? " active" : "", p->rail_mask, p->loss.suspect,
            p->last_rx ? e->now - p->last_rx : -1.0);
    if (p->failed) {
        fprintf(f, "  failed with %u frames unacked and %u reads pending; its last ack "
                "of new frames %.3f s before\n", p->failed_unacked, p->failed_gets,
                e->now - p->last_ack_progress);
    }
    fprintf(f, "  tx: next %u push %u una %u (unacked %u, in flight %u) "
            "ring %u slots%s\n", p->tx.next, p->tx.push, p->tx.una,
            hxb_peer_unacked(p), p->tx.inflight, p->tx.cap,
            p->tx.bursting ? ", bursting" : "");
    fprintf(f, "  tx burst:%s%s%s%s; acks carried %u\n",
            p->tx.lazy ? " lazy" : "", p->tx.asking ? " asking" : "",
            p->tx.comp_wait ? " completion" : "",
            hxb_tx_awaits_ack(p) ? " awaits ack" : "", p->tx.acks_carried);
    fprintf(f, "  rx: next %u hi %u; %u frames since our last ACK, %u still owed one "
            "(a frame of ours carries the others'; dups %u%s%s)", p->rx.next, p->rx.hi,
            p->ack.unacked, owed, p->ack.dups,
            p->ack.drained ? ", burst ended" : "", p->ack.now ? ", ack at once" : "");
    if (owed) {
        fprintf(f, ", due in %.3f ms", (p->ack.due - e->now) * 1e3);
    }
    fputc('\n', f);
    for (fl = p->ops.flushes; fl; fl = fl->next) {
        nfl++;
    }
    fprintf(f, "  queues:");
    for (q = 0; q < HXB_NQ; q++) {
        fprintf(f, " %s %u", q_names[q], opq_len(&p->ops.q[q]));
    }
    fprintf(f, "; flushes %u; reads pending %u; reassembling %s\n", nfl,
            p->gets_pending, p->reasm.active ? "yes" : "no");
    fprintf(f, "  rtt: srtt %.1f us rttvar %.1f us min %.1f us rto %.1f us "
            "reo x%u\n", p->loss.srtt * 1e6, p->loss.rttvar * 1e6,
            p->loss.min_rtt * 1e6, p->loss.rto * 1e6, p->loss.reo_mult);
    fprintf(f, "  traffic: tx %" PRIu64 " frames %" PRIu64 " B, rx %" PRIu64
            " frames %" PRIu64 " B, retransmits %" PRIu64 "\n",
            p->stats.tx_frames, p->stats.tx_bytes, p->stats.rx_frames,
            p->stats.rx_bytes, p->stats.retransmits);
    for (r = 0; r < e->nrails; r++) {
        if (!(p->rail_mask & (1u << r))) {
            continue;
        }
        fprintf(f, "  path %s: in flight %u cwnd %.1f%s srtt %.1f us%s\n",
                e->rails[r]->ifname, p->tx.path_out[r], p->cc.path[r].cwnd,
                (p->cc.ss >> r) & 1 ? " (slow start)" : "",
                p->loss.path[r].srtt * 1e6,
                (p->loss.suspect >> r) & 1 ? " SUSPECT" : "");
    }
}

void hxb_peer_dump(const hxb_peer_t *p, FILE *f)
{
    dump_peer(p->e, p, f);
}

void hxb_engine_dump(const hxb_engine_t *e, FILE *f)
{
    const hxb_peer_t *p;
    const hxb_defer_t *d;
    unsigned ndefer = 0;
    int r, h;

    for (d = e->defer_head; d; d = d->next) {
        ndefer++;
    }
    fprintf(f, "engine node %u proc %u epoch 0x%08x: pass %u, window %u, "
            "frag %zu B, %s\n", e->cfg.node_id, e->cfg.proc_id, e->cfg.epoch,
            e->pass, e->cfg.window, e->frag, e->asleep ? "asleep" : "awake");
    fprintf(f, "  pools: copy buffers %u/%u, held frames %u/%u; "
            "completions deferred %u\n", e->bpool.count, e->bpool.max,
            e->rpool.count, e->rpool.max, ndefer);
    for (r = 0; r < e->nrails; r++) {
        const hxb_rail_t *rl = e->rails[r];

        fprintf(f, "rail %d %s: %s, dim %u rail %u, %.0f Mbit/s, mtu %zu, in "
                "flight %u window %.1f; tx %" PRIu64 " frames (again %" PRIu64
                ", errors %" PRIu64 "), rx %" PRIu64 " frames (ring drops %"
                PRIu64 ")\n", r, rl->ifname, rl->up ? "up" : "DOWN", rl->dim,
                rl->railno, rl->speed * 8e-6, rl->mtu, e->rail_inflight[r],
                e->rail_cap[r], rl->stats.tx_frames, rl->stats.tx_again,
                rl->stats.tx_errors, rl->stats.rx_frames, rl->stats.rx_ring_drops);
    }
    for (h = 0; h < HXB_PEER_HASH; h++) {
        for (p = e->hash[h]; p; p = p->hnext) {
            dump_peer(e, p, f);
        }
    }
}
