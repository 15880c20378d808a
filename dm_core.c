// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore's module: its parameters, the roots of the model, load and
 * unload. The counterpart of drivers/base/init.c and of the kset part of
 * drivers/base/core.c (devices_kset), bus.c (bus_kset) and class.c
 * (class_kset).
 *
 * At load the core sets up its devices' cache, indexes, event log and
 * probing, creates the three roots of the tree, "devices", "bus" and
 * "class", as ksets, and then starts the three clients of the core:
 * control (control.c), the bridge (bridge.c) and the export
 * (sysfs_export.c: the filesystem dmcfs.c, a listener, automounted at
 * /sys/kernel/debug/dmcore, unless export=0). At unload it takes them
 * down in reverse and reports every object still alive: each one is a
 * leak, and the test harness fails on the report.
 */

#include <linux/module.h>
#include <linux/moduleparam.h>

#include "base.h"
#include "clients.h"
#include "control.h"

static unsigned int event_log_size = DMC_EVENT_LOG_DEFAULT;
module_param(event_log_size, uint, 0444);
MODULE_PARM_DESC(event_log_size, "events the event log keeps (1..1048576)");

static bool export = true;
module_param(export, bool, 0444);
MODULE_PARM_DESC(export, "show the model as a filesystem, at /sys/kernel/debug/dmcore");

/* ---- the roots and the clients ---------------------------------------------- */

/*
 * The roots of the tree: devices/ (with devices/virtual/ for parentless
 * class devices), bus/ and class/, each made by its own file; then the
 * class "devlink" of the device links (devlink.c).
 */
static int __init dmc_roots_init(void)
{
	int err;

	err = dmc_devices_kset_init();
	if (err)
		return err;
	err = dmc_buses_init();
	if (err)
		goto err_devices;
	err = dmc_classes_init();
	if (err)
		goto err_buses;
	err = dmc_devlink_init();
	if (err)
		goto err_classes;
	return 0;

err_classes:
	dmc_classes_exit();
err_buses:
	dmc_buses_exit();
err_devices:
	dmc_devices_kset_exit();
	return err;
}

static void dmc_roots_exit(void)
{
	dmc_devlink_exit();
	dmc_classes_exit();
	dmc_buses_exit();
	dmc_devices_kset_exit();
}

/* Start the core's clients: control, the bridge, then the export. */
static int __init dmc_clients_start(void)
{
	int err;

	err = dmc_control_init();
	if (err)
		return err;
	err = dmc_bridge_init();
	if (err)
		goto err_control;
	/* The tree last: it can be mounted as soon as it is registered. */
	if (export) {
		err = dmc_export_init();
		if (err)
			goto err_bridge;
	}
	return 0;

err_bridge:
	dmc_bridge_exit();
err_control:
	dmc_control_exit();
	return err;
}

static void __exit dmc_clients_stop(void)
{
	/* The tree first: see dmc_export_init(). */
	if (export)
		dmc_export_exit();
	dmc_bridge_exit();
	dmc_control_exit();
}

/* ---- load and unload -------------------------------------------------------- */

static int __init dmc_init(void)
{
	int err;

	if (!event_log_size || event_log_size > DMC_EVENT_LOG_MAX) {
		pr_err("dmcore: event_log_size=%u out of range 1..%u\n",
		       event_log_size, DMC_EVENT_LOG_MAX);
		return -EINVAL;
	}
	err = dmc_devices_init();
	if (err)
		return err;
	err = dmc_kobject_tree_init();
	if (err)
		goto err_devices;
	err = dmc_event_init(event_log_size);
	if (err)
		goto err_tree;
	err = dmc_probe_init();
	if (err)
		goto err_event;
	err = dmc_pm_runtime_wq_init();
	if (err)
		goto err_probe;
	err = dmc_roots_init();
	if (err)
		goto err_rpm;
	err = dmc_clients_start();
	if (err)
		goto err_roots;

	pr_info("dmcore: loaded: event log of %u, export %s\n", event_log_size,
		export ? "on" : "off");
	return 0;

err_roots:
	dmc_roots_exit();
err_rpm:
	dmc_pm_runtime_wq_exit();
err_probe:
	dmc_probe_exit();
err_event:
	dmc_event_exit();
err_tree:
	dmc_kobject_tree_exit();
err_devices:
	dmc_devices_exit();
	return err;
}

static void __exit dmc_exit(void)
{
	unsigned long leaked;

	dmc_clients_stop();
	dmc_roots_exit();
	/* With release_delay_ms, the releases above may still be waiting. */
	dmc_kobject_flush_releases();
	dmc_pm_runtime_wq_exit();
	dmc_probe_exit();

	leaked = dmc_kobject_report_leaks();
	dmc_event_exit();
	dmc_kobject_tree_exit();
	if (leaked) {
		/* A leaked device still points into the devices' cache: keep it. */
		pr_err("dmcore: unloaded, %lu objects leaked\n", leaked);
	} else {
		dmc_devices_exit();
		pr_info("dmcore: unloaded, 0 objects leaked\n");
	}
}

module_init(dmc_init);
module_exit(dmc_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("dmcore: the Linux device model, reimplemented with its own refcounted core");
MODULE_AUTHOR("The dmcore developers");
