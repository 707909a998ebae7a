/* Registration, put and get for ob1's RDMA paths (RGET, RDMA pipeline).
 * A registration is an hxb md region; the handle the peer receives is the
 * packed rkey, which hxb checks (region and bounds) on every PUT and GET. */
#include "btl_hxb.h"
#include "btl_hxb_frag.h"

#include "opal/util/proc.h"

#include <inttypes.h>
#include <string.h>

OBJ_CLASS_INSTANCE(mca_btl_hxb_rdma_op_t, opal_free_list_item_t, NULL, NULL);

struct mca_btl_base_registration_handle_t *
mca_btl_hxb_register_mem(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *endpoint,
                         void *base, size_t size, uint32_t flags)
{
    mca_btl_hxb_module_t *module = (mca_btl_hxb_module_t *)btl;
    mca_btl_hxb_reg_t *reg;
    ucs_status_t status;

    reg = calloc(1, sizeof(*reg));
    if (NULL == reg) {
        return NULL;
    }
    MCA_BTL_HXB_LOCK(module);
    status = uct_md_mem_reg(module->md, base, size, UCT_MD_MEM_ACCESS_ALL, &reg->memh);
    if (UCS_OK == status) {
        status = uct_md_mkey_pack(module->md, reg->memh, reg->handle.rkey);
        if (UCS_OK != status) {
            uct_md_mem_dereg(module->md, reg->memh);
        }
    }
    MCA_BTL_HXB_UNLOCK(module);
    if (UCS_OK != status) {
        MCA_BTL_HXB_VERBOSE(1, "registering %zu bytes at %p failed: %s", size, base,
                            ucs_status_string(status));
        free(reg);
        return NULL;
    }
    return &reg->handle;
}

int mca_btl_hxb_deregister_mem(mca_btl_base_module_t *btl,
                               struct mca_btl_base_registration_handle_t *handle)
{
    mca_btl_hxb_module_t *module = (mca_btl_hxb_module_t *)btl;
    mca_btl_hxb_reg_t *reg       = ucs_container_of(handle, mca_btl_hxb_reg_t, handle);
    ucs_status_t status;

    MCA_BTL_HXB_LOCK(module);
    status = uct_md_mem_dereg(module->md, reg->memh);
    MCA_BTL_HXB_UNLOCK(module);
    free(reg);
    return mca_btl_hxb_status_to_opal(status);
}

/* UCT completion: runs inside progress; the callback waits for the drain */
static void mca_btl_hxb_rdma_comp_cb(uct_completion_t *comp)
{
    mca_btl_hxb_rdma_op_t *op = ucs_container_of(comp, mca_btl_hxb_rdma_op_t, comp);

    op->status = mca_btl_hxb_status_to_opal(comp->status);
    opal_list_append(&op->module->done_rdma, &op->super.super);
}

static ucs_status_t mca_btl_hxb_rdma_post(mca_btl_hxb_rdma_op_t *op)
{
    uct_iov_t iov = {
        .buffer = op->local_address,
        .length = op->size,
        .memh   = op->local_handle ?
                  ucs_container_of(op->local_handle, mca_btl_hxb_reg_t, handle)->memh :
                  UCT_MEM_HANDLE_NULL,
        .stride = 0,
        .count  = 1,
    };
    ucs_status_t status;

    op->comp.count  = 1;
    op->comp.status = UCS_OK;
    if (op->is_get) {
        status = uct_ep_get_zcopy(op->endpoint->uct_ep, &iov, 1, op->remote_address,
                                  op->rkey.rkey, &op->comp);
    } else {
        status = uct_ep_put_zcopy(op->endpoint->uct_ep, &iov, 1, op->remote_address,
                                  op->rkey.rkey, &op->comp);
    }
    if (UCS_OK == status) {
        /* done at once: no UCT callback will come */
        op->status = OPAL_SUCCESS;
        opal_list_append(&op->module->done_rdma, &op->super.super);
    }
    return status;
}

static ucs_status_t mca_btl_hxb_rdma_pending_cb(uct_pending_req_t *req)
{
    mca_btl_hxb_rdma_op_t *op = ucs_container_of(req, mca_btl_hxb_rdma_op_t, pending);
    ucs_status_t status       = mca_btl_hxb_rdma_post(op);

    if (UCS_ERR_NO_RESOURCE == status) {
        return status;
    }
    if ((UCS_OK != status) && (UCS_INPROGRESS != status)) {
        op->status = mca_btl_hxb_status_to_opal(status);
        opal_list_append(&op->module->done_rdma, &op->super.super);
    }
    return UCS_OK;
}

void mca_btl_hxb_rdma_op_complete(mca_btl_hxb_rdma_op_t *op)
{
    mca_btl_hxb_module_t *module = op->module;

    uct_rkey_release(module->uct_component, &op->rkey);
    if (NULL != op->cbfunc) {
        op->cbfunc(&module->super, op->endpoint, op->local_address, op->local_handle,
                   op->cbcontext, op->cbdata, op->status);
    }
    OPAL_THREAD_ADD_FETCH32(&module->rdma_outstanding, -1);
    opal_free_list_return(&module->rdma_ops, &op->super);
}

static int mca_btl_hxb_rdma(mca_btl_hxb_module_t *module, int is_get,
                            mca_btl_base_endpoint_t *endpoint, void *local_address,
                            uint64_t remote_address,
                            struct mca_btl_base_registration_handle_t *local_handle,
                            struct mca_btl_base_registration_handle_t *remote_handle,
                            size_t size, mca_btl_base_rdma_completion_fn_t cbfunc,
                            void *cbcontext, void *cbdata)
{
    mca_btl_hxb_rdma_op_t *op;
    ucs_status_t status;
    int rc;

    MCA_BTL_HXB_VERBOSE(20, "%s %zu bytes at 0x%" PRIx64 " of %s", is_get ? "get" : "put",
                        size, remote_address, OPAL_NAME_PRINT(endpoint->proc->proc_name));
    op = (mca_btl_hxb_rdma_op_t *)opal_free_list_get(&module->rdma_ops);
    if (OPAL_UNLIKELY(NULL == op)) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    op->module         = module;
    op->endpoint       = endpoint;
    op->is_get         = is_get;
    op->local_address  = local_address;
    op->size           = size;
    op->remote_address = remote_address;
    op->local_handle   = local_handle;
    op->cbfunc         = cbfunc;
    op->cbcontext      = cbcontext;
    op->cbdata         = cbdata;
    op->comp.func      = mca_btl_hxb_rdma_comp_cb;

    MCA_BTL_HXB_LOCK(module);
    rc = mca_btl_hxb_endpoint_connect(module, endpoint);
    if (OPAL_SUCCESS != rc) {
        goto err;
    }
    status = uct_rkey_unpack(module->uct_component, remote_handle->rkey, &op->rkey);
    if (UCS_OK != status) {
        rc = mca_btl_hxb_status_to_opal(status);
        goto err;
    }
    status = mca_btl_hxb_rdma_post(op);
    if (UCS_ERR_NO_RESOURCE == status) {
        /* hxb's op queue is full: wait on the ep, retried by progress */
        op->pending.func = mca_btl_hxb_rdma_pending_cb;
        status = uct_ep_pending_add(endpoint->uct_ep, &op->pending, 0);
    }
    if ((UCS_OK != status) && (UCS_INPROGRESS != status)) {
        uct_rkey_release(module->uct_component, &op->rkey);
        rc = mca_btl_hxb_status_to_opal(status);
        goto err;
    }
    OPAL_THREAD_ADD_FETCH32(&module->rdma_outstanding, 1);
    MCA_BTL_HXB_UNLOCK(module);
    return OPAL_SUCCESS;

err:
    MCA_BTL_HXB_UNLOCK(module);
    opal_free_list_return(&module->rdma_ops, &op->super);
    return rc;
}

int mca_btl_hxb_put(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *endpoint,
                    void *local_address, uint64_t remote_address,
                    struct mca_btl_base_registration_handle_t *local_handle,
                    struct mca_btl_base_registration_handle_t *remote_handle,
                    size_t size, int flags, int order,
                    mca_btl_base_rdma_completion_fn_t cbfunc, void *cbcontext,
                    void *cbdata)
{
    return mca_btl_hxb_rdma((mca_btl_hxb_module_t *)btl, 0, endpoint, local_address,
                            remote_address, local_handle, remote_handle, size,
                            cbfunc, cbcontext, cbdata);
}

int mca_btl_hxb_get(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *endpoint,
                    void *local_address, uint64_t remote_address,
                    struct mca_btl_base_registration_handle_t *local_handle,
                    struct mca_btl_base_registration_handle_t *remote_handle,
                    size_t size, int flags, int order,
                    mca_btl_base_rdma_completion_fn_t cbfunc, void *cbcontext,
                    void *cbdata)
{
    return mca_btl_hxb_rdma((mca_btl_hxb_module_t *)btl, 1, endpoint, local_address,
                            remote_address, local_handle, remote_handle, size,
                            cbfunc, cbcontext, cbdata);
}

/* Wait until everything issued to the endpoint (or to all) is acked. hxb's
 * flush does not cover GET data still arriving, so drain our ops too. */
int mca_btl_hxb_flush(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *endpoint)
{
    mca_btl_hxb_module_t *module = (mca_btl_hxb_module_t *)btl;
    ucs_status_t status;

    for (;;) {
        MCA_BTL_HXB_LOCK(module);
        if ((NULL != endpoint) && (NULL != endpoint->uct_ep)) {
            status = uct_ep_flush(endpoint->uct_ep, 0, NULL);
        } else {
            status = uct_iface_flush(module->iface, 0, NULL);
        }
        MCA_BTL_HXB_UNLOCK(module);
        if ((UCS_OK == status) && (0 == module->rdma_outstanding)) {
            return OPAL_SUCCESS;
        }
        if ((UCS_OK != status) && (UCS_INPROGRESS != status) &&
            (UCS_ERR_NO_RESOURCE != status)) {
            return mca_btl_hxb_status_to_opal(status);
        }
        mca_btl_hxb_progress();
    }
}
