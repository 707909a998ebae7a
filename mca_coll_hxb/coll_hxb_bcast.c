/* Bcast: the root hands the data to its node's leader; along X the root
 * node's line gets it, then along Y every node of the root's XY plane
 * passes it on its Y line, then Z; leaders fan out to their locals.
 * From PIECES_MIN bytes the data is cut into one piece per dimension (in
 * bytes: ranks may pass different datatypes of one signature) and
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

    size_t dsize;
    ompi_datatype_type_size(dt, &dsize);
    if (0 == (size_t)count * dsize) return OMPI_SUCCESS;   /* bytes: counts may differ */
    mca_coll_hxb_node_coords(m, rnode, ridx);
    if (root != rleader) {
        if (c->rank == root) rc = mca_coll_hxb_isend(c, buf, count, dt, rleader);
        else if (c->rank == rleader) rc = mca_coll_hxb_irecv(c, buf, count, dt, root);
        if (OMPI_SUCCESS != rc || OMPI_SUCCESS != (rc = mca_coll_hxb_waitall(c))) return rc;
    }
    if (c->rank == m->leader) {
        int dims[MCA_COLL_HXB_DIMS], k = mca_coll_hxb_line_dims(m, dims), np;
        size_t total = (size_t)count;
        ptrdiff_t lb, ext, unit;
        ompi_datatype_t *pdt = dt;
        char *base = buf, *tmp = NULL;
        bool have = m->my_node == rnode;    /* the root's leader has the data */
        ompi_datatype_get_extent(dt, &lb, &ext);
        unit = ext;
        np = mca_coll_hxb_dim_pieces(k, (size_t)count * dsize);
        if (np > 1) {
            /* pieces cut in bytes: ranks may describe the same bytes with
             * different (count, datatype) pairs of one type signature */
            ptrdiff_t tlb, text;
            total = (size_t)count * dsize;
            pdt = MPI_BYTE;
            unit = 1;
            ompi_datatype_get_true_extent(dt, &tlb, &text);
            if (ompi_datatype_is_contiguous_memory_layout(dt, count)) {
                base = (char *)buf + tlb;
            } else if (NULL == (base = tmp = malloc(total))) {
                return OMPI_ERR_OUT_OF_RESOURCE;
            } else if (have) {
                mca_coll_hxb_pack(buf, count, dt, tmp, total);
            }
        }
        for (int i = 0; i < k; i++) {      /* step i: piece p along dims[(p+i)%k] */
            for (int p = 0; p < np && OMPI_SUCCESS == rc; p++) {
                int d = dims[(p + i) % k];
                size_t lo = mca_coll_hxb_part(0, total, np, p);
                size_t n = mca_coll_hxb_part(0, total, np, p + 1) - lo;
                char *pb = base + (ptrdiff_t)lo * unit;
                /* taking part: nodes matching the root in the dimensions
                 * this piece visits after d */
                bool in = true;
                for (int e = i + 1; e < k; e++) in = in && m->my_idx[dims[(p + e) % k]] == ridx[dims[(p + e) % k]];
                if (!in) continue;
                if (m->my_idx[d] == ridx[d]) {
                    for (int j = 0; j < m->dimsz[d] && OMPI_SUCCESS == rc; j++) {
                        if (j != ridx[d]) rc = mca_coll_hxb_isend(c, pb, n, pdt, mca_coll_hxb_line_peer(m, d, j));
                    }
                } else {
                    rc = mca_coll_hxb_irecv(c, pb, n, pdt, mca_coll_hxb_line_peer(m, d, ridx[d]));
                }
            }
            int rc2 = mca_coll_hxb_waitall(c);   /* also after an error: no request left on buf */
            if (OMPI_SUCCESS == rc) rc = rc2;
            if (OMPI_SUCCESS != rc) break;
        }
        if (NULL != tmp) {
            if (OMPI_SUCCESS == rc && !have) mca_coll_hxb_unpack(tmp, total, buf, count, dt);
            free(tmp);
        }
        if (OMPI_SUCCESS != rc) return rc;
    }
    return mca_coll_hxb_node_bcast(c, buf, count, dt, root);
}

int mca_coll_hxb_bcast(void *buf, int count, ompi_datatype_t *dt, int root,
                       ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_hxb_module_t *m = (mca_coll_hxb_module_t *)module;
    if (!mca_coll_hxb_ready(m, comm, true)) {
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
