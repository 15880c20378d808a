/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a device's add and delete spend their time: per-phase clocks in
 * the core, off unless a benchmark turns them on (phase.c). Each phase
 * adds the cycles (get_cycles()) spent in one step of dmc_device_add() or
 * of a device's deletion; the nested phases count time inside those
 * steps again (every event sent, every probe call with its bind).
 */
#ifndef _DMCORE_PHASE_H
#define _DMCORE_PHASE_H

#include <linux/types.h>

enum dmc_phase {
	DMC_PHASE_ADD_NAME,	/* private part, name, the bus's and class's name checks */
	DMC_PHASE_ADD_TREE,	/* the kobject into the tree (and its kset) */
	DMC_PHASE_ADD_BUS,	/* onto the bus's list and index */
	DMC_PHASE_ADD_CLASS,	/* into the class */
	DMC_PHASE_ADD_ORDER,	/* parent's children, power order, links, registered */
	DMC_PHASE_ADD_EVENT,	/* bus notifiers, "add" */
	DMC_PHASE_ADD_PROBE,	/* offered to the bus's drivers, bind included */
	DMC_PHASE_DEL_UNBIND,	/* claim, notifiers, driver released, links, deferral */
	DMC_PHASE_DEL_LISTS,	/* out of the class and off the bus */
	DMC_PHASE_DEL_ORDER,	/* out of the power order and the parent's children */
	DMC_PHASE_DEL_TREE,	/* the kobject out of the tree, "remove" */
	DMC_PHASE_DEL_RELEASE,	/* deleted mark, last references, release */
	DMC_PHASE_NR_LAPS,
	/* Nested: counted again inside the phases above. */
	DMC_PHASE_EVENT = DMC_PHASE_NR_LAPS,	/* an event built, logged, shown */
	DMC_PHASE_PROBE,	/* a probe: the bus's or driver's call and the bind */
	DMC_PHASE_EVENT_BUILD,	/* an event's checks, kset, variables and hook */
	DMC_PHASE_EVENT_LOG,	/* an event numbered, logged, shown to listeners */
	DMC_PHASE_NR
};

/**
 * struct dmc_phase_stats - what the phase clocks counted since reset
 * @cycles: get_cycles() units spent in each phase, all CPUs
 * @calls: how often each phase was entered
 */
struct dmc_phase_stats {
	u64 cycles[DMC_PHASE_NR];
	u64 calls[DMC_PHASE_NR];
};

void dmc_phase_clocks(bool on);
void dmc_phase_read(struct dmc_phase_stats *stats);
const char *dmc_phase_name(enum dmc_phase phase);

#endif /* _DMCORE_PHASE_H */
