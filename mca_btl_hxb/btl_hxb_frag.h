/* Send fragments and RDMA operations. Both can wait on the UCT ep's pending
 * queue; both finish through the module's done lists, drained by progress
 * so that no Open MPI callback runs inside the transport. */
#ifndef MCA_BTL_HXB_FRAG_H
#define MCA_BTL_HXB_FRAG_H

#include "btl_hxb.h"

typedef struct mca_btl_hxb_frag {
    mca_btl_base_descriptor_t base;
    mca_btl_base_segment_t    segments[2];  /* [1]: data in place (prepare_src) */
    mca_btl_hxb_module_t     *module;
    mca_btl_base_endpoint_t  *endpoint;
    opal_free_list_t         *list;
    uct_pending_req_t         pending;
    uint64_t                  am_hdr;       /* the BTL tag */
    int                       status;
} mca_btl_hxb_frag_t;
OBJ_CLASS_DECLARATION(mca_btl_hxb_frag_t);

typedef struct mca_btl_hxb_rdma_op {
    opal_free_list_item_t     super;
    uct_completion_t          comp;
    uct_pending_req_t         pending;
    mca_btl_hxb_module_t     *module;
    mca_btl_base_endpoint_t  *endpoint;
    int                       is_get;
    void                     *local_address;
    size_t                    size;
    uint64_t                  remote_address;
    uct_rkey_bundle_t         rkey;
    struct mca_btl_base_registration_handle_t *local_handle;
    mca_btl_base_rdma_completion_fn_t cbfunc;
    void                     *cbcontext, *cbdata;
    int                       status;
} mca_btl_hxb_rdma_op_t;
OBJ_CLASS_DECLARATION(mca_btl_hxb_rdma_op_t);

/* after local completion: the owner's callback, then back to the list */
static inline void mca_btl_hxb_frag_complete(mca_btl_hxb_frag_t *frag, int rc)
{
    if (frag->base.des_flags & MCA_BTL_DES_SEND_ALWAYS_CALLBACK) {
        frag->base.des_cbfunc(&frag->module->super, frag->endpoint, &frag->base, rc);
    }
    if (frag->base.des_flags & MCA_BTL_DES_FLAGS_BTL_OWNERSHIP) {
        opal_free_list_return(frag->list, &frag->base.super);
    }
}

void mca_btl_hxb_rdma_op_complete(mca_btl_hxb_rdma_op_t *op);
void mca_btl_hxb_pending_purge(uct_pending_req_t *req, void *arg);

#endif
