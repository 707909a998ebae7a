/* The component: MCA parameters (btl_hxb_*), loading libuct_hxb.so when
 * nobody preloaded it, and creating the one module. */
#include "btl_hxb.h"

#include "opal/mca/base/mca_base_var.h"
#include "opal/util/error.h"

#include <dlfcn.h>
#include <string.h>

#ifndef MCA_BTL_HXB_UCT_MODULE
#define MCA_BTL_HXB_UCT_MODULE "libuct_hxb.so"
#endif

static int mca_btl_hxb_component_register(void);
static int mca_btl_hxb_component_open(void);
static int mca_btl_hxb_component_close(void);
static mca_btl_base_module_t **mca_btl_hxb_component_init(int *num_btls,
                                                          bool enable_progress_threads,
                                                          bool enable_mpi_threads);

/* MCA parameter btl_hxb_<name> -> setting UCX_HXB_<NAME> of the iface, for
 * every setting of the transport (uct_hxb/hxb_settings.def) */
static mca_btl_hxb_uct_param_t mca_btl_hxb_uct_params[] = {
#define HXB_SETTING(_NAME, _name, _type, _dflt, _to, _efield, _help) \
    {#_name, #_NAME, _help " (UCX_HXB_" #_NAME ")", NULL},
#include "hxb_settings.def"
#undef HXB_SETTING
    {NULL, NULL, NULL, NULL},
};

mca_btl_hxb_component_t mca_btl_hxb_component = {
    .super = {
        .btl_version = {
            MCA_BTL_DEFAULT_VERSION("hxb"),
            .mca_open_component            = mca_btl_hxb_component_open,
            .mca_close_component           = mca_btl_hxb_component_close,
            .mca_register_component_params = mca_btl_hxb_component_register,
        },
        .btl_data = {
            .param_field = MCA_BASE_METADATA_PARAM_CHECKPOINT,
        },
        .btl_init     = mca_btl_hxb_component_init,
        .btl_progress = mca_btl_hxb_progress,
    },
    .uct_params = mca_btl_hxb_uct_params,
    .output     = -1,
};

/* the help of a setting as one line (ucx_info prints its line breaks as
 * comment lines; ompi_info prints a parameter's help as one line); kept
 * for the life of the process */
static const char *mca_btl_hxb_one_line(const char *help)
{
    char *s = strdup(help), *nl;

    if (NULL == s) {
        return help;
    }
    for (nl = s; NULL != (nl = strchr(nl, '\n'));) {
        *nl = ' ';
    }
    return s;
}

static int mca_btl_hxb_component_register(void)
{
    mca_base_component_t *c = &mca_btl_hxb_component.super.btl_version;
    mca_btl_base_module_t *m = &mca_btl_hxb_module_template;
    mca_btl_hxb_uct_param_t *p;

    mca_base_var_group_component_register(c, "BTL over the hxb multi-rail Ethernet "
                                          "transport (UCT component hxb)");

    mca_btl_hxb_component.uct_module = MCA_BTL_HXB_UCT_MODULE;
    (void)mca_base_component_var_register(c, "uct_module",
        "libuct_hxb.so to load when it is not in the process yet (LD_PRELOAD)",
        MCA_BASE_VAR_TYPE_STRING, NULL, 0, 0, OPAL_INFO_LVL_4,
        MCA_BASE_VAR_SCOPE_READONLY, &mca_btl_hxb_component.uct_module);

    mca_btl_hxb_component.verbose = 0;
    (void)mca_base_component_var_register(c, "verbose",
        "Verbosity of the hxb BTL (0: errors only, 10: every decision)",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_5,
        MCA_BASE_VAR_SCOPE_LOCAL, &mca_btl_hxb_component.verbose);

    mca_btl_hxb_component.free_list_max = 4096;
    (void)mca_base_component_var_register(c, "free_list_max",
        "Most send fragments (and RDMA operations) of each size in flight",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_6,
        MCA_BASE_VAR_SCOPE_READONLY, &mca_btl_hxb_component.free_list_max);

    for (p = mca_btl_hxb_uct_params; NULL != p->mca_name; p++) {
        p->value = "";
        (void)mca_base_component_var_register(c, p->mca_name,
            mca_btl_hxb_one_line(p->help),
            MCA_BASE_VAR_TYPE_STRING, NULL, 0, 0, OPAL_INFO_LVL_3,
            MCA_BASE_VAR_SCOPE_READONLY, &p->value);
    }

    /* defaults of the generic btl_hxb_* limits; max_send_size is cut to
     * the transport's largest AM when the module opens */
    m->btl_exclusivity               = MCA_BTL_EXCLUSIVITY_LOW + 100;  /* above tcp */
    /* eager up to an AM (btl tcp's 64 KiB): a rendezvous costs three
     * control messages and, by puts, the wait for their ack; a 56 KB
     * message a half round trip of 60 us eager against 110 at MTU 1500,
     * 72 against 109 at 9000, the same MB/s for 64 KiB messages
     * (doc/RESULTS.md, "A 56 KB message") */
    m->btl_eager_limit               = 64 * 1024;
    m->btl_rndv_eager_limit          = 64 * 1024;
    m->btl_max_send_size             = 64 * 1024 - MCA_BTL_HXB_HDR_SIZE;
    m->btl_rdma_pipeline_send_length = 1024 * 1024;
    m->btl_rdma_pipeline_frag_size   = 4 * 1024 * 1024;
    m->btl_min_rdma_pipeline_size    = 256 * 1024;
    /* GET works (btl_hxb_flags send,put,get gives ob1 its RGET path), but
     * ob1's RDMA-put pipeline measured better: both ways at once over 6
     * rails 98 % of the rails against 75-80 % with RGET, one way equal
     * (contrib/bench/hxb-bench-mpi) */
    m->btl_flags                     = MCA_BTL_FLAGS_SEND | MCA_BTL_FLAGS_PUT;
    m->btl_latency                   = 10;
    m->btl_bandwidth                 = 0;   /* 0: from the transport */
    m->btl_registration_handle_size  = sizeof(struct mca_btl_base_registration_handle_t);
    return mca_btl_base_param_register(c, m);
}

static int mca_btl_hxb_component_open(void)
{
    mca_btl_hxb_component.output = opal_output_open(NULL);
    opal_output_set_verbosity(mca_btl_hxb_component.output,
                              mca_btl_hxb_component.verbose);
    mca_btl_hxb_component.module = NULL;
    return OPAL_SUCCESS;
}

static int mca_btl_hxb_component_close(void)
{
    if (mca_btl_hxb_component.output >= 0) {
        opal_output_close(mca_btl_hxb_component.output);
        mca_btl_hxb_component.output = -1;
    }
    return OPAL_SUCCESS;
}

/* Is the UCT component "hxb" registered in this process? */
static int mca_btl_hxb_uct_registered(void)
{
    uct_component_h *components;
    uct_component_attr_t attr = {.field_mask = UCT_COMPONENT_ATTR_FIELD_NAME};
    unsigned count, i;
    int found = 0;

    if (UCS_OK != uct_query_components(&components, &count)) {
        return 0;
    }
    for (i = 0; i < count; i++) {
        if ((UCS_OK == uct_component_query(components[i], &attr)) &&
            !strcmp(attr.name, "hxb")) {
            found = 1;
        }
    }
    uct_release_component_list(components);
    return found;
}

/* UCX 1.13 only dlopens the modules it was built with: libuct_hxb.so
 * registers itself from a constructor once it is mapped. It must never
 * unload (UCX keeps pointers into it). */
static int mca_btl_hxb_load_uct(void)
{
    const char *path = mca_btl_hxb_component.uct_module;

    if (mca_btl_hxb_uct_registered()) {
        return OPAL_SUCCESS;
    }
    if ((NULL == path) || ('\0' == path[0]) ||
        (NULL == dlopen(path, RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE))) {
        MCA_BTL_HXB_VERBOSE(1, "cannot load %s: %s", path ? path : "(none)", dlerror());
        return OPAL_ERR_NOT_AVAILABLE;
    }
    return mca_btl_hxb_uct_registered() ? OPAL_SUCCESS : OPAL_ERR_NOT_AVAILABLE;
}

static mca_btl_base_module_t **mca_btl_hxb_component_init(int *num_btls,
                                                          bool enable_progress_threads,
                                                          bool enable_mpi_threads)
{
    mca_btl_base_module_t **btls;
    mca_btl_hxb_module_t *module;
    int rc;

    *num_btls = 0;
    rc = mca_btl_hxb_load_uct();
    if (OPAL_SUCCESS == rc) {
        rc = mca_btl_hxb_module_open(&module);
    }
    if (OPAL_SUCCESS != rc) {
        MCA_BTL_HXB_VERBOSE(1, "disabled: %s", opal_strerror(rc));
        return NULL;
    }
    btls = malloc(sizeof(*btls));
    if (NULL == btls) {
        module->super.btl_finalize(&module->super);
        return NULL;
    }
    btls[0]   = &module->super;
    *num_btls = 1;
    return btls;
}
