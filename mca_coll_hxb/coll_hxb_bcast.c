/* Bcast: the root hands the data to its node's leader; along X the root
 * node's line gets it, then along Y every node of the root's XY plane
 * passes it on its Y line, then Z; leaders fan out to their locals. */
#include "coll_hxb.h"

int mca_coll_hxb_bcast_do(mca_coll_hxb_ctx_t *c, void *buf, int count,
                          ompi_datatype_t *dt, int root)
{
    mca_coll_hxb_module_t *m = c->m;
    int rc = OMPI_SUCCESS;
    int rnode = m->rank_node[root], rleader = mca_coll_hxb_node_leader(m, rnode);
    int ridx[MCA_COLL_HXB_DIMS], rest = rnode;

    if (0 == count) return OMPI_SUCCESS;
    for (int d = 0; d < MCA_COLL_HXB_DIMS; d++) {
        ridx[d] = rest % m->dimsz[d];
        rest /= m->dimsz[d];
    }
    if (root != rleader) {
        if (c->rank == root) rc = mca_coll_hxb_isend(c, buf, count, dt, rleader);
        else if (c->rank == rleader) rc = mca_coll_hxb_irecv(c, buf, count, dt, root);
        if (OMPI_SUCCESS != rc || OMPI_SUCCESS != (rc = mca_coll_hxb_waitall(c))) return rc;
    }
    if (c->rank == m->leader) {
        for (int d = 0; d < MCA_COLL_HXB_DIMS; d++) {
            /* taking part in step d: nodes matching the root in dims > d */
            bool in = true;
            for (int e = d + 1; e < MCA_COLL_HXB_DIMS; e++) in = in && m->my_idx[e] == ridx[e];
            if (!in || m->dimsz[d] < 2) continue;
            if (m->my_idx[d] == ridx[d]) {
                for (int j = 0; j < m->dimsz[d] && OMPI_SUCCESS == rc; j++) {
                    if (j != ridx[d]) rc = mca_coll_hxb_isend(c, buf, count, dt, mca_coll_hxb_line_peer(m, d, j));
                }
            } else {
                rc = mca_coll_hxb_irecv(c, buf, count, dt, mca_coll_hxb_line_peer(m, d, ridx[d]));
            }
            if (OMPI_SUCCESS != rc || OMPI_SUCCESS != (rc = mca_coll_hxb_waitall(c))) return rc;
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
