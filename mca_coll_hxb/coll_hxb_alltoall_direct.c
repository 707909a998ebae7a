/* Alltoall for large blocks: every rank sends each block straight from the
 * user's buffer to its target and receives straight into place, pairs in
 * rounds (below), no leader and no copies. Blocks to nodes off this
 * node's lines go through hxb's relays (hxb-relayd forwards them in the
 * kernel), which costs less than the routed schedule's forwarding through
 * the leaders' user space once blocks are large: the routed schedule moves
 * a block once per dimension in which source and target differ, and copies
 * it at every step.
 *
 * Posting every pair at once makes every node's ingress ports an incast
 * point (7 flows into 3 ports on 2x2x2) and their queues overflow. Instead
 * the pairs go in rounds by distance, the number of dimensions in which
 * the two nodes differ (0: same node, vader): in round 1 a node on 2x2x2
 * exchanges with its 3 line neighbours, one per rail, so every port
 * carries exactly one flow; in round 2 with the 3 nodes two dimensions
 * away, whose two hops load each rail with two flows (own and relayed);
 * in round 3 with the opposite corner, striped over the three dimension
 * orders: 1 + 2 + 1 block-times, the link-load bound of 4. Within a
 * round rank i sends to i+1, i+2, ... and receives from i-1, i-2, ...,
 * so the ranks do not all start on the same target. */
#include "coll_hxb.h"
#include <stdlib.h>

#define WINDOW 32     /* pairs in flight: bounds the requests at large P */
/* bytes per block from which the rounds pay: below, their waits cost more
 * than the incast (4 KiB at 200 Mbit/s: 0.9x of all at once, 8-16 KiB:
 * 1.0-1.4x) */
#define ROUNDS_MIN 8192

/* dimensions in which rank r's node and mine differ */
static int distance(const mca_coll_hxb_module_t *m, int r)
{
    int dist = 0;
    for (int d = 0; d < MCA_COLL_HXB_DIMS; d++) {
        dist += mca_coll_hxb_node_coord(m, m->rank_node[r], d) != m->my_idx[d];
    }
    return dist;
}

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
    /* My send to me+i and its receive at me+i (from me) are posted in the
     * same round (distance is symmetric) and the same window of i, on
     * both sides, so no wait depends on a request not yet posted. */
    size_t bytes;
    ompi_datatype_type_size(rdt, &bytes);
    bool rounds = bytes * (size_t)rcount >= ROUNDS_MIN;
    for (int dist = 0; dist <= (rounds ? MCA_COLL_HXB_DIMS : 0) && OMPI_SUCCESS == rc; dist++) {
        for (int i = 1; i < P && OMPI_SUCCESS == rc; i++) {
            int from = (me - i + P) % P, to = (me + i) % P;
            if (!rounds || distance(c->m, from) == dist) {
                rc = mca_coll_hxb_irecv(c, (char *)rbuf + (ptrdiff_t)from * rcount * rext,
                                        rcount, rdt, from);
            }
            if (OMPI_SUCCESS == rc && (!rounds || distance(c->m, to) == dist)) {
                rc = mca_coll_hxb_isend(c, (const char *)sbuf + (ptrdiff_t)to * scount * sext,
                                        scount, sdt, to);
            }
            if (0 == i % WINDOW || i == P - 1) {
                int rc2 = mca_coll_hxb_waitall(c);   /* also after an error: no request left on our buffers */
                if (OMPI_SUCCESS == rc) rc = rc2;
            }
        }
    }
    int rc2 = mca_coll_hxb_waitall(c);       /* after an error mid-window */
    if (OMPI_SUCCESS == rc) rc = rc2;
out:
    free(craw);
    return rc;
}
