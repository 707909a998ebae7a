/* The short form of a data frame (PROTOCOL.md 3.1): a continuation of an
 * AM, a PUT or a GET_RESP sent by UDP straight to its receiver carries 20
 * bytes of header instead of 44, and what the receiver knows already
 * (its own address and run, the sender's run, the frame's length) is left
 * out. The sender packs it from the frame's full header; the receiver
 * expands it back, in front of the payload, before any check: every check
 * and the tag then see an ordinary frame. */
#ifndef HXB_SHORT_H
#define HXB_SHORT_H

#include "hxb_wire.h"

#define HXB_VERSION_SHORT (0x80 | HXB_VERSION)  /* first byte of a short frame */

typedef struct __attribute__((packed)) hxb_short_hdr {
    uint8_t  version;     /* HXB_VERSION_SHORT                               */
    uint8_t  kind;        /* HXB_K_AM, HXB_K_PUT or HXB_K_GET_RESP           */
    uint8_t  flags;       /* HXB_F_*: SEQ always, never CSUM or AM_FIRST    */
    uint8_t  am_id;       /* AM: the message's id; else 0                    */
    uint16_t src_node;
    uint16_t src_proc;
    uint32_t seq;
    uint64_t tag;         /* hxb_short_tag: covers what the receiver adds   */
} hxb_short_hdr_t;                                           /* 20 bytes */

/* bytes a short frame grows by when expanded, at most: the receiving rail
 * leaves this much room in front of every frame it delivers */
#define HXB_SHORT_GROW \
    (sizeof(hxb_hdr_t) + sizeof(hxb_am_ext_t) - sizeof(hxb_short_hdr_t))
/* largest short header (a PUT's: its extension whole) */
#define HXB_SHORT_MAX (sizeof(hxb_short_hdr_t) + sizeof(hxb_put_ext_t))

/* The short header of the frame whose full header (and extension) is h,
 * or 0 if it has none: kind, flags (a sequenced frame, no checksum, not
 * an AM's first fragment or a bundle) and, for a GET_RESP, a status of 0. */
size_t hxb_short_len(const hxb_hdr_t *h);

/* The short header's length of a frame of this kind that has one (an AM
 * fragment after the first, a PUT, a GET_RESP), 0 for other kinds. */
size_t hxb_short_kind_len(unsigned kind);

/* Write h's short header (hxb_short_len(h) bytes) to out, its tag 0:
 * hxb_short_tag makes it. */
void hxb_short_pack(const hxb_hdr_t *h, void *out);

/* What the receiver supplies: its own address and run, and the sender's
 * run as it knows it (hxb_short_expand fills the rest from the frame). */
typedef struct hxb_short_ctx {
    uint16_t dst_node, dst_proc;
    uint32_t src_epoch, dst_epoch;
} hxb_short_ctx_t;

/* The tag of a short frame (PROTOCOL.md 8.13): SipHash-2-4 of its header
 * up to the tag (12 bytes), the ctx's four fields (12 bytes, as the full
 * header orders them), its short extension and, with full
 * authentication, the payload in iov. sh holds the header and extension
 * (n bytes); its tag field is not read. The job key with authentication
 * off. */
uint64_t hxb_short_tag(const hxb_auth_t *auth, const void *sh, size_t n,
                       const hxb_short_ctx_t *ctx, const struct iovec *iov, int iovcnt);

/* Check the short frame of *size bytes at frame (its fields, then its
 * tag under auth, the receiver's ctx), then expand it in place: the full
 * header and extension are written in front of the payload, up to
 * HXB_SHORT_GROW bytes before frame. Returns the full frame (its size in
 * *size; its tag field the short one's, its ack 0, an AM's total 0), whose
 * remaining fields hxb_frame_fields_check checks; or NULL with the drop
 * reason in *why (the frame is left as it was). */
hxb_hdr_t *hxb_short_expand(void *frame, size_t *size, const hxb_auth_t *auth,
                            const hxb_short_ctx_t *ctx, int *why);

#endif
