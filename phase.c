// SPDX-License-Identifier: GPL-2.0
/*
 * The phase clocks: how long each step of a device's add and delete takes,
 * for `make bench` (include/dmcore/phase.h). Off by default, and then a
 * static branch that is never taken; on, each step reads the cycle
 * counter once and adds the difference to a per-CPU total. Linux has no
 * counterpart; its nearest is the function graph tracer, which costs
 * far more per call than the steps measured here.
 */

#include <linux/export.h>
#include <linux/percpu.h>
#include <linux/string.h>

#include "base.h"

DEFINE_STATIC_KEY_FALSE(dmc_phase_key);

struct dmc_phase_pcpu {
	u64 cycles[DMC_PHASE_NR];
	u64 calls[DMC_PHASE_NR];
};

static DEFINE_PER_CPU(struct dmc_phase_pcpu, dmc_phase_pcpu);
static DEFINE_MUTEX(dmc_phase_mutex);

static const char * const dmc_phase_names[DMC_PHASE_NR] = {
	[DMC_PHASE_ADD_NAME] = "add_name",
	[DMC_PHASE_ADD_TREE] = "add_tree",
	[DMC_PHASE_ADD_BUS] = "add_bus",
	[DMC_PHASE_ADD_CLASS] = "add_class",
	[DMC_PHASE_ADD_ORDER] = "add_order",
	[DMC_PHASE_ADD_EVENT] = "add_event",
	[DMC_PHASE_ADD_PROBE] = "add_probe",
	[DMC_PHASE_DEL_UNBIND] = "del_unbind",
	[DMC_PHASE_DEL_LISTS] = "del_lists",
	[DMC_PHASE_DEL_ORDER] = "del_order",
	[DMC_PHASE_DEL_TREE] = "del_tree",
	[DMC_PHASE_DEL_RELEASE] = "del_release",
	[DMC_PHASE_EVENT] = "event",
	[DMC_PHASE_PROBE] = "probe",
	[DMC_PHASE_EVENT_BUILD] = "event_build",
	[DMC_PHASE_EVENT_LOG] = "event_log",
};

/* Add @cycles to @phase on this CPU; called through dmc_phase_lap(). */
void __dmc_phase_add(enum dmc_phase phase, u64 cycles)
{
	this_cpu_add(dmc_phase_pcpu.cycles[phase], cycles);
	this_cpu_inc(dmc_phase_pcpu.calls[phase]);
}

/**
 * dmc_phase_clocks() - turn the phase clocks on or off
 * @on: true to zero the totals and start counting, false to stop
 *
 * Context: may sleep. Steps running while the clocks are switched may be
 * counted partly; switch them with the model idle.
 */
void dmc_phase_clocks(bool on)
{
	int cpu;

	mutex_lock(&dmc_phase_mutex);
	if (on) {
		for_each_possible_cpu(cpu)
			memset(per_cpu_ptr(&dmc_phase_pcpu, cpu), 0,
			       sizeof(struct dmc_phase_pcpu));
		if (!static_key_enabled(&dmc_phase_key))
			static_branch_enable(&dmc_phase_key);
	} else if (static_key_enabled(&dmc_phase_key)) {
		static_branch_disable(&dmc_phase_key);
	}
	mutex_unlock(&dmc_phase_mutex);
}
EXPORT_SYMBOL_GPL(dmc_phase_clocks);

/**
 * dmc_phase_read() - the totals since the clocks were last turned on
 * @stats: filled with the sums over all CPUs
 *
 * Context: any; the sums are not a snapshot while steps run.
 */
void dmc_phase_read(struct dmc_phase_stats *stats)
{
	int cpu, i;

	memset(stats, 0, sizeof(*stats));
	for_each_possible_cpu(cpu) {
		const struct dmc_phase_pcpu *pc = per_cpu_ptr(&dmc_phase_pcpu, cpu);

		for (i = 0; i < DMC_PHASE_NR; i++) {
			stats->cycles[i] += READ_ONCE(pc->cycles[i]);
			stats->calls[i] += READ_ONCE(pc->calls[i]);
		}
	}
}
EXPORT_SYMBOL_GPL(dmc_phase_read);

/**
 * dmc_phase_name() - the name of a phase, as `make bench` prints it
 * @phase: the phase
 *
 * Return: a static string, "?" for a value out of range.
 */
const char *dmc_phase_name(enum dmc_phase phase)
{
	return (unsigned int)phase < DMC_PHASE_NR ? dmc_phase_names[phase] : "?";
}
EXPORT_SYMBOL_GPL(dmc_phase_name);
