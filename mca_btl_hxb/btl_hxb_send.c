/* The eager path: descriptors, send, immediate send and AM receive. Every
 * message is one UCT AM (id MCA_BTL_HXB_AM_ID) whose 8-byte header holds
 * the BTL tag; hxb delivers AMs in order per peer. Payloads are copied
 * (am_short or am_bcopy), so a send completes as soon as UCT accepts it. */
#include "btl_hxb.h"
#include "btl_hxb_frag.h"

#include "opal/datatype/opal_convertor.h"

#include <string.h>

static void mca_btl_hxb_frag_construct(mca_btl_hxb_frag_t *frag)
{
    frag->base.des_segments      = frag->segments;
    frag->base.des_segment_count = 1;
    frag->segments[0].seg_addr.pval = frag->base.super.ptr;
}

OBJ_CLASS_INSTANCE(mca_btl_hxb_frag_t, mca_btl_base_descriptor_t,
                   mca_btl_hxb_frag_construct, NULL);

mca_btl_base_descriptor_t *mca_btl_hxb_alloc(mca_btl_base_module_t *btl,
                                             mca_btl_base_endpoint_t *endpoint,
                                             uint8_t order, size_t size,
                                             uint32_t flags)
{
    mca_btl_hxb_module_t *module = (mca_btl_hxb_module_t *)btl;
    opal_free_list_t *list;
    mca_btl_hxb_frag_t *frag;

    if (size <= btl->btl_eager_limit) {
        list = &module->eager_frags;
    } else if (size <= btl->btl_max_send_size) {
        list = &module->max_frags;
    } else {
        return NULL;
    }
    frag = (mca_btl_hxb_frag_t *)opal_free_list_get(list);
    if (OPAL_UNLIKELY(NULL == frag)) {
        return NULL;
    }
    frag->module                 = module;
    frag->endpoint               = endpoint;
    frag->list                   = list;
    frag->status                 = OPAL_SUCCESS;
    frag->segments[0].seg_addr.pval = frag->base.super.ptr;
    frag->segments[0].seg_len    = size;
    frag->base.des_segment_count = 1;
    frag->base.des_flags         = flags;
    frag->base.order             = order;
    return &frag->base;
}

int mca_btl_hxb_free(mca_btl_base_module_t *btl, mca_btl_base_descriptor_t *des)
{
    mca_btl_hxb_frag_t *frag = (mca_btl_hxb_frag_t *)des;

    opal_free_list_return(frag->list, &des->super);
    return OPAL_SUCCESS;
}

/* pack "size" bytes of the convertor at dst; the convertor may be shorter */
static size_t mca_btl_hxb_pack(opal_convertor_t *convertor, void *dst, size_t size)
{
    struct iovec iov = {.iov_base = dst, .iov_len = size};
    uint32_t iov_count = 1;
    size_t length      = size;

    (void)opal_convertor_pack(convertor, &iov, &iov_count, &length);
    return length;
}

/* Contiguous data larger than an am_short stays where it is (segment 1):
 * am_bcopy copies it straight into hxb's frame slots, one copy instead of
 * two. ob1 keeps the buffer until the descriptor completes, which is when
 * that copy is done (at once or from the pending queue). Anything else is
 * packed into the descriptor after the caller's reserve. */
mca_btl_base_descriptor_t *mca_btl_hxb_prepare_src(mca_btl_base_module_t *btl,
                                                   mca_btl_base_endpoint_t *endpoint,
                                                   struct opal_convertor_t *convertor,
                                                   uint8_t order, size_t reserve,
                                                   size_t *size, uint32_t flags)
{
    mca_btl_hxb_module_t *module = (mca_btl_hxb_module_t *)btl;
    mca_btl_base_descriptor_t *des;
    size_t max = btl->btl_max_send_size - reserve;
    struct iovec iov;
    uint32_t iov_count = 1;

    if (*size > max) {
        *size = max;
    }
    if (!opal_convertor_need_buffers(convertor) &&
        (reserve + *size + MCA_BTL_HXB_HDR_SIZE > module->iface_attr.cap.am.max_short)) {
        des = mca_btl_hxb_alloc(btl, endpoint, order, reserve, flags);
        if (OPAL_UNLIKELY(NULL == des)) {
            return NULL;
        }
        iov.iov_base = NULL;   /* contiguous: the convertor points into the user's buffer */
        iov.iov_len  = *size;
        (void)opal_convertor_pack(convertor, &iov, &iov_count, size);
        des->des_segments[1].seg_addr.pval = iov.iov_base;
        des->des_segments[1].seg_len       = *size;
        des->des_segment_count             = 2;
        return des;
    }
    des = mca_btl_hxb_alloc(btl, endpoint, order, reserve + *size, flags);
    if (OPAL_UNLIKELY(NULL == des)) {
        return NULL;
    }
    *size = mca_btl_hxb_pack(convertor,
                             (char *)des->des_segments[0].seg_addr.pval + reserve,
                             *size);
    des->des_segments[0].seg_len = reserve + *size;
    return des;
}

static size_t mca_btl_hxb_frag_pack_cb(void *dest, void *arg)
{
    mca_btl_hxb_frag_t *frag = arg;
    char *p = dest;
    uint32_t i;

    memcpy(p, &frag->am_hdr, MCA_BTL_HXB_HDR_SIZE);
    p += MCA_BTL_HXB_HDR_SIZE;
    for (i = 0; i < frag->base.des_segment_count; i++) {
        memcpy(p, frag->segments[i].seg_addr.pval, frag->segments[i].seg_len);
        p += frag->segments[i].seg_len;
    }
    return (size_t)(p - (char *)dest);
}

/* hand the fragment to UCT: UCS_OK (sent), NO_RESOURCE or an error */
static ucs_status_t mca_btl_hxb_frag_post(mca_btl_hxb_frag_t *frag)
{
    mca_btl_hxb_module_t *module = frag->module;
    size_t len = frag->segments[0].seg_len;
    ssize_t ret;

    if ((1 == frag->base.des_segment_count) &&
        (len + MCA_BTL_HXB_HDR_SIZE <= module->iface_attr.cap.am.max_short)) {
        return uct_ep_am_short(frag->endpoint->uct_ep, MCA_BTL_HXB_AM_ID,
                               frag->am_hdr, frag->segments[0].seg_addr.pval,
                               (unsigned)len);
    }
    ret = uct_ep_am_bcopy(frag->endpoint->uct_ep, MCA_BTL_HXB_AM_ID,
                          mca_btl_hxb_frag_pack_cb, frag, 0);
    return (ret < 0) ? (ucs_status_t)ret : UCS_OK;
}

/* called by the UCT ep's pending queue, inside progress (lock held) */
static ucs_status_t mca_btl_hxb_frag_pending_cb(uct_pending_req_t *req)
{
    mca_btl_hxb_frag_t *frag = ucs_container_of(req, mca_btl_hxb_frag_t, pending);
    ucs_status_t status      = mca_btl_hxb_frag_post(frag);

    if (UCS_ERR_NO_RESOURCE == status) {
        return status;
    }
    frag->status = mca_btl_hxb_status_to_opal(status);
    opal_list_append(&frag->module->done_frags, &frag->base.super.super);
    return UCS_OK;
}

/* pending work dropped (endpoint destroyed or failed): fail it */
void mca_btl_hxb_pending_purge(uct_pending_req_t *req, void *arg)
{
    if (req->func == mca_btl_hxb_frag_pending_cb) {
        mca_btl_hxb_frag_t *frag = ucs_container_of(req, mca_btl_hxb_frag_t, pending);
        frag->status = OPAL_ERR_UNREACH;
        opal_list_append(&frag->module->done_frags, &frag->base.super.super);
    } else {
        mca_btl_hxb_rdma_op_t *op = ucs_container_of(req, mca_btl_hxb_rdma_op_t, pending);
        op->status = OPAL_ERR_UNREACH;
        opal_list_append(&op->module->done_rdma, &op->super.super);
    }
}

int mca_btl_hxb_send(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *endpoint,
                     mca_btl_base_descriptor_t *des, mca_btl_base_tag_t tag)
{
    mca_btl_hxb_module_t *module = (mca_btl_hxb_module_t *)btl;
    mca_btl_hxb_frag_t *frag     = (mca_btl_hxb_frag_t *)des;
    ucs_status_t status;
    int rc;

    frag->am_hdr   = tag;
    frag->endpoint = endpoint;
    MCA_BTL_HXB_LOCK(module);
    rc = mca_btl_hxb_endpoint_connect(module, endpoint);
    if (OPAL_UNLIKELY(OPAL_SUCCESS != rc)) {
        MCA_BTL_HXB_UNLOCK(module);
        return rc;
    }
    status = mca_btl_hxb_frag_post(frag);
    if (UCS_ERR_NO_RESOURCE == status) {
        /* queued behind earlier work: hxb keeps the order */
        frag->base.des_flags |= MCA_BTL_DES_SEND_ALWAYS_CALLBACK;
        frag->pending.func = mca_btl_hxb_frag_pending_cb;
        status = uct_ep_pending_add(endpoint->uct_ep, &frag->pending, 0);
        MCA_BTL_HXB_UNLOCK(module);
        return (UCS_OK == status) ? OPAL_SUCCESS : mca_btl_hxb_status_to_opal(status);
    }
    MCA_BTL_HXB_UNLOCK(module);
    if (OPAL_UNLIKELY(UCS_OK != status)) {
        return mca_btl_hxb_status_to_opal(status);
    }
    mca_btl_hxb_frag_complete(frag, OPAL_SUCCESS);
    return 1;   /* completed inline */
}

typedef struct mca_btl_hxb_sendi_args {
    uint64_t          am_hdr;
    void             *header;
    size_t            header_size;
    opal_convertor_t *convertor;
    size_t            payload_size;
} mca_btl_hxb_sendi_args_t;

static size_t mca_btl_hxb_sendi_pack_cb(void *dest, void *arg)
{
    mca_btl_hxb_sendi_args_t *a = arg;
    char *p = dest;

    memcpy(p, &a->am_hdr, MCA_BTL_HXB_HDR_SIZE);
    p += MCA_BTL_HXB_HDR_SIZE;
    if (a->header_size) {
        memcpy(p, a->header, a->header_size);
        p += a->header_size;
    }
    if (a->payload_size) {
        p += mca_btl_hxb_pack(a->convertor, p, a->payload_size);
    }
    return (size_t)(p - (char *)dest);
}

int mca_btl_hxb_sendi(mca_btl_base_module_t *btl, mca_btl_base_endpoint_t *endpoint,
                      struct opal_convertor_t *convertor, void *header,
                      size_t header_size, size_t payload_size, uint8_t order,
                      uint32_t flags, mca_btl_base_tag_t tag,
                      mca_btl_base_descriptor_t **descriptor)
{
    mca_btl_hxb_module_t *module = (mca_btl_hxb_module_t *)btl;
    mca_btl_hxb_sendi_args_t args = {
        .am_hdr = tag, .header = header, .header_size = header_size,
        .convertor = convertor, .payload_size = payload_size,
    };
    const size_t total = header_size + payload_size;
    ucs_status_t status = UCS_ERR_NO_RESOURCE;
    ssize_t ret;

    MCA_BTL_HXB_LOCK(module);
    if (OPAL_SUCCESS != mca_btl_hxb_endpoint_connect(module, endpoint)) {
        MCA_BTL_HXB_UNLOCK(module);
        return OPAL_ERR_UNREACH;
    }
    if (total + MCA_BTL_HXB_HDR_SIZE <= module->iface_attr.cap.am.max_bcopy) {
        if ((0 == payload_size) &&
            (header_size + MCA_BTL_HXB_HDR_SIZE <= module->iface_attr.cap.am.max_short)) {
            status = uct_ep_am_short(endpoint->uct_ep, MCA_BTL_HXB_AM_ID, args.am_hdr,
                                     header, (unsigned)header_size);
        } else {
            ret = uct_ep_am_bcopy(endpoint->uct_ep, MCA_BTL_HXB_AM_ID,
                                  mca_btl_hxb_sendi_pack_cb, &args, 0);
            status = (ret < 0) ? (ucs_status_t)ret : UCS_OK;
        }
    }
    MCA_BTL_HXB_UNLOCK(module);

    if (OPAL_LIKELY(UCS_OK == status)) {
        return OPAL_SUCCESS;
    }
    if (UCS_ERR_NO_RESOURCE != status) {
        return mca_btl_hxb_status_to_opal(status);
    }
    /* busy or too large: the caller sends this descriptor instead */
    if (NULL != descriptor) {
        *descriptor = mca_btl_hxb_alloc(btl, endpoint, order, total, flags);
    }
    return OPAL_ERR_OUT_OF_RESOURCE;
}

/* One AM from the peer: hand its payload to the callback of its tag. The
 * data lives only during this call (ob1 copies or consumes it). */
ucs_status_t mca_btl_hxb_am_recv(void *arg, void *data, size_t length,
                                 unsigned flags)
{
    mca_btl_hxb_module_t *module = arg;
    const mca_btl_active_message_callback_t *reg;
    mca_btl_base_segment_t seg;
#ifdef HAVE_MCA_BTL_BASE_RECEIVE_DESCRIPTOR_T
    mca_btl_base_receive_descriptor_t des;
#else
    mca_btl_base_descriptor_t des;
#endif
    uint64_t hdr;
    mca_btl_base_tag_t tag;

    if (OPAL_UNLIKELY(length < MCA_BTL_HXB_HDR_SIZE)) {
        return UCS_OK;   /* not ours: hxb checked lengths, so never expected */
    }
    memcpy(&hdr, data, sizeof(hdr));
    tag = (mca_btl_base_tag_t)hdr;
    reg = mca_btl_base_active_message_trigger + tag;
    if (OPAL_UNLIKELY(NULL == reg->cbfunc)) {
        MCA_BTL_HXB_VERBOSE(1, "message with unregistered tag %u dropped", tag);
        return UCS_OK;
    }
    memset(&des, 0, sizeof(des));
    seg.seg_addr.pval     = (char *)data + MCA_BTL_HXB_HDR_SIZE;
    seg.seg_len           = length - MCA_BTL_HXB_HDR_SIZE;
    des.des_segments      = &seg;
    des.des_segment_count = 1;
#ifdef HAVE_MCA_BTL_BASE_RECEIVE_DESCRIPTOR_T
    /* Open MPI 5: the sender's endpoint is optional (UCT does not say) */
    des.endpoint = NULL;
    des.tag      = tag;
    des.cbdata   = reg->cbdata;
    reg->cbfunc(&module->super, &des);
#else
    reg->cbfunc(&module->super, tag, &des, reg->cbdata);
#endif
    return UCS_OK;
}
