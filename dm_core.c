// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore's module: the roots of the model, load and unload. The
 * counterpart of drivers/base/init.c and the kset part of
 * drivers/base/core.c (devices_kset), bus.c (bus_kset) and class.c
 * (class_kset).
 *
 * At load the core sets up its indexes and event log, starts the debugfs
 * export (a listener, unless export=0), and creates the three roots of the
 * tree, "devices", "bus" and "class", as ksets. At unload it takes them
 * down in reverse and reports every object still alive: each one is a
 * leak, and the test harness fails on the report.
 */

#include <linux/module.h>
#include <linux/moduleparam.h>

#include "base.h"

static unsigned int event_log_size = DMC_EVENT_LOG_DEFAULT;
module_param(event_log_size, uint, 0444);
MODULE_PARM_DESC(event_log_size, "events the event log keeps (1..1048576)");

static bool export = true;
module_param(export, bool, 0444);
MODULE_PARM_DESC(export, "mirror the model under /sys/kernel/debug/dmcore");

struct dmc_kset *dmc_devices_kset;
struct dmc_kset *dmc_bus_kset;
struct dmc_kset *dmc_class_kset;

static int __init dmc_init(void)
{
	int err;

	if (!event_log_size || event_log_size > DMC_EVENT_LOG_MAX) {
		pr_err("dmcore: event_log_size=%u out of range 1..%u\n",
		       event_log_size, DMC_EVENT_LOG_MAX);
		return -EINVAL;
	}
	err = dmc_kobject_tree_init();
	if (err)
		return err;
	err = dmc_event_init(event_log_size);
	if (err)
		goto err_tree;
	if (export) {
		err = dmc_export_init();
		if (err)
			goto err_event;
	}

	err = -ENOMEM;
	dmc_devices_kset = dmc_kset_create_and_add("devices", NULL, NULL);
	if (!dmc_devices_kset)
		goto err_export;
	dmc_bus_kset = dmc_kset_create_and_add("bus", NULL, NULL);
	if (!dmc_bus_kset)
		goto err_devices;
	dmc_class_kset = dmc_kset_create_and_add("class", NULL, NULL);
	if (!dmc_class_kset)
		goto err_bus;

	pr_info("dmcore: loaded: event log of %u, export %s\n", event_log_size,
		export ? "on" : "off");
	return 0;

err_bus:
	dmc_kset_unregister(dmc_bus_kset);
err_devices:
	dmc_kset_unregister(dmc_devices_kset);
err_export:
	if (export)
		dmc_export_exit();
err_event:
	dmc_event_exit();
err_tree:
	dmc_kobject_tree_exit();
	return err;
}

static void __exit dmc_exit(void)
{
	unsigned long leaked;

	dmc_kset_unregister(dmc_class_kset);
	dmc_kset_unregister(dmc_bus_kset);
	dmc_kset_unregister(dmc_devices_kset);
	if (export)
		dmc_export_exit();

	leaked = dmc_kobject_report_leaks();
	dmc_event_exit();
	dmc_kobject_tree_exit();
	if (leaked)
		pr_err("dmcore: unloaded, %lu objects leaked\n", leaked);
	else
		pr_info("dmcore: unloaded, 0 objects leaked\n");
}

module_init(dmc_init);
module_exit(dmc_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("dmcore: the Linux device model, reimplemented with its own refcounted core");
MODULE_AUTHOR("The dmcore developers");
