/* Allreduce: reduce at each node's leader; then between leaders, for small
 * vectors, per dimension every leader sends its partial result to the peers
 * of its line and reduces all of the line's partials in line order (the
 * same expression on every peer, so all ranks get identical bits), or on
 * long lines (coll_hxb_allreduce_rd_min nodes, a power of two) recursive
 * doubling, each pair reducing lower op higher (again the same bits); from
 * coll_hxb_allreduce_rsag_min bytes, reduce-scatter + allgather along the
 * lines (coll_hxb_allreduce_rsag.c). Leaders fan the result out to their
 * locals. Commutative ops only: others fall back. */
#include "coll_hxb.h"
#include <stdlib.h>

/* Leaders: buf = reduction over the line in dimension d */
static int line_allreduce(mca_coll_hxb_ctx_t *c, void *buf, int count,
                          ompi_datatype_t *dt, ompi_op_t *op, int d)
{
    mca_coll_hxb_module_t *m = c->m;
    int n = m->dimsz[d], me = m->my_idx[d], rc = OMPI_SUCCESS;
    char *raw[n], *in[n], *resraw = NULL, *res;

    for (int j = 0; j < n; j++) raw[j] = NULL;
    res = mca_coll_hxb_tmp(dt, count, &resraw);
    if (NULL == res) rc = OMPI_ERR_OUT_OF_RESOURCE;
    for (int j = 0; j < n && OMPI_SUCCESS == rc; j++) {
        if (j == me) { in[j] = buf; continue; }
        int peer = mca_coll_hxb_line_peer(m, d, j);
        in[j] = mca_coll_hxb_tmp(dt, count, &raw[j]);
        if (NULL == in[j]) { rc = OMPI_ERR_OUT_OF_RESOURCE; break; }
        rc = mca_coll_hxb_irecv(c, in[j], count, dt, peer);
        if (OMPI_SUCCESS == rc) rc = mca_coll_hxb_isend(c, buf, count, dt, peer);
    }
    int rc2 = mca_coll_hxb_waitall(c);
    if (OMPI_SUCCESS == rc) rc = rc2;
    if (OMPI_SUCCESS == rc) {
        ompi_datatype_copy_content_same_ddt(dt, count, res, in[n - 1]);
        for (int j = n - 2; j >= 0; j--) ompi_op_reduce(op, in[j], res, count, dt);
        ompi_datatype_copy_content_same_ddt(dt, count, buf, res);
    }
    for (int j = 0; j < n; j++) free(raw[j]);
    free(resraw);
    return rc;
}

/* Leaders, a line of n = 2^k nodes: recursive doubling, k steps of one
 * exchange each (n k messages on the line, not n(n-1): on a line of 8, 24
 * against 56, which an oversubscribed node pays in CPU). Both of a pair
 * compute lower op higher, so the group shares its bits at every step. */
static int line_allreduce_rd(mca_coll_hxb_ctx_t *c, void *buf, int count,
                             ompi_datatype_t *dt, ompi_op_t *op, int d)
{
    mca_coll_hxb_module_t *m = c->m;
    int n = m->dimsz[d], me = m->my_idx[d], rc = OMPI_SUCCESS;
    char *raw = NULL, *in = mca_coll_hxb_tmp(dt, count, &raw);

    if (NULL == in) return OMPI_ERR_OUT_OF_RESOURCE;
    for (int k = 1; k < n && OMPI_SUCCESS == rc; k <<= 1) {
        int j = me ^ k, peer = mca_coll_hxb_line_peer(m, d, j);
        rc = mca_coll_hxb_irecv(c, in, count, dt, peer);
        if (OMPI_SUCCESS == rc) rc = mca_coll_hxb_isend(c, buf, count, dt, peer);
        int rc2 = mca_coll_hxb_waitall(c);
        if (OMPI_SUCCESS == rc) rc = rc2;
        if (OMPI_SUCCESS != rc) break;
        if (me < j) {               /* in = buf op in, then ours */
            ompi_op_reduce(op, buf, in, count, dt);
            ompi_datatype_copy_content_same_ddt(dt, count, buf, in);
        } else {                    /* buf = in op buf */
            ompi_op_reduce(op, in, buf, count, dt);
        }
    }
    free(raw);
    return rc;
}

int mca_coll_hxb_allreduce_do(mca_coll_hxb_ctx_t *c, const void *sbuf, void *rbuf,
                              int count, ompi_datatype_t *dt, ompi_op_t *op)
{
    mca_coll_hxb_module_t *m = c->m;
    int rc;
    if (0 == count) return OMPI_SUCCESS;
    if (MPI_IN_PLACE != sbuf) {
        ompi_datatype_copy_content_same_ddt(dt, count, rbuf, (char *)sbuf);
    }
    if (OMPI_SUCCESS != (rc = mca_coll_hxb_node_reduce(c, rbuf, count, dt, op))) return rc;
    size_t dsize;
    ompi_datatype_type_size(dt, &dsize);
    int rsag_min = c->tune.allreduce_rsag_min;
    if (c->rank == m->leader && rsag_min >= 0 && (size_t)count * dsize >= (size_t)rsag_min) {
        if (OMPI_SUCCESS != (rc = mca_coll_hxb_allreduce_rsag(c, rbuf, count, dt, op))) return rc;
    } else if (c->rank == m->leader) {
        for (int d = 0; d < MCA_COLL_HXB_DIMS; d++) {
            int n = m->dimsz[d], rd_min = c->tune.allreduce_rd_min;
            if (n < 2) continue;
            rc = rd_min > 0 && n >= rd_min && 0 == (n & (n - 1))
                 ? line_allreduce_rd(c, rbuf, count, dt, op, d)
                 : line_allreduce(c, rbuf, count, dt, op, d);
            if (OMPI_SUCCESS != rc) return rc;
        }
    }
    return mca_coll_hxb_node_bcast(c, rbuf, count, dt, -1);
}

int mca_coll_hxb_allreduce(const void *sbuf, void *rbuf, int count, ompi_datatype_t *dt,
                           ompi_op_t *op, ompi_communicator_t *comm,
                           mca_coll_base_module_t *module)
{
    mca_coll_hxb_module_t *m = (mca_coll_hxb_module_t *)module;
    if (!ompi_op_is_commute(op) || !mca_coll_hxb_ready(m, comm, true)) {
        mca_coll_hxb_count(MCA_COLL_HXB_FALLBACK);
        return m->prev.coll_allreduce(sbuf, rbuf, count, dt, op, comm, m->prev.coll_allreduce_module);
    }
    mca_coll_hxb_ctx_t c;
    mca_coll_hxb_ctx_init(&c, m, comm, MCA_COLL_BASE_TAG_ALLREDUCE);
    int rc = mca_coll_hxb_allreduce_do(&c, sbuf, rbuf, count, dt, op);
    mca_coll_hxb_ctx_fini(&c);
    mca_coll_hxb_count(MCA_COLL_HXB_ALLREDUCE);
    return rc;
}
