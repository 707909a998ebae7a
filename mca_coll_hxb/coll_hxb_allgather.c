/* Allgather on packed bytes, in node order (node index, then rank within
 * the node): leaders collect their locals' blocks; along each line dimension
 * in turn a leader swaps what it holds with its line (recursive doubling by
 * dimension: first its node's blocks, then its line's, then its plane's);
 * leaders send the whole set to their locals; every rank unpacks into rank
 * order.
 *
 * One dimension at a time leaves the other dimensions' rails idle, so from
 * coll_hxb_allgather_pieces_min bytes per block every node's blocks are cut
 * into one piece per dimension and piece p visits the dimensions in the
 * order rotated by p (X,Y,Z; Y,Z,X; Z,X,Y): in every step each dimension's
 * rails carry a third of the data. Each piece is gathered in a buffer of
 * its own whose node order has the dimensions it visits first varying
 * fastest, so what a leader holds before a step, and swaps, is always one
 * contiguous range of it; the pieces are reassembled at the end (one copy
 * of the result). With one piece that order is the node order itself and
 * the result buffer serves directly. Each piece moves on to its next step
 * as soon as its own step is done, as in the reduce-scatter Allreduce. */
#include "coll_hxb.h"
#include <stdlib.h>
#include <string.h>

typedef struct {
    int     ord[MCA_COLL_HXB_DIMS];       /* line dimensions, in visiting order */
    int     stride[MCA_COLL_HXB_DIMS + 1];/* position stride of ord[i]; [k]: nodes */
    int    *node_at;                      /* position -> node index */
    size_t *off;                          /* position -> byte offset in buf; [nnodes]: end */
    char   *buf;
    ompi_request_t **reqs;                /* 2 (n_max - 1) slots */
    int     nreq;
} piece_t;

/* This node's position in piece pc with coordinate j in ord[i] and 0 in the
 * dimensions visited before ord[i]: the first of the range it holds then */
static int held_first(const mca_coll_hxb_module_t *m, const piece_t *pc, int k, int i, int j)
{
    int pos = j * pc->stride[i];
    for (int e = i + 1; e < k; e++) pos += m->my_idx[pc->ord[e]] * pc->stride[e];
    return pos;
}

/* Bytes [lo, hi) of node n's contribution that piece p of np carries */
static void node_part(const mca_coll_hxb_module_t *m, size_t bs, int n, int np, int p,
                      size_t *lo, size_t *hi)
{
    size_t a = (size_t)m->node_first[n] * bs, b = (size_t)m->node_first[n + 1] * bs;
    *lo = mca_coll_hxb_part(a, b, np, p);
    *hi = mca_coll_hxb_part(a, b, np, p + 1);
}

/* Lay out piece p: visiting order dims rotated by p, positions, offsets */
static void piece_layout(const mca_coll_hxb_module_t *m, piece_t *pc, const int *dims, int k,
                         int np, int p, size_t bs)
{
    pc->stride[0] = 1;
    for (int i = 0; i < k; i++) {
        pc->ord[i] = dims[(p + i) % k];
        pc->stride[i + 1] = pc->stride[i] * m->dimsz[pc->ord[i]];
    }
    for (int n = 0; n < m->nnodes; n++) {
        int pos = 0;
        for (int i = 0; i < k; i++) pos += mca_coll_hxb_node_coord(m, n, pc->ord[i]) * pc->stride[i];
        pc->node_at[pos] = n;
    }
    pc->off[0] = 0;
    for (int pos = 0; pos < m->nnodes; pos++) {
        size_t lo, hi;
        node_part(m, bs, pc->node_at[pos], np, p, &lo, &hi);
        pc->off[pos + 1] = pc->off[pos] + (hi - lo);
    }
}

/* Copy this node's (to = 1) or every node's (to = 0) parts between the
 * node-ordered result and the pieces */
static void pieces_copy(const mca_coll_hxb_module_t *m, piece_t *pcs, int np, size_t bs,
                        char *all, int to)
{
    for (int p = 0; p < np; p++) {
        for (int pos = 0; pos < m->nnodes; pos++) {
            int n = pcs[p].node_at[pos];
            size_t lo, hi;
            if (to && n != m->my_node) continue;
            node_part(m, bs, n, np, p, &lo, &hi);
            if (to) memcpy(pcs[p].buf + pcs[p].off[pos], all + lo, hi - lo);
            else memcpy(all + lo, pcs[p].buf + pcs[p].off[pos], hi - lo);
        }
    }
}

/* Post step i of a piece: swap the range held with each line peer of ord[i] */
static int start_step(mca_coll_hxb_ctx_t *c, piece_t *pc, int k, int i)
{
    mca_coll_hxb_module_t *m = c->m;
    int d = pc->ord[i], span = pc->stride[i], rc = OMPI_SUCCESS;
    int mine = held_first(m, pc, k, i, m->my_idx[d]);

    pc->nreq = 0;
    for (int j = 0; j < m->dimsz[d] && OMPI_SUCCESS == rc; j++) {
        if (j == m->my_idx[d]) continue;
        int peer = mca_coll_hxb_line_peer(m, d, j), first = held_first(m, pc, k, i, j);
        rc = mca_coll_hxb_post(c, pc->reqs, &pc->nreq, pc->buf + pc->off[first],
                               pc->off[first + span] - pc->off[first], MPI_BYTE, peer, true);
        if (OMPI_SUCCESS == rc) {
            rc = mca_coll_hxb_post(c, pc->reqs, &pc->nreq, pc->buf + pc->off[mine],
                                   pc->off[mine + span] - pc->off[mine], MPI_BYTE, peer, false);
        }
    }
    return rc;
}

/* The leaders' exchange along the lines; `all` holds this node's blocks */
static int leaders_gather(mca_coll_hxb_ctx_t *c, char *all, size_t bs)
{
    mca_coll_hxb_module_t *m = c->m;
    int dims[MCA_COLL_HXB_DIMS], k = mca_coll_hxb_line_dims(m, dims), rc = OMPI_SUCCESS;
    int pmin = c->tune.allgather_pieces_min, nmax = mca_coll_hxb_max_line(m);
    int np = (k > 1 && pmin >= 0 && bs >= (size_t)pmin) ? k : 1;
    int N = m->nnodes;
    piece_t pcs[MCA_COLL_HXB_DIMS];

    int *node_at = malloc((size_t)np * N * sizeof(int));
    size_t *off = malloc((size_t)np * (N + 1) * sizeof(size_t));
    ompi_request_t **reqs = malloc((size_t)np * 2 * nmax * sizeof(*reqs));
    char *stage = np > 1 ? malloc(bs * (size_t)m->node_first[N]) : NULL;

    if (0 == k) goto out;
    if (NULL == node_at || NULL == off || NULL == reqs || (np > 1 && NULL == stage)) {
        rc = OMPI_ERR_OUT_OF_RESOURCE;
        goto out;
    }
    for (int p = 0; p < np; p++) {
        pcs[p].node_at = node_at + (size_t)p * N;
        pcs[p].off = off + (size_t)p * (N + 1);
        pcs[p].reqs = reqs + (size_t)p * 2 * nmax;
        pcs[p].nreq = 0;
        piece_layout(m, &pcs[p], dims, k, np, p, bs);
        pcs[p].buf = np > 1 ? stage + (p ? pcs[p - 1].buf - stage + pcs[p - 1].off[N] : 0) : all;
    }
    if (np > 1) pieces_copy(m, pcs, np, bs, all, 1);
    for (int p = 0; p < np && OMPI_SUCCESS == rc; p++) rc = start_step(c, &pcs[p], k, 0);
    for (int i = 0; i < k && OMPI_SUCCESS == rc; i++) {
        for (int p = 0; p < np && OMPI_SUCCESS == rc; p++) {
            rc = mca_coll_hxb_wait_reqs(c, pcs[p].nreq, pcs[p].reqs);
            pcs[p].nreq = 0;
            if (OMPI_SUCCESS == rc && i + 1 < k) rc = start_step(c, &pcs[p], k, i + 1);
        }
    }
    if (OMPI_SUCCESS != rc) {        /* no request left on our buffers */
        for (int p = 0; p < np; p++) (void)mca_coll_hxb_wait_reqs(c, pcs[p].nreq, pcs[p].reqs);
    } else if (np > 1) {
        pieces_copy(m, pcs, np, bs, all, 0);
    }
out:
    free(stage);
    free(reqs);
    free(off);
    free(node_at);
    return rc;
}

int mca_coll_hxb_allgather(const void *sbuf, int scount, ompi_datatype_t *sdt,
                           void *rbuf, int rcount, ompi_datatype_t *rdt,
                           ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_hxb_module_t *m = (mca_coll_hxb_module_t *)module;
    if (!mca_coll_hxb_ready(m, comm, true)) {
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
        if (OMPI_SUCCESS == rc) rc = leaders_gather(&c, all, bs);
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
