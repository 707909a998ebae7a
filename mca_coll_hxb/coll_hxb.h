/* coll hxb: hyper-crossbar-aware collectives. One process per node (the
 * node leader) acts for its node's ranks; between nodes every step talks
 * only along one dimension's line (X, then Y, then Z), so no relays. */
#ifndef MCA_COLL_HXB_H
#define MCA_COLL_HXB_H

#include "ompi_config.h"
#include <pthread.h>
#include "mpi.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"
#include "ompi/request/request.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/mca/coll/base/coll_tags.h"

#ifndef OMPI_MODULE_DECLSPEC    /* Open MPI 5 has OMPI_DECLSPEC only */
#define OMPI_MODULE_DECLSPEC OMPI_DECLSPEC
#endif

/* coll framework version: 2.0.0 in Open MPI 4.1, 2.4.0 in 5.0 */
#ifdef MCA_COLL_BASE_VERSION_2_4_0
typedef mca_coll_base_component_2_4_0_t mca_coll_hxb_base_component_t;
#define MCA_COLL_HXB_BASE_VERSION MCA_COLL_BASE_VERSION_2_4_0
#else
typedef mca_coll_base_component_2_0_0_t mca_coll_hxb_base_component_t;
#define MCA_COLL_HXB_BASE_VERSION MCA_COLL_BASE_VERSION_2_0_0
#endif

#define MCA_COLL_HXB_DIMS 3
/* Tag of the non-blocking worker: outside coll/base's blocking tags
 * (-10..-26) and libnbc's range (from -27 down), and not MPI_ANY_TAG (-1).
 * Blocking schedules use coll/base's tag of the same collective. */
#define MCA_COLL_HXB_TAG_NB (-7)

enum {
    MCA_COLL_HXB_BARRIER, MCA_COLL_HXB_BCAST, MCA_COLL_HXB_REDUCE,
    MCA_COLL_HXB_ALLREDUCE, MCA_COLL_HXB_ALLGATHER, MCA_COLL_HXB_ALLTOALL,
    MCA_COLL_HXB_IALLREDUCE, MCA_COLL_HXB_IBCAST, MCA_COLL_HXB_FALLBACK,
    MCA_COLL_HXB_NSTATS
};

typedef struct mca_coll_hxb_component {
    mca_coll_hxb_base_component_t super;
    int   priority;
    bool  enable;
    char *topo;          /* topology file; empty: btl_hxb_topo, UCX_HXB_TOPO */
    char *node;          /* this node's name; empty: btl_hxb_node, UCX_HXB_NODE, host name */
    int   verbose;
    bool  print_stats;
    int   allreduce_rsag_min;   /* bytes: reduce-scatter + allgather from here */
    int   allreduce_rd_min;     /* nodes: small vectors by recursive doubling on
                                   lines this long (a power of two) */
    int   segsize;              /* bytes per piece of the pipelined schedules */
    int   nb_idle_us;           /* worker: sleep when idle (us); 0: yield only */
    int   alltoall_direct_min;  /* bytes per block: direct exchange from here */
    int   alltoall_pieces_min;  /* bytes per block: routed in pieces from here */
    int   allgather_pieces_min; /* bytes per block: one piece per dimension from here */
    /* this process's node in the topology, -1 unknown (set at first query) */
    int   topo_loaded;   /* 0 not tried, 1 ok, -1 failed */
    int   my_node_id;
    int   my_coord[MCA_COLL_HXB_DIMS];
    volatile int64_t stats[MCA_COLL_HXB_NSTATS];
} mca_coll_hxb_component_t;

OMPI_MODULE_DECLSPEC extern mca_coll_hxb_component_t mca_coll_hxb_component;

struct mca_coll_hxb_job;

/* Nodes of the communicator are a product set C_x x C_y x C_z of grid
 * coordinates; node index = ix + nx*(iy + ny*iz) over those sets. */
typedef struct mca_coll_hxb_module {
    mca_coll_base_module_t super;
    mca_coll_base_comm_coll_t prev;   /* the components below us */
    int  state;                       /* 0 not set up, 1 ours, -1 fall back */
    int  nnodes;
    int  dimsz[MCA_COLL_HXB_DIMS];
    int *rank_node;                   /* comm rank -> node index */
    int *node_first;                  /* node index -> first slot in node_ranks */
    int *node_ranks;                  /* ranks by node, ascending in a node */
    int  my_node, my_idx[MCA_COLL_HXB_DIMS];
    int  leader;                      /* comm rank of this node's leader */
    /* non-blocking worker (MPI_THREAD_MULTIPLE only) */
    pthread_mutex_t lock;
    pthread_cond_t  cond;
    pthread_t       thread;
    bool            thread_started, stop;
    struct mca_coll_hxb_job *head, *tail;
} mca_coll_hxb_module_t;
OBJ_CLASS_DECLARATION(mca_coll_hxb_module_t);

/* The size thresholds a call runs with: read once when it is called (an
 * MPI_T write may change them between calls, also before a queued
 * non-blocking call starts, and every rank must choose the same schedule) */
typedef struct mca_coll_hxb_tune {
    int  allreduce_rsag_min, allreduce_rd_min, alltoall_direct_min, alltoall_pieces_min,
         allgather_pieces_min;
    long segsize;
} mca_coll_hxb_tune_t;
void mca_coll_hxb_tune_get(mca_coll_hxb_tune_t *t);

/* p2p with one tag: a growing list of requests, waited for at once */
typedef struct mca_coll_hxb_ctx {
    mca_coll_hxb_module_t *m;
    ompi_communicator_t *comm;
    int rank, tag;
    bool poll;                        /* the worker: poll, never park */
    mca_coll_hxb_tune_t tune;
    ompi_request_t **reqs;
    int nreq, maxreq;
} mca_coll_hxb_ctx_t;

/* component / module */
mca_coll_base_module_t *mca_coll_hxb_comm_query(ompi_communicator_t *comm, int *priority);
int  mca_coll_hxb_init_query(bool enable_progress_threads, bool enable_mpi_threads);
int  mca_coll_hxb_ready(mca_coll_hxb_module_t *m, ompi_communicator_t *comm, bool blocking);
void mca_coll_hxb_count(int what);

/* p2p and intra-node helpers */
void mca_coll_hxb_ctx_init(mca_coll_hxb_ctx_t *c, mca_coll_hxb_module_t *m,
                           ompi_communicator_t *comm, int tag);
void mca_coll_hxb_ctx_fini(mca_coll_hxb_ctx_t *c);
int  mca_coll_hxb_isend(mca_coll_hxb_ctx_t *c, const void *buf, size_t count,
                        ompi_datatype_t *dt, int peer);
int  mca_coll_hxb_irecv(mca_coll_hxb_ctx_t *c, void *buf, size_t count,
                        ompi_datatype_t *dt, int peer);
int  mca_coll_hxb_waitall(mca_coll_hxb_ctx_t *c);
int  mca_coll_hxb_post(mca_coll_hxb_ctx_t *c, ompi_request_t **reqs, int *nreq,
                       void *buf, size_t count, ompi_datatype_t *dt, int peer, bool recv);
int  mca_coll_hxb_wait_reqs(mca_coll_hxb_ctx_t *c, int n, ompi_request_t **reqs);
int  mca_coll_hxb_node_index(const mca_coll_hxb_module_t *m, const int idx[MCA_COLL_HXB_DIMS]);
/* node index -> its coordinate in dimension d (the inverse of node_index) */
static inline int mca_coll_hxb_node_coord(const mca_coll_hxb_module_t *m, int node, int d)
{
    for (int e = 0; e < d; e++) node /= m->dimsz[e];
    return node % m->dimsz[d];
}
/* all of a node's coordinates */
static inline void mca_coll_hxb_node_coords(const mca_coll_hxb_module_t *m, int node,
                                            int idx[MCA_COLL_HXB_DIMS])
{
    for (int d = 0; d < MCA_COLL_HXB_DIMS; d++) idx[d] = mca_coll_hxb_node_coord(m, node, d);
}
int  mca_coll_hxb_node_leader(const mca_coll_hxb_module_t *m, int node);
int  mca_coll_hxb_line_peer(const mca_coll_hxb_module_t *m, int d, int j);
char *mca_coll_hxb_tmp(ompi_datatype_t *dt, size_t count, char **raw);

/* Large Allreduce and Bcast run as one piece per dimension from here
 * (bytes), piece p visiting the dimensions in the order rotated by p */
#define MCA_COLL_HXB_PIECES_MIN 65536
static inline int mca_coll_hxb_dim_pieces(int k, size_t bytes)
{
    return k > 1 && bytes >= MCA_COLL_HXB_PIECES_MIN ? k : 1;
}
/* the most nodes on one line of the communicator (1: a single node) */
static inline int mca_coll_hxb_max_line(const mca_coll_hxb_module_t *m)
{
    int nmax = 1;
    for (int d = 0; d < MCA_COLL_HXB_DIMS; d++) {
        if (m->dimsz[d] > nmax) nmax = m->dimsz[d];
    }
    return nmax;
}
/* the dimensions with more than one node, in order; returns how many */
static inline int mca_coll_hxb_line_dims(const mca_coll_hxb_module_t *m, int dims[MCA_COLL_HXB_DIMS])
{
    int k = 0;
    for (int d = 0; d < MCA_COLL_HXB_DIMS; d++) {
        if (m->dimsz[d] > 1) dims[k++] = d;
    }
    return k;
}
/* element range of part j of n of [lo, hi): sizes differ by at most one */
static inline size_t mca_coll_hxb_part(size_t lo, size_t hi, int n, int j)
{
    return lo + (hi - lo) * (size_t)j / (size_t)n;
}
int  mca_coll_hxb_node_reduce(mca_coll_hxb_ctx_t *c, void *acc, int count,
                              ompi_datatype_t *dt, ompi_op_t *op);
int  mca_coll_hxb_node_bcast(mca_coll_hxb_ctx_t *c, void *buf, size_t count,
                             ompi_datatype_t *dt, int skip);
void mca_coll_hxb_pack(const void *buf, int count, ompi_datatype_t *dt, void *out, size_t bytes);
void mca_coll_hxb_unpack(const void *in, size_t bytes, void *buf, int count, ompi_datatype_t *dt);

/* schedules (tag chosen by the caller: blocking or worker) */
int mca_coll_hxb_barrier_do(mca_coll_hxb_ctx_t *c);
int mca_coll_hxb_bcast_do(mca_coll_hxb_ctx_t *c, void *buf, int count,
                          ompi_datatype_t *dt, int root);
int mca_coll_hxb_reduce_do(mca_coll_hxb_ctx_t *c, const void *sbuf, void *rbuf,
                           int count, ompi_datatype_t *dt, ompi_op_t *op, int root);
int mca_coll_hxb_allreduce_rsag(mca_coll_hxb_ctx_t *c, void *buf, int count,
                                ompi_datatype_t *dt, ompi_op_t *op);
int mca_coll_hxb_alltoall_direct(mca_coll_hxb_ctx_t *c, const void *sbuf, int scount,
                                 ompi_datatype_t *sdt, void *rbuf, int rcount,
                                 ompi_datatype_t *rdt);
int mca_coll_hxb_allreduce_do(mca_coll_hxb_ctx_t *c, const void *sbuf, void *rbuf,
                              int count, ompi_datatype_t *dt, ompi_op_t *op);

/* entry points */
int mca_coll_hxb_barrier(ompi_communicator_t *comm, mca_coll_base_module_t *module);
int mca_coll_hxb_bcast(void *buf, int count, ompi_datatype_t *dt, int root,
                       ompi_communicator_t *comm, mca_coll_base_module_t *module);
int mca_coll_hxb_reduce(const void *sbuf, void *rbuf, int count, ompi_datatype_t *dt,
                        ompi_op_t *op, int root, ompi_communicator_t *comm,
                        mca_coll_base_module_t *module);
int mca_coll_hxb_allreduce(const void *sbuf, void *rbuf, int count, ompi_datatype_t *dt,
                           ompi_op_t *op, ompi_communicator_t *comm,
                           mca_coll_base_module_t *module);
int mca_coll_hxb_allgather(const void *sbuf, int scount, ompi_datatype_t *sdt,
                           void *rbuf, int rcount, ompi_datatype_t *rdt,
                           ompi_communicator_t *comm, mca_coll_base_module_t *module);
int mca_coll_hxb_alltoall(const void *sbuf, int scount, ompi_datatype_t *sdt,
                          void *rbuf, int rcount, ompi_datatype_t *rdt,
                          ompi_communicator_t *comm, mca_coll_base_module_t *module);
int mca_coll_hxb_iallreduce(const void *sbuf, void *rbuf, int count, ompi_datatype_t *dt,
                            ompi_op_t *op, ompi_communicator_t *comm,
                            ompi_request_t **req, mca_coll_base_module_t *module);
int mca_coll_hxb_ibcast(void *buf, int count, ompi_datatype_t *dt, int root,
                        ompi_communicator_t *comm, ompi_request_t **req,
                        mca_coll_base_module_t *module);
void mca_coll_hxb_worker_stop(mca_coll_hxb_module_t *m);

/* progress while the worker runs (coll_hxb_nb_progress.c) */
int  mca_coll_hxb_nb_progress_init(void);
void mca_coll_hxb_nb_progress_fini(void);
void mca_coll_hxb_nb_submitted(void);
void mca_coll_hxb_nb_completed(void);
void mca_coll_hxb_nb_worker_enter(void);
int  mca_coll_hxb_nb_poll(int n, ompi_request_t **reqs);

#endif
