/* Modex: every process publishes its hxb device and iface addresses;
 * a peer creates a CONNECT_TO_IFACE ep from them, no handshake needed.
 * Layout: u8 device address length, u8 iface address length, then both,
 * then the data bytes of its put frames (u32, little-endian), by which the
 * two ends of a pair agree on ob1's puts (btl_hxb_module.c). */
#include "btl_hxb.h"

#ifdef HAVE_OPAL_MCA_PMIX_PMIX_INTERNAL_H
#include "opal/mca/pmix/pmix-internal.h" /* Open MPI 5: PMIx itself */
#define HXB_MODEX_GLOBAL PMIX_GLOBAL
#else
#include "opal/mca/pmix/pmix.h"
#define HXB_MODEX_GLOBAL OPAL_PMIX_GLOBAL
#endif
#include "opal/util/proc.h"

#include <stdlib.h>
#include <string.h>

int mca_btl_hxb_modex_send(mca_btl_hxb_module_t *module)
{
    size_t dev_len   = module->iface_attr.device_addr_len;
    size_t iface_len = module->iface_attr.iface_addr_len;
    size_t size      = 2 + dev_len + iface_len + 4;
    uint32_t frame   = (uint32_t)module->iface_attr.cap.put.align_mtu;
    ucs_status_t status;
    uint8_t *buf;
    int rc;

    if ((dev_len > UINT8_MAX) || (iface_len > UINT8_MAX)) {
        return OPAL_ERR_BAD_PARAM;
    }
    buf = calloc(1, size);
    if (NULL == buf) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    buf[0] = (uint8_t)dev_len;
    buf[1] = (uint8_t)iface_len;
    status = uct_iface_get_device_address(module->iface, (uct_device_addr_t *)(buf + 2));
    if (UCS_OK == status) {
        status = uct_iface_get_address(module->iface,
                                       (uct_iface_addr_t *)(buf + 2 + dev_len));
    }
    if (UCS_OK != status) {
        free(buf);
        return mca_btl_hxb_status_to_opal(status);
    }
    for (int i = 0; i < 4; i++) {
        buf[size - 4 + i] = (uint8_t)(frame >> (8 * i));
    }
    OPAL_MODEX_SEND(rc, HXB_MODEX_GLOBAL, &mca_btl_hxb_component.super.btl_version,
                    buf, size);
    free(buf);
    return rc;
}

int mca_btl_hxb_modex_recv(mca_btl_hxb_module_t *module, struct opal_proc_t *proc,
                           mca_btl_base_endpoint_t *endpoint)
{
    uint8_t *buf = NULL;
    size_t size  = 0;
    int rc;

    OPAL_MODEX_RECV(rc, &mca_btl_hxb_component.super.btl_version, &proc->proc_name,
                    (void **)&buf, &size);
    if (OPAL_SUCCESS != rc) {
        return rc;   /* the peer has no hxb */
    }
    /* the peer's data is checked, never trusted for lengths */
    if ((size < 2) || (size != 2u + buf[0] + buf[1] + 4) ||
        (buf[0] != module->iface_attr.device_addr_len) ||
        (buf[1] != module->iface_attr.iface_addr_len)) {
        free(buf);
        return OPAL_ERR_BAD_PARAM;
    }
    endpoint->dev_addr_len   = buf[0];
    endpoint->iface_addr_len = buf[1];
    endpoint->frame          = 0;
    for (int i = 0; i < 4; i++) {
        endpoint->frame |= (uint32_t)buf[size - 4 + i] << (8 * i);
    }
    endpoint->addr           = malloc(size - 6);
    if (NULL == endpoint->addr) {
        free(buf);
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    memcpy(endpoint->addr, buf + 2, size - 6);
    free(buf);
    return OPAL_SUCCESS;
}
