/* The short form of data frames (hxb_short.h, PROTOCOL.md 3.1): both
 * directions, the sender's packing and the receiver's expansion. */
#include "hxb_short.h"

#include <string.h>

/* the part of a kind's extension a short frame carries: all of a PUT's,
 * a GET_RESP's id and offset (its status is 0), none of an AM's (its id is
 * in the short header, its total only in the first fragment) */
static size_t short_ext_len(unsigned kind)
{
    switch (kind) {
    case HXB_K_AM:
        return 0;
    case HXB_K_PUT:
        return sizeof(hxb_put_ext_t);
    case HXB_K_GET_RESP:
        return offsetof(hxb_get_resp_ext_t, status);
    default:
        return (size_t)-1;
    }
}

size_t hxb_short_kind_len(unsigned kind)
{
    size_t x = short_ext_len(kind);

    return x == (size_t)-1 ? 0 : sizeof(hxb_short_hdr_t) + x;
}

size_t hxb_short_len(const hxb_hdr_t *h)
{
    size_t x = short_ext_len(h->kind);

    if (x == (size_t)-1 || (h->flags & (HXB_F_CSUM | HXB_F_AM_FIRST | HXB_F_AM_BUNDLE)) ||
        !(h->flags & HXB_F_SEQ)) {
        return 0;
    }
    if (h->kind == HXB_K_GET_RESP && ((const hxb_get_resp_ext_t *)(h + 1))->status) {
        return 0;
    }
    return sizeof(hxb_short_hdr_t) + x;
}

void hxb_short_pack(const hxb_hdr_t *h, void *out)
{
    hxb_short_hdr_t s = {
        .version = HXB_VERSION_SHORT, .kind = h->kind, .flags = h->flags,
        .src_node = h->src_node, .src_proc = h->src_proc, .seq = h->seq, .tag = 0,
    };

    if (h->kind == HXB_K_AM) {
        s.am_id = ((const hxb_am_ext_t *)(h + 1))->am_id;
    }
    memcpy(out, &s, sizeof(s));
    memcpy((uint8_t *)out + sizeof(s), h + 1, short_ext_len(h->kind));
}

uint64_t hxb_short_tag(const hxb_auth_t *auth, const void *sh, size_t n,
                       const hxb_short_ctx_t *ctx, const struct iovec *iov, int iovcnt)
{
    uint64_t buf[(12 + 12 + sizeof(hxb_put_ext_t)) / 8];
    struct iovec piece[2 + HXB_TAG_IOV];
    size_t x = n - sizeof(hxb_short_hdr_t), len = 24 + x;
    uint8_t *b = (uint8_t *)buf;
    int i, k = 1;

    if (auth->mode == HXB_AUTH_OFF) {
        return auth->job_key;
    }
    memcpy(b, sh, 12);                 /* version .. seq: the tag follows */
    memcpy(b + 12, &ctx->dst_node, 2);
    memcpy(b + 14, &ctx->dst_proc, 2);
    memcpy(b + 16, &ctx->src_epoch, 4);
    memcpy(b + 20, &ctx->dst_epoch, 4);
    memcpy(b + 24, (const uint8_t *)sh + sizeof(hxb_short_hdr_t), x);
    if (auth->mode != HXB_AUTH_FULL || !iovcnt) {
        return hxb_siphash_buf(auth->key, buf, len);
    }
    piece[0].iov_base = buf;
    piece[0].iov_len = len;
    for (i = 0; i < iovcnt && k < 2 + HXB_TAG_IOV; i++) {
        piece[k++] = iov[i];
    }
    return hxb_siphash(auth->key, piece, k);
}

hxb_hdr_t *hxb_short_expand(void *frame, size_t *size, const hxb_auth_t *auth,
                            const hxb_short_ctx_t *ctx, int *why)
{
    const hxb_short_hdr_t *s = frame;
    size_t x, full, body;
    uint8_t ext[sizeof(hxb_put_ext_t)];
    hxb_hdr_t *h;
    uint8_t kind, flags, am_id;

    if (*size < sizeof(*s)) {
        *why = HXB_DROP_SHORT;
        return NULL;
    }
    kind = s->kind;
    flags = s->flags;
    am_id = s->am_id;
    x = short_ext_len(kind);
    if (x == (size_t)-1) {
        *why = HXB_DROP_KIND;
        return NULL;
    }
    if (*size < sizeof(*s) + x || !(flags & HXB_F_SEQ) || (am_id && kind != HXB_K_AM) ||
        (flags & (HXB_F_CSUM | HXB_F_AM_FIRST | HXB_F_AM_BUNDLE))) {
        *why = HXB_DROP_LEN;
        return NULL;
    }
    full = kind == HXB_K_AM ? sizeof(hxb_am_ext_t) : kind == HXB_K_PUT ?
           sizeof(hxb_put_ext_t) : sizeof(hxb_get_resp_ext_t);
    body = *size - sizeof(*s) - x;              /* the payload */
    if (full + body > UINT16_MAX) {
        *why = HXB_DROP_LEN;
        return NULL;
    }
    {
        struct iovec pl = {(uint8_t *)frame + sizeof(*s) + x, body};
        /* no early exit on the first differing byte (as hxb_frame_check) */
        if (hxb_short_tag(auth, frame, sizeof(*s) + x, ctx, &pl, 1) ^ s->tag) {
            *why = HXB_DROP_AUTH;
            return NULL;
        }
    }
    /* the payload stays where it is; header and extension go before it,
     * over the short header (read first: the full one overlaps it) */
    h = (hxb_hdr_t *)((uint8_t *)frame + sizeof(*s) + x - full - sizeof(*h));
    memcpy(ext, s + 1, x);
    {
        uint64_t tag = s->tag;
        uint32_t seq = s->seq;
        uint16_t src_node = s->src_node, src_proc = s->src_proc;

        h->version = HXB_VERSION;
        h->kind = kind;
        h->flags = flags;
        h->hops = HXB_HOPS_MAX;
        h->len = (uint16_t)(full + body);
        h->rail = 0;
        h->reserved = 0;
        h->tag = tag;
        h->src_node = src_node;
        h->src_proc = src_proc;
        h->dst_node = ctx->dst_node;
        h->dst_proc = ctx->dst_proc;
        h->src_epoch = ctx->src_epoch;
        h->dst_epoch = ctx->dst_epoch;
        h->seq = seq;
        h->ack = 0;
        h->csum = 0;
    }
    if (kind == HXB_K_AM) {
        hxb_am_ext_t *a = (hxb_am_ext_t *)(h + 1);
        a->am_id = am_id;
        a->pad[0] = a->pad[1] = a->pad[2] = 0;
        a->total = 0;
    } else if (kind == HXB_K_PUT) {
        memcpy(h + 1, ext, sizeof(hxb_put_ext_t));
    } else {
        hxb_get_resp_ext_t *g = (hxb_get_resp_ext_t *)(h + 1);
        memcpy(&g->get_id, ext, 4);
        memcpy(&g->offset, ext + 4, 4);
        g->status = 0;
    }
    *size = sizeof(*h) + full + body;
    return h;
}
