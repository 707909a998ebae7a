/* Fuzz target: the topology file parser and the routes it feeds.
 *
 * The input is a topology file (doc/TOPOLOGY.md). Whatever it holds, the
 * parser must not read or write outside its buffers, must say where a
 * bad file went wrong ("file:line: problem" as doc/TOPOLOGY.md promises,
 * or "file: problem" when no line is at fault), and a file it accepts
 * must give every pair of nodes a route that ends at the destination, one
 * dimension per hop. */
#include "hxb_route.h"
#include "hxb_topo.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAIRS_MAX 64    /* nodes whose routes are walked, per file */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64], err[512];
    hxb_topo_t t;
    int fd = memfd_create("topo", MFD_CLOEXEC), n, src, dst, d;

    if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size)) {
        abort();
    }
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    err[0] = 0;
    if (hxb_topo_load(path, &t, err, sizeof(err)) < 0) {
        size_t pl = strlen(path);
        /* "path:LINE: problem", or "path: problem" for the whole file
         * (empty, no grid line) */
        if (strncmp(err, path, pl) != 0 || err[pl] != ':' || !err[pl + 1] ||
            !strchr("0123456789 ", err[pl + 1])) {
            fprintf(stderr, "error without file and line: '%s'\n", err);
            abort();
        }
        close(fd);
        return 0;
    }
    n = t.num_nodes < PAIRS_MAX ? t.num_nodes : PAIRS_MAX;
    for (src = 0; src < n; src++) {
        for (dst = 0; dst < n; dst++) {
            unsigned diff = hxb_route_diff(&t, src, dst);
            for (d = 0; d < HXB_DIMS; d++) {
                int nodes[HXB_ROUTE_MAX_HOPS], dims[HXB_ROUTE_MAX_HOPS];
                int hops = hxb_route_path(&t, src, dst, d, nodes, dims);
                if (src == dst ? hops != 0
                               : (diff & (1u << d)) ? hops != __builtin_popcount(diff) ||
                                                          nodes[hops - 1] != dst ||
                                                          dims[0] != d
                                                    : hops != -1) {
                    fprintf(stderr, "route %d -> %d on dim %d: %d hops\n", src, dst, d, hops);
                    abort();
                }
            }
        }
    }
    hxb_topo_free(&t);
    close(fd);
    return 0;
}
