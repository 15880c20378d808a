// SPDX-License-Identifier: GPL-2.0
/*
 * Runtime power management: a device is powered down while nobody uses
 * it, between system sleeps. The counterpart of
 * drivers/base/power/runtime.c, with Linux's state machine (rpm_idle(),
 * rpm_suspend(), rpm_resume(), the requests of the workqueue, the
 * autosuspend timer) and these differences:
 *
 *  - no irq_safe devices, no no_callbacks, no QoS, no time accounting;
 *  - a resume brings up what the device depends on (its parent, its
 *    suppliers through PM_RUNTIME links, theirs in turn) without
 *    recursion: dmc_rpm_resume_deps() walks that graph with an explicit
 *    stack under dmc_links_mutex, holds a usage reference on every device
 *    it meets (so none of them suspends meanwhile) and resumes the ones
 *    that need it, dependencies first. The resume of the device itself
 *    then only checks that its parent and suppliers are active, where
 *    Linux's rpm_resume() calls itself for the parent and
 *    pm_runtime_get_sync() for each supplier;
 *  - the callbacks are the bus's (struct dmc_bus_type.pm), else the bound
 *    driver's (struct dmc_driver.pm); the driver is read under
 *    power.lock in the same step that marks the callback running, and
 *    an unbind waits for the callbacks running (dmc_pm_runtime_reinit())
 *    after clearing dev->driver, so no callback of a driver runs once its
 *    device is unbound.
 *
 * Locking: a device's power.lock is a spinlock, taken with interrupts off
 * (the autosuspend hrtimer takes it in hard interrupt context), never
 * held across a callback, as Linux's. A parent's is taken inside a
 * child's only in __dmc_pm_runtime_set_status(). dmc_links_mutex is taken
 * outside power.lock (the walk of dependencies, the suppliers' references
 * around a callback, the link hooks).
 */

#include <linux/export.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "base.h"

/* Deps already resumed by the caller (dmc_rpm_resume_deps()): check them. */
#define DMC_RPM_DEPS_DONE	0x100

typedef int (*dmc_rpm_cb)(struct dmc_device *dev);

static struct workqueue_struct *dmc_rpm_wq;
static unsigned int dmc_rpm_walk_gen;	/* dmc_links_mutex */

static int rpm_resume(struct dmc_device *dev, int rpmflags);
static int rpm_suspend(struct dmc_device *dev, int rpmflags);

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

/* The callback at @offset of the bus's ops, else the driver's; lock held. */
static dmc_rpm_cb dmc_rpm_get_callback(struct dmc_device *dev, size_t offset)
{
	const struct dmc_dev_pm_ops *ops = dev->bus ? dev->bus->pm : NULL;
	struct dmc_driver *drv;
	dmc_rpm_cb cb = NULL;

	lockdep_assert_held(&dmc_pw(dev)->lock);
	if (ops)
		cb = *(const dmc_rpm_cb *)((const char *)ops + offset);
	if (!cb) {
		drv = READ_ONCE(dev->driver);
		if (drv && drv->pm)
			cb = *(const dmc_rpm_cb *)((const char *)drv->pm + offset);
	}
	return cb;
}

#define DMC_RPM_CALLBACK(dev, name) \
	dmc_rpm_get_callback(dev, offsetof(struct dmc_dev_pm_ops, name))

/* Drop a usage reference; -EINVAL (and the count unchanged) below zero. */
static int rpm_drop_usage_count(struct dmc_device *dev)
{
	int ret = atomic_sub_return(1, &dmc_pw(dev)->usage_count);

	if (ret >= 0)
		return ret;
	atomic_inc(&dmc_pw(dev)->usage_count);
	pr_warn_ratelimited("dmcore: %s: Runtime PM usage count underflow!\n",
			    dmc_dev_name(dev));
	return -EINVAL;
}

static void dmc_rpm_deactivate_timer(struct dmc_dev_pm_info *pw)
{
	if (pw->timer_expires > 0) {
		hrtimer_try_to_cancel(&pw->suspend_timer);
		pw->timer_expires = 0;
	}
}

static void dmc_rpm_cancel_pending(struct dmc_dev_pm_info *pw)
{
	dmc_rpm_deactivate_timer(pw);
	pw->request = DMC_RPM_REQ_NONE;
}

/* When the autosuspend delay expires (ns), or 0 if it did or is off. */
static u64 dmc_rpm_autosuspend_expiration(struct dmc_dev_pm_info *pw)
{
	int delay;
	u64 expires;

	if (!pw->use_autosuspend)
		return 0;
	delay = READ_ONCE(pw->autosuspend_delay);
	if (delay < 0)
		return 0;
	expires = READ_ONCE(pw->last_busy) + (u64)delay * NSEC_PER_MSEC;
	return expires > ktime_get_mono_fast_ns() ? expires : 0;
}

static void dmc_rpm_queue(struct dmc_dev_pm_info *pw, enum dmc_rpm_request req)
{
	pw->request = req;
	if (!pw->request_pending) {
		pw->request_pending = true;
		queue_work(dmc_rpm_wq, &pw->work);
	}
}

/* Wait for a transition or idle callback of another thread; lock held. */
static void dmc_rpm_wait(struct dmc_dev_pm_info *pw, bool idle_too)
	__releases(&pw->lock) __acquires(&pw->lock)
{
	DEFINE_WAIT(wait);

	for (;;) {
		prepare_to_wait(&pw->wait_queue, &wait, TASK_UNINTERRUPTIBLE);
		if (pw->runtime_status != DMC_RPM_SUSPENDING &&
		    pw->runtime_status != DMC_RPM_RESUMING &&
		    (!idle_too || !pw->idle_notification))
			break;
		spin_unlock_irq(&pw->lock);
		schedule();
		spin_lock_irq(&pw->lock);
	}
	finish_wait(&pw->wait_queue, &wait);
}

static int rpm_check_suspend_allowed(struct dmc_device *dev)
{
	struct dmc_dev_pm_info *pw = dmc_pw(dev);

	if (pw->runtime_error)
		return -EINVAL;
	if (pw->disable_depth > 0)
		return -EACCES;
	if (atomic_read(&pw->usage_count))
		return -EAGAIN;
	if (!pw->ignore_children && atomic_read(&pw->child_count))
		return -EBUSY;
	if ((pw->deferred_resume && pw->runtime_status == DMC_RPM_SUSPENDING) ||
	    (pw->request_pending && pw->request == DMC_RPM_REQ_RESUME))
		return -EAGAIN;
	if (pw->runtime_status == DMC_RPM_SUSPENDED)
		return 1;
	return 0;
}

/* ---- suppliers (links.c's PM_RUNTIME links), dmc_links_mutex held ---- */

static int rpm_get_suppliers(struct dmc_device *dev)
{
	struct dmc_device_link *link;
	struct dmc_dev_pm_info *spw;
	bool ok;

	lockdep_assert_held(&dmc_links_mutex);
	list_for_each_entry(link, &dev->p->suppliers, c_node) {
		if (!(link->flags & DMC_DL_FLAG_PM_RUNTIME))
			continue;
		spw = dmc_pw(link->supplier);
		atomic_inc(&spw->usage_count);
		spin_lock_irq(&spw->lock);
		/* Resumed by dmc_rpm_resume_deps(); disabled ones do not count. */
		ok = spw->disable_depth || spw->runtime_status == DMC_RPM_ACTIVE;
		spin_unlock_irq(&spw->lock);
		if (!ok) {
			dmc_pm_runtime_put_noidle(link->supplier);
			return -EBUSY;
		}
		refcount_inc(&link->rpm_active);
	}
	return 0;
}

static void dmc_rpm_release_supplier(struct dmc_device_link *link)
{
	struct dmc_device *supplier = link->supplier;

	while (refcount_dec_not_one(&link->rpm_active) &&
	       atomic_read(&dmc_pw(supplier)->usage_count) > 0)
		dmc_pm_runtime_put_noidle(supplier);
}

static void __rpm_put_suppliers(struct dmc_device *dev, bool try_to_suspend)
{
	struct dmc_device_link *link;

	lockdep_assert_held(&dmc_links_mutex);
	list_for_each_entry(link, &dev->p->suppliers, c_node) {
		dmc_rpm_release_supplier(link);
		if (try_to_suspend)
			dmc_pm_request_idle(link->supplier);
	}
}

static void rpm_suspend_suppliers(struct dmc_device *dev)
{
	struct dmc_device_link *link;

	mutex_lock(&dmc_links_mutex);
	list_for_each_entry(link, &dev->p->suppliers, c_node)
		if (link->flags & DMC_DL_FLAG_PM_RUNTIME)
			dmc_pm_request_idle(link->supplier);
	mutex_unlock(&dmc_links_mutex);
}

/* Run @cb with the lock dropped; suppliers taken before a resume's. */
static int __rpm_callback(dmc_rpm_cb cb, struct dmc_device *dev)
	__releases(&dev->p->power.lock) __acquires(&dev->p->power.lock)
{
	struct dmc_dev_pm_info *pw = dmc_pw(dev);
	bool use_links = pw->links_count > 0;
	int retval = 0;

	spin_unlock_irq(&pw->lock);
	/* The status cannot change until we return: read without the lock. */
	if (use_links && pw->runtime_status == DMC_RPM_RESUMING) {
		mutex_lock(&dmc_links_mutex);
		retval = rpm_get_suppliers(dev);
		if (retval) {
			__rpm_put_suppliers(dev, true);
			goto fail;
		}
		mutex_unlock(&dmc_links_mutex);
	}
	if (cb)
		retval = cb(dev);
	if (use_links &&
	    ((pw->runtime_status == DMC_RPM_SUSPENDING && !retval) ||
	     (pw->runtime_status == DMC_RPM_RESUMING && retval))) {
		mutex_lock(&dmc_links_mutex);
		__rpm_put_suppliers(dev, false);
fail:
		mutex_unlock(&dmc_links_mutex);
	}
	spin_lock_irq(&pw->lock);
	return retval;
}

static int rpm_callback(dmc_rpm_cb cb, struct dmc_device *dev)
{
	int retval = __rpm_callback(cb, dev);

	dmc_pw(dev)->runtime_error = retval;
	return retval != -EACCES ? retval : -EIO;
}

/* ---- the dependencies of a resume, walked without recursion ---- */

struct dmc_rpm_frame {
	struct dmc_device *dev;
	struct list_head *cursor;	/* in dev->p->suppliers, NULL at first */
	bool parent_done;
};

struct dmc_rpm_held {
	struct dmc_device **devs;	/* referenced, with a usage reference */
	bool *resume;			/* needs a resume, in order */
	size_t n, cap;
};

static int dmc_rpm_held_push(struct dmc_rpm_held *h, struct dmc_device *dev,
			     bool resume)
{
	if (h->n == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 8;
		struct dmc_device **d;
		bool *r;

		d = krealloc_array(h->devs, cap, sizeof(*d), GFP_KERNEL);
		if (!d)
			return -ENOMEM;
		h->devs = d;
		r = krealloc_array(h->resume, cap, sizeof(*r), GFP_KERNEL);
		if (!r)
			return -ENOMEM;
		h->resume = r;
		h->cap = cap;
	}
	h->devs[h->n] = dev;
	h->resume[h->n++] = resume;
	return 0;
}

/* Drop what dmc_rpm_resume_deps() held: usage references, then devices. */
static void dmc_rpm_held_release(struct dmc_rpm_held *h)
{
	size_t i;

	for (i = 0; i < h->n; i++) {
		dmc_pm_runtime_put(h->devs[i]);
		dmc_device_put(h->devs[i]);
	}
	kfree(h->devs);
	kfree(h->resume);
	memset(h, 0, sizeof(*h));
}

/* Would @dev, a dependency, be resumed by Linux's recursion? */
static bool dmc_rpm_dep_needs_resume(struct dmc_device *dev, bool as_parent)
{
	struct dmc_dev_pm_info *pw = dmc_pw(dev);
	bool need;

	spin_lock_irq(&pw->lock);
	need = !pw->disable_depth && pw->runtime_status != DMC_RPM_ACTIVE &&
	       !(as_parent && pw->ignore_children);
	spin_unlock_irq(&pw->lock);
	return need;
}

/* The next unvisited dependency of @f's device, or NULL when none is left. */
static struct dmc_device *dmc_rpm_next_dep(struct dmc_rpm_frame *f,
					   bool parent_too, bool *as_parent)
{
	struct list_head *head = &f->dev->p->suppliers;
	struct dmc_device_link *link;

	if (!f->parent_done) {
		f->parent_done = true;
		if (f->dev->parent && parent_too) {
			*as_parent = true;
			return f->dev->parent;
		}
	}
	*as_parent = false;
	f->cursor = f->cursor ? f->cursor->next : head->next;
	for (; f->cursor != head; f->cursor = f->cursor->next) {
		link = list_entry(f->cursor, struct dmc_device_link, c_node);
		if (link->flags & DMC_DL_FLAG_PM_RUNTIME)
			return link->supplier;
	}
	return NULL;
}

/*
 * Collect what a resume of @dev depends on (its parent when @parent_too,
 * its PM_RUNTIME suppliers, theirs in turn): each device met is held in
 * @h (a device reference and a usage reference); those to resume are
 * listed after their own dependencies. Links mutex held.
 */
static int dmc_rpm_collect_deps(struct dmc_device *dev, bool parent_too,
				struct dmc_rpm_held *h)
{
	struct dmc_rpm_frame *stack, *f;
	size_t n = 0, cap = 8;
	struct dmc_device *next;
	unsigned int gen;
	bool as_parent;
	int err = 0;

	lockdep_assert_held(&dmc_links_mutex);
	stack = kmalloc_array(cap, sizeof(*stack), GFP_KERNEL);
	if (!stack)
		return -ENOMEM;
	gen = ++dmc_rpm_walk_gen ?: ++dmc_rpm_walk_gen;
	dmc_pw(dev)->rpm_gen = gen;
	stack[n++] = (struct dmc_rpm_frame){ .dev = dev };
	while (n) {
		f = &stack[n - 1];
		next = dmc_rpm_next_dep(f, parent_too || n > 1, &as_parent);
		if (!next) {
			if (n > 1) {
				err = dmc_rpm_held_push(h, f->dev, true);
				if (err)
					break;	/* released with the stack below */
			} else {
				dmc_device_put(f->dev);	/* the root's */
			}
			n--;
			continue;
		}
		if (dmc_pw(next)->rpm_gen == gen)
			continue;
		dmc_pw(next)->rpm_gen = gen;
		dmc_device_get(next);
		dmc_pm_runtime_get_noresume(next);
		if (!dmc_rpm_dep_needs_resume(next, as_parent)) {
			err = dmc_rpm_held_push(h, next, false);
			if (err) {
				dmc_pm_runtime_put_noidle(next);
				dmc_device_put(next);
				break;
			}
			continue;
		}
		if (n == cap) {
			struct dmc_rpm_frame *s;

			s = krealloc_array(stack, 2 * cap, sizeof(*s), GFP_KERNEL);
			if (!s) {
				dmc_pm_runtime_put_noidle(next);
				dmc_device_put(next);
				err = -ENOMEM;
				break;
			}
			stack = s;
			cap *= 2;
		}
		stack[n++] = (struct dmc_rpm_frame){ .dev = next };
	}
	/* On failure, the frames still on the stack are held too. */
	while (n > 1) {
		f = &stack[--n];
		dmc_pm_runtime_put_noidle(f->dev);
		dmc_device_put(f->dev);
	}
	if (n == 1)
		dmc_device_put(stack[0].dev);
	kfree(stack);
	return err;
}

/*
 * Resume what @dev depends on, dependencies first, holding them all (in
 * @h, for dmc_rpm_held_release()). No lock held. Return: 0 or -ENOMEM;
 * a dependency's failure shows in the checks of @dev's own resume.
 */
static int dmc_rpm_resume_deps(struct dmc_device *dev, bool parent_too,
			       struct dmc_rpm_held *h)
{
	struct dmc_device *d;
	size_t i;
	int err;

	dmc_device_get(dev);	/* the root frame's, put by the walk */
	mutex_lock(&dmc_links_mutex);
	err = dmc_rpm_collect_deps(dev, parent_too, h);
	mutex_unlock(&dmc_links_mutex);
	if (err)
		return err;
	for (i = 0; i < h->n; i++) {
		if (!h->resume[i])
			continue;
		d = h->devs[i];
		spin_lock_irq(&dmc_pw(d)->lock);
		err = rpm_resume(d, DMC_RPM_DEPS_DONE);
		spin_unlock_irq(&dmc_pw(d)->lock);
		if (err < 0)
			break;
		cond_resched();
	}
	return 0;
}

/* ---- the state machine, as Linux's; power.lock held on entry ---- */

static int rpm_idle(struct dmc_device *dev, int rpmflags)
	__releases(&dev->p->power.lock) __acquires(&dev->p->power.lock)
{
	struct dmc_dev_pm_info *pw = dmc_pw(dev);
	dmc_rpm_cb callback;
	int retval;

	retval = rpm_check_suspend_allowed(dev);
	if (retval < 0)
		;	/* conditions are wrong */
	else if (pw->runtime_status != DMC_RPM_ACTIVE)
		retval = -EAGAIN;
	else if (pw->request_pending && pw->request > DMC_RPM_REQ_IDLE)
		retval = -EAGAIN;
	else if (pw->idle_notification)
		retval = -EINPROGRESS;
	if (retval)
		goto out;

	pw->request = DMC_RPM_REQ_NONE;
	callback = DMC_RPM_CALLBACK(dev, runtime_idle);
	if (!callback)
		goto out;
	if (rpmflags & DMC_RPM_ASYNC) {
		dmc_rpm_queue(pw, DMC_RPM_REQ_IDLE);
		return 0;
	}
	pw->idle_notification = true;
	spin_unlock_irq(&pw->lock);
	retval = callback(dev);
	spin_lock_irq(&pw->lock);
	pw->idle_notification = false;
	wake_up_all(&pw->wait_queue);
out:
	return retval ? retval : rpm_suspend(dev, rpmflags | DMC_RPM_AUTO);
}

static int rpm_suspend(struct dmc_device *dev, int rpmflags)
	__releases(&dev->p->power.lock) __acquires(&dev->p->power.lock)
{
	struct dmc_dev_pm_info *pw = dmc_pw(dev);
	struct dmc_device *parent = NULL;
	dmc_rpm_cb callback;
	int retval;

repeat:
	retval = rpm_check_suspend_allowed(dev);
	if (retval < 0)
		goto out;
	/* Synchronous suspends are not allowed while resuming. */
	if (pw->runtime_status == DMC_RPM_RESUMING && !(rpmflags & DMC_RPM_ASYNC))
		retval = -EAGAIN;
	if (retval)
		goto out;

	/* The autosuspend delay has not expired yet: (re)arm the timer. */
	if ((rpmflags & DMC_RPM_AUTO) && pw->runtime_status != DMC_RPM_SUSPENDING) {
		u64 expires = dmc_rpm_autosuspend_expiration(pw);

		if (expires) {
			pw->request = DMC_RPM_REQ_NONE;
			if (!(pw->timer_expires && pw->timer_expires <= expires)) {
				u64 slack = (u64)READ_ONCE(pw->autosuspend_delay) *
					    (NSEC_PER_MSEC >> 2);

				pw->timer_expires = expires;
				hrtimer_start_range_ns(&pw->suspend_timer,
						       ns_to_ktime(expires), slack,
						       HRTIMER_MODE_ABS);
			}
			pw->timer_autosuspends = true;
			goto out;
		}
	}

	dmc_rpm_cancel_pending(pw);

	if (pw->runtime_status == DMC_RPM_SUSPENDING) {
		if (rpmflags & (DMC_RPM_ASYNC | DMC_RPM_NOWAIT)) {
			retval = -EINPROGRESS;
			goto out;
		}
		dmc_rpm_wait(pw, false);
		goto repeat;
	}

	if (rpmflags & DMC_RPM_ASYNC) {
		dmc_rpm_queue(pw, (rpmflags & DMC_RPM_AUTO) ?
			      DMC_RPM_REQ_AUTOSUSPEND : DMC_RPM_REQ_SUSPEND);
		goto out;
	}

	pw->runtime_status = DMC_RPM_SUSPENDING;
	callback = DMC_RPM_CALLBACK(dev, runtime_suspend);
	retval = rpm_callback(callback, dev);
	if (retval)
		goto fail;

	pw->runtime_status = DMC_RPM_SUSPENDED;
	dmc_rpm_deactivate_timer(pw);
	if (dev->parent) {
		parent = dev->parent;
		atomic_add_unless(&dmc_pw(parent)->child_count, -1, 0);
	}
	wake_up_all(&pw->wait_queue);

	if (pw->deferred_resume) {
		pw->deferred_resume = false;
		rpm_resume(dev, 0);
		retval = -EAGAIN;
		goto out;
	}

	/* Maybe the parent can suspend now; the suppliers too. */
	if (parent && !dmc_pw(parent)->ignore_children) {
		spin_unlock(&pw->lock);
		spin_lock(&dmc_pw(parent)->lock);
		rpm_idle(parent, DMC_RPM_ASYNC);
		spin_unlock(&dmc_pw(parent)->lock);
		spin_lock(&pw->lock);
	}
	if (pw->links_count > 0) {
		spin_unlock_irq(&pw->lock);
		rpm_suspend_suppliers(dev);
		spin_lock_irq(&pw->lock);
	}
out:
	return retval;

fail:
	pw->runtime_status = DMC_RPM_ACTIVE;
	pw->deferred_resume = false;
	wake_up_all(&pw->wait_queue);
	if (retval == -EAGAIN || retval == -EBUSY) {
		pw->runtime_error = 0;
		/* A failed autosuspend with a new expiration is rescheduled. */
		if ((rpmflags & DMC_RPM_AUTO) && dmc_rpm_autosuspend_expiration(pw))
			goto repeat;
	} else {
		dmc_rpm_cancel_pending(pw);
	}
	goto out;
}

static int rpm_resume(struct dmc_device *dev, int rpmflags)
	__releases(&dev->p->power.lock) __acquires(&dev->p->power.lock)
{
	struct dmc_dev_pm_info *pw = dmc_pw(dev);
	struct dmc_rpm_held held = {};
	struct dmc_device *parent = NULL;
	struct dmc_dev_pm_info *ppw;
	dmc_rpm_cb callback;
	int retval = 0;

repeat:
	if (pw->runtime_error) {
		retval = -EINVAL;
	} else if (pw->disable_depth > 0) {
		if (pw->runtime_status == DMC_RPM_ACTIVE &&
		    pw->last_status == DMC_RPM_ACTIVE)
			retval = 1;
		else
			retval = -EACCES;
	}
	if (retval)
		goto out;

	pw->request = DMC_RPM_REQ_NONE;
	if (!pw->timer_autosuspends)
		dmc_rpm_deactivate_timer(pw);

	if (pw->runtime_status == DMC_RPM_ACTIVE) {
		retval = 1;
		goto out;
	}

	if (pw->runtime_status == DMC_RPM_RESUMING ||
	    pw->runtime_status == DMC_RPM_SUSPENDING) {
		if (rpmflags & (DMC_RPM_ASYNC | DMC_RPM_NOWAIT)) {
			if (pw->runtime_status == DMC_RPM_SUSPENDING) {
				pw->deferred_resume = true;
				if (rpmflags & DMC_RPM_NOWAIT)
					retval = -EINPROGRESS;
			} else {
				retval = -EINPROGRESS;
			}
			goto out;
		}
		dmc_rpm_wait(pw, false);
		goto repeat;
	}

	if (rpmflags & DMC_RPM_ASYNC) {
		dmc_rpm_queue(pw, DMC_RPM_REQ_RESUME);
		retval = 0;
		goto out;
	}

	/* What the device depends on first, held until we are done. */
	if (!(rpmflags & DMC_RPM_DEPS_DONE) && (dev->parent || pw->links_count)) {
		rpmflags |= DMC_RPM_DEPS_DONE;
		spin_unlock_irq(&pw->lock);
		retval = dmc_rpm_resume_deps(dev, true, &held);
		spin_lock_irq(&pw->lock);
		if (retval)
			goto out;
		goto repeat;
	}

	if (!parent && dev->parent) {
		parent = dev->parent;
		ppw = dmc_pw(parent);
		spin_unlock(&pw->lock);
		dmc_pm_runtime_get_noresume(parent);
		spin_lock(&ppw->lock);
		if (!ppw->disable_depth && !ppw->ignore_children &&
		    ppw->runtime_status != DMC_RPM_ACTIVE)
			retval = -EBUSY;
		spin_unlock(&ppw->lock);
		spin_lock(&pw->lock);
		if (retval)
			goto out;
		goto repeat;
	}

	pw->runtime_status = DMC_RPM_RESUMING;
	callback = DMC_RPM_CALLBACK(dev, runtime_resume);
	retval = rpm_callback(callback, dev);
	if (retval) {
		pw->runtime_status = DMC_RPM_SUSPENDED;
		dmc_rpm_cancel_pending(pw);
	} else {
		pw->runtime_status = DMC_RPM_ACTIVE;
		WRITE_ONCE(pw->last_busy, ktime_get_mono_fast_ns());
		if (parent)
			atomic_inc(&dmc_pw(parent)->child_count);
	}
	wake_up_all(&pw->wait_queue);
	if (retval >= 0)
		rpm_idle(dev, DMC_RPM_ASYNC);
out:
	if (parent || held.n) {
		spin_unlock_irq(&pw->lock);
		if (parent)
			dmc_pm_runtime_put(parent);
		dmc_rpm_held_release(&held);
		spin_lock_irq(&pw->lock);
	}
	return retval;
}

static void dmc_rpm_work(struct work_struct *work)
{
	struct dmc_dev_pm_info *pw = container_of(work, struct dmc_dev_pm_info, work);
	struct dmc_device *dev = container_of(pw, struct dmc_device_private, power)->device;
	enum dmc_rpm_request req;

	spin_lock_irq(&pw->lock);
	if (!pw->request_pending)
		goto out;
	req = pw->request;
	pw->request = DMC_RPM_REQ_NONE;
	pw->request_pending = false;
	switch (req) {
	case DMC_RPM_REQ_NONE:
		break;
	case DMC_RPM_REQ_IDLE:
		rpm_idle(dev, DMC_RPM_NOWAIT);
		break;
	case DMC_RPM_REQ_SUSPEND:
		rpm_suspend(dev, DMC_RPM_NOWAIT);
		break;
	case DMC_RPM_REQ_AUTOSUSPEND:
		rpm_suspend(dev, DMC_RPM_NOWAIT | DMC_RPM_AUTO);
		break;
	case DMC_RPM_REQ_RESUME:
		rpm_resume(dev, DMC_RPM_NOWAIT);
		break;
	}
out:
	spin_unlock_irq(&pw->lock);
}

static enum hrtimer_restart dmc_rpm_timer_fn(struct hrtimer *timer)
{
	struct dmc_dev_pm_info *pw = container_of(timer, struct dmc_dev_pm_info,
						  suspend_timer);
	struct dmc_device *dev = container_of(pw, struct dmc_device_private, power)->device;
	unsigned long flags;
	u64 expires;

	spin_lock_irqsave(&pw->lock, flags);
	expires = pw->timer_expires;
	/* Called too early if it is still ahead. */
	if (expires > 0 && expires < ktime_get_mono_fast_ns()) {
		pw->timer_expires = 0;
		rpm_suspend(dev, pw->timer_autosuspends ?
			    (DMC_RPM_ASYNC | DMC_RPM_AUTO) : DMC_RPM_ASYNC);
	}
	spin_unlock_irqrestore(&pw->lock, flags);
	return HRTIMER_NORESTART;
}

/* ---- the API ---- */

/**
 * __dmc_pm_runtime_idle() - an idle check of a device, as __pm_runtime_idle()
 * @dev: an added device
 * @rpmflags: DMC_RPM_GET_PUT (drop a usage reference first; nothing more
 *	unless it was the last), DMC_RPM_ASYNC (queue the check)
 *
 * The driver's runtime_idle, then a suspend (honouring autosuspend) if it
 * allows. Context: may sleep unless DMC_RPM_ASYNC.
 * Return: 0, -EINVAL for a usage count that would go below zero (nothing
 * changes) or a device never added, -EAGAIN/-EBUSY/-EACCES/-EINPROGRESS
 * when the device may not suspend (in use, active children, disabled, a
 * check under way), or a callback's error.
 */
int __dmc_pm_runtime_idle(struct dmc_device *dev, int rpmflags)
{
	struct dmc_dev_pm_info *pw;
	unsigned long flags;
	int retval;

	if (!dmc_rpm_ok(dev))
		return -EINVAL;
	pw = dmc_pw(dev);
	if (rpmflags & DMC_RPM_GET_PUT) {
		retval = rpm_drop_usage_count(dev);
		if (retval)
			return retval < 0 ? retval : 0;
	}
	might_sleep_if(!(rpmflags & DMC_RPM_ASYNC));
	spin_lock_irqsave(&pw->lock, flags);
	retval = rpm_idle(dev, rpmflags & ~DMC_RPM_GET_PUT);
	spin_unlock_irqrestore(&pw->lock, flags);
	return retval;
}
EXPORT_SYMBOL_GPL(__dmc_pm_runtime_idle);

/**
 * __dmc_pm_runtime_suspend() - suspend a device, as __pm_runtime_suspend()
 * @dev: an added device
 * @rpmflags: DMC_RPM_GET_PUT, DMC_RPM_ASYNC, DMC_RPM_AUTO (wait for the
 *	autosuspend delay, re-armed by dmc_pm_runtime_mark_last_busy())
 *
 * Context: may sleep unless DMC_RPM_ASYNC.
 * Return: 0 (also when queued), 1 when suspended already, or as
 * __dmc_pm_runtime_idle().
 */
int __dmc_pm_runtime_suspend(struct dmc_device *dev, int rpmflags)
{
	struct dmc_dev_pm_info *pw;
	unsigned long flags;
	int retval;

	if (!dmc_rpm_ok(dev))
		return -EINVAL;
	pw = dmc_pw(dev);
	if (rpmflags & DMC_RPM_GET_PUT) {
		retval = rpm_drop_usage_count(dev);
		if (retval)
			return retval < 0 ? retval : 0;
	}
	might_sleep_if(!(rpmflags & DMC_RPM_ASYNC));
	spin_lock_irqsave(&pw->lock, flags);
	retval = rpm_suspend(dev, rpmflags & ~DMC_RPM_GET_PUT);
	spin_unlock_irqrestore(&pw->lock, flags);
	return retval;
}
EXPORT_SYMBOL_GPL(__dmc_pm_runtime_suspend);

/**
 * __dmc_pm_runtime_resume() - resume a device, as __pm_runtime_resume()
 * @dev: an added device
 * @rpmflags: DMC_RPM_GET_PUT (take a usage reference first, kept even if
 *	the resume fails), DMC_RPM_ASYNC
 *
 * Its parent and its suppliers through PM_RUNTIME links are resumed
 * first (theirs too), and stay active while it is (the parent's count of
 * active children, the links' references).
 *
 * Context: may sleep unless DMC_RPM_ASYNC.
 * Return: 1 if active already (also while disabled, if it was active when
 * disabled), 0 when resumed or queued, -EACCES while runtime PM is
 * disabled (also during a system sleep), -EBUSY when the parent or a
 * supplier could not be resumed, -EINVAL after a callback's error, or the
 * runtime_resume callback's error.
 */
int __dmc_pm_runtime_resume(struct dmc_device *dev, int rpmflags)
{
	struct dmc_dev_pm_info *pw;
	unsigned long flags;
	int retval;

	if (!dmc_rpm_ok(dev))
		return -EINVAL;
	pw = dmc_pw(dev);
	might_sleep_if(!(rpmflags & DMC_RPM_ASYNC));
	if (rpmflags & DMC_RPM_GET_PUT)
		atomic_inc(&pw->usage_count);
	spin_lock_irqsave(&pw->lock, flags);
	retval = rpm_resume(dev, rpmflags & ~DMC_RPM_GET_PUT);
	spin_unlock_irqrestore(&pw->lock, flags);
	return retval;
}
EXPORT_SYMBOL_GPL(__dmc_pm_runtime_resume);

/**
 * dmc_pm_runtime_get_noresume() - take a usage reference, nothing more
 * @dev: an added device
 */
void dmc_pm_runtime_get_noresume(struct dmc_device *dev)
{
	if (dmc_rpm_ok(dev))
		atomic_inc(&dmc_pw(dev)->usage_count);
}
EXPORT_SYMBOL_GPL(dmc_pm_runtime_get_noresume);

/**
 * dmc_pm_runtime_put_noidle() - drop a usage reference, no idle check
 * @dev: an added device
 *
 * Does nothing at zero, as Linux's.
 */
void dmc_pm_runtime_put_noidle(struct dmc_device *dev)
{
	if (dmc_rpm_ok(dev))
		atomic_add_unless(&dmc_pw(dev)->usage_count, -1, 0);
}
EXPORT_SYMBOL_GPL(dmc_pm_runtime_put_noidle);

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
	parent = dev->parent;
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
			error = rpm_get_suppliers(dev);
		if (error) {
			__rpm_put_suppliers(dev, true);
			status = DMC_RPM_SUSPENDED;
		}
		mutex_unlock(&dmc_links_mutex);
		dmc_rpm_held_release(&held);
	}

	spin_lock_irq(&pw->lock);
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
	if (status == DMC_RPM_SUSPENDED) {
		mutex_lock(&dmc_links_mutex);
		__rpm_put_suppliers(dev, true);
		mutex_unlock(&dmc_links_mutex);
	}
	dmc_pm_runtime_enable(dev);
	return error;
}
EXPORT_SYMBOL_GPL(__dmc_pm_runtime_set_status);

/* Cancel requests and the timer, wait for callbacks running; lock held. */
static void __dmc_pm_runtime_barrier(struct dmc_device *dev)
	__releases(&dev->p->power.lock) __acquires(&dev->p->power.lock)
{
	struct dmc_dev_pm_info *pw = dmc_pw(dev);

	dmc_rpm_deactivate_timer(pw);
	/* The timer's function may be running: let it finish (it queues). */
	spin_unlock_irq(&pw->lock);
	hrtimer_cancel(&pw->suspend_timer);
	spin_lock_irq(&pw->lock);
	if (pw->request_pending) {
		pw->request = DMC_RPM_REQ_NONE;
		spin_unlock_irq(&pw->lock);
		cancel_work_sync(&pw->work);
		spin_lock_irq(&pw->lock);
		pw->request_pending = false;
	}
	dmc_rpm_wait(pw, true);
}

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
		rpm_resume(dev, 0);
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
		rpm_resume(dev, 0);
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
		pr_warn_ratelimited("dmcore: %s: Unbalanced dmc_pm_runtime_enable!\n",
				    dmc_dev_name(dev));
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
		rpm_resume(dev, 0);
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
		if (rpm_drop_usage_count(dev) == 0)
			rpm_idle(dev, DMC_RPM_AUTO | DMC_RPM_ASYNC);
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
			rpm_resume(dev, 0);
		}
	} else {
		if (old_use && old_delay < 0)
			atomic_dec(&pw->usage_count);
		rpm_idle(dev, DMC_RPM_AUTO);
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

/* A new private part: suspended, disabled once, allowed, as pm_runtime_init(). */
void dmc_pm_runtime_init(struct dmc_device *dev)
{
	struct dmc_dev_pm_info *pw = dmc_pw(dev);

	spin_lock_init(&pw->lock);
	init_waitqueue_head(&pw->wait_queue);
	INIT_WORK(&pw->work, dmc_rpm_work);
	hrtimer_init(&pw->suspend_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	pw->suspend_timer.function = dmc_rpm_timer_fn;
	pw->runtime_status = DMC_RPM_SUSPENDED;
	pw->last_status = DMC_RPM_INVALID;
	pw->disable_depth = 1;
	pw->runtime_auto = true;
	atomic_set(&pw->usage_count, 0);
	atomic_set(&pw->child_count, 0);
}

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

int dmc_pm_runtime_wq_init(void)
{
	dmc_rpm_wq = alloc_workqueue("dmcore_rpm", WQ_FREEZABLE, 0);
	return dmc_rpm_wq ? 0 : -ENOMEM;
}

void dmc_pm_runtime_wq_exit(void)
{
	destroy_workqueue(dmc_rpm_wq);
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
