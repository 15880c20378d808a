// SPDX-License-Identifier: GPL-2.0
/*
 * dmc_test_platform -- real platform devices and a real platform driver,
 * registered with the kernel's own driver core (not dmcore), for tests of
 * code that watches the kernel's platform bus (e.g. dmcore's bridge).
 *
 * Controlled through debugfs, /sys/kernel/debug/dmc_test_platform/:
 *
 *   add_device   write "ID" or "ID PARENT_ID": register the platform device
 *                "dmc-test-plat.ID" (ID: 0..INT_MAX), as a child of device
 *                "dmc-test-plat.PARENT_ID" when a parent is given
 *   del_device   write "ID": unregister that device (it must have no
 *                registered children); "ID force": unregister it even
 *                with children, which stay registered, as the real core
 *                allows (a parent removed before its children)
 *   add_driver   write "1": register the platform driver "dmc-test-plat",
 *                whose probe succeeds, so it binds to the devices
 *   del_driver   write "1": unregister the driver (unbinds its devices)
 *   state        read: "driver registered|unregistered", then one line per
 *                device: "dmc-test-plat.ID parent=<name>|- driver=<name>|-"
 *
 * Errors, each leaving everything unchanged: -EINVAL for input that is not
 * exactly what is described above (trailing newline allowed), -EEXIST for
 * an ID or driver already registered, -ENOENT for an unknown ID or parent
 * or a driver not registered, -EBUSY for deleting a device with children,
 * -ENOMEM. Unloading the module unregisters the driver and every device
 * (children first).
 */

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define DTP_NAME	"dmc-test-plat"
#define DTP_INPUT_MAX	32

/**
 * struct dtp_dev - one registered platform device
 * @node: entry in dtp_devices, newest first
 * @id: the device's id, as in its name "dmc-test-plat.<id>"
 * @parent: the tracked parent, or NULL
 * @pdev: the registered platform device (we hold its reference)
 */
struct dtp_dev {
	struct list_head node;
	int id;
	struct dtp_dev *parent;
	struct platform_device *pdev;
};

/* Serialises every control write, and the state reader. */
static DEFINE_MUTEX(dtp_lock);
static LIST_HEAD(dtp_devices);
static bool dtp_driver_registered;
static struct dentry *dtp_dir;

static int dtp_probe(struct platform_device *pdev)
{
	dev_info(&pdev->dev, "probed\n");
	return 0;
}

static int dtp_remove(struct platform_device *pdev)
{
	dev_info(&pdev->dev, "removed\n");
	return 0;
}

static struct platform_driver dtp_driver = {
	.probe = dtp_probe,
	.remove = dtp_remove,
	.driver = {
		.name = DTP_NAME,
	},
};

static struct dtp_dev *dtp_find(int id)
{
	struct dtp_dev *d;

	lockdep_assert_held(&dtp_lock);
	list_for_each_entry(d, &dtp_devices, node)
		if (d->id == id)
			return d;
	return NULL;
}

static bool dtp_has_children(struct dtp_dev *parent)
{
	struct dtp_dev *d;

	lockdep_assert_held(&dtp_lock);
	list_for_each_entry(d, &dtp_devices, node)
		if (d->parent == parent)
			return true;
	return false;
}

/**
 * dtp_get_input() - copy a short control write from user space
 * @ubuf: user buffer
 * @count: its length
 * @buf: destination, DTP_INPUT_MAX bytes, NUL-terminated on success
 *
 * One trailing newline is removed. The whole input must come in one write.
 *
 * Return: 0, -EINVAL (empty, too long or embedded NUL) or -EFAULT.
 */
static int dtp_get_input(const char __user *ubuf, size_t count, char *buf)
{
	if (count == 0 || count >= DTP_INPUT_MAX)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (buf[count - 1] == '\n')
		buf[--count] = '\0';
	if (count == 0 || strlen(buf) != count)
		return -EINVAL;
	return 0;
}

/**
 * dtp_parse_id() - parse a device id
 * @s: decimal digits only, no sign, no spaces
 * @id: result, 0..INT_MAX
 *
 * Return: 0 or -EINVAL (also for a number above INT_MAX).
 */
static int dtp_parse_id(const char *s, int *id)
{
	if (!isdigit(*s) || kstrtoint(s, 10, id))
		return -EINVAL;
	return 0;
}

/**
 * dtp_add_device() - register platform device "dmc-test-plat.@id"
 * @id: its id, not yet in use
 * @parent_id: id of a registered parent device, or -1 for none
 *
 * Context: takes dtp_lock.
 * Return: 0, -EEXIST, -ENOENT (no such parent), -ENOMEM, or an error from
 * platform_device_add().
 */
static int dtp_add_device(int id, int parent_id)
{
	struct dtp_dev *d, *parent = NULL;
	int ret;

	mutex_lock(&dtp_lock);
	if (dtp_find(id)) {
		ret = -EEXIST;
		goto out;
	}
	if (parent_id >= 0) {
		parent = dtp_find(parent_id);
		if (!parent) {
			ret = -ENOENT;
			goto out;
		}
	}
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d) {
		ret = -ENOMEM;
		goto out;
	}
	d->id = id;
	d->parent = parent;
	d->pdev = platform_device_alloc(DTP_NAME, id);
	if (!d->pdev) {
		kfree(d);
		ret = -ENOMEM;
		goto out;
	}
	if (parent)
		d->pdev->dev.parent = &parent->pdev->dev;
	ret = platform_device_add(d->pdev);
	if (ret) {
		platform_device_put(d->pdev);
		kfree(d);
		goto out;
	}
	list_add(&d->node, &dtp_devices);
out:
	mutex_unlock(&dtp_lock);
	return ret;
}

/* Unregister one tracked device; the caller checked it has no children. */
static void dtp_unregister(struct dtp_dev *d)
{
	lockdep_assert_held(&dtp_lock);
	list_del(&d->node);
	platform_device_unregister(d->pdev);
	kfree(d);
}

/**
 * dtp_del_device() - unregister platform device "dmc-test-plat.@id"
 * @id: its id
 * @force: unregister it even if it has children
 *
 * Context: takes dtp_lock.
 * Return: 0, -ENOENT (no such device) or -EBUSY (it has children and
 * @force is false).
 */
static int dtp_del_device(int id, bool force)
{
	struct dtp_dev *d, *c;
	int ret = 0;

	mutex_lock(&dtp_lock);
	d = dtp_find(id);
	if (!d) {
		ret = -ENOENT;
	} else if (dtp_has_children(d) && !force) {
		ret = -EBUSY;
	} else {
		/* Its children keep their real parent, no longer tracked. */
		list_for_each_entry(c, &dtp_devices, node)
			if (c->parent == d)
				c->parent = NULL;
		dtp_unregister(d);
	}
	mutex_unlock(&dtp_lock);
	return ret;
}

static ssize_t dtp_add_device_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	char buf[DTP_INPUT_MAX], *sp;
	int id, parent_id = -1, ret;

	ret = dtp_get_input(ubuf, count, buf);
	if (ret)
		return ret;
	sp = strchr(buf, ' ');
	if (sp) {
		*sp = '\0';
		ret = dtp_parse_id(sp + 1, &parent_id);
		if (ret)
			return ret;
	}
	ret = dtp_parse_id(buf, &id);
	if (ret)
		return ret;
	if (id == parent_id)
		return -EINVAL;
	ret = dtp_add_device(id, parent_id);
	return ret ? ret : count;
}

static ssize_t dtp_del_device_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	char buf[DTP_INPUT_MAX], *sp;
	bool force = false;
	int id, ret;

	ret = dtp_get_input(ubuf, count, buf);
	if (ret)
		return ret;
	sp = strchr(buf, ' ');
	if (sp) {
		if (strcmp(sp + 1, "force"))
			return -EINVAL;
		*sp = '\0';
		force = true;
	}
	ret = dtp_parse_id(buf, &id);
	if (ret)
		return ret;
	ret = dtp_del_device(id, force);
	return ret ? ret : count;
}

/**
 * dtp_driver_write() - common body of add_driver and del_driver
 * @ubuf: user buffer, must hold "1"
 * @count: its length
 * @add: true to register the driver, false to unregister it
 *
 * Context: takes dtp_lock.
 * Return: @count, -EINVAL, -EEXIST (already registered), -ENOENT (not
 * registered) or an error from platform_driver_register().
 */
static ssize_t dtp_driver_write(const char __user *ubuf, size_t count,
				bool add)
{
	char buf[DTP_INPUT_MAX];
	int ret;

	ret = dtp_get_input(ubuf, count, buf);
	if (ret)
		return ret;
	if (strcmp(buf, "1"))
		return -EINVAL;
	mutex_lock(&dtp_lock);
	if (add == dtp_driver_registered) {
		ret = add ? -EEXIST : -ENOENT;
	} else if (add) {
		ret = platform_driver_register(&dtp_driver);
		if (!ret)
			dtp_driver_registered = true;
	} else {
		platform_driver_unregister(&dtp_driver);
		dtp_driver_registered = false;
	}
	mutex_unlock(&dtp_lock);
	return ret ? ret : count;
}

static ssize_t dtp_add_driver_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	return dtp_driver_write(ubuf, count, true);
}

static ssize_t dtp_del_driver_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	return dtp_driver_write(ubuf, count, false);
}

static int dtp_state_show(struct seq_file *m, void *v)
{
	struct dtp_dev *d;
	struct device *dev;

	mutex_lock(&dtp_lock);
	seq_printf(m, "driver %s\n",
		   dtp_driver_registered ? "registered" : "unregistered");
	list_for_each_entry_reverse(d, &dtp_devices, node) {
		dev = &d->pdev->dev;
		device_lock(dev);
		seq_printf(m, "%s parent=%s driver=%s\n", dev_name(dev),
			   d->parent ? dev_name(&d->parent->pdev->dev) : "-",
			   dev->driver ? dev->driver->name : "-");
		device_unlock(dev);
	}
	mutex_unlock(&dtp_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(dtp_state);

#define DTP_WRITE_FOPS(name)					\
static const struct file_operations dtp_##name##_fops = {	\
	.owner = THIS_MODULE,					\
	.open = simple_open,					\
	.write = dtp_##name##_write,				\
	.llseek = noop_llseek,					\
}

DTP_WRITE_FOPS(add_device);
DTP_WRITE_FOPS(del_device);
DTP_WRITE_FOPS(add_driver);
DTP_WRITE_FOPS(del_driver);

/* Unregister every device, children before their parents. */
static void dtp_unregister_all(void)
{
	struct dtp_dev *d, *tmp;

	mutex_lock(&dtp_lock);
	while (!list_empty(&dtp_devices)) {
		list_for_each_entry_safe(d, tmp, &dtp_devices, node)
			if (!dtp_has_children(d))
				dtp_unregister(d);
	}
	mutex_unlock(&dtp_lock);
}

static int __init dtp_init(void)
{
	dtp_dir = debugfs_create_dir("dmc_test_platform", NULL);
	if (IS_ERR(dtp_dir))
		return PTR_ERR(dtp_dir);
	debugfs_create_file("add_device", 0200, dtp_dir, NULL,
			    &dtp_add_device_fops);
	debugfs_create_file("del_device", 0200, dtp_dir, NULL,
			    &dtp_del_device_fops);
	debugfs_create_file("add_driver", 0200, dtp_dir, NULL,
			    &dtp_add_driver_fops);
	debugfs_create_file("del_driver", 0200, dtp_dir, NULL,
			    &dtp_del_driver_fops);
	debugfs_create_file("state", 0444, dtp_dir, NULL, &dtp_state_fops);
	return 0;
}

static void __exit dtp_exit(void)
{
	/* No write can be in progress or start after this. */
	debugfs_remove(dtp_dir);
	if (dtp_driver_registered)
		platform_driver_unregister(&dtp_driver);
	dtp_unregister_all();
}

module_init(dtp_init);
module_exit(dtp_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("dmcore tests: real platform devices and driver, controlled through debugfs");
