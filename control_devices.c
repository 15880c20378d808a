// SPDX-License-Identifier: GPL-2.0
/*
 * Control's devices and links: what "device add|del" and "link add|del"
 * make and take down. A control device is one allocation with its
 * attributes (attr=KEY=VALUE files) and a real release; control's list
 * holds a reference to each, which a tree listener drops at once when
 * the core deletes the device behind control's back. A link is only
 * recorded, by its two devices. Both lists are under dmc_ctl_lock, a leaf
 * spinlock, as the listener runs under dmc_tree_mutex. The grammar is at
 * the top of control.c; running a command, in control_verbs.c. No
 * counterpart in drivers/base.
 */

#define pr_fmt(fmt) "dmcore: control: " fmt

#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/overflow.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "base.h"
#include "clients.h"
#include "control.h"

/*
 * Devices and link records are also changed by the core's tree callback
 * (dmc_ctl_kobj_removed()), which must not take dmc_control_mutex: a leaf
 * spinlock, under dmc_tree_mutex there, protects them.
 */
static DEFINE_SPINLOCK(dmc_ctl_lock);
static LIST_HEAD(dmc_ctl_devices);
static LIST_HEAD(dmc_ctl_links);
static bool dmc_ctl_listening;		/* dmc_ctl_listener is registered */

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

static inline struct dmc_ctl_device *to_ctl_device(struct dmc_device *dev)
{
	return container_of(dev, struct dmc_ctl_device, dev);
}

/* ---- callbacks: attributes, release ------------------------------------ */

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

/* Did control make @dev? */
bool dmc_ctl_is_ctl_device(const struct dmc_device *dev)
{
	return dev->release == dmc_ctl_device_release;
}

/* ---- the lists ---------------------------------------------------------- */

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
bool dmc_ctl_devices_use(const struct dmc_bus_type *bus,
			 const struct dmc_class *cls, char *name, size_t size)
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
void dmc_ctl_prune(void)
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

/* ---- paths ------------------------------------------------------------ */

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
					   dmc_ctl_qlen(path), path, len ?
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
	pr_err_ratelimited("%s: unknown device '%.*s'\n", what, dmc_ctl_qlen(path), path);
	return -ENOENT;
}

/* ---- devices -------------------------------------------------------------- */

static struct dmc_ctl_device *dmc_ctl_device_alloc(const struct dmc_ctl_attrs *a)
{
	struct dmc_ctl_device *cdev;
	struct dmc_ctl_attr *ca;
	unsigned int i;

	cdev = kzalloc(struct_size(cdev, attrs, a->n), GFP_KERNEL);
	if (!cdev)
		return NULL;
	spin_lock_init(&cdev->lock);
	cdev->nattrs = a->n;
	for (i = 0; i < a->n; i++) {
		ca = &cdev->attrs[i];
		strscpy(ca->name, a->keys[i], sizeof(ca->name));
		strscpy(ca->value, a->values[i], sizeof(ca->value));
		ca->dattr.attr.name = ca->name;
		ca->dattr.attr.mode = 0644;
		ca->dattr.show = dmc_ctl_attr_show;
		ca->dattr.store = dmc_ctl_attr_store;
		cdev->attr_ptrs[i] = &ca->dattr.attr;
	}
	if (a->n) {
		cdev->group.attrs = cdev->attr_ptrs;
		cdev->groups[0] = &cdev->group;
		cdev->dev.groups = cdev->groups;
	}
	return cdev;
}

int dmc_ctl_device_add(const struct dmc_ctl_args *a)
{
	const char *name = a->arg[0];
	struct dmc_device *parent = NULL;
	struct dmc_ctl_device *cdev;
	struct dmc_bus_type *bus = NULL;
	struct dmc_class *cls = NULL;
	int err;

	if (a->bus) {
		err = dmc_ctl_lookup_bus("device add", a->bus, &bus);
		if (err)
			return err;
	}
	if (a->class) {
		err = dmc_ctl_lookup_class("device add", a->class, &cls);
		if (err)
			return err;
	}
	if (dmc_ctl_device_name_taken(name)) {
		pr_err_ratelimited("device add: device '%s' exists already\n", name);
		return -EEXIST;
	}
	if (a->parent) {
		err = dmc_ctl_resolve(a->parent, "device add: parent", &parent);
		if (err)
			return err;
		if (dmc_bridge_is_shadow(parent)) {
			pr_err_ratelimited("device add: parent '%.*s' is a shadow of the bridge (only the real kernel adds there)\n",
					   dmc_ctl_qlen(a->parent), a->parent);
			dmc_device_put(parent);
			return -EPERM;
		}
	} else if (!(cls && !bus) && dmc_bridge_owns_name(name)) {
		pr_err_ratelimited("device add: '/devices/%s' is a path of the bridge's shadows\n",
				   name);
		return -EPERM;
	}

	err = -ENOMEM;
	cdev = dmc_ctl_device_alloc(&a->attrs);
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

int dmc_ctl_device_del(const struct dmc_ctl_args *a)
{
	char *path = a->arg[0];
	struct dmc_device *dev;
	int err;

	err = dmc_ctl_resolve(path, "device del", &dev);
	if (err)
		return err;
	if (dev->release != dmc_ctl_device_release) {
		pr_err_ratelimited("device del: device '%.*s' was not made by control\n",
				   dmc_ctl_qlen(path), path);
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

/*
 * "device rename|move PATH ...": @path resolved to a device control made,
 * with a reference, or an errno logged.
 */
static int dmc_ctl_own_device(char *path, const char *cmd, struct dmc_device **out)
{
	int err = dmc_ctl_resolve(path, cmd, out);

	if (err)
		return err;
	if (!dmc_ctl_is_ctl_device(*out)) {
		pr_err_ratelimited("%s: device '%.*s' was not made by control\n", cmd,
				   dmc_ctl_qlen(path), path);
		dmc_device_put(*out);
		return -EPERM;
	}
	return 0;
}

/* Would @dev named @name, under @parent, be at a path of the bridge's? */
static bool dmc_ctl_bridge_path(struct dmc_device *dev, struct dmc_device *parent,
				const char *name)
{
	return !parent && !(dev->class && !dev->bus) && dmc_bridge_owns_name(name);
}

int dmc_ctl_device_rename(const struct dmc_ctl_args *a)
{
	const char *name = a->arg[1];
	struct dmc_device *dev;
	int err;

	err = dmc_ctl_own_device(a->arg[0], "device rename", &dev);
	if (err)
		return err;
	/* Control's devices are unique by name; control's commands run one at a time. */
	if (strcmp(dmc_dev_name(dev), name) && dmc_ctl_device_name_taken(name)) {
		pr_err_ratelimited("device rename: device '%s' exists already\n", name);
		err = -EEXIST;
		goto out;
	}
	if (dmc_ctl_bridge_path(dev, dev->parent, name)) {
		pr_err_ratelimited("device rename: '/devices/%s' is a path of the bridge's shadows\n",
				   name);
		err = -EPERM;
		goto out;
	}
	/*
	 * Under control's mutex (no callback runs): the name checks above
	 * and dmc_ctl_device_name_taken() read control devices' names,
	 * which only this command changes.
	 */
	err = dmc_device_rename(dev, name);	/* logs its refusals */
out:
	dmc_device_put(dev);
	return err;
}

static const char * const dmc_ctl_orders[] = {
	[DMC_DPM_ORDER_NONE] = "none",
	[DMC_DPM_ORDER_DEV_AFTER_PARENT] = "dev-after-parent",
	[DMC_DPM_ORDER_PARENT_BEFORE_DEV] = "parent-before-dev",
	[DMC_DPM_ORDER_DEV_LAST] = "dev-last",
};

int dmc_ctl_device_move(const struct dmc_ctl_args *a)
{
	enum dmc_dpm_order order = DMC_DPM_ORDER_DEV_AFTER_PARENT;
	struct dmc_device *dev, *parent = NULL;
	int err;

	if (a->order) {
		err = match_string(dmc_ctl_orders, ARRAY_SIZE(dmc_ctl_orders), a->order);
		if (err < 0) {
			pr_err_ratelimited("device move: unknown order '%.*s' (none, dev-after-parent, parent-before-dev, dev-last)\n",
					   dmc_ctl_qlen(a->order), a->order);
			return -EINVAL;
		}
		order = err;
	}
	err = dmc_ctl_own_device(a->arg[0], "device move", &dev);
	if (err)
		return err;
	if (strcmp(a->arg[1], "-")) {
		err = dmc_ctl_resolve(a->arg[1], "device move: parent", &parent);
		if (err)
			goto out;
		if (dmc_bridge_is_shadow(parent)) {
			pr_err_ratelimited("device move: parent '%.*s' is a shadow of the bridge (only the real kernel adds there)\n",
					   dmc_ctl_qlen(a->arg[1]), a->arg[1]);
			err = -EPERM;
			goto out;
		}
	} else if (dmc_ctl_bridge_path(dev, NULL, dmc_dev_name(dev))) {
		pr_err_ratelimited("device move: '/devices/%s' is a path of the bridge's shadows\n",
				   dmc_dev_name(dev));
		err = -EPERM;
		goto out;
	}
	dmc_ctl_unlock();
	err = dmc_device_move(dev, parent, order);	/* logs its refusals */
	dmc_ctl_relock();
out:
	dmc_device_put(parent);
	dmc_device_put(dev);
	return err;
}

/* "device override|online|offline PATH": a registered device, not a shadow. */
static int dmc_ctl_resolve_own(char *path, const char *what, struct dmc_device **dev)
{
	int err;

	err = dmc_ctl_resolve(path, what, dev);
	if (err)
		return err;
	if (dmc_bridge_is_shadow(*dev)) {
		pr_err_ratelimited("%s: '%.*s' is a device of the bridge (only the real kernel changes those)\n",
				   what, dmc_ctl_qlen(path), path);
		dmc_device_put(*dev);
		return -EPERM;
	}
	return 0;
}

/* "device override PATH DRIVER|-": set or clear its driver_override. */
int dmc_ctl_device_override(const struct dmc_ctl_args *a)
{
	const char *name = a->arg[1];
	struct dmc_device *dev;
	int err;

	if (strcmp(name, "-")) {
		err = dmc_ctl_check_name("device override: DRIVER", name, false);
		if (err)
			return err;
	} else {
		name = "";
	}
	err = dmc_ctl_resolve_own(a->arg[0], "device override", &dev);
	if (err)
		return err;
	/* Takes the device lock, which a probe holds: not under the mutex. */
	dmc_ctl_unlock();
	err = dmc_device_set_driver_override(dev, name);
	dmc_device_put(dev);
	dmc_ctl_relock();
	return err;
}

/* "device online|offline PATH" */
int dmc_ctl_device_hotplug(const struct dmc_ctl_args *a)
{
	bool online = a->cmd == DMC_CTL_DEVICE_ONLINE;
	const char *what = online ? "device online" : "device offline";
	struct dmc_device *dev;
	int err;

	err = dmc_ctl_resolve_own(a->arg[0], what, &dev);
	if (err)
		return err;
	if (!dev->bus || !dev->bus->online || !dev->bus->offline) {
		pr_err_ratelimited("%s: '%.*s' is on no bus that can take it offline\n",
				   what, dmc_ctl_qlen(a->arg[0]), a->arg[0]);
		dmc_device_put(dev);
		return -EOPNOTSUPP;
	}
	dmc_ctl_unlock();	/* the bus's callbacks run */
	dmc_lock_device_hotplug();
	err = online ? dmc_device_online(dev) : dmc_device_offline(dev);
	dmc_unlock_device_hotplug();
	dmc_device_put(dev);
	dmc_ctl_relock();
	if (err == -EBUSY)
		pr_err_ratelimited("%s: '%.*s' has a child that is online\n", what,
				   dmc_ctl_qlen(a->arg[0]), a->arg[0]);
	else if (err < 0)
		pr_err_ratelimited("%s: '%.*s': error %d\n", what,
				   dmc_ctl_qlen(a->arg[0]), a->arg[0], err);
	return err < 0 ? err : 0;
}

/* ---- links ------------------------------------------------------------------ */

/* "link add|del SUPPLIER CONSUMER": both resolved, with references. */
static int dmc_ctl_link_args(const struct dmc_ctl_args *a,
			     struct dmc_device **supplier,
			     struct dmc_device **consumer)
{
	int err;

	err = dmc_ctl_resolve(a->arg[0], "link: supplier", supplier);
	if (err)
		return err;
	err = dmc_ctl_resolve(a->arg[1], "link: consumer", consumer);
	if (err)
		dmc_device_put(*supplier);
	return err;
}

/* Another record of @cl's pair? Then @cl is taken off the list. */
static bool dmc_ctl_link_dup(struct dmc_ctl_link *cl)
{
	struct dmc_ctl_link *o;
	bool dup = false;

	spin_lock(&dmc_ctl_lock);
	list_for_each_entry(o, &dmc_ctl_links, node) {
		if (o != cl && o->consumer == cl->consumer &&
		    o->supplier == cl->supplier) {
			list_del(&cl->node);
			dup = true;
			break;
		}
	}
	spin_unlock(&dmc_ctl_lock);
	return dup;
}

int dmc_ctl_link_add(const struct dmc_ctl_args *a)
{
	struct dmc_device *supplier, *consumer;
	struct dmc_device_link *link;
	struct dmc_ctl_link *cl;
	int err;

	err = dmc_ctl_link_args(a, &supplier, &consumer);
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
	link = dmc_device_link_add(consumer, supplier, a->link_flags);
	if (IS_ERR(link)) {
		err = PTR_ERR(link);
		spin_lock(&dmc_ctl_lock);
		list_del(&cl->node);
		spin_unlock(&dmc_ctl_lock);
		pr_err_ratelimited("link add: supplier '%s' consumer '%s' refused: %d%s\n",
				   dmc_dev_name(supplier), dmc_dev_name(consumer), err,
				   err == -EINVAL ? " (itself, a cycle or flags)" : "");
		kfree(cl);
		goto out;
	}
	/*
	 * One record per reference "link del" may drop: a managed add of a
	 * link control recorded already merged into it without taking one.
	 */
	if (!(a->link_flags & DMC_DL_FLAG_STATELESS) && dmc_ctl_link_dup(cl))
		kfree(cl);
	err = 0;
out:
	dmc_device_put(consumer);
	dmc_device_put(supplier);
	return err;
}

int dmc_ctl_link_del(const struct dmc_ctl_args *a)
{
	struct dmc_device *supplier, *consumer;
	struct dmc_ctl_link *cl;
	int err;

	err = dmc_ctl_link_args(a, &supplier, &consumer);
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

/* ---- runtime PM ----------------------------------------------------------- */

/* One "runtime" verb on @dev, no control lock held; 0 or a negative errno. */
static int dmc_ctl_runtime_do(struct dmc_device *dev, const struct dmc_ctl_args *a)
{
	int ret = 0;

	switch (a->cmd) {
	case DMC_CTL_RUNTIME_GET:
		ret = dmc_pm_runtime_get(dev);
		if (ret < 0)
			dmc_pm_runtime_put_noidle(dev);	/* refused: nothing kept */
		break;
	case DMC_CTL_RUNTIME_GET_SYNC:
		ret = dmc_pm_runtime_resume_and_get(dev);
		break;
	case DMC_CTL_RUNTIME_PUT:
		ret = dmc_pm_runtime_put(dev);
		break;
	case DMC_CTL_RUNTIME_PUT_SYNC:
		ret = dmc_pm_runtime_put_sync(dev);
		break;
	case DMC_CTL_RUNTIME_PUT_AUTOSUSPEND:
		ret = dmc_pm_runtime_put_autosuspend(dev);
		break;
	case DMC_CTL_RUNTIME_ENABLE:
		if (dmc_pm_runtime_enabled(dev)) {
			pr_err_ratelimited("runtime enable: '%s' is enabled already\n",
					   dmc_dev_name(dev));
			return -EINVAL;
		}
		dmc_pm_runtime_enable(dev);
		return 0;
	case DMC_CTL_RUNTIME_DISABLE:
		dmc_pm_runtime_disable(dev);
		return 0;
	case DMC_CTL_RUNTIME_ALLOW:
		dmc_pm_runtime_allow(dev);
		return 0;
	case DMC_CTL_RUNTIME_FORBID:
		dmc_pm_runtime_forbid(dev);
		return 0;
	case DMC_CTL_RUNTIME_AUTOSUSPEND:
		dmc_pm_runtime_set_autosuspend_delay(dev, a->delay_ms);
		dmc_pm_runtime_use_autosuspend(dev);
		return 0;
	default:
		return -EINVAL;
	}
	/* A put's refusals of a suspend are not errors; its underflow is. */
	if (ret == -EINVAL)
		return ret;
	if (ret == -EAGAIN || ret == -EBUSY || ret == -EINPROGRESS ||
	    ret == -EACCES)
		ret = a->cmd == DMC_CTL_RUNTIME_GET ||
		      a->cmd == DMC_CTL_RUNTIME_GET_SYNC ? ret : 0;
	if (ret < 0)
		pr_err_ratelimited("runtime: '%s': %d\n", dmc_dev_name(dev), ret);
	return ret < 0 ? ret : 0;
}

/**
 * dmc_ctl_runtime() - "runtime ACTION PATH": runtime PM of a control device
 * @a: the parsed command
 *
 * Context: control mutex held; dropped around the core's call, which may
 * run runtime callbacks.
 * Return: 0, -ENOENT/-EINVAL for a bad path, -EPERM for a device control
 * did not make, or the core's error (see the grammar in control.c).
 */
int dmc_ctl_runtime(const struct dmc_ctl_args *a)
{
	struct dmc_device *dev;
	int err;

	err = dmc_ctl_resolve(a->arg[0], "runtime", &dev);
	if (err)
		return err;
	if (dev->release != dmc_ctl_device_release) {
		pr_err_ratelimited("runtime: device '%.*s' was not made by control\n",
				   dmc_ctl_qlen(a->arg[0]), a->arg[0]);
		dmc_device_put(dev);
		return -EPERM;
	}
	dmc_ctl_unlock();
	err = dmc_ctl_runtime_do(dev, a);
	dmc_device_put(dev);
	dmc_ctl_relock();
	return err;
}

/* ---- setup and teardown (control_verbs.c) -------------------------------- */

/* Listen for devices leaving the tree; under dmc_control_mutex. */
int dmc_ctl_listen(void)
{
	int err;

	err = dmc_listener_register(&dmc_ctl_listener);
	dmc_ctl_listening = !err;
	return err;
}

void dmc_ctl_unlisten(void)
{
	if (dmc_ctl_listening)
		dmc_listener_unregister(&dmc_ctl_listener);
	dmc_ctl_listening = false;
}

/*
 * Delete every control device, a device's children and links with it;
 * at unload, under dmc_control_mutex, which is let go of around each.
 */
void dmc_ctl_devices_del_all(void)
{
	struct dmc_ctl_device *cdev;

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
}

/*
 * Free the link records at unload. Links of control devices went with
 * them; links between devices control did not make cannot outlive their
 * modules, which are gone before dmcore: only the records are left.
 */
void dmc_ctl_links_forget(void)
{
	struct dmc_ctl_link *cl, *ltmp;

	spin_lock(&dmc_ctl_lock);
	list_for_each_entry_safe(cl, ltmp, &dmc_ctl_links, node) {
		list_del(&cl->node);
		kfree(cl);
	}
	spin_unlock(&dmc_ctl_lock);
}
