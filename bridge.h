/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The real-event bridge's own header: what its two halves share.
 *
 * bridge.c is the real kernel's side: the "bridge" parameter, the bus
 * notifiers, the coldplug walk, setup and teardown. It only records.
 * bridge_shadow.c is dmcore's side: the record map and the queue that the
 * first half fills, the one work item that applies the queue, and the
 * shadow buses, drivers and devices it makes. bridge.c calls into
 * bridge_shadow.c, never the other way.
 */
#ifndef _DMC_BRIDGE_H
#define _DMC_BRIDGE_H

#include <linux/list.h>
#include <linux/notifier.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include <dmcore/bus.h>
#include <dmcore/device.h>

struct bus_type;
struct device;
struct dmc_bridge_node;

/* A mirrored real bus and its shadow. */
struct dmc_bridge_bus {
	const char *name;
	struct bus_type *real;
	const struct dmc_device_type *type;
	struct dmc_bus_type shadow;
	struct notifier_block nb;
	struct list_head drivers;	/* dmc_bridge_driver.node; worker only */
	bool on;			/* shadow registered, notifier set */
};

/*
 * A real device the bridge knows: from its add (or coldplug import) to
 * its removal. Owned by the map until removal, then by the queued
 * DMC_BRIDGE_DEL, which frees it.
 */
struct dmc_bridge_rec {
	struct hlist_node hnode;	/* the record map, under dmc_bridge_lock */
	struct device *real;		/* referenced */
	char *path;			/* its sysfs path when it was recorded */
	struct dmc_bridge_bus *bb;
	struct dmc_bridge_node *node;	/* worker only */
};

enum dmc_bridge_op {
	DMC_BRIDGE_ADD,
	DMC_BRIDGE_BIND,
	DMC_BRIDGE_UNBIND,
	DMC_BRIDGE_DEL,
	DMC_BRIDGE_DRIVER,
};

/* One recorded operation, queued for the worker, which frees it. */
struct dmc_bridge_item {
	struct list_head node;
	enum dmc_bridge_op op;
	struct dmc_bridge_bus *bb;
	struct dmc_bridge_rec *rec;
	const struct device *real;	/* on bridge.c's gone list: the key */
	char name[];			/* BIND and DRIVER: the real driver */
};

/*
 * Guards the record map and the queue (and bridge.c's coldplug state).
 * A spinlock: the notifier runs with real device locks held.
 */
extern spinlock_t dmc_bridge_lock;

/* The shadows' device types, for bridge.c's table of buses. */
extern const struct dmc_device_type dmc_bridge_platform_type;
extern const struct dmc_device_type dmc_bridge_pci_type;

/* bridge_shadow.c: the record map and the queue (dmc_bridge_lock held) */
struct dmc_bridge_rec *dmc_bridge_rec_find(const struct device *real);
void dmc_bridge_rec_insert(struct dmc_bridge_rec *rec);
void dmc_bridge_rec_remove(struct dmc_bridge_rec *rec);
void dmc_bridge_queue_locked(struct dmc_bridge_item *it);

/* bridge_shadow.c: the worker and the shadows (process context) */
int dmc_bridge_worker_start(void);
void dmc_bridge_worker_stop(void);
int dmc_bridge_shadow_bus_register(struct dmc_bridge_bus *bb);
void dmc_bridge_shadow_bus_unregister(struct dmc_bridge_bus *bb);
void dmc_bridge_shadows_teardown(void);

#endif /* _DMC_BRIDGE_H */
