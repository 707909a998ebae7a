/* hxb-cablecheck's judgement: nodes' reports (hxb_cable_report.h) against
 * the topology. Every rail heard by another joins it on one segment (one
 * switch, as far as the frames tell); a segment is the switch most of its
 * rails belong on, and a rail on a segment it does not belong on is
 * miscabled. Then: rails missing from their switch, links down, absent
 * interfaces, wrong MACs, and MTU or speed unlike the rest of a switch.
 * Each problem is one line in words an administrator can act on. A pure
 * function of its input (unit-tested by test/unit/test_cable.c). */
#ifndef HXB_CABLE_JUDGE_H
#define HXB_CABLE_JUDGE_H

#include "hxb_cable_report.h"

#include <stdio.h>

/* reps[t->num_nodes], by node id; only those with .have were gathered.
 * cluster: every node was asked (a node without a report is a problem,
 * and rails are compared across nodes); else only the nodes with reports
 * speak, about their own rails and what they hear. Prints each problem
 * and a last line (all well, or how many problems) to out; returns the
 * number of problems. */
int cable_judge(const hxb_topo_t *t, const cable_report_t *reps, int cluster, FILE *out);

#endif
