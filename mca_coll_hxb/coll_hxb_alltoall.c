/* Alltoall routed dimension by dimension through the node leaders, on
 * packed blocks, for blocks below coll_hxb_alltoall_direct_min (larger
 * ones: coll_hxb_alltoall_direct.c, which needs relays; with it off, every
 * size comes here). Leaders collect their locals' send buffers. Each block
 * is cut into pieces, one per dimension with more than one node from
 * coll_hxb_alltoall_pieces_min bytes, else one; piece p
 * visits the dimensions in the order rotated by p, so in every step every
 * dimension's rails carry a piece (dimension by dimension alone, two of
 * three rails idle). Before a piece crosses dimension d it is held by the
 * node that matches the block's target node in the dimensions the piece
 * has crossed and its source node in the others; crossing d, a leader sends
 * line peer j the held pieces whose target node has coordinate j in d.
 * After the last dimension a leader holds exactly its node's pieces and
 * hands each local its column. Pieces travel in (s,t) order, which both
 * ends enumerate from the layout alone. */
#include "coll_hxb.h"
#include <stdlib.h>
#include <string.h>

/* Held by the node with indices idx, once the dimensions in `done` are crossed? */
static bool held(const mca_coll_hxb_module_t *m, const int *idx, unsigned done, int s, int t)
{
    int ns = m->rank_node[s], nt = m->rank_node[t];
    for (int e = 0; e < MCA_COLL_HXB_DIMS; e++) {
        int node = (done & (1u << e)) ? nt : ns;
        if (mca_coll_hxb_node_coord(m, node, e) != idx[e]) return false;
    }
    return true;
}

typedef struct { char *buf; size_t n; } blob_t;

/* one piece crossing dimension d (done: the ones it crossed before): pack
 * and post the exchange with every line peer; the buffers received go to
 * blobs (kept until the end: ptr points into them), the sent ones to out */
static int cross_post(mca_coll_hxb_ctx_t *c, char **ptr, size_t bs, int d, unsigned done,
                      blob_t *blobs, int *nblobs, blob_t *out)
{
    mca_coll_hxb_module_t *m = c->m;
    int P = ompi_comm_size(c->comm), n = m->dimsz[d], rc = OMPI_SUCCESS;
    for (int j = 0; j < n && OMPI_SUCCESS == rc; j++) {
        if (j == m->my_idx[d]) continue;
        int pidx[MCA_COLL_HXB_DIMS] = { m->my_idx[0], m->my_idx[1], m->my_idx[2] };
        blob_t in = { NULL, 0 };
        pidx[d] = j;
        /* count both directions, then pack mine */
        for (int s = 0; s < P; s++) for (int t = 0; t < P; t++) {
            int ct = mca_coll_hxb_node_coord(m, m->rank_node[t], d);
            if (ptr[(size_t)s * P + t] && ct == j) out[j].n++;
            if (ct == m->my_idx[d] && held(m, pidx, done, s, t)) in.n++;
        }
        out[j].buf = malloc(out[j].n * bs + 1);
        in.buf = malloc(in.n * bs + 1);
        if (!out[j].buf || !in.buf) { free(in.buf); rc = OMPI_ERR_OUT_OF_RESOURCE; break; }
        blobs[(*nblobs)++] = in;
        size_t k = 0;
        for (int s = 0; s < P; s++) for (int t = 0; t < P; t++) {
            char **p = &ptr[(size_t)s * P + t];
            if (*p && mca_coll_hxb_node_coord(m, m->rank_node[t], d) == j) {
                memcpy(out[j].buf + k++ * bs, *p, bs);
                *p = NULL;
            }
        }
        int peer = mca_coll_hxb_line_peer(m, d, j);
        rc = mca_coll_hxb_irecv(c, in.buf, in.n * bs, MPI_BYTE, peer);
        if (OMPI_SUCCESS == rc) rc = mca_coll_hxb_isend(c, out[j].buf, out[j].n * bs, MPI_BYTE, peer);
    }
    return rc;
}

/* after the exchange: the pieces received from each line peer (in the order
 * cross_post's blobs were added, first at blobs[first]) are now held here */
static void cross_land(mca_coll_hxb_ctx_t *c, char **ptr, size_t bs, int d, unsigned done,
                       const blob_t *blobs, int first)
{
    mca_coll_hxb_module_t *m = c->m;
    int P = ompi_comm_size(c->comm), n = m->dimsz[d];
    for (int j = 0; j < n; j++) {
        if (j == m->my_idx[d]) continue;
        int pidx[MCA_COLL_HXB_DIMS] = { m->my_idx[0], m->my_idx[1], m->my_idx[2] };
        pidx[d] = j;
        size_t k = 0;
        for (int s = 0; s < P; s++) for (int t = 0; t < P; t++) {
            if (mca_coll_hxb_node_coord(m, m->rank_node[t], d) == m->my_idx[d] && held(m, pidx, done, s, t)) {
                ptr[(size_t)s * P + t] = blobs[first].buf + k++ * bs;
            }
        }
        first++;
    }
}

/* ptr[p]: piece p's P x P table of held pieces (pbs[p] bytes each) */
static int leader_route(mca_coll_hxb_ctx_t *c, int npieces, char **ptr[], const size_t *pbs,
                        blob_t *blobs, int *nblobs)
{
    mca_coll_hxb_module_t *m = c->m;
    int dims[MCA_COLL_HXB_DIMS], k = mca_coll_hxb_line_dims(m, dims), rc = OMPI_SUCCESS;
    unsigned done[MCA_COLL_HXB_DIMS] = { 0 };
    for (int step = 0; step < k && OMPI_SUCCESS == rc; step++) {
        int first[MCA_COLL_HXB_DIMS];
        blob_t out[MCA_COLL_HXB_DIMS][m->nnodes];
        memset(out, 0, sizeof(out));
        for (int p = 0; p < npieces && OMPI_SUCCESS == rc; p++) {
            first[p] = *nblobs;
            if (pbs[p]) rc = cross_post(c, ptr[p], pbs[p], dims[(p + step) % k], done[p],
                                        blobs, nblobs, out[p]);
        }
        int rc2 = mca_coll_hxb_waitall(c);
        if (OMPI_SUCCESS == rc) rc = rc2;
        for (int p = 0; p < npieces; p++) {
            int d = dims[(p + step) % k];
            for (int j = 0; j < m->dimsz[d]; j++) free(out[p][j].buf);
            if (OMPI_SUCCESS == rc && pbs[p]) cross_land(c, ptr[p], pbs[p], d, done[p], blobs, first[p]);
            done[p] |= 1u << d;
        }
    }
    return rc;
}

int mca_coll_hxb_alltoall(const void *sbuf, int scount, ompi_datatype_t *sdt,
                          void *rbuf, int rcount, ompi_datatype_t *rdt,
                          ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_hxb_module_t *m = (mca_coll_hxb_module_t *)module;
    int P = ompi_comm_size(comm);
    /* the block table is P x P pointers: beyond a few thousand ranks, fall back */
    if (P > 4096 || !mca_coll_hxb_ready(m, comm, true)) {
        mca_coll_hxb_count(MCA_COLL_HXB_FALLBACK);
        return m->prev.coll_alltoall(sbuf, scount, sdt, rbuf, rcount, rdt, comm,
                                     m->prev.coll_alltoall_module);
    }
    int rank = ompi_comm_rank(comm), rc = OMPI_SUCCESS;
    size_t tsize, bs;
    ptrdiff_t lb, rext, sext;
    ompi_datatype_type_size(rdt, &tsize);
    ompi_datatype_get_extent(rdt, &lb, &rext);
    bs = tsize * (size_t)rcount;
    mca_coll_hxb_count(MCA_COLL_HXB_ALLTOALL);
    if (0 == bs) return OMPI_SUCCESS;
    mca_coll_hxb_ctx_t c;
    mca_coll_hxb_ctx_init(&c, m, comm, MCA_COLL_BASE_TAG_ALLTOALL);
    int direct_min = c.tune.alltoall_direct_min;
    int pieces_min = c.tune.alltoall_pieces_min;
    bool pieces = pieces_min >= 0 && bs >= (size_t)pieces_min;
    if (direct_min >= 0 && bs >= (size_t)direct_min) {
        rc = mca_coll_hxb_alltoall_direct(&c, sbuf, scount, sdt, rbuf, rcount, rdt);
        mca_coll_hxb_ctx_fini(&c);
        return rc;
    }
    if (MPI_IN_PLACE == sbuf) { sbuf = rbuf; sdt = rdt; scount = rcount; }
    ompi_datatype_get_extent(sdt, &lb, &sext);

    int first = m->node_first[m->my_node], nloc = m->node_first[m->my_node + 1] - first;
    size_t row = bs * P;
    char *rows = malloc(row * (rank == m->leader ? nloc : 1));   /* send rows, packed */
    char *res = malloc(row);                                     /* my column */
    char **ptr[MCA_COLL_HXB_DIMS] = { NULL };
    size_t pbs[MCA_COLL_HXB_DIMS], poff[MCA_COLL_HXB_DIMS];
    int dims[MCA_COLL_HXB_DIMS];
    int np = pieces ? mca_coll_hxb_line_dims(m, dims) : 1;
    blob_t *blobs = NULL;
    int nblobs = 0;
    if (np < 1) np = 1;
    if ((size_t)np > bs) np = (int)bs;   /* no empty piece (blocks of 1-2 bytes) */
    for (int p = 0; p < np; p++) {
        poff[p] = mca_coll_hxb_part(0, bs, np, p);
        pbs[p] = mca_coll_hxb_part(0, bs, np, p + 1) - poff[p];
    }
    if (!rows || !res) { rc = OMPI_ERR_OUT_OF_RESOURCE; goto out; }
    for (int t = 0; t < P; t++) {
        mca_coll_hxb_pack((const char *)sbuf + (ptrdiff_t)t * scount * sext, scount, sdt, rows + t * bs, bs);
    }
    if (rank != m->leader) {
        rc = mca_coll_hxb_isend(&c, rows, row, MPI_BYTE, m->leader);
        if (OMPI_SUCCESS == rc) rc = mca_coll_hxb_irecv(&c, res, row, MPI_BYTE, m->leader);
        int rc2 = mca_coll_hxb_waitall(&c);
        if (OMPI_SUCCESS == rc) rc = rc2;
    } else {
        blobs = calloc((size_t)np * MCA_COLL_HXB_DIMS * m->nnodes, sizeof(blob_t));
        if (!blobs) { rc = OMPI_ERR_OUT_OF_RESOURCE; goto out; }
        for (int p = 0; p < np; p++) {
            if (!(ptr[p] = calloc((size_t)P * P, sizeof(char *)))) { rc = OMPI_ERR_OUT_OF_RESOURCE; goto out; }
        }
        for (int i = 1; i < nloc && OMPI_SUCCESS == rc; i++) {
            rc = mca_coll_hxb_irecv(&c, rows + i * row, row, MPI_BYTE, m->node_ranks[first + i]);
        }
        int rc2 = mca_coll_hxb_waitall(&c);
        if (OMPI_SUCCESS == rc) rc = rc2;
        for (int i = 0; i < nloc; i++) {
            int s = m->node_ranks[first + i];
            for (int t = 0; t < P; t++) {
                for (int p = 0; p < np; p++) ptr[p][(size_t)s * P + t] = rows + i * row + t * bs + poff[p];
            }
        }
        if (OMPI_SUCCESS == rc) rc = leader_route(&c, np, ptr, pbs, blobs, &nblobs);
        /* columns of my node's ranks, in source order */
        char *col = malloc(row * nloc);
        if (NULL == col && OMPI_SUCCESS == rc) rc = OMPI_ERR_OUT_OF_RESOURCE;
        for (int i = 0; i < nloc && OMPI_SUCCESS == rc; i++) {
            int t = m->node_ranks[first + i];
            for (int s = 0; s < P && OMPI_SUCCESS == rc; s++) {
                for (int p = 0; p < np; p++) {
                    char *q = ptr[p][(size_t)s * P + t];
                    if (NULL == q) { rc = OMPI_ERR_BAD_PARAM; break; }   /* routing bug */
                    memcpy(col + i * row + s * bs + poff[p], q, pbs[p]);
                }
            }
            if (OMPI_SUCCESS == rc && t != rank) rc = mca_coll_hxb_isend(&c, col + i * row, row, MPI_BYTE, t);
            if (OMPI_SUCCESS == rc && t == rank) memcpy(res, col + i * row, row);
        }
        rc2 = mca_coll_hxb_waitall(&c);
        if (OMPI_SUCCESS == rc) rc = rc2;
        free(col);
    }
    if (OMPI_SUCCESS == rc) {
        for (int s = 0; s < P; s++) {
            mca_coll_hxb_unpack(res + s * bs, bs, (char *)rbuf + (ptrdiff_t)s * rcount * rext, rcount, rdt);
        }
    }
out:
    for (int i = 0; i < nblobs; i++) free(blobs[i].buf);
    free(blobs);
    for (int p = 0; p < np; p++) free(ptr[p]);
    free(rows);
    free(res);
    mca_coll_hxb_ctx_fini(&c);
    return rc;
}
