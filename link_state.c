// SPDX-License-Identifier: GPL-2.0
/*
 * The states of managed device links and the suppliers' sync_state(): the
 * counterpart of device_links_check_suppliers(), device_links_driver_bound(),
 * device_links_no_driver(), device_links_busy(),
 * device_links_driver_cleanup() and the sync_state() part of Linux's
 * drivers/base/core.c. link.c makes and deletes the links.
 *
 * Each device has a binding state for its links (p->links_status: no
 * driver, probing, bound, unbinding) and each managed link a state
 * (DMC_DL_STATE_*), both changed under dmc_links_mutex by the hooks dd.c
 * calls where a binding changes:
 *
 *   consumer probe begins      AVAILABLE -> CONSUMER_PROBE, or the probe
 *                              defers naming a supplier whose link is not
 *                              AVAILABLE (check_suppliers)
 *   consumer probe succeeds    CONSUMER_PROBE -> ACTIVE; a SYNC_STATE_ONLY
 *                              link goes (driver_bound)
 *   consumer probe fails       back to AVAILABLE, or DORMANT (no_driver)
 *   consumer unbinds           ACTIVE -> AVAILABLE; an AUTOREMOVE_CONSUMER
 *                              link goes (driver_cleanup)
 *   supplier binds             DORMANT -> AVAILABLE; an AUTOPROBE_CONSUMER
 *                              link's consumer is probed (driver_bound)
 *   supplier unbind begins     once no consumer probes or is bound:
 *                              -> SUPPLIER_UNBIND (busy)
 *   supplier unbound           -> DORMANT; an AUTOREMOVE_SUPPLIER link goes
 *                              (driver_cleanup)
 *
 * A link's state at its creation follows from both devices' binding
 * states (dmc_link_init_status(), link.c). Stateless links have none (NONE) and
 * are skipped by all of this.
 *
 * sync_state(): once a bound supplier's managed consumers are all bound
 * (their links ACTIVE), its bus's or driver's sync_state() is called, with
 * its device lock held, once per binding (dev->p->state_synced): from
 * dd.c's probe worker when a consumer's binding made it due (the
 * consumer's lock is held there), directly when the supplier's own
 * binding did or a resume does. Between
 * dmc_device_links_supplier_sync_state_pause() and _resume() the calls
 * wait on a list, to be made by the last resume.
 */

#include <linux/export.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include "base.h"

/* Suppliers whose sync_state() waits for a resume, and the pauses; links mutex. */
static LIST_HEAD(dmc_deferred_sync);
static unsigned int dmc_defer_sync_state_count;

static bool dmc_link_managed(const struct dmc_device_link *link)
{
	return link->flags & DMC_DL_FLAG_MANAGED;
}

/* A consumer's probe defers: its links that went CONSUMER_PROBE go back. */
static void __dmc_links_missing_supplier(struct dmc_device *dev)
{
	struct dmc_device_link *link;

	list_for_each_entry(link, &dev->p->suppliers, c_node)
		if (link->status == DMC_DL_STATE_CONSUMER_PROBE)
			dmc_link_set_status(link, DMC_DL_STATE_AVAILABLE);
}

/**
 * dmc_device_links_check_suppliers() - may a consumer probe?
 * @dev: the device about to probe; its device lock held
 * @waits_for: gets the name of a supplier not available
 * @size: of @waits_for
 *
 * Every managed supplier link must be AVAILABLE (its supplier bound, not
 * unbinding); they go CONSUMER_PROBE and @dev probing. A SYNC_STATE_ONLY
 * link does not hold the probe.
 *
 * Return: 0, or -EPROBE_DEFER with a supplier's name in @waits_for.
 */
int dmc_device_links_check_suppliers(struct dmc_device *dev, char *waits_for,
				     size_t size)
{
	struct dmc_device_link *link;
	int ret = 0;

	mutex_lock(&dmc_links_mutex);
	list_for_each_entry(link, &dev->p->suppliers, c_node) {
		if (!dmc_link_managed(link))
			continue;
		if (link->status != DMC_DL_STATE_AVAILABLE &&
		    !(link->flags & DMC_DL_FLAG_SYNC_STATE_ONLY)) {
			strscpy(waits_for, dmc_dev_name(link->supplier), size);
			__dmc_links_missing_supplier(dev);
			ret = -EPROBE_DEFER;
			break;
		}
		dmc_link_set_status(link, DMC_DL_STATE_CONSUMER_PROBE);
	}
	if (!ret)
		dev->p->links_status = DMC_DL_DEV_PROBING;
	mutex_unlock(&dmc_links_mutex);
	return ret;
}

static bool dmc_dev_has_sync_state(struct dmc_device *dev)
{
	return (dev->bus && dev->bus->sync_state) ||
	       (dev->driver && dev->driver->sync_state);
}

/*
 * Queue @dev's sync_state() on @list if it is bound, not synced for this
 * binding, and every managed consumer link is ACTIVE; or on the deferred
 * list while paused. Unlike Linux, only a device whose probe finished
 * (a supplier still probing is queued by its own binding), so that no
 * sync_state() waits for the lock of a device in its probe. Links mutex.
 */
static void __dmc_links_queue_sync_state(struct dmc_device *dev,
					 struct dmc_devvec *list)
{
	struct dmc_device_link *link;

	if (dev->p->links_status != DMC_DL_DEV_DRIVER_BOUND ||
	    !dmc_dev_has_sync_state(dev) || dev->p->state_synced ||
	    !list_empty(&dev->p->defer_sync))
		return;
	list_for_each_entry(link, &dev->p->consumers, s_node) {
		if (!dmc_link_managed(link))
			continue;
		if (link->status != DMC_DL_STATE_ACTIVE)
			return;
	}
	if (dmc_defer_sync_state_count) {
		list_add_tail(&dev->p->defer_sync, &dmc_deferred_sync);
		return;
	}
	if (dmc_devvec_push(list, dev)) {
		pr_warn_ratelimited("dmcore: no memory to call sync_state() of '%s'\n",
				    dmc_dev_name(dev));
		return;
	}
	/* Queued once: a consumer binding meanwhile does not queue it again. */
	WRITE_ONCE(dev->p->state_synced, true);
	dev->p->sync_seq = dev->p->bind_seq;
	dmc_device_get(dev);
}

/*
 * Call @dev's sync_state() if it is still in the binding it was queued
 * for. Its device lock held (bind_seq changes under it too).
 */
static void __dmc_links_call_sync_state(struct dmc_device *dev)
{
	if (dev->driver && READ_ONCE(dev->p->bind_seq) == dev->p->sync_seq) {
		if (dev->bus && dev->bus->sync_state)
			dev->bus->sync_state(dev);
		else if (dev->driver->sync_state)
			dev->driver->sync_state(dev);
	}
}

/**
 * dmc_device_links_call_sync_state() - make a queued sync_state() call
 * @dev: a device dmc_device_links_driver_bound() handed back, referenced
 *
 * Takes @dev's device lock for the call; the caller holds no device lock
 * (dd.c's worker) and puts its reference after.
 */
void dmc_device_links_call_sync_state(struct dmc_device *dev)
{
	dmc_device_lock(dev);
	__dmc_links_call_sync_state(dev);
	dmc_device_unlock(dev);
}

/*
 * Call the sync_state() of the devices on @list, each under its device
 * lock. No links mutex and no device lock held. Puts the references.
 */
static void dmc_links_flush_sync_list(struct dmc_devvec *list)
{
	size_t i;

	for (i = 0; i < list->n; i++)
		dmc_device_links_call_sync_state(list->v[i]);
	dmc_devvec_put_all(list);
}

/**
 * dmc_device_links_driver_bound() - a device's probe succeeded
 * @dev: the device, its device lock held, dev->driver set
 * @autoprobe: gets the consumers to probe (AUTOPROBE_CONSUMER), referenced
 * @sync: gets the suppliers whose sync_state() is due, referenced
 *
 * Its consumer links become AVAILABLE, its supplier links ACTIVE (a
 * SYNC_STATE_ONLY one goes). @dev's own sync_state() is called here if
 * due (no consumer holds it); the suppliers' go to @sync, for the caller
 * to call from a worker with dmc_device_links_call_sync_state(): with
 * @dev's lock held, taking a supplier's would nest a device lock under
 * another against the tree order (a consumer may be moved under its
 * supplier, which takes the supplier's lock, then the consumer's).
 * Linux calls them here, nested; the difference is in README.
 */
void dmc_device_links_driver_bound(struct dmc_device *dev,
				   struct dmc_devvec *autoprobe,
				   struct dmc_devvec *sync)
{
	struct dmc_device_link *link, *ln;
	struct dmc_devvec self = {};
	struct dmc_device *sup;

	mutex_lock(&dmc_links_mutex);
	WRITE_ONCE(dev->p->bind_seq, dev->p->bind_seq + 1);
	list_for_each_entry(link, &dev->p->consumers, s_node) {
		if (!dmc_link_managed(link))
			continue;
		/* Added by a consumer probing while @dev probed: skip. */
		if (link->status == DMC_DL_STATE_CONSUMER_PROBE ||
		    link->status == DMC_DL_STATE_ACTIVE)
			continue;
		dmc_link_set_status(link, DMC_DL_STATE_AVAILABLE);
		if ((link->flags & DMC_DL_FLAG_AUTOPROBE_CONSUMER) &&
		    !dmc_device_is_bound(link->consumer)) {
			if (dmc_devvec_push(autoprobe, link->consumer))
				pr_warn_ratelimited("dmcore: no memory to autoprobe '%s'\n",
						    dmc_dev_name(link->consumer));
			else
				dmc_device_get(link->consumer);
		}
	}
	dev->p->links_status = DMC_DL_DEV_DRIVER_BOUND;
	list_for_each_entry_safe(link, ln, &dev->p->suppliers, c_node) {
		if (!dmc_link_managed(link))
			continue;
		sup = link->supplier;
		if (link->flags & DMC_DL_FLAG_SYNC_STATE_ONLY)
			__dmc_link_drop_managed(link);
		else
			dmc_link_set_status(link, DMC_DL_STATE_ACTIVE);
		__dmc_links_queue_sync_state(sup, sync);
	}
	__dmc_links_queue_sync_state(dev, &self);
	mutex_unlock(&dmc_links_mutex);
	if (self.n)
		__dmc_links_call_sync_state(dev);
	dmc_devvec_put_all(&self);
}

/* @dev has no driver (any more): its supplier links follow. Links mutex. */
static void __dmc_device_links_no_driver(struct dmc_device *dev)
{
	struct dmc_device_link *link, *ln;

	list_for_each_entry_safe_reverse(link, ln, &dev->p->suppliers, c_node) {
		if (!dmc_link_managed(link))
			continue;
		if (link->flags & DMC_DL_FLAG_AUTOREMOVE_CONSUMER) {
			__dmc_link_drop_managed(link);
			continue;
		}
		if (link->status != DMC_DL_STATE_CONSUMER_PROBE &&
		    link->status != DMC_DL_STATE_ACTIVE)
			continue;
		if (link->supplier->p->links_status == DMC_DL_DEV_DRIVER_BOUND)
			dmc_link_set_status(link, DMC_DL_STATE_AVAILABLE);
		else
			dmc_link_set_status(link, DMC_DL_STATE_DORMANT);
	}
	dev->p->links_status = DMC_DL_DEV_NO_DRIVER;
}

/**
 * dmc_device_links_no_driver() - a device's probe failed
 * @dev: the device, its device lock held
 *
 * Links added by consumers while @dev probed go DORMANT; its supplier
 * links go back (an AUTOREMOVE_CONSUMER one goes).
 */
void dmc_device_links_no_driver(struct dmc_device *dev)
{
	struct dmc_device_link *link;

	mutex_lock(&dmc_links_mutex);
	list_for_each_entry(link, &dev->p->consumers, s_node) {
		if (!dmc_link_managed(link))
			continue;
		if (link->status == DMC_DL_STATE_CONSUMER_PROBE ||
		    link->status == DMC_DL_STATE_ACTIVE)
			dmc_link_set_status(link, DMC_DL_STATE_DORMANT);
	}
	__dmc_device_links_no_driver(dev);
	mutex_unlock(&dmc_links_mutex);
}

/**
 * dmc_device_links_busy() - may a supplier unbind now?
 * @dev: the bound device, its device lock held
 *
 * Return: true while a managed consumer probes or is bound (the caller
 * unbinds them, then asks again); else false, with every consumer link
 * SUPPLIER_UNBIND (a consumer probing from now on defers) and @dev
 * unbinding. A SYNC_STATE_ONLY consumer does not hold the unbind.
 */
bool dmc_device_links_busy(struct dmc_device *dev)
{
	struct dmc_device_link *link;
	bool ret = false;

	mutex_lock(&dmc_links_mutex);
	list_for_each_entry(link, &dev->p->consumers, s_node) {
		if (!dmc_link_managed(link) ||
		    (link->flags & DMC_DL_FLAG_SYNC_STATE_ONLY))
			continue;
		if (link->status == DMC_DL_STATE_CONSUMER_PROBE ||
		    link->status == DMC_DL_STATE_ACTIVE) {
			ret = true;
			break;
		}
		dmc_link_set_status(link, DMC_DL_STATE_SUPPLIER_UNBIND);
	}
	if (!ret)
		dev->p->links_status = DMC_DL_DEV_UNBINDING;
	mutex_unlock(&dmc_links_mutex);
	return ret;
}

/**
 * dmc_device_links_driver_cleanup() - a device was unbound
 * @dev: the device, its device lock held, after its driver's remove
 *
 * Its consumer links go DORMANT (an AUTOREMOVE_SUPPLIER one goes), its
 * supplier links back to AVAILABLE or DORMANT (an AUTOREMOVE_CONSUMER one
 * goes); the next binding may sync state again.
 */
void dmc_device_links_driver_cleanup(struct dmc_device *dev)
{
	struct dmc_device_link *link, *ln;

	mutex_lock(&dmc_links_mutex);
	list_for_each_entry_safe(link, ln, &dev->p->consumers, s_node) {
		if (!dmc_link_managed(link))
			continue;
		if (link->status == DMC_DL_STATE_SUPPLIER_UNBIND &&
		    (link->flags & DMC_DL_FLAG_AUTOREMOVE_SUPPLIER)) {
			__dmc_link_drop_managed(link);
			continue;
		}
		dmc_link_set_status(link, DMC_DL_STATE_DORMANT);
	}
	list_del_init(&dev->p->defer_sync);
	WRITE_ONCE(dev->p->state_synced, false);
	__dmc_device_links_no_driver(dev);
	mutex_unlock(&dmc_links_mutex);
}

/* A consumer link @dev's unbind must wait for: its consumer probes or is bound. */
static bool dmc_link_holds_supplier(const struct dmc_device_link *link)
{
	return dmc_link_managed(link) &&
	       !(link->flags & DMC_DL_FLAG_SYNC_STATE_ONLY) &&
	       (link->status == DMC_DL_STATE_CONSUMER_PROBE ||
		link->status == DMC_DL_STATE_ACTIVE);
}

/**
 * dmc_links_bound_leaf() - the next consumer to unbind before @dev
 * @dev: a device about to unbind
 *
 * The end of a path of consumers that probe or are bound from @dev: a
 * device that depends on @dev and holds no consumer itself, referenced;
 * NULL when none holds @dev. The path is followed in a loop, marking the
 * devices seen, so its length costs no stack. Unbinding the leaf (its
 * device lock waits for a probe under way) and asking again unbinds the
 * consumers deepest first.
 */
struct dmc_device *dmc_links_bound_leaf(struct dmc_device *dev)
{
	struct dmc_device *cur = dev, *next;
	struct dmc_device_link *link;
	unsigned int gen;

	/* A link added right after this peek: as if added after the unlock. */
	if (list_empty(&dev->p->consumers))
		return NULL;
	mutex_lock(&dmc_links_mutex);
	gen = dmc_links_new_gen();
	dev->p->link_gen = gen;
	do {
		next = NULL;
		list_for_each_entry(link, &cur->p->consumers, s_node) {
			if (link->consumer->p->link_gen != gen &&
			    dmc_link_holds_supplier(link)) {
				next = link->consumer;
				break;
			}
		}
		if (next) {
			next->p->link_gen = gen;
			cur = next;
		}
	} while (next);
	cur = cur == dev ? NULL : dmc_device_get(cur);
	mutex_unlock(&dmc_links_mutex);
	return cur;
}

/**
 * dmc_dev_state_synced() - was sync_state() called for this binding?
 * @dev: a registered device
 *
 * Linux's dev->state_synced: true once @dev's sync_state() was called for
 * its current binding, or is about to be; false again when it unbinds.
 */
bool dmc_dev_state_synced(struct dmc_device *dev)
{
	return dev && dev->p && READ_ONCE(dev->p->state_synced);
}
EXPORT_SYMBOL_GPL(dmc_dev_state_synced);

/**
 * dmc_device_links_supplier_sync_state_pause() - hold back sync_state()
 *
 * From now on until the matching resume, sync_state() calls that become
 * due wait on a list. Pauses nest.
 *
 * Context: may sleep.
 */
void dmc_device_links_supplier_sync_state_pause(void)
{
	mutex_lock(&dmc_links_mutex);
	dmc_defer_sync_state_count++;
	mutex_unlock(&dmc_links_mutex);
}
EXPORT_SYMBOL_GPL(dmc_device_links_supplier_sync_state_pause);

/**
 * dmc_device_links_supplier_sync_state_resume() - end a pause
 *
 * The last resume calls the sync_state() that are still due. A resume
 * without a pause is a misuse: reported, nothing done.
 *
 * Context: may sleep; takes device locks, so not from a probe or remove.
 */
void dmc_device_links_supplier_sync_state_resume(void)
{
	struct dmc_devvec sync = {};
	struct dmc_device_private *p, *tmp;

	mutex_lock(&dmc_links_mutex);
	if (DMC_MISUSE(!dmc_defer_sync_state_count,
		       "sync_state resume without a pause\n"))
		goto out;
	if (--dmc_defer_sync_state_count)
		goto out;
	list_for_each_entry_safe(p, tmp, &dmc_deferred_sync, defer_sync) {
		list_del_init(&p->defer_sync);
		__dmc_links_queue_sync_state(p->device, &sync);
	}
out:
	mutex_unlock(&dmc_links_mutex);
	dmc_links_flush_sync_list(&sync);
}
EXPORT_SYMBOL_GPL(dmc_device_links_supplier_sync_state_resume);

static const char * const dmc_link_state_names[] = {
	[DMC_DL_STATE_DORMANT] = "dormant",
	[DMC_DL_STATE_AVAILABLE] = "available",
	[DMC_DL_STATE_CONSUMER_PROBE] = "consumer-probe",
	[DMC_DL_STATE_ACTIVE] = "active",
	[DMC_DL_STATE_SUPPLIER_UNBIND] = "supplier-unbind",
};

/* Flag names, in bit order (as control's flags= spells them). */
static const char * const dmc_link_flag_names[] = {
	"stateless", "autoremove-consumer", "pm-runtime", "rpm-active",
	"autoremove-supplier", "autoprobe-consumer", "managed",
	"sync-state-only",
};

/* @link's state's name ("none" for a stateless link). Links mutex held. */
const char *dmc_device_link_status_str(const struct dmc_device_link *link)
{
	return link->status == DMC_DL_STATE_NONE ? "none" :
		dmc_link_state_names[link->status];
}

/*
 * @link's flags as control's flags= spells them, comma-separated, in
 * @buf (empty for none). Links mutex held.
 */
void dmc_device_link_flags_str(const struct dmc_device_link *link, char *buf,
			       size_t size)
{
	const char *sep = "";
	unsigned int i;
	size_t n = 0;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(dmc_link_flag_names); i++) {
		if (link->flags & BIT(i)) {
			n += scnprintf(buf + n, size - n, "%s%s", sep,
				       dmc_link_flag_names[i]);
			sep = ",";
		}
	}
}

/* One line of device_links. Links mutex held. */
static void dmc_device_links_show_one(struct seq_file *m,
				      struct dmc_device_link *link)
{
	char flags[160];

	read_lock(&dmc_name_lock);	/* a rename frees the old name */
	seq_printf(m, "%s\t%s\t", dmc_dev_name(link->supplier),
		   dmc_dev_name(link->consumer));
	read_unlock(&dmc_name_lock);
	dmc_device_link_flags_str(link, flags, sizeof(flags));
	seq_printf(m, "%s\t%s", dmc_device_link_status_str(link), flags);
	if (link->stateless_refs > 1)
		seq_printf(m, "\trefs=%u", link->stateless_refs);
	seq_putc(m, '\n');
}

/**
 * dmc_device_links_show() - every device link, for the tree's root file
 * @m: where the lines go
 *
 * One line per link, consumers in the power order: supplier, consumer,
 * state (none for a stateless link), flags (managed, stateless, ...:
 * control's flags= names) and, past one, its stateless references;
 * tab-separated. The tree's view of Linux's /sys/class/devlink.
 *
 * Context: may sleep; takes dmc_links_mutex and dmc_dpm_mutex.
 */
void dmc_device_links_show(struct seq_file *m)
{
	struct dmc_device_private *p;
	struct dmc_device_link *link;

	mutex_lock(&dmc_links_mutex);
	mutex_lock(&dmc_dpm_mutex);
	list_for_each_entry(p, &dmc_dpm_list, dpm_entry)
		list_for_each_entry(link, &p->suppliers, c_node)
			dmc_device_links_show_one(m, link);
	list_for_each_entry(p, &dmc_dpm_suspended, dpm_entry)
		list_for_each_entry(link, &p->suppliers, c_node)
			dmc_device_links_show_one(m, link);
	mutex_unlock(&dmc_dpm_mutex);
	mutex_unlock(&dmc_links_mutex);
}
