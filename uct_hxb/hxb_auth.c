/* SipHash-2-4 and the key of the job (hxb_auth.h). SipHash: a 64-bit MAC
 * built for short inputs, about 1.5 cycles a byte plus 20 for the end: a
 * header and extension cost some 100 ns, a fraction of a frame's cost in
 * the kernel. */
#include "hxb_auth.h"

#include <string.h>
#include <strings.h>

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

#define SIPROUND(v0, v1, v2, v3)                                              \
    do {                                                                      \
        v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32);             \
        v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2;                                \
        v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0;                                \
        v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32);             \
    } while (0)

static uint64_t load64(const uint8_t *p)
{
    uint64_t w;

    memcpy(&w, p, 8);   /* little-endian hosts only, as the wire itself */
    return w;
}

#define SIP_INIT(key)                                                         \
    uint64_t v0 = 0x736f6d6570736575ull ^ (key)[0], v1 = 0x646f72616e646f6dull ^ (key)[1]; \
    uint64_t v2 = 0x6c7967656e657261ull ^ (key)[0], v3 = 0x7465646279746573ull ^ (key)[1]

#define SIP_WORD(m)                                                           \
    do {                                                                      \
        v3 ^= (m);                                                            \
        SIPROUND(v0, v1, v2, v3);                                             \
        SIPROUND(v0, v1, v2, v3);                                             \
        v0 ^= (m);                                                            \
    } while (0)

#define SIP_FINAL(part, total)                                                \
    do {                                                                      \
        uint64_t last_ = (part) | ((uint64_t)((total) & 0xff) << 56);         \
        SIP_WORD(last_);                                                      \
        v2 ^= 0xff;                                                           \
        SIPROUND(v0, v1, v2, v3);                                             \
        SIPROUND(v0, v1, v2, v3);                                             \
        SIPROUND(v0, v1, v2, v3);                                             \
        SIPROUND(v0, v1, v2, v3);                                             \
    } while (0)

uint64_t hxb_siphash_buf(const uint64_t key[2], const void *data, size_t len)
{
    const uint8_t *p = data;
    uint64_t part = 0;
    size_t n;
    SIP_INIT(key);

    for (n = len; n >= 8; p += 8, n -= 8) {
        SIP_WORD(load64(p));
    }
    memcpy(&part, p, n);    /* the tail, little-endian, zero above */
    SIP_FINAL(part, len);
    return v0 ^ v1 ^ v2 ^ v3;
}

uint64_t hxb_siphash(const uint64_t key[2], const struct iovec *iov, int iovcnt)
{
    uint64_t part = 0;
    size_t total = 0, len;
    unsigned npart = 0;
    const uint8_t *p;
    int i;
    SIP_INIT(key);

    for (i = 0; i < iovcnt; i++) {
        p = iov[i].iov_base;
        len = iov[i].iov_len;
        total += len;
        /* finish a word begun in the previous piece */
        while (npart && len) {
            part |= (uint64_t)*p++ << (8 * npart++);
            len--;
            if (npart == 8) {
                SIP_WORD(part);
                part = 0;
                npart = 0;
            }
        }
        for (; len >= 8; p += 8, len -= 8) {
            SIP_WORD(load64(p));
        }
        while (len--) {
            part |= (uint64_t)*p++ << (8 * npart++);
        }
    }
    SIP_FINAL(part, total);
    return v0 ^ v1 ^ v2 ^ v3;
}

void hxb_auth_derive(const void *secret, size_t len, uint64_t key[2])
{
    /* two SipHashes of the secret under fixed, different keys */
    static const uint64_t k0[2] = {0x6878622d61757468ull, 0x2d6b64662d6b3000ull};
    static const uint64_t k1[2] = {0x6878622d61757468ull, 0x2d6b64662d6b3100ull};
    struct iovec iov = {(void *)secret, len};

    key[0] = hxb_siphash(k0, &iov, 1);
    key[1] = hxb_siphash(k1, &iov, 1);
}

int hxb_auth_mode(const char *name)
{
    if (!strcasecmp(name, "header")) {
        return HXB_AUTH_HEADER;
    } else if (!strcasecmp(name, "full")) {
        return HXB_AUTH_FULL;
    } else if (!strcasecmp(name, "off")) {
        return HXB_AUTH_OFF;
    }
    return -1;
}
