/* Fuzz target: hxb-relayd's HELLO parsing (contrib/relay/hxb_relay_hello.c).
 *
 * The input is a sequence of received frames, each a 2-byte little-endian
 * length (its low 9 bits; the daemon reads at most 256 bytes), one control
 * byte, then the frame. Control bits: 0x01 the frame arrives from the MAC
 * the topology gives its claimed neighbour (else from the bytes after
 * it... a stranger's), 0x02 the harness signs it with the cluster key (a
 * fuzzer cannot forge SipHash: this reaches the ordering rules), 0x04 the
 * rail is y0 instead of x0. The first input byte says whether the daemon
 * has a key (bit 0). Whatever the frames, the check must read nothing
 * outside them and never take a HELLO that
 *  - is not exactly header + extension, version 4, kind HELLO, to
 *    HXB_NODE_NONE, of the receiving rail's dimension and rail number,
 *    from a neighbour in the table, from its MAC;
 *  - with a key: has a wrong tag, or is not later (epoch, then counter)
 *    than the last one taken from that neighbour (the first is taken as is).
 * Each frame is handed over in a buffer of exactly its length, so
 * AddressSanitizer sees any read past it. */
#include "hxb_relay_hello.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NNB 4

static void die(const char *what, int v)
{
    fprintf(stderr, "fuzz_hello: %s (verdict %d)\n", what, v);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint64_t key[2] = {0x0123456789abcdefull, 0xfedcba9876543210ull};
    relay_nbr_t nb[NNB] = {
        {.node = 1, .dim = 0, .rail = 0, .mac = {2, 0x68, 0x62, 0, 1, 0}},
        {.node = 2, .dim = 0, .rail = 0, .mac = {2, 0x68, 0x62, 0, 2, 0}},
        {.node = 3, .dim = 1, .rail = 0, .mac = {2, 0x68, 0x62, 0, 3, 1}},
        {.node = 1, .dim = 1, .rail = 0, .mac = {2, 0x68, 0x62, 0, 1, 1}},
    };
    size_t off = 1;
    int keyed, t = 0;

    if (size < 1) {
        return 0;
    }
    keyed = data[0] & 1;
    while (off + 3 <= size) {
        size_t len = (data[off] | (data[off + 1] << 8)) & 0x1ff;
        unsigned ctl = data[off + 2];
        uint8_t from[6], *f;
        relay_nbr_t *n = NULL, before[NNB];
        int dim = ctl & 4 ? 1 : 0, v, i;

        off += 3;
        if (len > size - off) {
            len = size - off;
        }
        f = malloc(len ? len : 1);
        memcpy(f, data + off, len);
        off += len;
        if ((ctl & 2) && len >= sizeof(hxb_hdr_t) + sizeof(hxb_hello_ext_t)) {
            hxb_hdr_t h;
            hxb_hello_ext_t x;
            memcpy(&h, f, sizeof(h));
            memcpy(&x, f + sizeof(h), sizeof(x));
            h.tag = hxb_relay_hello_tag(key, &h, &x);
            memcpy(f, &h, sizeof(h));
        }
        /* from the claimed neighbour's MAC, or from some other address */
        memset(from, 0, sizeof(from));
        if ((ctl & 1) && len >= sizeof(hxb_hdr_t)) {
            hxb_hdr_t h;
            memcpy(&h, f, sizeof(h));
            for (i = 0; i < NNB; i++) {
                if (nb[i].node == h.src_node && nb[i].dim == dim) {
                    memcpy(from, nb[i].mac, 6);
                }
            }
        } else {
            memcpy(from, data + (off < size ? off : 0), size - off < 6 ? size - off : 6);
        }
        memcpy(before, nb, sizeof(nb));
        v = hxb_relay_hello_check(f, len, dim, 0, from, 6, nb, NNB, keyed ? key : NULL, &n);
        if (v < HXB_HELLO_IGNORED || v > HXB_HELLO_TAKEN) {
            die("unknown verdict", v);
        }
        if ((v == HXB_HELLO_IGNORED || v == HXB_HELLO_OTHER_LINE) != (n == NULL) ||
            (n && (n < nb || n >= nb + NNB))) {
            die("neighbour pointer does not match the verdict", v);
        }
        if (v != HXB_HELLO_TAKEN && memcmp(before, nb, sizeof(nb))) {
            die("table changed by a HELLO not taken", v);
        }
        if (v == HXB_HELLO_TAKEN) {
            hxb_hdr_t h;
            hxb_hello_ext_t x;
            const relay_nbr_t *b = &before[n - nb];
            if (len != sizeof(h) + sizeof(x)) {
                die("took a frame of the wrong length", v);
            }
            memcpy(&h, f, sizeof(h));
            memcpy(&x, f + sizeof(h), sizeof(x));
            if (h.version != HXB_VERSION || h.kind != HXB_K_HELLO ||
                h.dst_node != HXB_NODE_NONE || x.dim != dim || x.rail != 0 ||
                n->node != h.src_node || n->dim != dim || memcmp(from, n->mac, 6)) {
                die("took a HELLO that is not this rail's neighbour's", v);
            }
            if (keyed) {
                if (h.tag != hxb_relay_hello_tag(key, &h, &x)) {
                    die("took a HELLO with a wrong tag", v);
                }
                if (b->heard && !(h.src_epoch > b->epoch ||
                                  (h.src_epoch == b->epoch && h.seq > b->seq))) {
                    die("took a replayed HELLO", v);
                }
                if (n->epoch != h.src_epoch || n->seq != h.seq) {
                    die("did not record the HELLO taken", v);
                }
            }
            n->heard = ++t;     /* as the daemon does */
            n->alive = 1;
        }
        free(f);
    }
    return 0;
}
