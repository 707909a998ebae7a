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

void hxb_short_canon(hxb_hdr_t *h)
{
    h->ack = 0;
    if (h->kind == HXB_K_AM) {
        ((hxb_am_ext_t *)(h + 1))->total = 0;
    }
}

void hxb_short_pack(const hxb_hdr_t *h, void *out)
{
    hxb_short_hdr_t s = {
        .version = HXB_VERSION_SHORT, .kind = h->kind, .flags = h->flags,
        .src_node = h->src_node, .src_proc = h->src_proc, .seq = h->seq, .tag = h->tag,
    };

    if (h->kind == HXB_K_AM) {
        s.am_id = ((const hxb_am_ext_t *)(h + 1))->am_id;
    }
    memcpy(out, &s, sizeof(s));
    memcpy((uint8_t *)out + sizeof(s), h + 1, short_ext_len(h->kind));
}

hxb_hdr_t *hxb_short_expand(void *frame, size_t *size, const hxb_short_ctx_t *ctx,
                            int *why)
{
    hxb_short_hdr_t s;
    hxb_hdr_t h;
    uint8_t ext[sizeof(hxb_put_ext_t)];
    size_t x, full, body;
    uint8_t *at;

    if (*size < sizeof(s)) {
        *why = HXB_DROP_SHORT;
        return NULL;
    }
    memcpy(&s, frame, sizeof(s));
    x = short_ext_len(s.kind);
    if (x == (size_t)-1) {
        *why = HXB_DROP_KIND;
        return NULL;
    }
    if (*size < sizeof(s) + x || !(s.flags & HXB_F_SEQ) || (s.am_id && s.kind != HXB_K_AM) ||
        (s.flags & (HXB_F_CSUM | HXB_F_AM_FIRST | HXB_F_AM_BUNDLE))) {
        *why = HXB_DROP_LEN;
        return NULL;
    }
    full = hxb_ext_len(s.kind);
    body = *size - sizeof(s) - x;              /* the payload */
    if (full + body > UINT16_MAX) {
        *why = HXB_DROP_LEN;
        return NULL;
    }
    memset(ext, 0, sizeof(ext));
    memcpy(ext, (uint8_t *)frame + sizeof(s), x);
    if (s.kind == HXB_K_AM) {
        ext[0] = s.am_id;                      /* hxb_am_ext_t: am_id first */
    }
    memset(&h, 0, sizeof(h));
    h.version = HXB_VERSION;
    h.kind = s.kind;
    h.flags = s.flags;
    h.hops = HXB_HOPS_MAX;
    h.len = (uint16_t)(full + body);
    h.tag = s.tag;
    h.src_node = s.src_node;
    h.src_proc = s.src_proc;
    h.dst_node = ctx->dst_node;
    h.dst_proc = ctx->dst_proc;
    h.src_epoch = ctx->src_epoch;
    h.dst_epoch = ctx->dst_epoch;
    h.seq = s.seq;
    /* the payload stays where it is; header and extension go before it */
    at = (uint8_t *)frame + sizeof(s) + x - full - sizeof(h);
    memcpy(at, &h, sizeof(h));
    memcpy(at + sizeof(h), ext, full);
    *size = sizeof(h) + full + body;
    return (hxb_hdr_t *)at;
}
