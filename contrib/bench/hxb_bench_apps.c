/* Application mini-benchmarks: the communication patterns of the NAS
 * Parallel Benchmarks (NPB 3.4.1, MPI) CG, IS and FT, and an OSU-style
 * window loop, without NPB's source (contrib/bench/hxb-bench-apps; issue
 * 26). Not a test: it prints figures. Every kernel checks its data.
 *
 *   hxb-bench-apps-mpi -k cg|cgar|is|ft|osu [-c S|W|A] [-n ITERS]
 *                      [-s BYTES] [-w KB] [-X] [-h]
 *
 * What is reproduced from NPB 3.4.1 (CG/cg.f90, IS/is.c, FT/ft.f90):
 *
 * cg: P ranks (a power of two) as a grid of nprows x npcols, npcols =
 *   nprows when P is a square, else 2 * nprows (setup_proc_info); the row
 *   and column ranges, send_start/send_len, exch_proc (the transpose
 *   partner), reduce_exch_proc (the recursive-doubling partners within a
 *   row) and reduce_send/recv_lengths are setup_submatrix_info's, computed
 *   for every rank. na = 1400 (S), 7000 (W), 14000 (A); ITERS defaults to
 *   niter = 15. One iteration is one conj_grad call: the rho reduction,
 *   then 25 CG steps, each of
 *     - the row-wise sum of A.p: log2(npcols) MPI_Irecv + MPI_Send +
 *       MPI_Wait of reduce_send_lengths(i) doubles (class A, 8 ranks: 3500
 *       doubles, 28 000 bytes),
 *     - the transpose exchange with exch_proc: Irecv + Send + Wait of
 *       send_len doubles (class A, 8 ranks: 28 000 bytes; for 2 ranks the
 *       partner is the rank itself, as in NPB),
 *     - two scalar sum reductions (d, rho), each log2(npcols) Irecv + Send
 *       + Wait of 1 double with reduce_exch_proc(i): NPB's CG has no
 *       MPI_Allreduce in its timed loop,
 *     - a compute stand-in: -w KB (default 32) of memory read and written
 *       (fixed work, not a fixed time: CPU taken by polling ranks on the
 *       same cores makes it slower, as it makes NPB's matrix-vector product
 *       slower);
 *   then the residual (one more row sum, transpose and scalar reduction)
 *   and the norm reduction (2 doubles) of the outer iteration. NPB's
 *   tags (i for step i of a reduction, 1 for the transpose) are kept.
 * cgar: the same, but the scalar reductions are MPI_Allreduce (1 double,
 *   2 for the norm): how a small-collective path changes CG's time.
 * is: per iteration (ITERS defaults to NPB's 10) an MPI_Allreduce of
 *   NUM_BUCKETS + 5 ints (bucket sizes; NUM_BUCKETS 512 S, 1024 W and A),
 *   an MPI_Alltoall of 1 int (the key counts), then an MPI_Alltoallv of
 *   the keys, ints: every rank holds TOTAL_KEYS / P keys (2^16 S, 2^20 W,
 *   2^23 A) and sends them all, in uneven parts (a weight of 4 to 8 per
 *   destination, varied by sender, receiver and iteration; NPB's parts
 *   vary with its random keys). NPB's partial verification and the final
 *   neighbour exchange of one key are left out.
 * ft: per iteration (ITERS defaults to NPB's 6) the 1-D layout's
 *   transpose (transpose_xy_z -> transpose2_global): one MPI_Alltoall of
 *   nx*ny*nz / P / P double complex (16 bytes) to every rank (64x64x64 S,
 *   128x128x32 W, 256x256x128 A: class A, 8 ranks: 2 MiB to each), then
 *   the checksum: an MPI_Reduce of 1 double complex to rank 0 (NPB's
 *   checksum reduces, it does not allreduce).
 * osu: ranks 0 and 1 only (others wait): osu_bw's loop, windows of 64
 *   MPI_Isend of BYTES from one buffer, the receiver's MPI_Irecv into one
 *   buffer, a 4-byte reply per window; for 65536 and 1048576 bytes, or
 *   only -s BYTES; ITERS windows (default 20, osu_bw's loop_large); then
 *   osu_latency's 8-byte ping-pong, 50 * ITERS round trips.
 *
 * Data checks: every message is filled with a pattern of (sender, receiver,
 * iteration, step) and checked on receipt, element by element, with the
 * received count; reductions are checked against the sums computed
 * locally. A mismatch prints who, what and where and aborts (nonzero exit).
 * -X (test only): rank 1 flips a byte of its first received buffer before
 * checking it, so the check must fail. The osu loop checks its one receive
 * buffer after each window (the last message written into it).
 *
 * Timing: a warm-up iteration (osu: 2 windows, 100 round trips) first, not
 * timed; then ITERS iterations, timed with MPI_Wtime around the
 * communication and the compute stand-in, not around the filling and
 * checking. secs is the slowest rank's sum; wall_secs the slowest rank's
 * whole loop with the checks. Rank 0 prints one line per run:
 *   hxb_bench_apps: kernel=cg class=A np=8 iters=15 secs=1.234
 *     per_iter_us=82266.7 wall_secs=1.301 msgs_per_iter=186
 *     bytes_per_iter=2184416 verified=1
 * (msgs and bytes per iteration: those rank 0 sends); osu prints
 *   hxb_bench_apps: kernel=osu case=bw size=65536 window=64 iters=20
 *     secs=... per_iter_us=... mbs=... verified=1   (MB/s = 10^6 bytes/s)
 *   hxb_bench_apps: kernel=osu case=lat size=8 iters=1000 secs=...
 *     per_iter_us=... lat_us=... verified=1   (lat: half a round trip) */
#include <mpi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PFX "hxb_bench_apps"

static int rank, nprocs;
static char kernel[8] = "";
static int corrupt;        /* -X: rank 1 corrupts its first received buffer */
static long n_msgs, n_bytes; /* sent by this rank in the timed loop */
static double t_acc, t_mark; /* timed time so far, start of the timed span */

static void tstart(void) { t_mark = MPI_Wtime(); }
static void tstop(void) { t_acc += MPI_Wtime() - t_mark; }

static void usage(FILE *f)
{
    fprintf(f,
        "usage: hxb-bench-apps-mpi -k KERNEL [-c S|W|A] [-n ITERS] [-s BYTES] [-w KB] [-X] [-h]\n"
        "  -k cg    NAS CG's pattern (P a power of two): row sums and the transpose as\n"
        "           Irecv+Send of ~28 KB (class A, 8 ranks), scalar sums as 1-double exchanges\n"
        "     cgar  the same with the scalar sums as MPI_Allreduce\n"
        "     is    NAS IS's: Allreduce of bucket sizes, Alltoall of counts, Alltoallv of keys\n"
        "     ft    NAS FT's: Alltoall of nx*ny*nz/P/P complex to each rank, Reduce of a checksum\n"
        "     osu   osu_bw (window 64, ranks 0 -> 1) at 64 KiB and 1 MiB, then osu_latency 8 B\n"
        "  -c       class S, W or A (NPB's sizes; default A)\n"
        "  -n       timed iterations (default: NPB's: cg 15, is 10, ft 6; osu 20 windows,\n"
        "           latency 50 x ITERS round trips)\n"
        "  -s       osu: only this message size\n"
        "  -w       cg: KB of memory touched per CG step, the compute stand-in (default 32)\n"
        "  -X       test only: rank 1 corrupts a byte of its first received buffer\n"
        "Prints one line per run: \"" PFX ": kernel=... secs=... verified=1\".\n");
}

static void die(const char *what)
{
    fprintf(stderr, PFX ": rank %d: %s\n", rank, what);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

static void *xalloc(size_t len)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, len ? len : 1))
        die("out of memory");
    memset(p, 0, len ? len : 1);
    return p;
}

/* the pattern's base for one message: a mix of its coordinates, kept
 * under 2^24 so that base + index is exact in a double */
static uint32_t base_of(int src, int dst, int it, int step)
{
    uint32_t h = (uint32_t)src * 0x9E3779B1u ^ (uint32_t)dst * 0x85EBCA77u ^
                 (uint32_t)(it + 7) * 0xC2B2AE3Du ^ (uint32_t)step * 0x27D4EB2Fu;
    h ^= h >> 15; h *= 0x2C1B3C6Du; h ^= h >> 12;
    return h & 0xFFFFFF;
}

/* -X: rank 1's first checked buffer gets a byte flipped, once */
static void maybe_corrupt(void *buf, size_t len)
{
    static int done;
    if (corrupt && rank == 1 && !done && len > 0) {
        ((unsigned char *)buf)[len / 2] ^= 0x5a;
        done = 1;
    }
}

static void mismatch(int src, int it, int step, long at, double got, double want)
{
    char from[32];
    if (src < 0)
        snprintf(from, sizeof(from), "a reduction");
    else
        snprintf(from, sizeof(from), "rank %d", src);
    fprintf(stderr, PFX ": kernel=%s rank %d: data mismatch from %s "
            "(iteration %d, step %d) at element %ld: got %.17g, expected %.17g\n",
            kernel, rank, from, it, step, at, got, want);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 3);
}

static void fill_d(double *v, long n, int src, int dst, int it, int step)
{
    double b = base_of(src, dst, it, step);
    for (long j = 0; j < n; j++)
        v[j] = b + (double)j;
}

static void check_d(double *v, long n, int src, int it, int step)
{
    double b = base_of(src, rank, it, step);
    maybe_corrupt(v, n * sizeof(*v));
    for (long j = 0; j < n; j++)
        if (v[j] != b + (double)j)
            mismatch(src, it, step, j, v[j], b + (double)j);
}

static void fill_i(int *v, long n, int src, int dst, int it)
{
    int b = (int)base_of(src, dst, it, 0);
    for (long j = 0; j < n; j++)
        v[j] = b + (int)j;
}

static void check_i(int *v, long n, int src, int it)
{
    int b = (int)base_of(src, rank, it, 0);
    for (long j = 0; j < n; j++)
        if (v[j] != b + (int)j)
            mismatch(src, it, 0, j, v[j], b + (int)j);
}

static void check_count(MPI_Status *st, MPI_Datatype t, long want, int src, int it, int step)
{
    int got;
    MPI_Get_count(st, t, &got);
    if (got != want) {
        fprintf(stderr, PFX ": kernel=%s rank %d: from rank %d (iteration %d, step %d) "
                "%d elements arrived, %ld expected\n", kernel, rank, src, it, step, got, want);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
}

/* the run's line: secs and wall the slowest rank's, msgs and bytes rank 0's */
static void report(const char *extra, int iters, double secs, double wall)
{
    double in[2] = { secs, wall }, out[2];
    MPI_Reduce(in, out, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf(PFX ": kernel=%s %s np=%d iters=%d secs=%.6f per_iter_us=%.1f "
               "wall_secs=%.6f msgs_per_iter=%ld bytes_per_iter=%ld verified=1\n",
               kernel, extra, nprocs, iters, out[0], out[0] / iters * 1e6, out[1],
               n_msgs / iters, n_bytes / iters);
        fflush(stdout);
    }
}

/* ------------------------------------------------------------------ cg */

struct cg_rank {
    int firstrow, lastrow, firstcol, lastcol;
    int send_start, send_len, exch_proc, exch_recv_length;
    int l2npcols;
    int reduce_exch_proc[32], reduce_send_starts[32], reduce_send_lengths[32];
    int reduce_recv_lengths[32];
};

/* part idx of n items cut into parts (the first n % parts one larger),
 * as cg.f90 cuts rows and columns: its first item (1-based) and size */
static void cg_block(int n, int parts, int idx, int *first, int *size)
{
    int rem = n - n / parts * parts;

    if (idx < rem) {
        *size = n / parts + 1;
        *first = idx * *size + 1;
    } else {
        *size = n / parts;
        *first = rem * (*size + 1) + (idx - rem) * *size + 1;
    }
}

/* setup_submatrix_info of NPB 3.4.1's cg.f90, 1-based like it, for rank me */
static void cg_setup(struct cg_rank *c, int me, int na, int nprows, int npcols)
{
    int proc_row = me / npcols, proc_col = me - proc_row * npcols;
    int col_size, row_size, i, div;

    if (na / npcols * npcols == na) {
        col_size = na / npcols;
        c->firstcol = proc_col * col_size + 1;
        c->lastcol = c->firstcol - 1 + col_size;
        row_size = na / nprows;
        c->firstrow = proc_row * row_size + 1;
        c->lastrow = c->firstrow - 1 + row_size;
    } else {
        cg_block(na, nprows, proc_row, &c->firstrow, &row_size);
        c->lastrow = c->firstrow - 1 + row_size;
        if (npcols == nprows) {
            cg_block(na, npcols, proc_col, &c->firstcol, &col_size);
            c->lastcol = c->firstcol - 1 + col_size;
        } else {
            cg_block(na, npcols / 2, proc_col / 2, &c->firstcol, &col_size);
            c->lastcol = c->firstcol - 1 + col_size;
            if (me % 2 == 0) {
                c->lastcol = c->firstcol - 1 + (col_size - 1) / 2 + 1;
            } else {
                c->firstcol = c->firstcol + (col_size - 1) / 2 + 1;
                c->lastcol = c->firstcol - 1 + col_size / 2;
            }
        }
    }
    if (npcols == nprows) {
        c->send_start = 1;
        c->send_len = c->lastrow - c->firstrow + 1;
    } else if (me % 2 == 0) {
        c->send_start = 1;
        c->send_len = (1 + c->lastrow - c->firstrow + 1) / 2;
    } else {
        c->send_start = (1 + c->lastrow - c->firstrow + 1) / 2 + 1;
        c->send_len = (c->lastrow - c->firstrow + 1) / 2;
    }
    if (npcols == nprows)
        c->exch_proc = (me % nprows) * nprows + me / nprows;
    else
        c->exch_proc = 2 * (((me / 2) % nprows) * nprows + me / 2 / nprows) + me % 2;
    c->l2npcols = 0;
    for (i = npcols / 2; i > 0; i /= 2)
        c->l2npcols++;
    div = npcols;
    for (i = 1; i <= c->l2npcols; i++) {
        int j = (proc_col + div / 2) % div + proc_col / div * div;
        c->reduce_exch_proc[i] = proc_row * npcols + j;
        div /= 2;
    }
    for (i = c->l2npcols; i >= 1; i--) {
        if (nprows == npcols) {
            c->reduce_send_starts[i] = c->send_start;
            c->reduce_send_lengths[i] = c->send_len;
            c->reduce_recv_lengths[i] = c->lastrow - c->firstrow + 1;
        } else {
            c->reduce_recv_lengths[i] = c->send_len;
            if (i == c->l2npcols) {
                c->reduce_send_lengths[i] = c->lastrow - c->firstrow + 1 - c->send_len;
                c->reduce_send_starts[i] = me / 2 * 2 == me ? c->send_start + c->send_len : 1;
            } else {
                c->reduce_send_lengths[i] = c->send_len;
                c->reduce_send_starts[i] = c->send_start;
            }
        }
    }
    c->exch_recv_length = c->lastcol - c->firstcol + 1;
}

struct cg_state {
    struct cg_rank *all, *me;
    double *w, *q, *work;
    long worklen;
    int allreduce, it, step;
};

/* Irecv + Send + Wait of a vector with peer, tag, as NPB's CG does; the
 * peer's send length is what arrives */
static void cg_vec(struct cg_state *s, int peer, int tag, int sendlen, int recvmax, int peer_sendlen)
{
    MPI_Request rq;
    MPI_Status st;
    int step = s->step++;
    fill_d(s->w, sendlen, rank, peer, s->it, step);
    tstart();
    MPI_Irecv(s->q, recvmax, MPI_DOUBLE, peer, tag, MPI_COMM_WORLD, &rq);
    MPI_Send(s->w, sendlen, MPI_DOUBLE, peer, tag, MPI_COMM_WORLD);
    MPI_Wait(&rq, &st);
    tstop();
    n_msgs++;
    n_bytes += (long)sendlen * 8;
    check_count(&st, MPI_DOUBLE, peer_sendlen, peer, s->it, step);
    check_d(s->q, peer_sendlen, peer, s->it, step);
}

/* the row sum of w (the matrix-vector product's partial rows), then the
 * transpose exchange */
static void cg_rowsum_transpose(struct cg_state *s)
{
    struct cg_rank *c = s->me;
    int i;
    for (i = c->l2npcols; i >= 1; i--) {
        int p = c->reduce_exch_proc[i];
        cg_vec(s, p, i, c->reduce_send_lengths[i], c->reduce_recv_lengths[i],
               s->all[p].reduce_send_lengths[i]);
    }
    if (c->l2npcols != 0)
        cg_vec(s, c->exch_proc, 1, c->send_len, c->exch_recv_length,
               s->all[c->exch_proc].send_len);
}

/* a sum over the row of n (1 or 2) values: NPB's recursive doubling, or
 * MPI_Allreduce (cgar; over all ranks, which is what the pattern costs);
 * each rank contributes small integers, so the sums are exact */
static void cg_scalar(struct cg_state *s, int n)
{
    struct cg_rank *c = s->me;
    double mine[2], sum[2], in[2], want[2] = { 0, 0 };
    int step = s->step++, i, k, r;
    for (k = 0; k < n; k++)
        mine[k] = sum[k] = (double)(base_of(rank, 0, s->it, step * 2 + k) & 0xFFFF);
    if (s->allreduce) {
        tstart();
        MPI_Allreduce(mine, sum, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        tstop();
        for (r = 0; r < nprocs; r++)
            for (k = 0; k < n; k++)
                want[k] += (double)(base_of(r, 0, s->it, step * 2 + k) & 0xFFFF);
    } else {
        for (i = 1; i <= c->l2npcols; i++) {
            MPI_Request rq;
            MPI_Status st;
            tstart();
            MPI_Irecv(in, n, MPI_DOUBLE, c->reduce_exch_proc[i], i, MPI_COMM_WORLD, &rq);
            MPI_Send(sum, n, MPI_DOUBLE, c->reduce_exch_proc[i], i, MPI_COMM_WORLD);
            MPI_Wait(&rq, &st);
            tstop();
            n_msgs++;
            n_bytes += n * 8;
            check_count(&st, MPI_DOUBLE, n, c->reduce_exch_proc[i], s->it, step);
            maybe_corrupt(in, n * sizeof(double));
            for (k = 0; k < n; k++)
                sum[k] += in[k];
        }
        /* the row: ranks proc_row * npcols .. + npcols - 1 */
        int npcols = 1 << c->l2npcols, row0 = rank / npcols * npcols;
        for (r = row0; r < row0 + npcols; r++)
            for (k = 0; k < n; k++)
                want[k] += (double)(base_of(r, 0, s->it, step * 2 + k) & 0xFFFF);
    }
    for (k = 0; k < n; k++)
        if (sum[k] != want[k])
            mismatch(-1, s->it, step, k, sum[k], want[k]);
}

/* the compute stand-in: a fixed amount of memory read and written */
static void cg_work(struct cg_state *s)
{
    tstart();
    for (long j = 0; j < s->worklen; j++)
        s->work[j] = s->work[j] * 0.5 + 1.0;
    tstop();
}

static void cg_iteration(struct cg_state *s)
{
    int cgit;
    s->step = 0;
    cg_scalar(s, 1);                         /* rho = r.r */
    for (cgit = 1; cgit <= 25; cgit++) {
        cg_work(s);                          /* w = A.p (local part) */
        cg_rowsum_transpose(s);
        cg_scalar(s, 1);                     /* d = p.q */
        cg_scalar(s, 1);                     /* rho = r.r */
    }
    cg_work(s);                              /* the residual: A.z */
    cg_rowsum_transpose(s);
    cg_scalar(s, 1);                         /* ||x - A.z|| */
    cg_scalar(s, 2);                         /* the outer loop's x.z, z.z */
}

static void run_cg(char cls, int iters, long work_kb, int allreduce)
{
    int na = cls == 'S' ? 1400 : cls == 'W' ? 7000 : 14000;
    int nprows = 1, npcols = 1, l2 = 0, r, it;
    struct cg_state s = { 0 };
    double w0;

    while ((1 << l2) < nprocs)
        l2++;
    if ((1 << l2) != nprocs || nprocs < 2)
        die("cg wants a power of two of ranks, at least 2 (as NPB's CG)");
    /* setup_proc_info: square, or npcols = 2 * nprows */
    nprows = 1 << (l2 / 2);
    npcols = nprocs / nprows;
    s.all = calloc(nprocs, sizeof(*s.all));
    if (!s.all)
        die("out of memory");
    for (r = 0; r < nprocs; r++)
        cg_setup(&s.all[r], r, na, nprows, npcols);
    s.me = &s.all[rank];
    s.w = xalloc((size_t)(na + 2) * sizeof(double));
    s.q = xalloc((size_t)(na + 2) * sizeof(double));
    s.worklen = work_kb * 1024 / sizeof(double);
    s.work = xalloc((size_t)s.worklen * sizeof(double) + 8);
    s.allreduce = allreduce;

    s.it = -1;                               /* warm-up, not timed */
    cg_iteration(&s);
    n_msgs = n_bytes = 0;
    t_acc = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    w0 = MPI_Wtime();
    for (it = 0; it < iters; it++) {
        s.it = it;
        cg_iteration(&s);
    }
    w0 = MPI_Wtime() - w0;
    char extra[96];
    snprintf(extra, sizeof(extra), "class=%c grid=%dx%d work_kb=%ld", cls, nprows, npcols, work_kb);
    report(extra, iters, t_acc, w0);
}

/* ------------------------------------------------------------------ is */

/* the keys rank src sends to each rank in iteration it: weights of 4 to 8,
 * the rest of the division to the last rank */
static void is_counts(int src, int it, long num_keys, int *cnt)
{
    long wsum = 0, given = 0;
    int d;
    for (d = 0; d < nprocs; d++)
        wsum += 4 + (src + 3 * d + it + 5) % 5;
    for (d = 0; d < nprocs; d++) {
        cnt[d] = (int)(num_keys * (4 + (src + 3 * d + it + 5) % 5) / wsum);
        given += cnt[d];
    }
    cnt[nprocs - 1] += (int)(num_keys - given);
}

static void run_is(char cls, int iters)
{
    int log2keys = cls == 'S' ? 16 : cls == 'W' ? 20 : 23;
    int nbuckets = (cls == 'S' ? 512 : 1024) + 5; /* NUM_BUCKETS + TEST_ARRAY_SIZE */
    long num_keys = (1L << log2keys) / nprocs;
    int *bsize = xalloc(nbuckets * sizeof(int)), *btot = xalloc(nbuckets * sizeof(int));
    int *scnt = xalloc(nprocs * sizeof(int)), *rcnt = xalloc(nprocs * sizeof(int));
    int *sdis = xalloc(nprocs * sizeof(int)), *rdis = xalloc(nprocs * sizeof(int));
    int *want = xalloc(nprocs * sizeof(int));
    int *keys = xalloc(num_keys * sizeof(int)), *rkeys = NULL;
    long rmax = 0, rtot;
    int it, d, b, r;
    double w0 = 0;

    if (num_keys < nprocs)
        die("is: fewer keys than ranks");
    /* the receive buffer: the most keys any iteration brings */
    for (it = -1; it < iters; it++) {
        rtot = 0;
        for (r = 0; r < nprocs; r++) {
            is_counts(r, it, num_keys, want);
            rtot += want[rank];
        }
        if (rtot > rmax)
            rmax = rtot;
    }
    rkeys = xalloc(rmax * sizeof(int));

    for (it = -1; it < iters; it++) {        /* -1: the warm-up */
        if (it == 0) {
            n_msgs = n_bytes = 0;
            t_acc = 0;
            MPI_Barrier(MPI_COMM_WORLD);
            w0 = MPI_Wtime();
        }
        for (b = 0; b < nbuckets; b++)
            bsize[b] = (rank * 7 + b * 3 + it + 1) % 97;
        is_counts(rank, it, num_keys, scnt);
        for (d = 0, sdis[0] = 0; d < nprocs; d++) {
            if (d)
                sdis[d] = sdis[d - 1] + scnt[d - 1];
            fill_i(keys + sdis[d], scnt[d], rank, d, it);
        }
        tstart();
        MPI_Allreduce(bsize, btot, nbuckets, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        MPI_Alltoall(scnt, 1, MPI_INT, rcnt, 1, MPI_INT, MPI_COMM_WORLD);
        tstop();
        maybe_corrupt(btot, nbuckets * sizeof(int));
        for (b = 0; b < nbuckets; b++) {
            long sum = 0;
            for (r = 0; r < nprocs; r++)
                sum += (r * 7 + b * 3 + it + 1) % 97;
            if (btot[b] != sum)
                mismatch(-1, it, 1, b, btot[b], (double)sum);
        }
        for (r = 0, rdis[0] = 0; r < nprocs; r++) {
            is_counts(r, it, num_keys, want);
            if (rcnt[r] != want[rank])
                mismatch(r, it, 2, 0, rcnt[r], want[rank]);
            if (r)
                rdis[r] = rdis[r - 1] + rcnt[r - 1];
        }
        tstart();
        MPI_Alltoallv(keys, scnt, sdis, MPI_INT, rkeys, rcnt, rdis, MPI_INT, MPI_COMM_WORLD);
        tstop();
        n_msgs += 3L * (nprocs - 1);
        n_bytes += (long)(nbuckets + 1) * 4 + (num_keys - scnt[rank]) * 4;
        for (r = 0; r < nprocs; r++) {
            if (r != rank)
                maybe_corrupt(rkeys + rdis[r], rcnt[r] * sizeof(int));
            check_i(rkeys + rdis[r], rcnt[r], r, it);
        }
    }
    w0 = MPI_Wtime() - w0;
    char extra[64];
    snprintf(extra, sizeof(extra), "class=%c keys_per_rank=%ld", cls, num_keys);
    report(extra, iters, t_acc, w0);
}

/* ------------------------------------------------------------------ ft */

static void run_ft(char cls, int iters)
{
    long nx = cls == 'S' ? 64 : cls == 'W' ? 128 : 256;
    long ny = nx, nz = cls == 'S' ? 64 : cls == 'W' ? 32 : 128;
    long total = nx * ny * nz, blk;           /* double complex per block */
    double *sb, *rb, chk[2], all[2];
    int it, d;
    double w0 = 0;

    if (total % ((long)nprocs * nprocs) || nprocs > nz)
        die("ft: nx*ny*nz must divide by P*P, and P be at most nz (NPB's 1-D layout)");
    blk = total / nprocs / nprocs;
    sb = xalloc((size_t)blk * nprocs * 16);
    rb = xalloc((size_t)blk * nprocs * 16);
    for (it = -1; it < iters; it++) {
        if (it == 0) {
            n_msgs = n_bytes = 0;
            t_acc = 0;
            MPI_Barrier(MPI_COMM_WORLD);
            w0 = MPI_Wtime();
        }
        for (d = 0; d < nprocs; d++)
            fill_d(sb + d * blk * 2, blk * 2, rank, d, it, 0);
        tstart();
        MPI_Alltoall(sb, (int)(blk * 2), MPI_DOUBLE, rb, (int)(blk * 2), MPI_DOUBLE, MPI_COMM_WORLD);
        tstop();
        for (d = 0; d < nprocs; d++) {
            if (d != rank)
                maybe_corrupt(rb + d * blk * 2, blk * 16);
            check_d(rb + d * blk * 2, blk * 2, d, it, 0);
        }
        /* the checksum: a complex sum, reduced to rank 0 */
        chk[0] = base_of(rank, 0, it, 1) & 0xFFFF;
        chk[1] = base_of(rank, 0, it, 2) & 0xFFFF;
        tstart();
        MPI_Reduce(chk, all, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        tstop();
        if (rank == 0) {
            double want[2] = { 0, 0 };
            for (d = 0; d < nprocs; d++) {
                want[0] += base_of(d, 0, it, 1) & 0xFFFF;
                want[1] += base_of(d, 0, it, 2) & 0xFFFF;
            }
            if (all[0] != want[0] || all[1] != want[1])
                mismatch(-1, it, 1, 0, all[0], want[0]);
        }
        n_msgs += nprocs - 1 + (rank != 0);
        n_bytes += blk * 16 * (nprocs - 1) + (rank != 0) * 16;
    }
    w0 = MPI_Wtime() - w0;
    char extra[80];
    snprintf(extra, sizeof(extra), "class=%c grid=%ldx%ldx%ld block_bytes=%ld", cls, nx, ny, nz, blk * 16);
    report(extra, iters, t_acc, w0);
}

/* ------------------------------------------------------------------ osu */

#define OSU_WINDOW 64

static void osu_bw(size_t size, int windows)
{
    char *buf = xalloc(size);
    MPI_Request rq[OSU_WINDOW];
    int w, i, ack = 0;
    double w0 = 0;

    t_acc = 0;
    n_msgs = n_bytes = 0;
    for (w = -2; w < windows; w++) {         /* two warm-up windows */
        if (w == 0) {
            MPI_Barrier(MPI_COMM_WORLD);
            w0 = MPI_Wtime();
            n_msgs = n_bytes = 0;
            t_acc = 0;
        }
        if (rank == 0) {
            fill_i((int *)buf, size / 4, 0, 1, w);
            tstart();
            for (i = 0; i < OSU_WINDOW; i++)
                MPI_Isend(buf, (int)size, MPI_CHAR, 1, 100, MPI_COMM_WORLD, &rq[i]);
            MPI_Waitall(OSU_WINDOW, rq, MPI_STATUSES_IGNORE);
            MPI_Recv(&ack, 1, MPI_INT, 1, 101, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            tstop();
            n_msgs += OSU_WINDOW;
            n_bytes += (long)size * OSU_WINDOW;
        } else if (rank == 1) {
            tstart();
            for (i = 0; i < OSU_WINDOW; i++)
                MPI_Irecv(buf, (int)size, MPI_CHAR, 0, 100, MPI_COMM_WORLD, &rq[i]);
            MPI_Waitall(OSU_WINDOW, rq, MPI_STATUSES_IGNORE);
            MPI_Send(&ack, 1, MPI_INT, 0, 101, MPI_COMM_WORLD);
            tstop();
            maybe_corrupt(buf, size);
            check_i((int *)buf, size / 4, 0, w);
        }
    }
    w0 = MPI_Wtime() - w0;
    double in[2] = { t_acc, w0 }, out[2];
    MPI_Reduce(in, out, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf(PFX ": kernel=osu case=bw size=%zu window=%d np=%d iters=%d secs=%.6f "
               "per_iter_us=%.1f mbs=%.1f wall_secs=%.6f verified=1\n",
               size, OSU_WINDOW, nprocs, windows, out[0], out[0] / windows * 1e6,
               (double)size * OSU_WINDOW * windows / out[0] / 1e6, out[1]);
    fflush(stdout);
    free(buf);
}

static void osu_lat(int iters)
{
    int64_t sb, rb;
    int i;
    double w0 = 0;

    t_acc = 0;
    for (i = -100; i < iters; i++) {         /* 100 warm-up round trips */
        if (i == 0) {
            MPI_Barrier(MPI_COMM_WORLD);
            w0 = MPI_Wtime();
            t_acc = 0;
        }
        if (rank > 1)
            continue;
        MPI_Status st;
        sb = ((int64_t)base_of(rank, !rank, i, 0) << 8) | rank;
        tstart();
        if (rank == 0) {
            MPI_Send(&sb, 8, MPI_CHAR, 1, 102, MPI_COMM_WORLD);
            MPI_Recv(&rb, 8, MPI_CHAR, 1, 102, MPI_COMM_WORLD, &st);
        } else {
            MPI_Recv(&rb, 8, MPI_CHAR, 0, 102, MPI_COMM_WORLD, &st);
            MPI_Send(&sb, 8, MPI_CHAR, 0, 102, MPI_COMM_WORLD);
        }
        tstop();
        maybe_corrupt(&rb, sizeof(rb));
        int64_t want = ((int64_t)base_of(!rank, rank, i, 0) << 8) | !rank;
        if (rb != want)
            mismatch(!rank, i, 0, 0, (double)rb, (double)want);
    }
    w0 = MPI_Wtime() - w0;
    double in[2] = { t_acc, w0 }, out[2];
    MPI_Reduce(in, out, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf(PFX ": kernel=osu case=lat size=8 np=%d iters=%d secs=%.6f per_iter_us=%.2f "
               "lat_us=%.2f wall_secs=%.6f verified=1\n", nprocs, iters, out[0],
               out[0] / iters * 1e6, out[0] / iters / 2 * 1e6, out[1]);
    fflush(stdout);
}

/* ------------------------------------------------------------------ main */

int main(int argc, char **argv)
{
    int opt, iters = 0;
    char cls = 'A';
    long size = 0, work_kb = 32;
    char *end;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    while ((opt = getopt(argc, argv, "k:c:n:s:w:Xh")) != -1) {
        switch (opt) {
        case 'k':
            snprintf(kernel, sizeof(kernel), "%s", optarg);
            break;
        case 'c':
            cls = optarg[0];
            if ((cls != 'S' && cls != 'W' && cls != 'A') || optarg[1]) {
                if (rank == 0)
                    fprintf(stderr, PFX ": -c: class S, W or A, not '%s'\n", optarg);
                MPI_Finalize();
                return 2;
            }
            break;
        case 'n':
            iters = (int)strtol(optarg, &end, 10);
            if (*end || iters < 1) {
                if (rank == 0)
                    fprintf(stderr, PFX ": -n: a whole number from 1, not '%s'\n", optarg);
                MPI_Finalize();
                return 2;
            }
            break;
        case 's':
            size = strtol(optarg, &end, 10);
            if (*end || size < 4 || size % 4 || size > (1L << 30)) {
                if (rank == 0)
                    fprintf(stderr, PFX ": -s: bytes, a multiple of 4 from 4 to 2^30, not '%s'\n", optarg);
                MPI_Finalize();
                return 2;
            }
            break;
        case 'w':
            work_kb = strtol(optarg, &end, 10);
            if (*end || work_kb < 0 || work_kb > (1L << 20)) {
                if (rank == 0)
                    fprintf(stderr, PFX ": -w: KB from 0 to 1048576, not '%s'\n", optarg);
                MPI_Finalize();
                return 2;
            }
            break;
        case 'X':
            corrupt = 1;
            break;
        case 'h':
            if (rank == 0)
                usage(stdout);
            MPI_Finalize();
            return 0;
        default:
            if (rank == 0)
                usage(stderr);
            MPI_Finalize();
            return 2;
        }
    }
    if (optind < argc || !kernel[0]) {
        if (rank == 0) {
            if (!kernel[0])
                fprintf(stderr, PFX ": -k KERNEL is needed\n");
            else
                fprintf(stderr, PFX ": unexpected argument '%s'\n", argv[optind]);
            usage(stderr);
        }
        MPI_Finalize();
        return 2;
    }
    if (nprocs < 2) {
        if (rank == 0)
            fprintf(stderr, PFX ": at least 2 ranks\n");
        MPI_Finalize();
        return 2;
    }
    if (!strcmp(kernel, "cg") || !strcmp(kernel, "cgar")) {
        run_cg(cls, iters ? iters : 15, work_kb, kernel[2] == 'a');
    } else if (!strcmp(kernel, "is")) {
        run_is(cls, iters ? iters : 10);
    } else if (!strcmp(kernel, "ft")) {
        run_ft(cls, iters ? iters : 6);
    } else if (!strcmp(kernel, "osu")) {
        int w = iters ? iters : 20;
        if (size) {
            osu_bw((size_t)size, w);
        } else {
            osu_bw(65536, w);
            osu_bw(1048576, w);
        }
        osu_lat(50 * w);
    } else {
        if (rank == 0) {
            fprintf(stderr, PFX ": -k: cg, cgar, is, ft or osu, not '%s'\n", kernel);
            usage(stderr);
        }
        MPI_Finalize();
        return 2;
    }
    MPI_Finalize();
    return 0;
}
