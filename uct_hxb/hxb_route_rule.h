/* The relay rule, shared by the engine, hxb-relayd, hxb-topo and the tc BPF
 * program (so it includes nothing and uses plain ints).
 *
 * A path follows a rotation of the dimension order: XYZ, YZX or ZXY,
 * skipping dimensions already equal. The source picks the rotation by the
 * dimension of the rail it sends on; every relay continues it from the
 * dimension the frame arrived on: the next dimension, cyclically after the
 * arrival one, in which it differs from the destination. No header field
 * is needed, relays keep no state, and each hop fixes one dimension for good,
 * so a path has at most 3 hops and cannot loop. (The BPF program also
 * detours around a dead last hop along a dimension already fixed; only the
 * hop limit bounds such paths, see doc/PROTOCOL.md 8.10.) The three rotations of a
 * 3-D route have disjoint relays (XYZ: x'yz, x'y'z; YZX: xy'z, xy'z';
 * ZXY: xyz', x'yz'), which is what multi-path striping and failover need.
 *
 * Returns the dimension to forward on, -1 when here is the destination. */
#ifndef HXB_ROUTE_RULE_H
#define HXB_ROUTE_RULE_H

static inline int hxb_route_next_dim(const int here[3], const int dst[3],
                                     int in_dim)
{
    int k, d;

    for (k = 1; k <= 3; k++) {
        d = (in_dim + k) % 3;
        if (here[d] != dst[d]) {
            return d;
        }
    }
    return -1;
}

#endif
