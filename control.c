// SPDX-License-Identifier: GPL-2.0
/*
 * The control engine: what /sys/kernel/debug/dmcore/control runs. A test,
 * a demo or a curious user builds a model from the shell, one command per
 * write(), and watches what the core does with it. The export hands each
 * write's bytes to dmc_control_exec(); nothing else calls in here.
 *
 * Grammar (one command per write, ending in exactly one '\n' as echo
 * writes it; tokens are separated by one or more spaces or tabs):
 *
 *   bus add NAME                     bus del NAME
 *   class add NAME                   class del NAME
 *   driver add NAME bus=BUS [match=GLOB] [probe=ok|fail:ERRNO|defer:WAITS_FOR]
 *              [delay_ms=N] [async] [suspend=ok|fail:ERRNO]
 *   driver del NAME
 *   device add NAME [bus=BUS] [parent=PATH] [class=CLASS] [attr=KEY=VALUE]...
 *   device del PATH
 *   link add SUPPLIER CONSUMER       link del SUPPLIER CONSUMER
 *   suspend                          resume
 *   settle
 *
 * Tokens:
 *   NAME, KEY  1..255 bytes (DMC_NAME_MAX), no '/', no '=', not "." or "..".
 *              No token may hold a control character (< 0x20, 0x7f).
 *   BUS        a bus made by "bus add".
 *   CLASS      a class made by "class add". A module's bus or class is
 *              refused (-EPERM): its callbacks (match, uevent, probe,
 *              class interfaces) may take any device or driver on it for
 *              one of their own types (container_of()), which control's
 *              are not.
 *   PATH       a device's DEVPATH, "/devices/a/b"; the leading '/' may be
 *              left out. Any registered device, made by control or not,
 *              but not a shadow of the bridge as a parent or in a link.
 *   GLOB       a glob_match() pattern (linux/glob.h) for device names,
 *              1..255 bytes; default "*".
 *   ERRNO      1..4095, but none of the kernel-internal 512..529, which
 *              must never reach userspace; the callback returns -ERRNO.
 *              probe=fail:517 is allowed: the probe returns -EPROBE_DEFER
 *              (an unnamed deferral), which the core handles.
 *   WAITS_FOR  a device or driver name, 1..255 bytes, no '/'.
 *   N          delay_ms: 0..10000, decimal.
 *   VALUE      0..255 bytes; may hold '=' but no space or tab.
 *
 * What the commands do:
 *   bus add    registers a bus whose match applies each control driver's
 *              match= glob to the device's name (a module's driver put on
 *              it matches the module's devices there, never control's).
 *   class add  registers a class.
 *   driver add registers a driver on BUS. Its probe counts its calls,
 *              sleeps delay_ms, then succeeds (probe=ok), returns -ERRNO
 *              (fail:), or succeeds only if WAITS_FOR is available (a
 *              bound device of that name on any control bus, or a driver
 *              of that name on the device's bus) and else returns
 *              dmc_probe_defer(dev, WAITS_FOR). async makes it a
 *              DMC_PROBE_ASYNC driver. Its suspend returns 0 or -ERRNO;
 *              its resume returns 0.
 *   device add makes a device: under PATH if parent= is given, else under
 *              devices/virtual/CLASS for a class device without bus, else
 *              under /devices. Each attr=KEY=VALUE (at most 16) becomes a
 *              file KEY (0644) of the device: reading gives VALUE and a
 *              newline, writing replaces it (one trailing newline is
 *              dropped; more than 255 bytes is -E2BIG, a control character
 *              -EINVAL). KEY may not be uevent, power, driver or subsystem,
 *              which the core uses.
 *   device del unregisters a device made by control (its children go too).
 *   link add   makes CONSUMER depend on SUPPLIER (dmc_device_link_add()).
 *   link del   deletes a link made by "link add".
 *   suspend    dmc_suspend_all(); the failing device is logged.
 *   resume     dmc_resume_all().
 *   settle     dmc_bridge_settle(): returns when the real-event bridge has
 *              applied every real event it has seen (udevadm settle's
 *              counterpart for the shadow buses).
 *
 * Names are unique among the buses, among the classes, among the drivers
 * and among the devices control made (a driver or device name once,
 * whatever its bus or parent), so "driver del NAME" needs no bus.
 *
 * Errors. A failed command changes nothing and logs one rate-limited line
 * ("dmcore: control: ...") quoting the offending token; the write fails
 * with:
 *   E2BIG         the write is longer than PAGE_SIZE; more than 16 attr=;
 *                 a VALUE longer than 255 bytes
 *   EINVAL        no trailing newline (a command split across writes);
 *                 more than one line; an empty command; a control
 *                 character; an unknown verb, action or option; a missing
 *                 or extra argument; a duplicate option or attribute; a bad
 *                 name, path, number (delay_ms 0..10000) or ERRNO (1..4095,
 *                 not 512..529 but probe=fail:517);
 *                 a link to the device itself or one closing a cycle
 *   ENAMETOOLONG  a NAME, KEY, GLOB, WAITS_FOR or path component longer
 *                 than 255 bytes
 *   ENOENT        an unknown bus, class, driver or device (a PATH that is
 *                 not a registered device); "link del" of no link
 *   EEXIST        the name is taken: by an object control made, or the core
 *                 refuses it (a bus or class of that name, a device of
 *                 that name under the parent, on the bus or in the class,
 *                 a driver of that name on the bus: the core's -EBUSY for
 *                 that is reported as -EEXIST); the link exists; a reserved
 *                 attribute name; a name the model reserves under the
 *                 parent (an attribute, group or link of it: uevent,
 *                 power, driver, subsystem, an attr= key)
 *   EPERM         deleting a bus, class, driver, device or link that
 *                 control did not make; bus= or class= naming a module's
 *                 bus or class; parent= or a link naming a shadow or glue
 *                 device of the bridge, or a device at /devices/NAME
 *                 where the bridge mirrors real devices (only the real
 *                 kernel changes those)
 *   EBUSY         "bus del" or "class del" while control devices or
 *                 drivers still use it: delete those first; a driver,
 *                 bus or class another command is adding or deleting
 *   ENODEV        control is not set up yet or torn down (module load or
 *                 unload in progress)
 *   EINTR         a signal came while waiting for another command
 *   ENOMEM        out of memory
 *   other         "suspend": the failing driver's error (suspend=fail:5 is
 *                 -EIO); "resume": the first resume error
 *
 * Lifetime. Every object made here is a real dmcore object, allocated
 * here with a real release (a device's attributes live in the same
 * allocation), kept on control's lists and freed only here or by its
 * release. The core may delete a control device behind control's back,
 * with its parent (which may be a module's device): a tree listener
 * (dmc_ctl_kobj_removed()) then drops control's reference at once, so
 * the device is released as soon as the core is done with it and never
 * keeps a module's parent device alive past its module. A link is
 * recorded by its two devices, only compared, never dereferenced, and the
 * record is cleared when either device leaves the tree.
 *
 * Locking. dmc_control_mutex guards control's lists and is held by one
 * command at a time, but never across a core call that runs a callback
 * (probe, remove, suspend, resume, a class interface, the bridge's work
 * waited for by settle): around those the command drops it, with its
 * object marked (a driver or device being added or deleted, a bus or
 * class being deleted) so that other commands see it taken and get
 * -EBUSY instead of waiting. dmc_ctl_active counts commands under way;
 * dmc_control_exit() waits for them. The core never calls into control,
 * and control's callbacks (match, probe, suspend, resume, attribute show
 * and store, the tree listener) never take the mutex. Leaves, under it
 * or under core locks: dmc_ctl_buses_lock (mutex) guards the list of
 * control buses that a probe's WAITS_FOR lookup walks; dmc_ctl_lock
 * (spinlock) guards the device list and the link records, which the
 * tree listener changes under dmc_tree_mutex; a per-device spinlock
 * guards attribute values.
 */

#define pr_fmt(fmt) "dmcore: control: " fmt

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/glob.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/wait_bit.h>

#include "base.h"
#include "control.h"

#define DMC_CTL_MAX_ATTRS	16
#define DMC_CTL_VALUE_MAX	255
#define DMC_CTL_DELAY_MAX	10000	/* ms */
#define DMC_CTL_ERRNO_MAX	4095
#define DMC_CTL_ERRNO_KERNEL_MIN 512	/* ERESTARTSYS */
#define DMC_CTL_ERRNO_KERNEL_MAX 529	/* the last of include/linux/errno.h */
#define DMC_CTL_QUOTE_MAX	64	/* bytes of a token quoted in the log */

/* Control's lists; never held across a callback (see the top). */
static DEFINE_MUTEX(dmc_control_mutex);
/* Commands under way, for dmc_control_exit() to wait for. */
static atomic_t dmc_ctl_active = ATOMIC_INIT(0);
/* Not yet set up, or torn down: commands fail with -ENODEV. */
static bool dmc_ctl_dead = true;
static bool dmc_ctl_listening;		/* dmc_ctl_listener is registered */

/* Control's objects, under dmc_control_mutex. */
static LIST_HEAD(dmc_ctl_buses);	/* also dmc_ctl_buses_lock to change */
static DEFINE_MUTEX(dmc_ctl_buses_lock);	/* probe-side readers */
static LIST_HEAD(dmc_ctl_classes);
static LIST_HEAD(dmc_ctl_drivers);

/*
 * Devices and link records are also changed by the core's tree callback
 * (dmc_ctl_kobj_removed()), which must not take dmc_control_mutex: a leaf
 * spinlock, under dmc_tree_mutex there, protects them.
 */
static DEFINE_SPINLOCK(dmc_ctl_lock);
static LIST_HEAD(dmc_ctl_devices);
static LIST_HEAD(dmc_ctl_links);

struct dmc_ctl_bus {
	struct dmc_bus_type bus;
	struct list_head node;		/* in dmc_ctl_buses */
	bool deleting;			/* "bus del" under way */
	char name[];
};

struct dmc_ctl_class {
	struct dmc_class cls;
	struct list_head node;		/* in dmc_ctl_classes */
	bool deleting;			/* "class del" under way */
	char name[];
};

enum dmc_ctl_probe_mode {
	DMC_CTL_PROBE_OK,
	DMC_CTL_PROBE_FAIL,
	DMC_CTL_PROBE_DEFER,
};

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

struct dmc_ctl_attr {
	struct dmc_device_attribute dattr;
	char name[DMC_NAME_MAX + 1];
	char value[DMC_CTL_VALUE_MAX + 1];	/* under the device's lock */
};

/* A device with everything it needs, in one allocation freed by release. */
struct dmc_ctl_device {
	struct dmc_device dev;
	struct list_head node;		/* in dmc_ctl_devices, dmc_ctl_lock */
	bool listed;			/* on it, holding control's reference */
	bool adding;			/* "device add" under way, dmc_ctl_lock */
	spinlock_t lock;		/* the attribute values */
	const struct dmc_attribute_group *groups[2];
	struct dmc_attribute_group group;
	struct dmc_attribute *attr_ptrs[DMC_CTL_MAX_ATTRS + 1];
	unsigned int nattrs;
	struct dmc_ctl_attr attrs[];
};

/*
 * A link made by "link add". The pair only identifies it and is never
 * dereferenced; both are cleared (under dmc_ctl_lock) when either device
 * leaves the tree, and such dead records are freed by the next command.
 */
struct dmc_ctl_link {
	struct list_head node;		/* in dmc_ctl_links, dmc_ctl_lock */
	const struct dmc_device *consumer;
	const struct dmc_device *supplier;
};

static inline struct dmc_ctl_driver *to_ctl_driver(const struct dmc_driver *drv)
{
	return container_of(drv, struct dmc_ctl_driver, drv);
}

static inline struct dmc_ctl_device *to_ctl_device(struct dmc_device *dev)
{
	return container_of(dev, struct dmc_ctl_device, dev);
}

/* Length of @s to quote in a log line ("'%.*s'"). */
static int qlen(const char *s)
{
	return min_t(size_t, strlen(s), DMC_CTL_QUOTE_MAX);
}

/* ---- callbacks: match, probe, power, attributes ------------------------- */

static int dmc_ctl_probe(struct dmc_device *dev);

static bool dmc_ctl_is_ctl_driver(const struct dmc_driver *drv)
{
	return drv->probe == dmc_ctl_probe;
}

static void dmc_ctl_device_release(struct dmc_device *dev);

/*
 * A control bus's match: a control driver's glob on the device's name. A
 * module's driver put on a control bus gets the module's devices there,
 * never control's (it may take them for its own type).
 */
static int dmc_ctl_match(struct dmc_device *dev, const struct dmc_driver *drv)
{
	if (!dmc_ctl_is_ctl_driver(drv))
		return dev->release != dmc_ctl_device_release;
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
		return dmc_probe_defer(dev, cd->waits_for);
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

static ssize_t dmc_ctl_attr_show(struct dmc_device *dev,
				 struct dmc_device_attribute *attr, char *buf)
{
	struct dmc_ctl_attr *ca = container_of(attr, struct dmc_ctl_attr, dattr);
	struct dmc_ctl_device *cdev = to_ctl_device(dev);
	ssize_t len;

	spin_lock(&cdev->lock);
	len = scnprintf(buf, PAGE_SIZE, "%s\n", ca->value);
	spin_unlock(&cdev->lock);
	return len;
}

static ssize_t dmc_ctl_attr_store(struct dmc_device *dev,
				  struct dmc_device_attribute *attr,
				  const char *buf, size_t count)
{
	struct dmc_ctl_attr *ca = container_of(attr, struct dmc_ctl_attr, dattr);
	struct dmc_ctl_device *cdev = to_ctl_device(dev);
	size_t len = count, i;

	if (len && buf[len - 1] == '\n')
		len--;
	if (len > DMC_CTL_VALUE_MAX) {
		pr_err_ratelimited("%s/%s: value of %zu bytes, more than %d\n",
				   dmc_dev_name(dev), ca->name, len, DMC_CTL_VALUE_MAX);
		return -E2BIG;
	}
	for (i = 0; i < len; i++) {
		if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f) {
			pr_err_ratelimited("%s/%s: control character 0x%02x at byte %zu\n",
					   dmc_dev_name(dev), ca->name,
					   (unsigned char)buf[i], i);
			return -EINVAL;
		}
	}
	spin_lock(&cdev->lock);
	memcpy(ca->value, buf, len);
	ca->value[len] = '\0';
	spin_unlock(&cdev->lock);
	return count;
}

static void dmc_ctl_device_release(struct dmc_device *dev)
{
	struct dmc_ctl_device *cdev = to_ctl_device(dev);

	/* The list holds a reference: a listed device cannot be released. */
	spin_lock(&dmc_ctl_lock);
	if (WARN_ON_ONCE(cdev->listed))
		list_del(&cdev->node);
	spin_unlock(&dmc_ctl_lock);
	kfree(cdev);
}

/* ---- control's lists ---------------------------------------------------- */

static struct dmc_ctl_bus *dmc_ctl_find_bus(const char *name)
{
	struct dmc_ctl_bus *cb;

	list_for_each_entry(cb, &dmc_ctl_buses, node)
		if (!strcmp(cb->name, name))
			return cb;
	return NULL;
}

static struct dmc_ctl_class *dmc_ctl_find_class(const char *name)
{
	struct dmc_ctl_class *cc;

	list_for_each_entry(cc, &dmc_ctl_classes, node)
		if (!strcmp(cc->name, name))
			return cc;
	return NULL;
}

static struct dmc_ctl_driver *dmc_ctl_find_driver(const char *name)
{
	struct dmc_ctl_driver *cd;

	list_for_each_entry(cd, &dmc_ctl_drivers, node)
		if (!strcmp(cd->name, name))
			return cd;
	return NULL;
}

/* Is a registered control device called @name? */
static bool dmc_ctl_device_name_taken(const char *name)
{
	struct dmc_ctl_device *cdev;
	bool taken = false;

	spin_lock(&dmc_ctl_lock);
	list_for_each_entry(cdev, &dmc_ctl_devices, node) {
		if ((cdev->adding || dmc_device_is_registered(&cdev->dev)) &&
		    !strcmp(dmc_dev_name(&cdev->dev), name)) {
			taken = true;
			break;
		}
	}
	spin_unlock(&dmc_ctl_lock);
	return taken;
}

/*
 * Is a registered control device on @bus or in @cls? Its name goes to
 * @name for the log.
 */
static bool dmc_ctl_devices_use(const struct dmc_bus_type *bus,
				const struct dmc_class *cls, char *name,
				size_t size)
{
	struct dmc_ctl_device *cdev;
	bool used = false;

	spin_lock(&dmc_ctl_lock);
	list_for_each_entry(cdev, &dmc_ctl_devices, node) {
		if ((cdev->adding || dmc_device_is_registered(&cdev->dev)) &&
		    ((bus && cdev->dev.bus == bus) ||
		     (cls && cdev->dev.class == cls))) {
			strscpy(name, dmc_dev_name(&cdev->dev), size);
			used = true;
			break;
		}
	}
	spin_unlock(&dmc_ctl_lock);
	return used;
}

/* Take @cdev off the list; true if it was on it (and held a reference). */
static bool dmc_ctl_unlist(struct dmc_ctl_device *cdev)
{
	bool was;

	spin_lock(&dmc_ctl_lock);
	was = cdev->listed;
	if (was) {
		list_del_init(&cdev->node);
		cdev->listed = false;
	}
	spin_unlock(&dmc_ctl_lock);
	return was;
}

/* The live record of the link from @supplier to @consumer; dmc_ctl_lock. */
static struct dmc_ctl_link *dmc_ctl_find_link(const struct dmc_device *consumer,
					      const struct dmc_device *supplier)
{
	struct dmc_ctl_link *cl;

	lockdep_assert_held(&dmc_ctl_lock);
	list_for_each_entry(cl, &dmc_ctl_links, node)
		if (cl->consumer == consumer && cl->supplier == supplier)
			return cl;
	return NULL;
}

/*
 * Tree callback: an object left the tree. When it is a device, the core
 * is deleting it (dmc_device_del() holds a reference meanwhile) and has
 * removed its links: forget the link records, and if it is a control
 * device, drop control's reference now, so that the device is released
 * as soon as the core is done with it. Holding on until the next command
 * would keep its parent alive too, and a parent made by a module must be
 * released before that module's code goes. Runs under dmc_tree_mutex.
 */
static void dmc_ctl_kobj_removed(struct dmc_listener *l, struct dmc_kobject *kobj)
{
	struct dmc_ctl_device *cdev;
	struct dmc_device *dev;
	struct dmc_ctl_link *cl;

	if (kobj->ktype != &dmc_device_ktype)
		return;
	dev = to_dmc_device(kobj);
	spin_lock(&dmc_ctl_lock);
	list_for_each_entry(cl, &dmc_ctl_links, node) {
		if (cl->consumer == dev || cl->supplier == dev) {
			cl->consumer = NULL;
			cl->supplier = NULL;
		}
	}
	/* Not a failed dmc_device_add(): control puts after that itself. */
	if (dev->release == dmc_ctl_device_release && dev->p &&
	    READ_ONCE(dev->p->registered)) {
		cdev = to_ctl_device(dev);
		/* Never the last reference here; if it were, prune puts it. */
		if (cdev->listed && refcount_dec_not_one(&kobj->kref.refcount)) {
			list_del_init(&cdev->node);
			cdev->listed = false;
		}
	}
	spin_unlock(&dmc_ctl_lock);
}

static struct dmc_listener dmc_ctl_listener = {
	.kobj_removed = dmc_ctl_kobj_removed,
};

/*
 * Drop what the core took away behind control's back: devices still
 * listed though deleted (only if the tree callback could not drop the
 * reference) and dead link records.
 */
static void dmc_ctl_prune(void)
{
	struct dmc_ctl_device *cdev, *found;
	struct dmc_ctl_link *cl, *ltmp;
	LIST_HEAD(dead);

	do {
		found = NULL;
		spin_lock(&dmc_ctl_lock);
		list_for_each_entry(cdev, &dmc_ctl_devices, node) {
			if (!cdev->adding &&
			    !dmc_device_is_registered(&cdev->dev)) {
				list_del_init(&cdev->node);
				cdev->listed = false;
				found = cdev;
				break;
			}
		}
		spin_unlock(&dmc_ctl_lock);
		if (found)
			dmc_device_put(&found->dev);
	} while (found);

	spin_lock(&dmc_ctl_lock);
	list_for_each_entry_safe(cl, ltmp, &dmc_ctl_links, node)
		if (!cl->consumer)
			list_move(&cl->node, &dead);
	spin_unlock(&dmc_ctl_lock);
	list_for_each_entry_safe(cl, ltmp, &dead, node)
		kfree(cl);
}

/* Is a class called @name registered (by control or not)? */
static bool dmc_ctl_class_exists(const char *name)
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

static int dmc_ctl_lookup_bus(const char *cmd, const char *name,
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

static int dmc_ctl_lookup_class(const char *cmd, const char *name,
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

/* ---- parsing ------------------------------------------------------------ */

/* The next token of the command, NUL-terminated in place, or NULL. */
static char *dmc_ctl_next(char **pos)
{
	char *s = *pos, *e;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s) {
		*pos = s;
		return NULL;
	}
	for (e = s; *e && *e != ' ' && *e != '\t'; e++)
		;
	if (*e)
		*e++ = '\0';
	*pos = e;
	return s;
}

/* Nothing may follow the last argument of @cmd. */
static int dmc_ctl_no_more(char **pos, const char *cmd)
{
	char *tok = dmc_ctl_next(pos);

	if (!tok)
		return 0;
	pr_err_ratelimited("%s: extra argument '%.*s'\n", cmd, qlen(tok), tok);
	return -EINVAL;
}

/*
 * Check a name: 1..DMC_NAME_MAX bytes, no '/', not "." or ".."; no '='
 * unless @eq_ok (names of objects not made here may hold one).
 */
static int dmc_ctl_check_name(const char *what, const char *name, bool eq_ok)
{
	size_t len = strlen(name);

	if (!len) {
		pr_err_ratelimited("%s: empty name\n", what);
		return -EINVAL;
	}
	if (len > DMC_NAME_MAX) {
		pr_err_ratelimited("%s: name '%.*s...' is %zu bytes, more than %d\n",
				   what, qlen(name), name, len, DMC_NAME_MAX);
		return -ENAMETOOLONG;
	}
	if (strchr(name, '/') || (!eq_ok && strchr(name, '=')) ||
	    !strcmp(name, ".") || !strcmp(name, "..")) {
		pr_err_ratelimited("%s: bad name '%.*s' (no '/'%s, not . or ..)\n",
				   what, qlen(name), name, eq_ok ? "" : " or '='");
		return -EINVAL;
	}
	return 0;
}

/* The NAME argument of "<what> add|del NAME". */
static int dmc_ctl_take_name(char **pos, const char *what, char **name)
{
	*name = dmc_ctl_next(pos);
	if (!*name) {
		pr_err_ratelimited("%s: missing NAME\n", what);
		return -EINVAL;
	}
	return dmc_ctl_check_name(what, *name, false);
}

/*
 * ERRNO of "fail:ERRNO": 1..4095, decimal, but none of the kernel's
 * internal errnos (512..529: ERESTARTSYS, EPROBE_DEFER, ENOTSUPP...),
 * which must never reach userspace, except EPROBE_DEFER for a probe
 * (@defer_ok), which the core turns into a deferral.
 */
static int dmc_ctl_parse_errno(const char *opt, const char *s, int *err,
			       bool defer_ok)
{
	unsigned int e;

	if (kstrtouint(s, 10, &e) || !e || e > DMC_CTL_ERRNO_MAX) {
		pr_err_ratelimited("%s=fail: bad errno '%.*s' (1..%d)\n",
				   opt, qlen(s), s, DMC_CTL_ERRNO_MAX);
		return -EINVAL;
	}
	if (e >= DMC_CTL_ERRNO_KERNEL_MIN && e <= DMC_CTL_ERRNO_KERNEL_MAX &&
	    !(defer_ok && e == EPROBE_DEFER)) {
		pr_err_ratelimited("%s=fail: errno %u is kernel-internal (%d..%d%s)\n",
				   opt, e, DMC_CTL_ERRNO_KERNEL_MIN,
				   DMC_CTL_ERRNO_KERNEL_MAX,
				   defer_ok ? ", but 517 defers" : "");
		return -EINVAL;
	}
	*err = -(int)e;
	return 0;
}

/* Split "key=value" at the first '='; false if there is none. */
static bool dmc_ctl_split(char *tok, char **val)
{
	char *eq = strchr(tok, '=');

	if (!eq)
		return false;
	*eq = '\0';
	*val = eq + 1;
	return true;
}

static int dmc_ctl_dup(const char *cmd, const char *key)
{
	pr_err_ratelimited("%s: duplicate option '%s'\n", cmd, key);
	return -EINVAL;
}

static int dmc_ctl_unknown_option(const char *cmd, const char *tok)
{
	pr_err_ratelimited("%s: unknown option '%.*s'\n", cmd, qlen(tok), tok);
	return -EINVAL;
}

/*
 * Resolve a device PATH ("/devices/a/b" or "devices/a/b") to a registered
 * device, returned with a reference. @path is restored before returning.
 */
static int dmc_ctl_resolve(char *path, const char *what, struct dmc_device **out)
{
	struct dmc_kobject *kobj = NULL, *child;
	char *p = path, *slash, saved;
	bool top = true;
	size_t len;

	if (*p == '/')
		p++;
	for (;;) {
		slash = strchrnul(p, '/');
		len = slash - p;
		if (!len || len > DMC_NAME_MAX) {
			pr_err_ratelimited("%s: bad path '%.*s' (%s)\n", what,
					   qlen(path), path, len ?
					   "a component is longer than 255 bytes" :
					   "empty component");
			dmc_kobject_put(kobj);
			return len ? -ENAMETOOLONG : -EINVAL;
		}
		saved = *slash;
		*slash = '\0';
		if (top && strcmp(p, "devices"))
			child = NULL;
		else
			child = dmc_kobject_find_child(kobj, p);
		*slash = saved;
		dmc_kobject_put(kobj);
		kobj = child;
		top = false;
		if (!kobj)
			break;
		if (!saved)
			break;
		p = slash + 1;
	}
	if (kobj && kobj->ktype == &dmc_device_ktype &&
	    dmc_device_is_registered(to_dmc_device(kobj))) {
		*out = to_dmc_device(kobj);
		return 0;
	}
	dmc_kobject_put(kobj);
	pr_err_ratelimited("%s: unknown device '%.*s'\n", what, qlen(path), path);
	return -ENOENT;
}

/*
 * Around a core call that may run callbacks, a command lets go of the
 * control mutex (its object is marked taken meanwhile) and takes it back.
 */
static void dmc_ctl_unlock(void)
{
	mutex_unlock(&dmc_control_mutex);
}

static void dmc_ctl_relock(void)
{
	mutex_lock(&dmc_control_mutex);
}

/* "@cmd NAME" found its object busy with another command. */
static int dmc_ctl_busy(const char *cmd, const char *what, const char *name)
{
	pr_err_ratelimited("%s: %s '%s' is being added or deleted by another command\n",
			   cmd, what, name);
	return -EBUSY;
}

/* ---- bus and class ---------------------------------------------------------- */

static int dmc_ctl_bus_add(char **pos)
{
	struct dmc_ctl_bus *cb;
	char *name;
	int err;

	err = dmc_ctl_take_name(pos, "bus add", &name);
	if (!err)
		err = dmc_ctl_no_more(pos, "bus add");
	if (err)
		return err;
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

static int dmc_ctl_bus_del(char **pos)
{
	char user[DMC_NAME_MAX + 1];
	struct dmc_ctl_driver *cd;
	struct dmc_ctl_bus *cb;
	char *name;
	int err;

	err = dmc_ctl_take_name(pos, "bus del", &name);
	if (!err)
		err = dmc_ctl_no_more(pos, "bus del");
	if (err)
		return err;
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

static int dmc_ctl_class_add(char **pos)
{
	struct dmc_ctl_class *cc;
	char *name;
	int err;

	err = dmc_ctl_take_name(pos, "class add", &name);
	if (!err)
		err = dmc_ctl_no_more(pos, "class add");
	if (err)
		return err;
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

static int dmc_ctl_class_del(char **pos)
{
	char user[DMC_NAME_MAX + 1];
	struct dmc_ctl_class *cc;
	char *name;
	int err;

	err = dmc_ctl_take_name(pos, "class del", &name);
	if (!err)
		err = dmc_ctl_no_more(pos, "class del");
	if (err)
		return err;
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

enum {
	DMC_CTL_OPT_BUS		= BIT(0),
	DMC_CTL_OPT_MATCH	= BIT(1),
	DMC_CTL_OPT_PROBE	= BIT(2),
	DMC_CTL_OPT_DELAY	= BIT(3),
	DMC_CTL_OPT_ASYNC	= BIT(4),
	DMC_CTL_OPT_SUSPEND	= BIT(5),
	DMC_CTL_OPT_PARENT	= BIT(6),
	DMC_CTL_OPT_CLASS	= BIT(7),
};

/* Parse "probe=..." into @cd. */
static int dmc_ctl_parse_probe(struct dmc_ctl_driver *cd, const char *v)
{
	size_t n;
	int err;

	if (!strcmp(v, "ok")) {
		cd->probe_mode = DMC_CTL_PROBE_OK;
		return 0;
	}
	n = str_has_prefix(v, "fail:");
	if (n) {
		cd->probe_mode = DMC_CTL_PROBE_FAIL;
		return dmc_ctl_parse_errno("probe", v + n, &cd->probe_err, true);
	}
	n = str_has_prefix(v, "defer:");
	if (n) {
		err = dmc_ctl_check_name("probe=defer:", v + n, true);
		if (err)
			return err;
		cd->probe_mode = DMC_CTL_PROBE_DEFER;
		strscpy(cd->waits_for, v + n, sizeof(cd->waits_for));
		return 0;
	}
	pr_err_ratelimited("driver add: bad probe= value '%.*s' (ok, fail:ERRNO, defer:NAME)\n",
			   qlen(v), v);
	return -EINVAL;
}

static int dmc_ctl_parse_suspend(struct dmc_ctl_driver *cd, const char *v)
{
	size_t n;

	if (!strcmp(v, "ok")) {
		cd->suspend_err = 0;
		return 0;
	}
	n = str_has_prefix(v, "fail:");
	if (n)
		return dmc_ctl_parse_errno("suspend", v + n, &cd->suspend_err,
					   false);
	pr_err_ratelimited("driver add: bad suspend= value '%.*s' (ok, fail:ERRNO)\n",
			   qlen(v), v);
	return -EINVAL;
}

/* Parse the options of "driver add" into @cd; the bus's name into @bus. */
static int dmc_ctl_parse_driver(char **pos, struct dmc_ctl_driver *cd,
				const char **bus)
{
	static const char cmd[] = "driver add";
	unsigned int seen = 0, bit;
	char *tok, *key, *v;
	int err = 0;

	while (!err && (tok = dmc_ctl_next(pos))) {
		if (!strcmp(tok, "async")) {
			if (seen & DMC_CTL_OPT_ASYNC)
				return dmc_ctl_dup(cmd, tok);
			seen |= DMC_CTL_OPT_ASYNC;
			cd->drv.probe_type = DMC_PROBE_ASYNC;
			continue;
		}
		key = tok;
		if (!dmc_ctl_split(tok, &v))
			return dmc_ctl_unknown_option(cmd, tok);
		if (!strcmp(key, "bus"))
			bit = DMC_CTL_OPT_BUS;
		else if (!strcmp(key, "match"))
			bit = DMC_CTL_OPT_MATCH;
		else if (!strcmp(key, "probe"))
			bit = DMC_CTL_OPT_PROBE;
		else if (!strcmp(key, "delay_ms"))
			bit = DMC_CTL_OPT_DELAY;
		else if (!strcmp(key, "suspend"))
			bit = DMC_CTL_OPT_SUSPEND;
		else
			return dmc_ctl_unknown_option(cmd, key);
		if (seen & bit)
			return dmc_ctl_dup(cmd, key);
		seen |= bit;

		switch (bit) {
		case DMC_CTL_OPT_BUS:
			err = dmc_ctl_check_name("bus=", v, true);
			*bus = v;
			break;
		case DMC_CTL_OPT_MATCH:
			err = dmc_ctl_check_name("match=", v, true);
			strscpy(cd->glob, v, sizeof(cd->glob));
			break;
		case DMC_CTL_OPT_PROBE:
			err = dmc_ctl_parse_probe(cd, v);
			break;
		case DMC_CTL_OPT_DELAY:
			if (kstrtouint(v, 10, &cd->delay_ms) ||
			    cd->delay_ms > DMC_CTL_DELAY_MAX) {
				pr_err_ratelimited("driver add: bad delay_ms '%.*s' (0..%d)\n",
						   qlen(v), v, DMC_CTL_DELAY_MAX);
				err = -EINVAL;
			}
			break;
		case DMC_CTL_OPT_SUSPEND:
			err = dmc_ctl_parse_suspend(cd, v);
			break;
		}
	}
	if (!err && !(seen & DMC_CTL_OPT_BUS)) {
		pr_err_ratelimited("driver add: driver '%s' needs bus=BUS\n", cd->name);
		err = -EINVAL;
	}
	return err;
}

static int dmc_ctl_driver_add(char **pos)
{
	struct dmc_ctl_driver *cd;
	const char *busname = NULL;
	struct dmc_bus_type *bus;
	char *name;
	int err;

	err = dmc_ctl_take_name(pos, "driver add", &name);
	if (err)
		return err;
	cd = kzalloc(sizeof(*cd), GFP_KERNEL);
	if (!cd)
		return -ENOMEM;
	strscpy(cd->name, name, sizeof(cd->name));
	strscpy(cd->glob, "*", sizeof(cd->glob));
	cd->drv.name = cd->name;
	cd->drv.probe_type = DMC_PROBE_SYNC;
	cd->drv.probe = dmc_ctl_probe;
	cd->drv.suspend = dmc_ctl_suspend;
	cd->drv.resume = dmc_ctl_resume;
	atomic_set(&cd->probes, 0);
	err = dmc_ctl_parse_driver(pos, cd, &busname);
	if (err)
		goto err_free;

	err = dmc_ctl_lookup_bus("driver add", busname, &bus);
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

static int dmc_ctl_driver_del(char **pos)
{
	struct dmc_ctl_driver *cd;
	char *name;
	int err;

	err = dmc_ctl_take_name(pos, "driver del", &name);
	if (!err)
		err = dmc_ctl_no_more(pos, "driver del");
	if (err)
		return err;
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

/* ---- devices -------------------------------------------------------------- */

/* Names the core gives files and links of every device. */
static const char * const dmc_ctl_reserved_attrs[] = {
	"uevent", "power", "driver", "subsystem",
};

struct dmc_ctl_device_args {
	char *bus, *parent_path, *class;
	char *keys[DMC_CTL_MAX_ATTRS];
	char *values[DMC_CTL_MAX_ATTRS];
	unsigned int nattrs;
};

/* "attr=KEY=VALUE", the part after "attr=" in @kv. */
static int dmc_ctl_parse_attr(struct dmc_ctl_device_args *a, char *kv)
{
	static const char cmd[] = "device add";
	unsigned int i;
	char *value;
	int err;

	if (a->nattrs == DMC_CTL_MAX_ATTRS) {
		pr_err_ratelimited("%s: more than %d attr= ('%.*s')\n", cmd,
				   DMC_CTL_MAX_ATTRS, qlen(kv), kv);
		return -E2BIG;
	}
	if (!dmc_ctl_split(kv, &value)) {
		pr_err_ratelimited("%s: attr='%.*s' is not KEY=VALUE\n", cmd,
				   qlen(kv), kv);
		return -EINVAL;
	}
	err = dmc_ctl_check_name("attr= KEY", kv, false);
	if (err)
		return err;
	if (strlen(value) > DMC_CTL_VALUE_MAX) {
		pr_err_ratelimited("%s: value of attribute '%s' is %zu bytes, more than %d\n",
				   cmd, kv, strlen(value), DMC_CTL_VALUE_MAX);
		return -E2BIG;
	}
	for (i = 0; i < ARRAY_SIZE(dmc_ctl_reserved_attrs); i++) {
		if (!strcmp(kv, dmc_ctl_reserved_attrs[i])) {
			pr_err_ratelimited("%s: attribute name '%s' is the core's\n",
					   cmd, kv);
			return -EEXIST;
		}
	}
	for (i = 0; i < a->nattrs; i++) {
		if (!strcmp(kv, a->keys[i])) {
			pr_err_ratelimited("%s: duplicate attribute '%s'\n", cmd, kv);
			return -EINVAL;
		}
	}
	a->keys[a->nattrs] = kv;
	a->values[a->nattrs] = value;
	a->nattrs++;
	return 0;
}

static int dmc_ctl_parse_device(char **pos, struct dmc_ctl_device_args *a)
{
	static const char cmd[] = "device add";
	unsigned int seen = 0, bit;
	char *tok, *key, *v;
	int err = 0;

	while (!err && (tok = dmc_ctl_next(pos))) {
		key = tok;
		if (!dmc_ctl_split(tok, &v))
			return dmc_ctl_unknown_option(cmd, tok);
		if (!strcmp(key, "attr")) {
			err = dmc_ctl_parse_attr(a, v);
			continue;
		}
		if (!strcmp(key, "bus"))
			bit = DMC_CTL_OPT_BUS;
		else if (!strcmp(key, "parent"))
			bit = DMC_CTL_OPT_PARENT;
		else if (!strcmp(key, "class"))
			bit = DMC_CTL_OPT_CLASS;
		else
			return dmc_ctl_unknown_option(cmd, key);
		if (seen & bit)
			return dmc_ctl_dup(cmd, key);
		seen |= bit;
		switch (bit) {
		case DMC_CTL_OPT_BUS:
			err = dmc_ctl_check_name("bus=", v, true);
			a->bus = v;
			break;
		case DMC_CTL_OPT_CLASS:
			err = dmc_ctl_check_name("class=", v, true);
			a->class = v;
			break;
		case DMC_CTL_OPT_PARENT:
			a->parent_path = v;
			break;
		}
	}
	return err;
}

static struct dmc_ctl_device *dmc_ctl_device_alloc(const struct dmc_ctl_device_args *a)
{
	struct dmc_ctl_device *cdev;
	struct dmc_ctl_attr *ca;
	unsigned int i;

	cdev = kzalloc(struct_size(cdev, attrs, a->nattrs), GFP_KERNEL);
	if (!cdev)
		return NULL;
	spin_lock_init(&cdev->lock);
	cdev->nattrs = a->nattrs;
	for (i = 0; i < a->nattrs; i++) {
		ca = &cdev->attrs[i];
		strscpy(ca->name, a->keys[i], sizeof(ca->name));
		strscpy(ca->value, a->values[i], sizeof(ca->value));
		ca->dattr.attr.name = ca->name;
		ca->dattr.attr.mode = 0644;
		ca->dattr.show = dmc_ctl_attr_show;
		ca->dattr.store = dmc_ctl_attr_store;
		cdev->attr_ptrs[i] = &ca->dattr.attr;
	}
	if (a->nattrs) {
		cdev->group.attrs = cdev->attr_ptrs;
		cdev->groups[0] = &cdev->group;
		cdev->dev.groups = cdev->groups;
	}
	return cdev;
}

static int dmc_ctl_device_add(char **pos)
{
	struct dmc_ctl_device_args a = {};
	struct dmc_device *parent = NULL;
	struct dmc_ctl_device *cdev;
	struct dmc_bus_type *bus = NULL;
	struct dmc_class *cls = NULL;
	char *name;
	int err;

	err = dmc_ctl_take_name(pos, "device add", &name);
	if (!err)
		err = dmc_ctl_parse_device(pos, &a);
	if (err)
		return err;

	if (a.bus) {
		err = dmc_ctl_lookup_bus("device add", a.bus, &bus);
		if (err)
			return err;
	}
	if (a.class) {
		err = dmc_ctl_lookup_class("device add", a.class, &cls);
		if (err)
			return err;
	}
	if (dmc_ctl_device_name_taken(name)) {
		pr_err_ratelimited("device add: device '%s' exists already\n", name);
		return -EEXIST;
	}
	if (a.parent_path) {
		err = dmc_ctl_resolve(a.parent_path, "device add: parent", &parent);
		if (err)
			return err;
		if (dmc_bridge_is_shadow(parent)) {
			pr_err_ratelimited("device add: parent '%.*s' is a shadow of the bridge (only the real kernel adds there)\n",
					   qlen(a.parent_path), a.parent_path);
			dmc_device_put(parent);
			return -EPERM;
		}
	} else if (!(cls && !bus) && dmc_bridge_owns_name(name)) {
		pr_err_ratelimited("device add: '/devices/%s' is a path of the bridge's shadows\n",
				   name);
		return -EPERM;
	}

	err = -ENOMEM;
	cdev = dmc_ctl_device_alloc(&a);
	if (!cdev)
		goto out;
	dmc_device_initialize(&cdev->dev);
	cdev->dev.release = dmc_ctl_device_release;
	cdev->dev.bus = bus;
	cdev->dev.class = cls;
	cdev->dev.parent = parent;
	err = dmc_device_set_name(&cdev->dev, "%s", name);
	if (err) {
		dmc_device_put(&cdev->dev);	/* release frees it */
		goto out;
	}
	/*
	 * Listed before it is added, so that a deletion racing with the add
	 * finds it: the reference from dmc_device_initialize() is the list's.
	 */
	spin_lock(&dmc_ctl_lock);
	list_add_tail(&cdev->node, &dmc_ctl_devices);
	cdev->listed = true;
	cdev->adding = true;	/* its name is taken, its bus in use */
	spin_unlock(&dmc_ctl_lock);
	/*
	 * Once added, the device can be deleted by another command (its own
	 * "device del", its parent's, or its bus going) before
	 * dmc_device_add() returns here; the tree callback then drops the
	 * list's reference. This one keeps @cdev alive until we are done.
	 */
	dmc_device_get(&cdev->dev);
	dmc_ctl_unlock();
	err = dmc_device_add(&cdev->dev);	/* probes */
	dmc_ctl_relock();
	spin_lock(&dmc_ctl_lock);
	cdev->adding = false;
	spin_unlock(&dmc_ctl_lock);
	if (err) {
		if (err == -EEXIST)
			pr_err_ratelimited("device add: device '%s' exists already\n",
					   name);
		else
			pr_err_ratelimited("device add: cannot add device '%s': %d\n",
					   name, err);
		if (dmc_ctl_unlist(cdev))
			dmc_device_put(&cdev->dev);	/* the list's */
	}
	dmc_device_put(&cdev->dev);	/* ours; may release it */
out:
	dmc_device_put(parent);
	return err;
}

static int dmc_ctl_device_del(char **pos)
{
	struct dmc_device *dev;
	char *path;
	int err;

	path = dmc_ctl_next(pos);
	if (!path) {
		pr_err_ratelimited("device del: missing path\n");
		return -EINVAL;
	}
	err = dmc_ctl_no_more(pos, "device del");
	if (!err)
		err = dmc_ctl_resolve(path, "device del", &dev);
	if (err)
		return err;
	if (dev->release != dmc_ctl_device_release) {
		pr_err_ratelimited("device del: device '%.*s' was not made by control\n",
				   qlen(path), path);
		dmc_device_put(dev);
		return -EPERM;
	}
	/* Its children go first; the tree callback drops control's reference. */
	dmc_ctl_unlock();
	dmc_device_del(dev);	/* removes */
	dmc_device_put(dev);
	dmc_ctl_relock();
	return 0;
}

/* ---- links ------------------------------------------------------------------ */

/* "link add|del SUPPLIER CONSUMER": both resolved, with references. */
static int dmc_ctl_link_args(char **pos, const char *cmd,
			     struct dmc_device **supplier,
			     struct dmc_device **consumer)
{
	char *s, *c;
	int err;

	s = dmc_ctl_next(pos);
	c = dmc_ctl_next(pos);
	if (!c) {
		pr_err_ratelimited("%s: needs SUPPLIER and CONSUMER\n", cmd);
		return -EINVAL;
	}
	err = dmc_ctl_no_more(pos, cmd);
	if (!err)
		err = dmc_ctl_resolve(s, "link: supplier", supplier);
	if (err)
		return err;
	err = dmc_ctl_resolve(c, "link: consumer", consumer);
	if (err)
		dmc_device_put(*supplier);
	return err;
}

static int dmc_ctl_link_add(char **pos)
{
	struct dmc_device *supplier, *consumer;
	struct dmc_device_link *link;
	struct dmc_ctl_link *cl;
	int err;

	err = dmc_ctl_link_args(pos, "link add", &supplier, &consumer);
	if (err)
		return err;
	if (dmc_bridge_is_shadow(supplier) || dmc_bridge_is_shadow(consumer)) {
		pr_err_ratelimited("link add: '%s' is a shadow of the bridge (only the real kernel changes those)\n",
				   dmc_dev_name(dmc_bridge_is_shadow(supplier) ?
						supplier : consumer));
		err = -EPERM;
		goto out;
	}
	err = -ENOMEM;
	cl = kzalloc(sizeof(*cl), GFP_KERNEL);
	if (!cl)
		goto out;
	/*
	 * Recorded first, so that a deletion of either device racing with
	 * the link's creation clears the record (only control frees one).
	 */
	cl->consumer = consumer;
	cl->supplier = supplier;
	spin_lock(&dmc_ctl_lock);
	list_add_tail(&cl->node, &dmc_ctl_links);
	spin_unlock(&dmc_ctl_lock);
	link = dmc_device_link_add(consumer, supplier);
	if (IS_ERR(link)) {
		err = PTR_ERR(link);
		spin_lock(&dmc_ctl_lock);
		list_del(&cl->node);
		spin_unlock(&dmc_ctl_lock);
		pr_err_ratelimited("link add: supplier '%s' consumer '%s' refused: %d%s\n",
				   dmc_dev_name(supplier), dmc_dev_name(consumer), err,
				   err == -EEXIST ? " (exists already)" :
				   err == -EINVAL ? " (itself or a cycle)" : "");
		kfree(cl);
		goto out;
	}
	err = 0;
out:
	dmc_device_put(consumer);
	dmc_device_put(supplier);
	return err;
}

static int dmc_ctl_link_del(char **pos)
{
	struct dmc_device *supplier, *consumer;
	struct dmc_ctl_link *cl;
	int err;

	err = dmc_ctl_link_args(pos, "link del", &supplier, &consumer);
	if (err)
		return err;
	spin_lock(&dmc_ctl_lock);
	cl = dmc_ctl_find_link(consumer, supplier);
	spin_unlock(&dmc_ctl_lock);
	if (!dmc_device_link_find(consumer, supplier)) {
		pr_err_ratelimited("link del: no link from supplier '%s' to consumer '%s'\n",
				   dmc_dev_name(supplier), dmc_dev_name(consumer));
		err = -ENOENT;
	} else if (!cl) {
		pr_err_ratelimited("link del: link from supplier '%s' to consumer '%s' was not made by control\n",
				   dmc_dev_name(supplier), dmc_dev_name(consumer));
		err = -EPERM;
	} else {
		err = dmc_device_link_remove(consumer, supplier);
		if (err)
			pr_err_ratelimited("link del: no link from supplier '%s' to consumer '%s'\n",
					   dmc_dev_name(supplier),
					   dmc_dev_name(consumer));
	}
	if (cl && err != -EPERM) {	/* removed, or gone meanwhile */
		spin_lock(&dmc_ctl_lock);
		list_del(&cl->node);
		spin_unlock(&dmc_ctl_lock);
		kfree(cl);
	}
	dmc_device_put(consumer);
	dmc_device_put(supplier);
	return err;
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

/* ---- commands ----------------------------------------------------------------- */

struct dmc_ctl_object {
	const char *name;
	int (*add)(char **pos);
	int (*del)(char **pos);
};

static const struct dmc_ctl_object dmc_ctl_objects[] = {
	{ "bus", dmc_ctl_bus_add, dmc_ctl_bus_del },
	{ "class", dmc_ctl_class_add, dmc_ctl_class_del },
	{ "driver", dmc_ctl_driver_add, dmc_ctl_driver_del },
	{ "device", dmc_ctl_device_add, dmc_ctl_device_del },
	{ "link", dmc_ctl_link_add, dmc_ctl_link_del },
};

/* Run one command, a writable NUL-terminated line; control mutex held. */
static int dmc_ctl_run(char *line)
{
	const struct dmc_ctl_object *obj = NULL;
	char *pos = line, *verb, *action;
	unsigned int i;
	int err;

	verb = dmc_ctl_next(&pos);
	if (!verb) {
		pr_err_ratelimited("empty command\n");
		return -EINVAL;
	}
	if (!strcmp(verb, "suspend") || !strcmp(verb, "resume")) {
		err = dmc_ctl_no_more(&pos, verb);
		if (err)
			return err;
		dmc_ctl_unlock();
		err = verb[0] == 's' ? dmc_ctl_suspend_all() : dmc_ctl_resume_all();
		dmc_ctl_relock();
		return err;
	}
	if (!strcmp(verb, "settle")) {
		err = dmc_ctl_no_more(&pos, verb);
		if (err)
			return err;
		dmc_ctl_unlock();
		dmc_bridge_settle();
		dmc_ctl_relock();
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(dmc_ctl_objects); i++)
		if (!strcmp(verb, dmc_ctl_objects[i].name))
			obj = &dmc_ctl_objects[i];
	if (!obj) {
		pr_err_ratelimited("unknown command '%.*s'\n", qlen(verb), verb);
		return -EINVAL;
	}
	action = dmc_ctl_next(&pos);
	if (!action) {
		pr_err_ratelimited("%s: missing action (add or del)\n", verb);
		return -EINVAL;
	}
	if (!strcmp(action, "add"))
		return obj->add(&pos);
	if (!strcmp(action, "del"))
		return obj->del(&pos);
	pr_err_ratelimited("%s: unknown action '%.*s' (add or del)\n", verb,
			   qlen(action), action);
	return -EINVAL;
}

/* The framing of one write: exactly one line, no control character. */
static int dmc_ctl_check_write(const char *buf, size_t count)
{
	size_t i;

	if (count > PAGE_SIZE) {
		pr_err_ratelimited("write of %zu bytes, more than %lu\n", count,
				   PAGE_SIZE);
		return -E2BIG;
	}
	if (!count) {
		pr_err_ratelimited("empty command\n");
		return -EINVAL;
	}
	if (buf[count - 1] != '\n') {
		pr_err_ratelimited("no newline at the end: a command split across writes (or missing newline)\n");
		return -EINVAL;
	}
	for (i = 0; i < count - 1; i++) {
		unsigned char c = buf[i];

		if (c == '\n') {
			pr_err_ratelimited("more than one line in one write (one command per write)\n");
			return -EINVAL;
		}
		if ((c < 0x20 && c != '\t') || c == 0x7f) {
			pr_err_ratelimited("control character 0x%02x at byte %zu\n",
					   c, i);
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * dmc_control_exec() - run one control command
 * @buf: the bytes of one write() to the control file; need not be
 *	NUL-terminated
 * @count: how many bytes were written (may exceed what @buf holds when it
 *	is more than PAGE_SIZE: then only @count is looked at)
 *
 * Runs the command in @buf (grammar at the top of this file). Commands
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
 * this file.
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
	err = dmc_listener_register(&dmc_ctl_listener);
	dmc_ctl_listening = !err;
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
	struct dmc_ctl_link *cl, *ltmp;
	struct dmc_ctl_class *cc, *cctmp;
	struct dmc_ctl_bus *cb, *btmp;
	struct dmc_ctl_device *cdev;

	mutex_lock(&dmc_control_mutex);
	dmc_ctl_dead = true;
	mutex_unlock(&dmc_control_mutex);
	/* Commands under way may have let go of the mutex: wait for them. */
	wait_var_event(&dmc_ctl_active, !atomic_read(&dmc_ctl_active));
	/* Later commands fail at once: the lists are this function's now. */
	mutex_lock(&dmc_control_mutex);
	for (;;) {
		spin_lock(&dmc_ctl_lock);
		cdev = list_first_entry_or_null(&dmc_ctl_devices,
						struct dmc_ctl_device, node);
		if (cdev) {
			list_del_init(&cdev->node);
			cdev->listed = false;
		}
		spin_unlock(&dmc_ctl_lock);
		if (!cdev)
			break;
		dmc_ctl_unlock();
		dmc_device_del(&cdev->dev);
		dmc_device_put(&cdev->dev);
		dmc_ctl_relock();
	}
	list_for_each_entry_safe_reverse(cd, ctmp, &dmc_ctl_drivers, node)
		dmc_ctl_driver_free(cd);
	/*
	 * Links of control devices went with them; links between devices
	 * control did not make cannot outlive their modules, which are gone
	 * before dmcore: only the records are left.
	 */
	spin_lock(&dmc_ctl_lock);
	list_for_each_entry_safe(cl, ltmp, &dmc_ctl_links, node) {
		list_del(&cl->node);
		kfree(cl);
	}
	spin_unlock(&dmc_ctl_lock);
	list_for_each_entry_safe_reverse(cc, cctmp, &dmc_ctl_classes, node)
		dmc_ctl_class_free(cc);
	list_for_each_entry_safe_reverse(cb, btmp, &dmc_ctl_buses, node)
		dmc_ctl_bus_free(cb);
	if (dmc_ctl_listening)
		dmc_listener_unregister(&dmc_ctl_listener);
	dmc_ctl_listening = false;
	mutex_unlock(&dmc_control_mutex);
}
