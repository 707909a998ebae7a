/* Endpoints: UCT operations mapped onto an engine peer. Several UCT eps to
 * one peer share the peer's sequence space, so ordering holds per peer. */
#ifdef HAVE_CONFIG_H
#include "hxb_config.h"
#endif
#include "uct_hxb.h"
#include "hxb_relay_mark.h"
#include "hxb_route.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <uct/base/uct_iov.inl>

static UCS_F_ALWAYS_INLINE ucs_status_t uct_hxb_status(long ret)
{
    if (ret == HXB_OK) {
        return UCS_OK;
    } else if (ret == HXB_INPROGRESS) {
        return UCS_INPROGRESS;
    } else if (ret == HXB_EAGAIN) {
        return UCS_ERR_NO_RESOURCE;
    } else if (ret == -HXB_E_PEER) {
        return UCS_ERR_ENDPOINT_TIMEOUT;
    } else if (ret == -HXB_E_RKEY) {
        return UCS_ERR_INVALID_ADDR;     /* as a completion reports it */
    }
    return UCS_ERR_INVALID_PARAM;
}

/* An operation issued after a fence waits until everything before it is
 * acknowledged: PUT frames are placed in arrival order, so this is what
 * keeps "put; fence; put" to one address ordered. */
static UCS_F_ALWAYS_INLINE int uct_hxb_ep_fenced(uct_hxb_ep_t *ep)
{
    if (ucs_likely(!ep->fence)) {
        return 0;
    }
    if (!hxb_peer_tx_idle(ep->peer)) {
        return 1;
    }
    ep->fence = 0;
    return 0;
}

/* Relayed peers count as reachable only while relaying is active here
 * (hxb-relayd's mark, hxb_relay_mark.h), unless UCX_HXB_RELAY=yes: without
 * the daemons their frames would vanish and the peer time out much later,
 * with nothing saying why. */
static int uct_hxb_ep_relay_active(uct_hxb_iface_t *iface, int node)
{
    char path[256];

    if (!iface->relay_check || hxb_relay_mark_check(path, sizeof(path))) {
        return 1;
    }
    if (!iface->relay_warned) {
        iface->relay_warned = 1;
        ucs_warn("hxb: node %s shares no line with node %s and is reached only "
                 "through relays, but hxb-relayd does not run on this node (%s "
                 "missing): start hxb-relayd on every node (README.md, "
                 "Relaying), or set UCX_HXB_RELAY=yes if something else relays",
                 iface->topo.nodes[node].name,
                 iface->topo.nodes[iface->dev_addr.node].name, path);
    }
    return 0;
}

/* may relays carry our frames to node? */
static int uct_hxb_ep_may_relay(uct_hxb_iface_t *iface, int node)
{
    unsigned diff;

    if (!iface->relay || !iface->have_topo || (node >= iface->topo.num_nodes) ||
        (node == iface->dev_addr.node)) {
        return iface->relay;
    }
    diff = hxb_route_diff(&iface->topo, iface->dev_addr.node, node);
    return !(diff & (diff - 1)) || uct_hxb_ep_relay_active(iface, node);
}

uint32_t uct_hxb_ep_peer_rails(uct_hxb_iface_t *iface,
                               const uct_hxb_device_addr_t *dev,
                               const uct_hxb_iface_addr_t *ifa,
                               hxb_raddr_t *addrs)
{
    hxb_rail_t *rails[HXB_MAX_RAILS];
    hxb_raddr_t peer[UCT_HXB_ADDR_RAILS];
    int nrails = hxb_engine_num_rails(iface->engine), npeer = 0, i;
    int relay  = uct_hxb_ep_may_relay(iface, dev->node);

    for (i = 0; i < nrails; i++) {
        rails[i] = hxb_engine_rail(iface->engine, i);
    }
    if (!iface->have_topo) {
        npeer = ucs_min(ifa->nrails, UCT_HXB_ADDR_RAILS);
        for (i = 0; i < npeer; i++) {
            memcpy(peer[i].mac, ifa->rails[i].mac, 6);
            peer[i].ip   = ifa->rails[i].ip;
            peer[i].port = ifa->proc;
        }
    }
    return hxb_route_peer_rails(iface->have_topo ? &iface->topo : NULL,
                                iface->dev_addr.node, relay, dev->node, rails,
                                nrails, peer, npeer, ifa->proc, addrs);
}

#ifdef HXB_UCT_IFACE_REACHABLE_V2
/* UCX >= 1.16 (wireup): is this endpoint the one to the process at these
 * addresses? Its node, process and run, all of which the addresses carry. */
int uct_hxb_ep_is_connected(uct_ep_h tl_ep, const uct_ep_is_connected_params_t *params)
{
    uct_hxb_ep_t *ep = ucs_derived_of(tl_ep, uct_hxb_ep_t);
    const uct_hxb_device_addr_t *dev;
    const uct_hxb_iface_addr_t *ifa;

    if (!(params->field_mask & UCT_EP_IS_CONNECTED_FIELD_DEVICE_ADDR) ||
        !(params->field_mask & UCT_EP_IS_CONNECTED_FIELD_IFACE_ADDR)) {
        return 0;
    }
    dev = (const void*)params->device_addr;
    ifa = (const void*)params->iface_addr;
    return (dev->node == ep->node) && (ifa->proc == ep->proc) &&
           (ifa->epoch == ep->addr_epoch);
}
#endif

static UCS_CLASS_INIT_FUNC(uct_hxb_ep_t, const uct_ep_params_t *params)
{
    uct_hxb_iface_t *iface = ucs_derived_of(params->iface, uct_hxb_iface_t);
    const uct_hxb_device_addr_t *dev;
    const uct_hxb_iface_addr_t *ifa;
    hxb_raddr_t addrs[HXB_MAX_RAILS];
    uint32_t mask;

    UCS_CLASS_CALL_SUPER_INIT(uct_base_ep_t, &iface->super);

    if (!(params->field_mask & UCT_EP_PARAM_FIELD_DEV_ADDR) ||
        !(params->field_mask & UCT_EP_PARAM_FIELD_IFACE_ADDR)) {
        return UCS_ERR_INVALID_PARAM;
    }
    dev  = (const void*)params->dev_addr;
    ifa  = (const void*)params->iface_addr;
    memset(addrs, 0, sizeof(addrs));
    mask = uct_hxb_ep_peer_rails(iface, dev, ifa, addrs);
    if (mask == 0) {
        ucs_error("hxb: no rail reaches node %u", dev->node);
        return UCS_ERR_UNREACHABLE;
    }
    uct_hxb_enter(iface);
    self->peer = hxb_peer_get(iface->engine, dev->node, ntohs(ifa->proc),
                              ifa->epoch, addrs, mask);
    uct_hxb_leave(iface);
    if (self->peer == NULL) {
        return UCS_ERR_NO_MEMORY;
    }
    self->fence = 0;
    self->epoch = hxb_peer_epoch(self->peer);
    self->node  = dev->node;
    self->proc  = ifa->proc;
    self->addr_epoch = ifa->epoch;
    self->reset = 0;
    ucs_queue_head_init(&self->pending);
    ucs_list_add_tail(&iface->eps, &self->list);
    ucs_debug("hxb: ep %p to node %u proc %u rails 0x%x", self, dev->node,
              ntohs(ifa->proc), mask);
    return UCS_OK;
}

static UCS_CLASS_CLEANUP_FUNC(uct_hxb_ep_t)
{
    uct_hxb_iface_t *iface = ucs_derived_of(self->super.super.iface,
                                            uct_hxb_iface_t);

    ucs_list_del(&self->list);
    /* as UCX's tcp: what is still outstanding completes with
     * UCS_ERR_CANCELED now, never later (other endpoints to the same peer
     * keep theirs) */
    uct_hxb_enter(iface);
    hxb_peer_cancel(self->peer, self);
    hxb_peer_put_ref(self->peer);
    uct_hxb_leave(iface);
}

UCS_CLASS_DEFINE(uct_hxb_ep_t, uct_base_ep_t);
UCS_CLASS_DEFINE_NEW_FUNC(uct_hxb_ep_t, uct_ep_t, const uct_ep_params_t*);
UCS_CLASS_DEFINE_DELETE_FUNC(uct_hxb_ep_t, uct_ep_t);

/* an endpoint to a run of the peer that has since restarted talks to no
 * one: the new run is another endpoint's */
static UCS_F_ALWAYS_INLINE int uct_hxb_ep_stale(const uct_hxb_ep_t *ep)
{
    return ep->epoch != hxb_peer_epoch(ep->peer);
}

#define UCT_HXB_EP_CHECK(_ep) \
    if (ucs_unlikely(uct_hxb_ep_stale(_ep))) { \
        return UCS_ERR_CONNECTION_RESET; \
    } \
    if (ucs_unlikely(!ucs_queue_is_empty(&(_ep)->pending) || \
                     uct_hxb_ep_fenced(_ep))) { \
        return UCS_ERR_NO_RESOURCE; \
    }

/* operations with a completion: tagged with their endpoint, which may
 * cancel them (several endpoints can share one engine peer) */
#define UCT_HXB_EP_OWN(_ep) hxb_peer_set_owner((_ep)->peer, (_ep))

static ucs_status_t uct_hxb_ep_am_short_nolock(uct_ep_h tl_ep, uint8_t id, uint64_t header,
                                 const void *payload, unsigned length)
{
    uct_hxb_ep_t *ep    = ucs_derived_of(tl_ep, uct_hxb_ep_t);
    struct iovec iov[2] = {{&header, sizeof(header)}, {(void*)payload, length}};

    UCT_CHECK_AM_ID(id);
    UCT_CHECK_LENGTH(length + sizeof(header), 0, HXB_AM_INLINE, "am_short");
    UCT_HXB_EP_CHECK(ep);
    return uct_hxb_status(hxb_am_send(ep->peer, id, iov, 2));
}

static ucs_status_t uct_hxb_ep_am_short_iov_nolock(uct_ep_h tl_ep, uint8_t id,
                                     const uct_iov_t *uiov, size_t iovcnt)
{
    uct_hxb_ep_t *ep = ucs_derived_of(tl_ep, uct_hxb_ep_t);
    struct iovec iov[8];
    size_t i, n = 0;

    UCT_CHECK_AM_ID(id);
    UCT_CHECK_LENGTH(uct_iov_total_length(uiov, iovcnt), 0, HXB_AM_INLINE,
                     "am_short_iov");
    UCT_HXB_EP_CHECK(ep);
    for (i = 0; (i < iovcnt) && (n < 8); i++) {
        iov[n].iov_base  = uiov[i].buffer;
        iov[n++].iov_len = uct_iov_get_length(&uiov[i]);
    }
    return uct_hxb_status(hxb_am_send(ep->peer, id, iov, (int)n));
}

static ssize_t uct_hxb_ep_am_bcopy_nolock(uct_ep_h tl_ep, uint8_t id, uct_pack_callback_t pack_cb,
                            void *arg, unsigned flags)
{
    uct_hxb_ep_t *ep = ucs_derived_of(tl_ep, uct_hxb_ep_t);
    long ret;

    UCT_CHECK_AM_ID(id);
    UCT_HXB_EP_CHECK(ep);
    ret = hxb_am_bcopy(ep->peer, id, pack_cb, arg);
    return (ret >= 0) ? ret : uct_hxb_status(ret);
}

static ucs_status_t uct_hxb_ep_am_zcopy_nolock(uct_ep_h tl_ep, uint8_t id, const void *header,
                                 unsigned header_length, const uct_iov_t *iov,
                                 size_t iovcnt, unsigned flags,
                                 uct_completion_t *comp)
{
    uct_hxb_ep_t *ep = ucs_derived_of(tl_ep, uct_hxb_ep_t);
    const void *data = iovcnt ? iov[0].buffer : NULL;
    size_t len       = iovcnt ? uct_iov_get_length(&iov[0]) : 0;

    UCT_CHECK_AM_ID(id);
    UCT_CHECK_PARAM(iovcnt <= 1, "hxb am_zcopy takes at most one iov");
    UCT_HXB_EP_CHECK(ep);
    UCT_HXB_EP_OWN(ep);
    return uct_hxb_status(hxb_am_zcopy(ep->peer, id, header, header_length, data,
                                       len, comp));
}

static ucs_status_t uct_hxb_ep_put_zcopy_nolock(uct_ep_h tl_ep, const uct_iov_t *iov,
                                  size_t iovcnt, uint64_t remote_addr,
                                  uct_rkey_t rkey, uct_completion_t *comp)
{
    uct_hxb_ep_t *ep = ucs_derived_of(tl_ep, uct_hxb_ep_t);

    UCT_CHECK_PARAM(iovcnt == 1, "hxb put_zcopy takes one iov");
    UCT_HXB_EP_CHECK(ep);
    UCT_HXB_EP_OWN(ep);
    return uct_hxb_status(hxb_put(ep->peer, iov[0].buffer,
                                  uct_iov_get_length(&iov[0]), remote_addr, rkey,
                                  comp));
}

static ucs_status_t uct_hxb_ep_get_zcopy_nolock(uct_ep_h tl_ep, const uct_iov_t *iov,
                                  size_t iovcnt, uint64_t remote_addr,
                                  uct_rkey_t rkey, uct_completion_t *comp)
{
    uct_hxb_ep_t *ep = ucs_derived_of(tl_ep, uct_hxb_ep_t);

    UCT_CHECK_PARAM(iovcnt == 1, "hxb get_zcopy takes one iov");
    UCT_HXB_EP_CHECK(ep);
    UCT_HXB_EP_OWN(ep);
    return uct_hxb_status(hxb_get(ep->peer, iov[0].buffer,
                                  uct_iov_get_length(&iov[0]), remote_addr, rkey,
                                  comp));
}

/* ---- put and get by copy ----
 * UCP puts its RMA API (and so Open MPI's osc/ucx and OpenSHMEM) only on
 * transports with put_short, put_bcopy and get_bcopy: without them it
 * emulates every put and get with active messages. Puts copy into their
 * frame in the engine (short ones share frames: hxb_put_short). A GET
 * places its data on arrival, so get_bcopy reads into a bounce buffer of
 * one frame's payload that lives until the engine completes the read,
 * then unpacks; larger reads are UCP's get_zcopy. */
typedef struct uct_hxb_bounce {
    uct_completion_t      comp;     /* the engine's                         */
    uct_completion_t     *user;     /* get_bcopy: the caller's, or NULL     */
    uct_unpack_callback_t unpack;   /* get_bcopy: called with the data      */
    void                 *arg;
    size_t                len;
    uint8_t               data[];
} uct_hxb_bounce_t;

static ucs_mpool_ops_t uct_hxb_bounce_mp_ops = {
    .chunk_alloc   = ucs_mpool_chunk_malloc,
    .chunk_release = ucs_mpool_chunk_free,
};

ucs_status_t uct_hxb_bounce_init(uct_hxb_iface_t *iface, size_t size)
{
#ifdef HXB_UCS_MPOOL_PARAMS
    ucs_mpool_params_t mp_params;

    ucs_mpool_params_reset(&mp_params);
    mp_params.elem_size       = sizeof(uct_hxb_bounce_t) + size;
    mp_params.alignment       = 64;
    mp_params.elems_per_chunk = 16;
    mp_params.max_elems       = UINT_MAX;
    mp_params.ops             = &uct_hxb_bounce_mp_ops;
    mp_params.name            = "hxb_bounce";
    return ucs_mpool_init(&mp_params, &iface->bounce_mp);
#else
    return ucs_mpool_init(&iface->bounce_mp, 0, sizeof(uct_hxb_bounce_t) + size, 0,
                          64, 16, UINT_MAX,
                          &uct_hxb_bounce_mp_ops, "hxb_bounce");
#endif
}

static void uct_hxb_bounce_done(uct_completion_t *self)
{
    uct_hxb_bounce_t *b = ucs_container_of(self, uct_hxb_bounce_t, comp);

    if (b->unpack && (self->status == UCS_OK)) {
        b->unpack(b->arg, b->data, b->len);
    }
    if (b->user) {
        uct_invoke_completion(b->user, self->status);
    }
    ucs_mpool_put(b);
}

static uct_hxb_bounce_t *uct_hxb_bounce_get(uct_hxb_ep_t *ep)
{
    uct_hxb_iface_t *iface = ucs_derived_of(ep->super.super.iface, uct_hxb_iface_t);
    uct_hxb_bounce_t *b    = ucs_mpool_get(&iface->bounce_mp);

    if (b) {
        b->comp.func   = uct_hxb_bounce_done;
        b->comp.count  = 1;
        b->comp.status = UCS_OK;
        b->user        = NULL;
        b->unpack      = NULL;
    }
    return b;
}

static size_t uct_hxb_ep_frag(uct_hxb_ep_t *ep)
{
    uct_hxb_iface_t *iface = ucs_derived_of(ep->super.super.iface, uct_hxb_iface_t);

    return hxb_engine_frag_size(iface->engine);
}

static ucs_status_t uct_hxb_ep_put_short_nolock(uct_ep_h tl_ep, const void *buffer,
                                                unsigned length, uint64_t remote_addr,
                                                uct_rkey_t rkey)
{
    uct_hxb_ep_t *ep = ucs_derived_of(tl_ep, uct_hxb_ep_t);

    UCT_CHECK_PARAM(length <= HXB_AM_INLINE, "put_short: length %u > %u", length,
                    HXB_AM_INLINE);
    UCT_HXB_EP_CHECK(ep);
    return uct_hxb_status(hxb_put_short(ep->peer, buffer, length, remote_addr, rkey));
}

static ssize_t uct_hxb_ep_put_bcopy_nolock(uct_ep_h tl_ep, uct_pack_callback_t pack_cb,
                                           void *arg, uint64_t remote_addr,
                                           uct_rkey_t rkey)
{
    uct_hxb_ep_t *ep = ucs_derived_of(tl_ep, uct_hxb_ep_t);
    long ret;

    UCT_HXB_EP_CHECK(ep);
    ret = hxb_put_bcopy(ep->peer, pack_cb, arg, remote_addr, rkey);
    return (ret >= 0) ? ret : uct_hxb_status(ret);
}

static ucs_status_t uct_hxb_ep_get_bcopy_nolock(uct_ep_h tl_ep,
                                                uct_unpack_callback_t unpack_cb,
                                                void *arg, size_t length,
                                                uint64_t remote_addr, uct_rkey_t rkey,
                                                uct_completion_t *comp)
{
    uct_hxb_ep_t *ep = ucs_derived_of(tl_ep, uct_hxb_ep_t);
    uct_hxb_bounce_t *b;
    int ret;

    /* not UCT_CHECK_LENGTH: that one is compiled out of release builds,
     * and the bounce buffer is ours */
    if (length > uct_hxb_ep_frag(ep)) {
        ucs_error("hxb get_bcopy: length %zu > %zu", length, uct_hxb_ep_frag(ep));
        return UCS_ERR_INVALID_PARAM;
    }
    UCT_HXB_EP_CHECK(ep);
    if (length == 0) {
        unpack_cb(arg, NULL, 0);
        return UCS_OK;
    }
    if (!(b = uct_hxb_bounce_get(ep))) {
        return UCS_ERR_NO_RESOURCE;
    }
    b->user   = comp;
    b->unpack = unpack_cb;
    b->arg    = arg;
    b->len    = length;
    UCT_HXB_EP_OWN(ep);
    ret = hxb_get(ep->peer, b->data, length, remote_addr, rkey, &b->comp);
    if (ret != HXB_INPROGRESS) {
        ucs_mpool_put(b);
    }
    return uct_hxb_status(ret);
}

/* ---- atomics ----
 * Done by the target's CPU when the ATOMIC frame arrives (PROTOCOL.md
 * section 5), with the compiler's atomic builtins: atomic against every
 * other CPU atomic on the word (UCT_IFACE_FLAG_ATOMIC_CPU), so UCP may mix
 * them with shared-memory transports' atomics. Fetches complete when the
 * old value has arrived; posts are done on return, a refusal goes to the
 * next flush. UCT's opcodes are the wire's. */
_Static_assert((int)UCT_ATOMIC_OP_ADD == HXB_AOP_ADD &&
               (int)UCT_ATOMIC_OP_AND == HXB_AOP_AND &&
               (int)UCT_ATOMIC_OP_OR == HXB_AOP_OR &&
               (int)UCT_ATOMIC_OP_XOR == HXB_AOP_XOR &&
               (int)UCT_ATOMIC_OP_SWAP == HXB_AOP_SWAP &&
               (int)UCT_ATOMIC_OP_CSWAP == HXB_AOP_CSWAP,
               "UCT's atomic opcodes are the wire's");

/* max_op: the last opcode the calling entry point takes (posts: XOR;
 * fetches: SWAP; cswap: CSWAP). Checked here, not with UCT_CHECK_PARAM,
 * which release builds compile out: a fetch called with CSWAP would do a
 * compare-and-swap against 0. */
static ucs_status_t uct_hxb_ep_atomic(uct_ep_h tl_ep, unsigned opcode, unsigned max_op,
                                      unsigned size, uint64_t value, uint64_t compare,
                                      uint64_t remote_addr, uct_rkey_t rkey,
                                      void *result, uct_completion_t *comp)
{
    uct_hxb_ep_t *ep = ucs_derived_of(tl_ep, uct_hxb_ep_t);

    if (opcode > max_op) {
        ucs_error("hxb atomic%u_%s: opcode %u unsupported", size * 8,
                  result ? "fetch" : "post", opcode);
        return UCS_ERR_UNSUPPORTED;
    }
    UCT_HXB_EP_CHECK(ep);
    UCT_HXB_EP_OWN(ep);
    return uct_hxb_status(hxb_atomic(ep->peer, opcode, size, value, compare,
                                     remote_addr, rkey, result, comp));
}

static ucs_status_t uct_hxb_ep_atomic32_post_nolock(uct_ep_h tl_ep, unsigned opcode,
                                                    uint32_t value, uint64_t remote_addr,
                                                    uct_rkey_t rkey)
{
    return uct_hxb_ep_atomic(tl_ep, opcode, UCT_ATOMIC_OP_XOR, 4, value, 0, remote_addr,
                             rkey, NULL, NULL);
}

static ucs_status_t uct_hxb_ep_atomic64_post_nolock(uct_ep_h tl_ep, unsigned opcode,
                                                    uint64_t value, uint64_t remote_addr,
                                                    uct_rkey_t rkey)
{
    return uct_hxb_ep_atomic(tl_ep, opcode, UCT_ATOMIC_OP_XOR, 8, value, 0, remote_addr,
                             rkey, NULL, NULL);
}

static ucs_status_t uct_hxb_ep_atomic32_fetch_nolock(uct_ep_h tl_ep, unsigned opcode,
                                                     uint32_t value, uint32_t *result,
                                                     uint64_t remote_addr, uct_rkey_t rkey,
                                                     uct_completion_t *comp)
{
    return uct_hxb_ep_atomic(tl_ep, opcode, UCT_ATOMIC_OP_SWAP, 4, value, 0, remote_addr,
                             rkey, result, comp);
}

static ucs_status_t uct_hxb_ep_atomic64_fetch_nolock(uct_ep_h tl_ep, unsigned opcode,
                                                     uint64_t value, uint64_t *result,
                                                     uint64_t remote_addr, uct_rkey_t rkey,
                                                     uct_completion_t *comp)
{
    return uct_hxb_ep_atomic(tl_ep, opcode, UCT_ATOMIC_OP_SWAP, 8, value, 0, remote_addr,
                             rkey, result, comp);
}

static ucs_status_t uct_hxb_ep_atomic_cswap32_nolock(uct_ep_h tl_ep, uint32_t compare,
                                                     uint32_t swap, uint64_t remote_addr,
                                                     uct_rkey_t rkey, uint32_t *result,
                                                     uct_completion_t *comp)
{
    return uct_hxb_ep_atomic(tl_ep, UCT_ATOMIC_OP_CSWAP, UCT_ATOMIC_OP_CSWAP, 4, swap,
                             compare, remote_addr, rkey, result, comp);
}

static ucs_status_t uct_hxb_ep_atomic_cswap64_nolock(uct_ep_h tl_ep, uint64_t compare,
                                                     uint64_t swap, uint64_t remote_addr,
                                                     uct_rkey_t rkey, uint64_t *result,
                                                     uct_completion_t *comp)
{
    return uct_hxb_ep_atomic(tl_ep, UCT_ATOMIC_OP_CSWAP, UCT_ATOMIC_OP_CSWAP, 8, swap,
                             compare, remote_addr, rkey, result, comp);
}

static ucs_status_t uct_hxb_ep_flush_nolock(uct_ep_h tl_ep, unsigned flags, uct_completion_t *comp)
{
    uct_hxb_ep_t *ep = ucs_derived_of(tl_ep, uct_hxb_ep_t);
    int ret;

    if (flags & UCT_FLUSH_FLAG_CANCEL) {
        /* this endpoint's operations complete now with UCS_ERR_CANCELED */
        hxb_peer_cancel(ep->peer, ep);
        uct_ep_pending_purge(tl_ep, ucs_empty_function_do_assert_void, NULL);
        return UCS_OK;
    }
    if (uct_hxb_ep_stale(ep)) {
        return UCS_ERR_CONNECTION_RESET;
    }
    if (!ucs_queue_is_empty(&ep->pending)) {
        return UCS_ERR_NO_RESOURCE;
    }
    UCT_HXB_EP_OWN(ep);
    ret = hxb_flush(ep->peer, comp);
    return uct_hxb_status(ret);
}

static ucs_status_t uct_hxb_ep_fence_nolock(uct_ep_h tl_ep, unsigned flags)
{
    uct_hxb_ep_t *ep = ucs_derived_of(tl_ep, uct_hxb_ep_t);

    ep->fence = !hxb_peer_tx_idle(ep->peer);
    if (ep->fence && hxb_ask_ack(ep->peer) < 0) {
        return UCS_ERR_NO_MEMORY;
    }
    return UCS_OK;
}

static ucs_status_t uct_hxb_ep_check_nolock(uct_ep_h tl_ep, unsigned flags, uct_completion_t *comp)
{
    uct_hxb_ep_t *ep = ucs_derived_of(tl_ep, uct_hxb_ep_t);

    /* A zero-length PUT is a sequenced frame: if the peer is gone, its
     * retransmissions time out and the peer is reported failed. */
    if (hxb_peer_failed(ep->peer)) {
        return UCS_ERR_ENDPOINT_TIMEOUT;
    }
    if (uct_hxb_ep_stale(ep)) {
        return UCS_ERR_CONNECTION_RESET;
    }
    hxb_put(ep->peer, NULL, 0, 0, 0, NULL);
    return UCS_OK;
}

/* The operations above, as UCT calls them: under the iface lock, so that
 * the idle tick never runs beside them (pending_add/purge touch only the
 * endpoint's queue, which the tick leaves alone) */
#define UCT_HXB_EP_LOCKED(_type, _op, _params, _args) \
    _type uct_hxb_ep_##_op _params \
    { \
        uct_hxb_iface_t *iface = ucs_derived_of(tl_ep->iface, uct_hxb_iface_t); \
        _type ret; \
        \
        uct_hxb_enter(iface); \
        ret = uct_hxb_ep_##_op##_nolock _args; \
        uct_hxb_leave(iface); \
        return ret; \
    }

UCT_HXB_EP_LOCKED(ucs_status_t, am_short,
                  (uct_ep_h tl_ep, uint8_t id, uint64_t header, const void *payload,
                   unsigned length), (tl_ep, id, header, payload, length))
UCT_HXB_EP_LOCKED(ucs_status_t, am_short_iov,
                  (uct_ep_h tl_ep, uint8_t id, const uct_iov_t *iov, size_t iovcnt),
                  (tl_ep, id, iov, iovcnt))
UCT_HXB_EP_LOCKED(ssize_t, am_bcopy,
                  (uct_ep_h tl_ep, uint8_t id, uct_pack_callback_t pack_cb, void *arg,
                   unsigned flags), (tl_ep, id, pack_cb, arg, flags))
UCT_HXB_EP_LOCKED(ucs_status_t, am_zcopy,
                  (uct_ep_h tl_ep, uint8_t id, const void *header,
                   unsigned header_length, const uct_iov_t *iov, size_t iovcnt,
                   unsigned flags, uct_completion_t *comp),
                  (tl_ep, id, header, header_length, iov, iovcnt, flags, comp))
UCT_HXB_EP_LOCKED(ucs_status_t, put_zcopy,
                  (uct_ep_h tl_ep, const uct_iov_t *iov, size_t iovcnt,
                   uint64_t remote_addr, uct_rkey_t rkey, uct_completion_t *comp),
                  (tl_ep, iov, iovcnt, remote_addr, rkey, comp))
UCT_HXB_EP_LOCKED(ucs_status_t, get_zcopy,
                  (uct_ep_h tl_ep, const uct_iov_t *iov, size_t iovcnt,
                   uint64_t remote_addr, uct_rkey_t rkey, uct_completion_t *comp),
                  (tl_ep, iov, iovcnt, remote_addr, rkey, comp))
UCT_HXB_EP_LOCKED(ucs_status_t, put_short,
                  (uct_ep_h tl_ep, const void *buffer, unsigned length,
                   uint64_t remote_addr, uct_rkey_t rkey),
                  (tl_ep, buffer, length, remote_addr, rkey))
UCT_HXB_EP_LOCKED(ssize_t, put_bcopy,
                  (uct_ep_h tl_ep, uct_pack_callback_t pack_cb, void *arg,
                   uint64_t remote_addr, uct_rkey_t rkey),
                  (tl_ep, pack_cb, arg, remote_addr, rkey))
UCT_HXB_EP_LOCKED(ucs_status_t, get_bcopy,
                  (uct_ep_h tl_ep, uct_unpack_callback_t unpack_cb, void *arg,
                   size_t length, uint64_t remote_addr, uct_rkey_t rkey,
                   uct_completion_t *comp),
                  (tl_ep, unpack_cb, arg, length, remote_addr, rkey, comp))
UCT_HXB_EP_LOCKED(ucs_status_t, atomic32_post,
                  (uct_ep_h tl_ep, unsigned opcode, uint32_t value, uint64_t remote_addr,
                   uct_rkey_t rkey), (tl_ep, opcode, value, remote_addr, rkey))
UCT_HXB_EP_LOCKED(ucs_status_t, atomic64_post,
                  (uct_ep_h tl_ep, unsigned opcode, uint64_t value, uint64_t remote_addr,
                   uct_rkey_t rkey), (tl_ep, opcode, value, remote_addr, rkey))
UCT_HXB_EP_LOCKED(ucs_status_t, atomic32_fetch,
                  (uct_ep_h tl_ep, unsigned opcode, uint32_t value, uint32_t *result,
                   uint64_t remote_addr, uct_rkey_t rkey, uct_completion_t *comp),
                  (tl_ep, opcode, value, result, remote_addr, rkey, comp))
UCT_HXB_EP_LOCKED(ucs_status_t, atomic64_fetch,
                  (uct_ep_h tl_ep, unsigned opcode, uint64_t value, uint64_t *result,
                   uint64_t remote_addr, uct_rkey_t rkey, uct_completion_t *comp),
                  (tl_ep, opcode, value, result, remote_addr, rkey, comp))
UCT_HXB_EP_LOCKED(ucs_status_t, atomic_cswap32,
                  (uct_ep_h tl_ep, uint32_t compare, uint32_t swap, uint64_t remote_addr,
                   uct_rkey_t rkey, uint32_t *result, uct_completion_t *comp),
                  (tl_ep, compare, swap, remote_addr, rkey, result, comp))
UCT_HXB_EP_LOCKED(ucs_status_t, atomic_cswap64,
                  (uct_ep_h tl_ep, uint64_t compare, uint64_t swap, uint64_t remote_addr,
                   uct_rkey_t rkey, uint64_t *result, uct_completion_t *comp),
                  (tl_ep, compare, swap, remote_addr, rkey, result, comp))
UCT_HXB_EP_LOCKED(ucs_status_t, flush,
                  (uct_ep_h tl_ep, unsigned flags, uct_completion_t *comp),
                  (tl_ep, flags, comp))
UCT_HXB_EP_LOCKED(ucs_status_t, fence, (uct_ep_h tl_ep, unsigned flags),
                  (tl_ep, flags))
UCT_HXB_EP_LOCKED(ucs_status_t, check,
                  (uct_ep_h tl_ep, unsigned flags, uct_completion_t *comp),
                  (tl_ep, flags, comp))

ucs_status_t uct_hxb_ep_pending_add(uct_ep_h tl_ep, uct_pending_req_t *req,
                                    unsigned flags)
{
    uct_hxb_ep_t *ep = ucs_derived_of(tl_ep, uct_hxb_ep_t);

    uct_pending_req_queue_push(&ep->pending, req);
    return UCS_OK;
}

void uct_hxb_ep_pending_purge(uct_ep_h tl_ep, uct_pending_purge_callback_t cb,
                              void *arg)
{
    uct_hxb_ep_t *ep = ucs_derived_of(tl_ep, uct_hxb_ep_t);
    uct_pending_req_priv_queue_t *priv;

    uct_pending_queue_purge(priv, &ep->pending, 1, cb, arg);
}

void uct_hxb_ep_dispatch_pending(uct_hxb_ep_t *ep)
{
    uct_pending_req_priv_queue_t *priv;

    if (uct_hxb_ep_fenced(ep)) {
        return;
    }
    /* pending requests call our send functions, which refuse while the
     * queue is non-empty: take the queue out while dispatching */
    {
        ucs_queue_head_t q;
        ucs_queue_head_init(&q);
        ucs_queue_splice(&q, &ep->pending);
        uct_pending_queue_dispatch(priv, &q, 1);
        ucs_queue_splice(&q, &ep->pending);   /* append what arrived meanwhile */
        ucs_queue_head_init(&ep->pending);
        ucs_queue_splice(&ep->pending, &q);
    }
}

/* The peer restarted: its endpoints made for the old run fail, once (its
 * operations already completed with UCS_ERR_ENDPOINT_TIMEOUT). Endpoints
 * made since, for the new run, carry on. */
void uct_hxb_ep_peer_reset(uct_hxb_iface_t *iface, hxb_peer_t *peer)
{
    uct_hxb_ep_t *ep, *tmp;

    ucs_list_for_each_safe(ep, tmp, &iface->eps, list) {
        if ((ep->peer == peer) && !ep->reset &&
            uct_hxb_ep_stale(ep)) {
            ep->reset = 1;
            uct_iface_handle_ep_err(&iface->super.super, &ep->super.super,
                                    UCS_ERR_CONNECTION_RESET);
        }
    }
}

/* the failure, with our side of the peer (did its frames still come?),
 * as one message where UCX logs */
static void uct_hxb_ep_report_failure(const uct_hxb_ep_t *ep, const hxb_peer_t *peer)
{
    char *state = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&state, &len);

    if (f) {
        hxb_peer_dump(peer, f);
        fclose(f);
    }
    ucs_error("hxb: peer node %u proc %u failed: it acknowledged nothing for "
              "UCX_HXB_PEER_TIMEOUT and did not say it was busy; our side of it:\n%s",
              ep->node, ntohs(ep->proc), state ? state : "(no memory for it)\n");
    free(state);
}

/* Said once per peer, whoever uses us: under UCP with no error handling
 * an endpoint error can leave no trace (an eager send had completed
 * locally), and a job then hangs or fails far from the cause. */
void uct_hxb_ep_peer_failed(uct_hxb_iface_t *iface, hxb_peer_t *peer)
{
    uct_hxb_ep_t *ep, *tmp;
    int said = 0;

    ucs_list_for_each_safe(ep, tmp, &iface->eps, list) {
        if (ep->peer == peer) {
            if (!said++) {
                uct_hxb_ep_report_failure(ep, peer);
            }
            uct_iface_handle_ep_err(&iface->super.super, &ep->super.super,
                                    UCS_ERR_ENDPOINT_TIMEOUT);
        }
    }
}
