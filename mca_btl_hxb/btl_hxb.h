/* mca_btl_hxb: an Open MPI 4.1 and 5.0 BTL, thin over the hxb UCT transport.
 * Striping, reliability and ordering all live in uct_hxb; this layer maps
 * BTL calls onto one UCT iface and defers every completion to progress. */
#ifndef MCA_BTL_HXB_H
#define MCA_BTL_HXB_H

#include "hxb_config.h"
#include "opal_config.h"
#include "opal/class/opal_free_list.h"
#include "opal/class/opal_list.h"
#ifdef HAVE_OPAL_MCA_THREADS_MUTEX_H
#include "opal/mca/threads/mutex.h"      /* Open MPI 5 */
#else
#include "opal/threads/mutex.h"
#endif
#include "opal/mca/btl/btl.h"
#include "opal/mca/btl/base/base.h"
#include "opal/util/output.h"

#include <uct/api/uct.h>

#ifndef OPAL_MODULE_DECLSPEC    /* Open MPI 5 has OPAL_DECLSPEC only */
#define OPAL_MODULE_DECLSPEC OPAL_DECLSPEC
#endif

BEGIN_C_DECLS

#define MCA_BTL_HXB_AM_ID    7     /* the one UCT AM id the BTL uses */
#define MCA_BTL_HXB_HDR_SIZE 8     /* UCT AM header: the BTL tag */

/* settings handed to the transport (uct_config_modify on the iface
 * config); "" leaves UCX_HXB_* from the environment or the default */
typedef struct mca_btl_hxb_uct_param {
    const char *mca_name;   /* btl_hxb_<mca_name> */
    const char *uct_name;   /* UCX_HXB_<uct_name> */
    const char *help;
    char       *value;
} mca_btl_hxb_uct_param_t;

typedef struct mca_btl_hxb_component {
    mca_btl_base_component_3_0_0_t super;
    char                          *uct_module;   /* libuct_hxb.so to dlopen */
    int                            verbose;
    int                            output;       /* opal_output stream */
    int                            free_list_max;
    mca_btl_hxb_uct_param_t       *uct_params;
    struct mca_btl_hxb_module     *module;
} mca_btl_hxb_component_t;

OPAL_MODULE_DECLSPEC extern mca_btl_hxb_component_t mca_btl_hxb_component;

typedef struct mca_btl_hxb_module {
    mca_btl_base_module_t super;

    uct_component_h      uct_component;
    uct_md_h             md;
    uct_md_attr_t        md_attr;
    ucs_async_context_t *async;
    uct_worker_h         worker;
    uct_iface_h          iface;
    uct_iface_attr_t     iface_attr;

    /* UCT is opened UCS_THREAD_MODE_SINGLE: every call into it holds this.
     * Recursive, because AM callbacks run inside progress and ob1 sends
     * from them. */
    opal_recursive_mutex_t lock;
    int                  in_progress;

    opal_free_list_t     eager_frags;   /* buffers of btl_eager_limit   */
    opal_free_list_t     max_frags;     /* buffers of btl_max_send_size */
    opal_free_list_t     rdma_ops;
    volatile int32_t     rdma_outstanding;  /* put/get issued, callback not yet run */
    opal_list_t          done_frags;    /* sends completed late: callbacks due */
    opal_list_t          done_rdma;     /* put/get completed: callbacks due */
    opal_list_t          endpoints;
    /* PUT for the peers of each add_procs call by both ends' frames: only
     * where neither btl_hxb_flags nor mpi_yield_when_idle was set */
    int                  puts_by_frames;

    mca_btl_base_module_error_cb_fn_t error_cb;
} mca_btl_hxb_module_t;

/* the peer as Open MPI sees it; the UCT ep is created on first use */
struct mca_btl_base_endpoint_t {
    opal_list_item_t     super;
    struct opal_proc_t  *proc;
    uct_ep_h             uct_ep;
    int                  failed;
    size_t               dev_addr_len, iface_addr_len;
    uint8_t             *addr;          /* device address, then iface address */
    uint32_t             frame;         /* the peer's put frame, bytes of data */
};
typedef struct mca_btl_base_endpoint_t mca_btl_base_endpoint_t;
OBJ_CLASS_DECLARATION(mca_btl_base_endpoint_t);

/* registration handle as the peer sees it: the packed UCT rkey */
struct mca_btl_base_registration_handle_t {
    uint8_t rkey[8];
};

typedef struct mca_btl_hxb_reg {
    uct_mem_h                                 memh;
    struct mca_btl_base_registration_handle_t handle;
} mca_btl_hxb_reg_t;

#define MCA_BTL_HXB_LOCK(_m)   OPAL_THREAD_LOCK(&(_m)->lock)
#define MCA_BTL_HXB_UNLOCK(_m) OPAL_THREAD_UNLOCK(&(_m)->lock)

#define MCA_BTL_HXB_VERBOSE(_lvl, ...) \
    opal_output_verbose(_lvl, mca_btl_hxb_component.output, "btl:hxb: " __VA_ARGS__)

/* module (btl_hxb_module.c) */
int  mca_btl_hxb_module_open(mca_btl_hxb_module_t **module_p);
int  mca_btl_hxb_progress(void);
int  mca_btl_hxb_status_to_opal(ucs_status_t status);
extern mca_btl_base_module_t mca_btl_hxb_module_template;

/* ob1's puts for the peers of one add_procs call (btl_hxb_module.c) */
void mca_btl_hxb_frames_choose(mca_btl_hxb_module_t *module, size_t frame, int npeers);

/* modex (btl_hxb_modex.c) */
int  mca_btl_hxb_modex_send(mca_btl_hxb_module_t *module);
int  mca_btl_hxb_modex_recv(mca_btl_hxb_module_t *module, struct opal_proc_t *proc,
                            mca_btl_base_endpoint_t *endpoint);

/* endpoints (btl_hxb_endpoint.c) */
int  mca_btl_hxb_add_procs(mca_btl_base_module_t *btl, size_t nprocs,
                           struct opal_proc_t **procs,
                           mca_btl_base_endpoint_t **endpoints,
                           struct opal_bitmap_t *reachable);
int  mca_btl_hxb_del_procs(mca_btl_base_module_t *btl, size_t nprocs,
                           struct opal_proc_t **procs,
                           mca_btl_base_endpoint_t **endpoints);
int  mca_btl_hxb_endpoint_connect(mca_btl_hxb_module_t *module,
                                  mca_btl_base_endpoint_t *endpoint);
void mca_btl_hxb_endpoint_release(mca_btl_base_endpoint_t *endpoint);
ucs_status_t mca_btl_hxb_iface_error(void *arg, uct_ep_h ep, ucs_status_t status);

/* eager path (btl_hxb_send.c) */
mca_btl_base_descriptor_t *mca_btl_hxb_alloc(mca_btl_base_module_t *btl,
                                             mca_btl_base_endpoint_t *endpoint,
                                             uint8_t order, size_t size,
                                             uint32_t flags);
int  mca_btl_hxb_free(mca_btl_base_module_t *btl, mca_btl_base_descriptor_t *des);
mca_btl_base_descriptor_t *mca_btl_hxb_prepare_src(mca_btl_base_module_t *btl,
                                                   mca_btl_base_endpoint_t *endpoint,
                                                   struct opal_convertor_t *convertor,
                                                   uint8_t order, size_t reserve,
                                                   size_t *size, uint32_t flags);
int  mca_btl_hxb_send(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *endpoint,
                      mca_btl_base_descriptor_t *des, mca_btl_base_tag_t tag);
int  mca_btl_hxb_sendi(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *endpoint,
                       struct opal_convertor_t *convertor, void *header,
                       size_t header_size, size_t payload_size, uint8_t order,
                       uint32_t flags, mca_btl_base_tag_t tag,
                       mca_btl_base_descriptor_t **descriptor);
ucs_status_t mca_btl_hxb_am_recv(void *arg, void *data, size_t length,
                                 unsigned flags);

/* registration, put and get (btl_hxb_rdma.c) */
struct mca_btl_base_registration_handle_t *
mca_btl_hxb_register_mem(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *endpoint,
                         void *base, size_t size, uint32_t flags);
int  mca_btl_hxb_deregister_mem(mca_btl_base_module_t *btl,
                                struct mca_btl_base_registration_handle_t *handle);
int  mca_btl_hxb_put(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *endpoint,
                     void *local_address, uint64_t remote_address,
                     struct mca_btl_base_registration_handle_t *local_handle,
                     struct mca_btl_base_registration_handle_t *remote_handle,
                     size_t size, int flags, int order,
                     mca_btl_base_rdma_completion_fn_t cbfunc, void *cbcontext,
                     void *cbdata);
int  mca_btl_hxb_get(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *endpoint,
                     void *local_address, uint64_t remote_address,
                     struct mca_btl_base_registration_handle_t *local_handle,
                     struct mca_btl_base_registration_handle_t *remote_handle,
                     size_t size, int flags, int order,
                     mca_btl_base_rdma_completion_fn_t cbfunc, void *cbcontext,
                     void *cbdata);
int  mca_btl_hxb_flush(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *endpoint);

END_C_DECLS

#endif
