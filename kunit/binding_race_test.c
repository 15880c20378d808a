// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore-binding-race: the lifetime of drivers and buses against binding,
 * each case a forced interleaving but the last, a free-running race.
 *
 * A kthread is parked inside a callback (the bus's match, a probe, a
 * remove, an attribute's store, the bus notifier's "add device", a
 * listener's removal of a link) on a completion while another thread unregisters the
 * driver or bus, adds a device or registers a driver; then the callback
 * is let go. The cases check what the contracts promise: an
 * unregistration does not return while a use of its object is under way
 * (an unbind of one of its devices included), so its owner may free it;
 * overlapping unregistrations of one driver run once; a device is never
 * probed before its "add"; a trigger while match decides to defer is not
 * lost; an event never names a freed driver.
 *
 * The world is the suite's own: buses, drivers and devices allocated with
 * kzalloc() and freed by the test (devices by their release), so that a
 * use after an unregistration returned touches freed memory. Names are
 * "br<N>-<name>".
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <dmcore/device.h>
#include "model_util.h"

#define BR_NAME_LEN	32
#define BR_TIMEOUT	(20 * HZ)	/* a job or hook stuck this long is a hang */
#define BR_QUIET_MS	300		/* "does not return while ..." */

/* A one-shot rendezvous inside a callback, keyed by an object. */
struct br_hook {
	const void *key;
	atomic_t fired;
	struct completion in;
	struct completion go;
};

static void br_hook_init(struct br_hook *h)
{
	h->key = NULL;
	atomic_set(&h->fired, 0);
	init_completion(&h->in);
	init_completion(&h->go);
}

static void br_hook_arm(struct br_hook *h, const void *key)
{
	WRITE_ONCE(h->key, key);
}

/* In a callback: the first call for the key stops until the test lets go. */
static bool br_hook_hit(struct br_hook *h, const void *key)
{
	if (!key || READ_ONCE(h->key) != key || atomic_xchg(&h->fired, 1))
		return false;
	complete(&h->in);
	wait_for_completion_timeout(&h->go, BR_TIMEOUT);
	return true;
}

static bool br_hook_reached(struct br_hook *h)
{
	return wait_for_completion_timeout(&h->in, BR_TIMEOUT);
}

static void br_hook_release(struct br_hook *h)
{
	complete_all(&h->go);
}

struct br_world {
	struct kunit *test;
	unsigned int gen;
	struct dmc_bus_type *bus;
	struct br_hook match_hook;	/* in the bus's match, keyed by device */
	int match_hook_ret;		/* what the hooked match returns */
	int match_after_ret;		/* later matches of that device */
	struct br_hook probe_hook;	/* in a probe, keyed by device */
	struct br_hook remove_hook;	/* in a remove, keyed by device */
	struct br_hook store_hook;	/* in a "hold" store, keyed by driver or bus */
	struct br_hook add_hook;	/* in the notifier's ADD_DEVICE, by device */
	struct br_hook unlink_hook;	/* in a listener's link_removed, by directory */
	struct dmc_kobject *unlink_dir;	/* ... of this link */
	const char *unlink_name;
	bool unlink_on;			/* br_unlink_listener registered */
	atomic_t in_add;		/* a device's add is in the notifier */
	atomic_t probed_during_add;	/* probes that ran then */
	struct dmc_driver *refuse_drv;	/* its probe refuses (-ENODEV) */
	atomic_t probes;
	atomic_t removes;
	atomic_t stores_done;		/* "hold" stores that got to the end */
};

static struct br_world *br_w;
static atomic_t br_gen = ATOMIC_INIT(0);

/* ---- the world's objects ---------------------------------------------------- */

static int br_match(struct dmc_device *dev, const struct dmc_driver *drv)
{
	struct br_world *w = br_w;
	int ret = 1;

	if (br_hook_hit(&w->match_hook, dev))
		ret = w->match_hook_ret;
	else if (READ_ONCE(w->match_hook.key) == dev)
		ret = w->match_after_ret;
	/* Use the driver after the wait, as a real match does. */
	if (!strlen(drv->name))
		ret = 0;
	return ret;
}

static int br_probe(struct dmc_device *dev)
{
	struct br_world *w = br_w;

	if (atomic_read(&w->in_add))
		atomic_inc(&w->probed_during_add);
	br_hook_hit(&w->probe_hook, dev);
	atomic_inc(&w->probes);
	/* The driver's memory after the wait, as a real probe uses it. */
	if (!strlen(dev->driver->name))
		return -EINVAL;
	return dev->driver == READ_ONCE(w->refuse_drv) ? -ENODEV : 0;
}

static void br_remove(struct dmc_device *dev)
{
	struct br_world *w = br_w;

	br_hook_hit(&w->remove_hook, dev);
	atomic_inc(&w->removes);
}

/* A driver's own attribute, "hold": its store waits on the store hook. */
static ssize_t br_drv_hold_store(struct dmc_driver *drv, const char *buf,
				 size_t count)
{
	br_hook_hit(&br_w->store_hook, drv);
	if (!strlen(drv->name))	/* the owner's memory, after the wait */
		return -EINVAL;
	atomic_inc(&br_w->stores_done);
	return count;
}

static struct dmc_driver_attribute br_drv_attr_hold = {
	.attr = { .name = "hold", .mode = 0200 },
	.store = br_drv_hold_store,
};

static struct dmc_attribute *br_drv_attrs[] = { &br_drv_attr_hold.attr, NULL };
static const struct dmc_attribute_group br_drv_group = { .attrs = br_drv_attrs };
static const struct dmc_attribute_group *br_drv_groups[] = { &br_drv_group, NULL };

/* A bus's own attribute, "hold", the same for buses. */
static ssize_t br_bus_hold_store(struct dmc_bus_type *bus, const char *buf,
				 size_t count)
{
	br_hook_hit(&br_w->store_hook, bus);
	if (!strlen(bus->name))
		return -EINVAL;
	atomic_inc(&br_w->stores_done);
	return count;
}

static struct dmc_bus_attribute br_bus_attr_hold = {
	.attr = { .name = "hold", .mode = 0200 },
	.store = br_bus_hold_store,
};

static struct dmc_attribute *br_bus_attrs[] = { &br_bus_attr_hold.attr, NULL };
static const struct dmc_attribute_group br_bus_group = { .attrs = br_bus_attrs };
static const struct dmc_attribute_group *br_bus_groups[] = { &br_bus_group, NULL };

struct br_bus {
	struct dmc_bus_type bus;
	char name[BR_NAME_LEN];
};

static struct dmc_bus_type *br_bus_new(struct kunit *test, const char *name)
{
	struct br_bus *b = kzalloc(sizeof(*b), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, b);
	snprintf(b->name, sizeof(b->name), "br%u-%s", br_w->gen, name);
	b->bus.name = b->name;
	b->bus.match = br_match;
	b->bus.bus_groups = br_bus_groups;
	if (dmc_bus_register(&b->bus)) {
		kfree(b);
		KUNIT_FAIL(test, "bus_register %s", name);
		return NULL;
	}
	return &b->bus;
}

/* Unregister (unless done already) and free, as an owner would. */
static void br_bus_free(struct dmc_bus_type *bus)
{
	if (!bus)
		return;
	if (dmc_bus_is_registered(bus))
		dmc_bus_unregister(bus);
	kfree(container_of(bus, struct br_bus, bus));
}

struct br_drv {
	struct dmc_driver drv;
	char name[BR_NAME_LEN];
};

static struct dmc_driver *br_drv_alloc(struct kunit *test, struct dmc_bus_type *bus,
				       const char *name)
{
	struct br_drv *d = kzalloc(sizeof(*d), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, d);
	snprintf(d->name, sizeof(d->name), "br%u-%s", br_w->gen, name);
	d->drv.name = d->name;
	d->drv.bus = bus;
	d->drv.probe = br_probe;
	d->drv.remove = br_remove;
	d->drv.groups = br_drv_groups;
	return &d->drv;
}

static struct dmc_driver *br_drv_new(struct kunit *test, struct dmc_bus_type *bus,
				     const char *name)
{
	struct dmc_driver *drv = br_drv_alloc(test, bus, name);

	if (dmc_driver_register(drv)) {
		kfree(container_of(drv, struct br_drv, drv));
		KUNIT_FAIL(test, "driver_register %s", name);
		return NULL;
	}
	return drv;
}

static void br_drv_free(struct dmc_driver *drv)
{
	if (!drv)
		return;
	dmc_driver_unregister(drv);
	kfree(container_of(drv, struct br_drv, drv));
}

struct br_dev {
	struct dmc_device dev;
	char name[BR_NAME_LEN];
};

static void br_dev_release(struct dmc_device *dev)
{
	kfree(container_of(dev, struct br_dev, dev));
}

/* An initialized device of @bus, not yet added. */
static struct dmc_device *br_dev_alloc(struct kunit *test, struct dmc_bus_type *bus,
				       const char *name)
{
	struct br_dev *d = kzalloc(sizeof(*d), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, d);
	snprintf(d->name, sizeof(d->name), "br%u-%s", br_w->gen, name);
	d->dev.init_name = d->name;
	d->dev.bus = bus;
	d->dev.release = br_dev_release;
	dmc_device_initialize(&d->dev);
	return &d->dev;
}

static struct dmc_device *br_dev_new(struct kunit *test, struct dmc_bus_type *bus,
				     const char *name)
{
	struct dmc_device *dev = br_dev_alloc(test, bus, name);

	if (dmc_device_add(dev)) {
		dmc_device_put(dev);
		KUNIT_FAIL(test, "device_add %s", name);
		return NULL;
	}
	return dev;
}

static struct dmc_driver *br_driver_of(struct dmc_device *dev)
{
	return READ_ONCE(dev->driver);
}

/* ---- jobs: one call in a kthread ---------------------------------------------- */

enum br_op {
	BR_DEV_ATTACH,		/* dmc_device_attach(dev) */
	BR_DEV_ADD,		/* dmc_device_add(dev) */
	BR_DRV_UNREGISTER,	/* dmc_driver_unregister(drv) */
	BR_BUS_UNREGISTER,	/* dmc_bus_unregister(bus) */
	BR_STORE,		/* dmc_kobject_attr_store(kobj, attr, buf) */
	BR_DEV_RELEASE,		/* dmc_device_release_driver(dev) */
};

struct br_job {
	enum br_op op;
	struct completion done;
	struct task_struct *task;
	long ret;
	struct dmc_device *dev;
	struct dmc_driver *drv;
	struct dmc_bus_type *bus;
	struct dmc_kobject *kobj;	/* referenced by the job, as the export does */
	struct dmc_attribute *attr;
	const char *buf;
};

static int br_job_fn(void *data)
{
	struct br_job *j = data;

	switch (j->op) {
	case BR_DEV_ATTACH:
		j->ret = dmc_device_attach(j->dev);
		break;
	case BR_DEV_ADD:
		j->ret = dmc_device_add(j->dev);
		break;
	case BR_DRV_UNREGISTER:
		dmc_driver_unregister(j->drv);
		break;
	case BR_BUS_UNREGISTER:
		dmc_bus_unregister(j->bus);
		break;
	case BR_STORE:
		/* What the export's write does: a reference, then the store. */
		j->ret = dmc_kobject_attr_store(j->kobj, j->attr, j->buf,
						strlen(j->buf));
		dmc_kobject_put(j->kobj);
		break;
	case BR_DEV_RELEASE:
		dmc_device_release_driver(j->dev);
		break;
	}
	complete_all(&j->done);	/* stays done for every later wait */
	return 0;
}

/* A job, started. Freed by br_job_finish(); leaked if it hangs. */
static struct br_job *br_job_start(struct kunit *test, enum br_op op,
				   struct br_job *init)
{
	struct br_job *j = kmemdup(init, sizeof(*init), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, j);
	j->op = op;
	init_completion(&j->done);
	j->task = kthread_create(br_job_fn, j, "br-job%d", op);
	if (IS_ERR(j->task)) {
		KUNIT_FAIL(test, "kthread_create: %ld", PTR_ERR(j->task));
		j->task = NULL;
		br_job_fn(j);	/* run it here instead */
		return j;
	}
	get_task_struct(j->task);
	wake_up_process(j->task);
	return j;
}

/* Has the job returned within @ms? */
static bool br_job_done_within(struct br_job *j, unsigned int ms)
{
	return wait_for_completion_timeout(&j->done, msecs_to_jiffies(ms));
}

/* Wait for the job; its result, or fail the test on a hang. */
static long br_job_finish(struct kunit *test, struct br_job *j)
{
	long ret;

	if (!wait_for_completion_timeout(&j->done, BR_TIMEOUT)) {
		KUNIT_FAIL(test, "job %d hangs", j->op);
		return -ETIMEDOUT;	/* @j stays with the thread */
	}
	ret = j->ret;
	if (j->task)
		put_task_struct(j->task);
	kfree(j);
	return ret;
}

/* Wait until the job's thread sleeps uninterruptibly (blocked on a lock or a wait). */
static bool br_job_blocked(struct br_job *j)
{
	int seen = 0, i;

	if (!j->task)
		return false;
	for (i = 0; i < 500 && seen < 3; i++) {
		if (READ_ONCE(j->task->__state) == TASK_UNINTERRUPTIBLE)
			seen++;
		else
			seen = 0;
		msleep(20);
	}
	return seen >= 3;
}

struct br_find {
	const char *name;
	struct dmc_attribute *attr;
};

static int br_find_fn(struct dmc_kobject *kobj, const struct dmc_attribute_group *grp,
		      void *data)
{
	struct br_find *f = data;
	struct dmc_attribute **a;

	for (a = grp->attrs; a && *a; a++) {
		if (!strcmp((*a)->name, f->name)) {
			f->attr = *a;
			return 1;
		}
	}
	return 0;
}

/* The attribute @name of @kobj, as the export finds it. */
static struct dmc_attribute *br_find_attr(struct dmc_kobject *kobj, const char *name)
{
	struct br_find f = { .name = name };

	dmc_kobject_walk_groups(kobj, &f, br_find_fn);
	return f.attr;
}

/* Start a store of @buf into @kobj's attribute @name, as the export does. */
static struct br_job *br_store_start(struct kunit *test, struct dmc_kobject *kobj,
				     const char *name, const char *buf)
{
	struct br_job init = { .buf = buf };

	init.attr = br_find_attr(kobj, name);
	KUNIT_ASSERT_NOT_NULL(test, init.attr);
	init.kobj = dmc_kobject_get(kobj);
	return br_job_start(test, BR_STORE, &init);
}

/* ---- defect: a driver used after its unregistration returned ------------------ */

/*
 * A device attach is inside the bus's match with driver D when D is
 * unregistered: the unregistration must wait for the match (and the
 * probe it leads to), since D's owner frees D once it returns.
 */
static void br_unregister_waits_for_match_in_attach(struct kunit *test)
{
	struct br_world *w = br_w;
	struct dmc_driver *d;
	struct dmc_device *x;
	struct br_job *att, *unreg;

	dmc_bus_set_autoprobe(w->bus, false);
	d = br_drv_new(test, w->bus, "d");
	x = br_dev_new(test, w->bus, "x");
	KUNIT_ASSERT_TRUE(test, d && x);
	w->match_hook_ret = 1;
	w->match_after_ret = 1;
	br_hook_arm(&w->match_hook, x);

	att = br_job_start(test, BR_DEV_ATTACH, &(struct br_job){ .dev = x });
	KUNIT_ASSERT_TRUE(test, br_hook_reached(&w->match_hook));
	unreg = br_job_start(test, BR_DRV_UNREGISTER, &(struct br_job){ .drv = d });
	KUNIT_EXPECT_FALSE_MSG(test, br_job_done_within(unreg, BR_QUIET_MS),
			       "driver_unregister returned during a match with the driver");
	br_hook_release(&w->match_hook);
	br_job_finish(test, att);
	br_job_finish(test, unreg);

	KUNIT_EXPECT_FALSE(test, dmc_driver_is_registered(d));
	KUNIT_EXPECT_NULL(test, br_driver_of(x));
	KUNIT_EXPECT_EQ(test, atomic_read(&w->probes), atomic_read(&w->removes));
	kfree(container_of(d, struct br_drv, drv));
	dmc_device_unregister(x);
}

/*
 * A device's walk over its bus's drivers left the walk's read side to
 * probe with A, which refuses; meanwhile A (whose probe is under way) and
 * B (the next on the list) are unregistered. A's unregistration waits for
 * the probe; the walk then goes on with the drivers registered after A
 * that are still there (C, which binds), never with B, whose memory the
 * test frees at once, as an owner would.
 */
static void br_walk_resumes_after_driver_left_during_probe(struct kunit *test)
{
	struct br_world *w = br_w;
	struct dmc_driver *a, *b, *c;
	struct br_job *att, *unreg_a;
	struct dmc_device *x;

	dmc_bus_set_autoprobe(w->bus, false);
	a = br_drv_new(test, w->bus, "a");
	b = br_drv_new(test, w->bus, "b");
	c = br_drv_new(test, w->bus, "c");
	x = br_dev_new(test, w->bus, "x");
	KUNIT_ASSERT_TRUE(test, a && b && c && x);
	WRITE_ONCE(w->refuse_drv, a);
	br_hook_arm(&w->probe_hook, x);

	att = br_job_start(test, BR_DEV_ATTACH, &(struct br_job){ .dev = x });
	KUNIT_ASSERT_TRUE(test, br_hook_reached(&w->probe_hook));
	KUNIT_EXPECT_PTR_EQ(test, br_driver_of(x), a);

	/* B is not in use: its unregistration returns at once; free it. */
	br_drv_free(b);
	unreg_a = br_job_start(test, BR_DRV_UNREGISTER, &(struct br_job){ .drv = a });
	KUNIT_EXPECT_FALSE_MSG(test, br_job_done_within(unreg_a, BR_QUIET_MS),
			       "driver_unregister returned during a probe with the driver");
	br_hook_release(&w->probe_hook);
	KUNIT_EXPECT_EQ(test, br_job_finish(test, att), 1);	/* bound */
	br_job_finish(test, unreg_a);

	KUNIT_EXPECT_PTR_EQ(test, br_driver_of(x), c);
	KUNIT_EXPECT_EQ(test, atomic_read(&w->probes), 2);	/* a, then c */
	kfree(container_of(a, struct br_drv, drv));
	dmc_device_unregister(x);
	br_drv_free(c);
}

/*
 * A write to D's "bind" is blocked on the device lock when D is
 * unregistered: the unregistration waits for the store, which then binds
 * (or finds D leaving), and D is unbound again before it returns.
 */
static void br_unregister_waits_for_bind_store(struct kunit *test)
{
	struct br_world *w = br_w;
	struct dmc_driver *d;
	struct dmc_device *x;
	struct br_job *st, *unreg;
	long ret;

	dmc_bus_set_autoprobe(w->bus, false);
	d = br_drv_new(test, w->bus, "d");
	x = br_dev_new(test, w->bus, "x");
	KUNIT_ASSERT_TRUE(test, d && x);

	dmc_device_lock(x);
	st = br_store_start(test, dmc_driver_kobj(d), "bind", dmc_dev_name(x));
	KUNIT_EXPECT_TRUE(test, br_job_blocked(st));
	unreg = br_job_start(test, BR_DRV_UNREGISTER, &(struct br_job){ .drv = d });
	KUNIT_EXPECT_FALSE_MSG(test, br_job_done_within(unreg, BR_QUIET_MS),
			       "driver_unregister returned during a store to its bind file");
	dmc_device_unlock(x);
	ret = br_job_finish(test, st);
	br_job_finish(test, unreg);

	/* bound then unbound by the unregistration, or refused: never left bound */
	KUNIT_EXPECT_TRUE(test, ret == (long)strlen(dmc_dev_name(x)) || ret == -ENODEV);
	KUNIT_EXPECT_NULL(test, br_driver_of(x));
	KUNIT_EXPECT_EQ(test, atomic_read(&w->probes), atomic_read(&w->removes));
	kfree(container_of(d, struct br_drv, drv));
	dmc_device_unregister(x);
}

/*
 * A store to one of D's own attributes (callbacks in its owner's module)
 * is under way when D is unregistered: the unregistration waits for it.
 */
static void br_unregister_waits_for_driver_attr_store(struct kunit *test)
{
	struct br_world *w = br_w;
	struct dmc_driver *d = br_drv_new(test, w->bus, "d");
	struct br_job *st, *unreg;

	KUNIT_ASSERT_NOT_NULL(test, d);
	br_hook_arm(&w->store_hook, d);
	st = br_store_start(test, dmc_driver_kobj(d), "hold", "1\n");
	KUNIT_ASSERT_TRUE(test, br_hook_reached(&w->store_hook));
	unreg = br_job_start(test, BR_DRV_UNREGISTER, &(struct br_job){ .drv = d });
	KUNIT_EXPECT_FALSE_MSG(test, br_job_done_within(unreg, BR_QUIET_MS),
			       "driver_unregister returned during a store to its attribute");
	br_hook_release(&w->store_hook);
	KUNIT_EXPECT_EQ(test, br_job_finish(test, st), 2L);
	br_job_finish(test, unreg);
	KUNIT_EXPECT_EQ(test, atomic_read(&w->stores_done), 1);
	kfree(container_of(d, struct br_drv, drv));
}

/*
 * A store to D's "uevent" after D's unregistration began (the export
 * still holds the kobject): -ENODEV, no event, no crash.
 */
static void br_driver_uevent_store_after_unregister_fails(struct kunit *test)
{
	struct br_world *w = br_w;
	struct dmc_driver *d = br_drv_new(test, w->bus, "d");
	struct dmc_attribute *attr;
	struct dmc_kobject *k;

	KUNIT_ASSERT_NOT_NULL(test, d);
	k = dmc_kobject_get(dmc_driver_kobj(d));
	attr = br_find_attr(k, "uevent");
	KUNIT_ASSERT_NOT_NULL(test, attr);
	dmc_driver_unregister(d);
	KUNIT_EXPECT_EQ(test, dmc_kobject_attr_store(k, attr, "change\n", 7), -ENODEV);
	dmc_kobject_put(k);
	kfree(container_of(d, struct br_drv, drv));
}

/*
 * A store to one of the bus's own attributes is under way when the bus
 * is unregistered (control's "bus del", or its module's exit): the
 * unregistration waits for it, then the owner frees the bus.
 */
static void br_bus_unregister_waits_for_bus_attr_store(struct kunit *test)
{
	struct br_world *w = br_w;
	struct dmc_bus_type *bus = br_bus_new(test, "b2");
	struct br_job *st, *unreg;
	struct dmc_kobject *k;

	KUNIT_ASSERT_NOT_NULL(test, bus);
	k = dmm_bus_kobj(bus->name);
	KUNIT_ASSERT_NOT_NULL(test, k);
	br_hook_arm(&w->store_hook, bus);
	st = br_store_start(test, k, "hold", "1\n");
	dmc_kobject_put(k);
	KUNIT_ASSERT_TRUE(test, br_hook_reached(&w->store_hook));
	unreg = br_job_start(test, BR_BUS_UNREGISTER, &(struct br_job){ .bus = bus });
	KUNIT_EXPECT_FALSE_MSG(test, br_job_done_within(unreg, BR_QUIET_MS),
			       "bus_unregister returned during a store to its attribute");
	br_hook_release(&w->store_hook);
	KUNIT_EXPECT_EQ(test, br_job_finish(test, st), 2L);
	br_job_finish(test, unreg);
	KUNIT_EXPECT_EQ(test, atomic_read(&w->stores_done), 1);
	br_bus_free(bus);
}

/*
 * A store to the bus's "drivers_probe" after its unregistration began:
 * -ENODEV, no crash.
 */
static void br_bus_store_after_unregister_fails(struct kunit *test)
{
	struct dmc_bus_type *bus = br_bus_new(test, "b2");
	struct dmc_attribute *attr;
	struct dmc_kobject *k;

	KUNIT_ASSERT_NOT_NULL(test, bus);
	k = dmm_bus_kobj(bus->name);
	KUNIT_ASSERT_NOT_NULL(test, k);
	attr = br_find_attr(k, "uevent");
	KUNIT_ASSERT_NOT_NULL(test, attr);
	dmc_bus_unregister(bus);
	KUNIT_EXPECT_EQ(test, dmc_kobject_attr_store(k, attr, "change\n", 7), -ENODEV);
	dmc_kobject_put(k);
	br_bus_free(bus);
}

/* ---- defect: overlapping unregistrations of one driver ------------------------ */

/*
 * D's unregistration is in D's remove of X when a second unregistration
 * of D starts: the second waits for the first and neither repeats its
 * work (one remove, one put of the driver's directory).
 */
static void br_two_driver_unregisters_overlap(struct kunit *test)
{
	struct br_world *w = br_w;
	struct dmc_driver *d = br_drv_new(test, w->bus, "d");
	struct dmc_device *x = br_dev_new(test, w->bus, "x");
	struct br_job *u1, *u2;

	KUNIT_ASSERT_TRUE(test, d && x);
	KUNIT_ASSERT_PTR_EQ(test, br_driver_of(x), d);
	br_hook_arm(&w->remove_hook, x);
	u1 = br_job_start(test, BR_DRV_UNREGISTER, &(struct br_job){ .drv = d });
	KUNIT_ASSERT_TRUE(test, br_hook_reached(&w->remove_hook));
	u2 = br_job_start(test, BR_DRV_UNREGISTER, &(struct br_job){ .drv = d });
	KUNIT_EXPECT_FALSE_MSG(test, br_job_done_within(u2, BR_QUIET_MS),
			       "a second driver_unregister returned before the first was done");
	br_hook_release(&w->remove_hook);
	br_job_finish(test, u1);
	br_job_finish(test, u2);

	KUNIT_EXPECT_EQ(test, atomic_read(&w->removes), 1);
	KUNIT_EXPECT_FALSE(test, dmc_driver_is_registered(d));
	KUNIT_EXPECT_NULL(test, dmc_bus_find_driver(w->bus, d->name));
	kfree(container_of(d, struct br_drv, drv));
	dmc_device_unregister(x);
}

/*
 * The bus's unregistration and D's owner's unregistration both pass the
 * "registered?" check and then wait for an asynchronous probe pending on
 * another bus; when it ends, D is removed once, and both return.
 */
static void br_bus_and_driver_unregister_overlap_with_probe_pending(struct kunit *test)
{
	struct br_world *w = br_w;
	struct dmc_bus_type *bus2;
	struct dmc_driver *d, *e;
	struct dmc_device *z;
	struct br_job *ub, *ud;

	bus2 = br_bus_new(test, "b2");
	KUNIT_ASSERT_NOT_NULL(test, bus2);
	d = br_drv_new(test, w->bus, "d");
	e = br_drv_alloc(test, bus2, "e");
	e->probe_type = DMC_PROBE_PREFER_ASYNCHRONOUS;
	KUNIT_ASSERT_EQ(test, dmc_driver_register(e), 0);
	z = br_dev_alloc(test, bus2, "z");
	br_hook_arm(&w->probe_hook, z);
	KUNIT_ASSERT_EQ(test, dmc_device_add(z), 0);
	KUNIT_ASSERT_TRUE(test, br_hook_reached(&w->probe_hook));

	ub = br_job_start(test, BR_BUS_UNREGISTER, &(struct br_job){ .bus = w->bus });
	KUNIT_EXPECT_TRUE(test, br_job_blocked(ub));
	ud = br_job_start(test, BR_DRV_UNREGISTER, &(struct br_job){ .drv = d });
	KUNIT_EXPECT_TRUE(test, br_job_blocked(ud));
	br_hook_release(&w->probe_hook);
	br_job_finish(test, ub);
	br_job_finish(test, ud);

	KUNIT_EXPECT_FALSE(test, dmc_driver_is_registered(d));
	KUNIT_EXPECT_FALSE(test, dmc_bus_is_registered(w->bus));
	kfree(container_of(d, struct br_drv, drv));
	dmc_device_unregister(z);
	br_drv_free(e);
	br_bus_free(bus2);
}

/* ---- defect: an unbind still under way when its driver's unregistration returned -- */

/* A listener parking the removal of one link, under the tree mutex. */
static void br_link_removed(struct dmc_listener *l, struct dmc_kobject *kobj,
			    const char *name)
{
	struct br_world *w = br_w;

	if (kobj == READ_ONCE(w->unlink_dir) && !strcmp(name, w->unlink_name))
		br_hook_hit(&w->unlink_hook, kobj);
}

static struct dmc_listener br_unlink_listener = {
	.link_removed = br_link_removed,
};

/*
 * X is being unbound from D by a thread of its own (the "unbind" file,
 * dmc_device_release_driver()): it has left D's list of devices and is
 * withdrawing D's link to it (parked in a listener) when D is
 * unregistered. The unregistration's walk over D's devices no longer
 * sees X, yet it must wait for that unbind, which still uses D's private
 * part and X's pointer to D, before it forgets D (D stays registered)
 * and returns (its owner then frees D; an event on X read D's name
 * through that pointer: the torture run's use-after-free).
 */
static void br_unregister_waits_for_unbind_in_flight(struct kunit *test)
{
	struct br_world *w = br_w;
	struct dmc_driver *d = br_drv_new(test, w->bus, "d");
	struct dmc_device *x = br_dev_new(test, w->bus, "x");
	struct br_job *rel, *unreg;

	KUNIT_ASSERT_TRUE(test, d && x);
	KUNIT_ASSERT_PTR_EQ(test, br_driver_of(x), d);
	w->unlink_dir = dmc_driver_kobj(d);
	w->unlink_name = dmc_dev_name(x);
	KUNIT_ASSERT_EQ(test, dmc_listener_register(&br_unlink_listener), 0);
	w->unlink_on = true;
	br_hook_arm(&w->unlink_hook, w->unlink_dir);
	rel = br_job_start(test, BR_DEV_RELEASE, &(struct br_job){ .dev = x });
	KUNIT_ASSERT_TRUE(test, br_hook_reached(&w->unlink_hook));
	KUNIT_EXPECT_EQ(test, dmc_driver_device_count(d), 0U);

	unreg = br_job_start(test, BR_DRV_UNREGISTER, &(struct br_job){ .drv = d });
	KUNIT_EXPECT_FALSE_MSG(test, br_job_done_within(unreg, BR_QUIET_MS),
			       "driver_unregister returned while a device's unbind from it was under way");
	KUNIT_EXPECT_TRUE(test, br_job_blocked(unreg));
	KUNIT_EXPECT_TRUE_MSG(test, dmc_driver_is_registered(d),
			      "driver_unregister forgot the driver while a device's unbind from it was under way");
	br_hook_release(&w->unlink_hook);
	br_job_finish(test, rel);
	br_job_finish(test, unreg);
	dmc_listener_unregister(&br_unlink_listener);
	w->unlink_on = false;

	KUNIT_EXPECT_NULL(test, br_driver_of(x));
	KUNIT_EXPECT_EQ(test, atomic_read(&w->removes), 1);
	KUNIT_EXPECT_FALSE(test, dmc_driver_is_registered(d));
	memset(d, 0x6b, sizeof(*d));	/* the owner frees it now */
	kfree(container_of(d, struct br_drv, drv));
	dmc_device_unregister(x);
}

/*
 * The same three-way race run freely, as the torture met it: one thread
 * registers a driver (which binds X), unregisters it and frees it
 * (poisoned), over and over; one unbinds X and binds it again; one reads
 * X's event variables, whose DRIVER= names X's driver without the device
 * lock. A driver read from X after its owner freed it shows as a KASAN
 * report or as a DRIVER= that is not one of the suite's names.
 */
#define BR_RACE_ROUNDS	150

struct br_race {
	struct br_world *w;
	struct dmc_device *x;
	bool stop;
	atomic_t bad, seen, rounds;
	char bad_var[64];
	struct completion done[2];
};

static int br_race_unbinder(void *data)
{
	struct br_race *r = data;

	while (!READ_ONCE(r->stop)) {
		dmc_device_release_driver(r->x);
		dmc_device_attach(r->x);
		cond_resched();
	}
	complete(&r->done[0]);
	return 0;
}

static int br_race_reader(void *data)
{
	struct br_race *r = data;
	char prefix[16], vars[256], *v;

	snprintf(prefix, sizeof(prefix), "DRIVER=br%u-", r->w->gen);
	while (!READ_ONCE(r->stop)) {
		cond_resched();
		if (dmc_kobject_uevent_vars(&r->x->kobj, vars, sizeof(vars)) < 0)
			continue;
		v = strstr(vars, "DRIVER=");
		if (!v)
			continue;
		atomic_inc(&r->seen);
		if (strncmp(v, prefix, strlen(prefix)) &&
		    atomic_inc_return(&r->bad) == 1)
			strscpy(r->bad_var, v, sizeof(r->bad_var));
	}
	complete(&r->done[1]);
	return 0;
}

static void br_driver_event_races_unbind_and_unregister(struct kunit *test)
{
	struct br_world *w = br_w;
	struct task_struct *t[2];
	struct dmc_driver *d;
	struct br_race *r;
	int i;

	/* Not test-managed: a thread that hangs keeps it (leaked, not freed). */
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	r->w = w;
	r->x = br_dev_new(test, w->bus, "x");
	if (!r->x) {
		kfree(r);
		return;
	}
	init_completion(&r->done[0]);
	init_completion(&r->done[1]);
	t[0] = kthread_run(br_race_unbinder, r, "br-unbinder");
	t[1] = IS_ERR(t[0]) ? t[0] : kthread_run(br_race_reader, r, "br-reader");
	if (IS_ERR(t[1])) {
		WRITE_ONCE(r->stop, true);
		if (!IS_ERR(t[0]))
			wait_for_completion(&r->done[0]);
		dmc_device_unregister(r->x);
		kfree(r);
		KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t[1]));
		return;
	}
	for (i = 0; i < BR_RACE_ROUNDS; i++) {
		d = br_drv_alloc(test, w->bus, "d");
		if (!dmc_driver_register(d))
			dmc_driver_unregister(d);
		memset(d, 0x6b, sizeof(*d));
		kfree(container_of(d, struct br_drv, drv));
		cond_resched();
	}
	WRITE_ONCE(r->stop, true);
	for (i = 0; i < 2; i++) {
		if (!wait_for_completion_timeout(&r->done[i], BR_TIMEOUT)) {
			KUNIT_FAIL(test, "race thread %d hangs", i);
			return;	/* @r and X stay with it */
		}
	}

	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&r->bad), 0,
			    "an event named a freed driver: '%s'", r->bad_var);
	KUNIT_EXPECT_GT_MSG(test, atomic_read(&r->seen), 0,
			    "the reader never saw X bound: the race did not run");
	KUNIT_EXPECT_NULL(test, br_driver_of(r->x));
	dmc_device_unregister(r->x);
	kfree(r);
}

/* ---- defect: a device probed before its add ------------------------------------ */

static int br_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	struct br_world *w = br_w;

	if (action != DMC_BUS_NOTIFY_ADD_DEVICE || READ_ONCE(w->add_hook.key) != data)
		return NOTIFY_DONE;
	atomic_set(&w->in_add, 1);
	br_hook_hit(&w->add_hook, data);
	atomic_set(&w->in_add, 0);
	return NOTIFY_DONE;
}

/*
 * X is on its bus and inside dmc_device_add() (the bus notifier's "add
 * device", before "add" is sent) when a matching driver registers: the
 * driver must not probe X then; X binds once its add offers it.
 */
static void br_driver_register_does_not_probe_device_being_added(struct kunit *test)
{
	struct br_world *w = br_w;
	struct notifier_block nb = { .notifier_call = br_notify };
	struct dmc_driver *d = NULL;
	struct dmc_device *x;
	struct br_job *add;

	KUNIT_ASSERT_EQ(test, dmc_bus_register_notifier(w->bus, &nb), 0);
	x = br_dev_alloc(test, w->bus, "x");
	br_hook_arm(&w->add_hook, x);
	add = br_job_start(test, BR_DEV_ADD, &(struct br_job){ .dev = x });
	if (br_hook_reached(&w->add_hook))
		d = br_drv_new(test, w->bus, "d");
	else
		KUNIT_FAIL(test, "the add never reached the notifier");
	br_hook_release(&w->add_hook);
	KUNIT_EXPECT_EQ(test, br_job_finish(test, add), 0L);

	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&w->probed_during_add), 0,
			    "a device was probed before its add was done");
	KUNIT_EXPECT_PTR_EQ(test, br_driver_of(x), d);
	dmc_bus_unregister_notifier(w->bus, &nb);
	dmc_device_unregister(x);
	br_drv_free(d);
}

/*
 * X is inside dmc_device_add() (as above) on a bus with autoprobe off,
 * and a user writes X's name to the driver's "bind" and to the bus's
 * "drivers_probe": neither may probe X before its add is done. Once it
 * is, "bind" binds it.
 */
static void br_bind_files_do_not_probe_device_being_added(struct kunit *test)
{
	struct br_world *w = br_w;
	struct notifier_block nb = { .notifier_call = br_notify };
	struct dmc_kobject *bk;
	struct dmc_driver *d;
	struct dmc_device *x;
	struct br_job *add;
	long ret;

	dmc_bus_set_autoprobe(w->bus, false);
	d = br_drv_new(test, w->bus, "d");
	bk = dmm_bus_kobj(w->bus->name);
	KUNIT_ASSERT_TRUE(test, d && bk);
	KUNIT_ASSERT_EQ(test, dmc_bus_register_notifier(w->bus, &nb), 0);
	x = br_dev_alloc(test, w->bus, "x");
	br_hook_arm(&w->add_hook, x);
	add = br_job_start(test, BR_DEV_ADD, &(struct br_job){ .dev = x });
	if (br_hook_reached(&w->add_hook)) {
		ret = br_job_finish(test, br_store_start(test, dmc_driver_kobj(d), "bind",
							 dmc_dev_name(x)));
		KUNIT_EXPECT_EQ(test, ret, (long)-ENODEV);
		ret = br_job_finish(test, br_store_start(test, bk, "drivers_probe",
							 dmc_dev_name(x)));
		KUNIT_EXPECT_EQ(test, ret, (long)-ENODEV);
	} else {
		KUNIT_FAIL(test, "the add never reached the notifier");
	}
	br_hook_release(&w->add_hook);
	KUNIT_EXPECT_EQ(test, br_job_finish(test, add), 0L);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&w->probed_during_add), 0,
			    "a device was probed before its add was done");
	KUNIT_EXPECT_NULL(test, br_driver_of(x));

	ret = br_job_finish(test, br_store_start(test, dmc_driver_kobj(d), "bind",
						 dmc_dev_name(x)));
	KUNIT_EXPECT_EQ(test, ret, (long)strlen(dmc_dev_name(x)));
	KUNIT_EXPECT_PTR_EQ(test, br_driver_of(x), d);
	dmc_kobject_put(bk);
	dmc_bus_unregister_notifier(w->bus, &nb);
	dmc_device_unregister(x);
	br_drv_free(d);
}

/* ---- defect: a trigger while match decides to defer ------------------------------ */

/*
 * X's match says "defer" while, during that match, another device binds
 * (a trigger for every unnamed deferral). The deferral must not wait for
 * a trigger that already fired: X is retried and binds.
 */
static void br_match_defer_does_not_lose_a_trigger(struct kunit *test)
{
	struct br_world *w = br_w;
	struct dmc_driver *d;
	struct dmc_device *x, *y;
	struct br_job *att;

	dmc_bus_set_autoprobe(w->bus, false);
	d = br_drv_new(test, w->bus, "d");
	x = br_dev_new(test, w->bus, "x");
	y = br_dev_new(test, w->bus, "y");
	KUNIT_ASSERT_TRUE(test, d && x && y);
	w->match_hook_ret = -EPROBE_DEFER;
	w->match_after_ret = 1;
	br_hook_arm(&w->match_hook, x);

	att = br_job_start(test, BR_DEV_ATTACH, &(struct br_job){ .dev = x });
	KUNIT_ASSERT_TRUE(test, br_hook_reached(&w->match_hook));
	KUNIT_EXPECT_EQ(test, dmc_device_attach(y), 1);	/* the trigger */
	br_hook_release(&w->match_hook);
	KUNIT_EXPECT_EQ(test, br_job_finish(test, att), (long)-EPROBE_DEFER);
	dmc_wait_for_device_probe();

	KUNIT_EXPECT_PTR_EQ_MSG(test, br_driver_of(x), d,
				"the deferral missed a trigger fired during match");
	KUNIT_EXPECT_FALSE(test, dmc_device_is_deferred(x));
	dmc_device_unregister(x);
	dmc_device_unregister(y);
	br_drv_free(d);
}

/* ---- suite ------------------------------------------------------------------------- */

static int br_init(struct kunit *test)
{
	struct br_world *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);

	if (!w)
		return -ENOMEM;
	w->test = test;
	w->gen = atomic_inc_return(&br_gen);
	br_hook_init(&w->match_hook);
	br_hook_init(&w->probe_hook);
	br_hook_init(&w->remove_hook);
	br_hook_init(&w->store_hook);
	br_hook_init(&w->add_hook);
	br_hook_init(&w->unlink_hook);
	br_w = w;
	w->bus = br_bus_new(test, "bus");
	return w->bus ? 0 : -ENODEV;
}

static void br_exit(struct kunit *test)
{
	struct br_world *w = br_w;

	/* Let any callback a failed case left parked go. */
	br_hook_release(&w->match_hook);
	br_hook_release(&w->probe_hook);
	br_hook_release(&w->remove_hook);
	br_hook_release(&w->store_hook);
	br_hook_release(&w->add_hook);
	br_hook_release(&w->unlink_hook);
	if (w->unlink_on)
		dmc_listener_unregister(&br_unlink_listener);
	dmc_wait_for_device_probe();
	br_bus_free(w->bus);
}

static struct kunit_case br_test_cases[] = {
	KUNIT_CASE(br_unregister_waits_for_match_in_attach),
	KUNIT_CASE(br_walk_resumes_after_driver_left_during_probe),
	KUNIT_CASE(br_unregister_waits_for_bind_store),
	KUNIT_CASE(br_unregister_waits_for_driver_attr_store),
	KUNIT_CASE(br_driver_uevent_store_after_unregister_fails),
	KUNIT_CASE(br_bus_unregister_waits_for_bus_attr_store),
	KUNIT_CASE(br_bus_store_after_unregister_fails),
	KUNIT_CASE(br_driver_register_does_not_probe_device_being_added),
	KUNIT_CASE(br_bind_files_do_not_probe_device_being_added),
	KUNIT_CASE(br_match_defer_does_not_lose_a_trigger),
	KUNIT_CASE(br_two_driver_unregisters_overlap),
	KUNIT_CASE(br_bus_and_driver_unregister_overlap_with_probe_pending),
	KUNIT_CASE(br_unregister_waits_for_unbind_in_flight),
	KUNIT_CASE(br_driver_event_races_unbind_and_unregister),
	{}
};

static struct kunit_suite br_test_suite = {
	.name = "dmcore-binding-race",
	.init = br_init,
	.exit = br_exit,
	.test_cases = br_test_cases,
};

kunit_test_suites(&br_test_suite);
