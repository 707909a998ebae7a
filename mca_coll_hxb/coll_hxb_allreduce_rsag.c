/* Bandwidth-optimal Allreduce between node leaders: reduce-scatter along
 * each dimension's line in turn, then allgather back in reverse order.
 * After the reduce-scatter in dimension d a leader holds the line's sum of
 * 1/n_d of its segment; over X, Y and Z it ends with 1/N of the vector
 * reduced over all nodes, and the allgathers rebuild the whole. A leader
 * sends 2(n_d-1)/n_d of the current segment per dimension, about 2x the
 * vector in total, instead of (n_d-1)x the whole vector per dimension.
 *
 * The vector is cut into pieces that run independently (each piece's step
 * depends only on its own previous step), so the reduction of one piece
 * overlaps the transfers of the others. Piece p visits the dimensions in a
 * rotated order (p, p+1, ... mod k), so at any moment every dimension's
 * rails carry some piece, not only X's.
 *
 * Each element is reduced on one node only and copied everywhere else, so
 * every rank gets the same bits. Requests are posted in an order that only
 * depends on the layout and the count (piece by piece, step by step), so
 * both ends of a line match them with one tag. */
#include "coll_hxb.h"
#include <stdlib.h>

typedef struct {
    size_t lo, hi;                       /* elements of the piece */
    size_t seg_lo[MCA_COLL_HXB_DIMS];    /* segment before RS step s */
    size_t seg_hi[MCA_COLL_HXB_DIMS];
    size_t tmp;                          /* first element of its receive area */
    int    nreq;
    ompi_request_t **reqs;               /* 2 (n_max-1) slots */
} piece_t;

static char *elem(void *buf, ptrdiff_t ext, size_t i)
{
    return (char *)buf + (ptrdiff_t)i * ext;
}

/* Post step s (0..2k-1) of piece p: RS steps 0..k-1 over dims[(p+s)%k],
 * then AG steps k..2k-1 over the same dimensions in reverse. */
static int start_step(mca_coll_hxb_ctx_t *c, piece_t *pc, int pidx, int s, const int *dims,
                      int k, char *buf, char *tmp, ptrdiff_t ext, ompi_datatype_t *dt)
{
    mca_coll_hxb_module_t *m = c->m;
    int rs = s < k, i = rs ? s : 2 * k - 1 - s, d = dims[(pidx + i) % k];
    int n = m->dimsz[d], me = m->my_idx[d], rc = OMPI_SUCCESS;
    size_t lo, hi, off = pc->tmp;

    if (rs) {
        lo = pc->seg_lo[i] = (0 == i) ? pc->lo : mca_coll_hxb_part(pc->seg_lo[i - 1], pc->seg_hi[i - 1],
                                                       m->dimsz[dims[(pidx + i - 1) % k]],
                                                       m->my_idx[dims[(pidx + i - 1) % k]]);
        hi = pc->seg_hi[i] = (0 == i) ? pc->hi : mca_coll_hxb_part(pc->seg_lo[i - 1], pc->seg_hi[i - 1],
                                                       m->dimsz[dims[(pidx + i - 1) % k]],
                                                       m->my_idx[dims[(pidx + i - 1) % k]] + 1);
    } else {
        lo = pc->seg_lo[i];
        hi = pc->seg_hi[i];
    }
    size_t mlo = mca_coll_hxb_part(lo, hi, n, me), mhi = mca_coll_hxb_part(lo, hi, n, me + 1);
    pc->nreq = 0;
    for (int j = 0; j < n && OMPI_SUCCESS == rc; j++) {
        if (j == me) continue;
        int peer = mca_coll_hxb_line_peer(m, d, j);
        size_t jlo = mca_coll_hxb_part(lo, hi, n, j), jhi = mca_coll_hxb_part(lo, hi, n, j + 1);
        if (rs) {      /* peer j's copy of my part in; my copy of its part out */
            rc = mca_coll_hxb_post(c, pc->reqs, &pc->nreq, elem(tmp, ext, off), mhi - mlo, dt, peer, 1);
            off += mhi - mlo;
            if (OMPI_SUCCESS == rc) rc = mca_coll_hxb_post(c, pc->reqs, &pc->nreq, elem(buf, ext, jlo), jhi - jlo, dt, peer, 0);
        } else {       /* its reduced part in; my reduced part out */
            rc = mca_coll_hxb_post(c, pc->reqs, &pc->nreq, elem(buf, ext, jlo), jhi - jlo, dt, peer, 1);
            if (OMPI_SUCCESS == rc) rc = mca_coll_hxb_post(c, pc->reqs, &pc->nreq, elem(buf, ext, mlo), mhi - mlo, dt, peer, 0);
        }
    }
    return rc;
}

/* Step s of piece p done: after an RS step, reduce the received copies into
 * my part (in line order from n-1 down, like the small schedule). */
static int finish_step(mca_coll_hxb_ctx_t *c, piece_t *pc, int pidx, int s, const int *dims,
                       int k, char *buf, char *tmp, ptrdiff_t ext, ompi_datatype_t *dt, ompi_op_t *op)
{
    mca_coll_hxb_module_t *m = c->m;
    int rc = OMPI_SUCCESS;
    rc = mca_coll_hxb_wait_reqs(c, pc->nreq, pc->reqs);
    pc->nreq = 0;
    if (OMPI_SUCCESS != rc || s >= k) return rc;
    int d = dims[(pidx + s) % k], n = m->dimsz[d], me = m->my_idx[d];
    size_t mlo = mca_coll_hxb_part(pc->seg_lo[s], pc->seg_hi[s], n, me);
    size_t len = mca_coll_hxb_part(pc->seg_lo[s], pc->seg_hi[s], n, me + 1) - mlo;
    if (0 == len) return OMPI_SUCCESS;
    for (int j = n - 1; j >= 0; j--) {
        if (j == me) continue;
        size_t slot = pc->tmp + (size_t)(j < me ? j : j - 1) * len;
        ompi_op_reduce(op, elem(tmp, ext, slot), elem(buf, ext, mlo), (int)len, dt);
    }
    return OMPI_SUCCESS;
}

int mca_coll_hxb_allreduce_rsag(mca_coll_hxb_ctx_t *c, void *buf, int count,
                                ompi_datatype_t *dt, ompi_op_t *op)
{
    mca_coll_hxb_module_t *m = c->m;
    int dims[MCA_COLL_HXB_DIMS], k = mca_coll_hxb_line_dims(m, dims), rc = OMPI_SUCCESS;
    int nmax = mca_coll_hxb_max_line(m);
    size_t dsize;
    long segsize = c->tune.segsize;
    ptrdiff_t lb, ext;

    if (0 == k || count <= 0) return OMPI_SUCCESS;
    ompi_datatype_type_size(dt, &dsize);
    ompi_datatype_get_extent(dt, &lb, &ext);
    /* segsize 0: from MCA_COLL_HXB_PIECES_MIN bytes, one piece per dimension, so every
     * dimension's rails carry a piece from the first step on (Rabenseifner's
     * schedule along the lines as one piece uses one dimension at a time: a
     * third of the rails on a 3-D grid, and 4x slower where rails, not
     * CPUs, bound it); below, one piece (round trips cost more than the
     * rails add). segsize > 0: pieces of about segsize bytes, a multiple of
     * k; a vector of at most segsize bytes is one piece. segsize < 0: one
     * piece. At most one piece per element. */
    size_t bytes = (size_t)count * dsize, np;
    if (0 == segsize) np = (size_t)mca_coll_hxb_dim_pieces(k, bytes);
    else np = segsize > 0 ? (bytes + segsize - 1) / segsize : 1;
    if (np > 1) np = ((np + k - 1) / k) * k;
    if (np > (size_t)count) np = (size_t)count;
    if (np > 4096) np = 4096;    /* bounds the request table */

    piece_t *pcs = calloc(np, sizeof(*pcs));
    ompi_request_t **reqs = calloc(np * 2 * (nmax - 1), sizeof(*reqs));
    /* a receive area per piece: its length plus slack for rounding of parts */
    char *traw = NULL, *tmp = mca_coll_hxb_tmp(dt, (size_t)count + np * nmax, &traw);
    if (NULL == pcs || NULL == reqs || NULL == tmp) { rc = OMPI_ERR_OUT_OF_RESOURCE; goto out; }
    size_t toff = 0;
    for (size_t p = 0; p < np; p++) {
        pcs[p].lo = mca_coll_hxb_part(0, count, (int)np, (int)p);
        pcs[p].hi = mca_coll_hxb_part(0, count, (int)np, (int)p + 1);
        pcs[p].tmp = toff;
        toff += pcs[p].hi - pcs[p].lo + nmax;
        pcs[p].reqs = reqs + p * 2 * (nmax - 1);
    }
    /* every piece's first step, then in a fixed order: finish a piece's
     * step, start its next; the others progress meanwhile */
    for (size_t p = 0; p < np && OMPI_SUCCESS == rc; p++) {
        rc = start_step(c, &pcs[p], (int)p, 0, dims, k, buf, tmp, ext, dt);
    }
    for (int s = 0; s < 2 * k && OMPI_SUCCESS == rc; s++) {
        for (size_t p = 0; p < np && OMPI_SUCCESS == rc; p++) {
            rc = finish_step(c, &pcs[p], (int)p, s, dims, k, buf, tmp, ext, dt, op);
            if (OMPI_SUCCESS == rc && s + 1 < 2 * k) {
                rc = start_step(c, &pcs[p], (int)p, s + 1, dims, k, buf, tmp, ext, dt);
            }
        }
    }
    if (OMPI_SUCCESS != rc) {       /* do not leave requests on our buffers */
        for (size_t p = 0; p < np; p++) {
            (void)mca_coll_hxb_wait_reqs(c, pcs[p].nreq, pcs[p].reqs);
        }
    }
out:
    free(traw);
    free(reqs);
    free(pcs);
    return rc;
}
