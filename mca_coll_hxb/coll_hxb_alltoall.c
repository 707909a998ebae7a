/* Alltoall of blocks below coll_hxb_alltoall_direct_min bytes (larger ones:
 * coll_hxb_alltoall_direct.c) on packed blocks, routed dimension by dimension. Leaders collect
 * their locals' send buffers. Before step d a leader holds the blocks (s,t)
 * whose source node matches it in dims >= d and whose target node matches
 * it in dims < d; in step d it sends line peer j the held blocks whose
 * target node has coordinate j in d. After Z it holds exactly the blocks
 * for its node and hands each local its column. Blocks travel in (s,t)
 * order, which both ends enumerate from the layout alone. */
#include "coll_hxb.h"
#include <stdlib.h>
#include <string.h>

static int coord_of(const mca_coll_hxb_module_t *m, int node, int d)
{
    for (int e = 0; e < d; e++) node /= m->dimsz[e];
    return node % m->dimsz[d];
}

/* Held by the node with indices idx before step d? */
static bool held(const mca_coll_hxb_module_t *m, const int *idx, int d, int s, int t)
{
    int ns = m->rank_node[s], nt = m->rank_node[t];
    for (int e = 0; e < MCA_COLL_HXB_DIMS; e++) {
        if (e >= d && coord_of(m, ns, e) != idx[e]) return false;
        if (e < d && coord_of(m, nt, e) != idx[e]) return false;
    }
    return true;
}

typedef struct { char *buf; size_t n; } blob_t;

static int leader_route(mca_coll_hxb_ctx_t *c, char **ptr, size_t bs, blob_t *blobs, int *nblobs)
{
    mca_coll_hxb_module_t *m = c->m;
    int P = ompi_comm_size(c->comm), rc = OMPI_SUCCESS;
    for (int d = 0; d < MCA_COLL_HXB_DIMS && OMPI_SUCCESS == rc; d++) {
        int n = m->dimsz[d];
        if (n < 2) continue;
        blob_t out[n], in[n];
        memset(out, 0, sizeof(out));
        memset(in, 0, sizeof(in));
        for (int j = 0; j < n && OMPI_SUCCESS == rc; j++) {
            if (j == m->my_idx[d]) continue;
            int pidx[MCA_COLL_HXB_DIMS] = { m->my_idx[0], m->my_idx[1], m->my_idx[2] };
            pidx[d] = j;
            /* count both directions, then pack mine */
            for (int s = 0; s < P; s++) for (int t = 0; t < P; t++) {
                int ct = coord_of(m, m->rank_node[t], d);
                if (ptr[(size_t)s * P + t] && ct == j) out[j].n++;
                if (ct == m->my_idx[d] && held(m, pidx, d, s, t)) in[j].n++;
            }
            out[j].buf = malloc(out[j].n * bs + 1);
            in[j].buf = malloc(in[j].n * bs + 1);
            if (!out[j].buf || !in[j].buf) { rc = OMPI_ERR_OUT_OF_RESOURCE; break; }
            blobs[(*nblobs)++] = in[j];
            size_t k = 0;
            for (int s = 0; s < P; s++) for (int t = 0; t < P; t++) {
                char **p = &ptr[(size_t)s * P + t];
                if (*p && coord_of(m, m->rank_node[t], d) == j) {
                    memcpy(out[j].buf + k++ * bs, *p, bs);
                    *p = NULL;
                }
            }
            int peer = mca_coll_hxb_line_peer(m, d, j);
            rc = mca_coll_hxb_irecv(c, in[j].buf, in[j].n * bs, MPI_BYTE, peer);
            if (OMPI_SUCCESS == rc) rc = mca_coll_hxb_isend(c, out[j].buf, out[j].n * bs, MPI_BYTE, peer);
        }
        int rc2 = mca_coll_hxb_waitall(c);
        if (OMPI_SUCCESS == rc) rc = rc2;
        for (int j = 0; j < n; j++) {
            free(out[j].buf);
            if (j == m->my_idx[d] || OMPI_SUCCESS != rc || NULL == in[j].buf) continue;
            int pidx[MCA_COLL_HXB_DIMS] = { m->my_idx[0], m->my_idx[1], m->my_idx[2] };
            pidx[d] = j;
            size_t k = 0;
            for (int s = 0; s < P; s++) for (int t = 0; t < P; t++) {
                if (coord_of(m, m->rank_node[t], d) == m->my_idx[d] && held(m, pidx, d, s, t)) {
                    ptr[(size_t)s * P + t] = in[j].buf + k++ * bs;
                }
            }
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
    if (P > 4096 || !mca_coll_hxb_ready(m, comm)) {
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
    int direct_min = mca_coll_hxb_component.alltoall_direct_min;
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
    char **ptr = NULL;
    blob_t *blobs = NULL;
    int nblobs = 0;
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
        ptr = calloc((size_t)P * P, sizeof(char *));
        blobs = calloc(MCA_COLL_HXB_DIMS * (size_t)P, sizeof(blob_t));
        if (!ptr || !blobs) { rc = OMPI_ERR_OUT_OF_RESOURCE; goto out; }
        for (int i = 1; i < nloc && OMPI_SUCCESS == rc; i++) {
            rc = mca_coll_hxb_irecv(&c, rows + i * row, row, MPI_BYTE, m->node_ranks[first + i]);
        }
        int rc2 = mca_coll_hxb_waitall(&c);
        if (OMPI_SUCCESS == rc) rc = rc2;
        for (int i = 0; i < nloc; i++) {
            int s = m->node_ranks[first + i];
            for (int t = 0; t < P; t++) ptr[(size_t)s * P + t] = rows + i * row + t * bs;
        }
        if (OMPI_SUCCESS == rc) rc = leader_route(&c, ptr, bs, blobs, &nblobs);
        /* columns of my node's ranks, in source order */
        char *col = malloc(row * nloc);
        if (NULL == col && OMPI_SUCCESS == rc) rc = OMPI_ERR_OUT_OF_RESOURCE;
        for (int i = 0; i < nloc && OMPI_SUCCESS == rc; i++) {
            int t = m->node_ranks[first + i];
            for (int s = 0; s < P; s++) {
                char *p = ptr[(size_t)s * P + t];
                if (NULL == p) { rc = OMPI_ERR_BAD_PARAM; break; }   /* routing bug */
                memcpy(col + i * row + s * bs, p, bs);
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
    free(ptr);
    free(rows);
    free(res);
    mca_coll_hxb_ctx_fini(&c);
    return rc;
}
