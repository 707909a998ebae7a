/* Active messages, both ways: am_short, am_bcopy and am_zcopy become
 * frames (short ones bundled several to a frame); received fragments are
 * reassembled and delivered in order. */
#include "hxb_engine_int.h"

#include <stdlib.h>
#include <string.h>

/* Append a short AM to the newest frame if it is still waiting to be
 * pushed: the rail carries one frame for several messages (message rate
 * of small sends). The first AM's frame becomes a bundle on the second. */
static int am_bundle(hxb_peer_t *p, unsigned am_id, const struct iovec *iov,
                     int iovcnt, size_t len)
{
    hxb_engine_t *e = p->e;
    hxb_txslot_t *s = hxb_tx_open_slot(p, HXB_K_AM);
    hxb_am_rec_t rec = {.am_id = (uint8_t)am_id, .len = (uint16_t)len};
    hxb_hdr_t *h;
    hxb_am_ext_t *ext;
    int bundled, i;
    size_t need;
    uint8_t *q;

    if (!s) {
        return 0;
    }
    h = (hxb_hdr_t *)s->hb;
    ext = (hxb_am_ext_t *)(h + 1);
    bundled = h->flags & HXB_F_AM_BUNDLE;
    need = ext->total + sizeof(rec) + len + (bundled ? 0 : sizeof(rec));
    if (need > e->frag - sizeof(*ext) || need > e->bpool.size) {
        return 0;
    }
    if (!bundled) {
        /* second AM: the first becomes a record in a buffer */
        hxb_am_rec_t first = {.am_id = ext->am_id, .len = (uint16_t)ext->total};
        if (s->buf) {             /* am_bcopy: its data is in the buffer */
            memmove(s->buf->data + sizeof(first), s->buf->data, ext->total);
        } else {                  /* am_short: its data is inline */
            if (!(s->buf = hxb_pool_get(&e->bpool))) {
                return 0;
            }
            memcpy(s->buf->data + sizeof(first), s->inl, s->inl_len);
            s->inl_len = 0;
        }
        memcpy(s->buf->data, &first, sizeof(first));
        s->buf->len = sizeof(first) + ext->total;
        s->data = s->buf->data;
        ext->am_id = 0;
        h->flags |= HXB_F_AM_BUNDLE;
    }
    q = s->buf->data + s->buf->len;
    memcpy(q, &rec, sizeof(rec));
    q += sizeof(rec);
    for (i = 0; i < iovcnt; i++) {
        memcpy(q, iov[i].iov_base, iov[i].iov_len);
        q += iov[i].iov_len;
    }
    s->buf->len += sizeof(rec) + len;
    s->data_len = (uint32_t)s->buf->len;
    ext->total = (uint32_t)s->buf->len;
    h->len = (uint16_t)(sizeof(*ext) + s->buf->len);
    e->stats.am_bundled++;
    return 1;
}

int hxb_am_send(hxb_peer_t *p, unsigned am_id, const struct iovec *iov, int iovcnt)
{
    hxb_am_ext_t ext = {.am_id = (uint8_t)am_id};
    size_t len = 0, off = 0;
    hxb_txslot_t *s;
    int i;

    if (p->failed) {
        return -HXB_E_PEER;
    }
    if (p->ops.q[HXB_Q_OPS].head) {   /* an earlier AM zcopy (or read, flush) */
        return HXB_EAGAIN;
    }
    for (i = 0; i < iovcnt; i++) {
        len += iov[i].iov_len;
    }
    if (len > HXB_AM_INLINE || len > p->e->frag) {
        return -1;
    }
    if (am_bundle(p, am_id, iov, iovcnt, len)) {
        return HXB_OK;
    }
    if (hxb_tx_room(p) == 0) {
        return HXB_EAGAIN;
    }
    ext.total = (uint32_t)len;
    s = hxb_tx_slot_new(p, HXB_K_AM, HXB_F_AM_FIRST | HXB_F_AM_LAST, &ext, sizeof(ext), len);
    for (i = 0; i < iovcnt; i++) {
        memcpy(s->inl + off, iov[i].iov_base, iov[i].iov_len);
        off += iov[i].iov_len;
    }
    s->inl_len = (uint16_t)len;
    hxb_peer_activate(p);
    hxb_ops_am_push(p);
    return HXB_OK;
}

long hxb_am_bcopy(hxb_peer_t *p, unsigned am_id, hxb_pack_cb_t pack, void *arg)
{
    hxb_engine_t *e = p->e;
    hxb_am_ext_t ext = {.am_id = (uint8_t)am_id};
    int sp = hxb_tx_short_peer(p);
    size_t frag = hxb_tx_frag(e, HXB_K_AM, 1, sp), len, off = 0, chunk;
    size_t next = hxb_tx_frag(e, HXB_K_AM, 0, sp);
    unsigned nfrag_max = (unsigned)((e->cfg.max_msg + e->frag - 1) / e->frag);
    hxb_txslot_t *s = NULL;
    hxb_buf_t *b;

    if (p->failed) {
        return -HXB_E_PEER;
    }
    if (p->ops.q[HXB_Q_OPS].head || !hxb_tx_fits(p, nfrag_max)) {
        return HXB_EAGAIN;
    }
    b = hxb_pool_get(&e->bpool);
    if (!b) {
        return HXB_EAGAIN;
    }
    len = pack(b->data, arg);
    b->len = len;
    if (len <= HXB_BUNDLE_MAX) {
        struct iovec iov = {.iov_base = b->data, .iov_len = len};
        if (am_bundle(p, am_id, &iov, 1, len)) {
            hxb_pool_put(&e->bpool, b);
            return (long)len;
        }
    }
    ext.total = (uint32_t)len;
    do {
        unsigned fl = 0;
        uint32_t opid = s ? s->opid : 0;
        chunk = len - off < frag ? len - off : frag;
        if (off == 0) fl |= HXB_F_AM_FIRST;
        if (off + chunk == len) fl |= HXB_F_AM_LAST;
        s = hxb_tx_slot_new(p, HXB_K_AM, fl, &ext, sizeof(ext), chunk);
        if (opid) {
            s->opid = opid;         /* one message, one operation */
        }
        s->data = b->data + off;
        s->data_len = (uint32_t)chunk;
        off += chunk;
        frag = next;                 /* later fragments may go short */
    } while (off < len);
    s->buf = b;     /* the last frame frees the buffer: all others are acked first */
    hxb_peer_activate(p);
    if (len <= HXB_BUNDLE_MAX && len <= e->frag) {
        hxb_ops_am_push(p);  /* small: later ones may join (as am_send) */
    } else {
        hxb_ops_kick(p);
    }
    return (long)len;
}

int hxb_am_zcopy(hxb_peer_t *p, unsigned am_id, const void *hdr, size_t hdr_len,
                 const void *data, size_t len, void *comp)
{
    hxb_op_t *op;

    if (p->failed) {
        return -HXB_E_PEER;
    }
    if (hdr_len > HXB_AM_INLINE || hdr_len + len > p->e->cfg.max_msg) {
        return -1;
    }
    if (p->ops.nops >= HXB_MAX_OPS || !(op = hxb_op_new(p, OP_AM_ZC))) {
        return HXB_EAGAIN;
    }
    op->u.am.id = am_id;
    memcpy(op->am_hdr, hdr, hdr_len);
    op->u.am.hdr_len = (uint16_t)hdr_len;
    op->data = data;
    op->len = len;
    op->comp = comp;
    hxb_op_enqueue(p, op);
    return HXB_INPROGRESS;
}

/* Active message fragment, called in sequence order. */
/* A bundle of short AMs: every record is checked before any is delivered,
 * so a malformed frame delivers nothing. */
static void am_rcvd_bundle(hxb_peer_t *p, uint8_t *data, size_t len)
{
    hxb_engine_t *e = p->e;
    hxb_am_rec_t rec;
    size_t off;

    for (off = 0; off < len; off += sizeof(rec) + rec.len) {
        if (len - off < sizeof(rec)) {
            e->stats.drops[HXB_DROP_LEN]++;
            return;
        }
        memcpy(&rec, data + off, sizeof(rec));
        if (rec.len > len - off - sizeof(rec)) {
            e->stats.drops[HXB_DROP_LEN]++;
            return;
        }
    }
    for (off = 0; off < len; off += sizeof(rec) + rec.len) {
        memcpy(&rec, data + off, sizeof(rec));
        e->stats.am_delivered++;
        e->cb.am(e->cb.arg, p, rec.am_id, data + off + sizeof(rec), rec.len);
    }
}

void hxb_am_rcvd(hxb_peer_t *p, hxb_hdr_t *h)
{
    hxb_engine_t *e = p->e;
    hxb_am_ext_t *ext = (hxb_am_ext_t *)(h + 1);
    uint8_t *data = (uint8_t *)(ext + 1);
    size_t len = h->len - sizeof(*ext);
    unsigned fl = h->flags & (HXB_F_AM_FIRST | HXB_F_AM_LAST);

    if (fl == (HXB_F_AM_FIRST | HXB_F_AM_LAST)) {
        if (ext->total != len || p->reasm.active) {
            e->stats.drops[HXB_DROP_LEN]++;
            p->reasm.active = 0;
            return;
        }
        if (h->flags & HXB_F_AM_BUNDLE) {
            am_rcvd_bundle(p, data, len);
            return;
        }
        e->stats.am_delivered++;
        e->cb.am(e->cb.arg, p, ext->am_id, data, len);
        return;
    }
    if (h->flags & HXB_F_AM_BUNDLE) {
        e->stats.drops[HXB_DROP_LEN]++;   /* a bundle is one frame */
        p->reasm.active = 0;
        return;
    }
    if (fl & HXB_F_AM_FIRST) {
        if (p->reasm.active || ext->total > e->cfg.max_msg || len > ext->total) {
            e->stats.drops[HXB_DROP_LEN]++;
            p->reasm.active = 0;
            return;
        }
        if (!p->reasm.buf && !(p->reasm.buf = malloc(e->cfg.max_msg))) {
            e->stats.drops[HXB_DROP_NOBUF]++;   /* a peer's first long AM */
            return;
        }
        p->reasm.active = 1;
        p->reasm.total = ext->total;
        p->reasm.id = ext->am_id;
        p->reasm.len = 0;
    } else if (!p->reasm.active || ext->am_id != p->reasm.id) {
        e->stats.drops[HXB_DROP_LEN]++;
        p->reasm.active = 0;
        return;
    }
    if (p->reasm.len + len > p->reasm.total) {
        e->stats.drops[HXB_DROP_LEN]++;
        p->reasm.active = 0;
        return;
    }
    memcpy(p->reasm.buf + p->reasm.len, data, len);
    p->reasm.len += len;
    if (fl & HXB_F_AM_LAST) {
        p->reasm.active = 0;
        if (p->reasm.len != p->reasm.total) {
            e->stats.drops[HXB_DROP_LEN]++;
            return;
        }
        e->stats.am_delivered++;
        e->cb.am(e->cb.arg, p, p->reasm.id, p->reasm.buf, p->reasm.len);
    }
}

/* A NOP in sequence: a cancelled frame (PROTOCOL.md 8.14). The message it
 * was part of can no longer be whole: drop what was gathered of it. */
void hxb_am_nop_rcvd(hxb_peer_t *p)
{
    if (p->reasm.active) {
        p->e->stats.drops[HXB_DROP_LEN]++;
        p->reasm.active = 0;
    }
}

/* the peer restarted: a message being reassembled is gone */
void hxb_am_reset(hxb_peer_t *p)
{
    p->reasm.active = 0;
}

void hxb_am_free(hxb_peer_t *p)
{
    free(p->reasm.buf);
}
