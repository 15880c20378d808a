/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the core remembers of probes, for "why is this device not bound?"
 * and for timings (probe_info.c): per device the result of its last probe,
 * its probe calls and the durations of its last probe, remove, suspend and
 * resume callbacks; per driver a histogram of its probes' durations. The
 * snapshot file and stats show them (docs/snapshot.md); nothing in a
 * driver needs them.
 */
#ifndef _DMCORE_PROBE_INFO_H
#define _DMCORE_PROBE_INFO_H

#include <linux/bitops.h>
#include <linux/math64.h>
#include <linux/types.h>
#include <dmcore/kobject.h>

struct dmc_device;
struct dmc_driver;

/* The result of a device's last probe, as docs/snapshot.md names them. */
enum dmc_probe_result {
	DMC_PROBE_NONE = 0,	/* never probed */
	DMC_PROBE_OK,		/* returned 0: bound */
	DMC_PROBE_DEFERRED,	/* deferred (-EPROBE_DEFER) */
	DMC_PROBE_FAILED,	/* another error: struct dmc_probe_info.err */
};

/* Room for a deferral's awaited name (a device or driver name) and reason. */
#define DMC_PROBE_INFO_NAME_MAX	(DMC_NAME_MAX + 1)

/**
 * struct dmc_probe_info - a device's probes, as dmc_device_probe_info() read them
 * @result: the result of the last probe
 * @err: for DMC_PROBE_FAILED the positive errno it returned, else 0
 * @probes: probe calls of the device (a deferral before the call, by its
 *	suppliers or by blocked probing, calls nothing and is not counted)
 * @probe_ns: duration of the last probe call (0: never ran)
 * @remove_ns: duration of the last remove callback (0: never ran)
 * @suspend_ns: duration of the last system-sleep suspend callback
 * @resume_ns: duration of the last system-sleep resume callback
 * @waits: for DMC_PROBE_DEFERRED, the name the device waits for, "" for
 *	an unnamed deferral; truncated to fit
 * @reason: for DMC_PROBE_DEFERRED, the driver's words (dmc_dev_err_probe()),
 *	or ""; truncated to fit
 */
struct dmc_probe_info {
	enum dmc_probe_result result;
	int err;
	unsigned long probes;
	u64 probe_ns, remove_ns, suspend_ns, resume_ns;
	char waits[DMC_PROBE_INFO_NAME_MAX];
	char reason[DMC_PROBE_INFO_NAME_MAX];
};

void dmc_device_probe_info(struct dmc_device *dev, struct dmc_probe_info *info);
const char *dmc_probe_result_name(enum dmc_probe_result result);

/*
 * The probe-latency histogram's buckets: bucket i < 21 counts probes of at
 * least 2^(i-1) µs (bucket 0: from 0) and below 2^i µs; bucket 21 the
 * rest (bound "inf").
 */
#define DMC_PROBE_HIST_BUCKETS	22

/**
 * struct dmc_probe_hist - a driver's probe calls and their durations
 * @count: probe calls (@ok + @failed + @deferred)
 * @ok: those that bound the device
 * @failed: those that returned an error other than -EPROBE_DEFER
 * @deferred: those that returned -EPROBE_DEFER
 * @total_ns: the sum of their durations
 * @buckets: their durations, DMC_PROBE_HIST_BUCKETS log2 µs buckets
 */
struct dmc_probe_hist {
	unsigned long count, ok, failed, deferred;
	u64 total_ns;
	unsigned long buckets[DMC_PROBE_HIST_BUCKETS];
};

/* The bucket of a probe that took @ns nanoseconds. */
static inline unsigned int dmc_probe_hist_bucket(u64 ns)
{
	unsigned int b = fls64(div_u64(ns, 1000));

	return b < DMC_PROBE_HIST_BUCKETS - 1 ? b : DMC_PROBE_HIST_BUCKETS - 1;
}

/* The upper bound (µs) of bucket @i < DMC_PROBE_HIST_BUCKETS - 1. */
static inline unsigned long dmc_probe_hist_bound_us(unsigned int i)
{
	return 1UL << i;
}

int dmc_driver_probe_hist(struct dmc_driver *drv, struct dmc_probe_hist *hist);
int dmc_probe_hist_walk(void *data,
			int (*fn)(const char *bus, const char *drv,
				  const struct dmc_probe_hist *hist, void *data));

#endif /* _DMCORE_PROBE_INFO_H */
