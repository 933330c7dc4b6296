/*
 * What the subcommands share: exit codes, messages on stderr as
 * "rbdiff <cmd>: <message>", method and model look-up that list the valid
 * names, and the SIGINT flag that ends long runs after a measurement.
 */
#ifndef RBD_CLI_H
#define RBD_CLI_H

#include <signal.h>
#include <stdio.h>
#include "rbdiff/method.h"
#include "common/timeable.h"
#include "plan/sweepconf.h"

/* The exit-status rule (harness/README.md): EXIT_USAGE whenever the input
 * given is wrong -- command line, options, config, model spec or URDF file
 * (missing, unreadable or malformed alike), state file, a results directory
 * to read or resume (missing, malformed, another build's); EXIT_FAIL when
 * the run fails on valid input (a numerical fault at a well-formed state,
 * memory, an output that cannot be written; compare's regression). */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2, EXIT_INTERRUPTED = 130 };

/* One subcommand: cmd_<name>.c. */
typedef struct {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);   /* argv[0] is the subcommand name */
} cli_command;

int cmd_advise(int argc, char **argv);
int cmd_methods(int argc, char **argv);
int cmd_models(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_time(int argc, char **argv);
int cmd_accuracy(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_crossover(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_anchors(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_pack(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_pair(int argc, char **argv);
int cmd_worker(int argc, char **argv);

/* "rbdiff <cmd>: <message>\n" on stderr; returns code, so
 * `return cli_error(cmd, EXIT_USAGE, ...)` reads naturally. */
int cli_error(const char *cmd, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* The library's last message, as cli_error does. */
int cli_lib_error(const char *cmd, int code);
/* "Try 'rbdiff <cmd> --help'." after an option error. */
int cli_usage_error(const char *cmd);

/* A method or base algorithm by name; unknown names list the valid ones. */
typedef struct {
    const rbd_method *method;       /* one of the two is set */
    const rbd_base_algo *base;
} cli_target;
int cli_find_target(const char *cmd, const char *name, cli_target *t);
/* Builds a model from a spec; on failure prints the library's message. */
int cli_model(const char *cmd, const char *spec, rbd_model **m);
/* "results/<local date>-<name>", malloc'ed (NULL: out of memory). */
char *cli_results_dir(const char *name);

/* Parses a whole number/number argument of an option, or prints an error. */
int cli_int(const char *cmd, const char *opt, const char *s, long min, long max, long *out);
int cli_num(const char *cmd, const char *opt, const char *s, double *out);
/* cli_num within an interval whose ends ("()", "(]", "[)" or "[]") say
 * which bounds belong to it; else "OPT: S is out of range (LO, HI]". */
int cli_num_in(const char *cmd, const char *opt, const char *s, const char *ends, double lo, double hi, double *out);

/* Set by SIGINT/SIGTERM while cli_catch_interrupt is in force. */
extern volatile sig_atomic_t cli_interrupted;
void cli_catch_interrupt(void);

/* The command line of this run (for meta.json and benchmark contexts). */
extern int cli_argc;
extern char **cli_argv;

/* After getopt_long returned '?' or ':' (optstring starting with ':', and
 * opterr = 0): names the offending option as the user wrote it (a long
 * one without its "=VALUE": unknown, needs a value, takes no value; a short
 * one by its letter), returns EXIT_USAGE. */
int cli_bad_option(const char *cmd, int c, char **argv);
/* One convention for every command whose flags are config keys: the flags
 * are either every config key as --KEY (keymap NULL, sweep_options: sweep,
 * time, pair, crossover, advise, worker) or the pairs keymap[k] = { flag,
 * key } (accuracy: --N is accuracy_N); -h prints help on stdout; the
 * command's own options (at most CLI_MAX_OWN, their val below
 * SWEEP_OPT_BASE and none of 'c', 'o', 'h'; their short forms in
 * shortopts, e.g. "o:") are handed to take (0, or the exit status after its
 * message).  With a config file (sweep, accuracy): -c FILE is read first so
 * that the flags override it whatever their place, -o DIR goes into *out,
 * and an argument that is not an option is refused.  Without one
 * (no_config: time, pair, crossover, advise, worker) every flag is taken in
 * its turn, and the arguments from optind on are the command's to check.
 * 0 to go on, -1 after --help, else the exit status (message printed). */
struct option;
enum { CLI_MAX_OWN = 8 };
typedef struct {
    const char *const (*keymap)[2];     /* NULL: every config key a flag   */
    int nmap;
    int no_config;                      /* no -c FILE, no -o DIR            */
    const char *shortopts;              /* the own options' short forms     */
    const struct option *own;
    int nown;
    int (*take)(int ch, char *arg, void *ctx);   /* arg: optarg */
    void *ctx;
} cli_flags;
int cli_config_args(const char *cmd, int argc, char **argv, const char *help, const cli_flags *fl, sweep_config *c,
                    const char **out);
/* Joint type names supported by a method ("revolute, prismatic, ..."). */
void cli_joint_list(unsigned joints, char *buf, size_t len);
#endif
