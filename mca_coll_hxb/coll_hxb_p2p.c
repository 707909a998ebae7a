/* Point-to-point inside the schedules (the communicator's PML, one tag per
 * schedule) and the intra-node steps: aggregate at the node leader before
 * the network, fan out from it after. Same-node traffic goes through the
 * PML too, i.e. over vader/sm shared memory. */
#include "coll_hxb.h"
#include <stdlib.h>
#include <string.h>
#include "ompi/mca/pml/pml.h"

void mca_coll_hxb_ctx_init(mca_coll_hxb_ctx_t *c, mca_coll_hxb_module_t *m,
                           ompi_communicator_t *comm, int tag)
{
    c->m = m;
    c->comm = comm;
    c->rank = ompi_comm_rank(comm);
    c->tag = tag;
    c->poll = false;
    mca_coll_hxb_tune_get(&c->tune);
    c->reqs = NULL;
    c->nreq = c->maxreq = 0;
}

void mca_coll_hxb_tune_get(mca_coll_hxb_tune_t *t)
{
    const mca_coll_hxb_component_t *k = &mca_coll_hxb_component;
    t->allreduce_rsag_min = k->allreduce_rsag_min;
    t->allreduce_rd_min = k->allreduce_rd_min;
    t->alltoall_direct_min = k->alltoall_direct_min;
    t->alltoall_pieces_min = k->alltoall_pieces_min;
    t->allgather_pieces_min = k->allgather_pieces_min;
    t->segsize = k->segsize;
}

void mca_coll_hxb_ctx_fini(mca_coll_hxb_ctx_t *c)
{
    free(c->reqs);
    c->reqs = NULL;
}

static ompi_request_t **slot(mca_coll_hxb_ctx_t *c)
{
    if (c->nreq == c->maxreq) {
        int n = c->maxreq ? 2 * c->maxreq : 16;
        ompi_request_t **r = realloc(c->reqs, n * sizeof(*r));
        if (NULL == r) return NULL;
        c->reqs = r;
        c->maxreq = n;
    }
    return &c->reqs[c->nreq];
}

/* Counts above INT_MAX do not occur: callers send at most a node's or a
 * line's data, sized by ints of the MPI call times the ranks. */
static int start(mca_coll_hxb_ctx_t *c, ompi_request_t **r, const void *buf, size_t count,
                 ompi_datatype_t *dt, int peer, bool recv)
{
    return recv ? MCA_PML_CALL(irecv((void *)buf, count, dt, peer, c->tag, c->comm, r))
                : MCA_PML_CALL(isend(buf, count, dt, peer, c->tag, MCA_PML_BASE_SEND_STANDARD,
                                     c->comm, r));
}

static int ctx_post(mca_coll_hxb_ctx_t *c, const void *buf, size_t count,
                    ompi_datatype_t *dt, int peer, bool recv)
{
    ompi_request_t **r = slot(c);
    if (NULL == r) return OMPI_ERR_OUT_OF_RESOURCE;
    int rc = start(c, r, buf, count, dt, peer, recv);
    if (OMPI_SUCCESS == rc) c->nreq++;
    return rc;
}

int mca_coll_hxb_isend(mca_coll_hxb_ctx_t *c, const void *buf, size_t count,
                       ompi_datatype_t *dt, int peer)
{
    return ctx_post(c, buf, count, dt, peer, false);
}

int mca_coll_hxb_irecv(mca_coll_hxb_ctx_t *c, void *buf, size_t count,
                       ompi_datatype_t *dt, int peer)
{
    return ctx_post(c, buf, count, dt, peer, true);
}

/* A request into a caller's own array, for schedules whose pieces progress
 * independently; nothing for 0 elements (both ends of a step compute the
 * same count, so both skip it) */
int mca_coll_hxb_post(mca_coll_hxb_ctx_t *c, ompi_request_t **reqs, int *nreq,
                      void *buf, size_t count, ompi_datatype_t *dt, int peer, bool recv)
{
    if (0 == count) return OMPI_SUCCESS;
    int rc = start(c, &reqs[*nreq], buf, count, dt, peer, recv);
    if (OMPI_SUCCESS == rc) (*nreq)++;
    return rc;
}

/* The worker polls (coll_hxb_nb_progress.c); others wait as MPI does */
int mca_coll_hxb_wait_reqs(mca_coll_hxb_ctx_t *c, int n, ompi_request_t **reqs)
{
    if (n <= 0) return OMPI_SUCCESS;
    return c->poll ? mca_coll_hxb_nb_poll(n, reqs)
                   : ompi_request_wait_all(n, reqs, MPI_STATUSES_IGNORE);
}

int mca_coll_hxb_waitall(mca_coll_hxb_ctx_t *c)
{
    int rc = mca_coll_hxb_wait_reqs(c, c->nreq, c->reqs);
    c->nreq = 0;
    return rc;
}

int mca_coll_hxb_node_index(const mca_coll_hxb_module_t *m, const int idx[MCA_COLL_HXB_DIMS])
{
    return idx[0] + m->dimsz[0] * (idx[1] + m->dimsz[1] * idx[2]);
}

int mca_coll_hxb_node_leader(const mca_coll_hxb_module_t *m, int node)
{
    return m->node_ranks[m->node_first[node]];
}

/* A buffer for count elements of dt laid out as in user memory */
char *mca_coll_hxb_tmp(ompi_datatype_t *dt, size_t count, char **raw)
{
    ptrdiff_t gap = 0;
    size_t span = opal_datatype_span(&dt->super, count, &gap);
    *raw = malloc(span ? span : 1);
    return *raw ? *raw - gap : NULL;
}

/* Leader: acc = reduction of every local rank's acc (commutative op).
 * Others: send their acc to the leader. */
int mca_coll_hxb_node_reduce(mca_coll_hxb_ctx_t *c, void *acc, int count,
                             ompi_datatype_t *dt, ompi_op_t *op)
{
    mca_coll_hxb_module_t *m = c->m;
    int first = m->node_first[m->my_node], nloc = m->node_first[m->my_node + 1] - first;
    int rc;
    if (nloc <= 1 || 0 == count) return OMPI_SUCCESS;
    if (c->rank != m->leader) {
        if (OMPI_SUCCESS != (rc = mca_coll_hxb_isend(c, acc, count, dt, m->leader))) return rc;
        return mca_coll_hxb_waitall(c);
    }
    char *raw[nloc], *tmp[nloc];
    rc = OMPI_SUCCESS;
    for (int i = 1; i < nloc; i++) {
        raw[i] = NULL;
        tmp[i] = mca_coll_hxb_tmp(dt, count, &raw[i]);
        if (NULL == tmp[i]) rc = OMPI_ERR_OUT_OF_RESOURCE;
        else if (OMPI_SUCCESS == rc) rc = mca_coll_hxb_irecv(c, tmp[i], count, dt, m->node_ranks[first + i]);
    }
    if (OMPI_SUCCESS == rc) rc = mca_coll_hxb_waitall(c);
    for (int i = 1; i < nloc; i++) {
        if (OMPI_SUCCESS == rc) ompi_op_reduce(op, tmp[i], acc, count, dt);
        free(raw[i]);
    }
    return rc;
}

/* Leader sends buf to every other local rank except `skip` (a rank that
 * has the data already, -1 for none); the others receive. */
int mca_coll_hxb_node_bcast(mca_coll_hxb_ctx_t *c, void *buf, size_t count,
                            ompi_datatype_t *dt, int skip)
{
    mca_coll_hxb_module_t *m = c->m;
    int first = m->node_first[m->my_node], nloc = m->node_first[m->my_node + 1] - first;
    int rc = OMPI_SUCCESS;
    if (nloc <= 1 || (c->rank == skip && c->rank != m->leader)) return OMPI_SUCCESS;
    if (c->rank != m->leader) {
        rc = mca_coll_hxb_irecv(c, buf, count, dt, m->leader);
    } else {
        for (int i = 1; i < nloc && OMPI_SUCCESS == rc; i++) {
            if (m->node_ranks[first + i] != skip) {
                rc = mca_coll_hxb_isend(c, buf, count, dt, m->node_ranks[first + i]);
            }
        }
    }
    int rc2 = mca_coll_hxb_waitall(c);
    return OMPI_SUCCESS != rc ? rc : rc2;
}

/* Typed user data <-> packed bytes (memcpy when contiguous), so that the
 * bytes on the wire do not depend on each rank's datatype layout. */
void mca_coll_hxb_pack(const void *buf, int count, ompi_datatype_t *dt, void *out, size_t bytes)
{
    ptrdiff_t lb, ext;
    if (ompi_datatype_is_contiguous_memory_layout(dt, count)) {
        ompi_datatype_get_true_extent(dt, &lb, &ext);
        memcpy(out, (const char *)buf + lb, bytes);
    } else {
        ompi_datatype_sndrcv(buf, count, dt, out, (int)bytes, MPI_PACKED);
    }
}

void mca_coll_hxb_unpack(const void *in, size_t bytes, void *buf, int count, ompi_datatype_t *dt)
{
    ptrdiff_t lb, ext;
    if (ompi_datatype_is_contiguous_memory_layout(dt, count)) {
        ompi_datatype_get_true_extent(dt, &lb, &ext);
        memcpy((char *)buf + lb, in, bytes);
    } else {
        ompi_datatype_sndrcv(in, (int)bytes, MPI_PACKED, buf, count, dt);
    }
}

/* Leader of the node at position j of this node's line in dimension d */
int mca_coll_hxb_line_peer(const mca_coll_hxb_module_t *m, int d, int j)
{
    int idx[MCA_COLL_HXB_DIMS] = { m->my_idx[0], m->my_idx[1], m->my_idx[2] };
    idx[d] = j;
    return mca_coll_hxb_node_leader(m, mca_coll_hxb_node_index(m, idx));
}
