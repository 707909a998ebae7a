/* Reduce: reduce at each node's leader; then per dimension the leaders of
 * a line send to the line's node that shares the root's coordinate (X
 * lines first, then Y lines inside the root's X position, then Z), which
 * reduces in line order; the root's leader passes the result to the root.
 * From 64 KiB (MCA_COLL_HXB_PIECES_MIN) the vector is cut into one piece
 * per dimension and piece p visits the dimensions in the order rotated by
 * p, so in every step each dimension's rails carry a piece (Bcast's
 * schedule run backwards). Commutative ops only: others fall back. */
#include "coll_hxb.h"
#include <stdlib.h>

/* The leaders' steps: acc holds this node's partial, and the root's
 * leader ends with the whole reduction */
static int leaders_reduce(mca_coll_hxb_ctx_t *c, char *acc, int count, ompi_datatype_t *dt,
                          ompi_op_t *op, const int ridx[MCA_COLL_HXB_DIMS])
{
    mca_coll_hxb_module_t *m = c->m;
    int dims[MCA_COLL_HXB_DIMS], k = mca_coll_hxb_line_dims(m, dims), np, rc = OMPI_SUCCESS;
    int nmax = mca_coll_hxb_max_line(m);
    size_t dsize;
    ptrdiff_t lb, ext;
    char *traw = NULL, *tmp;

    if (0 == k) return OMPI_SUCCESS;
    ompi_datatype_type_size(dt, &dsize);
    ompi_datatype_get_extent(dt, &lb, &ext);
    np = count >= k ? mca_coll_hxb_dim_pieces(k, (size_t)count * dsize) : 1;
    /* line peer j's copy of piece p: elements of the piece in vector slot j */
    tmp = mca_coll_hxb_tmp(dt, (size_t)count * (nmax - 1), &traw);
    if (NULL == tmp) return OMPI_ERR_OUT_OF_RESOURCE;
    for (int i = 0; i < k && OMPI_SUCCESS == rc; i++) {   /* step i: piece p along dims[(p+i)%k] */
        for (int phase = 0; phase < 2 && OMPI_SUCCESS == rc; phase++) {   /* post, then reduce */
            for (int p = 0; p < np && OMPI_SUCCESS == rc; p++) {
                int d = dims[(p + i) % k], n = m->dimsz[d], at = ridx[d];
                size_t lo = mca_coll_hxb_part(0, (size_t)count, np, p);
                size_t len = mca_coll_hxb_part(0, (size_t)count, np, p + 1) - lo;
                /* taking part: nodes matching the root in the dimensions
                 * this piece visited before d (the others sent it on) */
                bool in = true;
                for (int e = 0; e < i; e++) in = in && m->my_idx[dims[(p + e) % k]] == ridx[dims[(p + e) % k]];
                if (!in) continue;
                if (m->my_idx[d] != at) {
                    if (0 == phase) {
                        rc = mca_coll_hxb_isend(c, acc + (ptrdiff_t)lo * ext, len, dt,
                                                mca_coll_hxb_line_peer(m, d, at));
                    }
                    continue;
                }
                for (int j = 0; j < n && OMPI_SUCCESS == rc; j++) {
                    if (j == at) continue;
                    char *slot = tmp + ((ptrdiff_t)(j < at ? j : j - 1) * count + (ptrdiff_t)lo) * ext;
                    if (0 == phase) {
                        rc = mca_coll_hxb_irecv(c, slot, len, dt, mca_coll_hxb_line_peer(m, d, j));
                    } else {
                        ompi_op_reduce(op, slot, acc + (ptrdiff_t)lo * ext, (int)len, dt);
                    }
                }
            }
            if (0 == phase) {
                int rc2 = mca_coll_hxb_waitall(c);   /* also after an error: no request left on our buffers */
                if (OMPI_SUCCESS == rc) rc = rc2;
            }
        }
    }
    free(traw);
    return rc;
}

int mca_coll_hxb_reduce_do(mca_coll_hxb_ctx_t *c, const void *sbuf, void *rbuf,
                           int count, ompi_datatype_t *dt, ompi_op_t *op, int root)
{
    mca_coll_hxb_module_t *m = c->m;
    int rc = OMPI_SUCCESS, rnode = m->rank_node[root];
    int rleader = mca_coll_hxb_node_leader(m, rnode), ridx[MCA_COLL_HXB_DIMS];
    char *accraw = NULL, *acc;

    if (0 == count) return OMPI_SUCCESS;
    mca_coll_hxb_node_coords(m, rnode, ridx);
    /* non-roots' rbuf is not ours to use: accumulate in a temporary */
    acc = mca_coll_hxb_tmp(dt, count, &accraw);
    if (NULL == acc) return OMPI_ERR_OUT_OF_RESOURCE;
    const void *mine = (MPI_IN_PLACE == sbuf) ? rbuf : sbuf;
    ompi_datatype_copy_content_same_ddt(dt, count, acc, (char *)mine);
    rc = mca_coll_hxb_node_reduce(c, acc, count, dt, op);

    if (OMPI_SUCCESS == rc && c->rank == m->leader) rc = leaders_reduce(c, acc, count, dt, op, ridx);
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
    if (!ompi_op_is_commute(op) || !mca_coll_hxb_ready(m, comm, true)) {
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
