/* Endpoints: one per remote process on another node. The UCT ep is made
 * on first use from the peer's modex addresses (CONNECT_TO_IFACE); a peer
 * failure reported by hxb goes to the error callback ob1 registered. */
#include "btl_hxb.h"
#include "btl_hxb_frag.h"

#include "opal/class/opal_bitmap.h"
#include "opal/mca/hwloc/hwloc-internal.h"
#include "opal/util/proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void mca_btl_hxb_endpoint_construct(mca_btl_base_endpoint_t *ep)
{
    ep->proc   = NULL;
    ep->uct_ep = NULL;
    ep->failed = 0;
    ep->addr   = NULL;
}

static void mca_btl_hxb_endpoint_destruct(mca_btl_base_endpoint_t *ep)
{
    free(ep->addr);
}

OBJ_CLASS_INSTANCE(mca_btl_base_endpoint_t, opal_list_item_t,
                   mca_btl_hxb_endpoint_construct, mca_btl_hxb_endpoint_destruct);

/* caller holds the module lock */
int mca_btl_hxb_endpoint_connect(mca_btl_hxb_module_t *module,
                                 mca_btl_base_endpoint_t *endpoint)
{
    uct_ep_params_t params;
    ucs_status_t status;

    if (OPAL_LIKELY(NULL != endpoint->uct_ep)) {
        return OPAL_SUCCESS;
    }
    if (endpoint->failed) {
        return OPAL_ERR_UNREACH;
    }
    memset(&params, 0, sizeof(params));
    params.field_mask = UCT_EP_PARAM_FIELD_IFACE | UCT_EP_PARAM_FIELD_DEV_ADDR |
                        UCT_EP_PARAM_FIELD_IFACE_ADDR;
    params.iface      = module->iface;
    params.dev_addr   = (const uct_device_addr_t *)endpoint->addr;
    params.iface_addr = (const uct_iface_addr_t *)(endpoint->addr +
                                                   endpoint->dev_addr_len);
    status = uct_ep_create(&params, &endpoint->uct_ep);
    if (UCS_OK != status) {
        char info[256];
        snprintf(info, sizeof(info), "btl:hxb: cannot reach %s: %s",
                 OPAL_NAME_PRINT(endpoint->proc->proc_name), ucs_status_string(status));
        opal_output(0, "%s", info);
        endpoint->uct_ep = NULL;
        endpoint->failed = 1;
        /* ob1 takes a failed send for a busy BTL and retries it for ever:
         * a peer we cannot reach is an error the PML must hear of */
        if (NULL != module->error_cb) {
            module->error_cb(&module->super, MCA_BTL_ERROR_FLAGS_FATAL, endpoint->proc, info);
        }
        return OPAL_ERR_UNREACH;
    }
    return OPAL_SUCCESS;
}

/* destroy the UCT ep; queued work fails. Caller holds the module lock. */
static void mca_btl_hxb_endpoint_disconnect(mca_btl_base_endpoint_t *endpoint)
{
    if (NULL != endpoint->uct_ep) {
        uct_ep_pending_purge(endpoint->uct_ep, mca_btl_hxb_pending_purge, NULL);
        uct_ep_destroy(endpoint->uct_ep);
        endpoint->uct_ep = NULL;
    }
}

void mca_btl_hxb_endpoint_release(mca_btl_base_endpoint_t *endpoint)
{
    mca_btl_hxb_endpoint_disconnect(endpoint);
    OBJ_RELEASE(endpoint);
}

int mca_btl_hxb_add_procs(mca_btl_base_module_t *btl, size_t nprocs,
                          struct opal_proc_t **procs,
                          mca_btl_base_endpoint_t **endpoints,
                          struct opal_bitmap_t *reachable)
{
    mca_btl_hxb_module_t *module = (mca_btl_hxb_module_t *)btl;
    opal_proc_t *me              = opal_proc_local_get();
    mca_btl_base_endpoint_t *ep;
    size_t i, frame = module->iface_attr.cap.put.align_mtu;
    int rc, added = 0;

    for (i = 0; i < nprocs; i++) {
        /* same-node peers belong to vader/sm (and raw frames do not loop
         * back); ourselves to self */
        if ((procs[i] == me) || OPAL_PROC_ON_LOCAL_NODE(procs[i]->proc_flags) ||
            (NULL != endpoints[i])) {
            continue;
        }
        ep = OBJ_NEW(mca_btl_base_endpoint_t);
        if (NULL == ep) {
            return OPAL_ERR_OUT_OF_RESOURCE;
        }
        ep->proc = procs[i];
        rc = mca_btl_hxb_modex_recv(module, procs[i], ep);
        if ((OPAL_SUCCESS != rc) ||
            !uct_iface_is_reachable(module->iface, (const uct_device_addr_t *)ep->addr,
                                    (const uct_iface_addr_t *)(ep->addr +
                                                               ep->dev_addr_len))) {
            MCA_BTL_HXB_VERBOSE(10, "%s is not reachable over hxb",
                                OPAL_NAME_PRINT(procs[i]->proc_name));
            OBJ_RELEASE(ep);
            continue;
        }
        MCA_BTL_HXB_LOCK(module);
        opal_list_append(&module->endpoints, &ep->super);
        MCA_BTL_HXB_UNLOCK(module);
        endpoints[i] = ep;
        added++;
        if (ep->frame < frame) {
            frame = ep->frame;
        }
        if (NULL != reachable) {
            rc = opal_bitmap_set_bit(reachable, (int)i);
            if (OPAL_SUCCESS != rc) {
                return rc;
            }
        }
    }
    mca_btl_hxb_frames_choose(module, frame, added);
    return OPAL_SUCCESS;
}

int mca_btl_hxb_del_procs(mca_btl_base_module_t *btl, size_t nprocs,
                          struct opal_proc_t **procs,
                          mca_btl_base_endpoint_t **endpoints)
{
    mca_btl_hxb_module_t *module = (mca_btl_hxb_module_t *)btl;
    size_t i;

    MCA_BTL_HXB_LOCK(module);
    for (i = 0; i < nprocs; i++) {
        if (NULL != endpoints[i]) {
            opal_list_remove_item(&module->endpoints, &endpoints[i]->super);
            mca_btl_hxb_endpoint_release(endpoints[i]);
            endpoints[i] = NULL;
        }
    }
    MCA_BTL_HXB_UNLOCK(module);
    return OPAL_SUCCESS;
}

/* hxb declared a peer failed (no acks within UCX_HXB_PEER_TIMEOUT): tell
 * the PML, which aborts the job rather than hang. Runs inside progress. */
ucs_status_t mca_btl_hxb_iface_error(void *arg, uct_ep_h uct_ep, ucs_status_t status)
{
    mca_btl_hxb_module_t *module = arg;
    mca_btl_base_endpoint_t *ep;
    char info[256];

    OPAL_LIST_FOREACH(ep, &module->endpoints, mca_btl_base_endpoint_t) {
        if (ep->uct_ep != uct_ep) {
            continue;
        }
        if (ep->failed) {
            return UCS_OK;   /* reported already */
        }
        ep->failed = 1;
        snprintf(info, sizeof(info), "btl:hxb: peer %s failed: %s",
                 OPAL_NAME_PRINT(ep->proc->proc_name), ucs_status_string(status));
        opal_output(0, "%s", info);
        /* the UCT ep is unusable after an error; queued work fails */
        uct_ep_pending_purge(ep->uct_ep, mca_btl_hxb_pending_purge, NULL);
        if (NULL != module->error_cb) {
            module->error_cb(&module->super, MCA_BTL_ERROR_FLAGS_FATAL, ep->proc, info);
        }
        return UCS_OK;
    }
    return status;
}
