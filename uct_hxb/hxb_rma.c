/* Remote memory access, both sides: PUT (short, by copy, zero-copy;
 * short ones bundled) and GET as initiator; as target, PUTs placed and
 * GET_REQs answered from our memory, checked against its rkeys, and
 * answers from a region that goes away revoked. */
#include "hxb_engine_int.h"

#include <string.h>

/* Append a short put to the newest frame if it is a PUT still waiting to
 * be pushed, as am_bundle does for AMs: small puts (UCP's RMA, OpenSHMEM)
 * cost the host a frame each otherwise, about 4 us here (91 % of it in
 * the kernel): 236k puts/s. The first put's frame becomes a bundle on the
 * second: its extension's addr and rkey move into the first record. */
static int rma_put_bundle(hxb_peer_t *p, const void *data, size_t len, uint64_t raddr,
                      uint64_t rkey)
{
    hxb_engine_t *e = p->e;
    hxb_txslot_t *s = hxb_tx_open_slot(p, HXB_K_PUT);
    hxb_put_rec_t rec = {.addr = raddr, .rkey = rkey, .len = (uint16_t)len};
    hxb_put_ext_t *ext;
    hxb_hdr_t *h;
    size_t have, need;
    int bundled;
    uint8_t *q;

    if (!s) {
        return 0;
    }
    h = (hxb_hdr_t *)s->hb;
    ext = (hxb_put_ext_t *)(h + 1);
    bundled = h->flags & HXB_F_AM_BUNDLE;
    have = bundled ? s->buf->len : sizeof(rec) + s->inl_len + (s->buf ? s->buf->len : 0);
    need = have + sizeof(rec) + len;
    if (need > e->frag || need > e->bpool.size) {
        return 0;
    }
    if (!bundled) {
        /* second put: the first becomes a record in a buffer */
        hxb_put_rec_t first = {.addr = ext->addr, .rkey = ext->rkey};
        if (s->buf) {             /* put_bcopy: its data is in the buffer */
            first.len = (uint16_t)s->buf->len;
            memmove(s->buf->data + sizeof(first), s->buf->data, s->buf->len);
        } else {                  /* put_short: its data is inline */
            if (!(s->buf = hxb_pool_get(&e->bpool))) {
                return 0;
            }
            first.len = s->inl_len;
            memcpy(s->buf->data + sizeof(first), s->inl, s->inl_len);
            s->inl_len = 0;
        }
        memcpy(s->buf->data, &first, sizeof(first));
        s->buf->len = sizeof(first) + first.len;
        s->data = s->buf->data;
        ext->addr = 0;
        ext->rkey = 0;
        h->flags |= HXB_F_AM_BUNDLE;
    }
    q = s->buf->data + s->buf->len;
    memcpy(q, &rec, sizeof(rec));
    memcpy(q + sizeof(rec), data, len);
    s->buf->len += sizeof(rec) + len;
    s->data_len = (uint32_t)s->buf->len;
    h->len = (uint16_t)(sizeof(*ext) + s->buf->len);
    e->stats.put_bundled++;
    return 1;
}

int hxb_put_short(hxb_peer_t *p, const void *data, size_t len, uint64_t raddr,
                  uint64_t rkey)
{
    hxb_put_ext_t ext = {.addr = raddr, .rkey = rkey};
    hxb_txslot_t *s;

    if (p->failed) {
        return -HXB_E_PEER;
    }
    if (len > HXB_AM_INLINE || len > p->e->frag) {
        return -1;
    }
    p->e->stats.put_copied++;
    if (rma_put_bundle(p, data, len, raddr, rkey)) {
        return HXB_OK;
    }
    if (hxb_tx_room(p) == 0) {
        return HXB_EAGAIN;
    }
    s = hxb_tx_slot_new(p, HXB_K_PUT, HXB_F_ORDERED, &ext, sizeof(ext), len);
    memcpy(s->inl, data, len);
    s->inl_len = (uint16_t)len;
    s->last = 1;          /* a refusal of it goes to the next flush */
    hxb_peer_activate(p);
    hxb_ops_put_push(p);
    return HXB_OK;
}

long hxb_put_bcopy(hxb_peer_t *p, hxb_pack_cb_t pack, void *arg, uint64_t raddr,
                   uint64_t rkey)
{
    hxb_engine_t *e = p->e;
    hxb_put_ext_t ext = {.addr = raddr, .rkey = rkey};
    hxb_txslot_t *s;
    hxb_buf_t *b;
    size_t len;

    if (p->failed) {
        return -HXB_E_PEER;
    }
    if (hxb_tx_room(p) == 0 || !(b = hxb_pool_get(&e->bpool))) {
        return HXB_EAGAIN;
    }
    len = pack(b->data, arg);
    if (len > e->frag) {
        hxb_pool_put(&e->bpool, b);
        return -1;
    }
    b->len = len;
    e->stats.put_copied++;
    if (len <= HXB_BUNDLE_MAX && rma_put_bundle(p, b->data, len, raddr, rkey)) {
        hxb_pool_put(&e->bpool, b);
        return (long)len;
    }
    s = hxb_tx_slot_new(p, HXB_K_PUT, HXB_F_ORDERED, &ext, sizeof(ext), len);
    s->data = b->data;
    s->data_len = (uint32_t)len;
    s->buf = b;
    s->last = 1;
    hxb_peer_activate(p);
    if (len <= HXB_BUNDLE_MAX) {
        hxb_ops_put_push(p);  /* small: later ones may join */
    } else {
        hxb_ops_kick(p);
    }
    return (long)len;
}

int hxb_put(hxb_peer_t *p, const void *data, size_t len, uint64_t raddr,
            uint64_t rkey, void *comp)
{
    hxb_op_t *op;

    if (p->failed) {
        return -HXB_E_PEER;
    }
    if (p->ops.nops >= HXB_MAX_OPS || !(op = hxb_op_new(p, OP_PUT))) {
        return HXB_EAGAIN;
    }
    op->data = data;
    op->len = len;
    op->u.put.raddr = raddr;
    op->u.put.rkey = rkey;
    op->comp = comp;
    if (len == 0) {
        op->len = 0;     /* one empty frame still orders with the rest */
    }
    hxb_op_enqueue(p, op);
    return HXB_INPROGRESS;
}

int hxb_get(hxb_peer_t *p, void *data, size_t len, uint64_t raddr, uint64_t rkey,
            void *comp)
{
    hxb_get_t *g = NULL;
    hxb_op_t *op;

    if (p->failed) {
        return -HXB_E_PEER;
    }
    if (len == 0) {
        return HXB_OK;
    }
    if (len > UINT32_MAX || p->ops.nops >= HXB_MAX_OPS) {
        return len > UINT32_MAX ? -1 : HXB_EAGAIN;
    }
    if (!(g = hxb_get_alloc(p, data, len, comp)) || !(op = hxb_op_new(p, OP_GET_REQ))) {
        if (g) {
            g->peer = NULL;
        }
        return HXB_EAGAIN;
    }
    op->u.get.raddr = raddr;
    op->u.get.rkey = rkey;
    op->len = len;
    op->u.get.id = g->id;
    p->gets_pending++;
    hxb_op_enqueue(p, op);
    return HXB_INPROGRESS;
}

/* A PUT bundle (PROTOCOL.md section 5): every record must lie inside the
 * payload before any is placed; a record the rkey check refuses is not
 * placed, the others are, and one ERR tells the sender. */
static void rma_put_bundle_rcvd(hxb_peer_t *p, hxb_hdr_t *h, uint8_t *q, size_t len)
{
    hxb_engine_t *e = p->e;
    uint8_t *end = q + len, *r;
    hxb_put_rec_t rec;
    int refused = 0;

    for (r = q; r < end; r += sizeof(rec) + rec.len) {
        if ((size_t)(end - r) < sizeof(rec)) {
            e->stats.drops[HXB_DROP_LEN]++;
            return;
        }
        memcpy(&rec, r, sizeof(rec));
        if ((size_t)(end - r) - sizeof(rec) < rec.len) {
            e->stats.drops[HXB_DROP_LEN]++;
            return;
        }
    }
    for (r = q; r < end; r += sizeof(rec) + rec.len) {
        memcpy(&rec, r, sizeof(rec));
        if (!rec.len) {
            continue;
        }
        if (e->cb.mem_check &&
            e->cb.mem_check(e->cb.arg, rec.addr, rec.rkey, rec.len, 1)) {
            refused = 1;
            continue;
        }
        memcpy((void *)(uintptr_t)rec.addr, r + sizeof(rec), rec.len);
    }
    if (refused) {
        e->stats.drops[HXB_DROP_RKEY]++;
        hxb_err_send(p, h->seq, HXB_E_RKEY);
    }
}

/* responder side: answer a GET_REQ with GET_RESP frames from our memory */
int hxb_rma_get_req_rcvd(hxb_peer_t *p, const hxb_get_req_ext_t *req)
{
    hxb_engine_t *e = p->e;
    hxb_op_t *op = hxb_op_new(p, OP_GET_RESP);

    if (!op) {
        return -1;
    }
    op->u.resp.get_id = req->get_id;
    op->u.resp.rkey = req->rkey;
    if (req->length == 0 ||
        (e->cb.mem_check &&
         e->cb.mem_check(e->cb.arg, req->addr, req->rkey, req->length, 0))) {
        e->stats.drops[HXB_DROP_RKEY] += req->length != 0;
        op->u.resp.status = HXB_E_RKEY;
        op->len = 0;
    } else {
        op->data = (const uint8_t *)(uintptr_t)req->addr;
        op->len = req->length;
    }
    hxb_op_enqueue(p, op);
    return 0;
}

/* GET_RESP frames point into the responder's memory until acked, and a
 * retransmission reads it again. When a region goes (deregistered, or
 * invalidated because its reader failed), what is still queued or unacked
 * from it turns into a refusal without data: the memory may be unmapped.
 * After a completed read this changes nothing the reader sees (it has
 * every frame, so any resend is a duplicate, dropped unread); a read still
 * in progress completes at the reader with HXB_E_RKEY. Matched by rkey,
 * not address: the same buffer may be registered again for another read. */
static void rma_region_gone(hxb_peer_t *p, uint64_t rkey)
{
    hxb_op_t *op;
    uint32_t seq;

    for (op = p->ops.q[HXB_Q_RESP].head; op; op = op->next) {
        if (op->u.resp.rkey == rkey && op->off < op->len && !op->u.resp.value_len) {
            op->u.resp.status = HXB_E_RKEY;
            op->len = op->off;         /* one data-less frame at the offset */
            p->e->stats.resp_revoked++;
        }
    }
    for (seq = p->tx.una; seq != p->tx.next && hxb_seq_lt(seq, p->ops.resp_end);
         seq++) {
        hxb_txslot_t *s = HXB_TX_SLOT(p, seq);
        hxb_hdr_t *h = (hxb_hdr_t *)s->hb;
        hxb_get_resp_ext_t *ext = (hxb_get_resp_ext_t *)(h + 1);

        if (s->state == TX_FREE || h->kind != HXB_K_GET_RESP ||
            s->region != rkey || s->data_len == 0) {
            continue;
        }
        ext->status = HXB_E_RKEY;
        h->len = (uint16_t)(h->len - s->data_len);
        p->e->stats.resp_revoked++;
        s->data = NULL;
        s->data_len = 0;
    }
}

void hxb_engine_region_gone(hxb_engine_t *e, uint64_t rkey)
{
    hxb_peer_t *p;

    /* a peer with frames unacked or operations queued is active */
    for (p = e->active; p; p = p->anext) {
        rma_region_gone(p, rkey);
    }
}

/* every read of ours from the peer (GETs, fetching atomics) ends with status */
void hxb_rma_fail(hxb_peer_t *p, int status)
{
    hxb_engine_t *e = p->e;
    int i;

    for (i = 0; i < HXB_MAX_GETS; i++) {
        if (e->gets[i].peer == p) {
            e->gets[i].peer = NULL;
            hxb_complete(e, e->gets[i].comp, status);
        }
    }
    p->gets_pending = 0;
}

/* the owner's reads in flight complete as cancelled; what still arrives
 * for them is dropped */
void hxb_rma_cancel(hxb_peer_t *p, void *owner)
{
    hxb_engine_t *e = p->e;
    int i;

    for (i = 0; i < HXB_MAX_GETS; i++) {
        hxb_get_t *g = &e->gets[i];
        if (g->peer == p && hxb_owner_mine(g->owner, owner)) {
            void *c = g->comp;
            g->comp = NULL;
            g->owner = NULL;
            g->buf = NULL;
            hxb_complete(e, c, HXB_E_CANCEL);
        }
    }
}

/* a PUT: placed at once where its rkey allows (a bundle: record by record) */
void hxb_rma_put_rcvd(hxb_peer_t *p, hxb_hdr_t *h)
{
    hxb_engine_t *e = p->e;
    hxb_put_ext_t *ext = (hxb_put_ext_t *)(h + 1);
    size_t len = h->len - sizeof(*ext);

    if (h->flags & HXB_F_AM_BUNDLE) {
        rma_put_bundle_rcvd(p, h, (uint8_t *)(ext + 1), len);
        return;
    }
    if (len && e->cb.mem_check &&
        e->cb.mem_check(e->cb.arg, ext->addr, ext->rkey, len, 1)) {
        e->stats.drops[HXB_DROP_RKEY]++;
        hxb_err_send(p, h->seq, HXB_E_RKEY);
        return;
    }
    if (len) {
        memcpy((void *)(uintptr_t)ext->addr, ext + 1, len);
    }
}

/* data (or a refusal) for one of our reads */
void hxb_rma_get_resp_rcvd(hxb_peer_t *p, hxb_hdr_t *h)
{
    hxb_engine_t *e = p->e;
    hxb_get_resp_ext_t *ext = (hxb_get_resp_ext_t *)(h + 1);
    hxb_get_t *g = &e->gets[ext->get_id % HXB_MAX_GETS];
    size_t len = h->len - sizeof(*ext);
    void *comp;

    if (g->peer != p || g->id != ext->get_id) {
        e->stats.drops[HXB_DROP_DST]++;     /* stale or forged */
        return;
    }
    p->last_ack_progress = e->now;          /* the read is advancing */
    if (ext->status || ext->offset > g->len || len > g->len - ext->offset) {
        g->status = ext->status ? (int)ext->status : HXB_E_RKEY;
        g->got = g->len;
    } else {
        if (g->buf) {                       /* NULL: cancelled, dropped */
            memcpy(g->buf + ext->offset, ext + 1, len);
        }
        g->got += len;
    }
    if (g->got >= g->len) {
        comp = g->comp;
        g->peer = NULL;
        p->gets_pending--;
        hxb_complete(e, comp, g->status);
        hxb_ops_flush_check(p);
    }
}
