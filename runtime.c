// SPDX-License-Identifier: GPL-2.0
/*
 * Runtime power management: a device is powered down while nobody uses
 * it, between system sleeps. The counterpart of the runtime PM core of
 * drivers/base/power/ (its state machine here; the rest of its API, the
 * core's hooks and the power/ files in runtime_ops.c), with Linux's
 * state machine (rpm_idle(), rpm_suspend(), rpm_resume(), the requests
 * of the workqueue, the
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
 * The parent: dmc_device_move() changes dev->parent of a device in use,
 * and drops its reference on the old parent when done; that parent may be
 * deleted and freed right after. So, unlike Linux (whose rpm_resume()
 * uses dev->parent after dropping power.lock with no reference), every
 * read of dev->parent here is one the move cannot overtake, and the
 * parent is held (dmc_device_get()) for as long as it is used:
 *  - the move writes dev->parent under the device's power.lock
 *    (dmc_pm_runtime_set_parent()) and under dmc_links_mutex; a read
 *    under either lock takes its device reference before dropping it
 *    (rpm_suspend(), dmc_rpm_resume(), __dmc_pm_runtime_set_status(); the
 *    dependency walk, dmc_rpm_next_dep());
 *  - the active-children count follows the same rule: it is changed on
 *    the parent read in the same power.lock section that changes the
 *    status, and the move carries an active device's count from the old
 *    parent to the new one in the section that changes dev->parent, so
 *    the count is on one parent, the right one, whatever the interleaving;
 *  - a resume whose parent changed while it had dropped power.lock (the
 *    move runs in full there: the device is not RESUMING yet) lets the
 *    old parent go and starts over with the new one.
 * The hooks of probe (dmc_pm_runtime_probe_begin/end) read dev->parent
 * under the device lock, which the move takes too.
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

#include "base.h"

/* Deps already resumed by the caller (dmc_rpm_resume_deps()): check them. */
#define DMC_RPM_DEPS_DONE	0x100

typedef int (*dmc_rpm_cb)(struct dmc_device *dev);

static struct workqueue_struct *dmc_rpm_wq;
static unsigned int dmc_rpm_walk_gen;	/* dmc_links_mutex */

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
int dmc_rpm_drop_usage_count(struct dmc_device *dev)
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
void dmc_rpm_wait(struct dmc_dev_pm_info *pw, bool idle_too)
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

int dmc_rpm_get_suppliers(struct dmc_device *dev)
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

void dmc_rpm_release_supplier(struct dmc_device_link *link)
{
	struct dmc_device *supplier = link->supplier;

	while (refcount_dec_not_one(&link->rpm_active) &&
	       atomic_read(&dmc_pw(supplier)->usage_count) > 0)
		dmc_pm_runtime_put_noidle(supplier);
}

void __dmc_rpm_put_suppliers(struct dmc_device *dev, bool try_to_suspend)
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
		retval = dmc_rpm_get_suppliers(dev);
		if (retval) {
			__dmc_rpm_put_suppliers(dev, true);
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
		__dmc_rpm_put_suppliers(dev, false);
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
void dmc_rpm_held_release(struct dmc_rpm_held *h)
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

/* Is @dev among the devices @h holds? */
static bool dmc_rpm_held_has(const struct dmc_rpm_held *h,
			     const struct dmc_device *dev)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		if (h->devs[i] == dev)
			return true;
	return false;
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
		/* Stable: the move writes it under dmc_links_mutex too. */
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
int dmc_rpm_resume_deps(struct dmc_device *dev, bool parent_too,
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
		err = dmc_rpm_resume(d, DMC_RPM_DEPS_DONE);
		spin_unlock_irq(&dmc_pw(d)->lock);
		if (err < 0)
			break;
		cond_resched();
	}
	return 0;
}

/* ---- the state machine, as Linux's; power.lock held on entry ---- */

int dmc_rpm_idle(struct dmc_device *dev, int rpmflags)
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
	/*
	 * Read with the status change, under power.lock, as the move's
	 * write: the count drops on the parent that has it. Held for the
	 * idle check below, made with our lock dropped, when a move may
	 * have let that parent go (see the top of this file).
	 */
	if (dev->parent) {
		parent = dmc_device_get(dev->parent);
		atomic_add_unless(&dmc_pw(parent)->child_count, -1, 0);
	}
	wake_up_all(&pw->wait_queue);

	if (pw->deferred_resume) {
		pw->deferred_resume = false;
		dmc_rpm_resume(dev, 0);
		retval = -EAGAIN;
		goto out;
	}

	/* Maybe the parent can suspend now; the suppliers too. */
	if (parent && !dmc_pw(parent)->ignore_children) {
		spin_unlock(&pw->lock);
		spin_lock(&dmc_pw(parent)->lock);
		dmc_rpm_idle(parent, DMC_RPM_ASYNC);
		spin_unlock(&dmc_pw(parent)->lock);
		spin_lock(&pw->lock);
	}
	if (pw->links_count > 0) {
		spin_unlock_irq(&pw->lock);
		rpm_suspend_suppliers(dev);
		spin_lock_irq(&pw->lock);
	}
out:
	if (parent) {
		spin_unlock_irq(&pw->lock);
		dmc_device_put(parent);
		spin_lock_irq(&pw->lock);
	}
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

int dmc_rpm_resume(struct dmc_device *dev, int rpmflags)
	__releases(&dev->p->power.lock) __acquires(&dev->p->power.lock)
{
	struct dmc_dev_pm_info *pw = dmc_pw(dev);
	struct dmc_rpm_held held = {};
	struct dmc_device *parent = NULL;
	struct dmc_dev_pm_info *ppw;
	bool walked = false;
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
		walked = true;
		spin_unlock_irq(&pw->lock);
		retval = dmc_rpm_resume_deps(dev, true, &held);
		spin_lock_irq(&pw->lock);
		if (retval)
			goto out;
		goto repeat;
	}

	/*
	 * The parent, read under power.lock as the move writes it, held
	 * (a device reference, so that a move and a deletion of the old
	 * parent while our lock is dropped free nothing we use, and a
	 * usage reference) until the end. A move completed while the lock
	 * was dropped leaves @parent stale: it is let go and the resume
	 * starts over, its dependencies walked again for the new parent,
	 * so that the count goes to the parent @dev has when it becomes
	 * active (a move waits for RESUMING to end: no move from there).
	 */
	if (parent && parent != dev->parent)
		goto reparent;
	if (!parent && dev->parent) {
		parent = dmc_device_get(dev->parent);
		ppw = dmc_pw(parent);
		spin_unlock(&pw->lock);
		dmc_pm_runtime_get_noresume(parent);
		spin_lock(&ppw->lock);
		if (!ppw->disable_depth && !ppw->ignore_children &&
		    ppw->runtime_status != DMC_RPM_ACTIVE)
			retval = -EBUSY;
		spin_unlock(&ppw->lock);
		spin_lock(&pw->lock);
		/* Our walk resumed another parent: moved meanwhile. */
		if (retval && walked && !dmc_rpm_held_has(&held, parent)) {
			retval = 0;
			goto reparent;
		}
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
		dmc_rpm_idle(dev, DMC_RPM_ASYNC);
out:
	if (parent || held.n) {
		spin_unlock_irq(&pw->lock);
		if (parent) {
			dmc_pm_runtime_put(parent);
			dmc_device_put(parent);
		}
		dmc_rpm_held_release(&held);
		spin_lock_irq(&pw->lock);
	}
	return retval;

reparent:
	spin_unlock_irq(&pw->lock);
	dmc_pm_runtime_put(parent);
	dmc_device_put(parent);
	parent = NULL;
	dmc_rpm_held_release(&held);
	spin_lock_irq(&pw->lock);
	/* Our own walk again; a caller's (a walk of its own) is not redone. */
	if (walked)
		rpmflags &= ~DMC_RPM_DEPS_DONE;
	walked = false;
	goto repeat;
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
		dmc_rpm_idle(dev, DMC_RPM_NOWAIT);
		break;
	case DMC_RPM_REQ_SUSPEND:
		rpm_suspend(dev, DMC_RPM_NOWAIT);
		break;
	case DMC_RPM_REQ_AUTOSUSPEND:
		rpm_suspend(dev, DMC_RPM_NOWAIT | DMC_RPM_AUTO);
		break;
	case DMC_RPM_REQ_RESUME:
		dmc_rpm_resume(dev, DMC_RPM_NOWAIT);
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
		retval = dmc_rpm_drop_usage_count(dev);
		if (retval)
			return retval < 0 ? retval : 0;
	}
	might_sleep_if(!(rpmflags & DMC_RPM_ASYNC));
	spin_lock_irqsave(&pw->lock, flags);
	retval = dmc_rpm_idle(dev, rpmflags & ~DMC_RPM_GET_PUT);
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
		retval = dmc_rpm_drop_usage_count(dev);
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
	retval = dmc_rpm_resume(dev, rpmflags & ~DMC_RPM_GET_PUT);
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

/* Cancel requests and the timer, wait for callbacks running; lock held. */
void __dmc_pm_runtime_barrier(struct dmc_device *dev)
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

int dmc_pm_runtime_wq_init(void)
{
	dmc_rpm_wq = alloc_workqueue("dmcore_rpm", WQ_FREEZABLE, 0);
	return dmc_rpm_wq ? 0 : -ENOMEM;
}

void dmc_pm_runtime_wq_exit(void)
{
	destroy_workqueue(dmc_rpm_wq);
}
