// SPDX-License-Identifier: GPL-2.0
/*
 * Deferred probe: the devices whose probe said "not yet", and what each
 * waits for. The bookkeeping half of Linux's deferred probing in
 * drivers/base/dd.c (driver_deferred_probe_add(), _del(), _trigger());
 * the worker that retries the devices is in dd.c, which queues it when
 * a function here returns true. This file calls nothing in dd.c.
 *
 * Linux parks every device whose probe returned -EPROBE_DEFER on one list
 * and retries the whole list after any driver binds. A dmcore probe may
 * say what it waits for: dmc_probe_defer(dev, "name") parks the device in
 * an index of waiters by that name, and only those waiters are retried
 * when a device of that name binds or a driver of that name registers.
 * Deferrals that name nothing (a plain -EPROBE_DEFER, or one from the
 * bus's match) fall back to Linux's rule. A chain (A waits for B waits
 * for C) so resolves with each device probed twice. Retries run on an
 * ordered queue; a trigger that fires while a probe is deciding to defer
 * sends that device straight back to the queue, so no wake-up is lost.
 */

#include <linux/export.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "base.h"

/* Deferred probe state; dmc_deferred_mutex. */
static DEFINE_MUTEX(dmc_deferred_mutex);
static LIST_HEAD(dmc_deferred_unnamed);	/* parked, waiting for any bind */
static LIST_HEAD(dmc_deferred_active);	/* to be retried */
static struct dmc_klist dmc_deferred_named; /* parked by what they wait for */
atomic_t dmc_deferred_trigger_count = ATOMIC_INIT(0);

static bool dmc_deferred_get(struct dmc_klist_node *n)
{
	return true;	/* the index holds its own reference on the device */
}

static void dmc_deferred_put(struct dmc_klist_node *n)
{
}

/* What a parked device waits for: its entry's name in the index. */
static const char *dmc_deferred_name(const struct dmc_klist_node *n)
{
	return container_of(n, struct dmc_device_private, knode_waits)->waits_for;
}

/* The index of devices parked by name, for the invariant checker. */
struct dmc_klist *dmc_deferred_named_list(void)
{
	return &dmc_deferred_named;
}

/* Is @p parked or queued? Caller holds dmc_deferred_mutex. */
static bool dmc_deferred_listed(struct dmc_device_private *p)
{
	return !list_empty(&p->deferred) || dmc_klist_node_attached(&p->knode_waits);
}

/* Take @p off whichever list it is on; caller holds the mutex. */
static bool dmc_deferred_unlink(struct dmc_device_private *p)
{
	bool was = dmc_deferred_listed(p);

	list_del_init(&p->deferred);
	dmc_klist_del(&dmc_deferred_named, &p->knode_waits);
	return was;
}

/*
 * The index of named waiters hashes a device by its ->waits_for string,
 * so that string must not change or go while the device is in the index.
 * A parked device offered to a driver meanwhile (a driver registered, a
 * bind file, drivers_probe) changes it: take the device out of the index
 * first and keep it, with its reference, on the unnamed list, from where
 * dmc_deferred_probe_add() or dmc_deferred_probe_del() move it as usual.
 */
static void dmc_deferred_set_waits_for(struct dmc_device_private *p, char *name)
{
	lockdep_assert_held(&dmc_deferred_mutex);
	if (dmc_klist_node_attached(&p->knode_waits)) {
		dmc_klist_del(&dmc_deferred_named, &p->knode_waits);
		list_add_tail(&p->deferred, &dmc_deferred_unnamed);
	}
	dmc_name_free(p->waits_for);
	p->waits_for = name;
}

/*
 * Park @dev after a deferral by @drv's probe (NULL: by the bus's match).
 * @trigger is the trigger count seen before the probe: if anything bound
 * since, retry at once. Return: true when the device is due for a retry
 * now: the caller queues the deferred worker (dmc_deferred_kick()).
 */
bool dmc_deferred_probe_add(struct dmc_device *dev, int trigger,
			    struct dmc_driver *drv)
{
	struct dmc_device_private *p = dev->p;
	bool kick = false;

	lockdep_assert_held(&dev->mutex);
	mutex_lock(&dmc_deferred_mutex);
	p->deferred_by = drv;
	if (!dmc_deferred_unlink(p))
		dmc_device_get(dev);	/* the lists hold a reference */
	WRITE_ONCE(p->deferred_held, true);
	if (atomic_read(&dmc_deferred_trigger_count) != trigger) {
		list_add_tail(&p->deferred, &dmc_deferred_active);
		kick = true;
	} else if (p->waits_for) {
		if (dmc_klist_add(&dmc_deferred_named, &p->knode_waits, false))
			list_add_tail(&p->deferred, &dmc_deferred_unnamed);
	} else {
		list_add_tail(&p->deferred, &dmc_deferred_unnamed);
	}
	mutex_unlock(&dmc_deferred_mutex);
	return kick;
}

/*
 * Forget a deferral: the device bound or is going away. Most devices
 * never deferred: ->deferred_held, read without the mutex, says so. It
 * is set only by dmc_deferred_probe_add(), under the device lock of a
 * device not dead, which the caller holds (bound) or which a deleter
 * took after marking the device dead (dmc_device_del_claim()): a set
 * that matters is always seen here.
 */
void dmc_deferred_probe_del(struct dmc_device *dev)
{
	struct dmc_device_private *p = dev->p;
	bool was;

	if (!READ_ONCE(p->deferred_held))
		return;
	mutex_lock(&dmc_deferred_mutex);
	was = dmc_deferred_unlink(p);
	WRITE_ONCE(p->deferred_held, false);
	mutex_unlock(&dmc_deferred_mutex);
	if (was)
		dmc_device_put(dev);
}

/*
 * Something appeared: retry the waiters on @name (a device that bound or
 * a driver that registered) and, if @all_unnamed, the unnamed waiters.
 * Return: true when a device is due for a retry: the caller queues the
 * deferred worker (dmc_deferred_kick()).
 */
bool dmc_deferred_trigger(const char *name, bool all_unnamed)
{
	struct dmc_device_private *p;
	struct dmc_klist_node *n;
	bool kick;

	mutex_lock(&dmc_deferred_mutex);
	atomic_inc(&dmc_deferred_trigger_count);
	while (name && (n = dmc_klist_find(&dmc_deferred_named, name))) {
		p = container_of(n, struct dmc_device_private, knode_waits);
		dmc_klist_del(&dmc_deferred_named, n);
		list_add_tail(&p->deferred, &dmc_deferred_active);
	}
	if (all_unnamed)
		list_splice_tail_init(&dmc_deferred_unnamed, &dmc_deferred_active);
	kick = !list_empty(&dmc_deferred_active);
	mutex_unlock(&dmc_deferred_mutex);
	return kick;
}

/*
 * The deferred-probe timeout (dd.c): every parked device, named or not,
 * is due for a retry, as Linux retries its whole list then.
 * Return: true when one is: the caller queues the worker.
 */
bool dmc_deferred_trigger_all(void)
{
	struct dmc_device_private *p;
	struct dmc_klist_iter it;
	struct dmc_klist_node *n;
	bool kick;

	mutex_lock(&dmc_deferred_mutex);
	atomic_inc(&dmc_deferred_trigger_count);
	dmc_klist_iter_start(&dmc_deferred_named, &it);
	while ((n = dmc_klist_iter_next(&it))) {
		p = container_of(n, struct dmc_device_private, knode_waits);
		dmc_klist_del(&dmc_deferred_named, n);
		list_add_tail(&p->deferred, &dmc_deferred_active);
	}
	dmc_klist_iter_exit(&it);
	list_splice_tail_init(&dmc_deferred_unnamed, &dmc_deferred_active);
	kick = !list_empty(&dmc_deferred_active);
	mutex_unlock(&dmc_deferred_mutex);
	return kick;
}

/*
 * The next device to retry, taken off the queue together with the
 * reference the lists held, which the caller drops; NULL when the queue
 * is empty. For the deferred worker in dd.c.
 */
struct dmc_device *dmc_deferred_next(void)
{
	struct dmc_device_private *p;
	struct dmc_device *dev = NULL;

	mutex_lock(&dmc_deferred_mutex);
	if (!list_empty(&dmc_deferred_active)) {
		p = list_first_entry(&dmc_deferred_active,
				     struct dmc_device_private, deferred);
		list_del_init(&p->deferred);
		WRITE_ONCE(p->deferred_held, false);
		dev = p->device;
	}
	mutex_unlock(&dmc_deferred_mutex);
	return dev;
}

/*
 * @drv is going away: forget the deferrals its probe asked for. Deferrals
 * by the bus's match or before any driver was chosen stay.
 */
void dmc_deferred_drop_driver(struct dmc_driver *drv)
{
	struct dmc_device_private *p, *tmp;
	struct dmc_devvec held = {};
	struct dmc_klist_iter it;
	struct dmc_klist_node *n;
	LIST_HEAD(dropped);

	mutex_lock(&dmc_deferred_mutex);
	list_for_each_entry_safe(p, tmp, &dmc_deferred_unnamed, deferred)
		if (p->deferred_by == drv)
			list_move(&p->deferred, &dropped);
	dmc_klist_iter_start(&dmc_deferred_named, &it);
	while ((n = dmc_klist_iter_next(&it))) {
		p = container_of(n, struct dmc_device_private, knode_waits);
		if (p->deferred_by == drv) {
			dmc_klist_del(&dmc_deferred_named, n);
			list_add(&p->deferred, &dropped);
		}
	}
	dmc_klist_iter_exit(&it);
	/*
	 * Off every list before the mutex is dropped: a probe parking one of
	 * them again meanwhile must find it unlisted, its reference gone.
	 */
	list_for_each_entry_safe(p, tmp, &dropped, deferred) {
		if (dmc_devvec_push(&held, p->device))
			break;
		list_del_init(&p->deferred);
		WRITE_ONCE(p->deferred_held, false);
	}
	/* Out of memory for the rest: they stay parked, waiting for any bind. */
	list_for_each_entry(p, &dropped, deferred)
		p->deferred_by = NULL;
	list_splice_tail(&dropped, &dmc_deferred_unnamed);
	mutex_unlock(&dmc_deferred_mutex);
	dmc_devvec_put_all(&held);
}

/**
 * dmc_probe_defer() - defer a probe until something named appears
 * @dev: the device being probed (call from its probe)
 * @waits_for: name of the device or driver awaited, or NULL for "any"
 *
 * Use as ``return dmc_probe_defer(dev, "clk0");``. The device is retried
 * when a device named @waits_for binds to a driver or a driver named
 * @waits_for registers.
 *
 * Context: from a probe callback, device lock held.
 * Return: -EPROBE_DEFER.
 */
int dmc_probe_defer(struct dmc_device *dev, const char *waits_for)
{
	/* Kept with its hash: the index of named waiters reads it. */
	char *name = waits_for ? dmc_name_dup(waits_for, strlen(waits_for)) : NULL;

	if (!dev || !dev->p) {
		dmc_name_free(name);
		return -EPROBE_DEFER;
	}
	mutex_lock(&dmc_deferred_mutex);
	dmc_deferred_set_waits_for(dev->p, name);	/* NULL: unnamed */
	mutex_unlock(&dmc_deferred_mutex);
	return -EPROBE_DEFER;
}
EXPORT_SYMBOL_GPL(dmc_probe_defer);

/*
 * A new match or probe of @dev begins: it waits for nothing yet. Caller
 * holds the device lock, under which ->waits_for is set (probe context):
 * NULL, it stays so without the mutex.
 */
void dmc_clear_waits_for(struct dmc_device *dev)
{
	char *msg;

	lockdep_assert_held(&dev->mutex);
	if (!READ_ONCE(dev->p->waits_for) && !READ_ONCE(dev->p->deferred_msg))
		return;
	mutex_lock(&dmc_deferred_mutex);
	dmc_deferred_set_waits_for(dev->p, NULL);
	msg = dev->p->deferred_msg;
	WRITE_ONCE(dev->p->deferred_msg, NULL);
	mutex_unlock(&dmc_deferred_mutex);
	kfree(msg);
}

/**
 * dmc_dev_err_probe() - report a probe's error; a deferral's, record it
 * @dev: the device being probed
 * @err: the error the probe is about to return
 * @fmt: printf-style message, then its arguments (a final newline is
 *	dropped)
 *
 * Use as ``return dmc_dev_err_probe(dev, ret, "no clock %s\n", name);``.
 * For -EPROBE_DEFER the message is kept, prefixed with the driver's name,
 * as why the device is deferred: dmc_device_deferred_reason() and the
 * tree's devices_deferred file show it until the next probe of the device
 * begins (it may go with the device's memory if it never binds). Any other
 * error is logged (rate-limited) with the device's name and @err.
 *
 * Context: from a probe callback (device lock held); may sleep.
 * Return: @err.
 */
int dmc_dev_err_probe(const struct dmc_device *dev, int err, const char *fmt, ...)
{
	const struct dmc_driver *drv = dev ? READ_ONCE(dev->driver) : NULL;
	struct va_format vaf;
	char *msg, *old;
	va_list args;
	size_t len;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	msg = kasprintf(GFP_KERNEL, "%s%s%pV", drv ? drv->name : "", drv ? ": " : "",
			&vaf);
	va_end(args);
	len = msg ? strlen(msg) : 0;
	if (len && msg[len - 1] == '\n')
		msg[len - 1] = '\0';
	if (err != -EPROBE_DEFER || !dev || !dev->p) {
		pr_err_ratelimited("dmcore: %s: error %d: %s\n",
				   dev ? dev->kobj.name : "(no device)", err,
				   msg ?: "(no memory for the message)");
		kfree(msg);
		return err;
	}
	pr_debug("dmcore: %s: deferred: %s\n", dev->kobj.name, msg ?: "");
	mutex_lock(&dmc_deferred_mutex);
	old = dev->p->deferred_msg;
	WRITE_ONCE(dev->p->deferred_msg, msg);
	mutex_unlock(&dmc_deferred_mutex);
	kfree(old);
	return err;
}
EXPORT_SYMBOL_GPL(dmc_dev_err_probe);

/**
 * dmc_device_is_deferred() - is the device waiting for a deferred retry?
 * @dev: the device
 *
 * Return: true while it is parked or queued for a retry.
 */
bool dmc_device_is_deferred(struct dmc_device *dev)
{
	bool ret;

	if (!dev || !dev->p)
		return false;
	mutex_lock(&dmc_deferred_mutex);
	ret = dmc_deferred_listed(dev->p);
	mutex_unlock(&dmc_deferred_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(dmc_device_is_deferred);

/**
 * dmc_device_deferred_reason() - what a deferred device waits for
 * @dev: the device
 * @buf: where the answer is written
 * @size: size of @buf
 *
 * Return: @buf, holding the awaited name, or "unnamed" for a deferral
 * that named nothing, or "" if @dev is not deferred.
 */
const char *dmc_device_deferred_reason(struct dmc_device *dev, char *buf,
				       size_t size)
{
	if (!buf || !size)
		return buf;
	buf[0] = '\0';
	if (!dev || !dev->p)
		return buf;
	mutex_lock(&dmc_deferred_mutex);
	if (dmc_deferred_listed(dev->p)) {
		if (dev->p->deferred_msg)
			snprintf(buf, size, "%s; %s", dev->p->waits_for ?: "unnamed",
				 dev->p->deferred_msg);
		else
			strscpy(buf, dev->p->waits_for ?: "unnamed", size);
	}
	mutex_unlock(&dmc_deferred_mutex);
	return buf;
}
EXPORT_SYMBOL_GPL(dmc_device_deferred_reason);

/*
 * Copy what @dev's last deferral waits for ("" for an unnamed one, or
 * none) and the driver's reason ("" for none) into @waits and @reason,
 * @size bytes each, truncated to fit. Takes dmc_deferred_mutex, and no
 * other lock; the caller holds a reference on @dev, which has its private
 * part.
 */
void dmc_deferred_copy(struct dmc_device *dev, char *waits, char *reason,
		       size_t size)
{
	mutex_lock(&dmc_deferred_mutex);
	strscpy(waits, dev->p->waits_for ?: "", size);
	strscpy(reason, dev->p->deferred_msg ?: "", size);
	mutex_unlock(&dmc_deferred_mutex);
}

/* One line of devices_deferred. dmc_deferred_mutex held. */
static void dmc_deferred_show_one(struct seq_file *m, struct dmc_device_private *p)
{
	read_lock(&dmc_name_lock);	/* a rename frees the old name */
	seq_printf(m, "%s\t%s", p->device->kobj.name, p->waits_for ?: "unnamed");
	read_unlock(&dmc_name_lock);
	if (p->deferred_msg)
		seq_printf(m, "\t%s", p->deferred_msg);
	seq_putc(m, '\n');
}

/**
 * dmc_deferred_show() - every deferred device, for the tree's root file
 * @m: where the lines go
 *
 * One line per device parked or queued for a retry: its name, what it
 * waits for ("unnamed" for any bind) and, if its driver said why
 * (dmc_dev_err_probe()), that message; tab-separated, as Linux's
 * /sys/kernel/debug/devices_deferred. Queued first, then parked.
 *
 * Context: may sleep; takes dmc_deferred_mutex.
 */
void dmc_deferred_show(struct seq_file *m)
{
	struct dmc_device_private *p;
	struct dmc_klist_iter it;
	struct dmc_klist_node *n;

	mutex_lock(&dmc_deferred_mutex);
	list_for_each_entry(p, &dmc_deferred_active, deferred)
		dmc_deferred_show_one(m, p);
	list_for_each_entry(p, &dmc_deferred_unnamed, deferred)
		dmc_deferred_show_one(m, p);
	dmc_klist_iter_start(&dmc_deferred_named, &it);
	while ((n = dmc_klist_iter_next(&it)))
		dmc_deferred_show_one(m, container_of(n, struct dmc_device_private,
						      knode_waits));
	dmc_klist_iter_exit(&it);
	mutex_unlock(&dmc_deferred_mutex);
}

/* One device's line at the deferred-probe timeout. dmc_deferred_mutex held. */
static void dmc_deferred_report_one(struct dmc_device_private *p)
{
	read_lock(&dmc_name_lock);	/* a rename frees the old name */
	pr_info("dmcore: %s: deferred probe pending: %s (waits for %s)\n",
		p->device->kobj.name, p->deferred_msg ?: "(reason unknown)",
		p->waits_for ?: "any bind");
	read_unlock(&dmc_name_lock);
}

/*
 * At the deferred-probe timeout (dd.c): one log line per device still
 * deferred, with why, as Linux's deferred_probe_timeout_work_func().
 * Return: how many.
 */
unsigned int dmc_deferred_report_pending(void)
{
	struct dmc_device_private *p;
	struct dmc_klist_iter it;
	struct dmc_klist_node *n;
	unsigned int count = 0;

	mutex_lock(&dmc_deferred_mutex);
	list_for_each_entry(p, &dmc_deferred_active, deferred) {
		dmc_deferred_report_one(p);
		count++;
	}
	list_for_each_entry(p, &dmc_deferred_unnamed, deferred) {
		dmc_deferred_report_one(p);
		count++;
	}
	dmc_klist_iter_start(&dmc_deferred_named, &it);
	while ((n = dmc_klist_iter_next(&it))) {
		dmc_deferred_report_one(container_of(n, struct dmc_device_private,
						     knode_waits));
		count++;
	}
	dmc_klist_iter_exit(&it);
	mutex_unlock(&dmc_deferred_mutex);
	return count;
}

int dmc_deferred_init(void)
{
	return dmc_klist_init(&dmc_deferred_named, dmc_deferred_get,
			      dmc_deferred_put, dmc_deferred_name, true);
}

void dmc_deferred_exit(void)
{
	dmc_klist_destroy(&dmc_deferred_named);
}
