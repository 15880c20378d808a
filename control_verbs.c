// SPDX-License-Identifier: GPL-2.0
/*
 * Running control commands, and the verbs on buses, classes, drivers and
 * power: dmc_control_exec() takes one write, has control.c check and parse
 * it, and runs its verb under dmc_control_mutex, which a verb lets go of
 * around every core call that runs a callback (see "Locking" at the top
 * of control.c). Control's buses, classes and drivers live here with
 * their callbacks (match, probe, suspend, resume); devices and links are
 * control_devices.c's. dmc_control_exit() takes everything down. No
 * counterpart in drivers/base (configfs, loosely).
 */

#define pr_fmt(fmt) "dmcore: control: " fmt

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/glob.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/wait_bit.h>

#include "base.h"
#include "clients.h"
#include "control.h"

/* Commands under way, for dmc_control_exit() to wait for. */
static atomic_t dmc_ctl_active = ATOMIC_INIT(0);
/* Not yet set up, or torn down: commands fail with -ENODEV. */
static bool dmc_ctl_dead = true;

/* Control's drivers, under dmc_control_mutex. */
static LIST_HEAD(dmc_ctl_drivers);

/* A driver; everything but @probes is fixed once registered. */
struct dmc_ctl_driver {
	struct dmc_driver drv;
	struct list_head node;		/* in dmc_ctl_drivers */
	bool busy;			/* being registered or unregistered */
	enum dmc_ctl_probe_mode probe_mode;
	int probe_err;			/* negative, DMC_CTL_PROBE_FAIL */
	int suspend_err;		/* 0 or negative */
	unsigned int delay_ms;
	atomic_t probes;		/* probe calls so far */
	char name[DMC_NAME_MAX + 1];
	char glob[DMC_NAME_MAX + 1];
	char waits_for[DMC_NAME_MAX + 1];
};

static inline struct dmc_ctl_driver *to_ctl_driver(const struct dmc_driver *drv)
{
	return container_of(drv, struct dmc_ctl_driver, drv);
}

/* ---- callbacks: match, probe, power ------------------------------------ */

static int dmc_ctl_probe(struct dmc_device *dev);

static bool dmc_ctl_is_ctl_driver(const struct dmc_driver *drv)
{
	return drv->probe == dmc_ctl_probe;
}

/*
 * A control bus's match: a control driver's glob on the device's name. A
 * module's driver put on a control bus gets the module's devices there,
 * never control's (it may take them for its own type).
 */
static int dmc_ctl_match(struct dmc_device *dev, const struct dmc_driver *drv)
{
	if (!dmc_ctl_is_ctl_driver(drv))
		return !dmc_ctl_is_ctl_device(dev);
	return glob_match(to_ctl_driver(drv)->glob, dmc_dev_name(dev));
}

/* Is a device called @name on @bus, and bound? */
static bool dmc_ctl_bound_on(struct dmc_bus_type *bus, const char *name)
{
	struct dmc_device *dev;
	bool bound;

	dev = dmc_bus_find_device_by_name(bus, name);
	if (!dev)
		return false;
	bound = dmc_device_is_bound(dev);
	dmc_device_put(dev);
	return bound;
}

/*
 * May a probe waiting for @name go on? Called from a probe: takes only
 * dmc_ctl_buses_lock, never dmc_control_mutex.
 */
static bool dmc_ctl_available(struct dmc_device *dev, const char *name)
{
	struct dmc_ctl_bus *cb;
	bool found = false;

	if (dmc_bus_find_driver(dev->bus, name))
		return true;
	mutex_lock(&dmc_ctl_buses_lock);
	list_for_each_entry(cb, &dmc_ctl_buses, node) {
		if (!cb->deleting && dmc_ctl_bound_on(&cb->bus, name)) {
			found = true;
			break;
		}
	}
	mutex_unlock(&dmc_ctl_buses_lock);
	return found;
}

static int dmc_ctl_probe(struct dmc_device *dev)
{
	struct dmc_ctl_driver *cd = to_ctl_driver(dev->driver);

	atomic_inc(&cd->probes);
	if (cd->delay_ms)
		msleep(cd->delay_ms);
	switch (cd->probe_mode) {
	case DMC_CTL_PROBE_FAIL:
		return cd->probe_err;
	case DMC_CTL_PROBE_DEFER:
		if (dmc_ctl_available(dev, cd->waits_for))
			return 0;
		/* Named, and said why: the tree's devices_deferred shows both. */
		return dmc_dev_err_probe(dev, dmc_probe_defer(dev, cd->waits_for),
					 "%s is not bound yet\n", cd->waits_for);
	default:
		return 0;
	}
}

static int dmc_ctl_suspend(struct dmc_device *dev)
{
	return to_ctl_driver(dev->driver)->suspend_err;
}

static int dmc_ctl_resume(struct dmc_device *dev)
{
	return 0;
}

/* ---- control's drivers ------------------------------------------------- */

/* "@cmd NAME" found its object busy with another command. */
static int dmc_ctl_busy(const char *cmd, const char *what, const char *name)
{
	pr_err_ratelimited("%s: %s '%s' is being added or deleted by another command\n",
			   cmd, what, name);
	return -EBUSY;
}

static struct dmc_ctl_driver *dmc_ctl_find_driver(const char *name)
{
	struct dmc_ctl_driver *cd;

	list_for_each_entry(cd, &dmc_ctl_drivers, node)
		if (!strcmp(cd->name, name))
			return cd;
	return NULL;
}

/* Is there a driver called @name on any registered bus? */
static bool dmc_ctl_driver_exists(const char *name)
{
	struct dmc_kset_iter it;
	struct dmc_kobject *kobj;
	struct dmc_bus_type *bus;
	bool found = false;

	dmc_kset_iter_start(dmc_bus_kset, &it);
	while (!found && (kobj = dmc_kset_iter_next(&it))) {
		bus = READ_ONCE(to_subsys_private(kobj)->bus);
		found = bus && dmc_bus_find_driver(bus, name);
	}
	dmc_kset_iter_exit(&it);
	return found;
}

/* ---- bus and class ---------------------------------------------------------- */

/* A hotplug bus's online and offline: nothing to do, always possible. */
static int dmc_ctl_bus_online(struct dmc_device *dev)
{
	return 0;
}

static int dmc_ctl_bus_offline(struct dmc_device *dev)
{
	return 0;
}

static int dmc_ctl_bus_add(const struct dmc_ctl_args *a)
{
	const char *name = a->arg[0];
	struct dmc_ctl_bus *cb;
	int err;

	if (dmc_ctl_find_bus(name)) {
		pr_err_ratelimited("bus add: bus '%s' exists already\n", name);
		return -EEXIST;
	}
	cb = kzalloc(struct_size(cb, name, strlen(name) + 1), GFP_KERNEL);
	if (!cb)
		return -ENOMEM;
	strcpy(cb->name, name);
	cb->bus.name = cb->name;
	cb->bus.match = dmc_ctl_match;
	if (a->seen & DMC_CTL_OPT_HOTPLUG) {
		cb->bus.online = dmc_ctl_bus_online;
		cb->bus.offline = dmc_ctl_bus_offline;
	}
	err = dmc_bus_register(&cb->bus);
	if (err) {
		/* A failed registration leaves the core no pointer to @cb. */
		kfree(cb);
		if (err == -EEXIST)
			pr_err_ratelimited("bus add: bus '%s' exists already\n", name);
		else
			pr_err_ratelimited("bus add: cannot register bus '%s': %d\n",
					   name, err);
		return err;
	}
	mutex_lock(&dmc_ctl_buses_lock);
	list_add_tail(&cb->node, &dmc_ctl_buses);
	mutex_unlock(&dmc_ctl_buses_lock);
	return 0;
}

/*
 * Unregister and free a control bus. dmc_bus_unregister() returns once the
 * bus is out of the model; the core keeps no pointer to the bus_type after
 * that (bus->p and priv->bus are cleared, the private part outlives it on
 * its own kobject), so the name and structure can go.
 */
static void dmc_ctl_bus_free(struct dmc_ctl_bus *cb)
{
	mutex_lock(&dmc_ctl_buses_lock);
	cb->deleting = true;	/* probes no longer look at it */
	mutex_unlock(&dmc_ctl_buses_lock);
	/* May remove a module's devices or drivers there: unlocked. */
	dmc_ctl_unlock();
	dmc_bus_unregister(&cb->bus);
	dmc_ctl_relock();
	mutex_lock(&dmc_ctl_buses_lock);
	list_del(&cb->node);
	mutex_unlock(&dmc_ctl_buses_lock);
	kfree(cb);
}

static int dmc_ctl_bus_del(const struct dmc_ctl_args *a)
{
	const char *name = a->arg[0];
	char user[DMC_NAME_MAX + 1];
	struct dmc_ctl_driver *cd;
	struct dmc_ctl_bus *cb;

	cb = dmc_ctl_find_bus(name);
	if (cb && cb->deleting)
		return dmc_ctl_busy("bus del", "bus", name);
	if (!cb) {
		if (dmc_bus_find(name)) {
			pr_err_ratelimited("bus del: bus '%s' was not made by control\n",
					   name);
			return -EPERM;
		}
		pr_err_ratelimited("bus del: unknown bus '%s'\n", name);
		return -ENOENT;
	}
	list_for_each_entry(cd, &dmc_ctl_drivers, node) {
		if (cd->drv.bus == &cb->bus) {
			pr_err_ratelimited("bus del: bus '%s' still has driver '%s'\n",
					   name, cd->name);
			return -EBUSY;
		}
	}
	if (dmc_ctl_devices_use(&cb->bus, NULL, user, sizeof(user))) {
		pr_err_ratelimited("bus del: bus '%s' still has device '%s'\n",
				   name, user);
		return -EBUSY;
	}
	dmc_ctl_bus_free(cb);
	return 0;
}

static int dmc_ctl_class_add(const struct dmc_ctl_args *a)
{
	const char *name = a->arg[0];
	struct dmc_ctl_class *cc;
	int err;

	if (dmc_ctl_find_class(name)) {
		pr_err_ratelimited("class add: class '%s' exists already\n", name);
		return -EEXIST;
	}
	cc = kzalloc(struct_size(cc, name, strlen(name) + 1), GFP_KERNEL);
	if (!cc)
		return -ENOMEM;
	strcpy(cc->name, name);
	cc->cls.name = cc->name;
	err = dmc_class_register(&cc->cls);
	if (err) {
		kfree(cc);
		if (err == -EEXIST)
			pr_err_ratelimited("class add: class '%s' exists already\n", name);
		else
			pr_err_ratelimited("class add: cannot register class '%s': %d\n",
					   name, err);
		return err;
	}
	list_add_tail(&cc->node, &dmc_ctl_classes);
	return 0;
}

/*
 * As for buses: the core forgets the dmc_class once unregistered. A
 * module's class interface may be called: unlocked meanwhile.
 */
static void dmc_ctl_class_free(struct dmc_ctl_class *cc)
{
	cc->deleting = true;
	dmc_ctl_unlock();
	dmc_class_unregister(&cc->cls);
	dmc_ctl_relock();
	list_del(&cc->node);
	kfree(cc);
}

static int dmc_ctl_class_del(const struct dmc_ctl_args *a)
{
	const char *name = a->arg[0];
	char user[DMC_NAME_MAX + 1];
	struct dmc_ctl_class *cc;

	cc = dmc_ctl_find_class(name);
	if (cc && cc->deleting)
		return dmc_ctl_busy("class del", "class", name);
	if (!cc) {
		if (dmc_ctl_class_exists(name)) {
			pr_err_ratelimited("class del: class '%s' was not made by control\n",
					   name);
			return -EPERM;
		}
		pr_err_ratelimited("class del: unknown class '%s'\n", name);
		return -ENOENT;
	}
	if (dmc_ctl_devices_use(NULL, &cc->cls, user, sizeof(user))) {
		pr_err_ratelimited("class del: class '%s' still has device '%s'\n",
				   name, user);
		return -EBUSY;
	}
	dmc_ctl_class_free(cc);
	return 0;
}

/* ---- drivers -------------------------------------------------------------- */

/* A driver as "driver add" asks for, not yet on a bus. */
static struct dmc_ctl_driver *dmc_ctl_driver_alloc(const struct dmc_ctl_args *a)
{
	struct dmc_ctl_driver *cd;

	cd = kzalloc(sizeof(*cd), GFP_KERNEL);
	if (!cd)
		return NULL;
	strscpy(cd->name, a->arg[0], sizeof(cd->name));
	strscpy(cd->glob, a->match ?: "*", sizeof(cd->glob));
	if (a->probe.waits_for)
		strscpy(cd->waits_for, a->probe.waits_for, sizeof(cd->waits_for));
	cd->probe_mode = a->probe.mode;
	cd->probe_err = a->probe.err;
	cd->suspend_err = a->suspend.err;
	cd->delay_ms = a->delay_ms;
	cd->drv.name = cd->name;
	cd->drv.probe_type = a->seen & DMC_CTL_OPT_ASYNC ?
			     DMC_PROBE_PREFER_ASYNCHRONOUS : DMC_PROBE_DEFAULT_STRATEGY;
	cd->drv.probe = dmc_ctl_probe;
	cd->drv.suspend = dmc_ctl_suspend;
	cd->drv.resume = dmc_ctl_resume;
	atomic_set(&cd->probes, 0);
	return cd;
}

static int dmc_ctl_driver_add(const struct dmc_ctl_args *a)
{
	const char *name = a->arg[0];
	struct dmc_ctl_driver *cd;
	struct dmc_bus_type *bus;
	int err;

	cd = dmc_ctl_driver_alloc(a);
	if (!cd)
		return -ENOMEM;
	err = dmc_ctl_lookup_bus("driver add", a->bus, &bus);
	if (err)
		goto err_free;
	err = -EEXIST;
	if (dmc_ctl_find_driver(name)) {
		pr_err_ratelimited("driver add: driver '%s' exists already\n", name);
		goto err_free;
	}
	if (dmc_bus_find_driver(bus, name)) {
		pr_err_ratelimited("driver add: bus '%s' has a driver '%s' already\n",
				   bus->name, name);
		goto err_free;
	}
	cd->drv.bus = bus;
	/* Listed and busy: the name is taken, the bus in use, meanwhile. */
	cd->busy = true;
	list_add_tail(&cd->node, &dmc_ctl_drivers);
	dmc_ctl_unlock();
	err = dmc_driver_register(&cd->drv);	/* probes */
	dmc_ctl_relock();
	cd->busy = false;
	if (err) {
		list_del(&cd->node);
		/* The core's "that bus has a driver of that name" is -EBUSY. */
		if (err == -EBUSY)
			err = -EEXIST;
		pr_err_ratelimited("driver add: cannot register driver '%s': %d\n",
				   name, err);
		goto err_free;
	}
	return 0;

err_free:
	kfree(cd);
	return err;
}

/*
 * Unregister and free a control driver. dmc_driver_unregister() waits for
 * probes in flight, unbinds the driver's devices and forgets the
 * deferrals it asked for; a driver already detached (its bus went with
 * its module) is left alone. Afterwards the core holds no pointer to it.
 */
static void dmc_ctl_driver_free(struct dmc_ctl_driver *cd)
{
	cd->busy = true;
	dmc_ctl_unlock();
	dmc_driver_unregister(&cd->drv);	/* removes */
	dmc_ctl_relock();
	list_del(&cd->node);
	kfree(cd);
}

static int dmc_ctl_driver_del(const struct dmc_ctl_args *a)
{
	const char *name = a->arg[0];
	struct dmc_ctl_driver *cd;

	cd = dmc_ctl_find_driver(name);
	if (cd && cd->busy)
		return dmc_ctl_busy("driver del", "driver", name);
	if (!cd) {
		if (dmc_ctl_driver_exists(name)) {
			pr_err_ratelimited("driver del: driver '%s' was not made by control\n",
					   name);
			return -EPERM;
		}
		pr_err_ratelimited("driver del: unknown driver '%s'\n", name);
		return -ENOENT;
	}
	dmc_ctl_driver_free(cd);
	return 0;
}

/* ---- power -------------------------------------------------------------------- */

static int dmc_ctl_suspend_all(void)
{
	struct dmc_device *failed;
	int err;

	err = dmc_suspend_all(&failed);
	if (!err)
		return 0;
	if (failed) {
		pr_err_ratelimited("suspend: device '%s' failed: %d (all resumed)\n",
				   dmc_dev_name(failed), err);
		dmc_device_put(failed);
	} else {
		pr_err_ratelimited("suspend failed: %d\n", err);
	}
	return err;
}

static int dmc_ctl_resume_all(void)
{
	int err = dmc_resume_all();

	if (err)
		pr_err_ratelimited("resume: first error %d (every device is on)\n",
				   err);
	return err;
}

/* "suspend", "resume", "settle": the core runs callbacks, so unlocked. */
static int dmc_ctl_power(const struct dmc_ctl_args *a)
{
	int err = 0;

	dmc_ctl_unlock();
	if (a->cmd == DMC_CTL_SUSPEND)
		err = dmc_ctl_suspend_all();
	else if (a->cmd == DMC_CTL_RESUME)
		err = dmc_ctl_resume_all();
	else
		dmc_bridge_settle();
	dmc_ctl_relock();
	return err;
}

/* ---- commands ----------------------------------------------------------------- */

/* What each command of control.c's table of verbs does. */
static int (* const dmc_ctl_handlers[DMC_CTL_NR_CMDS])(const struct dmc_ctl_args *a) = {
	[DMC_CTL_BUS_ADD]	= dmc_ctl_bus_add,
	[DMC_CTL_BUS_DEL]	= dmc_ctl_bus_del,
	[DMC_CTL_CLASS_ADD]	= dmc_ctl_class_add,
	[DMC_CTL_CLASS_DEL]	= dmc_ctl_class_del,
	[DMC_CTL_DRIVER_ADD]	= dmc_ctl_driver_add,
	[DMC_CTL_DRIVER_DEL]	= dmc_ctl_driver_del,
	[DMC_CTL_DEVICE_ADD]	= dmc_ctl_device_add,
	[DMC_CTL_DEVICE_DEL]	= dmc_ctl_device_del,
	[DMC_CTL_DEVICE_RENAME]	= dmc_ctl_device_rename,
	[DMC_CTL_DEVICE_MOVE]	= dmc_ctl_device_move,
	[DMC_CTL_DEVICE_OVERRIDE] = dmc_ctl_device_override,
	[DMC_CTL_DEVICE_ONLINE]	= dmc_ctl_device_hotplug,
	[DMC_CTL_DEVICE_OFFLINE] = dmc_ctl_device_hotplug,
	[DMC_CTL_LINK_ADD]	= dmc_ctl_link_add,
	[DMC_CTL_LINK_DEL]	= dmc_ctl_link_del,
	[DMC_CTL_SUSPEND]	= dmc_ctl_power,
	[DMC_CTL_RESUME]	= dmc_ctl_power,
	[DMC_CTL_SETTLE]	= dmc_ctl_power,
	[DMC_CTL_RUNTIME_GET ... DMC_CTL_RUNTIME_AUTOSUSPEND] = dmc_ctl_runtime,
};

/* Run one command, a writable NUL-terminated line; control mutex held. */
static int dmc_ctl_run(char *line)
{
	struct dmc_ctl_args a = {};
	int err;

	err = dmc_ctl_parse(line, &a);
	if (err)
		return err;
	return dmc_ctl_handlers[a.cmd](&a);
}

/**
 * dmc_control_exec() - run one control command
 * @buf: the bytes of one write() to the control file; need not be
 *	NUL-terminated
 * @count: how many bytes were written (may exceed what @buf holds when it
 *	is more than PAGE_SIZE: then only @count is looked at)
 *
 * Runs the command in @buf (grammar at the top of control.c). Commands
 * from concurrent writers run one after the other; a command that fails
 * changes nothing and logs one rate-limited line naming the bad token.
 *
 * Context: process context, may sleep (for a probe's delay_ms, up to 10 s,
 * and whatever the core does); no dmcore lock may be held, and it must
 * not be called from a dmcore callback.
 * Return: 0, or a negative errno: -E2BIG when @count is more than
 * PAGE_SIZE, -ENODEV before dmc_control_init() or after
 * dmc_control_exit(), -EINTR on a signal while
 * waiting for another command, else as in the table at the top of
 * control.c.
 */
int dmc_control_exec(const char *buf, size_t count)
{
	char *line;
	int err;

	err = dmc_ctl_check_write(buf, count);
	if (err)
		return err;
	line = kmemdup_nul(buf, count - 1, GFP_KERNEL);
	if (!line)
		return -ENOMEM;
	if (mutex_lock_interruptible(&dmc_control_mutex)) {
		kfree(line);
		return -EINTR;
	}
	if (dmc_ctl_dead) {
		mutex_unlock(&dmc_control_mutex);
		kfree(line);
		return -ENODEV;
	}
	atomic_inc(&dmc_ctl_active);
	dmc_ctl_prune();
	err = dmc_ctl_run(line);
	dmc_ctl_prune();
	mutex_unlock(&dmc_control_mutex);
	if (atomic_dec_and_test(&dmc_ctl_active))
		wake_up_var(&dmc_ctl_active);
	kfree(line);
	return err;
}

/**
 * dmc_control_init() - set up the control engine
 *
 * Registers control's tree listener, through which the core's deletion
 * of a control device (with its parent, bus or class) drops control's
 * reference at once.
 *
 * Context: module init, after the core's tree and event log are up.
 * Return: 0, or the listener registration's error.
 */
int dmc_control_init(void)
{
	int err;

	mutex_lock(&dmc_control_mutex);
	err = dmc_ctl_listen();
	dmc_ctl_dead = !!err;
	mutex_unlock(&dmc_control_mutex);
	return err;
}

/**
 * dmc_control_exit() - remove everything control made
 *
 * Makes every later dmc_control_exec() fail with -ENODEV, waits for the
 * commands in progress, and takes down control's objects:
 * devices (a device's children and links go with it), drivers, the link
 * records, classes, buses; then unregisters the tree listener. Must run
 * while the core's roots still exist, before the module's other parts go.
 *
 * Context: module exit; may sleep (drivers' remove callbacks, probes in
 * flight).
 */
void dmc_control_exit(void)
{
	struct dmc_ctl_driver *cd, *ctmp;
	struct dmc_ctl_class *cc, *cctmp;
	struct dmc_ctl_bus *cb, *btmp;

	mutex_lock(&dmc_control_mutex);
	dmc_ctl_dead = true;
	mutex_unlock(&dmc_control_mutex);
	/* Commands under way may have let go of the mutex: wait for them. */
	wait_var_event(&dmc_ctl_active, !atomic_read(&dmc_ctl_active));
	/* Later commands fail at once: the lists are this function's now. */
	mutex_lock(&dmc_control_mutex);
	dmc_ctl_devices_del_all();
	list_for_each_entry_safe_reverse(cd, ctmp, &dmc_ctl_drivers, node)
		dmc_ctl_driver_free(cd);
	dmc_ctl_links_forget();
	list_for_each_entry_safe_reverse(cc, cctmp, &dmc_ctl_classes, node)
		dmc_ctl_class_free(cc);
	list_for_each_entry_safe_reverse(cb, btmp, &dmc_ctl_buses, node)
		dmc_ctl_bus_free(cb);
	dmc_ctl_unlisten();
	mutex_unlock(&dmc_control_mutex);
}
