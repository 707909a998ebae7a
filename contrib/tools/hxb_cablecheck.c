/* hxb-cablecheck: are the rails cabled as the topology file says?
 *
 *   hxb-cablecheck [--topo FILE] [--node NAME]          this node's rails
 *   hxb-cablecheck [--topo FILE] --remote 'ssh %h'      every node's, at once
 *
 * On a node it listens on each of the node's rails for the HELLOs that
 * hxb-relayd sends there and for the PROBEs other hxb-cablecheck runs send
 * (and sends its own, unless --passive), and reads each rail's link, MTU,
 * speed and MAC (hxb_cable_listen.c). With --remote it runs itself on every
 * node of the topology at once through a command template (`ssh %h`, the
 * testbed's `hxb-testbed exec --name T %n`), gathers their reports
 * (hxb_cable_report.c) and judges them together (hxb_cable_judge.c): rails
 * on the wrong switch, swapped, unplugged or down, and MTU or speed unlike
 * the rest of a switch. Exit 0: as the topology says; 1: problems (one line
 * each); 2: could not check. */
#include "hxb_cable_judge.h"
#include "hxb_cable_listen.h"
#include "hxb_cable_report.h"
#include "hxb_relay_key.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_TOPO "/etc/hxb/topo.conf"

static void usage(FILE *f, const char *argv0)
{
    fprintf(f,
        "usage: %s [--topo FILE] [--node NAME] [--key FILE] [--wait MS] [--passive]\n"
        "       %s [--topo FILE] --remote TEMPLATE [--spread MS] [--tool PATH]\n"
        "          [--timeout S] [...]\n"
        "Checks that each rail of the hyper-crossbar is cabled as the topology file says:\n"
        "on its switch (the one of its dimension, rail number and line), with every\n"
        "neighbour there and no one else, its link up, its MTU and speed as the other\n"
        "rails' of that switch. Prints one line per problem, e.g.\n"
        "  n3: y0 is cabled to switch y1 of line (0,*) (reaches n0, n6) but the topology\n"
        "      says switch y0 of line (0,*) (n0, n6); swapped with y1?\n"
        "  n2 x1: link down\n"
        "  switch x1 of line (*,1): n4 x1 MTU 1500, the others 9000\n"
        "A switch is named by its rail (x1: dimension x, rail 1) and its line: the\n"
        "coordinates of the nodes on it, * where they differ.\n"
        "\n"
        "It listens on the rails for --wait ms for the HELLOs of hxb-relayd and the probes\n"
        "of other hxb-cablecheck runs, and sends its own probes (raw frames, EtherType\n"
        "0x88B5, that no relay or job takes) unless --passive. Run on one node, it checks\n"
        "that node's rails against the HELLOs of its neighbours' hxb-relayd. With --remote\n"
        "it runs on every node at once and judges all rails together (no hxb-relayd\n"
        "needed), also comparing MTU and speed across each switch. Needs root\n"
        "(CAP_NET_RAW, and the cluster key).\n"
        "\n"
        "  --topo FILE      topology file (default $HXB_TOPO, else " DEFAULT_TOPO ")\n"
        "  --node NAME      this node's name in it (default $HXB_NODE, else the host name)\n"
        "  --key FILE       cluster key: probes carry a MAC under it, and HELLOs or probes\n"
        "                   with a wrong one are reported (default " HXB_CLUSTER_KEY ",\n"
        "                   if it exists)\n"
        "  --wait MS        listen this long (default 1500; more than the HELLO interval\n"
        "                   of hxb-relayd)\n"
        "  --passive        send no probes: hear hxb-relayd's HELLOs only\n"
        "  --remote TEMPLATE  run on every node of the topology at once: TEMPLATE with %%n\n"
        "                   (or %%h) replaced by the node's name, followed by this program\n"
        "                   and its options, is run by /bin/sh; e.g. 'ssh %%h', 'ssh root@%%h',\n"
        "                   'hxb-testbed exec --name T %%n'\n"
        "  --spread MS      with --remote: the nodes start one by one (ssh); each listens\n"
        "                   until MS + --wait after the first was started (default 1000;\n"
        "                   more for many nodes or a slow ssh: without hxb-relayd they\n"
        "                   must listen at the same time to hear each other's probes)\n"
        "  --tool PATH      the hxb-cablecheck the nodes run (default: this one's path)\n"
        "  --timeout S      give up on a node's report S seconds after its listening\n"
        "                   should have ended (default 30)\n"
        "  --report         print this node's facts for --remote (not a judgement)\n"
        "  --until MS       with --report (--remote passes it): listen until this time\n"
        "                   (ms since 1970), if later than --wait\n"
        "Exit status: 0 as the topology says, 1 problems found, 2 could not check.\n",
        argv0, argv0);
}

/* a word for /bin/sh, in single quotes */
static int shquote(char *out, size_t len, const char *s)
{
    size_t n = 0;

    if (n + 1 >= len) {
        return -1;
    }
    out[n++] = '\'';
    for (; *s; s++) {
        if (*s == '\'') {
            if (n + 4 >= len) {
                return -1;
            }
            memcpy(out + n, "'\\''", 4);
            n += 4;
        } else {
            if (n + 1 >= len) {
                return -1;
            }
            out[n++] = *s;
        }
    }
    if (n + 2 >= len) {
        return -1;
    }
    out[n++] = '\'';
    out[n] = '\0';
    return 0;
}

/* TEMPLATE with %n, %h -> name, %% -> %; -1 if too long or if it never
 * names the node */
static int expand(char *out, size_t len, const char *tmpl, const char *name)
{
    size_t n = 0, k;
    int named = 0;

    for (; *tmpl; tmpl++) {
        if (*tmpl == '%' && (tmpl[1] == 'n' || tmpl[1] == 'h')) {
            k = strlen(name);
            if (n + k >= len) {
                return -1;
            }
            memcpy(out + n, name, k);
            n += k;
            tmpl++;
            named = 1;
            continue;
        }
        if (*tmpl == '%' && tmpl[1] == '%') {
            tmpl++;
        }
        if (n + 1 >= len) {
            return -1;
        }
        out[n++] = *tmpl;
    }
    out[n] = '\0';
    return named ? 0 : -1;
}

typedef struct remote {
    pid_t  pid;
    int    fd;
    char  *buf;
    size_t len, cap;
} remote_t;

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static long long realtime_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* run the check on every node at once; their reports into reps[]. They
 * start one by one (ssh, a busy host): each listens until the same moment,
 * spread_ms after now plus wait_ms, and at least wait_ms */
static int run_remote(const hxb_topo_t *t, const char *tmpl, const char *tool,
                      const char *topo, const char *key, int wait_ms, int spread_ms,
                      int passive, int timeout_s, cable_report_t *reps)
{
    long long until = realtime_ms() + spread_ms + wait_ms;
    remote_t *rm = calloc(t->num_nodes, sizeof(*rm));
    struct pollfd *pfd = calloc(t->num_nodes, sizeof(*pfd));
    char cmd[4096], q1[PATH_MAX + 8], q2[PATH_MAX + 8], q3[PATH_MAX + 8], qn[160];
    double deadline = now_s() + timeout_s + (spread_ms + wait_ms) * 1e-3;
    int n, open_fds = 0;

    if (!rm || !pfd) {
        fprintf(stderr, "hxb-cablecheck: out of memory\n");
        return -1;
    }
    for (n = 0; n < t->num_nodes; n++) {
        int p[2], k;
        rm[n].fd = -1;
        if (expand(cmd, sizeof(cmd), tmpl, t->nodes[n].name) < 0) {
            fprintf(stderr, "hxb-cablecheck: --remote '%s' must name the node (%%n or %%h)"
                    " and stay short\n", tmpl);
            free(rm);
            free(pfd);
            return -1;
        }
        if (shquote(q1, sizeof(q1), tool) || shquote(q2, sizeof(q2), topo) ||
            shquote(qn, sizeof(qn), t->nodes[n].name) ||
            shquote(q3, sizeof(q3), key ? key : "")) {
            fprintf(stderr, "hxb-cablecheck: a path is too long\n");
            free(rm);
            free(pfd);
            return -1;
        }
        k = strlen(cmd);
        if (snprintf(cmd + k, sizeof(cmd) - k,
                     " %s --report --topo %s --node %s --wait %d --until %lld%s%s%s", q1, q2,
                     qn, wait_ms, until, passive ? " --passive" : "", key ? " --key " : "",
                     key ? q3 : "") >= (int)(sizeof(cmd) - k)) {
            fprintf(stderr, "hxb-cablecheck: the command for node %s is too long\n",
                    t->nodes[n].name);
            free(rm);
            free(pfd);
            return -1;
        }
        if (pipe(p) < 0) {
            snprintf(reps[n].err, sizeof(reps[n].err), "pipe: %s", strerror(errno));
            continue;
        }
        rm[n].pid = fork();
        if (rm[n].pid == 0) {
            setpgid(0, 0);   /* a process group of its own, to end it all on timeout */
            dup2(p[1], 1);
            dup2(p[1], 2);
            close(p[0]);
            close(p[1]);
            execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
            _exit(127);
        }
        close(p[1]);
        if (rm[n].pid < 0) {
            snprintf(reps[n].err, sizeof(reps[n].err), "fork: %s", strerror(errno));
            close(p[0]);
            continue;
        }
        setpgid(rm[n].pid, rm[n].pid);
        rm[n].fd = p[0];
        open_fds++;
    }
    while (open_fds > 0) {
        int ms = (int)((deadline - now_s()) * 1000);
        if (ms <= 0) {
            break;
        }
        for (n = 0; n < t->num_nodes; n++) {
            pfd[n].fd = rm[n].fd;
            pfd[n].events = POLLIN;
            pfd[n].revents = 0;
        }
        if (poll(pfd, t->num_nodes, ms) <= 0) {
            continue;
        }
        for (n = 0; n < t->num_nodes; n++) {
            ssize_t got;
            if (rm[n].fd < 0 || !(pfd[n].revents & (POLLIN | POLLHUP | POLLERR))) {
                continue;
            }
            if (rm[n].len + 4097 > rm[n].cap) {
                size_t cap = rm[n].cap ? rm[n].cap * 2 : 16384;
                char *b = realloc(rm[n].buf, cap);
                if (!b) {
                    close(rm[n].fd);
                    rm[n].fd = -1;
                    open_fds--;
                    continue;
                }
                rm[n].buf = b;
                rm[n].cap = cap;
            }
            got = read(rm[n].fd, rm[n].buf + rm[n].len, 4096);
            if (got > 0) {
                rm[n].len += got;
            } else if (got == 0 || errno != EINTR) {
                close(rm[n].fd);
                rm[n].fd = -1;
                open_fds--;
            }
        }
    }
    for (n = 0; n < t->num_nodes; n++) {
        int status = 0, timed_out = rm[n].fd >= 0;
        if (rm[n].pid <= 0) {
            continue;
        }
        if (timed_out) {
            kill(-rm[n].pid, SIGKILL);
            close(rm[n].fd);
        }
        waitpid(rm[n].pid, &status, 0);
        if (rm[n].buf) {
            rm[n].buf[rm[n].len] = '\0';
        }
        if (timed_out) {
            cable_report_parse(t, n, "", &reps[n]);
            snprintf(reps[n].err, sizeof(reps[n].err), "no answer within %.0f s",
                     timeout_s + (spread_ms + wait_ms) * 1e-3);
        } else if (cable_report_parse(t, n, rm[n].buf ? rm[n].buf : "", &reps[n]) < 0) {
            /* what it said instead: its last line */
            char *b = rm[n].buf, *last = b;
            if (b && rm[n].len) {
                char *e = b + rm[n].len;
                while (e > b && e[-1] == '\n') {
                    *--e = '\0';
                }
                last = strrchr(b, '\n');
                last = last ? last + 1 : b;
            }
            if (last && *last && !strstr(rm[n].buf, "hxb-cablecheck-report")) {
                snprintf(reps[n].err, sizeof(reps[n].err), "%s", last);
            } else if (WIFEXITED(status) && WEXITSTATUS(status)) {
                size_t k = strlen(reps[n].err);
                snprintf(reps[n].err + k, sizeof(reps[n].err) - k, "; exit status %d",
                         WEXITSTATUS(status));
            }
        }
        free(rm[n].buf);
    }
    free(rm);
    free(pfd);
    return 0;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"topo", 1, 0, 't'}, {"node", 1, 0, 'n'}, {"key", 1, 0, 'k'},
        {"wait", 1, 0, 'w'}, {"passive", 0, 0, 'p'}, {"remote", 1, 0, 'r'},
        {"tool", 1, 0, 'T'}, {"timeout", 1, 0, 'o'}, {"report", 0, 0, 'R'},
        {"spread", 1, 0, 'S'}, {"until", 1, 0, 'U'},
        {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
    const char *topo_path = getenv("HXB_TOPO"), *node_name = getenv("HXB_NODE");
    const char *key_path = NULL, *remote = NULL, *tool = NULL;
    int wait_ms = 1500, spread_ms = 1000, passive = 0, timeout_s = 30, report = 0;
    int opt, me, rc, c;
    long long until = 0;
    char err[512], host[256], self[PATH_MAX];
    uint64_t key[2];
    cable_report_t *reps;
    hxb_topo_t t;
    char *end;

    while ((opt = getopt_long(argc, argv, "t:n:k:w:pr:T:o:RS:U:h", opts, NULL)) != -1) {
        switch (opt) {
        case 't': topo_path = optarg; break;
        case 'n': node_name = optarg; break;
        case 'k': key_path = optarg; break;
        case 'w':
            wait_ms = strtol(optarg, &end, 10);
            if (*end || wait_ms < 1 || wait_ms > 600000) {
                fprintf(stderr, "hxb-cablecheck: --wait takes 1..600000 ms, not '%s'\n", optarg);
                return 2;
            }
            break;
        case 'p': passive = 1; break;
        case 'r': remote = optarg; break;
        case 'T': tool = optarg; break;
        case 'o':
            timeout_s = strtol(optarg, &end, 10);
            if (*end || timeout_s < 1) {
                fprintf(stderr, "hxb-cablecheck: --timeout takes seconds, not '%s'\n", optarg);
                return 2;
            }
            break;
        case 'R': report = 1; break;
        case 'S':
            spread_ms = strtol(optarg, &end, 10);
            if (*end || spread_ms < 0 || spread_ms > 600000) {
                fprintf(stderr, "hxb-cablecheck: --spread takes 0..600000 ms, not '%s'\n",
                        optarg);
                return 2;
            }
            break;
        case 'U':
            until = strtoll(optarg, &end, 10);
            if (*end || until < 0) {
                fprintf(stderr, "hxb-cablecheck: --until takes ms since 1970, not '%s'\n",
                        optarg);
                return 2;
            }
            break;
        case 'h': usage(stdout, argv[0]); return 0;
        default:  usage(stderr, argv[0]); return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "hxb-cablecheck: unexpected argument '%s' (--help)\n", argv[optind]);
        return 2;
    }
    if (!topo_path || !*topo_path) {
        topo_path = DEFAULT_TOPO;
    }
    if (hxb_topo_load(topo_path, &t, err, sizeof(err)) < 0) {
        fprintf(stderr, "hxb-cablecheck: %s\n", err);
        return 2;
    }
    reps = calloc(t.num_nodes, sizeof(*reps));
    if (!reps) {
        fprintf(stderr, "hxb-cablecheck: out of memory\n");
        hxb_topo_free(&t);
        return 2;
    }
    if (remote) {
        if (!tool) {
            ssize_t k = readlink("/proc/self/exe", self, sizeof(self) - 1);
            if (k <= 0) {
                fprintf(stderr, "hxb-cablecheck: cannot find my own path (--tool PATH)\n");
                rc = 2;
                goto out;
            }
            self[k] = '\0';
            tool = self;
        }
        if (run_remote(&t, remote, tool, topo_path, key_path, wait_ms, spread_ms, passive,
                       timeout_s, reps) < 0) {
            rc = 2;
            goto out;
        }
        rc = cable_judge(&t, reps, 1, stdout) ? 1 : 0;
        goto out;
    }
    if (!node_name || !*node_name) {
        gethostname(host, sizeof(host));
        host[sizeof(host) - 1] = '\0';
        node_name = host;
    }
    me = hxb_topo_find_node(&t, node_name);
    if (me < 0) {
        fprintf(stderr, "hxb-cablecheck: node '%s' is not in %s (use --node)\n", node_name,
                topo_path);
        rc = 2;
        goto out;
    }
    c = hxb_relay_key_load(key_path ? key_path : HXB_CLUSTER_KEY, key_path != NULL, key,
                           err, sizeof(err));
    if (c < 0) {
        fprintf(stderr, "hxb-cablecheck: %s\n", err);
        rc = 2;
        goto out;
    }
    /* --until (from --remote): listen until then, if later than --wait */
    if (until > realtime_ms() + wait_ms) {
        long long ms = until - realtime_ms();
        wait_ms = ms > 600000 ? 600000 : (int)ms;
    }
    if (cable_listen(&t, me, c == 0 ? key : NULL, wait_ms, passive, &reps[me]) < 0) {
        fprintf(stderr, "hxb-cablecheck: %s: %s\n", node_name, reps[me].err);
        rc = 2;
        goto out;
    }
    if (report) {
        cable_report_print(&t, &reps[me], stdout);
        rc = 0;
    } else {
        rc = cable_judge(&t, reps, 0, stdout) ? 1 : 0;
    }
out:
    for (c = 0; reps && c < t.num_nodes; c++) {
        cable_report_free(&reps[c]);
    }
    free(reps);
    hxb_topo_free(&t);
    return rc;
}
