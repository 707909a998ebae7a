#!/bin/bash
# t62's collectives on a 1-D grid of 4 nodes (one line, every pair shares
# it): Alltoall's direct exchange then goes in pairwise rounds (node
# offsets +1, +2, +3), which 2x2x2, with one offset per dimension, never
# needs; Bcast, Reduce, Allgather and Allreduce run on a line of more than
# 2 nodes; and Open MPI's own collectives (coll hxb off) need no relay.
# A round computed differently by sender and receiver deadlocks the
# rendezvous sizes and fails on t62's mpirun timeout.
TNAME=c64 T62_GRID=4 exec bash "$(dirname "$0")/t62_mpi_coll.sh"
