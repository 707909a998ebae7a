/* coll hxb module: when to take a communicator (comm_query), the functions
 * of the components below us (enable), and the communicator's layout on
 * the grid, found at its first delegated collective (ready). */
#include "coll_hxb.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "opal/mca/base/mca_base_var.h"
#include "opal/mca/btl/base/base.h"
#include "opal/util/output.h"
#include "ompi/mca/pml/base/base.h"
#include "ompi/runtime/mpiruntime.h"
#include "opal/util/proc.h"
#include "hxb_topo.h"

/* the topology, kept for mapping peers' host names to nodes */
static hxb_topo_t topo;
static bool topo_by_host;   /* node names are host names */

#define VERBOSE(lvl, ...) do { if (mca_coll_hxb_component.verbose >= (lvl)) { \
    opal_output(0, "coll hxb: " __VA_ARGS__); } } while (0)

static void module_construct(mca_coll_hxb_module_t *m)
{
    memset(&m->prev, 0, sizeof(m->prev));
    m->state = 0;
    m->rank_node = m->node_first = m->node_ranks = NULL;
    pthread_mutex_init(&m->lock, NULL);
    pthread_cond_init(&m->cond, NULL);
    m->thread_started = m->stop = false;
    m->head = m->tail = NULL;
}

#define PREV_FUNCS(X) X(allgather) X(barrier) X(bcast) X(reduce) X(allreduce) \
    X(alltoall) X(iallreduce) X(ibcast)

static void module_destruct(mca_coll_hxb_module_t *m)
{
    mca_coll_hxb_worker_stop(m);
#define RELEASE(f) if (NULL != m->prev.coll_##f##_module) { OBJ_RELEASE(m->prev.coll_##f##_module); }
    PREV_FUNCS(RELEASE)
    free(m->rank_node);
    free(m->node_first);
    free(m->node_ranks);
    pthread_cond_destroy(&m->cond);
    pthread_mutex_destroy(&m->lock);
}

OBJ_CLASS_INSTANCE(mca_coll_hxb_module_t, mca_coll_base_module_t,
                   module_construct, module_destruct);

int mca_coll_hxb_init_query(bool enable_progress_threads, bool enable_mpi_threads)
{
    return OMPI_SUCCESS;
}

/* Does hxb carry this job? ob1 with btl hxb initialized, or pml ucx with
 * hxb in UCX_TLS. */
static bool hxb_in_use(void)
{
    const char *name = mca_pml_base_selected_component.pmlm_version.mca_component_name;
    if (0 == strcmp(name, "ucx")) {
        const char *tls = getenv("UCX_TLS");
        return NULL != tls && NULL != strstr(tls, "hxb");
    }
    mca_btl_base_selected_module_t *sm;
    OPAL_LIST_FOREACH(sm, &mca_btl_base_modules_initialized, mca_btl_base_selected_module_t) {
        if (0 == strcmp(sm->btl_component->btl_version.mca_component_name, "hxb")) {
            return true;
        }
    }
    return false;
}

/* A string MCA variable of another component (e.g. btl_hxb_topo), or "" */
static const char *other_var(const char *full_name)
{
    int idx;
    const char **val = NULL;
    if (mca_base_var_find_by_name(full_name, &idx) < 0 ||
        mca_base_var_get_value(idx, &val, NULL, NULL) < 0 || NULL == val || NULL == *val) {
        return "";
    }
    return *val;
}

static const char *first_set(const char *a, const char *b, const char *env)
{
    if (a && *a) return a;
    if (b && *b) return b;
    const char *e = getenv(env);
    return e ? e : "";
}

/* Load the topology once and find this process's node in it */
static int load_topo(void)
{
    mca_coll_hxb_component_t *k = &mca_coll_hxb_component;
    if (0 != k->topo_loaded) {
        return k->topo_loaded;
    }
    k->topo_loaded = -1;
    const char *path = first_set(k->topo, other_var("btl_hxb_topo"), "UCX_HXB_TOPO");
    if (!*path) {
        VERBOSE(1, "no topology file (coll_hxb_topo, btl_hxb_topo, UCX_HXB_TOPO)");
        return -1;
    }
    char err[256];
    if (hxb_topo_load(path, &topo, err, sizeof(err)) < 0) {
        VERBOSE(1, "topology: %s", err);
        return -1;
    }
    char host[64] = "";
    gethostname(host, sizeof(host) - 1);
    const char *name = first_set(k->node, other_var("btl_hxb_node"), "UCX_HXB_NODE");
    if (!*name) {
        name = host;
        topo_by_host = true;
    }
    int id = hxb_topo_find_node(&topo, name);
    if (id >= 0) {
        for (int d = 0; d < MCA_COLL_HXB_DIMS; d++) {
            k->my_coord[d] = topo.nodes[id].coord[d];
        }
        k->my_node_id = id;
    }
    VERBOSE(1, "topology %s: grid %dx%dx%d, node %s is %d", path, topo.size[0],
            topo.size[1], topo.size[2], name, id);
    k->topo_loaded = 1;   /* an unknown node is settled per communicator, in ready() */
    return 1;
}

static int module_enable(mca_coll_base_module_t *module, ompi_communicator_t *comm)
{
    mca_coll_hxb_module_t *m = (mca_coll_hxb_module_t *)module;
    /* The components below us were enabled first: keep their functions for
     * the shapes we do not handle and for the layout exchange. */
#define SAVE(f) m->prev.coll_##f = comm->c_coll->coll_##f; \
    m->prev.coll_##f##_module = comm->c_coll->coll_##f##_module; \
    if (NULL == m->prev.coll_##f##_module) { \
        VERBOSE(1, "no underlying " #f " on %s", comm->c_name); return OMPI_ERROR; } \
    OBJ_RETAIN(m->prev.coll_##f##_module);
    PREV_FUNCS(SAVE)
    return OMPI_SUCCESS;
}

mca_coll_base_module_t *mca_coll_hxb_comm_query(ompi_communicator_t *comm, int *priority)
{
    mca_coll_hxb_component_t *k = &mca_coll_hxb_component;
    if (!k->enable || k->priority <= 0 || OMPI_COMM_IS_INTER(comm) ||
        ompi_comm_size(comm) < 2) {
        return NULL;
    }
    /* every rank of a job decides the same way: same parameters, same file */
    if (!hxb_in_use()) {
        VERBOSE(2, "hxb does not carry this job: %s declined", comm->c_name);
        return NULL;
    }
    if (load_topo() < 0) {
        return NULL;
    }
    mca_coll_hxb_module_t *m = OBJ_NEW(mca_coll_hxb_module_t);
    if (NULL == m) {
        return NULL;
    }
    *priority = k->priority;
    m->super.coll_module_enable = module_enable;
    m->super.coll_barrier = mca_coll_hxb_barrier;
    m->super.coll_bcast = mca_coll_hxb_bcast;
    m->super.coll_reduce = mca_coll_hxb_reduce;
    m->super.coll_allreduce = mca_coll_hxb_allreduce;
    m->super.coll_allgather = mca_coll_hxb_allgather;
    m->super.coll_alltoall = mca_coll_hxb_alltoall;
    m->super.coll_iallreduce = mca_coll_hxb_iallreduce;
    m->super.coll_ibcast = mca_coll_hxb_ibcast;
    VERBOSE(2, "taking %s (%d ranks)", comm->c_name, ompi_comm_size(comm));
    return &m->super;
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* Sorted distinct values; returns how many */
static int uniq(int *v, int n)
{
    qsort(v, n, sizeof(int), cmp_int);
    int u = 0;
    for (int i = 0; i < n; i++) {
        if (0 == u || v[u - 1] != v[i]) v[u++] = v[i];
    }
    return u;
}

static int find(const int *v, int n, int x)
{
    for (int i = 0; i < n; i++) if (v[i] == x) return i;
    return -1;
}

/* Layout from every rank's (node id, x, y, z); 1 if our schedules apply */
static int layout(mca_coll_hxb_module_t *m, ompi_communicator_t *comm, const int *all,
                  int *ids, int *vals)
{
    int size = ompi_comm_size(comm), rank = ompi_comm_rank(comm);
    for (int r = 0; r < size; r++) {
        if (all[4 * r] < 0) {
            VERBOSE(1, "%s: rank %d is on no node of the topology: falling back", comm->c_name, r);
            return 0;
        }
        ids[r] = all[4 * r];
    }
    int nnodes = uniq(ids, size), prod = 1;
    for (int d = 0; d < MCA_COLL_HXB_DIMS; d++) {
        int *v = vals + d * size;
        for (int r = 0; r < size; r++) v[r] = all[4 * r + 1 + d];
        m->dimsz[d] = uniq(v, size);
        prod *= m->dimsz[d];
    }
    /* a product set: every node's lines are complete, so every step of a
     * dimension reaches its peers directly */
    if (prod != nnodes) {
        VERBOSE(1, "%s: its %d nodes are not a sub-grid (%dx%dx%d): falling back",
                comm->c_name, nnodes, m->dimsz[0], m->dimsz[1], m->dimsz[2]);
        return 0;
    }
    m->nnodes = nnodes;
    m->node_first = calloc(nnodes + 1, sizeof(int));
    int *fill = malloc(sizeof(int) * (nnodes + 1));
    if (NULL == m->node_first || NULL == fill) {
        free(fill);
        return 0;
    }
    for (int r = 0; r < size; r++) {
        int idx[MCA_COLL_HXB_DIMS];
        for (int d = 0; d < MCA_COLL_HXB_DIMS; d++) {
            idx[d] = find(vals + d * size, m->dimsz[d], all[4 * r + 1 + d]);
        }
        m->rank_node[r] = mca_coll_hxb_node_index(m, idx);
        m->node_first[m->rank_node[r] + 1]++;
        if (r == rank) memcpy(m->my_idx, idx, sizeof(idx));
    }
    for (int n = 0; n < nnodes; n++) m->node_first[n + 1] += m->node_first[n];
    memcpy(fill, m->node_first, sizeof(int) * nnodes);
    for (int r = 0; r < size; r++) m->node_ranks[fill[m->rank_node[r]]++] = r;
    free(fill);
    m->my_node = m->rank_node[rank];
    m->leader = mca_coll_hxb_node_leader(m, m->my_node);
    VERBOSE(1, "%s: %d ranks on %d nodes (%dx%dx%d), my node %d, leader %d",
            comm->c_name, size, nnodes, m->dimsz[0], m->dimsz[1], m->dimsz[2],
            m->my_node, m->leader);
    return 1;
}

/* The layout, found at the first delegated collective from every rank's
 * node coordinates (gathered with the allgather below us, so all ranks see
 * the same data and decide alike). Returns 1 when our schedules apply, 0
 * to fall back. With node names set explicitly that takes a blocking
 * allgather, which a non-blocking call must not make (blocking = false):
 * ranks may start non-blocking collectives on different communicators in
 * different orders. Those fall back until the communicator's first
 * blocking collective settles the layout - on every rank at the same call,
 * since all ranks call a communicator's collectives in the same order. */
int mca_coll_hxb_ready(mca_coll_hxb_module_t *m, ompi_communicator_t *comm, bool blocking)
{
    if (0 != m->state) {
        return m->state > 0;
    }
    if (!blocking && !topo_by_host) {
        return 0;
    }
    mca_coll_hxb_component_t *k = &mca_coll_hxb_component;
    int size = ompi_comm_size(comm);
    int me[4] = { k->my_node_id, k->my_coord[0], k->my_coord[1], k->my_coord[2] };
    int *all = malloc(sizeof(int) * 4 * size);
    int *vals = malloc(sizeof(int) * MCA_COLL_HXB_DIMS * size);
    int *ids = malloc(sizeof(int) * size);
    m->rank_node = malloc(sizeof(int) * size);
    m->node_ranks = malloc(sizeof(int) * size);
    m->state = -1;
    if (!all || !vals || !ids || !m->rank_node || !m->node_ranks) goto out;
    if (topo_by_host) {
        /* every rank maps every peer's host name itself: no communication,
         * so no traffic between nodes that share no line */
        for (int r = 0; r < size; r++) {
            ompi_proc_t *p = ompi_comm_peer_lookup(comm, r);
            const char *h = p ? opal_get_proc_hostname(&p->super) : NULL;
            int id = h ? hxb_topo_find_node(&topo, h) : -1;
            char shortname[64];
            if (id < 0 && h && strchr(h, '.')) {
                snprintf(shortname, sizeof(shortname), "%.*s", (int)(strchr(h, '.') - h), h);
                id = hxb_topo_find_node(&topo, shortname);
            }
            all[4 * r] = id;
            for (int d = 0; d < MCA_COLL_HXB_DIMS; d++) {
                all[4 * r + 1 + d] = id >= 0 ? topo.nodes[id].coord[d] : -1;
            }
        }
    } else if (OMPI_SUCCESS != m->prev.coll_allgather(me, 4, MPI_INT, all, 4, MPI_INT, comm,
                                                      m->prev.coll_allgather_module)) {
        goto out;
    }
    if (layout(m, comm, all, ids, vals)) {
        m->state = 1;
    }
out:
    free(all);
    free(vals);
    free(ids);
    return m->state > 0;
}
