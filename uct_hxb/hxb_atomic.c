/* Atomic operations, both sides: posted and fetching atomics become ATOMIC
 * frames (posted ones bundled); the target does them on its memory with
 * the CPU's atomics and answers fetches as a GET is answered. */
#include "hxb_engine_int.h"

#include <string.h>

/* Append an atomic to the newest frame if it is an ATOMIC still waiting to
 * be pushed: posted adds (UCP's ucp_atomic_add, SHMEM's) cost a frame each
 * otherwise, about 4 us of host time here (220k/s). The extension is the
 * first operation; the payload holds the others, whole extensions. */
static int atomic_bundle(hxb_peer_t *p, const hxb_atomic_ext_t *x)
{
    hxb_engine_t *e = p->e;
    hxb_txslot_t *s = hxb_tx_open_slot(p, HXB_K_ATOMIC);
    hxb_hdr_t *h;
    size_t have;

    if (!s) {
        return 0;
    }
    h = (hxb_hdr_t *)s->hb;
    have = s->buf ? s->buf->len : 0;
    if (have + 2 * sizeof(*x) > e->frag || have + sizeof(*x) > e->bpool.size) {
        return 0;
    }
    if (!s->buf) {
        if (!(s->buf = hxb_pool_get(&e->bpool))) {
            return 0;
        }
        s->buf->len = 0;
        s->data = s->buf->data;
        h->flags |= HXB_F_AM_BUNDLE;
    }
    memcpy(s->buf->data + s->buf->len, x, sizeof(*x));
    s->buf->len += sizeof(*x);
    s->data_len = (uint32_t)s->buf->len;
    h->len = (uint16_t)(sizeof(*x) + s->buf->len);
    e->stats.atomic_bundled++;
    return 1;
}

int hxb_atomic(hxb_peer_t *p, unsigned aop, unsigned size, uint64_t value,
               uint64_t compare, uint64_t raddr, uint64_t rkey, void *result,
               void *comp)
{
    hxb_atomic_ext_t ext = {.op = (uint8_t)aop, .size = (uint8_t)size,
                            .fetch = result != NULL, .addr = raddr, .rkey = rkey,
                            .value = value, .compare = compare};
    hxb_get_t *g = NULL;
    hxb_txslot_t *s;

    if (p->failed) {
        return -HXB_E_PEER;
    }
    if ((size != 4 && size != 8) || aop >= HXB_AOP_MAX ||
        (!result && (aop == HXB_AOP_SWAP || aop == HXB_AOP_CSWAP))) {
        return -1;
    }
    /* a fetch is a read of the old value: its answer and every way it can
     * end (failure, cancel, flush) are a GET's */
    if (result) {
        if (!(g = hxb_get_alloc(p, result, size, comp))) {
            return HXB_EAGAIN;
        }
        ext.get_id = g->id;
    }
    if (atomic_bundle(p, &ext)) {
        p->gets_pending += g != NULL;
    } else {
        if (hxb_tx_room(p) == 0) {
            if (g) {
                g->peer = NULL;
            }
            return HXB_EAGAIN;
        }
        p->gets_pending += g != NULL;   /* before the frame may leave */
        s = hxb_tx_slot_new(p, HXB_K_ATOMIC, 0, &ext, sizeof(ext), 0);
        s->last = 1;          /* a refused post goes to the next flush */
        hxb_peer_activate(p);
        hxb_ops_put_push(p);
    }
    return result ? HXB_INPROGRESS : HXB_OK;
}

/* the operation on the target, by this CPU: atomic against every other
 * CPU's atomics on the same word (UCT_IFACE_FLAG_ATOMIC_CPU) */
#define HXB_ATOMIC_DO(_t, _ptr, _x)                                           \
    do {                                                                      \
        _t *q = (_t *)(_ptr), v = (_t)(_x)->value, c = (_t)(_x)->compare;     \
        switch ((_x)->op) {                                                   \
        case HXB_AOP_ADD:  old = __atomic_fetch_add(q, v, __ATOMIC_SEQ_CST); break; \
        case HXB_AOP_AND:  old = __atomic_fetch_and(q, v, __ATOMIC_SEQ_CST); break; \
        case HXB_AOP_OR:   old = __atomic_fetch_or(q, v, __ATOMIC_SEQ_CST); break;  \
        case HXB_AOP_XOR:  old = __atomic_fetch_xor(q, v, __ATOMIC_SEQ_CST); break; \
        case HXB_AOP_SWAP: old = __atomic_exchange_n(q, v, __ATOMIC_SEQ_CST); break; \
        default:                                                              \
            __atomic_compare_exchange_n(q, &c, v, 0, __ATOMIC_SEQ_CST,        \
                                        __ATOMIC_SEQ_CST);                    \
            old = c;           /* the value found, swapped or not */         \
        }                                                                     \
    } while (0)
/* one operation of an ATOMIC frame; returns 1 if a post was refused */
static int atomic_do_one(hxb_peer_t *p, const uint8_t *rec)
{
    hxb_engine_t *e = p->e;
    hxb_atomic_ext_t x;
    hxb_op_t *op;
    uint64_t old = 0;
    int refused;

    memcpy(&x, rec, sizeof(x));
    refused = (x.size != 4 && x.size != 8) || x.op >= HXB_AOP_MAX ||
              (x.addr & (x.size - 1)) ||
              (e->cb.mem_check && e->cb.mem_check(e->cb.arg, x.addr, x.rkey, x.size, 1));
    if (refused) {
        e->stats.drops[HXB_DROP_RKEY]++;
    } else if (e->stats.atomics_done++, x.size == 4) {
        uint32_t o32;
        HXB_ATOMIC_DO(uint32_t, (uintptr_t)x.addr, &x);
        o32 = (uint32_t)old;
        old = o32;
    } else {
        HXB_ATOMIC_DO(uint64_t, (uintptr_t)x.addr, &x);
    }
    if (!x.fetch) {
        return refused;
    }
    if (!(op = hxb_op_new(p, OP_GET_RESP))) {
        /* no memory: no answer, and the fetch waits for good (as a GET
         * would); the operation itself was done */
        return 0;
    }
    op->u.resp.get_id = x.get_id;
    if (refused) {
        op->u.resp.status = HXB_E_RKEY;
        op->len = 0;
    } else {
        memcpy(op->u.resp.value, &old, x.size);  /* little-endian: the low bytes */
        op->u.resp.value_len = x.size;
        op->len = x.size;
    }
    hxb_op_enqueue(p, op);
    return 0;
}

int hxb_atomic_rcvd(hxb_peer_t *p, const hxb_hdr_t *h)
{
    const uint8_t *rec = (const uint8_t *)(h + 1);
    size_t n = h->len / sizeof(hxb_atomic_ext_t), i;
    int refused = 0;

    /* one operation, or a bundle of whole ones (PROTOCOL.md section 5) */
    if ((h->len % sizeof(hxb_atomic_ext_t)) ||
        (n != 1 && !(h->flags & HXB_F_AM_BUNDLE))) {
        p->e->stats.drops[HXB_DROP_LEN]++;
        return 0;
    }
    for (i = 0; i < n; i++) {
        refused |= atomic_do_one(p, rec + i * sizeof(hxb_atomic_ext_t));
    }
    return refused;
}
