/* MPI point-to-point checks for hxb (ob1 + btl hxb, or pml ucx over hxb).
 * Every message carries a pattern derived from (size, sender, round), and
 * every receive is verified byte by byte, with its status (source, tag,
 * count). Ranks pair up as r and r^1 (with --map-by node they sit on
 * different nodes); rank 0 also collects any-source traffic from all.
 *
 *   hxb-mpi-p2p [-m MAX_BYTES]     (default 64 MiB)
 * Prints "hxb_mpi_p2p: ok: N checks" on rank 0, or FAIL lines and exits 1.
 *
 *   hxb-mpi-p2p -s SECONDS
 * Stream mode, for failure and attack tests: rank 0 sends 4 MiB messages
 * to rank 1 for SECONDS, each verified, then both stop; prints
 * "hxb_mpi_p2p: streaming" first and the verdict at the end.
 *
 *   hxb-mpi-p2p -c SECONDS
 * Busy peers: each rank of a pair in turn computes for SECONDS without
 * calling MPI, first while its peer sends to it and waits, then after
 * posting sends of its own; every message verified. Run with a peer
 * timeout below SECONDS: the computing rank lives and must not be failed. */
#include "hxb_mpi_check.h"

#include <mpi.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int nprocs, peer;
static long checks;

static void verify(const char *what, const void *buf, size_t len, unsigned seed)
{
    checks++;
    check_bytes(what, buf, len, seed);
}

static void verify_status(const char *what, const MPI_Status *st, MPI_Datatype type,
                          int source, int tag, int count)
{
    int n = -1;

    checks++;
    MPI_Get_count(st, type, &n);
    if ((st->MPI_SOURCE != source) || (st->MPI_TAG != tag) || (n != count)) {
        FAIL("%s: status source %d tag %d count %d, expected %d %d %d", what,
             st->MPI_SOURCE, st->MPI_TAG, n, source, tag, count);
    }
}

/* ping-pong of every size across the eager, send-pipeline and RDMA
 * boundaries, aligned and at an odd offset */
static void test_sizes(size_t max, uint8_t *sbuf, uint8_t *rbuf)
{
    static const size_t base[] = {
        0, 1, 8, 63, 64, 65, 183, 184, 185, 192, 1000, 4095, 4096, 4097,
        8192, 8896, 8897, 12288, 16383, 16384, 16385, 32759, 32760, 32767,
        32768, 32769, 65527, 65528, 65536, 65537, 131072, 262143, 262144, 262145,
        1048575, 1048576, 1048577, 4194304, 4194307, 16777216, 67108864,
    };
    size_t i, n = sizeof(base) / sizeof(base[0]);
    int off, tag;
    MPI_Status st;
    char what[64];

    for (i = 0; i < n && base[i] <= max; i++) {
        for (off = 0; off < 2; off++) {
            size_t len = base[i];
            tag = (int)(i * 2 + off);
            snprintf(what, sizeof(what), "pingpong %zu+%d", len, off * 3);
            if (rank < peer) {
                fill(sbuf + off * 3, len, (unsigned)(len + rank));
                MPI_Send(sbuf + off * 3, (int)len, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
                memset(rbuf, 0, len + 8);
                MPI_Recv(rbuf + off, (int)len, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &st);
                verify_status(what, &st, MPI_BYTE, peer, tag, (int)len);
                verify(what, rbuf + off, len, (unsigned)(len + peer));
            } else {
                memset(rbuf, 0, len + 8);
                MPI_Recv(rbuf + off, (int)len, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &st);
                verify_status(what, &st, MPI_BYTE, peer, tag, (int)len);
                verify(what, rbuf + off, len, (unsigned)(len + peer));
                fill(sbuf + off * 3, len, (unsigned)(len + rank));
                MPI_Send(sbuf + off * 3, (int)len, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
            }
        }
    }
}

/* both directions at once: Sendrecv of large messages */
static void test_bidir(size_t len, uint8_t *sbuf, uint8_t *rbuf)
{
    MPI_Status st;

    fill(sbuf, len, 77 + rank);
    memset(rbuf, 0, len);
    MPI_Sendrecv(sbuf, (int)len, MPI_BYTE, peer, 500, rbuf, (int)len, MPI_BYTE, peer,
                 500, MPI_COMM_WORLD, &st);
    verify_status("sendrecv", &st, MPI_BYTE, peer, 500, (int)len);
    verify("sendrecv", rbuf, len, 77 + peer);
}

/* every rank sends to rank 0, which receives with ANY_SOURCE/ANY_TAG:
 * each (source, round) exactly once, in order per source */
#define AS_ROUNDS 16
static void test_any_source(uint8_t *sbuf, uint8_t *rbuf)
{
    int r, src, expected, *next;
    size_t len;
    MPI_Status st;

    if (rank != 0) {
        for (r = 0; r < AS_ROUNDS; r++) {
            len = (size_t)((r % 4 == 3) ? 300000 : 100 * r);   /* eager and rendezvous */
            fill(sbuf, len, (unsigned)(rank * 1000 + r));
            MPI_Send(sbuf, (int)len, MPI_BYTE, 0, 1000 + r, MPI_COMM_WORLD);
        }
        return;
    }
    next = calloc(nprocs, sizeof(*next));
    for (expected = (nprocs - 1) * AS_ROUNDS; expected > 0; expected--) {
        int count;
        MPI_Recv(rbuf, 300000, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        src = st.MPI_SOURCE;
        r   = st.MPI_TAG - 1000;
        MPI_Get_count(&st, MPI_BYTE, &count);
        checks++;
        if ((src <= 0) || (src >= nprocs) || (r != next[src])) {
            FAIL("any-source: got source %d round %d, expected round %d", src, r,
                 (src > 0 && src < nprocs) ? next[src] : -1);
            break;
        }
        next[src]++;
        len = (size_t)((r % 4 == 3) ? 300000 : 100 * r);
        if ((size_t)count != len) {
            FAIL("any-source: source %d round %d: %d bytes, expected %zu", src, r, count, len);
        }
        verify("any-source", rbuf, len, (unsigned)(src * 1000 + r));
    }
    free(next);
}

/* MPI_Probe / MPI_Iprobe, then a receive sized from the status */
static void test_probe(uint8_t *sbuf)
{
    static const int sizes[] = {0, 17, 5000, 70000, 2000000};
    MPI_Status st;
    int i, count, flag;
    uint8_t *buf;

    for (i = 0; i < 5; i++) {
        if (rank < peer) {
            fill(sbuf, sizes[i], 300 + i);
            MPI_Send(sbuf, sizes[i], MPI_BYTE, peer, 2000 + i, MPI_COMM_WORLD);
            continue;
        }
        if (i % 2) {
            MPI_Probe(peer, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        } else {
            do {   /* the message is on its way: bounded by the test's timeout */
                MPI_Iprobe(MPI_ANY_SOURCE, 2000 + i, MPI_COMM_WORLD, &flag, &st);
            } while (!flag);
        }
        MPI_Get_count(&st, MPI_BYTE, &count);
        verify_status("probe", &st, MPI_BYTE, peer, 2000 + i, sizes[i]);
        buf = malloc(count + 1);
        MPI_Recv(buf, count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st);
        verify_status("probe-recv", &st, MPI_BYTE, peer, 2000 + i, sizes[i]);
        verify("probe-recv", buf, count, 300 + i);
        free(buf);
    }
}

/* many outstanding non-blocking requests of mixed sizes, receives posted
 * in reverse order, completed with Waitall, Waitany and Test */
#define NB 256
static void test_nonblocking(void)
{
    MPI_Request *req = malloc(2 * NB * sizeof(*req));
    uint8_t **sb = malloc(NB * sizeof(*sb)), **rb = malloc(NB * sizeof(*rb));
    size_t *len = malloc(NB * sizeof(*len));
    MPI_Status *st = malloc(2 * NB * sizeof(*st));
    int i, idx, flag, done = 0;
    char what[64];

    for (i = 0; i < NB; i++) {
        len[i] = (i % 17 == 0) ? (size_t)1048576 + i : (i % 5 == 0) ? (size_t)40000 + i : (size_t)i * 3;
        sb[i]  = malloc(len[i] + 1);
        rb[i]  = calloc(1, len[i] + 1);
        fill(sb[i], len[i], 5000 + i + rank);
    }
    for (i = NB - 1; i >= 0; i--) {
        MPI_Irecv(rb[i], (int)len[i], MPI_BYTE, peer, 3000 + i, MPI_COMM_WORLD, &req[NB + i]);
    }
    for (i = 0; i < NB; i++) {
        if (i % 3 == 0) {
            MPI_Issend(sb[i], (int)len[i], MPI_BYTE, peer, 3000 + i, MPI_COMM_WORLD, &req[i]);
        } else {
            MPI_Isend(sb[i], (int)len[i], MPI_BYTE, peer, 3000 + i, MPI_COMM_WORLD, &req[i]);
        }
    }
    /* a few by Waitany/Test, the rest by Waitall */
    while (done < 8) {
        MPI_Waitany(2 * NB, req, &idx, MPI_STATUS_IGNORE);
        done++;
    }
    MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
    MPI_Waitall(2 * NB, req, st);
    for (i = 0; i < NB; i++) {
        snprintf(what, sizeof(what), "nonblocking #%d", i);
        verify(what, rb[i], len[i], 5000 + i + peer);
        free(sb[i]);
        free(rb[i]);
    }
    free(req); free(sb); free(rb); free(len); free(st);
}

/* 2000 small messages in flight with one tag: MPI's non-overtaking rule */
#define MANY 2000
static void test_many_ordered(void)
{
    MPI_Request *req = malloc(MANY * sizeof(*req));
    int *buf = malloc(MANY * 4 * sizeof(int)), i;

    if (rank < peer) {
        for (i = 0; i < MANY; i++) {
            buf[i * 4] = i; buf[i * 4 + 1] = rank; buf[i * 4 + 2] = ~i; buf[i * 4 + 3] = 7;
            MPI_Isend(&buf[i * 4], 4, MPI_INT, peer, 4000, MPI_COMM_WORLD, &req[i]);
        }
    } else {
        for (i = 0; i < MANY; i++) {
            MPI_Irecv(&buf[i * 4], 4, MPI_INT, peer, 4000, MPI_COMM_WORLD, &req[i]);
        }
    }
    MPI_Waitall(MANY, req, MPI_STATUSES_IGNORE);
    if (rank > peer) {
        checks++;
        for (i = 0; i < MANY; i++) {
            if (buf[i * 4] != i || buf[i * 4 + 1] != peer || buf[i * 4 + 2] != ~i ||
                buf[i * 4 + 3] != 7) {
                FAIL("ordered: message %d holds %d (overtaken or damaged)", i, buf[i * 4]);
                break;
            }
        }
    }
    free(req);
    free(buf);
}

/* derived datatypes: a strided vector (non-contiguous: ob1 packs through
 * the convertor) received as contiguous doubles, and a struct */
static void test_datatypes(void)
{
    const int n = 1 << 20, stride = 3;           /* 8 MiB of payload */
    double *strided = malloc((size_t)n * stride * sizeof(double));
    double *packed  = malloc((size_t)n * sizeof(double));
    struct rec { int id; double v[3]; char tag[5]; } recs[500], got[500];
    MPI_Datatype vec, rtype, rtype_r;
    int blen[3] = {1, 3, 5};
    MPI_Aint disp[3] = {offsetof(struct rec, id), offsetof(struct rec, v),
                        offsetof(struct rec, tag)};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    MPI_Status st;
    int i;

    MPI_Type_vector(n, 1, stride, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    MPI_Type_create_struct(3, blen, disp, types, &rtype);
    MPI_Type_create_resized(rtype, 0, sizeof(struct rec), &rtype_r);
    MPI_Type_commit(&rtype_r);

    if (rank < peer) {
        for (i = 0; i < n * stride; i++) {
            strided[i] = (i % stride) ? -1.0 : (double)(i / stride) * 0.5 + rank;
        }
        MPI_Send(strided, 1, vec, peer, 5000, MPI_COMM_WORLD);
        for (i = 0; i < 500; i++) {
            recs[i].id = i;
            recs[i].v[0] = i; recs[i].v[1] = -i; recs[i].v[2] = i * 0.25;
            memcpy(recs[i].tag, "hxb!", 5);
        }
        MPI_Send(recs, 500, rtype_r, peer, 5001, MPI_COMM_WORLD);
        /* and back: contiguous to strided */
        memset(strided, 0, (size_t)n * stride * sizeof(double));
        MPI_Recv(strided, 1, vec, peer, 5002, MPI_COMM_WORLD, &st);
        checks++;
        for (i = 0; i < n; i++) {
            if (strided[(size_t)i * stride] != (double)i * 2 + peer ||
                strided[(size_t)i * stride + 1] != 0) {
                FAIL("vector recv: element %d is %g", i, strided[(size_t)i * stride]);
                break;
            }
        }
    } else {
        MPI_Recv(packed, n, MPI_DOUBLE, peer, 5000, MPI_COMM_WORLD, &st);
        verify_status("vector", &st, MPI_DOUBLE, peer, 5000, n);
        for (i = 0; i < n; i++) {
            if (packed[i] != (double)i * 0.5 + peer) {
                FAIL("vector: element %d is %g", i, packed[i]);
                break;
            }
        }
        memset(got, 0, sizeof(got));
        MPI_Recv(got, 500, rtype_r, peer, 5001, MPI_COMM_WORLD, &st);
        verify_status("struct", &st, rtype_r, peer, 5001, 500);
        for (i = 0; i < 500; i++) {
            if (got[i].id != i || got[i].v[1] != -i || got[i].v[2] != i * 0.25 ||
                strcmp(got[i].tag, "hxb!")) {
                FAIL("struct: record %d damaged", i);
                break;
            }
        }
        for (i = 0; i < n; i++) {
            packed[i] = (double)i * 2 + rank;
        }
        MPI_Send(packed, n, MPI_DOUBLE, peer, 5002, MPI_COMM_WORLD);
    }
    MPI_Type_free(&vec);
    MPI_Type_free(&rtype);
    MPI_Type_free(&rtype_r);
    free(strided);
    free(packed);
}

static void stream(double seconds, uint8_t *buf)
{
    const int len = 4 << 20;
    double end = MPI_Wtime() + seconds;
    int more = 1;
    unsigned k = 0;

    if (rank == 0) {
        printf("hxb_mpi_p2p: streaming\n");
        fflush(stdout);
    }
    while (more) {
        if (rank == 0) {
            more = MPI_Wtime() < end;
            fill(buf, len, 0x5157u + k);
            MPI_Send(&more, 1, MPI_INT, 1, 6000, MPI_COMM_WORLD);
            MPI_Send(buf, len, MPI_BYTE, 1, 6001, MPI_COMM_WORLD);
        } else if (rank == 1) {
            MPI_Recv(&more, 1, MPI_INT, 0, 6000, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(buf, len, MPI_BYTE, 0, 6001, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            verify("stream", buf, len, 0x5157u + k);
        } else {
            more = 0;
        }
        k++;
    }
}

/* busy for SECONDS without calling MPI (not even MPI_Wtime) */
static void compute(double seconds)
{
    struct timespec t0, t;
    volatile double x = 0;

    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        for (int i = 0; i < 100000; i++) {
            x += i;
        }
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) * 1e-9 < seconds);
}

static void test_busy(double seconds)
{
    static const size_t sizes[] = {0, 8, 4096, 65536, 1u << 20, 4u << 20};
    enum { N = sizeof(sizes) / sizeof(sizes[0]) };
    MPI_Request req[N];
    MPI_Status st[N];
    uint8_t *buf[N];
    int round, phase, i;

    for (i = 0; i < N; i++) {
        buf[i] = malloc(sizes[i] + 1);
        if (!buf[i]) {
            FAIL("busy: no memory");
            return;
        }
    }
    for (round = 0; round < 2; round++) {
        int busy = (rank & 1) == round;    /* this rank computes this round */
        for (phase = 0; phase < 2; phase++) {
            /* phase 0: the busy rank receives late; 1: it sends early */
            int sends = busy == phase;
            unsigned seed = 7000 + round * 2 + phase;
            if (busy && phase == 0) {
                compute(seconds);
            }
            for (i = 0; i < N; i++) {
                if (sends) {
                    fill(buf[i], sizes[i], seed + i);
                    MPI_Isend(buf[i], (int)sizes[i], MPI_BYTE, peer, 7000 + i,
                              MPI_COMM_WORLD, &req[i]);
                } else {
                    memset(buf[i], 0, sizes[i]);
                    MPI_Irecv(buf[i], (int)sizes[i], MPI_BYTE, peer, 7000 + i,
                              MPI_COMM_WORLD, &req[i]);
                }
            }
            if (busy && phase == 1) {
                compute(seconds);
            }
            MPI_Waitall(N, req, st);
            for (i = 0; i < N && !sends; i++) {
                verify_status("busy", &st[i], MPI_BYTE, peer, 7000 + i, (int)sizes[i]);
                verify("busy", buf[i], sizes[i], seed + i);
            }
        }
    }
    for (i = 0; i < N; i++) {
        free(buf[i]);
    }
}

int main(int argc, char **argv)
{
    double stream_seconds = 0, busy_seconds = 0;
    size_t max = 64u << 20;
    long total_checks, total_errors;
    uint8_t *sbuf, *rbuf;
    int c;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    while ((c = getopt(argc, argv, "m:s:c:")) != -1) {
        if (c == 'm') {
            max = strtoull(optarg, NULL, 0);
        } else if (c == 's') {
            stream_seconds = atof(optarg);
        } else if (c == 'c') {
            busy_seconds = atof(optarg);
        }
    }
    if (nprocs % 2) {
        if (rank == 0) {
            fprintf(stderr, "FAIL: needs an even number of ranks\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    peer = rank ^ 1;
    /* the fixed-size tests below need up to 2 MB */
    sbuf = malloc((max > (4u << 20) ? max : (4u << 20)) + 16);
    rbuf = malloc((max > (4u << 20) ? max : (4u << 20)) + 16);
    if (!sbuf || !rbuf) {
        fprintf(stderr, "FAIL: rank %d: no memory for %zu bytes\n", rank, max);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    if (stream_seconds > 0) {
        stream(stream_seconds, sbuf);
        goto verdict;
    }
    if (busy_seconds > 0) {
        test_busy(busy_seconds);
        goto verdict;
    }
    test_sizes(max, sbuf, rbuf);
    test_bidir(max < (8u << 20) ? max : (8u << 20), sbuf, rbuf);
    test_any_source(sbuf, rbuf);
    test_probe(sbuf);
    test_nonblocking();
    test_many_ordered();
    test_datatypes();

verdict:
    MPI_Allreduce(&checks, &total_checks, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&errors, &total_errors, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        if (total_errors) {
            printf("hxb_mpi_p2p: FAIL: %ld errors in %ld checks\n", total_errors, total_checks);
        } else {
            printf("hxb_mpi_p2p: ok: %ld checks on %d ranks, up to %zu bytes\n",
                   total_checks, nprocs, max);
        }
        fflush(stdout);
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return total_errors ? 1 : 0;
}
