/* A peer's operations and their queues: operations issued by the caller
 * wait in three queues and are cut into frames, one frame from each queue
 * in turn, as the send window opens; flushes; refusals (ERR) reaching the
 * operation they belong to. */
#include "hxb_engine_int.h"

#include <stdlib.h>
#include <string.h>

/* nothing of ours to the peer is outstanding: no frame unacked, no
 * operation queued, no flush, no read waiting for its data */
int hxb_peer_tx_idle(const hxb_peer_t *p)
{
    /* a GET is complete only when its data has come */
    return p->tx.una == p->tx.next && !hxb_ops_queued(p) && !p->ops.flushes &&
           !p->gets_pending;
}

/* The queue to cut the next frame from: the queues take turns frame by
 * frame, so bulk data one way stalls neither the other side's reads nor
 * our own AMs. ob1's and UCP's rendezvous replies and FINs are AMs: behind
 * a 3 MiB PUT they held up the peer's transfer (one message each way at
 * once ran at 54-62 %). A flush waits at the head of ours until the PUTs
 * posted before it are cut (numbered), so the sequence it waits for
 * covers them. */
static hxb_opq_t *ops_next_queue(hxb_peer_t *p)
{
    unsigned i, k;

    for (i = 0; i < HXB_NQ; i++) {
        hxb_op_t *head;
        k = (p->ops.fill_turn + i) % HXB_NQ;
        head = p->ops.q[k].head;
        if (!head || (head->kind == OP_FLUSH &&
                      (int32_t)(p->ops.puts_framed - head->u.flush.put_mark) < 0)) {
            continue;
        }
        p->ops.fill_turn = k + 1;
        return &p->ops.q[k];
    }
    return NULL;
}

/* where the op's next frame takes its data (refusals and empty ops have
 * none: no offset is added to NULL) */
static const uint8_t *ops_cursor(const hxb_op_t *op)
{
    return op->data ? op->data + op->off : NULL;
}

/* The next frame of each kind of operation: its slot, and how many bytes of
 * the operation it takes (*chunk) */
static hxb_txslot_t *ops_cut_am(hxb_peer_t *p, hxb_op_t *op, int sp, size_t *chunk)
{
    hxb_am_ext_t ext = {.am_id = (uint8_t)op->u.am.id,
                        .total = (uint32_t)(op->u.am.hdr_len + op->len)};
    hxb_txslot_t *s;
    unsigned fl = 0;
    size_t inl = 0, frag;

    if (op->off == 0 && !op->first_cut) {
        fl |= HXB_F_AM_FIRST;
        inl = op->u.am.hdr_len;
        op->first_cut = 1;
    }
    frag = hxb_tx_frag(p->e, HXB_K_AM, fl != 0, sp);
    *chunk = op->len - op->off;
    if (*chunk > frag - inl) {
        *chunk = frag - inl;
    }
    if (op->off + *chunk == op->len) {
        fl |= HXB_F_AM_LAST;
    }
    s = hxb_tx_slot_new(p, HXB_K_AM, fl, &ext, sizeof(ext), inl + *chunk);
    memcpy(s->inl, op->am_hdr, inl);
    s->inl_len = (uint16_t)inl;
    s->data = ops_cursor(op);
    s->data_len = (uint32_t)*chunk;
    s->owner = op->owner;
    s->user = 1;
    return s;
}

static hxb_txslot_t *ops_cut_put(hxb_peer_t *p, hxb_op_t *op, size_t frag, size_t *chunk)
{
    hxb_put_ext_t ext = {.addr = op->u.put.raddr + op->off, .rkey = op->u.put.rkey};
    hxb_txslot_t *s;

    *chunk = op->len - op->off < frag ? op->len - op->off : frag;
    /* a put of one frame is placed in order (ucx_perftest's put_bw waits
     * for a sentinel every put overwrites); bulk puts land on arrival,
     * striped, without holding buffers */
    s = hxb_tx_slot_new(p, HXB_K_PUT, op->len <= frag ? HXB_F_ORDERED : 0, &ext,
                        sizeof(ext), *chunk);
    s->data = ops_cursor(op);
    s->data_len = (uint32_t)*chunk;
    s->owner = op->owner;
    s->user = 1;
    return s;
}

static hxb_txslot_t *ops_cut_get_req(hxb_peer_t *p, hxb_op_t *op, size_t *chunk)
{
    hxb_get_req_ext_t ext = {.addr = op->u.get.raddr, .rkey = op->u.get.rkey,
                             .length = (uint32_t)op->len, .get_id = op->u.get.id};

    *chunk = op->len;           /* the request carries no data */
    return hxb_tx_slot_new(p, HXB_K_GET_REQ, 0, &ext, sizeof(ext), 0);
}

static hxb_txslot_t *ops_cut_get_resp(hxb_peer_t *p, hxb_op_t *op, size_t frag,
                                      size_t *chunk)
{
    hxb_get_resp_ext_t ext = {.get_id = op->u.resp.get_id, .offset = (uint32_t)op->off,
                              .status = op->u.resp.status};
    hxb_txslot_t *s;

    *chunk = op->len - op->off < frag ? op->len - op->off : frag;
    s = hxb_tx_slot_new(p, HXB_K_GET_RESP, 0, &ext, sizeof(ext), *chunk);
    if (op->u.resp.value_len) {     /* an atomic's old value: kept here */
        memcpy(s->inl, op->u.resp.value, *chunk);
        s->inl_len = (uint16_t)*chunk;
    } else {
        s->data = ops_cursor(op);
        s->data_len = (uint32_t)*chunk;
        s->region = op->u.resp.rkey;
    }
    p->ops.resp_end = p->tx.next;
    return s;
}

/* a flush takes no frame: it waits for everything numbered before it */
static int ops_cut_flush(hxb_peer_t *p, hxb_op_t *op)
{
    hxb_flushreq_t *f = malloc(sizeof(*f));

    if (!f) {
        return -1;
    }
    f->seq = p->tx.next;
    f->comp = op->comp;
    f->owner = op->owner;
    f->next = p->ops.flushes;
    p->ops.flushes = f;
    return 0;
}

/* the operation at the head of q is cut whole: its last frame s (NULL:
 * none) carries its completion and any refusal of an earlier frame */
static void ops_cut_done(hxb_peer_t *p, hxb_opq_t *q, hxb_op_t *op, hxb_txslot_t *s)
{
    if (s) {
        s->comp = op->comp;
        s->last = 1;
        if (op->err) {         /* an earlier frame was refused */
            if (s->comp) {
                s->err = op->err;
            } else if (!p->ops.err_pending) {
                p->ops.err_pending = op->err;
            }
        }
    }
    q->head = op->next;
    if (!q->head) {
        q->tail = NULL;
    }
    if (q != &p->ops.q[HXB_Q_RESP]) {
        p->ops.nops--;
    }
    if (q == &p->ops.q[HXB_Q_PUTS]) {
        p->ops.puts_framed++;
    }
    hxb_op_free(p->e, op);
}

/* cut the queued operations into frames while the window has room */
static void ops_cut(hxb_peer_t *p)
{
    int sp = hxb_tx_short_peer(p);     /* cut for the short form? */
    size_t chunk;
    hxb_txslot_t *s;
    hxb_opq_t *q;
    hxb_op_t *op;

    /* Number only a few frames beyond those the rails have taken: frames
     * leave in sequence order, so a request numbered behind a window's
     * worth of queued bulk frames (a GET_REQ behind our GET_RESPs) would
     * wait for all of them - and the peer's data for that request with
     * it, which halved GET traffic both ways at once. */
    while (hxb_tx_room(p) > 0 && p->tx.next - p->tx.push < HXB_TX_AHEAD &&
           (q = ops_next_queue(p))) {
        op = q->head;
        switch (op->kind) {
        case OP_AM_ZC:
            s = ops_cut_am(p, op, sp, &chunk);
            break;
        case OP_PUT:
            s = ops_cut_put(p, op, hxb_tx_frag(p->e, HXB_K_PUT, 0, sp), &chunk);
            break;
        case OP_GET_REQ:
            s = ops_cut_get_req(p, op, &chunk);
            break;
        case OP_GET_RESP:
            s = ops_cut_get_resp(p, op, hxb_tx_frag(p->e, HXB_K_GET_RESP, 0, sp), &chunk);
            break;
        case OP_FLUSH:
            if (ops_cut_flush(p, op) < 0) {
                return;
            }
            s = NULL;
            chunk = op->len;           /* zero: pops below */
            break;
        case OP_NOP:
            chunk = 0;
            s = hxb_tx_slot_new(p, HXB_K_NOP, 0, NULL, 0, 0);
            break;
        default:
            return;
        }
        if (s) {
            s->opid = op->opid;
        }
        op->off += chunk;
        if (op->off >= op->len) {
            ops_cut_done(p, q, op, s);
        }
    }
}

/* cut and send while the windows let frames out */
void hxb_ops_progress(hxb_peer_t *p)
{
    if (p->failed) {
        return;
    }
    for (;;) {
        ops_cut(p);
        if (p->tx.push == p->tx.next) {
            break;      /* nothing (more) to send */
        }
        hxb_tx_push(p);
        if (p->tx.push != p->tx.next) {
            return;     /* flow control: every rail is full or down */
        }
    }
}

void hxb_op_free(hxb_engine_t *e, hxb_op_t *op)
{
    op->next = e->free_ops;
    e->free_ops = op;
}

hxb_op_t *hxb_op_new(hxb_peer_t *p, int kind)
{
    hxb_engine_t *e = p->e;
    hxb_op_t *op = e->free_ops;

    if (op) {
        e->free_ops = op->next;
    } else if (!(op = malloc(sizeof(*op)))) {
        return NULL;
    }
    memset(op, 0, offsetof(hxb_op_t, am_hdr));
    op->kind = kind;
    op->owner = p->ops.owner;
    op->opid = ++e->op_serial;
    return op;
}

static void ops_append(hxb_opq_t *q, hxb_op_t *op)
{
    if (q->tail) {
        q->tail->next = op;
    } else {
        q->head = op;
    }
    q->tail = op;
}

/* An operation posted between progress passes is framed now and timed
 * now (not at the last pass, which may be long past). To a peer with
 * nothing in flight it leaves at once: nothing is coming back that the
 * next pass could answer in the same batch, and waiting for that pass
 * puts its receive call (a microsecond on a UDP rail) before every
 * message of a ping-pong. Otherwise it stays in the rails' batches for
 * the next pass to send with whatever it adds: a caller that posts in a
 * progress loop pays one flush per pass, not one per post (a flush per
 * post cost 2-3 points of tag_bw 64 KiB at 8 rails, all of the host's
 * CPU). If the next pass comes late (MPI_Isend, then computation), it
 * times them again when they really leave (hxb_tx_restamp). */
void hxb_ops_kick(hxb_peer_t *p)
{
    hxb_engine_t *e = p->e;
    int was_idle = !hxb_tx_awaits_ack(p);   /* no ack on its way to batch with */

    e->now = hxb_now();
    e->asleep = 0;              /* a post: the caller is up (idle tick) */
    hxb_ops_progress(p);
    if (e->in_pass) {
        return;                 /* the pass sends it */
    }
    if (was_idle && p->tx.push != p->tx.una && e->cfg.send_at_once) {
        hxb_tx_send_held(e);
    } else if (!e->held_since) {
        e->held_since = e->now;
    }
}

void hxb_op_enqueue(hxb_peer_t *p, hxb_op_t *op)
{
    hxb_op_t **at;

    op->next = NULL;
    if (op->kind == OP_GET_RESP) {
        ops_append(&p->ops.q[HXB_Q_RESP], op);
        hxb_peer_activate(p);
        hxb_ops_kick(p);
        return;
    }
    if (op->kind == OP_GET_REQ) {
        /* one frame, unordered against PUTs and AMs (a fence waits at the
         * endpoint): it goes ahead of queued bulk data, after the operation
         * being cut and the reads already ahead */
        at = &p->ops.q[HXB_Q_OPS].head;
        if (*at && ((*at)->off || (*at)->first_cut)) {
            at = &(*at)->next;
        }
        while (*at && (*at)->kind == OP_GET_REQ) {
            at = &(*at)->next;
        }
        op->next = *at;
        *at = op;
        if (!op->next) {
            p->ops.q[HXB_Q_OPS].tail = op;
        }
    } else if (op->kind == OP_PUT) {
        ops_append(&p->ops.q[HXB_Q_PUTS], op);
        p->ops.puts_posted++;
    } else {
        if (op->kind == OP_FLUSH) {
            op->u.flush.put_mark = p->ops.puts_posted;
        }
        ops_append(&p->ops.q[HXB_Q_OPS], op);
    }
    p->ops.nops++;
    hxb_peer_activate(p);
    hxb_ops_kick(p);
}

/* A short AM's frame waits for company (a bundle) only when another short
 * AM went to this peer since the last progress pass: a stream of sends.
 * A lone message - a protocol reply, a rendezvous step - is pushed at once,
 * as before bundling: holding those back halved MPI's bidirectional
 * bandwidth (ob1 over btl hxb), for reasons not pinned down. */
static void ops_defer_or_push(hxb_peer_t *p, unsigned *last_pass)
{
    /* kept as pass + 1: a new peer's 0 is no pass, also before the first
     * (an MPI rank's first send after MPI_Init, then its computation) */
    if (*last_pass == p->e->pass + 1) {
        hxb_tx_keep_open(p);      /* pushed by the next pass or idle tick */
    } else {
        *last_pass = p->e->pass + 1;
        hxb_ops_kick(p);
    }
}

void hxb_ops_am_push(hxb_peer_t *p)
{
    ops_defer_or_push(p, &p->ops.am_pass);
}

/* puts keep their own pass: a lone put must not make the next lone AM
 * (a rendezvous step) wait for the next pass, nor the other way round */
void hxb_ops_put_push(hxb_peer_t *p)
{
    ops_defer_or_push(p, &p->ops.put_pass);
}

/* A flush completes when everything sent before it is acknowledged and no
 * GET is waiting for data. GETs are not ordered against the flush, so a GET
 * issued after it also holds it back: conservative, never early. */
void hxb_ops_flush_check(hxb_peer_t *p)
{
    hxb_flushreq_t **fp, *f;

    if (p->gets_pending) {
        return;
    }
    for (fp = &p->ops.flushes; (f = *fp);) {
        if (hxb_seq_le(f->seq, p->tx.una)) {
            *fp = f->next;
            hxb_complete(p->e, f->comp, (int)p->ops.err_pending);
            p->ops.err_pending = 0;
            free(f);
        } else {
            fp = &f->next;
        }
    }
}

int hxb_flush(hxb_peer_t *p, void *comp)
{
    hxb_op_t *op;

    if (p->failed) {
        return -HXB_E_PEER;
    }
    if (hxb_peer_tx_idle(p)) {
        int err = (int)p->ops.err_pending;
        p->ops.err_pending = 0;
        return err ? -err : HXB_OK;
    }
    if (hxb_ask_ack(p) < 0) {
        return HXB_EAGAIN;
    }
    if (!comp) {
        return HXB_INPROGRESS;   /* caller polls */
    }
    if (!(op = hxb_op_new(p, OP_FLUSH))) {
        return HXB_EAGAIN;
    }
    op->comp = comp;
    hxb_op_enqueue(p, op);
    return HXB_INPROGRESS;
}

/* Something now waits on the acks of the frames in flight (a flush, a
 * fence): if their burst did not ask for a prompt ack (hxb_tx.c,
 * tx_lazy_end), a NOP frame after them asks for it */
int hxb_ask_ack(hxb_peer_t *p)
{
    hxb_op_t *op;

    if (!hxb_tx_lazy_take(p)) {
        return 0;
    }
    if (!(op = hxb_op_new(p, OP_NOP))) {
        return -1;
    }
    hxb_op_enqueue(p, op);
    return 0;
}

void hxb_peer_set_owner(hxb_peer_t *p, void *owner)
{
    p->ops.owner = owner;
}

/* every queued operation and flush ends with status */
void hxb_ops_fail(hxb_peer_t *p, int status)
{
    hxb_engine_t *e = p->e;
    hxb_flushreq_t *f;
    hxb_op_t *op;
    int i;

    /* a GET_RESP op has no completion (hxb_complete() skips NULL) */
    for (i = 0; i < HXB_NQ; i++) {
        while ((op = p->ops.q[i].head)) {
            p->ops.q[i].head = op->next;
            hxb_complete(e, op->comp, status);
            hxb_op_free(e, op);
        }
        p->ops.q[i].tail = NULL;
    }
    p->ops.puts_framed = p->ops.puts_posted;
    p->ops.nops = 0;
    while ((f = p->ops.flushes)) {
        p->ops.flushes = f->next;
        hxb_complete(e, f->comp, status);
        free(f);
    }
}

/* The owner's queued operations and flushes complete as cancelled: those
 * not started go, those cut in part end empty (an AM as a NOP, which ends
 * it at the peer). A read's completion is its entry's. */
void hxb_ops_cancel(hxb_peer_t *p, void *owner)
{
    hxb_engine_t *e = p->e;
    hxb_flushreq_t **fp, *f;
    hxb_op_t **at, *op;
    int i;

    for (i = 0; i < HXB_NQ; i++) {
        if (i == HXB_Q_RESP) {
            continue;              /* reads the peer makes of our memory */
        }
        for (at = &p->ops.q[i].head; (op = *at);) {
            void *c = op->comp;
            if (op->kind == OP_NOP || !hxb_owner_mine(op->owner, owner)) {
                at = &op->next;
                continue;
            }
            op->comp = NULL;
            op->owner = NULL;
            if (op->kind == OP_AM_ZC && (op->off || op->first_cut)) {
                op->kind = OP_NOP;     /* cut in part: end it at the peer */
                op->data = NULL;
                op->len = op->off = 0;
                at = &op->next;
            } else if (op->kind == OP_PUT && op->off) {
                op->data = NULL;       /* cut in part: the rest goes empty */
                op->len = op->off;
                at = &op->next;
            } else {
                *at = op->next;        /* not started: never sent */
                if (op->kind == OP_PUT) {
                    p->ops.puts_framed++;  /* as if cut: flushes count on it */
                }
                if (op->kind == OP_GET_REQ) {
                    c = hxb_get_forget(p, op->u.get.id);
                }
                p->ops.nops--;
                hxb_op_free(e, op);
            }
            hxb_complete(e, c, HXB_E_CANCEL);
        }
        p->ops.q[i].tail = NULL;
        for (op = p->ops.q[i].head; op; op = op->next) {
            p->ops.q[i].tail = op;
        }
    }
    for (fp = &p->ops.flushes; (f = *fp);) {
        if (hxb_owner_mine(f->owner, owner)) {
            *fp = f->next;
            hxb_complete(e, f->comp, HXB_E_CANCEL);
            free(f);
        } else {
            fp = &f->next;
        }
    }
}

/* the peer refused frame seq: mark its operation's last frame (the one
 * holding its completion) */
void hxb_ops_refused(hxb_peer_t *p, uint32_t seq, uint32_t status)
{
    uint32_t s;

    /* An operation without completion (put_short, put_bcopy, posted
     * atomics) reports through the next flush, never through another
     * operation: frames of others may sit between its own (frames by
     * copy are numbered at once, beside a zero-copy op being cut) */
    uint32_t id = HXB_TX_SLOT(p, seq)->opid;
    hxb_op_t *op;
    int i;

    for (s = seq; s != p->tx.next; s++) {
        hxb_txslot_t *t = HXB_TX_SLOT(p, s);
        if (t->opid == id && t->last) {
            if (t->comp) {
                t->err = (uint8_t)status;
            } else if (!p->ops.err_pending) {
                p->ops.err_pending = status;
            }
            return;
        }
    }
    /* its last frame is not cut yet: the operation is still queued */
    for (i = 0; i < HXB_NQ; i++) {
        for (op = p->ops.q[i].head; op; op = op->next) {
            if (op->opid == id) {
                op->err = (uint8_t)status;
                return;
            }
        }
    }
}

/* the engine drops the peer: what is still queued */
void hxb_ops_free(hxb_peer_t *p)
{
    hxb_flushreq_t *f;
    hxb_op_t *op;
    int i;

    for (i = 0; i < HXB_NQ; i++) {
        while ((op = p->ops.q[i].head)) {
            p->ops.q[i].head = op->next;
            free(op);
        }
    }
    while ((f = p->ops.flushes)) {
        p->ops.flushes = f->next;
        free(f);
    }
}
