/* The one clock the harness times with. */
#ifndef RBD_CLOCK_H
#define RBD_CLOCK_H

/* Monotonic wall clock in ns (CLOCK_MONOTONIC). */
double timing_now_ns(void);

#endif
