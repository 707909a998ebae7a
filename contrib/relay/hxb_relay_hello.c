/* hxb-relayd's judgement of a received HELLO (hxb_relay_hello.h). */
#include "hxb_relay_hello.h"

#include "hxb_auth.h"

#include <string.h>
#include <sys/uio.h>

relay_nbr_t *hxb_relay_find_nbr(relay_nbr_t *nb, int n, int node, int dim, int rail)
{
    int i;

    for (i = 0; i < n; i++) {
        if (nb[i].node == node && nb[i].dim == dim && nb[i].rail == rail) {
            return &nb[i];
        }
    }
    return NULL;
}

/* header authentication's rule (hxb_frame_tag, PROTOCOL.md 8.13), under
 * the cluster key instead of a job's */
uint64_t hxb_relay_hello_tag(const uint64_t key[2], const hxb_hdr_t *h,
                             const hxb_hello_ext_t *x)
{
    hxb_auth_t auth = {.mode = HXB_AUTH_HEADER, .key = {key[0], key[1]}};
    struct iovec iov = {(void *)x, sizeof(*x)};

    return hxb_frame_tag(&auth, h, &iov, 1);
}

int hxb_relay_hello_check(const void *buf, size_t len, int dim, int rail,
                          const uint8_t *from_mac, unsigned from_halen,
                          relay_nbr_t *nb, int nnb, const uint64_t *key,
                          relay_nbr_t **nbr)
{
    const hxb_hdr_t *h = buf;
    const hxb_hello_ext_t *x = (const void *)(h + 1);
    relay_nbr_t *n;
    int later;

    *nbr = NULL;
    if (len != sizeof(*h) + sizeof(*x) || h->version != HXB_VERSION ||
        h->kind != HXB_K_HELLO || h->dst_node != HXB_NODE_NONE) {
        return HXB_HELLO_IGNORED;
    }
    n = hxb_relay_find_nbr(nb, nnb, h->src_node, x->dim, x->rail);
    if (x->dim != dim || x->rail != rail || n == NULL) {
        return HXB_HELLO_OTHER_LINE;   /* not a HELLO of this rail's line */
    }
    *nbr = n;
    /* the node it claims to be must also be the one the topology puts
     * there: a HELLO from another address (a misconfigured daemon, a
     * stranger on the switch) must not keep a dead neighbour alive */
    if (from_halen != 6 || memcmp(from_mac, n->mac, 6)) {
        return HXB_HELLO_OTHER_MAC;
    }
    /* with a cluster key: its MAC, and later than the last one taken
     * (a restarted daemon has a later epoch, its start time; one whose
     * clock stepped back stays unheard until we restart too: a replay
     * must never revive a neighbour). The first one heard is taken as
     * it is: a neighbour never heard counts as alive anyway. */
    if (key) {
        later = !n->heard || h->src_epoch > n->epoch ||
                (h->src_epoch == n->epoch && h->seq > n->seq);
        if (h->tag != hxb_relay_hello_tag(key, h, x)) {
            return HXB_HELLO_BAD_TAG;
        }
        if (!later) {
            return HXB_HELLO_REPLAYED;
        }
        n->epoch = h->src_epoch;
        n->seq = h->seq;
    }
    return HXB_HELLO_TAKEN;
}
