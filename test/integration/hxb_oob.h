/* Out-of-band bootstrap for the UCP programs (hxb-ucp-test, hxb-bench-nbx):
 * a TCP socket on the management network carries worker addresses and
 * handshakes; a wall-clock bound ends a hung run. */
#ifndef HXB_OOB_H
#define HXB_OOB_H

#include <stddef.h>

double hxb_oob_now(void);                  /* monotonic seconds */
/* all of buf in (out=0) or out (out=1); 0 or -1 */
int    hxb_oob_xfer(int fd, void *buf, size_t len, int out);
/* connect to host:port, retrying for 10 s (the server may start later) */
int    hxb_oob_connect(const char *host, int port);
/* a listening socket on port, or -1 (errno set) */
int    hxb_oob_listen(int port, int backlog);
/* after secs seconds, print "<prog>: FAIL: timeout" and _exit(2) */
void   hxb_oob_timeout(const char *prog, unsigned secs);

#endif
