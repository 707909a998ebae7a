/* Memory domain: registration hands out a random 64-bit rkey per region;
 * every PUT/GET a peer sends is checked against the region of its rkey and
 * its bounds (UCX's tcp writes wherever a peer says; hxb does not). */
#ifdef HAVE_CONFIG_H
#include "hxb_config.h"
#endif
#include "uct_hxb.h"

#include <sys/random.h>
#include <ucs/sys/sys.h>

static ucs_config_field_t uct_hxb_md_config_table[] = {
    {"", "", NULL, ucs_offsetof(uct_hxb_md_config_t, super),
     UCS_CONFIG_TYPE_TABLE(uct_md_config_table)},
    {NULL}
};

#ifdef HXB_UCT_MD_QUERY_V2
/* UCX >= 1.15: the attributes are flat (uct_md_attr_v2_t) */
#define UCT_HXB_MD_ATTR_T  uct_md_attr_v2_t
#define UCT_HXB_MD_CAP(_a) (*(_a))
#else
#define UCT_HXB_MD_ATTR_T  uct_md_attr_t
#define UCT_HXB_MD_CAP(_a) ((_a)->cap)
#endif

static ucs_status_t uct_hxb_md_query(uct_md_h md, UCT_HXB_MD_ATTR_T *attr)
{
    /* INVALIDATE: with peer error handling UCP 1.13 uses GET/PUT
     * rendezvous only over mds that can revoke a peer's access (else it
     * moves the data as AMs, 20-30 % slower here) */
    UCT_HXB_MD_CAP(attr).flags            = UCT_MD_FLAG_REG | UCT_MD_FLAG_NEED_RKEY |
                                            UCT_MD_FLAG_INVALIDATE;
    UCT_HXB_MD_CAP(attr).reg_mem_types    = UCS_BIT(UCS_MEMORY_TYPE_HOST);
    UCT_HXB_MD_CAP(attr).alloc_mem_types  = 0;
    UCT_HXB_MD_CAP(attr).detect_mem_types = 0;
    UCT_HXB_MD_CAP(attr).access_mem_types = UCS_BIT(UCS_MEMORY_TYPE_HOST);
    UCT_HXB_MD_CAP(attr).max_alloc        = 0;
    UCT_HXB_MD_CAP(attr).max_reg          = ULONG_MAX;
    attr->rkey_packed_size     = sizeof(uint64_t);
    attr->reg_cost             = ucs_linear_func_make(50e-9, 0); /* hash insert */
    memset(&attr->local_cpus, 0xff, sizeof(attr->local_cpus));
#ifdef HXB_UCT_MD_QUERY_V2
    /* UCX zeroed the rest; it copies the fields its caller asked for */
    attr->reg_alignment        = 1;
    /* UCP >= 1.16's protocols register user buffers of zero-copy sends and
     * rendezvous only through mds in its registration cache (an assertion
     * in ucp datatype_iter.inl), as tcp, self and the shared memory mds */
    attr->cache_mem_types      = UCS_BIT(UCS_MEMORY_TYPE_HOST);
    /* and UCP >= 1.16 asks for these (INVALIDATE alone is the v1 name of
     * both): mem_dereg revokes a region for PUT, GET and atomics alike */
    attr->flags               |= UCT_MD_FLAG_INVALIDATE_RMA |
                                 UCT_MD_FLAG_INVALIDATE_AMO;
#endif
    return UCS_OK;
}

static uint64_t uct_hxb_md_random(uct_hxb_md_t *md)
{
    uint64_t x;

    /* xorshift seeded from getrandom: rkeys are unguessable to a peer that
     * did not receive them, without a system call per registration */
    do {
        x = md->rand_state;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        md->rand_state = x;
    } while (x == 0);
    return x;
}

#ifdef HXB_UCT_MEM_REG_PARAMS
static ucs_status_t uct_hxb_mem_reg(uct_md_h tl_md, void *address, size_t length,
                                    const uct_md_mem_reg_params_t *params,
                                    uct_mem_h *memh_p)
#else
static ucs_status_t uct_hxb_mem_reg(uct_md_h tl_md, void *address, size_t length,
                                    unsigned flags, uct_mem_h *memh_p)
#endif
{
    uct_hxb_md_t *md = ucs_derived_of(tl_md, uct_hxb_md_t);
    uct_hxb_memh_t *memh;
    khiter_t it;
    int ret;

    memh = ucs_malloc(sizeof(*memh), "hxb memh");
    if (memh == NULL) {
        return UCS_ERR_NO_MEMORY;
    }
    memh->addr   = (uintptr_t)address;
    memh->length = length;
    do {
        memh->rkey = uct_hxb_md_random(md);
        it = kh_put(uct_hxb_rkey, &md->regions, memh->rkey, &ret);
    } while (ret == 0);    /* rkey collision: draw again */
    if (ret < 0) {
        ucs_free(memh);
        return UCS_ERR_NO_MEMORY;
    }
    kh_value(&md->regions, it).addr   = memh->addr;
    kh_value(&md->regions, it).length = length;
    *memh_p = memh;
    return UCS_OK;
}

static ucs_status_t uct_hxb_mem_dereg(uct_md_h tl_md,
                                      const uct_md_mem_dereg_params_t *params)
{
    uct_hxb_md_t *md = ucs_derived_of(tl_md, uct_hxb_md_t);
    uct_hxb_memh_t *memh;
    uct_hxb_iface_t *iface;
    khiter_t it;

    UCT_MD_MEM_DEREG_CHECK_PARAMS(params, 1);
    memh = params->memh;
    /* Revoked at once, both ways: the rkey leaves the table (PUTs and new
     * GETs under it are refused) and reads being answered from the region
     * stop reading it (hxb_engine_region_gone). So invalidation completes
     * here, before the caller may free the memory. */
    it   = kh_get(uct_hxb_rkey, &md->regions, memh->rkey);
    if (it != kh_end(&md->regions)) {
        kh_del(uct_hxb_rkey, &md->regions, it);
    }
    ucs_list_for_each(iface, &md->ifaces, md_link) {
        uct_hxb_enter(iface);
        hxb_engine_region_gone(iface->engine, memh->rkey);
        uct_hxb_leave(iface);
    }
    ucs_free(memh);
    if (UCT_MD_MEM_DEREG_FIELD_VALUE(params, flags, FIELD_FLAGS, 0) &
        UCT_MD_MEM_DEREG_FLAG_INVALIDATE) {
        md->invalidations++;
        uct_invoke_completion(params->comp, UCS_OK);
    }
    return UCS_OK;
}

static ucs_status_t uct_hxb_mkey_pack(uct_md_h md, uct_mem_h memh,
#ifdef HXB_UCT_MKEY_PACK_ADDR
                                      void *address, size_t length,
#endif
                                      const uct_md_mkey_pack_params_t *params,
                                      void *rkey_buffer)
{
    *(uint64_t*)rkey_buffer = ((uct_hxb_memh_t*)memh)->rkey;
    return UCS_OK;
}

int uct_hxb_md_check(uct_hxb_md_t *md, uint64_t addr, uint64_t rkey, size_t len)
{
    khiter_t it = kh_get(uct_hxb_rkey, &md->regions, rkey);
    const uct_hxb_region_t *r;

    if (it == kh_end(&md->regions)) {
        return -1;
    }
    r = &kh_value(&md->regions, it);
    /* written so that no sum can overflow */
    if (addr < r->addr || len > r->length || addr - r->addr > r->length - len) {
        return -1;
    }
    return 0;
}

static void uct_hxb_md_close(uct_md_h tl_md)
{
    uct_hxb_md_t *md = ucs_derived_of(tl_md, uct_hxb_md_t);

    kh_destroy_inplace(uct_hxb_rkey, &md->regions);
    ucs_free(md);
}

static uct_md_ops_t uct_hxb_md_ops = {
    .close              = uct_hxb_md_close,
    .query              = uct_hxb_md_query,
    .mkey_pack          = uct_hxb_mkey_pack,
    .mem_reg            = uct_hxb_mem_reg,
    .mem_dereg          = uct_hxb_mem_dereg,
    .detect_memory_type = ucs_empty_function_return_unsupported,
};

static ucs_status_t uct_hxb_md_open(uct_component_t *component, const char *md_name,
                                    const uct_md_config_t *config, uct_md_h *md_p)
{
    uct_hxb_md_t *md = ucs_calloc(1, sizeof(*md), "hxb md");

    if (md == NULL) {
        return UCS_ERR_NO_MEMORY;
    }
    md->super.ops       = &uct_hxb_md_ops;
    md->super.component = &uct_hxb_component;
    kh_init_inplace(uct_hxb_rkey, &md->regions);
    ucs_list_head_init(&md->ifaces);
    if (getrandom(&md->rand_state, sizeof(md->rand_state), 0) !=
        sizeof(md->rand_state) || md->rand_state == 0) {
        md->rand_state = ucs_generate_uuid((uintptr_t)md) | 1;
    }
    *md_p = &md->super;
    return UCS_OK;
}

static ucs_status_t uct_hxb_rkey_unpack(uct_component_t *component,
                                        const void *rkey_buffer, uct_rkey_t *rkey_p,
                                        void **handle_p)
{
    *rkey_p   = *(const uint64_t*)rkey_buffer;
    *handle_p = NULL;
    return UCS_OK;
}

#ifdef HXB_UCT_COMPONENT_RKEY_COMPARE
/* UCX >= 1.16 compares unpacked rkeys (UCP's rkey cache): ours are the
 * 64-bit keys themselves */
static ucs_status_t uct_hxb_rkey_compare(uct_component_t *component, uct_rkey_t rkey1,
                                         uct_rkey_t rkey2,
                                         const uct_rkey_compare_params_t *params,
                                         int *result)
{
    if ((params->field_mask != 0) || (result == NULL)) {
        return UCS_ERR_INVALID_PARAM;
    }
    *result = (rkey1 > rkey2) ? 1 : (rkey1 < rkey2) ? -1 : 0;
    return UCS_OK;
}
#endif

extern uct_tl_t uct_hxb_tl;

uct_component_t uct_hxb_component = {
    .query_md_resources = uct_md_query_single_md_resource,
    .md_open            = uct_hxb_md_open,
    .cm_open            = ucs_empty_function_return_unsupported,
    .rkey_unpack        = uct_hxb_rkey_unpack,
    .rkey_ptr           = ucs_empty_function_return_unsupported,
    .rkey_release       = ucs_empty_function_return_success,
#ifdef HXB_UCT_COMPONENT_RKEY_COMPARE
    .rkey_compare       = uct_hxb_rkey_compare,
#endif
    .name               = UCT_HXB_NAME,
    .md_config          = {
        .name           = "hxb memory domain",
        .prefix         = "HXB_",
        .table          = uct_hxb_md_config_table,
        .size           = sizeof(uct_hxb_md_config_t),
    },
    .cm_config          = UCS_CONFIG_EMPTY_GLOBAL_LIST_ENTRY,
    .tl_list            = UCT_COMPONENT_TL_LIST_INITIALIZER(&uct_hxb_component),
    .flags              = 0,
    .md_vfs_init        = (uct_component_md_vfs_init_func_t)ucs_empty_function
};
