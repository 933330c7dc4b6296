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

int cli_num_in(const char *cmd, const char *opt, const char *s, const char *ends, double lo, double hi, double *out)
{
    double v = 0;
    if (cli_num(cmd, opt, s, &v)) return EXIT_USAGE;
    if (!((ends[0] == '[' ? v >= lo : v > lo) && (ends[1] == ']' ? v <= hi : v < hi)))     /* NaN: out */
        return cli_error(cmd, EXIT_USAGE, "%s: %s is out of range %c%g, %g%c", opt, s, ends[0], lo, hi, ends[1]);
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

/* 1 when next is a cluster of short options "-xyz" whose ch is not its last
 * letter: getopt_long is inside it (optind still on it), so the error is
 * ch's there, not the previous argument's. */
static int inside_cluster(const char *next, int ch)
{
    const char *p = next && next[0] == '-' && next[1] && next[1] != '-' ? strchr(next + 1, ch) : NULL;
    return ch > 0 && p && p[1];
}

int cli_bad_option(const char *cmd, int c, char **argv)
{
    /* A long option's error has optind past it (argv[optind - 1]); a short
     * one's optopt is its letter, and for a long option given a value it
     * takes none, optopt is that option's val (a getopt code the user
     * never wrote): so a long option is named as written, its value cut. */
    const char *arg = optind > 0 ? argv[optind - 1] : "?";
    int len = (int)strcspn(arg, "=");
    int as_long = !strncmp(arg, "--", 2) && (c == ':' || !optopt || (arg[len] && !inside_cluster(argv[optind], optopt)));
    if (c == ':' && as_long) cli_error(cmd, EXIT_USAGE, "option '%.*s' needs a value", len, arg);
    else if (c == ':') cli_error(cmd, EXIT_USAGE, "option '-%c' needs a value", optopt);
    else if (as_long && optopt) cli_error(cmd, EXIT_USAGE, "option '%.*s' takes no value", len, arg);
    else if (as_long || !optopt || optopt == '?') cli_error(cmd, EXIT_USAGE, "unknown option '%.*s'", len, arg);
    else cli_error(cmd, EXIT_USAGE, "unknown option '-%c'", optopt);
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

/* The config keys of fl as getopt_long options, each with val
 * SWEEP_OPT_BASE + its index (in fl->keymap, or in the key table), followed
 * by -c and -o (unless fl->no_config), -h and the command's own; malloc'ed,
 * NULL when out of memory. */
static struct option *flag_options(const cli_flags *fl)
{
    struct option base[3 + CLI_MAX_OWN] = { { "config", required_argument, 0, 'c' },
                                            { "out", required_argument, 0, 'o' },
                                            { "help", no_argument, 0, 'h' } };
    int first = fl->no_config ? 2 : 0, nb = 3 - first;
    for (int k = 0; k < fl->nown; k++) base[3 + k] = fl->own[k];
    if (!fl->keymap) return sweep_options(base + first, nb + fl->nown);
    struct option *o = calloc((size_t)fl->nmap + (size_t)nb + (size_t)fl->nown + 1, sizeof *o);
    if (!o) return NULL;
    for (int k = 0; k < fl->nmap; k++)
        o[k] = (struct option){ fl->keymap[k][0], required_argument, 0, SWEEP_OPT_BASE + k };
    for (int k = 0; k < nb + fl->nown; k++) o[fl->nmap + k] = base[first + k];
    return o;
}

/* Config flag i of fl set to value: through its key (keymap), or as the
 * key table's flag --KEY. */
static int set_flag(const cli_flags *fl, sweep_config *c, int i, const char *value)
{
    if (!fl->keymap) return sweep_config_flag(c, i, value);
    char where[64];
    snprintf(where, sizeof where, "--%s", fl->keymap[i][0]);
    return sweep_config_set(c, fl->keymap[i][1], value, where);
}

/* Without a config file: every flag in its turn, as given. */
static int in_order(const char *cmd, int argc, char **argv, const char *help, const cli_flags *fl,
                    const struct option *opts, const char *optstring, sweep_config *c)
{
    int ch, status;
    while ((ch = getopt_long(argc, argv, optstring, opts, NULL)) != -1) {
        if (ch == 'h') { fputs(help, stdout); return -1; }
        if (ch >= SWEEP_OPT_BASE) {
            if (set_flag(fl, c, ch - SWEEP_OPT_BASE, optarg)) return cli_lib_error(cmd, EXIT_USAGE);
        } else if (ch == '?' || ch == ':' || !fl->take) {
            return cli_bad_option(cmd, ch, argv);
        } else if ((status = fl->take(ch, optarg, fl->ctx))) {
            return status;
        }
    }
    return 0;
}

/* With a config file: -h, -c, -o and the command's own options first, then
 * the config read, then the config flags over it. */
static int over_config(const char *cmd, int argc, char **argv, const char *help, const cli_flags *fl,
                       const struct option *opts, const char *optstring, sweep_config *c, const char **out)
{
    const char *config = NULL;
    int ch, status;
    while ((ch = getopt_long(argc, argv, optstring, opts, NULL)) != -1) {
        if (ch == 'h') { fputs(help, stdout); return -1; }
        if (ch == 'c') config = optarg;
        else if (ch == 'o') *out = optarg;
        else if (ch >= SWEEP_OPT_BASE) continue;
        else if (ch == '?' || ch == ':' || !fl->take) return cli_bad_option(cmd, ch, argv);
        else if ((status = fl->take(ch, optarg, fl->ctx))) return status;
    }
    if (optind < argc) {
        cli_error(cmd, 0, "unexpected argument '%s'", argv[optind]);
        return cli_usage_error(cmd);
    }
    if (config) {
        if (sweep_config_read(c, config)) return cli_lib_error(cmd, EXIT_USAGE);
        sweep_config_allow_override(c);
    }
    optind = 1;
    while ((ch = getopt_long(argc, argv, optstring, opts, NULL)) != -1)
        if (ch >= SWEEP_OPT_BASE && set_flag(fl, c, ch - SWEEP_OPT_BASE, optarg)) return cli_lib_error(cmd, EXIT_USAGE);
    return 0;
}

int cli_config_args(const char *cmd, int argc, char **argv, const char *help, const cli_flags *fl, sweep_config *c,
                    const char **out)
{
    if (fl->nown > CLI_MAX_OWN) return cli_error(cmd, EXIT_FAIL, "too many options");
    char optstring[32];
    snprintf(optstring, sizeof optstring, "%s%s", fl->no_config ? ":h" : ":hc:o:", fl->shortopts ? fl->shortopts : "");
    struct option *opts = flag_options(fl);
    if (!opts) return cli_error(cmd, EXIT_FAIL, "out of memory");
    optind = 1;
    opterr = 0;
    int status = fl->no_config ? in_order(cmd, argc, argv, help, fl, opts, optstring, c)
                               : over_config(cmd, argc, argv, help, fl, opts, optstring, c, out);
    free(opts);
    return status;
}
