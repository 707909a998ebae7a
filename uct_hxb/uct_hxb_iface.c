/* The hxb interface: one per process (per UCT worker), spanning all rails,
 * shown to UCX as the single device "hxb0". Registers the component when
 * the library is loaded (UCX 1.13 dlopens only modules it was built with:
 * LD_PRELOAD or link libuct_hxb.so, see README). */
#ifdef HAVE_CONFIG_H
#include "hxb_config.h"
#endif
#include "uct_hxb.h"
#include "hxb_ident.h"
#include "hxb_locality.h"

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>
#include <ucs/arch/cpu.h>
#include <ucs/sys/string.h>
#include <ucs/sys/sys.h>
#include <ucs/sys/topo/base/topo.h>
#include <ucs/time/time.h>

static ucs_config_field_t uct_hxb_iface_config_table[] = {
    {"", "", NULL, ucs_offsetof(uct_hxb_iface_config_t, super),
     UCS_CONFIG_TYPE_TABLE(uct_iface_config_table)},

    /* every UCX_HXB_* setting (hxb_settings.def) */
#define HXB_SETTING(_NAME, _name, _type, _dflt, _to, _efield, _help) \
    {#_NAME, _dflt, _help, ucs_offsetof(uct_hxb_iface_config_t, _name), \
     UCS_CONFIG_TYPE_##_type},
#include "hxb_settings.def"
#undef HXB_SETTING

    {NULL}
};

static int uct_hxb_rail_names(const uct_hxb_iface_config_t *config,
                              uct_hxb_iface_t *iface, int node,
                              char names[][IF_NAMESIZE])
{
    int i, n = 0;

    if (config->rails.count > 0) {
        for (i = 0; (i < config->rails.count) && (n < HXB_MAX_RAILS); i++) {
            ucs_strncpy_zero(names[n++], config->rails.names[i], IF_NAMESIZE);
        }
        return n;
    }
    if (iface->have_topo && (node >= 0)) {
        for (i = 0; (i < iface->topo.num_ifaces) && (n < HXB_MAX_RAILS); i++) {
            if (iface->topo.ifaces[i].node == node) {
                ucs_strncpy_zero(names[n++], iface->topo.ifaces[i].ifname,
                                 IF_NAMESIZE);
            }
        }
        return n;
    }
    return hxb_rail_default_names(names, HXB_MAX_RAILS);
}

/* the rails' speeds together, bytes/s */
static double uct_hxb_iface_rails_bw(uct_hxb_iface_t *iface)
{
    double bw = 0;
    int i;

    for (i = 0; i < hxb_engine_num_rails(iface->engine); i++) {
        bw += hxb_engine_rail(iface->engine, i)->speed;
    }
    return bw;
}

static ucs_status_t uct_hxb_iface_query(uct_iface_h tl_iface, uct_iface_attr_t *attr)
{
    uct_hxb_iface_t *iface = ucs_derived_of(tl_iface, uct_hxb_iface_t);
    const hxb_engine_cfg_t *cfg = hxb_engine_cfg(iface->engine);
    size_t frag = hxb_engine_frag_size(iface->engine);
    double bw = uct_hxb_iface_rails_bw(iface);

    uct_base_iface_query(&iface->super, attr);
    attr->iface_addr_len  = sizeof(uct_hxb_iface_addr_t);
    attr->device_addr_len = sizeof(uct_hxb_device_addr_t);
    attr->ep_addr_len     = 0;
    attr->max_conn_priv   = 0;
    attr->cap.flags       = UCT_IFACE_FLAG_CONNECT_TO_IFACE |
                            UCT_IFACE_FLAG_AM_SHORT |
                            UCT_IFACE_FLAG_AM_BCOPY |
                            UCT_IFACE_FLAG_AM_ZCOPY |
                            UCT_IFACE_FLAG_PUT_SHORT |
                            UCT_IFACE_FLAG_PUT_BCOPY |
                            UCT_IFACE_FLAG_PUT_ZCOPY |
                            UCT_IFACE_FLAG_GET_BCOPY |
                            UCT_IFACE_FLAG_GET_ZCOPY |
                            UCT_IFACE_FLAG_ATOMIC_CPU |
                            UCT_IFACE_FLAG_PENDING |
                            UCT_IFACE_FLAG_CB_SYNC |
                            UCT_IFACE_FLAG_EP_CHECK |
                            UCT_IFACE_FLAG_ERRHANDLE_PEER_FAILURE;
#ifdef UCT_IFACE_FLAG_INTER_NODE
    /* UCX >= 1.14: ucp_worker_query's NET_ONLY address (Open MPI 5's pml
     * ucx sends it to peers on other nodes) has only inter-node transports */
    attr->cap.flags      |= UCT_IFACE_FLAG_INTER_NODE;
#endif
    attr->cap.event_flags = UCT_IFACE_FLAG_EVENT_SEND_COMP |
                            UCT_IFACE_FLAG_EVENT_RECV |
                            UCT_IFACE_FLAG_EVENT_FD;

    attr->cap.am.max_short       = HXB_AM_INLINE;
    /* whole frames: UCP fills each bcopy AM, and a segmented datagram (a
     * train) goes on across AMs only behind a full frame, so a short last
     * frame per AM halved the trains at MTU 1500 (doc/DESIGN.md) */
    attr->cap.am.max_bcopy       = hxb_engine_am_whole(iface->engine, cfg->max_msg);
    attr->cap.am.min_zcopy       = 0;
    /* UCP fills a zcopy AM to max_zcopy with its header and data: whole
     * frames too */
    attr->cap.am.max_zcopy       = attr->cap.am.max_bcopy;
    attr->cap.am.opt_zcopy_align = 1;
    attr->cap.am.align_mtu       = frag;
    attr->cap.am.max_hdr         = HXB_AM_INLINE;
    attr->cap.am.max_iov         = 1;

    attr->cap.put.max_short       = HXB_AM_INLINE;
    /* packed into a bcopy buffer of MAX_AM bytes (hxb_put_bcopy) */
    attr->cap.put.max_bcopy       = ucs_min(frag, cfg->max_msg);
    attr->cap.put.min_zcopy       = 0;
    attr->cap.put.max_zcopy       = 1ul << 30;
    attr->cap.put.opt_zcopy_align = 1;
    attr->cap.put.align_mtu       = frag;
    attr->cap.put.max_iov         = 1;

    attr->cap.get.max_short       = 0;
    attr->cap.get.max_bcopy       = frag;
    attr->cap.get.min_zcopy       = 0;
    attr->cap.get.max_zcopy       = 1ul << 30;
    attr->cap.get.opt_zcopy_align = 1;
    attr->cap.get.align_mtu       = frag;
    attr->cap.get.max_iov         = 1;

    attr->cap.atomic32.op_flags   = UCS_BIT(UCT_ATOMIC_OP_ADD) | UCS_BIT(UCT_ATOMIC_OP_AND) |
                                    UCS_BIT(UCT_ATOMIC_OP_OR) | UCS_BIT(UCT_ATOMIC_OP_XOR);
    attr->cap.atomic32.fop_flags  = attr->cap.atomic32.op_flags |
                                    UCS_BIT(UCT_ATOMIC_OP_SWAP) | UCS_BIT(UCT_ATOMIC_OP_CSWAP);
    attr->cap.atomic64            = attr->cap.atomic32;

    /* one syscall each way and a poll loop: ~10 us on kernel sockets */
    attr->latency             = ucs_linear_func_make(10e-6, 0);
    attr->bandwidth.dedicated = bw * 0.97;  /* headers cost ~1% at 9000 MTU */
    attr->bandwidth.shared    = 0;
    attr->overhead            = 1e-6;
    attr->priority            = 0;
    return UCS_OK;
}

/* UCP's choice between eager and rendezvous (ucp_ep_config_calc_rndv_thresh)
 * weighs the time each eager fragment costs (send_pre + send_post overhead
 * of AM_ZCOPY) against a rendezvous handshake, and charges the rendezvous
 * nothing per fragment. hxb's eager path pays copies per frame that its
 * rendezvous (PUT/GET data placed at its offset on arrival) does not:
 * - the held copy: AM frames are delivered in order, and striping over R
 *   rails makes about (R-1)/R of them arrive early, each copied aside until
 *   its turn (doc/RESULTS.md, findings e4c8d8b). Unreported, UCP sent
 *   messages of up to 1.7-2.4 MB eagerly over 1-4 rails;
 * - the reassembly of an AM longer than a frame into one buffer, at any
 *   number of rails. The receiver's eager path copies each byte three times
 *   (kernel, reassembly, UCP's unpack); that costs time only where those
 *   copies are slower than the rails (rails faster than a third of memcpy,
 *   e.g. one 25 Gbit/s NIC). Over one 1 Gbit/s rail rendezvous measured
 *   the same CPU per GB and 0.5 % less of the wire at MTU 1500 (a GET reply
 *   frame carries 8 bytes more), so slower rails are not charged. */
#ifdef HXB_UCS_CPU_MEMCPY_BW
#define UCT_HXB_MEMCPY_BW ucs_cpu_get_memcpy_bw()
#else
/* UCX >= 1.16 dropped ucs_cpu_get_memcpy_bw: UCX 1.13's estimate (and
 * UCP 1.18's for protocol v1), per CPU vendor */
#define UCT_HXB_MEMCPY_BW \
    ((ucs_arch_get_cpu_vendor() == UCS_CPU_VENDOR_AMD) ? 5008.0 * UCS_MBYTE : \
                                                         5800.0 * UCS_MBYTE)
#endif

static ucs_status_t uct_hxb_iface_estimate_perf(uct_iface_h tl_iface,
                                                uct_perf_attr_t *perf_attr)
{
    uct_hxb_iface_t *iface = ucs_derived_of(tl_iface, uct_hxb_iface_t);
    size_t frag = hxb_engine_frag_size(iface->engine);
    size_t max_am = hxb_engine_cfg(iface->engine)->max_msg;
    int nrails = hxb_engine_num_rails(iface->engine);
    double copies;
    ucs_status_t status;

    status = uct_base_iface_estimate_perf(tl_iface, perf_attr);
    if ((status != UCS_OK) || (nrails < 1) ||
        !(perf_attr->field_mask & UCT_PERF_ATTR_FIELD_OPERATION) ||
        !(perf_attr->field_mask & UCT_PERF_ATTR_FIELD_SEND_POST_OVERHEAD)) {
        return status;
    }
    switch (perf_attr->operation) {
    case UCT_EP_OP_AM_BCOPY:
    case UCT_EP_OP_AM_ZCOPY:
        copies = (double)(nrails - 1) / nrails;           /* held */
        if (uct_hxb_iface_rails_bw(iface) * 3 > UCT_HXB_MEMCPY_BW) {
            copies += 1;                                  /* reassembly */
        }
        perf_attr->send_post_overhead += ((max_am + frag - 1) / frag) * copies *
                                         frag / UCT_HXB_MEMCPY_BW;
        break;
    default:
        break;
    }
    return UCS_OK;
}

#ifdef HXB_UCT_IFACE_REACHABLE_V2
static int uct_hxb_iface_is_reachable_v2(const uct_iface_h tl_iface,
                                         const uct_iface_is_reachable_params_t *params);
#endif

static uct_iface_internal_ops_t uct_hxb_iface_internal_ops = {
    .iface_estimate_perf = uct_hxb_iface_estimate_perf,
    .iface_vfs_refresh   = (uct_iface_vfs_refresh_func_t)ucs_empty_function,
    .ep_query            = (uct_ep_query_func_t)ucs_empty_function_return_unsupported,
    .ep_invalidate       = (uct_ep_invalidate_func_t)ucs_empty_function_return_unsupported,
#ifdef HXB_UCT_IFACE_REACHABLE_V2
    /* UCX >= 1.16 calls these unchecked: hxb connects to interfaces only */
    .ep_connect_to_ep_v2   = (uct_ep_connect_to_ep_v2_func_t)
                             ucs_empty_function_return_unsupported,
    .iface_is_reachable_v2 = uct_hxb_iface_is_reachable_v2,
    .ep_is_connected       = uct_hxb_ep_is_connected,
#endif
};

static ucs_status_t uct_hxb_iface_get_device_address(uct_iface_h tl_iface,
                                                     uct_device_addr_t *addr)
{
    uct_hxb_iface_t *iface = ucs_derived_of(tl_iface, uct_hxb_iface_t);

    memcpy(addr, &iface->dev_addr, sizeof(iface->dev_addr));
    return UCS_OK;
}

static ucs_status_t uct_hxb_iface_get_address(uct_iface_h tl_iface,
                                              uct_iface_addr_t *addr)
{
    uct_hxb_iface_t *iface = ucs_derived_of(tl_iface, uct_hxb_iface_t);

    memcpy(addr, &iface->iface_addr, sizeof(iface->iface_addr));
    return UCS_OK;
}

static int uct_hxb_iface_is_reachable(const uct_iface_h tl_iface,
                                      const uct_device_addr_t *dev_addr,
                                      const uct_iface_addr_t *iface_addr)
{
    uct_hxb_iface_t *iface          = ucs_derived_of(tl_iface, uct_hxb_iface_t);
    const uct_hxb_device_addr_t *dev = (const void*)dev_addr;
    const uct_hxb_iface_addr_t *ifa  = (const void*)iface_addr;
    hxb_raddr_t addrs[HXB_MAX_RAILS];

    if ((dev == NULL) || (ifa == NULL) ||
        (dev->fabric != iface->dev_addr.fabric) || (dev->mode != iface->mode) ||
        ((dev->flags ^ iface->dev_addr.flags) & UCT_HXB_DEV_TOPO)) {
        return 0;
    }
    /* raw frames do not loop back inside a host: same-node peers belong to
     * shared memory transports */
    if ((iface->mode != HXB_RAIL_UDP) && (dev->node == iface->dev_addr.node)) {
        return 0;
    }
    return uct_hxb_ep_peer_rails(iface, dev, ifa, addrs) != 0;
}

#ifdef HXB_UCT_IFACE_REACHABLE_V2
static int uct_hxb_iface_is_reachable_v2(const uct_iface_h tl_iface,
                                         const uct_iface_is_reachable_params_t *params)
{
    if (!uct_iface_is_reachable_params_addrs_valid(params)) {
        return 0;
    }
    if (!uct_hxb_iface_is_reachable(tl_iface, params->device_addr,
                                    params->iface_addr)) {
        uct_iface_fill_info_str_buf(params, "no hxb rail reaches that node");
        return 0;
    }
    return uct_iface_scope_is_reachable(tl_iface, params);
}
#endif

/* progress calls after an event_arm until the rails leave the event fd */
#define UCT_HXB_EV_PASSES 64

static ucs_status_t uct_hxb_iface_events_rails(uct_hxb_iface_t *iface, int in);

static unsigned uct_hxb_iface_progress(uct_iface_h tl_iface)
{
    uct_hxb_iface_t *iface = ucs_derived_of(tl_iface, uct_hxb_iface_t);
    uct_hxb_ep_t *ep, *tmp;
    uint64_t entries;
    unsigned count;

    uct_hxb_enter(iface);
    entries = iface->entries;
    count   = hxb_engine_progress(iface->engine);
    iface->wakes_idle += iface->slept && !count;
    iface->slept       = 0;
    if (iface->ev_rails && (++iface->ev_passes > UCT_HXB_EV_PASSES)) {
        uct_hxb_iface_events_rails(iface, 0);     /* polling again */
    }
    ucs_list_for_each_safe(ep, tmp, &iface->eps, list) {
        if (!ucs_queue_is_empty(&ep->pending)) {
            uct_hxb_ep_dispatch_pending(ep);
        }
    }
    /* one compare per pass, against the clock the pass read */
    if (iface->statfile &&
        (hxb_engine_clock(iface->engine) >= iface->stat_next)) {
        uct_hxb_iface_stat_update(iface, hxb_engine_clock(iface->engine));
    }
    /* nothing came and no callback of this pass called us (a post from a
     * completion waits for the next pass's flush) */
    iface->idle_at = (!count && entries == iface->entries) ? entries : 0;
    uct_hxb_leave(iface);
    return count;
}

void uct_hxb_iface_stat_update(uct_hxb_iface_t *iface, double now)
{
    hxb_stat_counter_t extra[] = {
        {"sleeps", iface->sleeps},
        {"sleeps_timed", iface->sleeps_timed},
        {"wakes_idle", iface->wakes_idle},
        {"invalidations", iface->md->invalidations},
    };

    iface->stat_next = hxb_statfile_update(iface->statfile, iface->engine, now,
                                           extra, ucs_static_array_size(extra));
}

/* PUT frames of one endpoint land in arrival order, which the rails do
 * not keep: a fence on the interface is a fence on each of its endpoints
 * (UCP's worker fence calls only this one) */
static ucs_status_t uct_hxb_iface_fence(uct_iface_h tl_iface, unsigned flags)
{
    uct_hxb_iface_t *iface = ucs_derived_of(tl_iface, uct_hxb_iface_t);
    uct_hxb_ep_t *ep;

    ucs_list_for_each(ep, &iface->eps, list) {
        uct_hxb_ep_fence(&ep->super.super, flags);
    }
    return UCS_OK;
}

static ucs_status_t uct_hxb_iface_flush(uct_iface_h tl_iface, unsigned flags,
                                        uct_completion_t *comp)
{
    uct_hxb_iface_t *iface = ucs_derived_of(tl_iface, uct_hxb_iface_t);
    ucs_status_t status    = UCS_OK;
    uct_hxb_ep_t *ep;

    if (comp != NULL) {
        return UCS_ERR_UNSUPPORTED;
    }
    uct_hxb_enter(iface);
    ucs_list_for_each(ep, &iface->eps, list) {
        if (!ucs_queue_is_empty(&ep->pending) ||
            (hxb_flush(ep->peer, NULL) == HXB_INPROGRESS)) {
            status = UCS_INPROGRESS;
        }
    }
    if (status == UCS_INPROGRESS) {
        hxb_engine_progress(iface->engine);
    }
    uct_hxb_leave(iface);
    return status;
}

/* the rails' fds join the event fd at event_arm (sleeping callers) */
static ucs_status_t uct_hxb_iface_event_fd_get(uct_iface_h tl_iface, int *fd_p)
{
    uct_hxb_iface_t *iface = ucs_derived_of(tl_iface, uct_hxb_iface_t);

    *fd_p = iface->epfd;
    return UCS_OK;
}

/* Anything ready on the event fd now (which also takes off its ready list
 * what no longer is). An expired timer is read, so that it can fire again:
 * the next arm sets it anew. */
static int uct_hxb_iface_events_waiting(uct_hxb_iface_t *iface)
{
    struct epoll_event ev[HXB_MAX_RAILS + 1];
    uint64_t expired;
    int i, n;

    n = epoll_wait(iface->epfd, ev, HXB_MAX_RAILS + 1, 0);
    if (n < 0) {
        return errno != EINTR;   /* cannot tell: do not sleep */
    }
    for (i = 0; i < n; i++) {
        if ((ev[i].data.fd == iface->timer_fd) &&
            (read(iface->timer_fd, &expired, sizeof(expired)) >= 0)) {
            iface->timer_at = -1;
        }
    }
    return n > 0;
}

/* Let the caller sleep on the event fd unless there is work now. The fd
 * wakes on arriving frames (the rails' sockets) and at the engine's next
 * deadline (the timer fd, armed here): acks owed, losses to declare, RTO
 * checks, the peer timeout. So a sender waiting for acks sleeps too. */
static ucs_status_t uct_hxb_iface_event_arm(uct_iface_h tl_iface, unsigned events)
{
    uct_hxb_iface_t *iface = ucs_derived_of(tl_iface, uct_hxb_iface_t);
    struct itimerspec its  = {{0, 0}, {0, 0}};
    double at;
    int sleep;

    /* UCP arms after a pass that found nothing (its progress loop): unless
     * someone called us since, another pass would only find what came
     * since, which the look at the event fd below finds too (the rails
     * are all kernel sockets; one system call fewer per sleep) */
    if ((iface->idle_at != iface->entries) && uct_hxb_iface_progress(tl_iface)) {
        return UCS_ERR_BUSY;
    }
    uct_hxb_enter(iface);
    iface->ev_passes = 0;
    if (uct_hxb_iface_events_rails(iface, 1) != UCS_OK) {
        uct_hxb_leave(iface);
        return UCS_ERR_BUSY;     /* cannot sleep safely: keep polling */
    }
    sleep = hxb_engine_may_sleep(iface->engine, &at);
    uct_hxb_leave(iface);
    if (!sleep) {
        return UCS_ERR_BUSY;
    }
    if (at) {
        its.it_value.tv_sec  = (time_t)at;
        its.it_value.tv_nsec = (long)((at - (double)(time_t)at) * 1e9);
    }
    /* setting it (or disarming it: all zero) also clears a past expiry.
     * Unchanged, it needs no call: at is in the future, so the timer set
     * to it has not expired (and a disarmed one has no expiry). */
    if (at != iface->timer_at &&
        timerfd_settime(iface->timer_fd, TFD_TIMER_ABSTIME, &its, NULL) < 0) {
        iface->timer_at = -1;
        ucs_error("hxb: timerfd_settime: %m");
        return UCS_ERR_BUSY;     /* cannot sleep safely: keep polling */
    }
    iface->timer_at = at;
    /* UCP watches this fd from an epoll of its own, edge-triggered (the
     * worker's event set; the async thread's, for an iface it deactivated),
     * which wakes only when an fd joins our ready list. One already on it
     * (frames that came after the pass above read the rails, a timer that
     * expired) wakes no one: seen, a pair of processes whose frames waited
     * 10 s in the sockets, until the timer of a later deadline joined. One
     * look empties the list or says there is work now. */
    if (uct_hxb_iface_events_waiting(iface)) {
        return UCS_ERR_BUSY;
    }
    iface->sleeps++;
    iface->sleeps_timed += at != 0;
    iface->slept = 1;
    return UCS_OK;
}

static void uct_hxb_am_cb(void *arg, hxb_peer_t *peer, unsigned am_id, void *data,
                          size_t len)
{
    uct_hxb_iface_t *iface = arg;

    uct_iface_trace_am(&iface->super, UCT_AM_TRACE_TYPE_RECV, am_id, data, len,
                       "RX: AM");
    uct_iface_invoke_am(&iface->super, am_id, data, len, 0);
}

static void uct_hxb_complete_cb(void *arg, void *comp, int status)
{
    uct_invoke_completion(comp, (status == 0) ? UCS_OK :
                                (status == HXB_E_RKEY) ? UCS_ERR_INVALID_ADDR :
                                (status == HXB_E_CANCEL) ? UCS_ERR_CANCELED :
                                UCS_ERR_ENDPOINT_TIMEOUT);
}

static int uct_hxb_mem_check_cb(void *arg, uint64_t addr, uint64_t rkey, size_t len,
                                int write)
{
    uct_hxb_iface_t *iface = arg;

    return uct_hxb_md_check(iface->md, addr, rkey, len);
}

static void uct_hxb_peer_failed_cb(void *arg, hxb_peer_t *peer)
{
    uct_hxb_ep_peer_failed(arg, peer);
}

static void uct_hxb_peer_reset_cb(void *arg, hxb_peer_t *peer)
{
    uct_hxb_ep_peer_reset(arg, peer);
}

static UCS_CLASS_DECLARE_DELETE_FUNC(uct_hxb_iface_t, uct_iface_t);

static uct_iface_ops_t uct_hxb_iface_ops = {
    .ep_am_short              = uct_hxb_ep_am_short,
    .ep_am_short_iov          = uct_hxb_ep_am_short_iov,
    .ep_am_bcopy              = uct_hxb_ep_am_bcopy,
    .ep_am_zcopy              = uct_hxb_ep_am_zcopy,
    .ep_put_short             = uct_hxb_ep_put_short,
    .ep_put_bcopy             = uct_hxb_ep_put_bcopy,
    .ep_put_zcopy             = uct_hxb_ep_put_zcopy,
    .ep_get_bcopy             = uct_hxb_ep_get_bcopy,
    .ep_get_zcopy             = uct_hxb_ep_get_zcopy,
    .ep_atomic_cswap64        = uct_hxb_ep_atomic_cswap64,
    .ep_atomic_cswap32        = uct_hxb_ep_atomic_cswap32,
    .ep_atomic32_post         = uct_hxb_ep_atomic32_post,
    .ep_atomic64_post         = uct_hxb_ep_atomic64_post,
    .ep_atomic32_fetch        = uct_hxb_ep_atomic32_fetch,
    .ep_atomic64_fetch        = uct_hxb_ep_atomic64_fetch,
    .ep_pending_add           = uct_hxb_ep_pending_add,
    .ep_pending_purge         = uct_hxb_ep_pending_purge,
    .ep_flush                 = uct_hxb_ep_flush,
    .ep_fence                 = uct_hxb_ep_fence,
    .ep_check                 = uct_hxb_ep_check,
    .ep_create                = UCS_CLASS_NEW_FUNC_NAME(uct_hxb_ep_t),
    .ep_destroy               = UCS_CLASS_DELETE_FUNC_NAME(uct_hxb_ep_t),
    .iface_flush              = uct_hxb_iface_flush,
    .iface_fence              = uct_hxb_iface_fence,
    .iface_progress_enable    = uct_base_iface_progress_enable,
    .iface_progress_disable   = uct_base_iface_progress_disable,
    .iface_progress           = uct_hxb_iface_progress,
    .iface_event_fd_get       = uct_hxb_iface_event_fd_get,
    .iface_event_arm          = uct_hxb_iface_event_arm,
    .iface_close              = UCS_CLASS_DELETE_FUNC_NAME(uct_hxb_iface_t),
    .iface_query              = uct_hxb_iface_query,
    .iface_get_device_address = uct_hxb_iface_get_device_address,
    .iface_get_address        = uct_hxb_iface_get_address,
#ifdef HXB_UCT_IFACE_REACHABLE_V2
    .iface_is_reachable       = uct_base_iface_is_reachable,
#else
    .iface_is_reachable       = uct_hxb_iface_is_reachable,
#endif
};

static void uct_hxb_rails_close(hxb_rail_t **rails, int n)
{
    int i;

    for (i = 0; i < n; i++) {
        rails[i]->ops->close(rails[i]);
    }
}

/* Open the rails (rails[0..*n_p-1], closed again by the caller on
 * failure) in the mode the settings ask for, and take our process id:
 * raw rails a UDP port held by port_fd, UDP and dual rails the port they
 * all bound. UCS_ERR_BUSY: that port was taken on a later rail, try
 * again. */
static ucs_status_t uct_hxb_iface_open_rails(uct_hxb_iface_t *self,
                                             const uct_hxb_iface_config_t *config,
                                             int node, hxb_rail_t **rails, int *n_p)
{
    char names[HXB_MAX_RAILS][IF_NAMESIZE], err[256];
    uint16_t port = 0;
    int n, i, ret;

    *n_p = 0;
    n = uct_hxb_rail_names(config, self, node, names);
    if (n == 0) {
        ucs_debug("hxb: no rail interfaces found");
        return UCS_ERR_NO_DEVICE;
    }
    if (!strcmp(config->mode, "udp")) {
        self->mode = HXB_RAIL_UDP;
    } else if (!strcmp(config->mode, "dual") || !strcmp(config->mode, "auto")) {
        self->mode = HXB_RAIL_DUAL;
    } else if (!strcmp(config->mode, "raw")) {
        self->mode = HXB_RAIL_RAW;
    } else {
        ucs_error("UCX_HXB_MODE=%s: must be raw, udp, dual or auto", config->mode);
        return UCS_ERR_INVALID_PARAM;
    }

    if (self->mode == HXB_RAIL_RAW) {
        self->port_fd = hxb_rail_reserve_port(&port);
        if (self->port_fd < 0) {
            ucs_error("hxb: cannot reserve a process id: %m");
            return UCS_ERR_IO_ERROR;
        }
        for (i = 0; i < n; i++) {
            ret = hxb_rail_open(HXB_RAIL_RAW, names[i], ntohs(port),
                                NULL, &rails[i], err, sizeof(err));
            if (ret < 0) {
                ucs_error("hxb: %s", err);
                return UCS_ERR_IO_ERROR;
            }
            *n_p = i + 1;
        }
        self->iface_addr.proc = port;
        return UCS_OK;
    }

    /* UDP and dual: the same port on every rail address is our process id;
     * if it is taken on a later rail, the caller starts over with another.
     * One socket for all UDP rails pays with two or more; a single rail's
     * own socket, bound to its address, needs no arrival interface read
     * and sent with every datagram (0.5 us of an 8-byte half round trip) */
    for (i = 0; i < n; i++) {
        ret = ((self->mode == HXB_RAIL_UDP) && config->udp_shared && (n > 1)) ?
              hxb_rail_open_udp_shared(names[i], &port, i ? rails[0] : NULL, &rails[i],
                                       err, sizeof(err)) :
              hxb_rail_open(self->mode, names[i], 0, &port, &rails[i], err, sizeof(err));
        if (((ret == -EPERM) || (ret == -EACCES)) && (i == 0) &&
            (self->mode == HXB_RAIL_DUAL) && !strcmp(config->mode, "auto")) {
            ucs_debug("hxb: %s; using UDP rails", err);
            self->mode = HXB_RAIL_UDP;    /* no CAP_NET_RAW: UDP alone */
            port = 0;
            i = -1;
            continue;
        }
        if (ret < 0) {
            if ((ret == -EADDRINUSE) && (i > 0)) {
                ucs_debug("hxb: %s, retrying", err);
                return UCS_ERR_BUSY;
            }
            ucs_error("hxb: %s", err);
            return UCS_ERR_IO_ERROR;
        }
        *n_p = i + 1;
        if (!config->udp_offload && (self->mode == HXB_RAIL_UDP)) {
            hxb_rail_udp_no_offload(rails[i]);
        }
    }
    self->iface_addr.proc = port;
    return UCS_OK;
}

/* each rail's place: its dimension and rail number in the topology file,
 * and UCX_HXB_RAIL_SPEED */
static ucs_status_t uct_hxb_iface_place_rails(uct_hxb_iface_t *self,
                                              const uct_hxb_iface_config_t *config,
                                              int node, hxb_rail_t **rails, int n)
{
    const hxb_topo_iface_t *ti;
    int i;

    for (i = 0; i < n; i++) {
        if (!self->have_topo) {
            hxb_rail_place(rails[i], 0, 0, config->rail_speed);
            continue;
        }
        ti = hxb_topo_iface_by_name(&self->topo, node, rails[i]->ifname);
        if (ti == NULL) {
            ucs_error("hxb: rail %s is not listed for node %s in %s",
                      rails[i]->ifname, self->topo.nodes[node].name, config->topo);
            return UCS_ERR_INVALID_PARAM;
        }
        hxb_rail_place(rails[i], ti->dim, ti->rail, config->rail_speed);
    }
    return UCS_OK;
}

/* open the rails, trying other ports while one is taken (see above), and
 * place them; on failure none is left open */
static ucs_status_t uct_hxb_iface_open_rails_retry(uct_hxb_iface_t *self,
                                                   const uct_hxb_iface_config_t *config,
                                                   int node, hxb_rail_t **rails,
                                                   int *n_p)
{
    ucs_status_t status;
    int attempt;

    for (attempt = 0;; attempt++) {
        status = uct_hxb_iface_open_rails(self, config, node, rails, n_p);
        if (status == UCS_OK) {
            status = uct_hxb_iface_place_rails(self, config, node, rails, *n_p);
        }
        if (status == UCS_OK) {
            return UCS_OK;
        }
        uct_hxb_rails_close(rails, *n_p);   /* close what was opened */
        *n_p = 0;
        if ((status != UCS_ERR_BUSY) || (attempt == 31)) {
            break;
        }
    }
    if (status == UCS_ERR_BUSY) {
        ucs_error("hxb: no UDP port free on every rail address after 32 tries");
    }
    return status;
}

/* the topology file, if any, and this node in it */
static ucs_status_t uct_hxb_iface_load_topo(uct_hxb_iface_t *self,
                                            const uct_hxb_iface_config_t *config,
                                            int *node_p)
{
    const char *node_name = config->node;
    char err[512], host[256];

    if (config->topo[0] == '\0') {
        return UCS_OK;
    }
    if (hxb_topo_load(config->topo, &self->topo, err, sizeof(err)) < 0) {
        ucs_error("hxb: %s", err);
        return UCS_ERR_INVALID_PARAM;
    }
    self->have_topo = 1;
    if (node_name[0] == '\0') {
        gethostname(host, sizeof(host));
        host[sizeof(host) - 1] = '\0';
        node_name = host;
    }
    *node_p = hxb_topo_find_node(&self->topo, node_name);
    if (*node_p < 0) {
        ucs_error("hxb: node '%s' is not in the topology file %s (set "
                  "UCX_HXB_NODE)", node_name, config->topo);
        return UCS_ERR_INVALID_PARAM;
    }
    return UCS_OK;
}

/* what peers learn of us: the device and iface addresses */
static void uct_hxb_iface_addresses(uct_hxb_iface_t *self, const hxb_engine_cfg_t *ecfg)
{
    hxb_rail_t *r;
    int i;

    self->iface_addr.epoch = ecfg->epoch;
    self->dev_addr.fabric  = hxb_ident_fabric(ecfg->job_key);
    self->dev_addr.node    = ecfg->node_id;
    self->dev_addr.mode    = self->mode;
    self->dev_addr.flags   = self->have_topo ? UCT_HXB_DEV_TOPO : 0;
    if (self->have_topo) {
        return;    /* peers find our rails in the topology file */
    }
    for (i = 0; i < hxb_engine_num_rails(self->engine); i++) {
        r = hxb_engine_rail(self->engine, i);
        if (i < UCT_HXB_ADDR_RAILS) {
            self->iface_addr.rails[i].ip = r->ip;
            memcpy(self->iface_addr.rails[i].mac, r->mac, 6);
            self->iface_addr.nrails = i + 1;
        } else if (i == UCT_HXB_ADDR_RAILS) {
            ucs_warn("hxb: without a topology file (UCX_HXB_TOPO) peers learn "
                     "only %d rails; %s and later stay unused",
                     UCT_HXB_ADDR_RAILS, r->ifname);
        }
    }
}

/* Near NICs first (hxb_locality.c): equal-speed rails ordered by their
 * NIC's distance to the cores we run on, so that ties in rail choice (the
 * lowest index wins: small messages, a message's first stripes) go to a
 * near NIC. Far rails still stripe bulk data; who we are (node id from
 * the first rail, process id) was fixed before, in the configured order. */
static void uct_hxb_iface_order_rails(hxb_rail_t **rails, int n)
{
    char names[HXB_MAX_RAILS][IF_NAMESIZE], str[HXB_MAX_RAILS * 48];
    hxb_rail_t *copy[HXB_MAX_RAILS];
    hxb_loc_rail_t loc[HXB_MAX_RAILS];
    double speed[HXB_MAX_RAILS];
    int perm[HXB_MAX_RAILS], i, changed;
    const char *cpus;

    for (i = 0; i < n; i++) {
        ucs_strncpy_zero(names[i], rails[i]->ifname, IF_NAMESIZE);
        speed[i] = rails[i]->speed;
        copy[i]  = rails[i];
    }
    hxb_locality_classify((const char (*)[IF_NAMESIZE])names, n, loc, NULL, &cpus);
    changed = hxb_locality_order(loc, speed, n, perm);
    for (i = 0; i < n; i++) {
        rails[i] = copy[perm[i]];
    }
    hxb_locality_str(loc, perm, n, str, sizeof(str));
    ucs_info("hxb: rails by locality to cpus %s: %s%s", cpus[0] ? cpus : "?",
             str, changed ? " (reordered: near ones first)" : "");
}

/* the engine's config: the settings (hxb_settings.def), and who we are */
static void uct_hxb_iface_engine_cfg(uct_hxb_iface_t *self,
                                     const uct_hxb_iface_config_t *config,
                                     int node, const hxb_rail_t *rail0,
                                     hxb_engine_cfg_t *ecfg)
{
    UCS_STATIC_ASSERT(((int)HXB_IDENT_NO == (int)UCS_NO) &&
                      ((int)HXB_IDENT_YES == (int)UCS_YES) &&
                      ((int)HXB_IDENT_TRY == (int)UCS_TRY));

    hxb_engine_cfg_default(ecfg);
#define HXB_SETTING(_NAME, _name, _type, _dflt, _to, _efield, _help) \
    HXB_SETTING_COPY_##_to(ecfg->_efield, config->_name)
#include "hxb_settings.def"
#undef HXB_SETTING
    ecfg->job_key = hxb_ident_job_key(config->job_key);
    ecfg->epoch   = hxb_ident_epoch();
    ecfg->proc_id = ntohs(self->iface_addr.proc);
    ecfg->node_id = hxb_ident_node_id(node, rail0);
    ecfg->csum    = hxb_ident_csum(config->checksum, self->mode);
    ecfg->auth    = hxb_auth_mode(config->auth);
    self->auth_from = hxb_ident_auth_key(config->job_key, ecfg->auth_key);
}

/* UCX_HXB_RELAY: relays (hxb-relayd's tc program) forward raw frames and
 * UDP rails' datagrams alike, so any mode reaches relayed peers */
static void uct_hxb_iface_relay_init(uct_hxb_iface_t *self,
                                     const uct_hxb_iface_config_t *config)
{
    self->relay = self->have_topo && (config->relay != UCS_NO);
    self->relay_check  = (config->relay == UCS_TRY);
    self->relay_warned = 0;
    if ((config->relay == UCS_YES) && !self->relay) {
        ucs_warn("hxb: UCX_HXB_RELAY=yes needs a topology file; "
                 "only peers on this node's lines are reachable");
    }
}

/* an AM is sent only when all its frames fit in the window at once */
static ucs_status_t uct_hxb_iface_check_window(const hxb_engine_cfg_t *ecfg,
                                               size_t frag)
{
    size_t need = 2 * ((ecfg->max_msg + frag - 1) / frag);

    if (ecfg->window < need) {
        ucs_error("hxb: UCX_HXB_WINDOW=%u is too small for UCX_HXB_MAX_AM=%zu "
                  "(%zu-byte frames): use a window of at least %zu",
                  ecfg->window, ecfg->max_msg, frag, need);
        return UCS_ERR_INVALID_PARAM;
    }
    return UCS_OK;
}

/* the event fd: epoll over the timer fd, and the rails' fds while a
 * caller may sleep (uct_hxb_iface_events_rails) */
static ucs_status_t uct_hxb_iface_events_init(uct_hxb_iface_t *self)
{
    struct epoll_event ev = {.events = EPOLLIN};

    self->epfd = epoll_create1(EPOLL_CLOEXEC);
    if (self->epfd < 0) {
        return UCS_ERR_IO_ERROR;
    }
    self->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    ev.data.fd     = self->timer_fd;
    if (self->timer_fd < 0 || epoll_ctl(self->epfd, EPOLL_CTL_ADD, self->timer_fd, &ev) < 0) {
        ucs_error("hxb: event fd: %s: %m", self->timer_fd < 0 ? "timerfd_create" : "epoll_ctl");
        return UCS_ERR_IO_ERROR;
    }
    return UCS_OK;
}

/* The rails' fds are in the event fd while a caller may sleep on it: from
 * event_arm (UCP's wakeup, the async thread watching an iface it
 * deactivated) until UCT_HXB_EV_PASSES progress calls later. Every epoll
 * set a socket is in costs the sender's softirq a wake-up call per datagram
 * (nested through UCP's own set), on the latency path of a caller that
 * polls; and UCP asks for the fd at start-up whether or not it ever
 * sleeps (adaptive progress). A caller that sleeps and wakes re-arms
 * within a few passes and keeps them in: no epoll_ctl churn. */
static ucs_status_t uct_hxb_iface_events_rails(uct_hxb_iface_t *iface, int in)
{
    struct epoll_event ev = {.events = EPOLLIN};
    int i, fds[HXB_MAX_RAILS], nfds;

    if (iface->ev_rails == in) {
        return UCS_OK;
    }
    nfds = hxb_engine_fds(iface->engine, fds, HXB_MAX_RAILS);
    for (i = 0; i < nfds; i++) {
        ev.data.fd = fds[i];
        /* taking one out cannot fail but for one already out */
        if ((epoll_ctl(iface->epfd, in ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, fds[i], &ev) < 0) &&
            in) {
            ucs_error("hxb: event fd: epoll_ctl: %m");
            return UCS_ERR_IO_ERROR;
        }
    }
    iface->ev_rails = in;
    return UCS_OK;
}

/* hxb-stat's file and the dump signal (UCX_HXB_STAT, _DUMP_SIGNAL): the
 * job runs without them if they cannot be had */
static void uct_hxb_iface_stat_open(uct_hxb_iface_t *self,
                                    const uct_hxb_iface_config_t *config)
{
    hxb_statfile_id_t id = {
        .node   = self->dev_addr.node,
        .proc   = ntohs(self->iface_addr.proc),
        .epoch  = self->iface_addr.epoch,
        .mode   = (self->mode == HXB_RAIL_RAW) ? "raw" :
                  (self->mode == HXB_RAIL_DUAL) ? "dual" : "udp",
        .period = config->stat_period,
    };
    char err[320];
    int ret;

    if (config->dump_signal &&
        (ret = hxb_statfile_dump_signal(config->dump_signal)) < 0) {
        ucs_warn("hxb: UCX_HXB_DUMP_SIGNAL=%u: %s", config->dump_signal,
                 (ret == -EBUSY) ? "the application handles that signal" :
                 strerror(-ret));
    }
    if (config->stat &&
        hxb_statfile_open(&self->statfile, NULL, &id, err, sizeof(err)) < 0) {
        ucs_diag("hxb: no counters for hxb-stat: %s", err);
        self->statfile = NULL;
    }
}

static UCS_CLASS_INIT_FUNC(uct_hxb_iface_t, uct_md_h md, uct_worker_h worker,
                           const uct_iface_params_t *params,
                           const uct_iface_config_t *tl_config)
{
    uct_hxb_iface_config_t *config = ucs_derived_of(tl_config,
                                                    uct_hxb_iface_config_t);
    hxb_callbacks_t cb = {
        .arg         = self,
        .am          = uct_hxb_am_cb,
        .complete    = uct_hxb_complete_cb,
        .mem_check   = uct_hxb_mem_check_cb,
        .peer_failed = uct_hxb_peer_failed_cb,
        .peer_reset  = uct_hxb_peer_reset_cb,
    };
    hxb_rail_t *rails[HXB_MAX_RAILS];
    hxb_engine_cfg_t ecfg;
    ucs_status_t status;
    size_t frag;
    int node = -1, nrails, i;

    UCS_CLASS_CALL_SUPER_INIT(uct_base_iface_t, &uct_hxb_iface_ops,
                              &uct_hxb_iface_internal_ops, md, worker, params,
                              tl_config UCS_STATS_ARG(NULL)
                              UCS_STATS_ARG(UCT_HXB_NAME));

    /* UCS classes are not zeroed: our part starts at 0, so no field is
     * read before it is set (sleeps and have_topo once were, and read
     * garbage); then the ones whose "none" is not 0 */
    memset(UCS_PTR_BYTE_OFFSET(self, sizeof(self->super)), 0,
           sizeof(*self) - sizeof(self->super));
    self->md          = ucs_derived_of(md, uct_hxb_md_t);
    self->print_stats = config->print_stats;
    self->port_fd     = -1;
    self->epfd        = -1;
    self->timer_fd    = -1;
    self->tick_fd     = -1;
    ucs_recursive_spinlock_init(&self->lock, 0);
    ucs_list_head_init(&self->eps);

    status = uct_hxb_iface_load_topo(self, config, &node);
    if (status != UCS_OK) {
        goto err_topo;
    }
    /* the rails first: who we are (process id, node id) comes from them,
     * and the engine is created knowing it */
    status = uct_hxb_iface_open_rails_retry(self, config, node, rails, &nrails);
    if (status != UCS_OK) {
        goto err_port;
    }
    uct_hxb_iface_engine_cfg(self, config, node, rails[0], &ecfg);
    if (ecfg.auth < 0) {
        ucs_error("UCX_HXB_AUTH=%s: must be header, full or off", config->auth);
        uct_hxb_rails_close(rails, nrails);
        status = UCS_ERR_INVALID_PARAM;
        goto err_port;
    }
    if (ecfg.frame_cap && (ecfg.frame_cap < HXB_FRAME_MIN)) {
        ucs_error("UCX_HXB_FRAME_MAX=%zu: must be at least %zu bytes, or inf", ecfg.frame_cap,
                  HXB_FRAME_MIN);
        uct_hxb_rails_close(rails, nrails);
        status = UCS_ERR_INVALID_PARAM;
        goto err_port;
    }
    if (hxb_engine_create(&ecfg, &cb, &self->engine) < 0) {
        ucs_error("hxb: bad configuration (UCX_HXB_WINDOW must be a power of 2 "
                  "up to %d)", HXB_SACK_BITS);
        uct_hxb_rails_close(rails, nrails);
        status = UCS_ERR_INVALID_PARAM;
        goto err_port;
    }
    uct_hxb_iface_order_rails(rails, nrails);
    for (i = 0; i < nrails; i++) {
        if (hxb_engine_add_rail(self->engine, rails[i]) < 0) {
            rails[i]->ops->close(rails[i]);   /* frames too small: unused */
        }
    }

    uct_hxb_iface_relay_init(self, config);
    uct_hxb_iface_addresses(self, &ecfg);
    frag   = hxb_engine_frag_size(self->engine);
    status = uct_hxb_iface_check_window(&ecfg, frag);
    if (status == UCS_OK) {
        status = uct_hxb_iface_events_init(self);
    }
    if (status != UCS_OK) {
        goto err_engine;
    }
    ucs_debug("hxb: iface %p node %u proc %u epoch 0x%x, %d %s rails, frag %zu, "
              "auth %s (key from %s)",
              self, self->dev_addr.node, ntohs(self->iface_addr.proc),
              self->iface_addr.epoch, hxb_engine_num_rails(self->engine),
              (self->mode == HXB_RAIL_RAW) ? "raw" :
              (self->mode == HXB_RAIL_DUAL) ? "dual" : "udp", frag, config->auth,
              self->auth_from ? self->auth_from : "the job key: guessable");
    status = uct_hxb_bounce_init(self, frag);
    if (status != UCS_OK) {
        goto err_engine;
    }
    self->have_bounce_mp = 1;
    uct_hxb_iface_stat_open(self, config);
    status = uct_hxb_tick_start(self);
    if (status != UCS_OK) {
        goto err_engine;
    }
    /* the md tells every engine when registered memory goes away */
    ucs_list_add_tail(&self->md->ifaces, &self->md_link);
    return UCS_OK;

err_engine:
    hxb_statfile_close(self->statfile);
    if (self->have_bounce_mp) {
        ucs_mpool_cleanup(&self->bounce_mp, 1);
    }
    if (self->epfd >= 0) {
        close(self->epfd);
    }
    if (self->timer_fd >= 0) {
        close(self->timer_fd);
    }
    hxb_engine_destroy(self->engine);
err_port:
    if (self->port_fd >= 0) {
        close(self->port_fd);
    }
err_topo:
    if (self->have_topo) {
        hxb_topo_free(&self->topo);
    }
    return status;
}

static void uct_hxb_iface_print_stats(uct_hxb_iface_t *iface)
{
    const hxb_engine_stats_t *st = hxb_engine_stats(iface->engine);
    char buf[1024];
    int i, n;

    n = snprintf(buf, sizeof(buf),
                 "hxb stats node %u proc %u: tx_frames=%lu rx_frames=%lu "
                 "retransmits=%lu fast_retx=%lu rack_retx=%lu rto=%lu acks_sent=%lu "
                 "acks_rcvd=%lu am_delivered=%lu ooo_held=%lu peers_failed=%lu "
                 "peers_reset=%lu challenges=%lu busy_sent=%lu busy_rcvd=%lu busy_learned=%lu rail_failovers=%lu spurious=%lu am_bundled=%lu put_bundled=%lu put_copied=%lu atomics_done=%lu atomic_bundled=%lu rail_cuts=%lu cwnd_cuts=%lu cwnd_undos=%lu cc_delay_cuts=%lu "
                 "resp_revoked=%lu tx_short=%lu rx_short=%lu invalidations=%lu sleeps=%lu "
                 "sleeps_timed=%lu wakes_idle=%lu drops:",
                 iface->dev_addr.node, ntohs(iface->iface_addr.proc),
                 st->tx_frames, st->rx_frames, st->retransmits, st->fast_retx, st->rack_retx,
                 st->rto_fired, st->acks_sent, st->acks_rcvd, st->am_delivered,
                 st->ooo_held, st->peers_failed, st->peers_reset, st->challenges,
                 st->busy_sent, st->busy_rcvd, st->busy_learned,
                 st->rail_failovers, st->spurious, st->am_bundled, st->put_bundled, st->put_copied, st->atomics_done, st->atomic_bundled, st->rail_cuts,
                 st->cwnd_cuts, st->cwnd_undos, st->cc_delay_cuts, st->resp_revoked,
                 st->tx_short, st->rx_short, iface->md->invalidations, iface->sleeps, iface->sleeps_timed, iface->wakes_idle);
    for (i = 0; (i < HXB_DROP_MAX) && (n < (int)sizeof(buf)); i++) {
        n += snprintf(buf + n, sizeof(buf) - n, " %s=%lu", hxb_drop_names[i],
                      st->drops[i]);
    }
    fprintf(stderr, "%s\n", buf);
    /* per rail: what it carried (frames, all hxb frames; bytes), and the
     * local losses it saw: the kernel refused a send, the ring overflowed,
     * a shared UDP socket got datagrams by an interface that is no rail */
    for (i = 0; i < hxb_engine_num_rails(iface->engine); i++) {
        const hxb_rail_t *r = hxb_engine_rail(iface->engine, i);
        fprintf(stderr, "hxb stats rail %s: tx_frames=%lu tx_bytes=%lu rx_frames=%lu "
                "rx_bytes=%lu tx_again=%lu tx_errors=%lu rx_ring_drops=%lu tx_gso=%lu "
                "rx_gro=%lu rx_foreign=%lu\n", r->ifname,
                r->stats.tx_frames, r->stats.tx_bytes, r->stats.rx_frames, r->stats.rx_bytes,
                r->stats.tx_again, r->stats.tx_errors, r->stats.rx_ring_drops,
                r->stats.tx_gso, r->stats.rx_gro, r->stats.rx_foreign);
    }
}

static UCS_CLASS_CLEANUP_FUNC(uct_hxb_iface_t)
{
    uct_hxb_tick_stop(self);    /* waits for a tick under way */
    if (self->print_stats) {
        uct_hxb_iface_print_stats(self);
    }
    hxb_statfile_close(self->statfile);
    uct_base_iface_progress_disable(&self->super.super,
                                    UCT_PROGRESS_SEND | UCT_PROGRESS_RECV);
    ucs_list_del(&self->md_link);
    hxb_engine_destroy(self->engine);
    /* bounce buffers of operations cut off by the close (a failed peer, an
     * endpoint destroyed unflushed) are freed with the pool */
    ucs_mpool_cleanup(&self->bounce_mp, 0);
    if (self->epfd >= 0) {
        close(self->epfd);
    }
    if (self->timer_fd >= 0) {
        close(self->timer_fd);
    }
    if (self->port_fd >= 0) {
        close(self->port_fd);
    }
    if (self->have_topo) {
        hxb_topo_free(&self->topo);
    }
    ucs_recursive_spinlock_destroy(&self->lock);
}

UCS_CLASS_DEFINE(uct_hxb_iface_t, uct_base_iface_t);
static UCS_CLASS_DEFINE_NEW_FUNC(uct_hxb_iface_t, uct_iface_t, uct_md_h,
                                 uct_worker_h, const uct_iface_params_t*,
                                 const uct_iface_config_t*);
static UCS_CLASS_DEFINE_DELETE_FUNC(uct_hxb_iface_t, uct_iface_t);

/* The device's system device (ucx_info -d, "System device"): hxb0 spans
 * every rail, so it is the PCI function of the nearest NIC among the rails
 * it takes without a topology file (UCX_HXB_RAILS, else every up Ethernet
 * interface; resources are listed before any iface config is read).
 * Unknown where none has a PCI parent (veth). */
static ucs_sys_device_t uct_hxb_sys_device(void)
{
    char names[HXB_MAX_RAILS][IF_NAMESIZE], list[256], *tok, *save;
    ucs_sys_device_t sys_dev = UCS_SYS_DEVICE_ID_UNKNOWN;
    hxb_loc_rail_t loc[HXB_MAX_RAILS];
    double speed[HXB_MAX_RAILS] = {0};
    const char *env = getenv("UCX_HXB_RAILS");
    int perm[HXB_MAX_RAILS], n = 0, i;

    if (env && *env) {
        ucs_strncpy_zero(list, env, sizeof(list));
        for (tok = strtok_r(list, ",", &save); tok && (n < HXB_MAX_RAILS);
             tok = strtok_r(NULL, ",", &save)) {
            ucs_strncpy_zero(names[n++], tok, IF_NAMESIZE);
        }
    } else {
        n = hxb_rail_default_names(names, HXB_MAX_RAILS);
    }
    if (n <= 0) {
        return sys_dev;
    }
    hxb_locality_classify((const char (*)[IF_NAMESIZE])names, n, loc, NULL, NULL);
    hxb_locality_order(loc, speed, n, perm);
    for (i = 0; i < n; i++) {
        if (loc[perm[i]].bdf[0] &&
            (ucs_topo_find_device_by_bdf_name(loc[perm[i]].bdf, &sys_dev) == UCS_OK)) {
            ucs_debug("hxb: %s (%s, %s) is hxb0's system device", loc[perm[i]].ifname,
                      loc[perm[i]].bdf, hxb_locality_class_name(loc[perm[i]].cls));
            return sys_dev;
        }
    }
    return UCS_SYS_DEVICE_ID_UNKNOWN;
}

static ucs_status_t uct_hxb_query_tl_devices(uct_md_h md,
                                             uct_tl_device_resource_t **devices_p,
                                             unsigned *num_devices_p)
{
    uct_tl_device_resource_t *dev;

    dev = ucs_calloc(1, sizeof(*dev), "hxb device");
    if (dev == NULL) {
        return UCS_ERR_NO_MEMORY;
    }
    ucs_snprintf_zero(dev->name, sizeof(dev->name), "%s", UCT_HXB_DEV_NAME);
    dev->type       = UCT_DEVICE_TYPE_NET;
    dev->sys_device = uct_hxb_sys_device();
    *devices_p      = dev;
    *num_devices_p  = 1;
    return UCS_OK;
}

UCT_TL_DEFINE_ENTRY(&uct_hxb_component, hxb, uct_hxb_query_tl_devices,
                    uct_hxb_iface_t, "HXB_", uct_hxb_iface_config_table,
                    uct_hxb_iface_config_t);

/* ctor scope: registers when the library is loaded (see file comment) */
UCT_SINGLE_TL_INIT(&uct_hxb_component, hxb, ctor,,)
