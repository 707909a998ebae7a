/* Alltoall for large blocks: every rank sends each block straight from the
 * user's buffer to its target and receives straight into place, all pairs
 * at once (in windows), no leader and no copies. Blocks to nodes off this
 * node's lines go through hxb's relays (hxb-relayd forwards them in the
 * kernel), which costs less than the routed schedule's forwarding through
 * the leaders' user space once blocks are large: the routed schedule moves
 * a block once per dimension in which source and target differ, and copies
 * it at every step. Rank i sends to i+1, i+2, ... and receives from i-1,
 * i-2, ..., so the ranks do not all start on the same target. */
#include "coll_hxb.h"
#include <stdlib.h>

#define WINDOW 32     /* pairs in flight: bounds the requests at large P */

int mca_coll_hxb_alltoall_direct(mca_coll_hxb_ctx_t *c, const void *sbuf, int scount,
                                 ompi_datatype_t *sdt, void *rbuf, int rcount,
                                 ompi_datatype_t *rdt)
{
    int P = ompi_comm_size(c->comm), me = c->rank, rc = OMPI_SUCCESS;
    ptrdiff_t lb, sext, rext;
    char *copy = NULL, *craw = NULL;

    ompi_datatype_get_extent(rdt, &lb, &rext);
    if (MPI_IN_PLACE == sbuf) {
        /* the blocks to send are overwritten by the ones received: send from a copy */
        copy = mca_coll_hxb_tmp(rdt, (size_t)rcount * P, &craw);
        if (NULL == copy) return OMPI_ERR_OUT_OF_RESOURCE;
        rc = ompi_datatype_copy_content_same_ddt(rdt, (size_t)rcount * P, copy, rbuf);
        if (OMPI_SUCCESS != rc) goto out;
        sbuf = copy;
        sdt = rdt;
        scount = rcount;
    }
    ompi_datatype_get_extent(sdt, &lb, &sext);
    rc = ompi_datatype_sndrcv((const char *)sbuf + (ptrdiff_t)me * scount * sext, scount, sdt,
                              (char *)rbuf + (ptrdiff_t)me * rcount * rext, rcount, rdt);
    for (int i0 = 1; i0 < P && OMPI_SUCCESS == rc; i0 += WINDOW) {
        for (int i = i0; i < i0 + WINDOW && i < P && OMPI_SUCCESS == rc; i++) {
            int from = (me - i + P) % P, to = (me + i) % P;
            rc = mca_coll_hxb_irecv(c, (char *)rbuf + (ptrdiff_t)from * rcount * rext, rcount, rdt, from);
            if (OMPI_SUCCESS == rc) {
                rc = mca_coll_hxb_isend(c, (const char *)sbuf + (ptrdiff_t)to * scount * sext,
                                        scount, sdt, to);
            }
        }
        int rc2 = mca_coll_hxb_waitall(c);   /* also after an error: no request left on our buffers */
        if (OMPI_SUCCESS == rc) rc = rc2;
    }
out:
    free(craw);
    return rc;
}
