/* Allgather on packed bytes, in node order (node index, then rank within
 * the node): leaders collect their locals' blocks; along X a leader swaps
 * its node's blocks with its line, along Y the X line's blocks, along Z the
 * XY plane's (always one contiguous range of node indices); leaders send
 * the whole set to their locals; every rank unpacks into rank order. */
#include "coll_hxb.h"
#include <stdlib.h>
#include <string.h>

/* Node indices held before step d: my coordinates in dims >= d, any below */
static void held_range(const mca_coll_hxb_module_t *m, int d, int j, int *lo, int *hi)
{
    int idx[MCA_COLL_HXB_DIMS] = { m->my_idx[0], m->my_idx[1], m->my_idx[2] }, span = 1;
    idx[d] = j;
    for (int e = 0; e < d; e++) { idx[e] = 0; span *= m->dimsz[e]; }
    *lo = mca_coll_hxb_node_index(m, idx);
    *hi = *lo + span;
}

int mca_coll_hxb_allgather(const void *sbuf, int scount, ompi_datatype_t *sdt,
                           void *rbuf, int rcount, ompi_datatype_t *rdt,
                           ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_hxb_module_t *m = (mca_coll_hxb_module_t *)module;
    if (!mca_coll_hxb_ready(m, comm)) {
        mca_coll_hxb_count(MCA_COLL_HXB_FALLBACK);
        return m->prev.coll_allgather(sbuf, scount, sdt, rbuf, rcount, rdt, comm,
                                      m->prev.coll_allgather_module);
    }
    int size = ompi_comm_size(comm), rank = ompi_comm_rank(comm), rc = OMPI_SUCCESS;
    size_t tsize, bs;
    ptrdiff_t lb, ext;
    ompi_datatype_type_size(rdt, &tsize);
    ompi_datatype_get_extent(rdt, &lb, &ext);
    bs = tsize * (size_t)rcount;
    mca_coll_hxb_count(MCA_COLL_HXB_ALLGATHER);
    if (0 == bs) return OMPI_SUCCESS;

    mca_coll_hxb_ctx_t c;
    mca_coll_hxb_ctx_init(&c, m, comm, MCA_COLL_BASE_TAG_ALLGATHER);
    char *all = malloc(bs * size);
    char *myblk = (char *)rbuf + (ptrdiff_t)rank * rcount * ext;
    int first = m->node_first[m->my_node], nloc = m->node_first[m->my_node + 1] - first;
    int myslot = -1;
    for (int q = first; q < first + nloc; q++) if (m->node_ranks[q] == rank) myslot = q;
    if (NULL == all) { rc = OMPI_ERR_OUT_OF_RESOURCE; goto out; }
    /* my block, packed, at my slot */
    if (MPI_IN_PLACE == sbuf) mca_coll_hxb_pack(myblk, rcount, rdt, all + myslot * bs, bs);
    else mca_coll_hxb_pack(sbuf, scount, sdt, all + myslot * bs, bs);

    if (rank != m->leader) {
        rc = mca_coll_hxb_isend(&c, all + myslot * bs, bs, MPI_BYTE, m->leader);
        if (OMPI_SUCCESS == rc) rc = mca_coll_hxb_waitall(&c);
    } else {
        for (int q = first + 1; q < first + nloc && OMPI_SUCCESS == rc; q++) {
            rc = mca_coll_hxb_irecv(&c, all + q * bs, bs, MPI_BYTE, m->node_ranks[q]);
        }
        int rc2 = mca_coll_hxb_waitall(&c);
        if (OMPI_SUCCESS == rc) rc = rc2;
        for (int d = 0; d < MCA_COLL_HXB_DIMS && OMPI_SUCCESS == rc; d++) {
            int lo, hi;
            if (m->dimsz[d] < 2) continue;
            held_range(m, d, m->my_idx[d], &lo, &hi);
            char *mine = all + (size_t)m->node_first[lo] * bs;
            size_t mylen = (size_t)(m->node_first[hi] - m->node_first[lo]) * bs;
            for (int j = 0; j < m->dimsz[d] && OMPI_SUCCESS == rc; j++) {
                if (j == m->my_idx[d]) continue;
                int peer = mca_coll_hxb_line_peer(m, d, j);
                held_range(m, d, j, &lo, &hi);
                rc = mca_coll_hxb_irecv(&c, all + (size_t)m->node_first[lo] * bs,
                                        (size_t)(m->node_first[hi] - m->node_first[lo]) * bs,
                                        MPI_BYTE, peer);
                if (OMPI_SUCCESS == rc) rc = mca_coll_hxb_isend(&c, mine, mylen, MPI_BYTE, peer);
            }
            rc2 = mca_coll_hxb_waitall(&c);
            if (OMPI_SUCCESS == rc) rc = rc2;
        }
    }
    if (OMPI_SUCCESS == rc) rc = mca_coll_hxb_node_bcast(&c, all, bs * size, MPI_BYTE, -1);
    if (OMPI_SUCCESS == rc) {
        for (int q = 0; q < size; q++) {
            int r = m->node_ranks[q];
            if (r == rank && MPI_IN_PLACE == sbuf) continue;
            mca_coll_hxb_unpack(all + q * bs, bs, (char *)rbuf + (ptrdiff_t)r * rcount * ext, rcount, rdt);
        }
    }
out:
    free(all);
    mca_coll_hxb_ctx_fini(&c);
    return rc;
}
