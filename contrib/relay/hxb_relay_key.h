/* The cluster key: one secret file on every node, readable by root alone,
 * under which hxb-relayd's HELLOs and hxb-cablecheck's probes carry a MAC
 * (doc/PROTOCOL.md 4, HELLO). Read by both. */
#ifndef HXB_RELAY_KEY_H
#define HXB_RELAY_KEY_H

#include <stddef.h>
#include <stdint.h>

#define HXB_CLUSTER_KEY "/etc/hxb/cluster.key"

/* Read the key file `path` (at least 16 bytes, a regular file owned by root
 * that no one else may read or write) and derive key[] from it. 0: key set;
 * 1: the file does not exist and !required (frames then go
 * unauthenticated); -1: err says why, with what to do about it. */
int hxb_relay_key_load(const char *path, int required, uint64_t key[2],
                       char *err, size_t errlen);

#endif
