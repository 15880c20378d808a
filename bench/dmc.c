// SPDX-License-Identifier: GPL-2.0
/*
 * dmcore's side of the benchmark: the same scenarios as real.c, through
 * dmcore's exported API only. A bus "dmcbench", devices under a root
 * device "dmcbench", drivers r0..r99; the chain defers by name
 * (dmc_probe_defer(dev, "<previous device>")), so only the device waiting
 * for the one that just bound is retried.
 */

#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <dmcore/device.h>

#include "dmc_bench.h"

enum dmcb_mode { DMCB_MOD, DMCB_CHAIN };

struct dmcb_dev {
	struct dmc_device dev;
	unsigned int idx;
	bool bound;
};

struct dmcb_drv {
	struct dmc_driver drv;
	unsigned int idx;
	char name[16];
	char key[8];
	const char *keys[2];	/* on dmcb_kbus: { key, NULL } */
};

#define to_dmcb_dev(d) container_of(d, struct dmcb_dev, dev)
#define to_dmcb_drv(d) container_of(d, struct dmcb_drv, drv)

static enum dmcb_mode dmcb_mode;
static struct dmcb_dev **dmcb_devs;	/* the current scenario's devices */
static atomic_t dmcb_probes;
static atomic_t dmcb_bound;
static struct dmc_device *dmcb_root;
static struct dmcb_dev **dmcb_held;	/* "hold": left registered */
static unsigned int dmcb_nheld;

static atomic_t dmcb_matches;	/* match calls on dmcb_kbus */
static struct dmc_bus_type dmcb_kbus;

static int dmcb_match(struct dmc_device *dev, const struct dmc_driver *drv)
{
	if (dev->bus == &dmcb_kbus)
		atomic_inc(&dmcb_matches);
	if (dmcb_mode == DMCB_CHAIN)
		return 1;
	return to_dmcb_dev(dev)->idx % DMC_BENCH_DRIVERS ==
	       container_of(drv, struct dmcb_drv, drv)->idx;
}

/* In the chain, device i binds only once device i - 1 has. */
static int dmcb_probe(struct dmc_device *dev)
{
	struct dmcb_dev *dd = to_dmcb_dev(dev);
	struct dmcb_dev *prev;
	char name[16];

	atomic_inc(&dmcb_probes);
	if (dmcb_mode == DMCB_CHAIN && dd->idx) {
		/* Registered last first: the previous one may not exist yet. */
		prev = READ_ONCE(dmcb_devs[dd->idx - 1]);
		if (!prev || !READ_ONCE(prev->bound)) {
			snprintf(name, sizeof(name), "d%u", dd->idx - 1);
			return dmc_probe_defer(dev, name);
		}
	}
	WRITE_ONCE(dd->bound, true);
	atomic_inc(&dmcb_bound);
	return 0;
}

static struct dmc_bus_type dmcb_bus = {
	.name = "dmcbench",
	.match = dmcb_match,
	.probe = dmcb_probe,
};

/*
 * The same bus with a match index: a device's key is the number of the
 * one driver it matches, each driver lists its own number, so a probe
 * asks one match instead of walking the 100 drivers (match.c).
 */
static int dmcb_dev_match_key(const struct dmc_device *dev, char *buf, size_t size)
{
	return snprintf(buf, size, "%u",
			container_of(dev, struct dmcb_dev, dev)->idx % DMC_BENCH_DRIVERS);
}

static const char * const *dmcb_drv_match_keys(const struct dmc_driver *drv)
{
	return container_of(drv, struct dmcb_drv, drv)->keys;
}

static struct dmc_bus_type dmcb_kbus = {
	.name = "dmcbenchkey",
	.match = dmcb_match,
	.dev_match_key = dmcb_dev_match_key,
	.drv_match_keys = dmcb_drv_match_keys,
	.probe = dmcb_probe,
};

/* The bus of the scenario running: dmcb_bus, or dmcb_kbus for bindkey. */
static struct dmc_bus_type *dmcb_cur = &dmcb_bus;

static void dmcb_dev_release(struct dmc_device *dev)
{
	kfree(to_dmcb_dev(dev));
}

static void dmcb_root_release(struct dmc_device *dev)
{
	kfree(dev);
}

/* Unregister devices [0, n) of @devs, last first. */
static void dmcb_del_devices(struct dmcb_dev **devs, unsigned int n)
{
	while (n--)
		dmc_device_unregister(&devs[n]->dev);
}

/* Register n devices d0..d(n-1) into @devs, in @order (1 up, -1 down). */
static int dmcb_add_devices(struct dmcb_dev **devs, unsigned int n, int order)
{
	unsigned int k, i;
	int err;

	for (k = 0; k < n; k++) {
		i = order > 0 ? k : n - 1 - k;
		devs[i] = kzalloc(sizeof(*devs[i]), GFP_KERNEL);
		if (!devs[i])
			goto err;
		devs[i]->idx = i;
		dmc_device_initialize(&devs[i]->dev);
		devs[i]->dev.bus = dmcb_cur;
		devs[i]->dev.parent = dmcb_root;
		devs[i]->dev.release = dmcb_dev_release;
		err = dmc_device_set_name(&devs[i]->dev, "d%u", i);
		if (!err)
			err = dmc_device_add(&devs[i]->dev);
		if (err) {
			dmc_device_put(&devs[i]->dev);
			goto err;
		}
	}
	return 0;
err:
	while (k--) {
		i = order > 0 ? k : n - 1 - k;
		dmc_device_unregister(&devs[i]->dev);
	}
	return -ENOMEM;
}

static int dmcb_alloc(unsigned int n)
{
	dmcb_devs = vcalloc(n, sizeof(*dmcb_devs));
	atomic_set(&dmcb_probes, 0);
	atomic_set(&dmcb_bound, 0);
	atomic_set(&dmcb_matches, 0);
	return dmcb_devs ? 0 : -ENOMEM;
}

static void dmcb_free(void)
{
	vfree(dmcb_devs);
	dmcb_devs = NULL;
}

int dmc_bench_dmc_devices(unsigned int n, struct dmc_bench_result *r)
{
	s64 before;
	u64 t;
	int err;

	err = dmcb_alloc(n);
	if (err)
		return err;
	dmcb_mode = DMCB_MOD;
	before = dmc_bench_slab_bytes();
	t = ktime_get_ns();
	err = dmcb_add_devices(dmcb_devs, n, 1);
	r->ns[0] = ktime_get_ns() - t;
	if (!err) {
		r->mem = div_s64(dmc_bench_slab_bytes() - before, n);
		r->count = dmc_bus_device_count(&dmcb_bus);
		t = ktime_get_ns();
		dmcb_del_devices(dmcb_devs, n);
		r->ns[1] = ktime_get_ns() - t;
	}
	dmcb_free();
	return err;
}

static struct dmcb_drv *dmcb_drivers[DMC_BENCH_DRIVERS];

static void dmcb_del_drivers(unsigned int n)
{
	while (n--) {
		dmc_driver_unregister(&dmcb_drivers[n]->drv);
		kfree(dmcb_drivers[n]);
		dmcb_drivers[n] = NULL;
	}
}

static int dmcb_add_drivers(unsigned int n)
{
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		dmcb_drivers[i] = kzalloc(sizeof(*dmcb_drivers[i]), GFP_KERNEL);
		if (!dmcb_drivers[i]) {
			err = -ENOMEM;
			goto err;
		}
		snprintf(dmcb_drivers[i]->name, sizeof(dmcb_drivers[i]->name),
			 "r%u", i);
		snprintf(dmcb_drivers[i]->key, sizeof(dmcb_drivers[i]->key), "%u", i);
		dmcb_drivers[i]->keys[0] = dmcb_drivers[i]->key;
		dmcb_drivers[i]->idx = i;
		dmcb_drivers[i]->drv.name = dmcb_drivers[i]->name;
		dmcb_drivers[i]->drv.bus = dmcb_cur;
		err = dmc_driver_register(&dmcb_drivers[i]->drv);
		if (err) {
			kfree(dmcb_drivers[i]);
			dmcb_drivers[i] = NULL;
			goto err;
		}
	}
	return 0;
err:
	dmcb_del_drivers(i);
	return err;
}

/* @keyed: on dmcb_kbus, whose match index names each device's driver. */
int dmc_bench_dmc_bind(unsigned int n, bool keyed, struct dmc_bench_result *r)
{
	s64 before;
	u64 t;
	int err;

	err = dmcb_alloc(n);
	if (err)
		return err;
	dmcb_mode = DMCB_MOD;
	dmcb_cur = keyed ? &dmcb_kbus : &dmcb_bus;
	t = ktime_get_ns();
	err = dmcb_add_drivers(DMC_BENCH_DRIVERS);
	r->ns[0] = ktime_get_ns() - t;
	if (err)
		goto out;
	before = dmc_bench_slab_bytes();
	t = ktime_get_ns();
	err = dmcb_add_devices(dmcb_devs, n, 1);
	r->ns[1] = ktime_get_ns() - t;
	if (!err) {
		r->mem = div_s64(dmc_bench_slab_bytes() - before, n);
		r->count = atomic_read(&dmcb_bound);
		r->probes = atomic_read(&dmcb_probes);
		r->ops = atomic_read(&dmcb_matches);	/* 0 unless keyed */
		t = ktime_get_ns();
		dmcb_del_devices(dmcb_devs, n);
		r->ns[2] = ktime_get_ns() - t;
	}
	t = ktime_get_ns();
	dmcb_del_drivers(DMC_BENCH_DRIVERS);
	r->ns[0] += ktime_get_ns() - t;
out:
	dmcb_cur = &dmcb_bus;
	dmcb_free();
	return err;
}

int dmc_bench_dmc_lookup(unsigned int n, unsigned int lookups,
			 struct dmc_bench_result *r)
{
	struct dmc_device *dev;
	char name[16];
	unsigned int j, i;
	u64 t;
	int err;

	err = dmcb_alloc(n);
	if (err)
		return err;
	dmcb_mode = DMCB_MOD;
	err = dmcb_add_devices(dmcb_devs, n, 1);
	if (err)
		goto out;
	t = ktime_get_ns();
	for (j = 0; j < lookups; j++) {
		i = div_u64((u64)j * n, lookups);
		snprintf(name, sizeof(name), "d%u", i);
		dev = dmc_bus_find_device_by_name(&dmcb_bus, name);
		if (dev) {
			r->count += dev == &dmcb_devs[i]->dev;
			dmc_device_put(dev);
		}
	}
	r->ns[0] = ktime_get_ns() - t;
	r->ops = lookups;
	dmcb_del_devices(dmcb_devs, n);
out:
	dmcb_free();
	return err;
}

/*
 * The chain of real.c: devices registered last first, each deferring
 * until the previous one is bound, but by name, so dmcore retries only
 * the device that waits for the one that just bound.
 */
int dmc_bench_dmc_chain(unsigned int n, struct dmc_bench_result *r)
{
	struct dmcb_drv *drv;
	u64 t;
	int err;

	err = dmcb_alloc(n);
	if (err)
		return err;
	drv = kzalloc(sizeof(*drv), GFP_KERNEL);
	if (!drv) {
		err = -ENOMEM;
		goto out;
	}
	strscpy(drv->name, "chain", sizeof(drv->name));
	drv->drv.name = drv->name;
	drv->drv.bus = &dmcb_bus;
	dmcb_mode = DMCB_CHAIN;
	err = dmc_driver_register(&drv->drv);
	if (err)
		goto out_free;
	t = ktime_get_ns();
	err = dmcb_add_devices(dmcb_devs, n, -1);
	if (err)
		goto out_drv;
	dmc_wait_for_device_probe();
	r->ns[0] = ktime_get_ns() - t;
	r->count = atomic_read(&dmcb_bound);
	r->probes = atomic_read(&dmcb_probes);
	if (r->count < n)
		err = -ETIMEDOUT;
	dmcb_del_devices(dmcb_devs, n);
out_drv:
	dmc_driver_unregister(&drv->drv);
out_free:
	kfree(drv);
out:
	dmcb_mode = DMCB_MOD;
	dmcb_free();
	return err;
}

/* Event generation: n events, "add" and "remove" in turn, on 100 devices. */
int dmc_bench_dmc_events(unsigned int n, struct dmc_bench_result *r)
{
	unsigned int ndev = min_t(unsigned int, n, 100), j;
	u64 t;
	int err;

	err = dmcb_alloc(ndev);
	if (err)
		return err;
	dmcb_mode = DMCB_MOD;
	err = dmcb_add_devices(dmcb_devs, ndev, 1);
	if (err)
		goto out;
	t = ktime_get_ns();
	for (j = 0; j < n; j++)
		r->count += !dmc_kobject_uevent(&dmcb_devs[j % ndev]->dev.kobj,
						j & 1 ? DMC_KOBJ_REMOVE : DMC_KOBJ_ADD);
	r->ns[0] = ktime_get_ns() - t;
	dmcb_del_devices(dmcb_devs, ndev);
out:
	dmcb_free();
	return err;
}

/* Leave n unbound devices registered (for counting the mirror's entries). */
int dmc_bench_dmc_hold(unsigned int n)
{
	int err;

	if (dmcb_held)
		return -EBUSY;
	dmcb_held = vcalloc(n, sizeof(*dmcb_held));
	if (!dmcb_held)
		return -ENOMEM;
	dmcb_mode = DMCB_MOD;
	err = dmcb_add_devices(dmcb_held, n, 1);
	if (err) {
		vfree(dmcb_held);
		dmcb_held = NULL;
		return err;
	}
	dmcb_nheld = n;
	return 0;
}

void dmc_bench_dmc_release_held(void)
{
	if (!dmcb_held)
		return;
	dmcb_del_devices(dmcb_held, dmcb_nheld);
	vfree(dmcb_held);
	dmcb_held = NULL;
	dmcb_nheld = 0;
}

int dmc_bench_dmc_init(void)
{
	int err;

	err = dmc_bus_register(&dmcb_bus);
	if (err)
		return err;
	err = dmc_bus_register(&dmcb_kbus);
	if (err)
		goto err_bus;
	dmcb_root = kzalloc(sizeof(*dmcb_root), GFP_KERNEL);
	if (!dmcb_root) {
		err = -ENOMEM;
		goto err_kbus;
	}
	dmc_device_initialize(dmcb_root);
	dmcb_root->release = dmcb_root_release;
	err = dmc_device_set_name(dmcb_root, "dmcbench");
	if (!err)
		err = dmc_device_add(dmcb_root);
	if (err) {
		dmc_device_put(dmcb_root);
		goto err_kbus;
	}
	return 0;
err_kbus:
	dmc_bus_unregister(&dmcb_kbus);
err_bus:
	dmc_bus_unregister(&dmcb_bus);
	return err;
}

void dmc_bench_dmc_exit(void)
{
	dmc_bench_dmc_release_held();
	dmc_device_unregister(dmcb_root);
	dmc_bus_unregister(&dmcb_kbus);
	dmc_bus_unregister(&dmcb_bus);
}
