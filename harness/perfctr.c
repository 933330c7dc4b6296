/* perf_event_open counters: a group {instructions, cycles}, user space only
 * (exclude_kernel works at perf_event_paranoid <= 2). */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "perfctr.h"

struct perfctr {
    int fd_instr, fd_cycles;
};

static int open_one(uint64_t config, int group)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_HARDWARE;
    a.config = config;
    a.disabled = group < 0;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    a.read_format = PERF_FORMAT_GROUP;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, group, 0);
}

perfctr *perfctr_open(char *why, size_t whylen)
{
    int fi = open_one(PERF_COUNT_HW_INSTRUCTIONS, -1);
    if (fi < 0) {
        snprintf(why, whylen, "perf_event_open(instructions): %s", strerror(errno));
        return NULL;
    }
    int fc = open_one(PERF_COUNT_HW_CPU_CYCLES, fi);
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
    return pc;
}

void perfctr_start(perfctr *pc)
{
    ioctl(pc->fd_instr, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
    ioctl(pc->fd_instr, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
}

int perfctr_stop(perfctr *pc, double *instructions, double *cycles)
{
    ioctl(pc->fd_instr, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
    uint64_t buf[3];  /* nr, instructions, cycles (PERF_FORMAT_GROUP) */
    if (read(pc->fd_instr, buf, sizeof buf) != (ssize_t)sizeof buf || buf[0] != 2) return -1;
    *instructions = (double)buf[1];
    *cycles = (double)buf[2];
    return 0;
}

void perfctr_close(perfctr *pc)
{
    if (!pc) return;
    close(pc->fd_cycles);
    close(pc->fd_instr);
    free(pc);
}
