/* Bcast: the root hands the data to its node's leader; along X the root
 * node's line gets it, then along Y every node of the root's XY plane
 * passes it on its Y line, then Z; leaders fan out to their locals.
 * From PIECES_MIN bytes the buffer is cut into one piece per dimension and
 * piece p visits the dimensions in the order rotated by p (X,Y,Z; Y,Z,X;
 * Z,X,Y), so in every step each dimension's rails carry a third of the
 * data instead of one dimension carrying all of it. */
#include "coll_hxb.h"

int mca_coll_hxb_bcast_do(mca_coll_hxb_ctx_t *c, void *buf, int count,
                          ompi_datatype_t *dt, int root)
{
    mca_coll_hxb_module_t *m = c->m;
    int rc = OMPI_SUCCESS;
    int rnode = m->rank_node[root], rleader = mca_coll_hxb_node_leader(m, rnode);
    int ridx[MCA_COLL_HXB_DIMS];

    if (0 == count) return OMPI_SUCCESS;
    mca_coll_hxb_node_coords(m, rnode, ridx);
    if (root != rleader) {
        if (c->rank == root) rc = mca_coll_hxb_isend(c, buf, count, dt, rleader);
        else if (c->rank == rleader) rc = mca_coll_hxb_irecv(c, buf, count, dt, root);
        if (OMPI_SUCCESS != rc || OMPI_SUCCESS != (rc = mca_coll_hxb_waitall(c))) return rc;
    }
    if (c->rank == m->leader) {
        int dims[MCA_COLL_HXB_DIMS], k = mca_coll_hxb_line_dims(m, dims), np;
        size_t dsize;
        ptrdiff_t lb, ext;
        ompi_datatype_type_size(dt, &dsize);
        ompi_datatype_get_extent(dt, &lb, &ext);
        np = count >= k ? mca_coll_hxb_dim_pieces(k, (size_t)count * dsize) : 1;
        for (int i = 0; i < k; i++) {      /* step i: piece p along dims[(p+i)%k] */
            for (int p = 0; p < np && OMPI_SUCCESS == rc; p++) {
                int d = dims[(p + i) % k];
                size_t lo = mca_coll_hxb_part(0, (size_t)count, np, p);
                size_t n = mca_coll_hxb_part(0, (size_t)count, np, p + 1) - lo;
                char *pb = (char *)buf + (ptrdiff_t)lo * ext;
                /* taking part: nodes matching the root in the dimensions
                 * this piece visits after d */
                bool in = true;
                for (int e = i + 1; e < k; e++) in = in && m->my_idx[dims[(p + e) % k]] == ridx[dims[(p + e) % k]];
                if (!in) continue;
                if (m->my_idx[d] == ridx[d]) {
                    for (int j = 0; j < m->dimsz[d] && OMPI_SUCCESS == rc; j++) {
                        if (j != ridx[d]) rc = mca_coll_hxb_isend(c, pb, n, dt, mca_coll_hxb_line_peer(m, d, j));
                    }
                } else {
                    rc = mca_coll_hxb_irecv(c, pb, n, dt, mca_coll_hxb_line_peer(m, d, ridx[d]));
                }
            }
            int rc2 = mca_coll_hxb_waitall(c);   /* also after an error: no request left on buf */
            if (OMPI_SUCCESS == rc) rc = rc2;
            if (OMPI_SUCCESS != rc) return rc;
        }
    }
    return mca_coll_hxb_node_bcast(c, buf, count, dt, root);
}

int mca_coll_hxb_bcast(void *buf, int count, ompi_datatype_t *dt, int root,
                       ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_hxb_module_t *m = (mca_coll_hxb_module_t *)module;
    if (!mca_coll_hxb_ready(m, comm)) {
        mca_coll_hxb_count(MCA_COLL_HXB_FALLBACK);
        return m->prev.coll_bcast(buf, count, dt, root, comm, m->prev.coll_bcast_module);
    }
    mca_coll_hxb_ctx_t c;
    mca_coll_hxb_ctx_init(&c, m, comm, MCA_COLL_BASE_TAG_BCAST);
    int rc = mca_coll_hxb_bcast_do(&c, buf, count, dt, root);
    mca_coll_hxb_ctx_fini(&c);
    mca_coll_hxb_count(MCA_COLL_HXB_BCAST);
    return rc;
}
