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
    uint64_t tag;         /* the full frame's (ack 0, an AM's total 0)      */
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

/* Make h what the receiver will rebuild (ack 0; an AM's total 0): the
 * tag is then computed over it. Before hxb_short_pack. */
void hxb_short_canon(hxb_hdr_t *h);

/* Write h's short header (hxb_short_len(h) bytes) to out. */
void hxb_short_pack(const hxb_hdr_t *h, void *out);

/* What the receiver supplies: its own address and run, and the sender's
 * run as it knows it (hxb_short_expand fills the rest from the frame). */
typedef struct hxb_short_ctx {
    uint16_t dst_node, dst_proc;
    uint32_t src_epoch, dst_epoch;
} hxb_short_ctx_t;

/* Expand the short frame of *size bytes at frame, in place: the full
 * header and extension are written in front of the payload, up to
 * HXB_SHORT_GROW bytes before frame. Returns the full frame (its size in
 * *size), or NULL with the drop reason in *why (the frame is left as it
 * was). The tag is not checked here: hxb_frame_check does. */
hxb_hdr_t *hxb_short_expand(void *frame, size_t *size, const hxb_short_ctx_t *ctx,
                            int *why);

#endif
