// SPDX-License-Identifier: GPL-2.0
/*
 * A sample driver on dmcore: serves the "widget" devices of the sample
 * bus (dmc_sample_bus.c), in the manner of LDD3's sculld.
 *
 * The driver finds its bus by name, so it does not depend on the bus
 * module's symbols and the two modules unload in either order. Each bound
 * device gets per-device state from probe, freed by remove: what a real
 * driver keeps in dev->driver_data.
 */

#include <linux/module.h>
#include <linux/slab.h>
#include <dmcore/device.h>

struct widget_state {
	unsigned int serial;
};

static unsigned int widget_next_serial;

static int widget_probe(struct dmc_device *dev)
{
	struct widget_state *st;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	st->serial = ++widget_next_serial;
	dmc_dev_set_drvdata(dev, st);
	pr_info("dmc_sample_driver: bound %s (serial %u)\n", dmc_dev_name(dev),
		st->serial);
	return 0;
}

static void widget_remove(struct dmc_device *dev)
{
	struct widget_state *st = dmc_dev_get_drvdata(dev);

	pr_info("dmc_sample_driver: unbound %s (serial %u)\n", dmc_dev_name(dev),
		st->serial);
	kfree(st);
}

static struct dmc_driver widget_driver = {
	.name = "widget",
	.probe = widget_probe,
	.remove = widget_remove,
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
