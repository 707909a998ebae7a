/* Reduce: reduce at each node's leader; then per dimension the leaders of
 * a line send to the line's node that shares the root's coordinate (X
 * lines first, then Y lines inside the root's X position, then Z), which
 * reduces in line order; the root's leader passes the result to the root.
 * Commutative ops only: others fall back. */
#include "coll_hxb.h"
#include <stdlib.h>

int mca_coll_hxb_reduce_do(mca_coll_hxb_ctx_t *c, const void *sbuf, void *rbuf,
                           int count, ompi_datatype_t *dt, ompi_op_t *op, int root)
{
    mca_coll_hxb_module_t *m = c->m;
    int rc = OMPI_SUCCESS, rnode = m->rank_node[root], rest = rnode;
    int rleader = mca_coll_hxb_node_leader(m, rnode), ridx[MCA_COLL_HXB_DIMS];
    char *accraw = NULL, *acc;

    if (0 == count) return OMPI_SUCCESS;
    for (int d = 0; d < MCA_COLL_HXB_DIMS; d++) {
        ridx[d] = rest % m->dimsz[d];
        rest /= m->dimsz[d];
    }
    /* non-roots' rbuf is not ours to use: accumulate in a temporary */
    acc = mca_coll_hxb_tmp(dt, count, &accraw);
    if (NULL == acc) return OMPI_ERR_OUT_OF_RESOURCE;
    const void *mine = (MPI_IN_PLACE == sbuf) ? rbuf : sbuf;
    ompi_datatype_copy_content_same_ddt(dt, count, acc, (char *)mine);
    rc = mca_coll_hxb_node_reduce(c, acc, count, dt, op);

    if (OMPI_SUCCESS == rc && c->rank == m->leader) {
        for (int d = 0; d < MCA_COLL_HXB_DIMS && OMPI_SUCCESS == rc; d++) {
            int n = m->dimsz[d];
            bool in = true;      /* step d: nodes matching the root in dims < d */
            for (int e = 0; e < d; e++) in = in && m->my_idx[e] == ridx[e];
            if (!in || n < 2) continue;
            if (m->my_idx[d] != ridx[d]) {
                rc = mca_coll_hxb_isend(c, acc, count, dt, mca_coll_hxb_line_peer(m, d, ridx[d]));
                if (OMPI_SUCCESS == rc) rc = mca_coll_hxb_waitall(c);
                continue;
            }
            char *raw[n], *parts[n];
            for (int j = 0; j < n; j++) raw[j] = NULL;
            for (int j = 0; j < n && OMPI_SUCCESS == rc; j++) {
                if (j == ridx[d]) { parts[j] = acc; continue; }
                parts[j] = mca_coll_hxb_tmp(dt, count, &raw[j]);
                rc = parts[j] ? mca_coll_hxb_irecv(c, parts[j], count, dt, mca_coll_hxb_line_peer(m, d, j))
                              : OMPI_ERR_OUT_OF_RESOURCE;
            }
            int rc2 = mca_coll_hxb_waitall(c);
            if (OMPI_SUCCESS == rc) rc = rc2;
            for (int j = 0; j < n && OMPI_SUCCESS == rc; j++) {
                if (j != ridx[d]) ompi_op_reduce(op, parts[j], acc, count, dt);
            }
            for (int j = 0; j < n; j++) free(raw[j]);
        }
    }
    if (OMPI_SUCCESS == rc) {
        if (root == rleader) {
            if (c->rank == root) ompi_datatype_copy_content_same_ddt(dt, count, rbuf, acc);
        } else if (c->rank == rleader) {
            rc = mca_coll_hxb_isend(c, acc, count, dt, root);
        } else if (c->rank == root) {
            rc = mca_coll_hxb_irecv(c, rbuf, count, dt, rleader);
        }
        int rc2 = mca_coll_hxb_waitall(c);
        if (OMPI_SUCCESS == rc) rc = rc2;
    }
    free(accraw);
    return rc;
}

int mca_coll_hxb_reduce(const void *sbuf, void *rbuf, int count, ompi_datatype_t *dt,
                        ompi_op_t *op, int root, ompi_communicator_t *comm,
                        mca_coll_base_module_t *module)
{
    mca_coll_hxb_module_t *m = (mca_coll_hxb_module_t *)module;
    if (!ompi_op_is_commute(op) || !mca_coll_hxb_ready(m, comm)) {
        mca_coll_hxb_count(MCA_COLL_HXB_FALLBACK);
        return m->prev.coll_reduce(sbuf, rbuf, count, dt, op, root, comm, m->prev.coll_reduce_module);
    }
    mca_coll_hxb_ctx_t c;
    mca_coll_hxb_ctx_init(&c, m, comm, MCA_COLL_BASE_TAG_REDUCE);
    int rc = mca_coll_hxb_reduce_do(&c, sbuf, rbuf, count, dt, op, root);
    mca_coll_hxb_ctx_fini(&c);
    mca_coll_hxb_count(MCA_COLL_HXB_REDUCE);
    return rc;
}
