// SPDX-License-Identifier: GPL-2.0
/*
 * A sample bus on dmcore, in the manner of LDD3's lddbus, done with real
 * release functions.
 *
 * Loading this module registers the bus "sample" and a small hierarchy:
 *
 *	/devices/sample-root		the bus's root device (no bus itself)
 *	/devices/sample-root/widget0	on bus "sample", kind "widget"
 *	/devices/sample-root/widget1	on bus "sample", kind "widget"
 *	/devices/sample-root/gadget0	on bus "sample", kind "gadget"
 *
 * A driver on this bus serves the devices whose kind is its name: the
 * sample driver module registers "widget" and so binds widget0 and
 * widget1, while gadget0 waits for a "gadget" driver that never comes.
 *
 * Unloading removes the devices and the bus. If a driver module is still
 * loaded, dmc_bus_unregister() unbinds its devices and detaches it, and
 * that module's own unregister later does nothing: the two modules may go
 * in either order. This module exports nothing; drivers find the bus by
 * name with dmc_bus_find().
 */

#include <linux/module.h>
#include <linux/slab.h>
#include <dmcore/device.h>

/* A device of the sample bus: a dmc_device with a kind. */
struct sample_device {
	struct dmc_device dev;
	const char *kind;
};

#define to_sample_device(d) container_of(d, struct sample_device, dev)

static int sample_match(struct dmc_device *dev, const struct dmc_driver *drv)
{
	return !strcmp(to_sample_device(dev)->kind, drv->name);
}

/* Every event of a sample device says what kind it is. */
static int sample_uevent(const struct dmc_device *dev, struct dmc_uevent_env *env)
{
	const struct sample_device *sdev = container_of(dev, struct sample_device,
							dev);

	return dmc_add_uevent_var(env, "SAMPLE_KIND=%s", sdev->kind);
}

static struct dmc_bus_type sample_bus = {
	.name = "sample",
	.match = sample_match,
	.uevent = sample_uevent,
};

/* The memory of a device goes only when its last reference does. */
static void sample_device_release(struct dmc_device *dev)
{
	kfree(to_sample_device(dev));
}

static void sample_root_release(struct dmc_device *dev)
{
	kfree(dev);
}

static struct dmc_device *sample_root;
static struct sample_device *sample_devs[3];
static const char * const sample_names[] = { "widget0", "widget1", "gadget0" };
static const char * const sample_kinds[] = { "widget", "widget", "gadget" };

static struct sample_device *sample_device_create(const char *name,
						  const char *kind)
{
	struct sample_device *sdev;
	int err;

	sdev = kzalloc(sizeof(*sdev), GFP_KERNEL);
	if (!sdev)
		return ERR_PTR(-ENOMEM);
	sdev->kind = kind;
	dmc_device_initialize(&sdev->dev);
	sdev->dev.bus = &sample_bus;
	sdev->dev.parent = sample_root;
	sdev->dev.release = sample_device_release;
	err = dmc_device_set_name(&sdev->dev, "%s", name);
	if (!err)
		err = dmc_device_add(&sdev->dev);
	if (err) {
		/* After initialize, only a put may free: the release runs. */
		dmc_device_put(&sdev->dev);
		return ERR_PTR(err);
	}
	return sdev;
}

static int __init sample_bus_init(void)
{
	int err, i;

	err = dmc_bus_register(&sample_bus);
	if (err)
		return err;

	sample_root = kzalloc(sizeof(*sample_root), GFP_KERNEL);
	if (!sample_root) {
		err = -ENOMEM;
		goto err_bus;
	}
	dmc_device_initialize(sample_root);
	sample_root->init_name = "sample-root";
	sample_root->release = sample_root_release;
	err = dmc_device_add(sample_root);
	if (err)
		goto err_put_root;

	for (i = 0; i < ARRAY_SIZE(sample_devs); i++) {
		sample_devs[i] = sample_device_create(sample_names[i], sample_kinds[i]);
		if (IS_ERR(sample_devs[i])) {
			err = PTR_ERR(sample_devs[i]);
			goto err_devs;
		}
	}
	pr_info("dmc_sample_bus: bus 'sample' with %zu devices\n",
		ARRAY_SIZE(sample_devs));
	return 0;

err_devs:
	while (i--)
		dmc_device_unregister(&sample_devs[i]->dev);
	dmc_device_del(sample_root);
err_put_root:
	dmc_device_put(sample_root);
err_bus:
	dmc_bus_unregister(&sample_bus);
	return err;
}

static void __exit sample_bus_exit(void)
{
	int i = ARRAY_SIZE(sample_devs);

	/* The reverse of init: devices, their parent, then the bus. */
	while (i--)
		dmc_device_unregister(&sample_devs[i]->dev);
	dmc_device_unregister(sample_root);
	dmc_bus_unregister(&sample_bus);
	pr_info("dmc_sample_bus: removed\n");
}

module_init(sample_bus_init);
module_exit(sample_bus_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("dmcore sample: a bus with a few devices");
