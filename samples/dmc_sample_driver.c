// SPDX-License-Identifier: GPL-2.0
/*
 * A sample driver on dmcore: serves the "widget" devices of the sample
 * bus (dmc_sample_bus.c), in the manner of LDD3's sculld.
 *
 * The driver finds its bus by name, so it does not depend on the bus
 * module's symbols and the two modules unload in either order. Each bound
 * device gets per-device state from probe: what a real driver keeps in
 * dev->driver_data. All of it is managed (devres, include/dmcore/devres.h):
 * the state and a label are allocated for the device, and an action logs
 * the unbind, so the driver needs no remove; the core releases them,
 * newest first, after the binding ends (or when a probe fails). The
 * device's "devres" file in the tree lists them while it is bound.
 *
 * While bound, each widget also shows the driver's files (dev_groups,
 * added by the core after the probe and removed before the binding
 * ends): "serial" and "label", and "debug" only when the module is
 * loaded with debug_attrs=1 (is_visible() hides it otherwise).
 */

#include <linux/module.h>
#include <linux/slab.h>
#include <dmcore/device.h>
#include <dmcore/devres.h>

struct widget_state {
	unsigned int serial;
	const char *label;
};

static unsigned int widget_next_serial;

/* A managed action: runs first when the binding ends (added last). */
static void widget_unbound(void *data)
{
	struct widget_state *st = data;

	pr_info("dmc_sample_driver: unbound %s (serial %u)\n", st->label,
		st->serial);
}

static bool debug_attrs;
module_param(debug_attrs, bool, 0444);
MODULE_PARM_DESC(debug_attrs, "show each widget's debug file");

static ssize_t serial_show(struct dmc_device *dev, struct dmc_device_attribute *attr,
			   char *buf)
{
	struct widget_state *st = dmc_dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", st->serial);
}
static DMC_DEVICE_ATTR_RO(serial);

static ssize_t label_show(struct dmc_device *dev, struct dmc_device_attribute *attr,
			  char *buf)
{
	struct widget_state *st = dmc_dev_get_drvdata(dev);

	return sysfs_emit(buf, "%s\n", st->label);
}
static DMC_DEVICE_ATTR_RO(label);

static ssize_t debug_show(struct dmc_device *dev, struct dmc_device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n", dmc_dev_name(dev));
}
static DMC_DEVICE_ATTR_RO(debug);

static struct dmc_attribute *widget_attrs[] = {
	&dmc_dev_attr_serial.attr,
	&dmc_dev_attr_label.attr,
	&dmc_dev_attr_debug.attr,
	NULL,
};

static umode_t widget_attr_visible(struct dmc_kobject *kobj, struct dmc_attribute *attr,
				   int n)
{
	if (attr == &dmc_dev_attr_debug.attr && !debug_attrs)
		return 0;
	return attr->mode;
}

static const struct dmc_attribute_group widget_group = {
	.is_visible = widget_attr_visible,
	.attrs = widget_attrs,
};
__DMC_ATTRIBUTE_GROUPS(widget);

static int widget_probe(struct dmc_device *dev)
{
	struct widget_state *st;

	st = dmc_devm_kzalloc(dev, sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	st->serial = ++widget_next_serial;
	st->label = dmc_devm_kasprintf(dev, GFP_KERNEL, "%s#%u", dmc_dev_name(dev),
				       st->serial);
	if (!st->label)
		return -ENOMEM;	/* the core frees @st */
	dmc_dev_set_drvdata(dev, st);
	pr_info("dmc_sample_driver: bound %s (serial %u)\n", dmc_dev_name(dev),
		st->serial);
	return dmc_devm_add_action_or_reset(dev, widget_unbound, st);
}

static struct dmc_driver widget_driver = {
	.name = "widget",
	.probe = widget_probe,
	.dev_groups = widget_groups,
};

static int __init widget_init(void)
{
	widget_driver.bus = dmc_bus_find("sample");
	if (!widget_driver.bus) {
		pr_err("dmc_sample_driver: no bus 'sample'; load dmc_sample_bus first\n");
		return -ENODEV;
	}
	return dmc_driver_register(&widget_driver);
}

static void __exit widget_exit(void)
{
	/* Does nothing if the bus went first and detached the driver. */
	dmc_driver_unregister(&widget_driver);
	pr_info("dmc_sample_driver: removed\n");
}

module_init(widget_init);
module_exit(widget_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("dmcore sample: a driver for the sample bus's widgets");
