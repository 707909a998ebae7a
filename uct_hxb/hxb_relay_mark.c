/* hxb-relayd's per-namespace mark (hxb_relay_mark.h). */
#include "hxb_relay_mark.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static int mark_path(char *buf, size_t len)
{
    struct stat st;

    if (stat("/proc/self/ns/net", &st) < 0) {
        return -errno;
    }
    snprintf(buf, len, "%s/netns-%llu", HXB_RELAY_MARK_DIR,
             (unsigned long long)st.st_ino);
    return 0;
}

int hxb_relay_mark_lock(void)
{
    char path[256], lock[300];
    int rc = mark_path(path, sizeof(path)), fd;

    if (rc < 0) {
        return rc;
    }
    if ((mkdir("/run/hxb", 0755) < 0 && errno != EEXIST) ||
        (mkdir(HXB_RELAY_MARK_DIR, 0755) < 0 && errno != EEXIST)) {
        return -errno;
    }
    snprintf(lock, sizeof(lock), "%s.lock", path);
    fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        return -errno;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
        rc = -errno;
        close(fd);
        return rc;
    }
    return fd;
}

int hxb_relay_mark_write(const char *node)
{
    char path[256], tmp[300];
    FILE *f;
    int rc = mark_path(path, sizeof(path));

    if (rc < 0) {
        return rc;
    }
    if ((mkdir("/run/hxb", 0755) < 0 && errno != EEXIST) ||
        (mkdir(HXB_RELAY_MARK_DIR, 0755) < 0 && errno != EEXIST)) {
        return -errno;
    }
    snprintf(tmp, sizeof(tmp), "%s.%d", path, (int)getpid());
    f = fopen(tmp, "w");
    if (f == NULL) {
        return -errno;
    }
    fprintf(f, "%d %s\n", (int)getpid(), node);
    if (fclose(f) != 0 || rename(tmp, path) < 0) {
        rc = -errno;
        unlink(tmp);
        return rc;
    }
    return 0;
}

void hxb_relay_mark_remove(void)
{
    char path[256];
    FILE *f;
    int pid = 0;

    if (mark_path(path, sizeof(path)) < 0 || (f = fopen(path, "r")) == NULL) {
        return;
    }
    if (fscanf(f, "%d", &pid) != 1) {
        pid = 0;
    }
    fclose(f);
    if (pid == (int)getpid()) {      /* only our own: another may have started */
        unlink(path);
    }
}

int hxb_relay_mark_check(char *path, size_t len)
{
    char buf[256];
    FILE *f;
    int pid = 0;

    if (path == NULL) {
        path = buf;
        len  = sizeof(buf);
    }
    if (mark_path(path, len) < 0 || (f = fopen(path, "r")) == NULL) {
        return 0;
    }
    if (fscanf(f, "%d", &pid) != 1) {
        pid = 0;
    }
    fclose(f);
    /* EPERM: alive, but another user's */
    return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}
