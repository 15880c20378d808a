// SPDX-License-Identifier: GPL-2.0
/*
 * The model lock and the model generation: what lets a reader take the
 * whole model in one consistent state (snapshot.c), and tell two states
 * apart by a number. Linux has neither: its sysfs is read one file at a
 * time, and a tool that walks /sys sees a mix of states when the model
 * changes under it.
 *
 * A change of what the snapshot shows is one of two kinds:
 *
 *  - made under a mutex the snapshot takes before the model lock
 *    (dmc_links_mutex: links and their states; dmc_pm_transition_mutex:
 *    the system's power states). Such a change only counts itself:
 *    dmc_model_changed();
 *  - made under neither (a device registered or unregistered, moved or
 *    renamed; a binding made or undone; a driver on or off its bus; a bus
 *    or class registered or unregistered). Such a change is a section
 *    between dmc_model_change_begin() and dmc_model_change_end(): the
 *    read side of a per-CPU rwsem, cheap and taken by many at once. The
 *    snapshot takes the write side (dmc_model_freeze()), which waits for
 *    the sections under way and holds new ones off until
 *    dmc_model_thaw().
 *
 * A section is short and flat: it covers the stores that make the change
 * visible and the lists they join. It may be entered under any lock of
 * the core but dmc_deferred_mutex and a spinlock; inside it, it must not
 * take dmc_pm_transition_mutex or dmc_links_mutex (the snapshot holds
 * them while it waits for the sections), nor enter another section, nor
 * send an event or call a driver's callback. The tree's listeners run
 * inside the rename and move sections (under dmc_tree_mutex, which the
 * snapshot never takes; they take no lock above it). Context: process
 * (it may sleep while a snapshot is being taken).
 *
 * A snapshot holds a reference on every member of the devices set it
 * walks until it has thawed, so no device's release (a driver's code)
 * runs while the model is frozen.
 */

#include <linux/atomic.h>
#include <linux/export.h>
#include <linux/percpu.h>
#include <linux/percpu-rwsem.h>

#include <dmcore/snapshot.h>
#include "base.h"

DEFINE_STATIC_PERCPU_RWSEM(dmc_model_rwsem);
/*
 * The generation, counted per CPU (no shared cacheline on the hot path)
 * and summed by the reader: exact while the model is frozen.
 */
static DEFINE_PER_CPU(u64, dmc_model_gen);

/**
 * dmc_model_change_begin() - begin a change of the model
 *
 * Begins a section (see the top of this file): the caller may hold
 * any lock of the core but dmc_deferred_mutex and spinlocks, and until
 * dmc_model_change_end() takes neither dmc_pm_transition_mutex nor
 * dmc_links_mutex, nor begins another section.
 *
 * Context: process; may sleep while a snapshot is being taken.
 */
void dmc_model_change_begin(void)
{
	percpu_down_read(&dmc_model_rwsem);
}

/**
 * dmc_model_change_end() - end a change of the model, counting it
 */
void dmc_model_change_end(void)
{
	this_cpu_inc(dmc_model_gen);
	percpu_up_read(&dmc_model_rwsem);
}

/**
 * dmc_model_changed() - count a change made under a snapshot's mutex
 *
 * For a change under dmc_links_mutex or dmc_pm_transition_mutex, which a
 * snapshot holds throughout: no section is needed.
 */
void dmc_model_changed(void)
{
	this_cpu_inc(dmc_model_gen);
}

/**
 * dmc_model_generation() - how many changes the model has seen since load
 *
 * Return: the count; exact while the model is frozen, else a count
 * between the changes begun and those ended during the call (never less
 * than one read before it, as each CPU's count only grows).
 */
u64 dmc_model_generation(void)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu(dmc_model_gen, cpu));
	return sum;
}
EXPORT_SYMBOL_GPL(dmc_model_generation);

/**
 * dmc_model_freeze() - wait for every change under way, hold off new ones
 *
 * Context: may sleep (an RCU grace period and the sections under way);
 * the caller holds dmc_pm_transition_mutex and dmc_links_mutex, and
 * takes no sleeping lock of the core but dmc_deferred_mutex until
 * dmc_model_thaw().
 */
void dmc_model_freeze(void)
{
	percpu_down_write(&dmc_model_rwsem);
}

/**
 * dmc_model_thaw() - let changes run again
 */
void dmc_model_thaw(void)
{
	percpu_up_write(&dmc_model_rwsem);
}
