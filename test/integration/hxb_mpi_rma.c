/* MPI one-sided (RMA) checks for hxb (ob1 + btl hxb: osc pt2pt or rdma;
 * pml ucx: osc ucx). Unmodified MPI programs use windows too, so every
 * synchronisation mode and operation kind is checked against values each
 * rank computes independently:
 *  - active target, fence: MPI_Put, MPI_Get and MPI_Accumulate (MPI_SUM on
 *    int and double, MPI_REPLACE) of 0 bytes to -m bytes, to the next rank;
 *  - active target, post/start/complete/wait (PSCW) with Put and Get;
 *  - passive target, lock/unlock (exclusive and shared) and lock_all with
 *    flush: Put, Get, Accumulate from every rank at once into rank 0;
 *  - atomics: MPI_Fetch_and_op (sum) from every rank on one counter,
 *    MPI_Compare_and_swap and MPI_Get_accumulate;
 *  - windows from MPI_Win_allocate, MPI_Win_create and
 *    MPI_Win_create_dynamic (MPI_Win_attach).
 *
 *   hxb-mpi-rma [-m MAX_BYTES]     (default 4 MiB)
 * Prints "hxb_mpi_rma: ok: N checks" on rank 0, or FAIL lines and exits 1. */
#include "hxb_mpi_check.h"

#include <mpi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int nprocs;
static long checks;

static void verify(const char *what, const void *buf, size_t len, unsigned seed)
{
    checks += len > 0;    /* an empty message proves nothing */
    check_bytes(what, buf, len, seed);
}

/* the sizes checked: 0, then p-1, p and p+1 for p = 4, 16, 64, ... below
 * max, then max: around every power of two that may be a protocol boundary */
static size_t next_size(size_t n, size_t max)
{
    size_t p = 4;

    if (n >= max) {
        return max + 1;
    }
    while (p + 1 <= n) {
        p *= 4;
    }
    n = n + 1 >= p - 1 ? n + 1 : p - 1;
    return n < max ? n : max;
}

/* fence epochs: each rank puts into and gets from the next rank */
static void check_fence(MPI_Win win, uint8_t *base, uint8_t *local, size_t max)
{
    int to = (rank + 1) % nprocs, from = (rank + nprocs - 1) % nprocs;
    size_t n;
    char what[64];

    for (n = 0; n <= max; n = next_size(n, max)) {
        unsigned seed = (unsigned)n * 3u;

        /* Put: the next rank's window holds our pattern */
        memset(base, 0, n);
        fill(local, n, seed + (unsigned)rank);
        MPI_Win_fence(0, win);
        MPI_Put(local, (int)n, MPI_BYTE, to, 0, (int)n, MPI_BYTE, win);
        MPI_Win_fence(0, win);
        snprintf(what, sizeof(what), "fence put from %d", from);
        verify(what, base, n, seed + (unsigned)from);

        /* Get: read the previous rank's window (it holds its own pattern) */
        fill(base, n, seed + 100u + (unsigned)rank);
        memset(local, 0, n);
        MPI_Win_fence(0, win);
        MPI_Get(local, (int)n, MPI_BYTE, from, 0, (int)n, MPI_BYTE, win);
        MPI_Win_fence(0, win);
        snprintf(what, sizeof(what), "fence get from %d", from);
        verify(what, local, n, seed + 100u + (unsigned)from);
    }
}

/* Accumulate: every rank adds into every other rank's window */
static void check_accumulate(MPI_Win win, uint8_t *base, size_t max)
{
    size_t count = max / sizeof(double) < 65536 ? max / sizeof(double) : 65536, i;
    int64_t *iv = malloc(count * sizeof(int64_t));
    double *dv = malloc(count * sizeof(double));
    int t, bad;

    for (i = 0; i < count; i++) {
        iv[i] = (int64_t)(i * 7 + (size_t)rank + 1);
        dv[i] = 0.5 * (double)(i % 1000) + (double)rank;
    }
    /* integers, MPI_SUM */
    memset(base, 0, count * sizeof(int64_t));
    MPI_Win_fence(0, win);
    for (t = 0; t < nprocs; t++) {
        MPI_Accumulate(iv, (int)count, MPI_INT64_T, t, 0, (int)count, MPI_INT64_T, MPI_SUM, win);
    }
    MPI_Win_fence(0, win);
    checks++;
    for (i = 0, bad = 0; i < count && !bad; i++) {
        int64_t want = (int64_t)nprocs * (int64_t)(i * 7 + 1) + (int64_t)nprocs * (nprocs - 1) / 2;
        int64_t got;

        memcpy(&got, base + i * sizeof(got), sizeof(got));
        if (got != want) {
            FAIL("accumulate int64 sum: element %zu is %lld, expected %lld", i,
                 (long long)got, (long long)want);
            bad = 1;
        }
    }
    /* doubles, MPI_SUM (exact: halves and small integers) */
    memset(base, 0, count * sizeof(double));
    MPI_Win_fence(0, win);
    for (t = 0; t < nprocs; t++) {
        MPI_Accumulate(dv, (int)count, MPI_DOUBLE, t, 0, (int)count, MPI_DOUBLE, MPI_SUM, win);
    }
    MPI_Win_fence(0, win);
    checks++;
    for (i = 0, bad = 0; i < count && !bad; i++) {
        double want = nprocs * 0.5 * (double)(i % 1000) + nprocs * (nprocs - 1) / 2.0, got;

        memcpy(&got, base + i * sizeof(got), sizeof(got));
        if (got != want) {
            FAIL("accumulate double sum: element %zu is %g, expected %g", i, got, want);
            bad = 1;
        }
    }
    /* MPI_REPLACE from one rank is a put */
    memset(base, 0, count * sizeof(int64_t));
    MPI_Win_fence(0, win);
    if (rank == 0) {
        for (t = 0; t < nprocs; t++) {
            MPI_Accumulate(iv, (int)count, MPI_INT64_T, t, 0, (int)count, MPI_INT64_T,
                           MPI_REPLACE, win);
        }
    }
    MPI_Win_fence(0, win);
    checks++;
    for (i = 0; i < count; i++) {
        int64_t got;

        memcpy(&got, base + i * sizeof(got), sizeof(got));
        if (got != (int64_t)(i * 7 + 1)) {
            FAIL("accumulate replace: element %zu is %lld", i, (long long)got);
            break;
        }
    }
    free(iv);
    free(dv);
}

/* post/start/complete/wait: even ranks expose, odd ranks access */
static void check_pscw(MPI_Win win, uint8_t *base, uint8_t *local, size_t max)
{
    MPI_Group world, peer_group;
    int peer = rank ^ 1;
    size_t n = max / 2;

    if (peer >= nprocs) {       /* odd one out: only the barrier */
        MPI_Barrier(MPI_COMM_WORLD);
        return;
    }
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &peer, &peer_group);
    if (rank % 2 == 0) {
        fill(base + n, n, 77);
        memset(base, 0, n);
        MPI_Win_post(peer_group, 0, win);
        MPI_Win_wait(win);
        verify("pscw put", base, n, 78);
    } else {
        fill(local, n, 78);
        memset(local + n, 0, n);
        MPI_Win_start(peer_group, 0, win);
        MPI_Put(local, (int)n, MPI_BYTE, peer, 0, (int)n, MPI_BYTE, win);
        MPI_Get(local + n, (int)n, MPI_BYTE, peer, (MPI_Aint)n, (int)n, MPI_BYTE, win);
        MPI_Win_complete(win);
        verify("pscw get", local + n, n, 77);
    }
    MPI_Group_free(&peer_group);
    MPI_Group_free(&world);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* passive target: every rank writes its own slot of rank 0's window under
 * an exclusive lock, reads it back under a shared one; lock_all + flush */
static void check_passive(MPI_Win win, uint8_t *base, uint8_t *local, size_t max)
{
    size_t slot = max / (size_t)nprocs, n;
    int t;

    if (slot > 1 << 20) {
        slot = 1 << 20;
    }
    if (rank == 0) {
        memset(base, 0, slot * (size_t)nprocs);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    fill(local, slot, 500u + (unsigned)rank);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    MPI_Put(local, (int)slot, MPI_BYTE, 0, (MPI_Aint)(slot * (size_t)rank), (int)slot,
            MPI_BYTE, win);
    MPI_Win_unlock(0, win);
    memset(local, 0, slot);
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    MPI_Get(local, (int)slot, MPI_BYTE, 0, (MPI_Aint)(slot * (size_t)rank), (int)slot,
            MPI_BYTE, win);
    MPI_Win_unlock(0, win);
    verify("passive put/get", local, slot, 500u + (unsigned)rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        for (t = 0; t < nprocs; t++) {
            verify("passive slot", base + slot * (size_t)t, slot, 500u + (unsigned)t);
        }
    }

    /* lock_all, puts of growing size to every rank, flush, read back */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    for (n = 1; n <= slot; n *= 8) {
        fill(local, n, 900u + (unsigned)n);
        t = (rank + 1) % nprocs;
        MPI_Put(local, (int)n, MPI_BYTE, t, (MPI_Aint)(slot * (size_t)rank), (int)n, MPI_BYTE,
                win);
        MPI_Win_flush(t, win);
        memset(local, 0, n);
        MPI_Get(local, (int)n, MPI_BYTE, t, (MPI_Aint)(slot * (size_t)rank), (int)n, MPI_BYTE,
                win);
        MPI_Win_flush_local(t, win);
        MPI_Win_flush(t, win);
        verify("lock_all put/flush/get", local, n, 900u + (unsigned)n);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* atomics on rank 0's window: a shared counter, compare-and-swap, get_accumulate */
static void check_atomics(MPI_Win win, uint8_t *base)
{
    enum { rounds = 50 };
    int64_t one = 1, old, got, cmp, mine, zero = 0, fetched[rounds], *all = NULL;
    int i, seen = 0;

    if (rank == 0) {
        memset(base, 0, 4 * sizeof(int64_t));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    for (i = 0; i < rounds; i++) {
        MPI_Fetch_and_op(&one, &fetched[i], MPI_INT64_T, 0, 0, MPI_SUM, win);
        MPI_Win_flush(0, win);
    }
    /* each rank claims slot 1 once if free (0 -> rank+1); exactly one wins */
    mine = rank + 1;
    cmp = 0;
    MPI_Compare_and_swap(&mine, &cmp, &old, MPI_INT64_T, 0, sizeof(int64_t), win);
    MPI_Win_flush(0, win);
    seen = old == 0;
    /* get_accumulate: sum into slot 2, fetch the previous value */
    MPI_Get_accumulate(&one, 1, MPI_INT64_T, &old, 1, MPI_INT64_T, 0, 2 * sizeof(int64_t),
                       1, MPI_INT64_T, MPI_SUM, win);
    MPI_Win_flush(0, win);
    MPI_Win_unlock_all(win);
    MPI_Allreduce(MPI_IN_PLACE, &seen, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    checks += 5;
    /* every value the counters went through was fetched exactly once:
     * 0 .. rounds*nprocs-1 by Fetch_and_op, 0 .. nprocs-1 by Get_accumulate */
    if (rank == 0) {
        all = malloc(sizeof(*all) * (size_t)(rounds + 1) * (size_t)nprocs);
    }
    MPI_Gather(fetched, rounds, MPI_INT64_T, all, rounds, MPI_INT64_T, 0, MPI_COMM_WORLD);
    MPI_Gather(&old, 1, MPI_INT64_T, rank == 0 ? all + (size_t)rounds * nprocs : NULL, 1,
               MPI_INT64_T, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        uint8_t *hit = calloc((size_t)rounds * nprocs, 1);
        int64_t *ga = all + (size_t)rounds * nprocs;

        for (i = 0; i < rounds * nprocs; i++) {
            if (all[i] < 0 || all[i] >= (int64_t)rounds * nprocs || hit[all[i]]) {
                FAIL("fetch_and_op: value %lld fetched twice or out of range",
                     (long long)all[i]);
                break;
            }
            hit[all[i]] = 1;
        }
        memset(hit, 0, (size_t)nprocs);
        for (i = 0; i < nprocs; i++) {
            if (ga[i] < 0 || ga[i] >= nprocs || hit[ga[i]]) {
                FAIL("get_accumulate: value %lld fetched twice or out of range",
                     (long long)ga[i]);
                break;
            }
            hit[ga[i]] = 1;
        }
        free(hit);
        free(all);
    }
    if (seen != 1) {
        FAIL("compare_and_swap: %d ranks won the slot, expected 1", seen);
    }
    if (rank == 0) {
        memcpy(&got, base, sizeof(got));
        if (got != (int64_t)rounds * nprocs) {
            FAIL("fetch_and_op: counter %lld, expected %lld", (long long)got,
                 (long long)rounds * nprocs);
        }
        memcpy(&got, base + 2 * sizeof(int64_t), sizeof(got));
        if (got != nprocs) {
            FAIL("get_accumulate: counter %lld, expected %d", (long long)got, nprocs);
        }
        memcpy(&got, base + sizeof(int64_t), sizeof(got));
        if (got < 1 || got > nprocs) {
            FAIL("compare_and_swap: slot holds %lld", (long long)got);
        }
    }
    (void)zero;
    MPI_Barrier(MPI_COMM_WORLD);
}

/* a dynamic window: rank 0 attaches a buffer and publishes its address */
static void check_dynamic(size_t max)
{
    size_t n = max < (1 << 20) ? max : (1 << 20);
    uint8_t *buf = malloc(n ? n : 1), *local = malloc(n ? n : 1);
    MPI_Aint addr = 0;
    MPI_Win win;

    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        fill(buf, n, 4242);
        MPI_Win_attach(win, buf, (MPI_Aint)n);
        MPI_Get_address(buf, &addr);
    }
    MPI_Bcast(&addr, 1, MPI_AINT, 0, MPI_COMM_WORLD);
    memset(local, 0, n ? n : 1);
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    MPI_Get(local, (int)n, MPI_BYTE, 0, addr, (int)n, MPI_BYTE, win);
    MPI_Win_unlock(0, win);
    verify("dynamic window get", local, n, 4242);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_detach(win, buf);
    }
    MPI_Win_free(&win);
    free(buf);
    free(local);
}

int main(int argc, char **argv)
{
    size_t max = 4u << 20;
    uint8_t *base, *local, *cbase;
    MPI_Win win, cwin;
    long all_checks = 0, all_errors = 0;
    int opt;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    while ((opt = getopt(argc, argv, "m:")) != -1) {
        if (opt == 'm') {
            max = strtoull(optarg, NULL, 0);
        }
    }
    if (max < 64) {
        max = 64;
    }
    local = malloc(max);
    /* Win_allocate: the library's own memory (registered up front) */
    MPI_Win_allocate((MPI_Aint)max, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    check_fence(win, base, local, max);
    check_accumulate(win, base, max);
    check_pscw(win, base, local, max);
    check_passive(win, base, local, max);
    check_atomics(win, base);
    MPI_Win_free(&win);
    /* Win_create: user memory */
    cbase = malloc(max);
    MPI_Win_create(cbase, (MPI_Aint)max, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &cwin);
    check_fence(cwin, cbase, local, max < (1 << 20) ? max : (1 << 20));
    check_passive(cwin, cbase, local, max);
    MPI_Win_free(&cwin);
    free(cbase);
    check_dynamic(max);

    MPI_Reduce(&checks, &all_checks, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&errors, &all_errors, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        if (all_errors) {
            printf("hxb_mpi_rma: FAIL: %ld of %ld checks\n", all_errors, all_checks);
        } else {
            printf("hxb_mpi_rma: ok: %ld checks\n", all_checks);
        }
        fflush(stdout);
    }
    free(local);
    MPI_Finalize();
    return errors ? 1 : 0;
}
