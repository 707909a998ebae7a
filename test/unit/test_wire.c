/* Unit tests of the hxb wire format: hxb_frame_check() and the checksum. */
#include "hxb_wire.h"

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#define KEY      0x6878622d6b657931ull
#define FRAME_MAX 4096

/* frames are built with header authentication under this key */
static const hxb_auth_t AUTH = {.mode = HXB_AUTH_HEADER,
                                .key = {0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull},
                                .job_key = KEY};

static uint64_t rng_state = 0x123456789abcdefull;

static uint64_t rnd(void)
{
    uint64_t x = rng_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng_state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

static void fill_random(uint8_t *p, size_t len)
{
    size_t i;
    for (i = 0; i < len; i++) {
        p[i] = (uint8_t)rnd();
    }
}

/* Build a frame of `kind` into buf: header, ext, payload; returns its size. */
static size_t build(uint8_t *buf, unsigned kind, unsigned flags, const void *ext,
                    size_t ext_len, const void *payload, size_t plen)
{
    hxb_hdr_t *h = (hxb_hdr_t *)buf;

    memset(h, 0, sizeof(*h));
    h->version = HXB_VERSION;
    h->kind = (uint8_t)kind;
    h->flags = (uint8_t)flags;
    h->hops = HXB_HOPS_MAX;
    h->len = (uint16_t)(ext_len + plen);
    h->rail = 3;
    h->tag = 0;
    h->src_node = 1;
    h->src_proc = 2;
    h->dst_node = 3;
    h->dst_proc = 4;
    h->src_epoch = 0x11223344;
    h->dst_epoch = 0x55667788;
    h->seq = 77;
    h->ack = 12;
    if (ext_len) {
        memcpy(buf + sizeof(*h), ext, ext_len);
    }
    if (plen) {
        memcpy(buf + sizeof(*h) + ext_len, payload, plen);
    }
    {
        struct iovec iov = {buf + sizeof(*h), ext_len + plen};
        h->tag = hxb_frame_tag(&AUTH, h, &iov, 1);
        if (flags & HXB_F_CSUM) {
            h->csum = hxb_frame_csum(h, &iov, 1);
        }
    }
    return sizeof(*h) + ext_len + plen;
}

static size_t build_am(uint8_t *buf, size_t plen, unsigned flags)
{
    hxb_am_ext_t ext = {.am_id = 5, .total = (uint32_t)plen};
    uint8_t payload[FRAME_MAX];

    fill_random(payload, plen);
    return build(buf, HXB_K_AM, flags | HXB_F_SEQ | HXB_F_AM_FIRST | HXB_F_AM_LAST,
                 &ext, sizeof(ext), payload, plen);
}

static size_t build_ack(uint8_t *buf, unsigned nbits, size_t bitmap_bytes,
                        unsigned flags)
{
    uint8_t tmp[sizeof(hxb_ack_ext_t) + 512];
    hxb_ack_ext_t *a = (hxb_ack_ext_t *)tmp;

    ck_assert_uint_le(bitmap_bytes, 512);
    memset(tmp, 0, sizeof(tmp));
    a->cum = 100;
    a->nbits = (uint16_t)nbits;
    fill_random(tmp + sizeof(*a), bitmap_bytes);
    return build(buf, HXB_K_ACK, flags, tmp, sizeof(*a) + bitmap_bytes, NULL, 0);
}

/* ------------------------------------------------------------------ */

START_TEST(test_valid_frames)
{
    uint8_t buf[FRAME_MAX], pl[64];
    hxb_put_ext_t put = {.addr = 0x1000, .rkey = 9};
    hxb_get_req_ext_t gq = {.addr = 0x1000, .rkey = 9, .length = 10, .get_id = 1};
    hxb_get_resp_ext_t gr = {.get_id = 1, .offset = 0, .status = 0};
    hxb_err_ext_t er = {.seq = 3, .status = 1};
    hxb_ping_ext_t pg = {.stamp = 42, .rail = 1};
    size_t n;
    int csum;

    fill_random(pl, sizeof(pl));
    for (csum = 0; csum <= 1; csum++) {
        unsigned f = csum ? HXB_F_CSUM : 0;

        n = build_am(buf, 100, f);
        ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_MAX);
        n = build_am(buf, 0, f);
        ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_MAX);
        n = build(buf, HXB_K_PUT, f | HXB_F_SEQ, &put, sizeof(put), pl, sizeof(pl));
        ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_MAX);
        n = build(buf, HXB_K_GET_REQ, f | HXB_F_SEQ, &gq, sizeof(gq), NULL, 0);
        ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_MAX);
        n = build(buf, HXB_K_GET_RESP, f | HXB_F_SEQ, &gr, sizeof(gr), pl, sizeof(pl));
        ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_MAX);
        n = build(buf, HXB_K_NOP, f | HXB_F_SEQ, NULL, 0, NULL, 0);
        ck_assert_uint_eq(n, sizeof(hxb_hdr_t));
        ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_MAX);
        n = build(buf, HXB_K_ERR, f, &er, sizeof(er), NULL, 0);
        ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_MAX);
        n = build(buf, HXB_K_PING, f, &pg, sizeof(pg), NULL, 0);
        ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_MAX);
        n = build(buf, HXB_K_PONG, f, &pg, sizeof(pg), NULL, 0);
        ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_MAX);
        n = build_ack(buf, 0, 0, f);
        ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_MAX);
        n = build_ack(buf, 64, 8, f);
        ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_MAX);
        n = build_ack(buf, HXB_SACK_BITS, HXB_SACK_BITS / 8, f);
        ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_MAX);
    }
    /* Ethernet pads short frames: trailing bytes beyond header+len are fine */
    n = build(buf, HXB_K_NOP, HXB_F_SEQ | HXB_F_CSUM, NULL, 0, NULL, 0);
    memset(buf + n, 0xee, 60 - n);
    ck_assert_int_eq(hxb_frame_check(buf, 60, &AUTH), HXB_DROP_MAX);
}
END_TEST

START_TEST(test_truncated_header)
{
    uint8_t buf[FRAME_MAX];
    size_t n = build_am(buf, 100, HXB_F_CSUM), sz;

    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_MAX);
    for (sz = 0; sz < sizeof(hxb_hdr_t); sz++) {
        ck_assert_int_eq(hxb_frame_check(buf, sz, &AUTH), HXB_DROP_SHORT);
    }
}
END_TEST

START_TEST(test_bad_version)
{
    uint8_t buf[FRAME_MAX];
    size_t n;
    unsigned v;

    for (v = 0; v < 256; v++) {
        if (v == HXB_VERSION) {
            continue;
        }
        n = build_am(buf, 50, 0);
        ((hxb_hdr_t *)buf)->version = (uint8_t)v;
        ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_VERSION);
        /* version is checked before anything else in the header */
        ((hxb_hdr_t *)buf)->kind = 200;
        ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_VERSION);
    }
}
END_TEST

/* recompute the frame's checksum after a change (a forger's frame passes
 * the checksum: only the tag can stop it) */
static void resum(uint8_t *buf)
{
    hxb_hdr_t *h = (hxb_hdr_t *)buf;
    struct iovec iov = {buf + sizeof(*h), h->len};

    h->csum = hxb_frame_csum(h, &iov, 1);
}

START_TEST(test_siphash_vector)
{
    /* SipHash-2-4's reference vector (Aumasson and Bernstein, appendix A):
     * key 00..0f, message 00..0e */
    uint8_t msg[15];
    struct iovec iov[3];
    int i;

    for (i = 0; i < 15; i++) {
        msg[i] = (uint8_t)i;
    }
    iov[0].iov_base = msg;
    iov[0].iov_len = 15;
    ck_assert_uint_eq(hxb_siphash(AUTH.key, iov, 1), 0xa129ca6149be45e5ull);
    /* the same bytes in pieces across word boundaries */
    iov[0].iov_len = 3;
    iov[1].iov_base = msg + 3;
    iov[1].iov_len = 9;
    iov[2].iov_base = msg + 12;
    iov[2].iov_len = 3;
    ck_assert_uint_eq(hxb_siphash(AUTH.key, iov, 3), 0xa129ca6149be45e5ull);
    ck_assert_uint_eq(hxb_siphash_buf(AUTH.key, msg, 15), 0xa129ca6149be45e5ull);
}
END_TEST

/* a frame's tag is the MAC of exactly PROTOCOL.md 8.13's bytes: the
 * header with tag, csum, hops, rail and the CSUM flag zeroed, then the
 * extension (header mode; an ACK's bitmap included), however the frame's
 * pieces are split; short ones by the one-buffer path, a long ACK by pieces */
START_TEST(test_tag_bytes)
{
    static const size_t exts[] = {8, 16, 40, 16 + 256};
    uint8_t ext[16 + 256], ref[sizeof(hxb_hdr_t) + sizeof(ext)];
    struct iovec iov[2], one;
    hxb_hdr_t h, z;
    size_t i, k, cut, pl;

    for (k = 0; k < sizeof(ext); k++) {
        ext[k] = (uint8_t)(k * 13 + 1);
    }
    for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
        memset(&h, 0x5a, sizeof(h));
        h.kind = exts[i] == 8 ? HXB_K_AM : exts[i] == 16 ? HXB_K_PUT :
                 exts[i] == 40 ? HXB_K_ATOMIC : HXB_K_ACK;
        pl = h.kind == HXB_K_ACK ? 0 : 8;  /* a payload, not hashed */
        h.len = (uint16_t)(exts[i] + pl);
        h.flags = HXB_F_CSUM | HXB_F_SEQ;
        z = h;
        z.tag = 0;
        z.csum = 0;
        z.hops = 0;
        z.rail = 0;
        z.flags = HXB_F_SEQ;
        memcpy(ref, &z, sizeof(z));
        memcpy(ref + sizeof(z), ext, exts[i]);
        one = (struct iovec){ref, sizeof(z) + exts[i]};
        for (cut = 0; cut <= exts[i]; cut += 3) {
            iov[0] = (struct iovec){ext, cut};
            iov[1] = (struct iovec){ext + cut, exts[i] + pl - cut};
            ck_assert_uint_eq(hxb_frame_tag(&AUTH, &h, iov, 2), hxb_siphash(AUTH.key, &one, 1));
        }
    }
}
END_TEST

/* the contiguous SipHash (the tag's fast path) and the one over pieces
 * agree on every length and every split, tails and empty pieces included */
START_TEST(test_siphash_buf_pieces)
{
    uint8_t msg[80];
    struct iovec iov[3];
    size_t len, a, b;

    for (len = 0; len < sizeof(msg); len++) {
        msg[len] = (uint8_t)(len * 37 + 11);
    }
    for (len = 0; len <= sizeof(msg); len++) {
        for (a = 0; a <= len; a += 3) {
            for (b = a; b <= len; b += 5) {
                iov[0] = (struct iovec){msg, a};
                iov[1] = (struct iovec){msg + a, b - a};
                iov[2] = (struct iovec){msg + b, len - b};
                ck_assert_uint_eq(hxb_siphash(AUTH.key, iov, 3),
                                  hxb_siphash_buf(AUTH.key, msg, len));
            }
        }
    }
}
END_TEST

START_TEST(test_wrong_tag)
{
    uint8_t buf[FRAME_MAX], orig[FRAME_MAX];
    size_t n = build_am(buf, 50, HXB_F_CSUM);
    hxb_hdr_t *h = (hxb_hdr_t *)buf;
    hxb_auth_t other = AUTH, full = AUTH, off = AUTH;
    int bit;

    memcpy(orig, buf, n);
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_MAX);
    /* another job's key, in any one bit */
    for (bit = 0; bit < 128; bit++) {
        other.key[bit / 64] = AUTH.key[bit / 64] ^ (1ull << (bit % 64));
        other.key[1 - bit / 64] = AUTH.key[1 - bit / 64];
        ck_assert_int_eq(hxb_frame_check(buf, n, &other), HXB_DROP_AUTH);
    }
    /* a forger who changes any bit of the header but the rail and the hop
     * limit (relays rewrite those), and recomputes the checksum */
    for (bit = 0; bit < 8 * (int)sizeof(*h); bit++) {
        size_t byte = (size_t)bit / 8;
        if (byte == offsetof(hxb_hdr_t, csum) || byte == offsetof(hxb_hdr_t, csum) + 1 ||
            byte == offsetof(hxb_hdr_t, csum) + 2 || byte == offsetof(hxb_hdr_t, csum) + 3 ||
            byte == offsetof(hxb_hdr_t, version) || byte == offsetof(hxb_hdr_t, kind) ||
            byte == offsetof(hxb_hdr_t, len) || byte == offsetof(hxb_hdr_t, len) + 1 ||
            (byte == offsetof(hxb_hdr_t, flags) && (1u << (bit % 8)) == HXB_F_CSUM)) {
            continue;       /* checked before the tag, or the checksum itself */
        }
        memcpy(buf, orig, n);
        buf[byte] ^= (uint8_t)(1u << (bit % 8));
        resum(buf);
        ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH),
                         byte == offsetof(hxb_hdr_t, hops) || byte == offsetof(hxb_hdr_t, rail)
                         ? HXB_DROP_MAX : HXB_DROP_AUTH);
    }
    /* the extension is covered; the payload only in full mode */
    memcpy(buf, orig, n);
    buf[sizeof(*h)] ^= 1;                       /* am_id */
    resum(buf);
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_AUTH);
    memcpy(buf, orig, n);
    buf[n - 1] ^= 1;                            /* the last payload byte */
    resum(buf);
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_MAX);
    full.mode = HXB_AUTH_FULL;
    ck_assert_int_eq(hxb_frame_check(buf, n, &full), HXB_DROP_AUTH);
    {
        struct iovec iov = {buf + sizeof(*h), h->len};
        h->tag = hxb_frame_tag(&full, h, &iov, 1);
        resum(buf);
        ck_assert_int_eq(hxb_frame_check(buf, n, &full), HXB_DROP_MAX);
    }
    /* an ACK's bitmap is covered: no forged selective acks */
    n = build_ack(buf, 64, 8, HXB_F_CSUM);
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_MAX);
    buf[n - 1] ^= 0x80;
    resum(buf);
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_AUTH);
    /* off: the tag is the job key, nothing more */
    off.mode = HXB_AUTH_OFF;
    n = build_am(buf, 50, HXB_F_CSUM);
    ck_assert_int_eq(hxb_frame_check(buf, n, &off), HXB_DROP_AUTH);
    h->tag = KEY;
    resum(buf);
    ck_assert_int_eq(hxb_frame_check(buf, n, &off), HXB_DROP_MAX);
    off.job_key = KEY ^ 0x100;
    ck_assert_int_eq(hxb_frame_check(buf, n, &off), HXB_DROP_AUTH);
}
END_TEST

START_TEST(test_unknown_kind)
{
    uint8_t buf[FRAME_MAX];
    size_t n;
    unsigned k;
    int nbad = 0;

    for (k = 0; k < 256; k++) {
        n = build(buf, k, 0, NULL, 0, NULL, 0);
        if (hxb_ext_len(k) == (size_t)-1) {
            ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_KIND);
            nbad++;
        }
    }
    /* the known kinds are exactly the enum's */
    ck_assert_int_eq(nbad, 256 - 11);
    ck_assert_uint_eq(hxb_ext_len(0), (size_t)-1);
    ck_assert_uint_eq(hxb_ext_len(7), (size_t)-1);
    ck_assert_uint_eq(hxb_ext_len(15), (size_t)-1);
    ck_assert_uint_eq(hxb_ext_len(HXB_K_MAX), (size_t)-1);
    ck_assert_uint_eq(hxb_ext_len(255), (size_t)-1);
}
END_TEST

START_TEST(test_lying_length)
{
    uint8_t buf[FRAME_MAX];
    hxb_get_req_ext_t gq = {.addr = 1, .rkey = 2, .length = 3, .get_id = 4};
    hxb_hdr_t *h = (hxb_hdr_t *)buf;
    size_t n;

    /* len claims one byte more than the frame holds */
    n = build_am(buf, 100, HXB_F_CSUM);
    h->len++;
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_LEN);
    /* much more */
    n = build_am(buf, 100, HXB_F_CSUM);
    h->len = 0xffff;
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_LEN);
    /* the frame was cut short in transit */
    n = build_am(buf, 100, HXB_F_CSUM);
    ck_assert_int_eq(hxb_frame_check(buf, n - 1, &AUTH), HXB_DROP_LEN);
    ck_assert_int_eq(hxb_frame_check(buf, sizeof(hxb_hdr_t), &AUTH), HXB_DROP_LEN);
    /* shorter than the kind's extension */
    n = build_am(buf, 0, 0);
    h->len = sizeof(hxb_am_ext_t) - 1;
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_LEN);
    n = build(buf, HXB_K_PUT, 0, &gq, sizeof(hxb_put_ext_t) - 1, NULL, 0);
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_LEN);
    /* fixed-size kinds must not carry more */
    n = build(buf, HXB_K_GET_REQ, 0, &gq, sizeof(gq), "x", 1);
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_LEN);
    n = build(buf, HXB_K_NOP, 0, NULL, 0, "x", 1);
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_LEN);
    {
        hxb_atomic_ext_t at = {.op = HXB_AOP_ADD, .size = 8, .addr = 8, .rkey = 2};
        n = build(buf, HXB_K_ATOMIC, HXB_F_SEQ, &at, sizeof(at), NULL, 0);
        ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_MAX);
        n = build(buf, HXB_K_ATOMIC, HXB_F_SEQ, &at, sizeof(at) - 1, NULL, 0);
        ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_LEN);
    }
    n = build(buf, HXB_K_PING, 0, &gq, sizeof(hxb_ping_ext_t) + 1, NULL, 0);
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_LEN);
}
END_TEST

/* a lying length must not make hxb_frame_check read past the frame: put the
 * frame's end at a page boundary followed by an inaccessible page */
START_TEST(test_no_read_past_size)
{
    long pg = sysconf(_SC_PAGESIZE);
    uint8_t *map, *end, tmp[FRAME_MAX];
    size_t n, sz;

    map = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
               -1, 0);
    ck_assert_ptr_ne(map, MAP_FAILED);
    ck_assert_int_eq(mprotect(map + pg, pg, PROT_NONE), 0);
    end = map + pg;

    n = build_am(tmp, 200, HXB_F_CSUM);
    for (sz = 0; sz <= n; sz++) {
        int r;
        memcpy(end - sz, tmp, sz);
        if (sz >= sizeof(hxb_hdr_t)) {
            ((hxb_hdr_t *)(end - sz))->len = 0xffff;   /* lies */
        }
        r = hxb_frame_check(end - sz, sz, &AUTH);
        ck_assert_int_eq(r, sz < sizeof(hxb_hdr_t) ? HXB_DROP_SHORT : HXB_DROP_LEN);
    }
    /* an ACK whose header fits but whose claimed bitmap does not */
    n = build_ack(tmp, HXB_SACK_BITS, HXB_SACK_BITS / 8, HXB_F_CSUM);
    memcpy(end - (sizeof(hxb_hdr_t) + sizeof(hxb_ack_ext_t)), tmp,
           sizeof(hxb_hdr_t) + sizeof(hxb_ack_ext_t));
    ck_assert_int_eq(hxb_frame_check(end - (sizeof(hxb_hdr_t) + sizeof(hxb_ack_ext_t)),
                                     sizeof(hxb_hdr_t) + sizeof(hxb_ack_ext_t), &AUTH),
                     HXB_DROP_LEN);
    munmap(map, 2 * pg);
}
END_TEST

START_TEST(test_ack_nbits)
{
    uint8_t buf[FRAME_MAX];
    size_t n;

    /* nbits not a multiple of 64 (len consistent with nbits/8) */
    n = build_ack(buf, 63, 7, 0);
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_LEN);
    n = build_ack(buf, 8, 1, HXB_F_CSUM);
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_LEN);
    n = build_ack(buf, 65, 8, 0);
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_LEN);
    /* more than the largest bitmap */
    n = build_ack(buf, HXB_SACK_BITS + 64, (HXB_SACK_BITS + 64) / 8, 0);
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_LEN);
    /* bitmap shorter / longer than nbits says */
    n = build_ack(buf, 128, 8, 0);
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_LEN);
    n = build_ack(buf, 64, 16, HXB_F_CSUM);
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_LEN);
    n = build_ack(buf, 0, 8, 0);
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_LEN);
    /* and the consistent ones pass */
    n = build_ack(buf, 128, 16, HXB_F_CSUM);
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_MAX);
}
END_TEST

START_TEST(test_corrupt_with_csum)
{
    uint8_t buf[FRAME_MAX];
    hxb_hdr_t *h = (hxb_hdr_t *)buf;
    size_t n;

    n = build_am(buf, 300, HXB_F_CSUM);
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_MAX);
    buf[n - 1] ^= 0x40;                          /* last payload byte */
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_CSUM);

    n = build_am(buf, 300, HXB_F_CSUM);
    buf[sizeof(*h)] ^= 0x01;                     /* am_id in the extension */
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_CSUM);

    n = build_am(buf, 300, HXB_F_CSUM);
    h->seq ^= 0x100;                             /* a header field */
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_CSUM);

    n = build_am(buf, 300, HXB_F_CSUM);
    h->csum ^= 1;                                /* the sum itself */
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_CSUM);

    /* damage that clears HXB_F_CSUM (and flips AM_FIRST) must not switch
     * the check off: the sum is still there */
    n = build_am(buf, 300, HXB_F_CSUM);
    h->flags ^= HXB_F_CSUM;
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_CSUM);
    n = build_am(buf, 300, HXB_F_CSUM);
    h->flags ^= HXB_F_CSUM | HXB_F_AM_FIRST | 0x80;
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_CSUM);
    /* an unflagged frame whose csum field got damaged */
    n = build_am(buf, 300, 0);
    ck_assert_uint_eq(h->csum, 0);
    h->csum = 0x00100000;
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_CSUM);

    /* without HXB_F_CSUM the same damage is not detectable by the frame */
    n = build_am(buf, 300, 0);
    buf[n - 1] ^= 0x40;
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_MAX);
}
END_TEST

/* hops and rail are rewritten by relays: they are outside the sum */
START_TEST(test_csum_ignores_hops_rail)
{
    uint8_t buf[FRAME_MAX];
    hxb_hdr_t *h = (hxb_hdr_t *)buf;
    size_t n = build_am(buf, 80, HXB_F_CSUM);

    h->hops = 1;
    h->rail = 9;
    ck_assert_int_eq(hxb_frame_check(buf, n, &AUTH), HXB_DROP_MAX);
}
END_TEST

START_TEST(test_csum_split_iov)
{
    uint8_t buf[FRAME_MAX], flat[FRAME_MAX];
    hxb_hdr_t *h = (hxb_hdr_t *)buf, hz;
    struct iovec iov[64];
    size_t plen = 333, i, j, off;
    uint8_t *pl = buf + sizeof(*h);
    uint32_t ref;
    int cnt, round;

    build_am(buf, plen - sizeof(hxb_am_ext_t), HXB_F_CSUM);
    iov[0].iov_base = pl;
    iov[0].iov_len = plen;
    ref = hxb_frame_csum(h, iov, 1);
    ck_assert_uint_eq(ref, h->csum);

    /* equals the plain sum of the header (csum, hops, rail zeroed) + rest */
    hz = *h;
    hz.csum = 0;
    hz.hops = 0;
    hz.rail = 0;
    memcpy(flat, &hz, sizeof(hz));
    memcpy(flat + sizeof(hz), pl, plen);
    ck_assert_uint_eq(hxb_csum(flat, sizeof(hz) + plen), ref);

    /* no iovec at all for an empty body */
    {
        hxb_hdr_t e = *h;
        e.len = 0;
        memcpy(flat, &e, sizeof(e));
        ((hxb_hdr_t *)flat)->csum = 0;
        ((hxb_hdr_t *)flat)->hops = 0;
        ((hxb_hdr_t *)flat)->rail = 0;
        ck_assert_uint_eq(hxb_frame_csum(&e, NULL, 0), hxb_csum(flat, sizeof(e)));
    }

    /* every two-way and three-way split */
    for (i = 0; i <= plen; i++) {
        iov[0].iov_base = pl;
        iov[0].iov_len = i;
        iov[1].iov_base = pl + i;
        iov[1].iov_len = plen - i;
        ck_assert_uint_eq(hxb_frame_csum(h, iov, 2), ref);
        for (j = i; j <= plen; j += 7) {
            iov[1].iov_len = j - i;
            iov[2].iov_base = pl + j;
            iov[2].iov_len = plen - j;
            ck_assert_uint_eq(hxb_frame_csum(h, iov, 3), ref);
        }
    }
    /* random splits into many pieces, including empty ones */
    for (round = 0; round < 2000; round++) {
        off = 0;
        cnt = 0;
        while (off < plen && cnt < 63) {
            size_t k = rnd() % 20;
            if (k > plen - off) {
                k = plen - off;
            }
            iov[cnt].iov_base = pl + off;
            iov[cnt++].iov_len = k;
            off += k;
        }
        iov[cnt].iov_base = pl + off;
        iov[cnt++].iov_len = plen - off;
        ck_assert_uint_eq(hxb_frame_csum(h, iov, cnt), ref);
    }
    /* single bytes */
    {
        struct iovec one[400];
        for (i = 0; i < plen; i++) {
            one[i].iov_base = pl + i;
            one[i].iov_len = 1;
        }
        ck_assert_uint_eq(hxb_frame_csum(h, one, (int)plen), ref);
    }
}
END_TEST

/* Every single-byte change of a checksummed frame is caught: the sum
 * changes, and hxb_frame_check rejects the frame (for one reason or
 * another), including changes of the flags byte that clear HXB_F_CSUM.
 * Exempt: hops and rail (outside the sum by design). */
START_TEST(test_single_byte_change)
{
    uint8_t buf[FRAME_MAX], orig[FRAME_MAX];
    const size_t hdr = sizeof(hxb_hdr_t);
    size_t n, pos;
    unsigned x;
    int plens[] = {0, 1, 7, 8, 9, 100, 1000}, pi;

    for (pi = 0; pi < (int)(sizeof(plens) / sizeof(plens[0])); pi++) {
        n = build_am(orig, plens[pi], HXB_F_CSUM);
        for (pos = 0; pos < n; pos++) {
            if (pos == offsetof(hxb_hdr_t, hops) || pos == offsetof(hxb_hdr_t, rail)) {
                continue;
            }
            for (x = 1; x < 256; x++) {
                int r;
                memcpy(buf, orig, n);
                buf[pos] ^= (uint8_t)x;
                r = hxb_frame_check(buf, n, &AUTH);
                if (r == HXB_DROP_MAX) {
                    ck_abort_msg("plen %d: byte %zu ^ 0x%02x not detected",
                                 plens[pi], pos, x);
                }
                /* the sum itself moved (csum field excluded: it is the sum) */
                if (pos < offsetof(hxb_hdr_t, csum) || pos >= hdr) {
                    struct iovec iov = {buf + hdr, n - hdr};
                    ck_assert_uint_ne(hxb_frame_csum((hxb_hdr_t *)buf, &iov, 1),
                                      ((hxb_hdr_t *)orig)->csum);
                }
            }
        }
    }
}
END_TEST

/* hxb_csum over plain buffers: any byte change at any position changes it */
START_TEST(test_csum_random_buffers)
{
    uint8_t b[256];
    int round;

    for (round = 0; round < 20000; round++) {
        size_t len = 1 + rnd() % sizeof(b), pos = rnd() % len;
        uint32_t s0;
        uint8_t x = (uint8_t)(1 + rnd() % 255);
        fill_random(b, len);
        if (round % 4 == 0) {
            memset(b, 0xff, len);            /* sums near the carry limits */
        } else if (round % 4 == 1) {
            memset(b, 0, len);
        }
        s0 = hxb_csum(b, len);
        b[pos] ^= x;
        ck_assert_uint_ne(hxb_csum(b, len), s0);
    }
    /* an all-zero buffer does not sum to zero */
    memset(b, 0, sizeof(b));
    ck_assert_uint_ne(hxb_csum(b, sizeof(b)), 0);
}
END_TEST

/* The 128-bit sum is folded to 64 bits; the fold must keep the end-around
 * carry, or sums on either side of the carry boundary collide. Here the
 * 128-bit sums are 2*2^64 + (2^64-1-2^32) and 2*2^64 + (2^64-1), which
 * differ by 2^32 (a +1 in byte 4 of the last word): without the carry both
 * fold to 1. */
START_TEST(test_csum_fold_carry)
{
    uint64_t w[4] = {0xffffffffffffffffull, 0xffffffffffffffffull,
                     0xffffffff00000001ull, 0};
    uint64_t v[4];
    int lane, d;

    memcpy(v, w, sizeof(w));
    ((uint8_t *)&v[3])[4] = 1;          /* little-endian: += 2^32 */
    ck_assert_uint_ne(hxb_csum(w, sizeof(w)), hxb_csum(v, sizeof(v)));

    /* every byte lane and delta, with the low 64 bits of the sum landing
     * exactly on 2^64-1 after the change */
    for (lane = 0; lane < 8; lane++) {
        for (d = 1; d < 256; d++) {
            uint64_t bump = (uint64_t)d << (8 * lane);
            uint64_t base[4] = {0xffffffffffffffffull, 0xffffffffffffffffull,
                                0, 0};
            base[2] = 0xffffffffffffffffull - bump + 2;  /* L = 2^64-1-bump */
            memcpy(v, base, sizeof(base));
            ((uint8_t *)&v[3])[lane] = (uint8_t)d;
            ck_assert_uint_ne(hxb_csum(base, sizeof(base)), hxb_csum(v, sizeof(v)));
        }
    }
}
END_TEST

/* The definition (PROTOCOL.md 8.8): 64-bit little-endian words (the last
 * one zero-padded) summed in 128 bits, folded with end-around carries.
 * The library sums faster (32-bit halves in vector lanes): it must give
 * the same value for every length and content, carries included. */
static uint32_t csum_reference(const uint8_t *b, size_t len)
{
    unsigned __int128 sum = 0;
    uint64_t w, r;
    size_t i;

    for (i = 0; i < len; i += 8) {
        w = 0;
        memcpy(&w, b + i, len - i < 8 ? len - i : 8);
        sum += w;
    }
    r = (uint64_t)sum + (uint64_t)(sum >> 64);
    r += r < (uint64_t)sum;
    r = (r & 0xffffffffu) + (r >> 32);
    r = (r & 0xffffffffu) + (r >> 32);
    return (uint32_t)r ^ 0x5a5a5a5au;
}

START_TEST(test_csum_matches_reference)
{
    static uint8_t b[20000];
    int round;

    for (round = 0; round < 3000; round++) {
        size_t len = rnd() % sizeof(b), off = rnd() % 16;
        if (len + off > sizeof(b)) {
            len = sizeof(b) - off;
        }
        fill_random(b, sizeof(b));
        if (round % 3 == 0) {
            memset(b, 0xff, sizeof(b));    /* every lane at its carry limit */
        } else if (round % 3 == 1) {
            memset(b + off, 0xff, len / 2);
        }
        ck_assert_uint_eq(hxb_csum(b + off, len), csum_reference(b + off, len));
    }
}
END_TEST

static Suite *wire_suite(void)
{
    Suite *s = suite_create("wire");
    TCase *tc = tcase_create("frame");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_valid_frames);
    tcase_add_test(tc, test_truncated_header);
    tcase_add_test(tc, test_bad_version);
    tcase_add_test(tc, test_siphash_vector);
    tcase_add_test(tc, test_siphash_buf_pieces);
    tcase_add_test(tc, test_tag_bytes);
    tcase_add_test(tc, test_wrong_tag);
    tcase_add_test(tc, test_unknown_kind);
    tcase_add_test(tc, test_lying_length);
    tcase_add_test(tc, test_no_read_past_size);
    tcase_add_test(tc, test_ack_nbits);
    tcase_add_test(tc, test_corrupt_with_csum);
    tcase_add_test(tc, test_csum_ignores_hops_rail);
    suite_add_tcase(s, tc);

    tc = tcase_create("checksum");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_csum_split_iov);
    tcase_add_test(tc, test_single_byte_change);
    tcase_add_test(tc, test_csum_random_buffers);
    tcase_add_test(tc, test_csum_fold_carry);
    tcase_add_test(tc, test_csum_matches_reference);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(wire_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
