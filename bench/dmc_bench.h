/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmc_bench: one set of scenarios, two implementations. real.c drives the
 * kernel's driver core through a real bus_type, real device_drivers and
 * real struct devices; dmc.c drives dmcore through its exported API;
 * floor.c creates raw debugfs entries, the floor the mirror can reach.
 * main.c parses commands from the debugfs file and formats the results.
 *
 * Every scenario fills a struct dmc_bench_result: phase times in
 * nanoseconds (totals, not per operation: the host divides), what was
 * counted, and slab bytes per object where it measures memory.
 */
#ifndef _DMC_BENCH_H
#define _DMC_BENCH_H

#include <linux/seq_file.h>
#include <linux/types.h>

/* Drivers of the bind scenario; device i matches driver i % this. */
#define DMC_BENCH_DRIVERS	100

/**
 * struct dmc_bench_result - what one run of one scenario measured
 * @ns: phase times in ns; which phase is which depends on the scenario
 *	(see the names in main.c)
 * @count: objects the scenario counted (devices on the bus, devices
 *	bound, lookups that found their device, events sent or read)
 * @probes: probe calls (the chain scenario)
 * @ops: operations of the timed phase (e.g. lookups done)
 * @mem: slab bytes held per device while the devices existed, or 0
 * @entries: debugfs entries per device (floor scenario)
 */
struct dmc_bench_result {
	u64 ns[3];
	u64 count;
	u64 probes;
	u64 ops;
	s64 mem;
	u64 entries;
};

/* Slab bytes in use now (reclaimable and unreclaimable), from vmstat. */
s64 dmc_bench_slab_bytes(void);

/* The kernel's driver core (real.c). */
int dmc_bench_real_init(void);
void dmc_bench_real_exit(void);
int dmc_bench_real_devices(unsigned int n, struct dmc_bench_result *r);
int dmc_bench_real_bind(unsigned int n, struct dmc_bench_result *r);
int dmc_bench_real_lookup(unsigned int n, unsigned int lookups,
			  struct dmc_bench_result *r);
int dmc_bench_real_chain(unsigned int n, struct dmc_bench_result *r);
int dmc_bench_real_events(unsigned int n, struct dmc_bench_result *r);

/* dmcore (dmc.c). */
int dmc_bench_dmc_init(void);
void dmc_bench_dmc_exit(void);
int dmc_bench_dmc_devices(unsigned int n, struct dmc_bench_result *r);
int dmc_bench_dmc_bind(unsigned int n, bool keyed, struct dmc_bench_result *r);
int dmc_bench_dmc_lookup(unsigned int n, unsigned int lookups,
			 struct dmc_bench_result *r);
int dmc_bench_dmc_chain(unsigned int n, struct dmc_bench_result *r);
int dmc_bench_dmc_events(unsigned int n, struct dmc_bench_result *r);
int dmc_bench_dmc_hold(unsigned int n);
void dmc_bench_dmc_release_held(void);
int dmc_bench_real_hold(unsigned int n);
void dmc_bench_real_release_held(void);

/* Raw debugfs (floor.c). */
int dmc_bench_floor(unsigned int n, struct dmc_bench_result *r);

/* The sampling profiler (sample.c). */
int dmc_bench_sample_start(void);
void dmc_bench_sample_stop(void);
void dmc_bench_sample_free(void);
unsigned int dmc_bench_samples(unsigned int *taken);
extern const struct seq_operations dmc_bench_sample_seq_ops;

/* Wait until dmcore's mirror has removed deleted objects (main.c). */

#endif /* _DMC_BENCH_H */
