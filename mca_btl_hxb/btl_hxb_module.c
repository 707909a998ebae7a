/* The module: opens the UCT component "hxb" directly (md, worker, iface),
 * applies the btl_hxb_* settings to the iface config, and drives progress.
 * One module for all rails: hxb stripes beneath one UCT device. */
#include "btl_hxb.h"
#include "btl_hxb_frag.h"

#include "opal/runtime/opal_progress.h"
#include "opal/util/error.h"

#include <stdlib.h>
#include <string.h>

int mca_btl_hxb_status_to_opal(ucs_status_t status)
{
    switch (status) {
    case UCS_OK:
    case UCS_INPROGRESS:
        return OPAL_SUCCESS;
    case UCS_ERR_NO_RESOURCE:
        return OPAL_ERR_OUT_OF_RESOURCE;
    case UCS_ERR_NO_MEMORY:
        return OPAL_ERR_OUT_OF_RESOURCE;
    case UCS_ERR_UNREACHABLE:
    case UCS_ERR_ENDPOINT_TIMEOUT:
    case UCS_ERR_CONNECTION_RESET:
        return OPAL_ERR_UNREACH;
    case UCS_ERR_INVALID_PARAM:
    case UCS_ERR_INVALID_ADDR:
        return OPAL_ERR_BAD_PARAM;
    default:
        return OPAL_ERROR;
    }
}

static int mca_btl_hxb_register_cb(mca_btl_base_module_t *btl, mca_btl_base_tag_t tag,
                                   mca_btl_base_module_recv_cb_fn_t cbfunc, void *cbdata)
{
    mca_btl_base_active_message_trigger[tag].cbfunc = cbfunc;
    mca_btl_base_active_message_trigger[tag].cbdata = cbdata;
    return OPAL_SUCCESS;
}

static int mca_btl_hxb_register_error(mca_btl_base_module_t *btl,
                                      mca_btl_base_module_error_cb_fn_t cbfunc)
{
    ((mca_btl_hxb_module_t *)btl)->error_cb = cbfunc;
    return OPAL_SUCCESS;
}

static int mca_btl_hxb_finalize(mca_btl_base_module_t *btl)
{
    mca_btl_hxb_module_t *module = (mca_btl_hxb_module_t *)btl;
    mca_btl_base_endpoint_t *ep, *next;

    OPAL_LIST_FOREACH_SAFE(ep, next, &module->endpoints, mca_btl_base_endpoint_t) {
        opal_list_remove_item(&module->endpoints, &ep->super);
        mca_btl_hxb_endpoint_release(ep);
    }
    /* callbacks of work failed by the purge above are not run any more */
    OBJ_DESTRUCT(&module->done_frags);
    OBJ_DESTRUCT(&module->done_rdma);
    OBJ_DESTRUCT(&module->endpoints);
    OBJ_DESTRUCT(&module->eager_frags);
    OBJ_DESTRUCT(&module->max_frags);
    OBJ_DESTRUCT(&module->rdma_ops);
    if (module->iface) {
        uct_iface_close(module->iface);
    }
    if (module->worker) {
        uct_worker_destroy(module->worker);
    }
    if (module->async) {
        ucs_async_context_destroy(module->async);
    }
    if (module->md) {
        uct_md_close(module->md);
    }
    OBJ_DESTRUCT(&module->lock);
    mca_btl_hxb_component.module = NULL;
    free(module);
    return OPAL_SUCCESS;
}

mca_btl_base_module_t mca_btl_hxb_module_template = {
    .btl_component      = &mca_btl_hxb_component.super,
    .btl_add_procs      = mca_btl_hxb_add_procs,
    .btl_del_procs      = mca_btl_hxb_del_procs,
    .btl_register       = mca_btl_hxb_register_cb,
    .btl_finalize       = mca_btl_hxb_finalize,
    .btl_alloc          = mca_btl_hxb_alloc,
    .btl_free           = mca_btl_hxb_free,
    .btl_prepare_src    = mca_btl_hxb_prepare_src,
    .btl_send           = mca_btl_hxb_send,
    .btl_sendi          = mca_btl_hxb_sendi,
    .btl_put            = mca_btl_hxb_put,
    .btl_get            = mca_btl_hxb_get,
    .btl_register_mem   = mca_btl_hxb_register_mem,
    .btl_deregister_mem = mca_btl_hxb_deregister_mem,
    .btl_register_error = mca_btl_hxb_register_error,
    .btl_flush          = mca_btl_hxb_flush,
};

/* the UCT component "hxb" and its (single) memory domain */
static int mca_btl_hxb_open_md(mca_btl_hxb_module_t *module)
{
    uct_component_h *components;
    uct_component_attr_t attr;
    uct_md_resource_desc_t *mds;
    uct_md_config_t *md_config;
    unsigned count, i;
    ucs_status_t status;

    status = uct_query_components(&components, &count);
    if (UCS_OK != status) {
        return mca_btl_hxb_status_to_opal(status);
    }
    for (i = 0; i < count; i++) {
        attr.field_mask = UCT_COMPONENT_ATTR_FIELD_NAME |
                          UCT_COMPONENT_ATTR_FIELD_MD_RESOURCE_COUNT;
        if ((UCS_OK == uct_component_query(components[i], &attr)) &&
            !strcmp(attr.name, "hxb") && (attr.md_resource_count > 0)) {
            module->uct_component = components[i];
            break;
        }
    }
    uct_release_component_list(components);
    if (NULL == module->uct_component) {
        MCA_BTL_HXB_VERBOSE(1, "UCT component hxb not registered (libuct_hxb.so not loaded)");
        return OPAL_ERR_NOT_AVAILABLE;
    }

    mds = calloc(attr.md_resource_count, sizeof(*mds));
    if (NULL == mds) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    attr.field_mask   = UCT_COMPONENT_ATTR_FIELD_MD_RESOURCES;
    attr.md_resources = mds;
    status = uct_component_query(module->uct_component, &attr);
    if (UCS_OK == status) {
        status = uct_md_config_read(module->uct_component, NULL, NULL, &md_config);
    }
    if (UCS_OK == status) {
        status = uct_md_open(module->uct_component, mds[0].md_name, md_config,
                             &module->md);
        uct_config_release(md_config);
    }
    free(mds);
    if (UCS_OK == status) {
        status = uct_md_query(module->md, &module->md_attr);
    }
    return mca_btl_hxb_status_to_opal(status);
}

/* the iface config: UCX_HXB_* from the environment, then our MCA params */
static int mca_btl_hxb_iface_config(mca_btl_hxb_module_t *module,
                                    uct_iface_config_t **config_p)
{
    mca_btl_hxb_uct_param_t *p;
    ucs_status_t status;

    status = uct_md_iface_config_read(module->md, "hxb", NULL, NULL, config_p);
    if (UCS_OK != status) {
        return mca_btl_hxb_status_to_opal(status);
    }
    for (p = mca_btl_hxb_component.uct_params; NULL != p->mca_name; p++) {
        if ((NULL == p->value) || ('\0' == p->value[0])) {
            continue;
        }
        status = uct_config_modify(*config_p, p->uct_name, p->value);
        if (UCS_ERR_NO_ELEM == status) {
            /* UCX >= 1.16 matches the name with the table's prefix
             * (HXB_TOPO), 1.13 without it (TOPO) */
            char full[64];

            snprintf(full, sizeof(full), "HXB_%s", p->uct_name);
            status = uct_config_modify(*config_p, full, p->value);
        }
        if (UCS_OK != status) {
            opal_output(0, "btl:hxb: btl_hxb_%s=%s rejected by the transport: %s",
                        p->mca_name, p->value, ucs_status_string(status));
            uct_config_release(*config_p);
            return OPAL_ERR_BAD_PARAM;
        }
    }
    return OPAL_SUCCESS;
}

static int mca_btl_hxb_open_iface(mca_btl_hxb_module_t *module)
{
    uct_iface_params_t params;
    uct_iface_config_t *config;
    ucs_status_t status;
    int rc;

    status = ucs_async_context_create(UCS_ASYNC_MODE_POLL, &module->async);
    if (UCS_OK == status) {
        status = uct_worker_create(module->async, UCS_THREAD_MODE_SINGLE,
                                   &module->worker);
    }
    if (UCS_OK != status) {
        return mca_btl_hxb_status_to_opal(status);
    }
    rc = mca_btl_hxb_iface_config(module, &config);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    memset(&params, 0, sizeof(params));
    params.field_mask = UCT_IFACE_PARAM_FIELD_OPEN_MODE |
                        UCT_IFACE_PARAM_FIELD_DEVICE |
                        UCT_IFACE_PARAM_FIELD_RX_HEADROOM |
                        UCT_IFACE_PARAM_FIELD_ERR_HANDLER |
                        UCT_IFACE_PARAM_FIELD_ERR_HANDLER_ARG |
                        UCT_IFACE_PARAM_FIELD_ERR_HANDLER_FLAGS;
    params.open_mode            = UCT_IFACE_OPEN_MODE_DEVICE;
    params.mode.device.tl_name  = "hxb";
    params.mode.device.dev_name = "hxb0";
    params.rx_headroom          = 0;
    params.err_handler          = mca_btl_hxb_iface_error;
    params.err_handler_arg      = module;
    params.err_handler_flags    = 0;   /* synchronous: inside progress */
    status = uct_iface_open(module->md, module->worker, &params, config, &module->iface);
    uct_config_release(config);
    if (UCS_OK != status) {
        /* the transport printed why (no rails, no CAP_NET_RAW, bad topology) */
        MCA_BTL_HXB_VERBOSE(1, "cannot open the hxb interface: %s",
                            ucs_status_string(status));
        module->iface = NULL;
        return mca_btl_hxb_status_to_opal(status);
    }
    status = uct_iface_query(module->iface, &module->iface_attr);
    if (UCS_OK != status) {
        return mca_btl_hxb_status_to_opal(status);
    }
    if (!(module->iface_attr.cap.flags & UCT_IFACE_FLAG_AM_BCOPY) ||
        !(module->iface_attr.cap.flags & UCT_IFACE_FLAG_AM_SHORT) ||
        !(module->iface_attr.cap.flags & UCT_IFACE_FLAG_CONNECT_TO_IFACE) ||
        (module->iface_attr.cap.am.max_bcopy <= MCA_BTL_HXB_HDR_SIZE) ||
        (module->md_attr.rkey_packed_size > sizeof(((mca_btl_hxb_reg_t *)0)->handle.rkey))) {
        opal_output(0, "btl:hxb: the hxb transport lacks what the BTL needs");
        return OPAL_ERR_NOT_SUPPORTED;
    }
    status = uct_iface_set_am_handler(module->iface, MCA_BTL_HXB_AM_ID,
                                      mca_btl_hxb_am_recv, module, 0);
    if (UCS_OK != status) {
        return mca_btl_hxb_status_to_opal(status);
    }
    uct_iface_progress_enable(module->iface, UCT_PROGRESS_SEND | UCT_PROGRESS_RECV);
    return OPAL_SUCCESS;
}

/* ob1 moves a large contiguous message by RDMA puts when the BTL has them,
 * else by its send pipeline (AMs of btl_max_send_size). Every put frame
 * carries its target address and rkey, 16 bytes more header than an AM's
 * later frame (doc/PROTOCOL.md 3.1): with jumbo frames 0.2 % of the rail,
 * level in measurement; with 1500-byte frames 1.1 %, and ob1 one way went
 * 94.8 -> 95.8 % of a rail by sends, where btl tcp makes 95.4 %
 * (contrib/bench/hxb-bench-mpi --mtu 1500). But the send pipeline's
 * receiver copies each byte more often (out of a held early fragment, out
 * of the reassembly, then ob1's unpack), where a put is placed once: when
 * the CPU and not the wire is the limit, puts win (NAS IS class A on 8
 * ranks sharing 2 cores at MTU 1500: 0.30-0.33 s against 0.33-0.38 by
 * sends, FT, CG and MG 2-6 % faster; doc/RESULTS.md, "MTU 1500: sends or
 * puts"). The job says so by setting mpi_yield_when_idle (its ranks
 * share cores). So below jumbo frames ob1 sends, unless btl_hxb_flags was
 * set or the job set mpi_yield_when_idle. The two ends of a pair must
 * choose alike (mca_btl_hxb_frames_choose). */
#define MCA_BTL_HXB_PUT_MIN_FRAME 4096

/* an MCA variable's value (an int, or a bool read as one), 0 if it is not
 * registered; *set: whether it comes from other than its default */
static int mca_btl_hxb_var(const char *project, const char *framework,
                           const char *component, const char *name, int *set)
{
    mca_base_var_source_t source = MCA_BASE_VAR_SOURCE_DEFAULT;
    int idx = mca_base_var_find(project, framework, component, name);
    const mca_base_var_t *var;
    const void *value = NULL;

    *set = 0;
    if ((idx < 0) || (mca_base_var_get(idx, &var) != OPAL_SUCCESS) ||
        (mca_base_var_get_value(idx, &value, &source, NULL) != OPAL_SUCCESS) || !value) {
        return 0;
    }
    *set = (source != MCA_BASE_VAR_SOURCE_DEFAULT);
    if (var->mbv_type == MCA_BASE_VAR_TYPE_BOOL) {
        return *(const bool *)value;
    }
    return (var->mbv_type == MCA_BASE_VAR_TYPE_INT) ? *(const int *)value : 0;
}

/* Whether the frames decide (above): not where the job set btl_hxb_flags
 * or mpi_yield_when_idle. Only the job's own setting of the latter counts
 * (mpirun's --mca or the environment): Open MPI also turns it on by itself
 * where a node is oversubscribed, which can differ between nodes. */
static int mca_btl_hxb_frames_decide(void)
{
    int set;

    (void)mca_btl_hxb_var("opal", "btl", "hxb", "flags", &set);
    if (set) {
        return 0;
    }
    return !(mca_btl_hxb_var("ompi", "mpi", NULL, "yield_when_idle", &set) && set);
}

/* The frames decide per pair: ranks whose BTLs disagree on puts crash ob1
 * (a receiver with puts asks a sender without them for a put,
 * mca_pml_ob1_send_request_put_frag), and nodes may differ in frames (an
 * extra rail at MTU 1500, UCX_HXB_FRAME_MAX). The BML reads btl_flags for
 * the endpoints of each add_procs call as it returns, so each call sets it
 * from the smallest frames among its peers and ours: per peer where Open
 * MPI adds peers one at a time as they are first used (its default,
 * mpi_add_procs_cutoff 0, so both ends of a pair see the same two
 * frames), else the whole job's at once. */
void mca_btl_hxb_frames_choose(mca_btl_hxb_module_t *module, size_t frame, int npeers)
{
    mca_btl_base_module_t *btl = &module->super;
    int puts = frame >= MCA_BTL_HXB_PUT_MIN_FRAME;

    if (!module->puts_by_frames || (npeers == 0) ||
        (puts == !!(btl->btl_flags & MCA_BTL_FLAGS_PUT))) {
        return;
    }
    btl->btl_flags = puts ? (btl->btl_flags | MCA_BTL_FLAGS_PUT)
                          : (btl->btl_flags & ~MCA_BTL_FLAGS_PUT);
    MCA_BTL_HXB_VERBOSE(5, "add_procs: %d peers, frames of %zu bytes at the least: large "
                        "messages to them by %s", npeers, frame, puts ? "puts" : "sends");
}

/* Puts below jumbo frames (ranks that yield): from btl tcp's sizes on, not
 * after a first MiB sent (the defaults, for jumbo frames), unless set */
static void mca_btl_hxb_small_frame_puts(mca_btl_base_module_t *btl)
{
    int set;

    (void)mca_btl_hxb_var("opal", "btl", "hxb", "rdma_pipeline_send_length", &set);
    if (!set) {
        btl->btl_rdma_pipeline_send_length = 128 * 1024;
    }
    (void)mca_btl_hxb_var("opal", "btl", "hxb", "min_rdma_pipeline_size", &set);
    if (!set) {
        btl->btl_min_rdma_pipeline_size = 192 * 1024;
    }
}

/* fit the registered limits to what the transport can do */
static void mca_btl_hxb_fit_limits(mca_btl_hxb_module_t *module)
{
    mca_btl_base_module_t *btl = &module->super;
    const uct_iface_attr_t *a  = &module->iface_attr;
    size_t max_send            = a->cap.am.max_bcopy - MCA_BTL_HXB_HDR_SIZE;
    int small                  = a->cap.put.align_mtu < MCA_BTL_HXB_PUT_MIN_FRAME;

    if ((0 == btl->btl_max_send_size) || (btl->btl_max_send_size > max_send)) {
        btl->btl_max_send_size = max_send;
    }
    if (btl->btl_eager_limit > btl->btl_max_send_size) {
        btl->btl_eager_limit = btl->btl_max_send_size;
    }
    if (btl->btl_rndv_eager_limit > btl->btl_eager_limit) {
        btl->btl_rndv_eager_limit = btl->btl_eager_limit;
    }
    if (!(a->cap.flags & UCT_IFACE_FLAG_PUT_ZCOPY)) {
        btl->btl_flags &= ~MCA_BTL_FLAGS_PUT;
    } else if (mca_btl_hxb_frames_decide()) {
        module->puts_by_frames = 1;
        if (small) {
            btl->btl_flags &= ~MCA_BTL_FLAGS_PUT;
        }
    } else if (small) {
        mca_btl_hxb_small_frame_puts(btl);
    }
    if (!(a->cap.flags & UCT_IFACE_FLAG_GET_ZCOPY)) {
        btl->btl_flags &= ~MCA_BTL_FLAGS_GET;
    }
    btl->btl_put_limit = a->cap.put.max_zcopy;
    btl->btl_get_limit = a->cap.get.max_zcopy;
    if (btl->btl_rdma_pipeline_frag_size > a->cap.put.max_zcopy) {
        btl->btl_rdma_pipeline_frag_size = a->cap.put.max_zcopy;
    }
    if (0 == btl->btl_bandwidth) {
        /* UCT reports bytes/s; the BML wants Mbit/s for its weights */
        btl->btl_bandwidth = (uint32_t)(a->bandwidth.dedicated * 8 / 1e6);
    }
    btl->btl_registration_handle_size = module->md_attr.rkey_packed_size;
}

int mca_btl_hxb_module_open(mca_btl_hxb_module_t **module_p)
{
    mca_btl_hxb_module_t *module;
    int rc;

    module = calloc(1, sizeof(*module));
    if (NULL == module) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    module->super = mca_btl_hxb_module_template;
    OBJ_CONSTRUCT(&module->lock, opal_recursive_mutex_t);
    OBJ_CONSTRUCT(&module->eager_frags, opal_free_list_t);
    OBJ_CONSTRUCT(&module->max_frags, opal_free_list_t);
    OBJ_CONSTRUCT(&module->rdma_ops, opal_free_list_t);
    OBJ_CONSTRUCT(&module->done_frags, opal_list_t);
    OBJ_CONSTRUCT(&module->done_rdma, opal_list_t);
    OBJ_CONSTRUCT(&module->endpoints, opal_list_t);
    mca_btl_hxb_component.module = module;

    rc = mca_btl_hxb_open_md(module);
    if (OPAL_SUCCESS == rc) {
        rc = mca_btl_hxb_open_iface(module);
    }
    if (OPAL_SUCCESS != rc) {
        goto err;
    }
    mca_btl_hxb_fit_limits(module);

    rc = opal_free_list_init(&module->eager_frags, sizeof(mca_btl_hxb_frag_t),
                             opal_cache_line_size, OBJ_CLASS(mca_btl_hxb_frag_t),
                             module->super.btl_eager_limit, opal_cache_line_size,
                             16, mca_btl_hxb_component.free_list_max, 64,
                             NULL, 0, NULL, NULL, NULL);
    if (OPAL_SUCCESS == rc) {
        rc = opal_free_list_init(&module->max_frags, sizeof(mca_btl_hxb_frag_t),
                                 opal_cache_line_size, OBJ_CLASS(mca_btl_hxb_frag_t),
                                 module->super.btl_max_send_size, opal_cache_line_size,
                                 8, mca_btl_hxb_component.free_list_max, 16,
                                 NULL, 0, NULL, NULL, NULL);
    }
    if (OPAL_SUCCESS == rc) {
        rc = opal_free_list_init(&module->rdma_ops, sizeof(mca_btl_hxb_rdma_op_t),
                                 opal_cache_line_size, OBJ_CLASS(mca_btl_hxb_rdma_op_t),
                                 0, 0, 16, mca_btl_hxb_component.free_list_max, 64,
                                 NULL, 0, NULL, NULL, NULL);
    }
    if (OPAL_SUCCESS == rc) {
        rc = mca_btl_hxb_modex_send(module);
    }
    if (OPAL_SUCCESS != rc) {
        goto err;
    }
    MCA_BTL_HXB_VERBOSE(5, "open: eager %zu, max send %zu, bandwidth %u Mbit/s, "
                        "large messages by %s (frames of %zu bytes)",
                        module->super.btl_eager_limit, module->super.btl_max_send_size,
                        module->super.btl_bandwidth,
                        (module->super.btl_flags & MCA_BTL_FLAGS_PUT) ? "puts" : "sends",
                        module->iface_attr.cap.put.align_mtu);
    *module_p = module;
    return OPAL_SUCCESS;

err:
    mca_btl_hxb_finalize(&module->super);
    return rc;
}

/* Poll the transport, then run the callbacks of what completed, outside
 * the transport and outside the lock. */
int mca_btl_hxb_progress(void)
{
    mca_btl_hxb_module_t *module = mca_btl_hxb_component.module;
    opal_list_t frags, ops;
    opal_list_item_t *item;
    int count = 0;

    if (NULL == module) {
        return 0;
    }
    MCA_BTL_HXB_LOCK(module);
    if (module->in_progress) {
        /* called from a callback we are running: no recursion into UCT */
        MCA_BTL_HXB_UNLOCK(module);
        return 0;
    }
    module->in_progress = 1;
    count = (int)uct_worker_progress(module->worker);
    module->in_progress = 0;
    OBJ_CONSTRUCT(&frags, opal_list_t);
    OBJ_CONSTRUCT(&ops, opal_list_t);
    opal_list_join(&frags, opal_list_get_end(&frags), &module->done_frags);
    opal_list_join(&ops, opal_list_get_end(&ops), &module->done_rdma);
    MCA_BTL_HXB_UNLOCK(module);

    while (NULL != (item = opal_list_remove_first(&frags))) {
        mca_btl_hxb_frag_t *frag = (mca_btl_hxb_frag_t *)item;
        mca_btl_hxb_frag_complete(frag, frag->status);
        count++;
    }
    while (NULL != (item = opal_list_remove_first(&ops))) {
        mca_btl_hxb_rdma_op_complete((mca_btl_hxb_rdma_op_t *)item);
        count++;
    }
    OBJ_DESTRUCT(&frags);
    OBJ_DESTRUCT(&ops);
    return count;
}
