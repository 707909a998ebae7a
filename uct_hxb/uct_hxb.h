/* The UCT component "hxb": md, iface and ep types. The engine underneath
 * (hxb_engine.h) knows nothing of UCX. */
#ifndef UCT_HXB_H
#define UCT_HXB_H

#include "hxb_engine.h"
#include "hxb_settings.h"
#include "hxb_statfile.h"
#include "hxb_topo.h"

#include <uct/base/uct_iface.h>
#include <uct/base/uct_md.h>
#include <ucs/datastruct/khash.h>
#include <ucs/datastruct/list.h>
#include <ucs/datastruct/mpool.h>
#include <ucs/datastruct/queue.h>
#include <ucs/type/spinlock.h>

#include <pthread.h>

#define UCT_HXB_NAME     "hxb"
#define UCT_HXB_DEV_NAME "hxb0"

/* UCP's address format v1 (the 1.13 default) allows 31 bytes of device
 * address and 63 of iface address. With a topology file the node id is
 * enough: every node's rails are in the file. Without one, the iface
 * address carries the first UCT_HXB_ADDR_RAILS rails. */
#define UCT_HXB_ADDR_RAILS 5
#define UCT_HXB_DEV_TOPO   0x01      /* the sender uses a topology file */

typedef struct __attribute__((packed)) uct_hxb_rail_addr {
    uint32_t ip;          /* network order, 0 = none */
    uint8_t  mac[6];
} uct_hxb_rail_addr_t;

/* device address: which job, which node */
typedef struct __attribute__((packed)) uct_hxb_device_addr {
    uint32_t fabric;      /* hash of the job key: other jobs unreachable */
    uint16_t node;
    uint8_t  mode;        /* HXB_RAIL_RAW / _UDP / _DUAL */
    uint8_t  flags;       /* UCT_HXB_DEV_* */
} uct_hxb_device_addr_t;

/* iface address: the process on the node (and its rails, without topology) */
typedef struct __attribute__((packed)) uct_hxb_iface_addr {
    uint16_t            proc;     /* process id on its node = UDP port, net order */
    uint32_t            epoch;
    uint8_t             nrails;
    uct_hxb_rail_addr_t rails[UCT_HXB_ADDR_RAILS];
} uct_hxb_iface_addr_t;

typedef struct uct_hxb_region {
    uint64_t addr;
    uint64_t length;
} uct_hxb_region_t;

KHASH_MAP_INIT_INT64(uct_hxb_rkey, uct_hxb_region_t)

typedef struct uct_hxb_memh {
    uint64_t rkey;
    uint64_t addr;
    uint64_t length;
} uct_hxb_memh_t;

typedef struct uct_hxb_md {
    uct_md_t             super;
    khash_t(uct_hxb_rkey) regions;   /* rkey -> registered region */
    uint64_t             rand_state;
    ucs_list_link_t      ifaces;     /* open ifaces on this md      */
    unsigned long        invalidations; /* deregs with INVALIDATE  */
} uct_hxb_md_t;

typedef struct uct_hxb_md_config {
    uct_md_config_t super;
} uct_hxb_md_config_t;

typedef struct uct_hxb_iface_config {
    uct_iface_config_t       super;
    /* one field per UCX_HXB_* setting, named in lower case */
#define HXB_SETTING(_NAME, _name, _type, _dflt, _to, _efield, _help) \
    HXB_SETTING_CTYPE_##_type _name;
#include "hxb_settings.def"
#undef HXB_SETTING
} uct_hxb_iface_config_t;

typedef struct uct_hxb_iface {
    uct_base_iface_t       super;
    hxb_engine_t          *engine;
    uct_hxb_md_t          *md;
    uct_hxb_device_addr_t  dev_addr;
    uct_hxb_iface_addr_t   iface_addr;
    hxb_rail_kind_t        mode;
    hxb_topo_t             topo;
    int                    have_topo;
    const char            *auth_from;   /* where the auth key came from (hxb_ident_auth_key) */
    int                    relay;        /* reach off-line peers via relays */
    int                    relay_check;  /* only while hxb-relayd runs here */
    int                    relay_warned;
    int                    port_fd;      /* raw mode: holds our proc id */
    int                    epfd;         /* event fd: epoll over rails  */
    int                    timer_fd;     /* in epfd: the engine's next deadline */
    int                    ev_rails;     /* the rails' fds are in epfd too */
    unsigned               ev_passes;    /* progress calls since event_arm */
    uint64_t               entries;      /* of the lock (uct_hxb_enter), ticks that acted */
    uint64_t               idle_at;      /* entries after a pass that found and
                                            left nothing: event_arm needs no pass
                                            while it is unchanged */
    double                 timer_at;     /* ... as last set (0: disarmed) */
    uint64_t               sleeps;       /* event_arm let the caller sleep */
    uint64_t               sleeps_timed; /* ... with a deadline armed (work
                                            outstanding, e.g. frames unacked) */
    int                    slept;        /* event_arm let it sleep: the next
                                            pass is the first one awake */
    uint64_t               wakes_idle;   /* ... and that pass received nothing
                                            (a deadline woke it, for work or
                                            for none) */
    int                    print_stats;
    hxb_statfile_t        *statfile;     /* hxb-stat's (NULL: none) */
    double                 stat_next;    /* ... next update due (hxb_now) */
    /* The worker's thread and the idle tick (a thread of ours) take
     * turns on the engine: every UCT entry point holds this lock; the
     * tick only tries it, since a held lock means the worker is active */
    ucs_recursive_spinlock_t lock;
    pthread_t              tick_thread;
    int                    tick_fd;      /* eventfd: stop (-1: no tick) */
    ucs_list_link_t        eps;
    ucs_list_link_t        md_link;      /* in md->ifaces               */
    ucs_mpool_t            bounce_mp;    /* get_bcopy lands here (uct_hxb_ep.c) */
    int                    have_bounce_mp;
} uct_hxb_iface_t;

typedef struct uct_hxb_ep {
    uct_base_ep_t     super;
    hxb_peer_t       *peer;
    ucs_queue_head_t  pending;
    ucs_list_link_t   list;
    int               fence;
    uint32_t          epoch;    /* the peer's run it was created for */
    int               reset;    /* that run is gone (reported)       */
    uint16_t          node;     /* the peer's node and process (net  */
    uint16_t          proc;     /* order), as its address gave them  */
    uint32_t          addr_epoch;
} uct_hxb_ep_t;

extern uct_component_t uct_hxb_component;

static UCS_F_ALWAYS_INLINE void uct_hxb_enter(uct_hxb_iface_t *iface)
{
    ucs_recursive_spin_lock(&iface->lock);
    iface->entries++;
}

static UCS_F_ALWAYS_INLINE void uct_hxb_leave(uct_hxb_iface_t *iface)
{
    ucs_recursive_spin_unlock(&iface->lock);
}

/* the idle tick (uct_hxb_tick.c) */
ucs_status_t uct_hxb_tick_start(uct_hxb_iface_t *iface);
void uct_hxb_tick_stop(uct_hxb_iface_t *iface);
/* rewrite hxb-stat's file (iface->statfile set; under the iface lock) */
void uct_hxb_iface_stat_update(uct_hxb_iface_t *iface, double now);

/* md */
int  uct_hxb_md_check(uct_hxb_md_t *md, uint64_t addr, uint64_t rkey, size_t len);

/* ep */
UCS_CLASS_DECLARE_NEW_FUNC(uct_hxb_ep_t, uct_ep_t, const uct_ep_params_t *);
UCS_CLASS_DECLARE_DELETE_FUNC(uct_hxb_ep_t, uct_ep_t);
ucs_status_t uct_hxb_ep_am_short(uct_ep_h tl_ep, uint8_t id, uint64_t header,
                                 const void *payload, unsigned length);
ucs_status_t uct_hxb_ep_am_short_iov(uct_ep_h tl_ep, uint8_t id,
                                     const uct_iov_t *iov, size_t iovcnt);
ssize_t uct_hxb_ep_am_bcopy(uct_ep_h tl_ep, uint8_t id, uct_pack_callback_t pack_cb,
                            void *arg, unsigned flags);
ucs_status_t uct_hxb_ep_am_zcopy(uct_ep_h tl_ep, uint8_t id, const void *header,
                                 unsigned header_length, const uct_iov_t *iov,
                                 size_t iovcnt, unsigned flags,
                                 uct_completion_t *comp);
ucs_status_t uct_hxb_ep_put_zcopy(uct_ep_h tl_ep, const uct_iov_t *iov,
                                  size_t iovcnt, uint64_t remote_addr,
                                  uct_rkey_t rkey, uct_completion_t *comp);
ucs_status_t uct_hxb_ep_get_zcopy(uct_ep_h tl_ep, const uct_iov_t *iov,
                                  size_t iovcnt, uint64_t remote_addr,
                                  uct_rkey_t rkey, uct_completion_t *comp);
ucs_status_t uct_hxb_ep_put_short(uct_ep_h tl_ep, const void *buffer, unsigned length,
                                  uint64_t remote_addr, uct_rkey_t rkey);
ssize_t uct_hxb_ep_put_bcopy(uct_ep_h tl_ep, uct_pack_callback_t pack_cb, void *arg,
                             uint64_t remote_addr, uct_rkey_t rkey);
ucs_status_t uct_hxb_ep_get_bcopy(uct_ep_h tl_ep, uct_unpack_callback_t unpack_cb,
                                  void *arg, size_t length, uint64_t remote_addr,
                                  uct_rkey_t rkey, uct_completion_t *comp);
ucs_status_t uct_hxb_ep_atomic32_post(uct_ep_h tl_ep, unsigned opcode, uint32_t value,
                                      uint64_t remote_addr, uct_rkey_t rkey);
ucs_status_t uct_hxb_ep_atomic64_post(uct_ep_h tl_ep, unsigned opcode, uint64_t value,
                                      uint64_t remote_addr, uct_rkey_t rkey);
ucs_status_t uct_hxb_ep_atomic32_fetch(uct_ep_h tl_ep, unsigned opcode, uint32_t value,
                                       uint32_t *result, uint64_t remote_addr,
                                       uct_rkey_t rkey, uct_completion_t *comp);
ucs_status_t uct_hxb_ep_atomic64_fetch(uct_ep_h tl_ep, unsigned opcode, uint64_t value,
                                       uint64_t *result, uint64_t remote_addr,
                                       uct_rkey_t rkey, uct_completion_t *comp);
ucs_status_t uct_hxb_ep_atomic_cswap32(uct_ep_h tl_ep, uint32_t compare, uint32_t swap,
                                       uint64_t remote_addr, uct_rkey_t rkey,
                                       uint32_t *result, uct_completion_t *comp);
ucs_status_t uct_hxb_ep_atomic_cswap64(uct_ep_h tl_ep, uint64_t compare, uint64_t swap,
                                       uint64_t remote_addr, uct_rkey_t rkey,
                                       uint64_t *result, uct_completion_t *comp);
/* get_bcopy's bounce buffers: one frame's payload each */
ucs_status_t uct_hxb_bounce_init(uct_hxb_iface_t *iface, size_t size);
ucs_status_t uct_hxb_ep_flush(uct_ep_h tl_ep, unsigned flags, uct_completion_t *comp);
ucs_status_t uct_hxb_ep_fence(uct_ep_h tl_ep, unsigned flags);
ucs_status_t uct_hxb_ep_check(uct_ep_h tl_ep, unsigned flags, uct_completion_t *comp);
ucs_status_t uct_hxb_ep_pending_add(uct_ep_h tl_ep, uct_pending_req_t *req,
                                    unsigned flags);
void uct_hxb_ep_pending_purge(uct_ep_h tl_ep, uct_pending_purge_callback_t cb,
                              void *arg);
void uct_hxb_ep_dispatch_pending(uct_hxb_ep_t *ep);
#ifdef HXB_UCT_IFACE_REACHABLE_V2
int uct_hxb_ep_is_connected(uct_ep_h tl_ep, const uct_ep_is_connected_params_t *params);
#endif
/* Which local rails reach the peer at these addresses, and its address on
 * each (hxb_route_peer_rails); peers reached through relays only while
 * relaying works here (UCX_HXB_RELAY) */
uint32_t uct_hxb_ep_peer_rails(uct_hxb_iface_t *iface,
                               const uct_hxb_device_addr_t *dev,
                               const uct_hxb_iface_addr_t *ifa,
                               hxb_raddr_t *addrs);
void uct_hxb_ep_peer_failed(uct_hxb_iface_t *iface, hxb_peer_t *peer);
void uct_hxb_ep_peer_reset(uct_hxb_iface_t *iface, hxb_peer_t *peer);

#endif
