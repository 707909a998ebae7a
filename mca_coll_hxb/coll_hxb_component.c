/* coll hxb component: MCA parameters, finding this process's node in the
 * hxb topology file, and the per-process counters printed at finalize. */
#include "coll_hxb.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "opal/mca/base/mca_base_var.h"
#include "opal/util/output.h"
#include "hxb_topo.h"

static int mca_coll_hxb_register(void);
static int mca_coll_hxb_close(void);

mca_coll_hxb_component_t mca_coll_hxb_component = {
    .super = {
        .collm_version = {
            MCA_COLL_HXB_BASE_VERSION,
            .mca_component_name = "hxb",
            MCA_BASE_MAKE_VERSION(component, 0, 1, 0),
            .mca_close_component = mca_coll_hxb_close,
            .mca_register_component_params = mca_coll_hxb_register,
        },
        .collm_data = { MCA_BASE_METADATA_PARAM_CHECKPOINT },
        .collm_init_query = mca_coll_hxb_init_query,
        .collm_comm_query = mca_coll_hxb_comm_query,
    },
    .priority = 90,
    .enable = true,
    .allreduce_rsag_min = 16384,
    .allreduce_rd_min = 8,
    .segsize = 0,
    .nb_idle_us = 20,
    .alltoall_direct_min = 4096,
    .alltoall_pieces_min = 65536,
    .allgather_pieces_min = 8192,
    .my_node_id = -1,
};

/* A schedule threshold: an int any rank may change through MPI_T between
 * calls (the same on every rank), read at each call */
static void tuning_var(mca_base_component_t *c, const char *name, const char *help, int *var)
{
    (void)mca_base_component_var_register(c, name, help, MCA_BASE_VAR_TYPE_INT, NULL, 0,
                                          MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_6,
                                          MCA_BASE_VAR_SCOPE_ALL, var);
}

static int mca_coll_hxb_register(void)
{
    mca_base_component_t *c = &mca_coll_hxb_component.super.collm_version;
    mca_coll_hxb_component_t *k = &mca_coll_hxb_component;

    (void)mca_base_component_var_register(c, "priority",
        "Priority of coll hxb (above tuned and han); 0 turns it off",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_6,
        MCA_BASE_VAR_SCOPE_READONLY, &k->priority);
    (void)mca_base_component_var_register(c, "enable",
        "Use hyper-crossbar schedules when hxb carries the job (false: Open MPI's own collectives). "
        "Read when a communicator is created: set through MPI_T between creations, it picks the "
        "collectives of the communicators created next (the benchmark compares both that way)",
        MCA_BASE_VAR_TYPE_BOOL, NULL, 0, MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_4,
        MCA_BASE_VAR_SCOPE_ALL, &k->enable);
    k->topo = "";
    (void)mca_base_component_var_register(c, "topo",
        "hxb topology file (grid and node coordinates). Empty: btl_hxb_topo, else UCX_HXB_TOPO",
        MCA_BASE_VAR_TYPE_STRING, NULL, 0, 0, OPAL_INFO_LVL_4,
        MCA_BASE_VAR_SCOPE_READONLY, &k->topo);
    k->node = "";
    (void)mca_base_component_var_register(c, "node",
        "This node's name in the topology file. Empty: btl_hxb_node, else UCX_HXB_NODE, else the host name",
        MCA_BASE_VAR_TYPE_STRING, NULL, 0, 0, OPAL_INFO_LVL_5,
        MCA_BASE_VAR_SCOPE_READONLY, &k->node);
    (void)mca_base_component_var_register(c, "verbose",
        "Print why a communicator is or is not handled (0: quiet)",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_5,
        MCA_BASE_VAR_SCOPE_READONLY, &k->verbose);
    (void)mca_base_component_var_register(c, "print_stats",
        "At finalize, print how many collectives ran on hxb schedules and how many fell back",
        MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0, OPAL_INFO_LVL_5,
        MCA_BASE_VAR_SCOPE_READONLY, &k->print_stats);
    tuning_var(c, "allreduce_rsag_min",
        "Allreduce of at least this many bytes runs as reduce-scatter + allgather along the lines "
        "(each leader sends about 2x the vector in all); below, every leader sends its whole "
        "partial to every line peer (3 steps, fewest messages). -1: never. Read at each call "
        "(MPI_T may change it, the same on every rank)",
        &k->allreduce_rsag_min);
    tuning_var(c, "allreduce_rd_min",
        "Allreduce below allreduce_rsag_min bytes on a line of at least this many nodes, a power "
        "of two: recursive doubling along the line (log2(n) steps of one exchange each, n log2(n) "
        "messages) instead of one step in which every leader sends to every line peer (n(n-1) "
        "messages: on a line of 8, 24 against 56). 0: never. Read at each call",
        &k->allreduce_rd_min);
    tuning_var(c, "segsize",
        "Bytes per piece of the reduce-scatter + allgather: pieces proceed independently, piece p "
        "visiting the dimensions in an order rotated by p, so all dimensions' rails carry data at once "
        "and one piece's reduction overlaps the others' transfers. 0: one piece per dimension from "
        "64 KiB, one piece below; "
        "-1: one piece (Rabenseifner along the lines, one dimension at a time); more: pieces of "
        "about this many bytes, a multiple of the dimensions",
        &k->segsize);
    (void)mca_base_component_var_register(c, "nb_idle_us",
        "The non-blocking worker sleeps this many microseconds after 16 polls without a completion "
        "(leaves the CPU to the application's computation); 0: it only yields the CPU, as blocking "
        "waits with mpi_yield_when_idle do",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_6,
        MCA_BASE_VAR_SCOPE_READONLY, &k->nb_idle_us);
    tuning_var(c, "alltoall_direct_min",
        "Alltoall with blocks of at least this many bytes sends every block straight to its rank "
        "(relayed where nodes share no line); below, node leaders aggregate and route the blocks "
        "dimension by dimension (fewer, larger messages). -1: never. Read at each call "
        "(MPI_T may change it, the same on every rank)",
        &k->alltoall_direct_min);
    tuning_var(c, "alltoall_pieces_min",
        "Alltoall on the routed schedule (blocks below alltoall_direct_min, or every size with it "
        "at -1) cuts blocks of at least this many bytes into one piece per dimension, piece p "
        "crossing the dimensions in an order rotated by p, so every dimension's rails carry data "
        "in every step (one piece: one dimension at a time). -1: never. Read at each call",
        &k->alltoall_pieces_min);
    tuning_var(c, "allgather_pieces_min",
        "Allgather with blocks of at least this many bytes cuts every node's blocks into one piece "
        "per dimension, piece p crossing the dimensions in an order rotated by p, so every "
        "dimension's rails carry data in every step (one piece: one dimension at a time). "
        "-1: never. Read at each call (MPI_T may change it, the same on every rank)",
        &k->allgather_pieces_min);
    return OMPI_SUCCESS;
}

void mca_coll_hxb_count(int what)
{
    __atomic_add_fetch(&mca_coll_hxb_component.stats[what], 1, __ATOMIC_RELAXED);
}

static int mca_coll_hxb_close(void)
{
    mca_coll_hxb_component_t *k = &mca_coll_hxb_component;
    char host[64] = "";

    mca_coll_hxb_nb_progress_fini();
    if (!k->print_stats) {
        return OMPI_SUCCESS;
    }
    gethostname(host, sizeof(host) - 1);
    /* one line per process, parsed by the tests */
    printf("coll hxb stats: host=%s node=%d barrier=%ld bcast=%ld reduce=%ld "
           "allreduce=%ld allgather=%ld alltoall=%ld iallreduce=%ld ibcast=%ld "
           "fallback=%ld\n", host, k->my_node_id,
           (long)k->stats[MCA_COLL_HXB_BARRIER], (long)k->stats[MCA_COLL_HXB_BCAST],
           (long)k->stats[MCA_COLL_HXB_REDUCE], (long)k->stats[MCA_COLL_HXB_ALLREDUCE],
           (long)k->stats[MCA_COLL_HXB_ALLGATHER], (long)k->stats[MCA_COLL_HXB_ALLTOALL],
           (long)k->stats[MCA_COLL_HXB_IALLREDUCE], (long)k->stats[MCA_COLL_HXB_IBCAST],
           (long)k->stats[MCA_COLL_HXB_FALLBACK]);
    fflush(stdout);
    return OMPI_SUCCESS;
}
