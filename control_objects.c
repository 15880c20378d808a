// SPDX-License-Identifier: GPL-2.0
/*
 * Control's own buses and classes, and the mutex every command runs
 * under: the lists "bus add" and "class add" append to, their lookups by
 * name for a command's bus= and class= options, and the helpers a verb
 * lets go of the mutex with around a core call that runs callbacks
 * ("Locking" at the top of control.c). The floor below both kinds of
 * verbs: control_verbs.c (buses, classes, drivers, power; running a
 * command) and control_devices.c (devices and links) use it, and it
 * calls neither. No counterpart in drivers/base.
 */

#define pr_fmt(fmt) "dmcore: control: " fmt

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/string.h>

#include "base.h"
#include "control.h"

/* Control's lists; never held across a callback (control.c's top). */
DEFINE_MUTEX(dmc_control_mutex);

/* Control's buses and classes, under dmc_control_mutex. */
LIST_HEAD(dmc_ctl_buses);		/* also dmc_ctl_buses_lock to change */
DEFINE_MUTEX(dmc_ctl_buses_lock);	/* probe-side readers */
LIST_HEAD(dmc_ctl_classes);

/* Control's bus called @name, or NULL; under dmc_control_mutex. */
struct dmc_ctl_bus *dmc_ctl_find_bus(const char *name)
{
	struct dmc_ctl_bus *cb;

	list_for_each_entry(cb, &dmc_ctl_buses, node)
		if (!strcmp(cb->name, name))
			return cb;
	return NULL;
}

/* Control's class called @name, or NULL; under dmc_control_mutex. */
struct dmc_ctl_class *dmc_ctl_find_class(const char *name)
{
	struct dmc_ctl_class *cc;

	list_for_each_entry(cc, &dmc_ctl_classes, node)
		if (!strcmp(cc->name, name))
			return cc;
	return NULL;
}

/* Is a class called @name registered (by control or not)? */
bool dmc_ctl_class_exists(const char *name)
{
	struct dmc_kobject *kobj = dmc_kset_find_obj(dmc_class_kset, name);

	dmc_kobject_put(kobj);
	return kobj;
}

/*
 * "@cmd ... @opt=@name" names no control bus or class: -ENOENT, or -EPERM
 * if a module registered it. Control never uses a module's bus or class:
 * its callbacks (match, uevent, probe, class interfaces) may take any
 * device or driver there for one of their own types (container_of()),
 * which control's are not.
 */
static int dmc_ctl_not_mine(const char *cmd, const char *opt, const char *name,
			    bool registered)
{
	if (registered) {
		pr_err_ratelimited("%s: %s '%s' was not made by control (only control's own are used)\n",
				   cmd, opt, name);
		return -EPERM;
	}
	pr_err_ratelimited("%s: unknown %s '%s'\n", cmd, opt, name);
	return -ENOENT;
}

/* The control bus @name for "@cmd ... bus=@name", not being deleted. */
int dmc_ctl_lookup_bus(const char *cmd, const char *name,
		       struct dmc_bus_type **bus)
{
	struct dmc_ctl_bus *cb = dmc_ctl_find_bus(name);

	if (!cb)
		return dmc_ctl_not_mine(cmd, "bus", name, !!dmc_bus_find(name));
	if (cb->deleting) {
		pr_err_ratelimited("%s: bus '%s' is being deleted\n", cmd, name);
		return -EBUSY;
	}
	*bus = &cb->bus;
	return 0;
}

/* The control class @name for "@cmd ... class=@name", not being deleted. */
int dmc_ctl_lookup_class(const char *cmd, const char *name,
			 struct dmc_class **cls)
{
	struct dmc_ctl_class *cc = dmc_ctl_find_class(name);

	if (!cc)
		return dmc_ctl_not_mine(cmd, "class", name,
					dmc_ctl_class_exists(name));
	if (cc->deleting) {
		pr_err_ratelimited("%s: class '%s' is being deleted\n", cmd, name);
		return -EBUSY;
	}
	*cls = &cc->cls;
	return 0;
}

/*
 * Around a core call that may run callbacks, a command lets go of the
 * control mutex (its object is marked taken meanwhile) and takes it back.
 */
void dmc_ctl_unlock(void)
{
	mutex_unlock(&dmc_control_mutex);
}

void dmc_ctl_relock(void)
{
	mutex_lock(&dmc_control_mutex);
}
