/* Shared command-line helpers. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <getopt.h>
#include "model/text.h"
#include "commands/cli.h"
#include "plan/modelspec.h"
#include "plan/sweepconf.h"

volatile sig_atomic_t cli_interrupted = 0;
int cli_argc;
char **cli_argv;

int cli_error(const char *cmd, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "rbdiff%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return code;
}

int cli_lib_error(const char *cmd, int code)
{
    const char *msg = rbd_last_error();
    return cli_error(cmd, code, "%s", *msg ? msg : "failed");
}

int cli_usage_error(const char *cmd)
{
    fprintf(stderr, "Try 'rbdiff %s --help'.\n", cmd);
    return EXIT_USAGE;
}

int cli_find_target(const char *cmd, const char *name, cli_target *t)
{
    t->method = rbd_method_find(name);
    t->base = t->method ? NULL : rbd_base_algo_find(name);
    if (t->method || t->base) return 0;
    char valid[2048];
    valid_method_names(valid, sizeof valid);
    return cli_error(cmd, EXIT_USAGE, "unknown method '%s' (valid: %s)", name, *valid ? valid : "none registered");
}

int cli_model(const char *cmd, const char *spec, rbd_model **m)
{
    /* a spec that does not parse, a URDF file missing, unreadable or
     * malformed, a model too large to build: the input is wrong */
    if (!model_from_spec(spec, m)) return 0;
    return cli_error(cmd, EXIT_USAGE, "%s", rbd_last_error());
}

char *cli_results_dir(const char *name)
{
    char date[32];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%d", &tm);
    size_t len = strlen(date) + strlen(name) + 16;
    char *dir = malloc(len);
    if (dir) snprintf(dir, len, "results/%s-%s", date, name);
    return dir;
}

int cli_int(const char *cmd, const char *opt, const char *s, long min, long max, long *out)
{
    double x = 0;
    if (rbd_text_number(s, strlen(s), &x) || x != floor(x) || fabs(x) > 9e15)     /* the one rule (model/text.h) */
        return cli_error(cmd, EXIT_USAGE, "%s: '%s' is not a whole number", opt, s);
    if (x < min || x > max) return cli_error(cmd, EXIT_USAGE, "%s: %s is out of range [%ld, %ld]", opt, s, min, max);
    long v = (long)x;
    if (v < min || v > max) return cli_error(cmd, EXIT_USAGE, "%s: %ld is out of range [%ld, %ld]", opt, v, min, max);
    *out = v;
    return 0;
}

int cli_num(const char *cmd, const char *opt, const char *s, double *out)
{
    double v = 0;
    if (rbd_text_number(s, strlen(s), &v))     /* the one rule (model/text.h) */
        return cli_error(cmd, EXIT_USAGE, "%s: '%s' is not a number", opt, s);
    *out = v;
    return 0;
}

static void on_interrupt(int sig)
{
    (void)sig;
    cli_interrupted = 1;
}

void cli_catch_interrupt(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int cli_bad_option(const char *cmd, int c, char **argv)
{
    const char *arg = optind > 0 ? argv[optind - 1] : "?";
    if (c == ':') cli_error(cmd, EXIT_USAGE, "option '%s' needs a value", arg);
    else if (optopt && optopt != '?') cli_error(cmd, EXIT_USAGE, "unknown option '-%c'", optopt);
    else cli_error(cmd, EXIT_USAGE, "unknown option '%s'", arg);
    return cli_usage_error(cmd);
}

void cli_joint_list(unsigned joints, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    if (joints == RBD_JOINTS_ALL) { snprintf(buf, len, "all"); return; }
    for (int t = 0; t < RBD_JOINT_NTYPES; t++)
        if (joints & (1u << t))
            used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s", used ? "," : "",
                                     rbd_joint_type_name((rbd_joint_type)t));
}

int cli_keyed_flags(const char *cmd, int argc, char **argv, const char *const (*keymap)[2], int nmap,
                    const char *help, sweep_config *c, const char **out)
{
    struct option *opts = calloc((size_t)nmap + 4, sizeof *opts);
    if (!opts) return cli_error(cmd, EXIT_FAIL, "out of memory");
    for (int k = 0; k < nmap; k++) opts[k] = (struct option){ keymap[k][0], required_argument, 0, 1000 + k };
    opts[nmap] = (struct option){ "config", required_argument, 0, 'c' };
    opts[nmap + 1] = (struct option){ "out", required_argument, 0, 'o' };
    opts[nmap + 2] = (struct option){ "help", no_argument, 0, 'h' };
    const char *config = NULL;
    int ch, status = EXIT_USAGE;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":hc:o:", opts, NULL)) != -1) {
        if (ch == 'h') { fputs(help, stdout); status = -1; goto done; }
        if (ch == 'c') config = optarg;
        else if (ch == 'o') *out = optarg;
        else if (ch < 1000) { cli_bad_option(cmd, ch, argv); goto done; }
    }
    if (optind < argc) { cli_error(cmd, 0, "unexpected argument '%s'", argv[optind]); cli_usage_error(cmd); goto done; }
    if (config) {
        if (sweep_config_read(c, config)) { cli_lib_error(cmd, 0); goto done; }
        sweep_config_allow_override(c);
    }
    optind = 1;
    while ((ch = getopt_long(argc, argv, ":hc:o:", opts, NULL)) != -1) {
        if (ch < 1000) continue;
        char where[64];
        snprintf(where, sizeof where, "--%s", keymap[ch - 1000][0]);
        if (sweep_config_set(c, keymap[ch - 1000][1], optarg, where)) { cli_lib_error(cmd, 0); goto done; }
    }
    status = 0;
done:
    free(opts);
    return status;
}

int cli_config_args(const char *cmd, int argc, char **argv, const char *help, const struct option *own, int nown,
                    int (*take)(int ch, const char *arg, void *ctx), void *ctx, sweep_config *c, const char **out)
{
    struct option base[3 + 8] = { { "config", required_argument, 0, 'c' }, { "out", required_argument, 0, 'o' },
                                  { "help", no_argument, 0, 'h' } };
    if (nown > 8) return cli_error(cmd, EXIT_FAIL, "too many options");
    for (int k = 0; k < nown; k++) base[3 + k] = own[k];
    struct option *opts = sweep_options(base, 3 + nown);
    if (!opts) return cli_error(cmd, EXIT_FAIL, "out of memory");
    const char *config = NULL;
    int ch, status = EXIT_USAGE;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":hc:o:", opts, NULL)) != -1) {
        if (ch == 'h') { fputs(help, stdout); status = -1; goto done; }
        if (ch == 'c') config = optarg;
        else if (ch == 'o') *out = optarg;
        else if (ch >= SWEEP_OPT_BASE) continue;
        else if (ch == '?' || ch == ':') { cli_bad_option(cmd, ch, argv); goto done; }
        else if ((status = take(ch, optarg, ctx))) goto done;
        status = EXIT_USAGE;
    }
    if (optind < argc) { cli_error(cmd, 0, "unexpected argument '%s'", argv[optind]); cli_usage_error(cmd); goto done; }
    if (config) {
        if (sweep_config_read(c, config)) { cli_lib_error(cmd, 0); goto done; }
        sweep_config_allow_override(c);
    }
    optind = 1;
    while ((ch = getopt_long(argc, argv, ":hc:o:", opts, NULL)) != -1)
        if (ch >= SWEEP_OPT_BASE && sweep_config_flag(c, ch - SWEEP_OPT_BASE, optarg)) {
            cli_lib_error(cmd, 0);
            goto done;
        }
    status = 0;
done:
    free(opts);
    return status;
}
