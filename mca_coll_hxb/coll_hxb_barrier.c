/* Barrier: locals check in with their leader; leaders exchange empty
 * messages with every peer of their X line, then Y, then Z (after the last
 * step every leader knows every node arrived); leaders release locals. */
#include "coll_hxb.h"

int mca_coll_hxb_barrier_do(mca_coll_hxb_ctx_t *c)
{
    mca_coll_hxb_module_t *m = c->m;
    int first = m->node_first[m->my_node], nloc = m->node_first[m->my_node + 1] - first;
    int rc = OMPI_SUCCESS;

    if (c->rank != m->leader) {
        if (OMPI_SUCCESS != (rc = mca_coll_hxb_isend(c, NULL, 0, MPI_BYTE, m->leader)) ||
            OMPI_SUCCESS != (rc = mca_coll_hxb_waitall(c))) return rc;
        return mca_coll_hxb_node_bcast(c, NULL, 0, MPI_BYTE, -1);
    }
    for (int i = 1; i < nloc && OMPI_SUCCESS == rc; i++) {
        rc = mca_coll_hxb_irecv(c, NULL, 0, MPI_BYTE, m->node_ranks[first + i]);
    }
    if (OMPI_SUCCESS != rc || OMPI_SUCCESS != (rc = mca_coll_hxb_waitall(c))) return rc;
    for (int d = 0; d < MCA_COLL_HXB_DIMS; d++) {
        for (int j = 0; j < m->dimsz[d] && OMPI_SUCCESS == rc; j++) {
            if (j == m->my_idx[d]) continue;
            int peer = mca_coll_hxb_line_peer(m, d, j);
            rc = mca_coll_hxb_irecv(c, NULL, 0, MPI_BYTE, peer);
            if (OMPI_SUCCESS == rc) rc = mca_coll_hxb_isend(c, NULL, 0, MPI_BYTE, peer);
        }
        if (OMPI_SUCCESS != rc || OMPI_SUCCESS != (rc = mca_coll_hxb_waitall(c))) return rc;
    }
    return mca_coll_hxb_node_bcast(c, NULL, 0, MPI_BYTE, -1);
}

int mca_coll_hxb_barrier(ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_hxb_module_t *m = (mca_coll_hxb_module_t *)module;
    if (!mca_coll_hxb_ready(m, comm, true)) {
        mca_coll_hxb_count(MCA_COLL_HXB_FALLBACK);
        return m->prev.coll_barrier(comm, m->prev.coll_barrier_module);
    }
    mca_coll_hxb_ctx_t c;
    mca_coll_hxb_ctx_init(&c, m, comm, MCA_COLL_BASE_TAG_BARRIER);
    int rc = mca_coll_hxb_barrier_do(&c);
    mca_coll_hxb_ctx_fini(&c);
    mca_coll_hxb_count(MCA_COLL_HXB_BARRIER);
    return rc;
}
