/* The mark hxb-relayd leaves while it relays for this node, so processes
 * can tell "peer reachable through relays" from "frames would go nowhere".
 * One file per network namespace (a node of the testbed is one; so is a
 * real host), named by the namespace's inode, holding the daemon's pid and
 * node name. A stale file (daemon killed) is recognised by its dead pid. */
#ifndef HXB_RELAY_MARK_H
#define HXB_RELAY_MARK_H

#include <stddef.h>

#define HXB_RELAY_MARK_DIR "/run/hxb/relayd"

/* Write this namespace's mark for the daemon of node `node`: 0 or -errno. */
int hxb_relay_mark_write(const char *node);

/* Hold this namespace's daemon lock for the life of the process (released
 * by the kernel at exit, also after a crash): an fd, or -errno
 * (-EWOULDBLOCK: another daemon holds it). */
int hxb_relay_mark_lock(void);

/* Remove it (at daemon exit). */
void hxb_relay_mark_remove(void);

/* 1 if a live hxb-relayd marked this network namespace, else 0; `path`
 * (if given) receives the file name looked for, for messages. */
int hxb_relay_mark_check(char *path, size_t len);

#endif
