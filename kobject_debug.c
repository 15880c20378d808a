// SPDX-License-Identifier: GPL-2.0
/*
 * The kobject core's debugging aids: the delayed release, dmcore's
 * counterpart of CONFIG_DEBUG_KOBJECT_RELEASE in lib/kobject.c; the
 * census of live kobjects, with the leak report at module exit (Linux
 * leaves that to kmemleak); and the count of misuse reports
 * (DMC_MISUSE()). kobject.c calls in at init and at the last put; the
 * delayed release calls back only through the function it was given.
 */

#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "base.h"

static atomic_long_t dmc_misuse_nr = ATOMIC_LONG_INIT(0);

void dmc_count_misuse(void)
{
	atomic_long_inc(&dmc_misuse_nr);
}

/**
 * dmc_misuse_count() - how many misuse WARNs the core has raised
 *
 * Every WARN the core raises at a caller's mistake (an uninitialized
 * object, a type without release, a put of a dead object...) increments
 * this counter, rate limit or not. Tests read it to check that a misuse
 * was detected.
 *
 * Return: the number of misuse reports since the module was loaded.
 */
unsigned long dmc_misuse_count(void)
{
	return atomic_long_read(&dmc_misuse_nr);
}
EXPORT_SYMBOL_GPL(dmc_misuse_count);

/* ---- the census of live kobjects ------------------------------------ */

/* Every initialized kobject, for the leak report at module exit. */
static DEFINE_SPINLOCK(dmc_live_lock);
static LIST_HEAD(dmc_live);
static unsigned long dmc_live_nr;

/* A kobject was initialized (dmc_kobject_init()). */
void dmc_kobject_live_add(struct dmc_kobject *kobj)
{
	spin_lock(&dmc_live_lock);
	list_add_tail(&kobj->live, &dmc_live);
	dmc_live_nr++;
	spin_unlock(&dmc_live_lock);
}

/* A kobject is being released (dmc_kobject_cleanup()). */
void dmc_kobject_live_del(struct dmc_kobject *kobj)
{
	spin_lock(&dmc_live_lock);
	list_del(&kobj->live);
	dmc_live_nr--;
	spin_unlock(&dmc_live_lock);
}

/*
 * Count live kobjects by type name into @names/@counts (at most @max
 * distinct types, the rest under "other"); return the number of types.
 */
unsigned int dmc_kobject_live_by_type(const char **names, unsigned long *counts,
				      unsigned int max)
{
	struct dmc_kobject *kobj;
	unsigned int n = 0, i;
	const char *name;

	spin_lock(&dmc_live_lock);
	list_for_each_entry(kobj, &dmc_live, live) {
		name = dmc_ktype_name(kobj);
		for (i = 0; i < n; i++)
			if (!strcmp(names[i], name))
				break;
		if (i == n) {
			if (n == max) {
				i = max - 1;
				names[i] = "other";
			} else {
				names[n++] = name;
			}
		}
		counts[i]++;
	}
	spin_unlock(&dmc_live_lock);
	return n;
}

/**
 * dmc_kobject_live_count() - how many kobjects are alive
 *
 * Every kobject from dmc_kobject_init() until its release, the core's
 * own included. Tests compare it before and after an operation that
 * failed (e.g. under fault injection) to see that nothing was left
 * behind; the "stats" file shows it too.
 *
 * Context: any context that may take a spinlock.
 * Return: the number of live kobjects.
 */
unsigned long dmc_kobject_live_count(void)
{
	unsigned long n;

	spin_lock(&dmc_live_lock);
	n = dmc_live_nr;
	spin_unlock(&dmc_live_lock);
	return n;
}
EXPORT_SYMBOL_GPL(dmc_kobject_live_count);

/*
 * Log every kobject still alive; return how many. Delayed releases run
 * first: an object whose last put came is not a leak.
 */
unsigned long dmc_kobject_report_leaks(void)
{
	struct dmc_kobject *kobj;
	unsigned long n = 0;

	dmc_kobject_flush_releases();

	spin_lock(&dmc_live_lock);
	list_for_each_entry(kobj, &dmc_live, live) {
		pr_err("dmcore: LEAK: %s '%s' refcount=%u\n", dmc_ktype_name(kobj),
		       kobj->name ?: "(unnamed)", kref_read(&kobj->kref));
		n++;
	}
	spin_unlock(&dmc_live_lock);
	return n;
}

/* ---- delayed release (release_delay_ms) --------------------------------- */

/*
 * dmcore's CONFIG_DEBUG_KOBJECT_RELEASE: with release_delay_ms set, a
 * kobject's release runs that long after its last put, from a worker, so
 * that whoever still uses the object after its last put touches memory
 * that is still there but already dead (a refcount_t warning on a get,
 * a misuse WARN on a put) or, once the release ran, freed (KASAN).
 */
#define DMC_RELEASE_DELAY_MAX_MS	10000

static unsigned int release_delay_ms;
module_param(release_delay_ms, uint, 0444);
MODULE_PARM_DESC(release_delay_ms,
		 "run each kobject's release this many ms after its last put (0: at once; at most 10000), to catch use after the last put");

/*
 * A release waiting for its time. The list is in put order, and so in
 * due order since the delay is fixed at load; one worker takes the due
 * ones from its head. Items are allocated at the last put so that the
 * kobject itself stays as small as without the option.
 */
struct dmc_release_item {
	struct list_head node;
	struct dmc_kobject *kobj;
	void (*release)(struct dmc_kobject *kobj);
	unsigned long due;		/* jiffies */
};

static DEFINE_SPINLOCK(dmc_release_lock);
static LIST_HEAD(dmc_release_list);
static unsigned long dmc_release_nr;	/* queued or running, under the lock */
static unsigned int dmc_release_flushing; /* flushers; under the lock */
static DECLARE_WAIT_QUEUE_HEAD(dmc_release_wait);
static struct workqueue_struct *dmc_release_wq;

static void dmc_release_worker(struct work_struct *work);
static DECLARE_DELAYED_WORK(dmc_release_work, dmc_release_worker);

/*
 * The count of @kobj reached zero: queue @release(@kobj) for later (what
 * the last put would have done: release, then the parent's put). Return
 * false to release it now (no delay, or no memory for the queue item).
 */
bool dmc_kobject_release_later(struct dmc_kobject *kobj,
			       void (*release)(struct dmc_kobject *kobj))
{
	unsigned long delay = msecs_to_jiffies(release_delay_ms);
	struct dmc_release_item *item;
	bool first;

	if (!release_delay_ms || !dmc_release_wq)
		return false;
	item = kmalloc(sizeof(*item), GFP_KERNEL);
	if (!item)
		return false;
	item->kobj = kobj;
	item->release = release;
	item->due = jiffies + delay;
	spin_lock(&dmc_release_lock);
	first = list_empty(&dmc_release_list);
	list_add_tail(&item->node, &dmc_release_list);
	dmc_release_nr++;
	/* A later item never makes the worker run earlier than the first. */
	if (first)
		queue_delayed_work(dmc_release_wq, &dmc_release_work,
				   dmc_release_flushing ? 0 : delay);
	spin_unlock(&dmc_release_lock);
	pr_debug("dmcore: release of %s '%s' in %u ms\n", kobj->ktype->name,
		 kobj->name, release_delay_ms);
	return true;
}

/* Run the releases that are due (all of them while someone flushes). */
static void dmc_release_worker(struct work_struct *work)
{
	struct dmc_release_item *item;
	void (*release)(struct dmc_kobject *kobj);
	struct dmc_kobject *kobj;

	spin_lock(&dmc_release_lock);
	while ((item = list_first_entry_or_null(&dmc_release_list,
						struct dmc_release_item, node))) {
		if (!dmc_release_flushing && time_before(jiffies, item->due)) {
			queue_delayed_work(dmc_release_wq, &dmc_release_work,
					   item->due - jiffies);
			break;
		}
		list_del(&item->node);
		spin_unlock(&dmc_release_lock);

		kobj = item->kobj;
		release = item->release;
		kfree(item);
		release(kobj);

		spin_lock(&dmc_release_lock);
		if (!--dmc_release_nr)
			wake_up_all(&dmc_release_wait);
	}
	spin_unlock(&dmc_release_lock);
}

static bool dmc_release_idle(void)
{
	bool idle;

	spin_lock(&dmc_release_lock);
	idle = !dmc_release_nr;
	spin_unlock(&dmc_release_lock);
	return idle;
}

/**
 * dmc_kobject_flush_releases() - run every delayed release now and wait
 *
 * With the module parameter release_delay_ms set, a kobject's release
 * runs that long after its last put. This runs every release still
 * waiting at once, and those they cause (a parent whose last reference
 * was its child's), and returns when none is left. Without the parameter
 * every release already ran at its last put and this returns at once.
 *
 * For tests that check a release ran, and for module exit before the
 * leak report. Whoever calls it must hold no lock a release may take.
 *
 * Context: may sleep.
 */
void dmc_kobject_flush_releases(void)
{
	might_sleep();
	if (!dmc_release_wq)
		return;
	spin_lock(&dmc_release_lock);
	if (!dmc_release_nr) {
		spin_unlock(&dmc_release_lock);
		return;
	}
	dmc_release_flushing++;
	mod_delayed_work(dmc_release_wq, &dmc_release_work, 0);
	spin_unlock(&dmc_release_lock);

	wait_event(dmc_release_wait, dmc_release_idle());

	spin_lock(&dmc_release_lock);
	dmc_release_flushing--;
	spin_unlock(&dmc_release_lock);
}
EXPORT_SYMBOL_GPL(dmc_kobject_flush_releases);

/**
 * dmc_kobject_release_delay_ms() - the release delay dmcore was loaded with
 *
 * Return: the module parameter release_delay_ms: 0 when a release runs
 * at the last put, else how many milliseconds after it.
 */
unsigned int dmc_kobject_release_delay_ms(void)
{
	return release_delay_ms;
}
EXPORT_SYMBOL_GPL(dmc_kobject_release_delay_ms);

/* Check release_delay_ms and start the release worker it asks for. */
int dmc_kobject_release_init(void)
{
	if (release_delay_ms > DMC_RELEASE_DELAY_MAX_MS) {
		pr_err("dmcore: release_delay_ms=%u out of range 0..%u\n",
		       release_delay_ms, DMC_RELEASE_DELAY_MAX_MS);
		return -EINVAL;
	}
	if (release_delay_ms) {
		dmc_release_wq = alloc_ordered_workqueue("dmc_release", 0);
		if (!dmc_release_wq)
			return -ENOMEM;
		pr_info("dmcore: kobject releases run %u ms after the last put\n",
			release_delay_ms);
	}
	return 0;
}

/* Run the releases still waiting, then stop the worker. */
void dmc_kobject_release_exit(void)
{
	if (dmc_release_wq) {
		dmc_kobject_flush_releases();
		cancel_delayed_work_sync(&dmc_release_work);
		destroy_workqueue(dmc_release_wq);
		dmc_release_wq = NULL;
	}
}
