/* perf_event_open counters: a group {instructions, cycles}, user space only
 * (exclude_kernel works at perf_event_paranoid <= 2), and on Intel a second
 * group of the four FP_ARITH_INST_RETIRED double-precision events (Intel SDM
 * vol. 3B, event 0xC7): flops = scalar + 2*128-bit + 4*256-bit + 8*512-bit
 * packed, where an FMA already counts twice.  The FP group is optional: a
 * PMU without it (AMD, VMs) still gives instructions and cycles. */
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "measure/perfctr.h"

enum { NFP = 4 };
/* umask of FP_ARITH_INST_RETIRED and the flops each counted instruction does */
static const struct { unsigned umask; double width; } fp_events[NFP] = {
    { 0x01, 1 }, { 0x04, 2 }, { 0x10, 4 }, { 0x40, 8 } };

struct perfctr {
    int fd_instr, fd_cycles;
    int fd_fp[NFP];          /* fd_fp[0] leads the FP group; -1 if none */
};

static int open_one(uint32_t type, uint64_t config, int group)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = type;
    a.config = config;
    a.disabled = group < 0;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    a.read_format = PERF_FORMAT_GROUP;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, group, 0);
}

static int intel_cpu(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    int intel = 0;
    if (!f) return 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "vendor_id", 9)) { intel = strstr(line, "GenuineIntel") != NULL; break; }
    fclose(f);
    return intel;
}

static void open_fp(perfctr *pc)
{
    for (int k = 0; k < NFP; k++) pc->fd_fp[k] = -1;
    if (!intel_cpu()) return;
    for (int k = 0; k < NFP; k++) {
        pc->fd_fp[k] = open_one(PERF_TYPE_RAW, 0xC7 | (fp_events[k].umask << 8), k ? pc->fd_fp[0] : -1);
        if (pc->fd_fp[k] < 0) {
            while (k >= 0) { if (pc->fd_fp[k] >= 0) close(pc->fd_fp[k]); pc->fd_fp[k--] = -1; }
            return;
        }
    }
}

perfctr *perfctr_open(char *why, size_t whylen)
{
    const char *off = getenv("RBD_NO_PERFCTR");
    if (off && *off && strcmp(off, "0")) {
        snprintf(why, whylen, "disabled by RBD_NO_PERFCTR");
        return NULL;
    }
    int fi = open_one(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, -1);
    if (fi < 0) {
        snprintf(why, whylen, "perf_event_open(instructions): %s", strerror(errno));
        return NULL;
    }
    int fc = open_one(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, fi);
    if (fc < 0) {
        snprintf(why, whylen, "perf_event_open(cycles): %s", strerror(errno));
        close(fi);
        return NULL;
    }
    perfctr *pc = malloc(sizeof *pc);
    if (!pc) {
        snprintf(why, whylen, "out of memory");
        close(fi); close(fc);
        return NULL;
    }
    pc->fd_instr = fi;
    pc->fd_cycles = fc;
    open_fp(pc);
    return pc;
}

int perfctr_has_fp(const perfctr *pc)
{
    return pc && pc->fd_fp[0] >= 0;
}

void perfctr_start(perfctr *pc)
{
    ioctl(pc->fd_instr, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
    if (pc->fd_fp[0] >= 0) {
        ioctl(pc->fd_fp[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
        ioctl(pc->fd_fp[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
    }
    ioctl(pc->fd_instr, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
}

int perfctr_stop(perfctr *pc, double *instructions, double *cycles, double *fp_ops)
{
    ioctl(pc->fd_instr, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
    if (pc->fd_fp[0] >= 0) ioctl(pc->fd_fp[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
    uint64_t buf[1 + NFP];  /* nr, then the group's counts (PERF_FORMAT_GROUP) */
    *fp_ops = NAN;
    if (read(pc->fd_instr, buf, 3 * sizeof *buf) != (ssize_t)(3 * sizeof *buf) || buf[0] != 2) return -1;
    *instructions = (double)buf[1];
    *cycles = (double)buf[2];
    if (pc->fd_fp[0] >= 0 && read(pc->fd_fp[0], buf, sizeof buf) == (ssize_t)sizeof buf && buf[0] == NFP) {
        double s = 0;
        for (int k = 0; k < NFP; k++) s += fp_events[k].width * (double)buf[1 + k];
        *fp_ops = s;
    }
    return 0;
}

void perfctr_close(perfctr *pc)
{
    if (!pc) return;
    for (int k = NFP - 1; k >= 0; k--)
        if (pc->fd_fp[k] >= 0) close(pc->fd_fp[k]);
    close(pc->fd_cycles);
    close(pc->fd_instr);
    free(pc);
}
