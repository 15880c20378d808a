// SPDX-License-Identifier: GPL-2.0
/*
 * A sampling profiler for the benchmark: while a scenario runs, a
 * software cpu-clock perf event on every CPU records where the task
 * running the scenario was interrupted, in the kernel. The release guest
 * has no function tracer, and a tracer's cost per call would swamp the
 * small steps of an add; a sample costs the same wherever it lands, so
 * the shares of a flat profile hold. The guest reads the samples back
 * as symbol names (dmc_bench/samples) and counts them.
 *
 * Without CONFIG_HIGH_RES_TIMERS the event fires at most once a tick
 * (250 Hz on the release kernel): a profile wants a scenario that runs
 * for many seconds. Only the writer's own time is sampled: work the
 * scenario leaves to workers is not in the profile.
 */

#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "dmc_bench.h"

#define DMC_SAMPLE_MAX	BIT(18)

static unsigned long *dmc_sample_ips;
static atomic_t dmc_sample_n = ATOMIC_INIT(0);
static struct task_struct *dmc_sample_task;
static struct perf_event **dmc_sample_events;

static void dmc_sample_hit(struct perf_event *event,
			   struct perf_sample_data *data, struct pt_regs *regs)
{
	unsigned int i;

	if (!regs || user_mode(regs) || current != READ_ONCE(dmc_sample_task))
		return;
	i = atomic_inc_return(&dmc_sample_n) - 1;
	if (i < DMC_SAMPLE_MAX)
		dmc_sample_ips[i] = instruction_pointer(regs);
}

/**
 * dmc_bench_sample_start() - sample the current task from now on
 *
 * Forgets the previous samples. Return: 0, -ENOMEM, or the perf event's
 * error (nothing is left running then).
 */
int dmc_bench_sample_start(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.size = sizeof(attr),
		.sample_period = NSEC_PER_MSEC,
		.pinned = 1,
	};
	struct perf_event *ev;
	int cpu, err;

	if (!dmc_sample_ips) {
		dmc_sample_ips = vmalloc(DMC_SAMPLE_MAX * sizeof(*dmc_sample_ips));
		dmc_sample_events = kcalloc(nr_cpu_ids, sizeof(*dmc_sample_events),
					    GFP_KERNEL);
		if (!dmc_sample_ips || !dmc_sample_events) {
			dmc_bench_sample_free();
			return -ENOMEM;
		}
	}
	atomic_set(&dmc_sample_n, 0);
	WRITE_ONCE(dmc_sample_task, current);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		ev = perf_event_create_kernel_counter(&attr, cpu, NULL,
						      dmc_sample_hit, NULL);
		if (IS_ERR(ev)) {
			err = PTR_ERR(ev);
			cpus_read_unlock();
			dmc_bench_sample_stop();
			return err;
		}
		dmc_sample_events[cpu] = ev;
	}
	cpus_read_unlock();
	return 0;
}

/* Stop sampling; the samples stay until the next start or the free. */
void dmc_bench_sample_stop(void)
{
	int cpu;

	if (!dmc_sample_events)
		return;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (dmc_sample_events[cpu])
			perf_event_release_kernel(dmc_sample_events[cpu]);
		dmc_sample_events[cpu] = NULL;
	}
	WRITE_ONCE(dmc_sample_task, NULL);
}

void dmc_bench_sample_free(void)
{
	dmc_bench_sample_stop();
	vfree(dmc_sample_ips);
	dmc_sample_ips = NULL;
	kfree(dmc_sample_events);
	dmc_sample_events = NULL;
}

/* Samples kept (at most DMC_SAMPLE_MAX) and taken. */
unsigned int dmc_bench_samples(unsigned int *taken)
{
	unsigned int n = atomic_read(&dmc_sample_n);

	*taken = n;
	return min(n, DMC_SAMPLE_MAX);
}

/* The samples file: one function name per sample, for sort | uniq -c. */
static void *dmc_sample_seq_start(struct seq_file *m, loff_t *pos)
{
	unsigned int taken;

	if (!dmc_sample_ips || *pos >= dmc_bench_samples(&taken))
		return NULL;
	return &dmc_sample_ips[*pos];
}

static void *dmc_sample_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return dmc_sample_seq_start(m, pos);
}

static void dmc_sample_seq_stop(struct seq_file *m, void *v)
{
}

static int dmc_sample_seq_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%ps\n", (void *)*(unsigned long *)v);
	return 0;
}

const struct seq_operations dmc_bench_sample_seq_ops = {
	.start = dmc_sample_seq_start,
	.next = dmc_sample_seq_next,
	.stop = dmc_sample_seq_stop,
	.show = dmc_sample_seq_show,
};
