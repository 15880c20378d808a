// SPDX-License-Identifier: GPL-2.0
/*
 * Runtime power management, the rest of it: status changes of a disabled
 * device, enable/disable and the barrier, forbid/allow, autosuspend
 * settings, the readers, the core's hooks (probe, unbind, deletion,
 * links, system sleep) and the power/ files. The counterpart of the API
 * half of drivers/base/power/runtime.c and of the runtime files of
 * drivers/base/power/sysfs.c; the state machine is in runtime.c, whose
 * locking rules hold here too.
 */

#include <linux/export.h>
#include <linux/sysfs.h>

#include "base.h"

static inline struct dmc_dev_pm_info *dmc_pw(struct dmc_device *dev)
{
	return &dev->p->power;
}

static bool dmc_rpm_ok(struct dmc_device *dev)
{
	if (dev && dev->p)
		return true;
	pr_err_ratelimited("dmcore: runtime PM on a device never added\n");
	return false;
}

/**
 * __dmc_pm_runtime_set_status() - set the status of a disabled device
 * @dev: an added device, runtime PM disabled (or in error)
 * @status: DMC_RPM_ACTIVE or DMC_RPM_SUSPENDED
 *
 * Clears a callback's error. Active: the parent must be active (unless
 * disabled or ignoring children) and counts @dev among its active
 * children; its PM_RUNTIME suppliers are resumed and referenced.
 * Suspended: the parent's count drops and the suppliers are let go.
 *
 * Context: may sleep.
 * Return: 0, -EINVAL for another status, -EAGAIN while enabled, -EBUSY
 * when the parent is not active (@dev is then suspended).
 */
int __dmc_pm_runtime_set_status(struct dmc_device *dev, unsigned int status)
{
	struct dmc_device *parent;
	struct dmc_rpm_held held = {};
	struct dmc_dev_pm_info *pw;
	bool notify_parent = false;
	int error = 0;

	if (!dmc_rpm_ok(dev))
		return -EINVAL;
	if (status != DMC_RPM_ACTIVE && status != DMC_RPM_SUSPENDED)
		return -EINVAL;
	pw = dmc_pw(dev);
	spin_lock_irq(&pw->lock);
	if (pw->runtime_error || pw->disable_depth)
		pw->disable_depth++;
	else
		error = -EAGAIN;
	spin_unlock_irq(&pw->lock);
	if (error)
		return error;

	if (status == DMC_RPM_ACTIVE) {
		error = dmc_rpm_resume_deps(dev, false, &held);
		mutex_lock(&dmc_links_mutex);
		if (!error)
			error = dmc_rpm_get_suppliers(dev);
		if (error) {
			__dmc_rpm_put_suppliers(dev, true);
			status = DMC_RPM_SUSPENDED;
		}
		mutex_unlock(&dmc_links_mutex);
		dmc_rpm_held_release(&held);
	}

	/*
	 * The parent is read here, under power.lock with the status change,
	 * not before: a move (which runtime PM disabled does not hold off)
	 * writes dev->parent under this lock and carries an active device's
	 * count in the same section, so the count changes on the parent
	 * that has @dev. Held for the idle request made after the unlock:
	 * the move may let it go and a deletion free it meanwhile.
	 */
	spin_lock_irq(&pw->lock);
	parent = dmc_device_get(dev->parent);
	if (pw->runtime_status == status || !parent)
		goto out_set;
	if (status == DMC_RPM_SUSPENDED) {
		atomic_add_unless(&dmc_pw(parent)->child_count, -1, 0);
		notify_parent = !dmc_pw(parent)->ignore_children;
	} else {
		struct dmc_dev_pm_info *ppw = dmc_pw(parent);

		spin_lock_nested(&ppw->lock, SINGLE_DEPTH_NESTING);
		if (!ppw->disable_depth && !ppw->ignore_children &&
		    ppw->runtime_status != DMC_RPM_ACTIVE) {
			pr_err_ratelimited("dmcore: runtime PM trying to activate child device %s but parent (%s) is not active\n",
					   dmc_dev_name(dev), dmc_dev_name(parent));
			error = -EBUSY;
		} else if (pw->runtime_status == DMC_RPM_SUSPENDED) {
			atomic_inc(&ppw->child_count);
		}
		spin_unlock(&ppw->lock);
		if (error) {
			status = DMC_RPM_SUSPENDED;
			goto out;
		}
	}
out_set:
	pw->runtime_status = status;
	if (!error)
		pw->runtime_error = 0;
out:
	spin_unlock_irq(&pw->lock);
	if (notify_parent)
		dmc_pm_request_idle(parent);
	dmc_device_put(parent);
	if (status == DMC_RPM_SUSPENDED) {
		mutex_lock(&dmc_links_mutex);
		__dmc_rpm_put_suppliers(dev, true);
		mutex_unlock(&dmc_links_mutex);
	}
	dmc_pm_runtime_enable(dev);
	return error;
}
EXPORT_SYMBOL_GPL(__dmc_pm_runtime_set_status);

/**
 * dmc_pm_runtime_barrier() - flush a device's pending runtime PM work
 * @dev: an added device
 *
 * A pending resume request is carried out; other requests and the
 * autosuspend timer are cancelled; a callback running is waited for.
 *
 * Context: may sleep; not from the device's own runtime callbacks.
 * Return: 1 if a resume request was carried out, else 0.
 */
int dmc_pm_runtime_barrier(struct dmc_device *dev)
{
	struct dmc_dev_pm_info *pw;
	int retval = 0;

	if (!dmc_rpm_ok(dev))
		return 0;
	pw = dmc_pw(dev);
	dmc_pm_runtime_get_noresume(dev);
	spin_lock_irq(&pw->lock);
	if (pw->request_pending && pw->request == DMC_RPM_REQ_RESUME) {
		dmc_rpm_resume(dev, 0);
		retval = 1;
	}
	__dmc_pm_runtime_barrier(dev);
	spin_unlock_irq(&pw->lock);
	dmc_pm_runtime_put_noidle(dev);
	return retval;
}
EXPORT_SYMBOL_GPL(dmc_pm_runtime_barrier);

/**
 * __dmc_pm_runtime_disable() - disable runtime PM of a device
 * @dev: an added device
 * @check_resume: carry out a pending resume request first
 *
 * Nests: each call needs a dmc_pm_runtime_enable(). The first waits for
 * pending work and callbacks (dmc_pm_runtime_barrier()).
 *
 * Context: may sleep; not from the device's own runtime callbacks.
 */
void __dmc_pm_runtime_disable(struct dmc_device *dev, bool check_resume)
{
	struct dmc_dev_pm_info *pw;

	if (!dmc_rpm_ok(dev))
		return;
	pw = dmc_pw(dev);
	spin_lock_irq(&pw->lock);
	if (pw->disable_depth > 0) {
		pw->disable_depth++;
		goto out;
	}
	if (check_resume && pw->request_pending &&
	    pw->request == DMC_RPM_REQ_RESUME) {
		atomic_inc(&pw->usage_count);
		dmc_rpm_resume(dev, 0);
		atomic_add_unless(&pw->usage_count, -1, 0);
	}
	if (!pw->disable_depth++) {
		__dmc_pm_runtime_barrier(dev);
		pw->last_status = pw->runtime_status;
	}
out:
	spin_unlock_irq(&pw->lock);
}
EXPORT_SYMBOL_GPL(__dmc_pm_runtime_disable);

/**
 * dmc_pm_runtime_enable() - enable runtime PM of a device
 * @dev: an added device
 *
 * Undoes one disable (a device starts disabled once); an unbalanced call
 * is logged and changes nothing.
 *
 * Context: any.
 */
void dmc_pm_runtime_enable(struct dmc_device *dev)
{
	struct dmc_dev_pm_info *pw;
	unsigned long flags;

	if (!dmc_rpm_ok(dev))
		return;
	pw = dmc_pw(dev);
	spin_lock_irqsave(&pw->lock, flags);
	if (!pw->disable_depth) {
		pr_warn_ratelimited("dmcore: %s: Unbalanced %s!\n",
				    dmc_dev_name(dev), __func__);
		goto out;
	}
	if (--pw->disable_depth > 0)
		goto out;
	pw->last_status = DMC_RPM_INVALID;
	if (pw->runtime_status == DMC_RPM_SUSPENDED && !pw->ignore_children &&
	    atomic_read(&pw->child_count) > 0)
		pr_warn_ratelimited("dmcore: %s: Enabling runtime PM for inactive device with active children\n",
				    dmc_dev_name(dev));
out:
	spin_unlock_irqrestore(&pw->lock, flags);
}
EXPORT_SYMBOL_GPL(dmc_pm_runtime_enable);

/**
 * dmc_pm_runtime_forbid() - keep a device active (power/control "on")
 * @dev: an added device
 *
 * Takes a usage reference (once, however often called) and resumes it.
 * Context: may sleep.
 */
void dmc_pm_runtime_forbid(struct dmc_device *dev)
{
	struct dmc_dev_pm_info *pw;

	if (!dmc_rpm_ok(dev))
		return;
	pw = dmc_pw(dev);
	spin_lock_irq(&pw->lock);
	if (pw->runtime_auto) {
		pw->runtime_auto = false;
		atomic_inc(&pw->usage_count);
		dmc_rpm_resume(dev, 0);
	}
	spin_unlock_irq(&pw->lock);
}
EXPORT_SYMBOL_GPL(dmc_pm_runtime_forbid);

/**
 * dmc_pm_runtime_allow() - let a device suspend again (power/control "auto")
 * @dev: an added device
 *
 * Drops the reference of dmc_pm_runtime_forbid() and queues an idle check.
 * Context: any.
 */
void dmc_pm_runtime_allow(struct dmc_device *dev)
{
	struct dmc_dev_pm_info *pw;
	unsigned long flags;

	if (!dmc_rpm_ok(dev))
		return;
	pw = dmc_pw(dev);
	spin_lock_irqsave(&pw->lock, flags);
	if (!pw->runtime_auto) {
		pw->runtime_auto = true;
		if (dmc_rpm_drop_usage_count(dev) == 0)
			dmc_rpm_idle(dev, DMC_RPM_AUTO | DMC_RPM_ASYNC);
	}
	spin_unlock_irqrestore(&pw->lock, flags);
}
EXPORT_SYMBOL_GPL(dmc_pm_runtime_allow);

/**
 * dmc_pm_runtime_mark_last_busy() - the device was busy now
 * @dev: an added device
 *
 * An autosuspend waits for the delay counted from the last such mark.
 */
void dmc_pm_runtime_mark_last_busy(struct dmc_device *dev)
{
	if (dmc_rpm_ok(dev))
		WRITE_ONCE(dmc_pw(dev)->last_busy, ktime_get_mono_fast_ns());
}
EXPORT_SYMBOL_GPL(dmc_pm_runtime_mark_last_busy);

/*
 * After a change of the delay or of use_autosuspend: a negative delay
 * keeps the device active (a usage reference), as Linux's
 * update_autosuspend(); lock held.
 */
static void dmc_rpm_update_autosuspend(struct dmc_device *dev, int old_delay,
				       int old_use)
{
	struct dmc_dev_pm_info *pw = dmc_pw(dev);
	int delay = pw->autosuspend_delay;

	if (pw->use_autosuspend && delay < 0) {
		if (!old_use || old_delay >= 0) {
			atomic_inc(&pw->usage_count);
			dmc_rpm_resume(dev, 0);
		}
	} else {
		if (old_use && old_delay < 0)
			atomic_dec(&pw->usage_count);
		dmc_rpm_idle(dev, DMC_RPM_AUTO);
	}
}

/**
 * dmc_pm_runtime_set_autosuspend_delay() - set the autosuspend delay
 * @dev: an added device
 * @delay: ms; negative keeps the device active (while autosuspend is used)
 *
 * Context: may sleep.
 */
void dmc_pm_runtime_set_autosuspend_delay(struct dmc_device *dev, int delay)
{
	struct dmc_dev_pm_info *pw;
	int old_delay, old_use;

	if (!dmc_rpm_ok(dev))
		return;
	pw = dmc_pw(dev);
	spin_lock_irq(&pw->lock);
	old_delay = pw->autosuspend_delay;
	old_use = pw->use_autosuspend;
	WRITE_ONCE(pw->autosuspend_delay, delay);
	dmc_rpm_update_autosuspend(dev, old_delay, old_use);
	spin_unlock_irq(&pw->lock);
}
EXPORT_SYMBOL_GPL(dmc_pm_runtime_set_autosuspend_delay);

/**
 * __dmc_pm_runtime_use_autosuspend() - turn autosuspend on or off
 * @dev: an added device
 * @use: on
 *
 * Context: may sleep.
 */
void __dmc_pm_runtime_use_autosuspend(struct dmc_device *dev, bool use)
{
	struct dmc_dev_pm_info *pw;
	int old_delay, old_use;

	if (!dmc_rpm_ok(dev))
		return;
	pw = dmc_pw(dev);
	spin_lock_irq(&pw->lock);
	old_delay = pw->autosuspend_delay;
	old_use = pw->use_autosuspend;
	pw->use_autosuspend = use;
	dmc_rpm_update_autosuspend(dev, old_delay, old_use);
	spin_unlock_irq(&pw->lock);
}
EXPORT_SYMBOL_GPL(__dmc_pm_runtime_use_autosuspend);

/* The readers: snapshots, as Linux's inline helpers. */

/** dmc_pm_runtime_enabled() - runtime PM enabled (disable depth 0)? @dev: the device */
bool dmc_pm_runtime_enabled(struct dmc_device *dev)
{
	return dev && dev->p && !READ_ONCE(dmc_pw(dev)->disable_depth);
}
EXPORT_SYMBOL_GPL(dmc_pm_runtime_enabled);

/** dmc_pm_runtime_status() - the runtime status (a snapshot) @dev: the device */
enum dmc_rpm_status dmc_pm_runtime_status(struct dmc_device *dev)
{
	return dev && dev->p ? READ_ONCE(dmc_pw(dev)->runtime_status) :
			       DMC_RPM_INVALID;
}
EXPORT_SYMBOL_GPL(dmc_pm_runtime_status);

/** dmc_pm_runtime_suspended() - suspended with runtime PM enabled? @dev: the device */
bool dmc_pm_runtime_suspended(struct dmc_device *dev)
{
	return dmc_pm_runtime_status(dev) == DMC_RPM_SUSPENDED &&
	       dmc_pm_runtime_enabled(dev);
}
EXPORT_SYMBOL_GPL(dmc_pm_runtime_suspended);

/** dmc_pm_runtime_active() - active, or runtime PM disabled? @dev: the device */
bool dmc_pm_runtime_active(struct dmc_device *dev)
{
	return dmc_pm_runtime_status(dev) == DMC_RPM_ACTIVE ||
	       !dmc_pm_runtime_enabled(dev);
}
EXPORT_SYMBOL_GPL(dmc_pm_runtime_active);

/** dmc_pm_runtime_status_suspended() - status suspended? @dev: the device */
bool dmc_pm_runtime_status_suspended(struct dmc_device *dev)
{
	return dmc_pm_runtime_status(dev) == DMC_RPM_SUSPENDED;
}
EXPORT_SYMBOL_GPL(dmc_pm_runtime_status_suspended);

/** dmc_pm_runtime_usage() - the usage count (a snapshot) @dev: the device */
int dmc_pm_runtime_usage(struct dmc_device *dev)
{
	return dev && dev->p ? atomic_read(&dmc_pw(dev)->usage_count) : 0;
}
EXPORT_SYMBOL_GPL(dmc_pm_runtime_usage);

/** dmc_pm_runtime_active_children() - active children (a snapshot) @dev: the device */
int dmc_pm_runtime_active_children(struct dmc_device *dev)
{
	return dev && dev->p ? atomic_read(&dmc_pw(dev)->child_count) : 0;
}
EXPORT_SYMBOL_GPL(dmc_pm_runtime_active_children);

/** dmc_pm_runtime_autosuspend_delay() - the delay in ms @dev: the device */
int dmc_pm_runtime_autosuspend_delay(struct dmc_device *dev)
{
	return dev && dev->p ? READ_ONCE(dmc_pw(dev)->autosuspend_delay) : 0;
}
EXPORT_SYMBOL_GPL(dmc_pm_runtime_autosuspend_delay);

/* ---- the core's hooks ---- */

/*
 * After a binding ended or failed (dev->driver cleared): wait for the
 * callbacks that may have read the old driver, then a disabled device
 * that is active becomes suspended, as pm_runtime_reinit().
 */
void dmc_pm_runtime_reinit(struct dmc_device *dev)
{
	struct dmc_dev_pm_info *pw = dmc_pw(dev);
	bool set_suspended;

	spin_lock_irq(&pw->lock);
	dmc_rpm_wait(pw, true);
	set_suspended = pw->disable_depth && pw->runtime_status == DMC_RPM_ACTIVE;
	spin_unlock_irq(&pw->lock);
	if (set_suspended)
		dmc_pm_runtime_set_suspended(dev);
}

/* dmc_device_del()'s step: disabled for good, nothing pending, reinit. */
void dmc_pm_runtime_remove(struct dmc_device *dev)
{
	__dmc_pm_runtime_disable(dev, false);
	/* Disabled: nothing queues any more; flush what might be left. */
	hrtimer_cancel(&dmc_pw(dev)->suspend_timer);
	cancel_work_sync(&dmc_pw(dev)->work);
	dmc_pm_runtime_reinit(dev);
}

/*
 * Around a probe (device lock held, dev->driver set), as Linux's
 * __driver_probe_device() and __device_attach(): a usage reference, the
 * parent resumed and held, pending work flushed. After: both dropped, and
 * the device checked for idle; after a failure (dev->driver cleared) the
 * state is reset as after an unbind.
 */
void dmc_pm_runtime_probe_begin(struct dmc_device *dev)
{
	/* dev->parent: stable under the device lock, which a move takes. */
	dmc_pm_runtime_get_noresume(dev);
	if (dev->parent)
		dmc_pm_runtime_get_sync(dev->parent);
	dmc_pm_runtime_barrier(dev);
}

void dmc_pm_runtime_probe_end(struct dmc_device *dev)
{
	if (!READ_ONCE(dev->driver))
		dmc_pm_runtime_reinit(dev);
	if (dev->parent)
		dmc_pm_runtime_put(dev->parent);
	dmc_pm_runtime_put(dev);
}

/* link.c, links mutex held, the link on both lists: its runtime part. */
void dmc_pm_runtime_link_add(struct dmc_device_link *link)
{
	struct dmc_dev_pm_info *cpw = dmc_pw(link->consumer);

	refcount_set(&link->rpm_active, 1);
	if (!(link->flags & DMC_DL_FLAG_PM_RUNTIME))
		return;
	spin_lock_irq(&cpw->lock);
	cpw->links_count++;
	spin_unlock_irq(&cpw->lock);
	/* RPM_ACTIVE: the link holds the supplier (resumed after, below). */
	if (link->flags & DMC_DL_FLAG_RPM_ACTIVE) {
		dmc_pm_runtime_get_noresume(link->supplier);
		refcount_inc(&link->rpm_active);
	}
}

/*
 * device_move.c, before a move, with the device locks held: hold @dev's
 * runtime PM still (disabled, which waits for a transition under way),
 * and if @dev is active, resume and hold @np, its new parent, which is
 * to count it. Linux's device_move() leaves the counts alone (an active
 * device's old parent keeps counting it, its new one never does); dmcore
 * moves the count with the device. Return: whether @dev is active; pass
 * it to dmc_pm_runtime_move_end().
 */
bool dmc_pm_runtime_move_begin(struct dmc_device *dev, struct dmc_device *np)
{
	struct dmc_dev_pm_info *pw = dmc_pw(dev);
	bool active;
	int ret;

	dmc_pm_runtime_disable(dev);
	spin_lock_irq(&pw->lock);
	active = pw->runtime_status == DMC_RPM_ACTIVE;
	spin_unlock_irq(&pw->lock);
	if (active && np) {
		ret = dmc_pm_runtime_get_sync(np);
		if (ret < 0 && ret != -EACCES)
			pr_warn_ratelimited("dmcore: move of '%s': runtime resume of the new parent '%s' failed: %d\n",
					    dmc_dev_name(dev), dmc_dev_name(np), ret);
	}
	return active;
}

/*
 * device_move.c, dmc_links_mutex and the device locks held, between
 * dmc_pm_runtime_move_begin() and _end(): @dev's parent becomes @np. The
 * write is made under @dev's power.lock, with the active-children count
 * of an active @dev carried from the old parent to @np in the same
 * section: runtime.c reads dev->parent under that lock (and takes a
 * reference before dropping it) and changes the count in the section
 * that changes the status, so no reader uses a parent it has not
 * referenced and the count stays on the parent @dev has. The caller
 * drops its reference on the old parent only after this (see runtime.c).
 * Reading the status here rather than at move_begin() covers a status
 * set meanwhile by __dmc_pm_runtime_set_status() (runtime PM disabled
 * does not hold that off); the resume and suspend paths cannot be under
 * way (move_begin() disabled runtime PM, waiting for them).
 */
void dmc_pm_runtime_set_parent(struct dmc_device *dev, struct dmc_device *np)
{
	struct dmc_dev_pm_info *pw = dmc_pw(dev);
	struct dmc_device *old;

	spin_lock_irq(&pw->lock);
	old = dev->parent;
	if (pw->runtime_status == DMC_RPM_ACTIVE && old != np) {
		if (old)
			atomic_add_unless(&dmc_pw(old)->child_count, -1, 0);
		if (np)
			atomic_inc(&dmc_pw(np)->child_count);
	}
	WRITE_ONCE(dev->parent, np);
	spin_unlock_irq(&pw->lock);
}

/*
 * After the move: @moved says whether @dev's parent changed from @old
 * (referenced by the caller) to @np; the count moved with it
 * (dmc_pm_runtime_set_parent()). @np is let go, @dev's runtime PM
 * enabled again, and @old asked whether it may idle now.
 */
void dmc_pm_runtime_move_end(struct dmc_device *dev, struct dmc_device *old,
			     struct dmc_device *np, bool active, bool moved)
{
	if (active && np)
		dmc_pm_runtime_put(np);
	dmc_pm_runtime_enable(dev);
	if (moved && old)
		dmc_pm_request_idle(old);
}

/*
 * link.c, links mutex held: an add with @flags (PM_RUNTIME among them)
 * found @link there already, whose flags are not merged yet. As Linux's
 * device_link_add(): the link becomes a runtime-PM one, and RPM_ACTIVE
 * takes one more runtime reference on the supplier (resumed after, by
 * dmc_pm_runtime_link_added()).
 */
void dmc_pm_runtime_link_merge(struct dmc_device_link *link, u32 flags)
{
	struct dmc_dev_pm_info *cpw = dmc_pw(link->consumer);

	if (!(flags & DMC_DL_FLAG_PM_RUNTIME))
		return;
	if (!(link->flags & DMC_DL_FLAG_PM_RUNTIME)) {
		spin_lock_irq(&cpw->lock);
		cpw->links_count++;
		spin_unlock_irq(&cpw->lock);
	}
	if (flags & DMC_DL_FLAG_RPM_ACTIVE) {
		dmc_pm_runtime_get_noresume(link->supplier);
		refcount_inc(&link->rpm_active);
	}
}

/* link.c, no lock held, after a successful add with @flags. */
void dmc_pm_runtime_link_added(struct dmc_device *supplier, u32 flags)
{
	int ret;

	if (!(flags & DMC_DL_FLAG_RPM_ACTIVE))
		return;
	ret = dmc_pm_runtime_resume(supplier);
	if (ret < 0 && ret != -EACCES)
		pr_warn_ratelimited("dmcore: link: resume of supplier '%s' failed: %d\n",
				    dmc_dev_name(supplier), ret);
}

/* link.c, no lock held, the link off both lists and about to be freed. */
void dmc_pm_runtime_link_del(struct dmc_device_link *link)
{
	struct dmc_dev_pm_info *cpw = dmc_pw(link->consumer);

	if (!(link->flags & DMC_DL_FLAG_PM_RUNTIME))
		return;
	spin_lock_irq(&cpw->lock);
	if (!WARN_ON_ONCE(!cpw->links_count))
		cpw->links_count--;
	spin_unlock_irq(&cpw->lock);
	dmc_rpm_release_supplier(link);
	dmc_pm_request_idle(link->supplier);
}

/*
 * power.c: a system suspend of @dev begins (device lock and the power
 * transition mutex held), as Linux's device_prepare(), __device_suspend()
 * and device_suspend_late(): a usage reference, the driver's prepare,
 * pending work flushed, runtime PM disabled. Return: true when @dev may
 * skip its suspend and resume (direct_complete: runtime-suspended and the
 * bus's or driver's prepare returned a positive value).
 */
bool dmc_pm_runtime_sleep_begin(struct dmc_device *dev)
{
	const struct dmc_dev_pm_ops *ops = dev->bus ? dev->bus->pm : NULL;
	struct dmc_dev_pm_info *pw = dmc_pw(dev);
	bool direct;
	int prep = 0;

	lockdep_assert_held(&dev->mutex);
	dmc_pm_runtime_get_noresume(dev);
	if (!ops || !ops->prepare)
		ops = dev->driver ? dev->driver->pm : NULL;
	if (ops && ops->prepare)
		prep = ops->prepare(dev);
	dmc_pm_runtime_barrier(dev);
	direct = prep > 0 && dmc_pm_runtime_suspended(dev);
	__dmc_pm_runtime_disable(dev, false);
	spin_lock_irq(&pw->lock);
	pw->is_suspended = true;
	pw->direct_complete = direct && pw->runtime_status == DMC_RPM_SUSPENDED;
	direct = pw->direct_complete;
	spin_unlock_irq(&pw->lock);
	return direct;
}

/* power.c: the device resumed (or its suspend failed): undo the above. */
void dmc_pm_runtime_sleep_end(struct dmc_device *dev)
{
	struct dmc_dev_pm_info *pw = dmc_pw(dev);

	spin_lock_irq(&pw->lock);
	pw->is_suspended = false;
	pw->direct_complete = false;
	spin_unlock_irq(&pw->lock);
	dmc_pm_runtime_enable(dev);
	dmc_pm_runtime_put(dev);
}

/* ---- power/ files ---- */

static ssize_t runtime_status_show(struct dmc_device *dev,
				   struct dmc_device_attribute *attr, char *buf)
{
	static const char * const names[] = {
		[DMC_RPM_ACTIVE] = "active",
		[DMC_RPM_RESUMING] = "resuming",
		[DMC_RPM_SUSPENDED] = "suspended",
		[DMC_RPM_SUSPENDING] = "suspending",
	};
	struct dmc_dev_pm_info *pw = dmc_pw(dev);
	const char *output;

	if (READ_ONCE(pw->runtime_error))
		output = "error";
	else if (READ_ONCE(pw->disable_depth))
		output = "unsupported";
	else if ((unsigned int)READ_ONCE(pw->runtime_status) < ARRAY_SIZE(names))
		output = names[READ_ONCE(pw->runtime_status)];
	else
		return -EIO;
	return sysfs_emit(buf, "%s\n", output);
}

static ssize_t control_show(struct dmc_device *dev,
			    struct dmc_device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", READ_ONCE(dmc_pw(dev)->runtime_auto) ?
			  "auto" : "on");
}

static ssize_t control_store(struct dmc_device *dev,
			     struct dmc_device_attribute *attr,
			     const char *buf, size_t n)
{
	if (sysfs_streq(buf, "auto")) {
		dmc_pm_runtime_allow(dev);
	} else if (sysfs_streq(buf, "on")) {
		dmc_pm_runtime_forbid(dev);
	} else {
		pr_err_ratelimited("dmcore: %s/power/control: write auto or on\n",
				   dmc_dev_name(dev));
		return -EINVAL;
	}
	return n;
}

static ssize_t runtime_usage_show(struct dmc_device *dev,
				  struct dmc_device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", dmc_pm_runtime_usage(dev));
}

static ssize_t runtime_active_kids_show(struct dmc_device *dev,
					struct dmc_device_attribute *attr,
					char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(dmc_pw(dev)->ignore_children) ?
			  0 : dmc_pm_runtime_active_children(dev));
}

static ssize_t runtime_enabled_show(struct dmc_device *dev,
				    struct dmc_device_attribute *attr, char *buf)
{
	struct dmc_dev_pm_info *pw = dmc_pw(dev);
	bool disabled = READ_ONCE(pw->disable_depth);
	bool forbidden = !READ_ONCE(pw->runtime_auto);
	const char *output;

	if (disabled && forbidden)
		output = "disabled & forbidden";
	else if (disabled)
		output = "disabled";
	else if (forbidden)
		output = "forbidden";
	else
		output = "enabled";
	return sysfs_emit(buf, "%s\n", output);
}

static ssize_t autosuspend_delay_ms_show(struct dmc_device *dev,
					 struct dmc_device_attribute *attr,
					 char *buf)
{
	if (!READ_ONCE(dmc_pw(dev)->use_autosuspend))
		return -EIO;
	return sysfs_emit(buf, "%d\n", dmc_pm_runtime_autosuspend_delay(dev));
}

static ssize_t autosuspend_delay_ms_store(struct dmc_device *dev,
					  struct dmc_device_attribute *attr,
					  const char *buf, size_t n)
{
	long delay;

	if (!READ_ONCE(dmc_pw(dev)->use_autosuspend))
		return -EIO;
	if (kstrtol(buf, 10, &delay) || delay != (int)delay) {
		pr_err_ratelimited("dmcore: %s/power/autosuspend_delay_ms: not a number of ms\n",
				   dmc_dev_name(dev));
		return -EINVAL;
	}
	dmc_pm_runtime_set_autosuspend_delay(dev, delay);
	return n;
}

DMC_DEVICE_ATTR(runtime_status, 0444, runtime_status_show, NULL);
DMC_DEVICE_ATTR(control, 0644, control_show, control_store);
DMC_DEVICE_ATTR(runtime_usage, 0444, runtime_usage_show, NULL);
DMC_DEVICE_ATTR(runtime_active_kids, 0444, runtime_active_kids_show, NULL);
DMC_DEVICE_ATTR(runtime_enabled, 0444, runtime_enabled_show, NULL);
DMC_DEVICE_ATTR(autosuspend_delay_ms, 0644, autosuspend_delay_ms_show,
		autosuspend_delay_ms_store);
