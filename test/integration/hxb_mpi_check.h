/* What the MPI test programs (hxb-mpi-p2p, hxb-mpi-rma) share: the data
 * pattern every message carries, derived from (offset, seed); filling a
 * buffer with it; checking a buffer against it; and FAIL, which reports on
 * stderr and counts into errors. The program sets rank (its MPI rank). */
#ifndef HXB_MPI_CHECK_H
#define HXB_MPI_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

static int rank;
static long errors;

#define FAIL(...) do { \
        fprintf(stderr, "FAIL: rank %d: ", rank); \
        fprintf(stderr, __VA_ARGS__); \
        fputc('\n', stderr); \
        errors++; \
    } while (0)

static uint8_t pattern(size_t i, unsigned seed)
{
    return (uint8_t)(i * 131u + seed * 7919u + (i >> 11) + 1);
}

static void fill(void *buf, size_t len, unsigned seed)
{
    uint8_t *p = buf;
    size_t i;

    for (i = 0; i < len; i++) {
        p[i] = pattern(i, seed);
    }
}

/* check a received buffer; report the first bad byte */
static void check_bytes(const char *what, const void *buf, size_t len, unsigned seed)
{
    const uint8_t *p = buf;
    size_t i;

    for (i = 0; i < len; i++) {
        if (p[i] != pattern(i, seed)) {
            FAIL("%s: %zu bytes: byte %zu is 0x%02x, expected 0x%02x", what, len, i,
                 p[i], pattern(i, seed));
            return;
        }
    }
}

#endif
