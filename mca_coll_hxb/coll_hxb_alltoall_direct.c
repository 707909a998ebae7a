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
 * the pairs go in rounds. A round is a set of node offsets o (target node
 * = my node + o, per dimension, modulo the communicator's extent there):
 * in a round every node sends to one node per offset and receives from
 * one, so a port carries one flow per offset that starts (or ends) on it.
 * Offsets are ordered by distance, the number of dimensions in which they
 * are not 0 (0: same node, vader), and within a distance one round takes
 * one offset of each support (the set of dimensions they change): those
 * leave on different ports. On 2x2x2 that is the same node, then the 3
 * line neighbours (one per rail), then the 3 nodes two dimensions away
 * (two hops: each rail carries two flows, own and relayed), then the
 * opposite corner striped over the three dimension orders: 1 + 2 + 1
 * block-times, the link-load bound of 4. On a line of 4 nodes the
 * offsets +1, +2, +3 go in rounds of their own, pairwise, where one round
 * of 3 flows into each port overflowed its queue (0.76-0.82x tuned at
 * 512 KiB). Within a round rank i sends to i+1, i+2, ... and receives
 * from i-1, i-2, ..., so the ranks do not all start on the same target. */
#include "coll_hxb.h"
#include <stdlib.h>

#define WINDOW 32     /* pairs in flight: bounds the requests at large P */
/* bytes per block from which the rounds pay: below, their waits cost more
 * than the incast (4 KiB at 200 Mbit/s: 0.9x of all at once, 8-16 KiB:
 * 1.0-1.4x) */
#define ROUNDS_MIN 8192

/* base[d]: the first round of distance d; base[DIMS + 1]: how many there
 * are. Distance d takes as many rounds as its support with the most
 * offsets has (a support: the set of dimensions an offset changes). */
static void round_bases(const mca_coll_hxb_module_t *m, int base[MCA_COLL_HXB_DIMS + 2])
{
    base[0] = 0;
    base[1] = 1;
    for (int d = 1; d <= MCA_COLL_HXB_DIMS; d++) {
        int most = 0;
        for (unsigned S = 1; S < 1u << MCA_COLL_HXB_DIMS; S++) {
            int cnt = 1, size = 0;
            for (int i = 0; i < MCA_COLL_HXB_DIMS; i++) {
                if (S & (1u << i)) {
                    size++;
                    cnt *= m->dimsz[i] - 1;
                }
            }
            if (size == d && cnt > most) most = cnt;
        }
        base[d + 1] = base[d] + most;
    }
}

/* The round of the exchange from node a to node b (see above): within
 * its distance, an offset's index among the offsets of its support, the
 * nonzero components o_i - 1 read as digits of radix n_i - 1. */
static int round_of(const mca_coll_hxb_module_t *m, const int *base, int a, int b)
{
    int dist = 0, k = 0, radix = 1;

    for (int i = 0; i < MCA_COLL_HXB_DIMS; i++) {
        int n = m->dimsz[i];
        int o = (mca_coll_hxb_node_coord(m, b, i) - mca_coll_hxb_node_coord(m, a, i) + n) % n;
        if (o) {
            dist++;
            k += (o - 1) * radix;
            radix *= n - 1;
        }
    }
    return base[dist] + k;
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
     * same round (both take it from the offset of my node to its node)
     * and the same window of i, so no wait depends on a request not yet
     * posted. */
    size_t bytes;
    ompi_datatype_type_size(rdt, &bytes);
    bool rounds = bytes * (size_t)rcount >= ROUNDS_MIN;
    int nrounds = 1, *rto = NULL, *rfrom = NULL;
    if (rounds) {
        rto = malloc(2 * sizeof(int) * (size_t)P);
        if (NULL == rto) {
            rc = OMPI_ERR_OUT_OF_RESOURCE;
            goto out;
        }
        int base[MCA_COLL_HXB_DIMS + 2], me_node = c->m->rank_node[me];
        round_bases(c->m, base);
        nrounds = base[MCA_COLL_HXB_DIMS + 1];
        rfrom = rto + P;
        for (int i = 1; i < P; i++) {
            int from = (me - i + P) % P, to = (me + i) % P;
            rto[i] = round_of(c->m, base, me_node, c->m->rank_node[to]);
            rfrom[i] = round_of(c->m, base, c->m->rank_node[from], me_node);
        }
    }
    for (int rnd = 0; rnd < nrounds && OMPI_SUCCESS == rc; rnd++) {
        for (int i = 1; i < P && OMPI_SUCCESS == rc; i++) {
            int from = (me - i + P) % P, to = (me + i) % P;
            if (!rounds || rfrom[i] == rnd) {
                rc = mca_coll_hxb_irecv(c, (char *)rbuf + (ptrdiff_t)from * rcount * rext,
                                        rcount, rdt, from);
            }
            if (OMPI_SUCCESS == rc && (!rounds || rto[i] == rnd)) {
                rc = mca_coll_hxb_isend(c, (const char *)sbuf + (ptrdiff_t)to * scount * sext,
                                        scount, sdt, to);
            }
            if (0 == i % WINDOW || i == P - 1) {
                int rc2 = mca_coll_hxb_waitall(c);   /* also after an error: no request left on our buffers */
                if (OMPI_SUCCESS == rc) rc = rc2;
            }
        }
    }
    free(rto);
    int rc2 = mca_coll_hxb_waitall(c);       /* after an error mid-window */
    if (OMPI_SUCCESS == rc) rc = rc2;
out:
    free(craw);
    return rc;
}
