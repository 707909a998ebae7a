/* The packet socket on which a rail's HELLOs (hxb-relayd) or HELLOs and
 * PROBEs (hxb-cablecheck) arrive: one interface, those kinds only. */
#ifndef HXB_RELAY_SOCK_H
#define HXB_RELAY_SOCK_H

/* A non-blocking packet socket bound to interface ifindex that takes HELLO
 * frames, and PROBE frames too if probes; returns the fd or -errno. */
int hxb_relay_hello_socket(int ifindex, int probes);

#endif
