/* Out-of-band bootstrap shared by the UCP programs (see hxb_oob.h). */
#include "hxb_oob.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static char g_timeout_msg[128];

double hxb_oob_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int hxb_oob_xfer(int fd, void *buf, size_t len, int out)
{
    size_t done = 0;
    ssize_t n;

    while (done < len) {
        n = out ? write(fd, (char *)buf + done, len - done)
                : read(fd, (char *)buf + done, len - done);
        if (n <= 0) {
            return -1;
        }
        done += n;
    }
    return 0;
}

int hxb_oob_connect(const char *host, int port)
{
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(port)};
    int fd, tries;

    if (inet_pton(AF_INET, host, &sa.sin_addr) != 1) {
        return -1;
    }
    for (tries = 0; tries < 100; tries++) {
        fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
            return fd;
        }
        if (fd >= 0) {
            close(fd);
        }
        usleep(100000);
    }
    return -1;
}

int hxb_oob_listen(int port, int backlog)
{
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(port)};
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;

    if (fd < 0) {
        return -1;
    }
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, backlog) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static void on_alarm(int sig)
{
    size_t len = 0;

    (void)sig;
    while (g_timeout_msg[len]) {
        len++;
    }
    if (write(2, g_timeout_msg, len) < 0) {
        _exit(3);
    }
    _exit(2);
}

void hxb_oob_timeout(const char *prog, unsigned secs)
{
    snprintf(g_timeout_msg, sizeof(g_timeout_msg), "%s: FAIL: timeout\n", prog);
    signal(SIGALRM, on_alarm);
    alarm(secs);
}
