// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own driver core, driven the way a bus driver drives it: a
 * registered bus_type "dmcbench", device_drivers registered on it with
 * driver_register(), and struct devices under a root device added with
 * device_register(), each with its sysfs directory, links and "add" event.
 * Nothing here reaches past the exported API of drivers/base/.
 */

#include <linux/delay.h>
#include <linux/device.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "dmc_bench.h"

/* How a device is matched: by index modulo the drivers, or all by one. */
enum real_mode { REAL_MOD, REAL_CHAIN };

struct real_dev {
	struct device dev;
	unsigned int idx;
	bool bound;
};

struct real_drv {
	struct device_driver drv;
	unsigned int idx;
	char name[16];
};

#define to_real_dev(d) container_of(d, struct real_dev, dev)
#define to_real_drv(d) container_of(d, struct real_drv, drv)

static enum real_mode real_mode;
static struct real_dev **real_devs;	/* the current scenario's devices */
static atomic_t real_probes;
static atomic_t real_bound;
static struct device *real_root;

static int real_match(struct device *dev, struct device_driver *drv)
{
	if (real_mode == REAL_CHAIN)
		return 1;
	return to_real_dev(dev)->idx % DMC_BENCH_DRIVERS == to_real_drv(drv)->idx;
}

/* In the chain, device i binds only once device i - 1 has. */
static int real_probe(struct device *dev)
{
	struct real_dev *rd = to_real_dev(dev);
	struct real_dev *prev;

	atomic_inc(&real_probes);
	if (real_mode == REAL_CHAIN && rd->idx) {
		/* Registered last first: the previous one may not exist yet. */
		prev = READ_ONCE(real_devs[rd->idx - 1]);
		if (!prev || !READ_ONCE(prev->bound))
			return -EPROBE_DEFER;
	}
	WRITE_ONCE(rd->bound, true);
	atomic_inc(&real_bound);
	return 0;
}

static struct bus_type real_bus = {
	.name = "dmcbench",
	.match = real_match,
	.probe = real_probe,
};

static void real_dev_release(struct device *dev)
{
	kfree(to_real_dev(dev));
}

static int real_count_one(struct device *dev, void *data)
{
	(*(u64 *)data)++;
	return 0;
}

static u64 real_bus_count(void)
{
	u64 n = 0;

	bus_for_each_dev(&real_bus, NULL, &n, real_count_one);
	return n;
}

/* Unregister devices [0, n) of real_devs, last first. */
static void real_del_devices(unsigned int n)
{
	while (n--)
		device_unregister(&real_devs[n]->dev);
}

/* Register n devices d0..d(n-1) in real_devs, in @order (1 up, -1 down). */
static int real_add_devices(unsigned int n, int order)
{
	unsigned int k, i;
	int err;

	for (k = 0; k < n; k++) {
		i = order > 0 ? k : n - 1 - k;
		real_devs[i] = kzalloc(sizeof(*real_devs[i]), GFP_KERNEL);
		if (!real_devs[i])
			goto err;
		real_devs[i]->idx = i;
		device_initialize(&real_devs[i]->dev);
		real_devs[i]->dev.bus = &real_bus;
		real_devs[i]->dev.parent = real_root;
		real_devs[i]->dev.release = real_dev_release;
		err = dev_set_name(&real_devs[i]->dev, "d%u", i);
		if (!err)
			err = device_add(&real_devs[i]->dev);
		if (err) {
			put_device(&real_devs[i]->dev);
			goto err;
		}
	}
	return 0;
err:
	/* Unwind the ones added: [0, k) in the order they were made. */
	while (k--) {
		i = order > 0 ? k : n - 1 - k;
		device_unregister(&real_devs[i]->dev);
	}
	return -ENOMEM;
}

static int real_alloc(unsigned int n)
{
	real_devs = vcalloc(n, sizeof(*real_devs));
	atomic_set(&real_probes, 0);
	atomic_set(&real_bound, 0);
	return real_devs ? 0 : -ENOMEM;
}

static void real_free(void)
{
	vfree(real_devs);
	real_devs = NULL;
}

int dmc_bench_real_devices(unsigned int n, struct dmc_bench_result *r)
{
	s64 before;
	u64 t;
	int err;

	err = real_alloc(n);
	if (err)
		return err;
	real_mode = REAL_MOD;
	before = dmc_bench_slab_bytes();
	t = ktime_get_ns();
	err = real_add_devices(n, 1);
	r->ns[0] = ktime_get_ns() - t;
	if (!err) {
		r->mem = div_s64(dmc_bench_slab_bytes() - before, n);
		r->count = real_bus_count();
		t = ktime_get_ns();
		real_del_devices(n);
		r->ns[1] = ktime_get_ns() - t;
	}
	real_free();
	return err;
}

static struct real_drv *real_drivers[DMC_BENCH_DRIVERS];

static void real_del_drivers(unsigned int n)
{
	while (n--) {
		driver_unregister(&real_drivers[n]->drv);
		kfree(real_drivers[n]);
		real_drivers[n] = NULL;
	}
}

/* Register @n drivers r0..r(n-1); a real device_driver is static in use. */
static int real_add_drivers(unsigned int n)
{
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		real_drivers[i] = kzalloc(sizeof(*real_drivers[i]), GFP_KERNEL);
		if (!real_drivers[i]) {
			err = -ENOMEM;
			goto err;
		}
		snprintf(real_drivers[i]->name, sizeof(real_drivers[i]->name),
			 "r%u", i);
		real_drivers[i]->idx = i;
		real_drivers[i]->drv.name = real_drivers[i]->name;
		real_drivers[i]->drv.bus = &real_bus;
		real_drivers[i]->drv.owner = THIS_MODULE;
		err = driver_register(&real_drivers[i]->drv);
		if (err) {
			kfree(real_drivers[i]);
			real_drivers[i] = NULL;
			goto err;
		}
	}
	return 0;
err:
	real_del_drivers(i);
	return err;
}

int dmc_bench_real_bind(unsigned int n, struct dmc_bench_result *r)
{
	s64 before;
	u64 t;
	int err;

	err = real_alloc(n);
	if (err)
		return err;
	real_mode = REAL_MOD;
	t = ktime_get_ns();
	err = real_add_drivers(DMC_BENCH_DRIVERS);
	r->ns[0] = ktime_get_ns() - t;
	if (err)
		goto out;
	before = dmc_bench_slab_bytes();
	t = ktime_get_ns();
	err = real_add_devices(n, 1);
	r->ns[1] = ktime_get_ns() - t;
	if (!err) {
		r->mem = div_s64(dmc_bench_slab_bytes() - before, n);
		r->count = atomic_read(&real_bound);
		r->probes = atomic_read(&real_probes);
		t = ktime_get_ns();
		real_del_devices(n);
		r->ns[2] = ktime_get_ns() - t;
	}
	t = ktime_get_ns();
	real_del_drivers(DMC_BENCH_DRIVERS);
	r->ns[0] += ktime_get_ns() - t;
out:
	real_free();
	return err;
}

int dmc_bench_real_lookup(unsigned int n, unsigned int lookups,
			  struct dmc_bench_result *r)
{
	struct device *dev;
	char name[16];
	unsigned int j, i;
	u64 t;
	int err;

	err = real_alloc(n);
	if (err)
		return err;
	real_mode = REAL_MOD;
	err = real_add_devices(n, 1);
	if (err)
		goto out;
	t = ktime_get_ns();
	for (j = 0; j < lookups; j++) {
		i = div_u64((u64)j * n, lookups);
		snprintf(name, sizeof(name), "d%u", i);
		dev = bus_find_device_by_name(&real_bus, NULL, name);
		if (dev) {
			r->count += dev == &real_devs[i]->dev;
			put_device(dev);
		}
	}
	r->ns[0] = ktime_get_ns() - t;
	r->ops = lookups;
	real_del_devices(n);
out:
	real_free();
	return err;
}

/*
 * A chain: device i's probe defers until device i - 1 is bound. The
 * devices are registered last first, so each arrives before the one it
 * waits for, and the kernel's deferred-probe work retries them.
 */
int dmc_bench_real_chain(unsigned int n, struct dmc_bench_result *r)
{
	struct real_drv *drv;
	unsigned long deadline;
	u64 t;
	int err;

	err = real_alloc(n);
	if (err)
		return err;
	drv = kzalloc(sizeof(*drv), GFP_KERNEL);
	if (!drv) {
		err = -ENOMEM;
		goto out;
	}
	strscpy(drv->name, "chain", sizeof(drv->name));
	drv->drv.name = drv->name;
	drv->drv.bus = &real_bus;
	drv->drv.owner = THIS_MODULE;
	real_mode = REAL_CHAIN;
	err = driver_register(&drv->drv);
	if (err)
		goto out_free;
	deadline = jiffies + 600 * HZ;
	t = ktime_get_ns();
	err = real_add_devices(n, -1);
	if (err)
		goto out_drv;
	while (atomic_read(&real_bound) < n && time_before(jiffies, deadline)) {
		wait_for_device_probe();
		if (atomic_read(&real_bound) < n)
			usleep_range(50, 100);
	}
	r->ns[0] = ktime_get_ns() - t;
	r->count = atomic_read(&real_bound);
	r->probes = atomic_read(&real_probes);
	if (r->count < n)
		err = -ETIMEDOUT;
	real_del_devices(n);
out_drv:
	driver_unregister(&drv->drv);
out_free:
	kfree(drv);
out:
	real_mode = REAL_MOD;
	real_free();
	return err;
}

/* Event generation: n events, "add" and "remove" in turn, on 100 devices. */
int dmc_bench_real_events(unsigned int n, struct dmc_bench_result *r)
{
	unsigned int ndev = min_t(unsigned int, n, 100), j;
	u64 t;
	int err;

	err = real_alloc(ndev);
	if (err)
		return err;
	real_mode = REAL_MOD;
	err = real_add_devices(ndev, 1);
	if (err)
		goto out;
	t = ktime_get_ns();
	for (j = 0; j < n; j++)
		r->count += !kobject_uevent(&real_devs[j % ndev]->dev.kobj,
					    j & 1 ? KOBJ_REMOVE : KOBJ_ADD);
	r->ns[0] = ktime_get_ns() - t;
	real_del_devices(ndev);
out:
	real_free();
	return err;
}

static struct real_dev **real_held;	/* "holdreal": left registered */
static unsigned int real_nheld;

/* Leave n unbound real devices registered (for walking sysfs). */
int dmc_bench_real_hold(unsigned int n)
{
	int err;

	if (real_held)
		return -EBUSY;
	err = real_alloc(n);
	if (err)
		return err;
	real_mode = REAL_MOD;
	err = real_add_devices(n, 1);
	if (err) {
		real_free();
		return err;
	}
	real_held = real_devs;
	real_nheld = n;
	real_devs = NULL;
	return 0;
}

void dmc_bench_real_release_held(void)
{
	if (!real_held)
		return;
	real_devs = real_held;
	real_del_devices(real_nheld);
	real_free();
	real_held = NULL;
	real_nheld = 0;
}

int dmc_bench_real_init(void)
{
	int err;

	err = bus_register(&real_bus);
	if (err)
		return err;
	real_root = root_device_register("dmcbench");
	if (IS_ERR(real_root)) {
		bus_unregister(&real_bus);
		return PTR_ERR(real_root);
	}
	return 0;
}

void dmc_bench_real_exit(void)
{
	dmc_bench_real_release_held();
	root_device_unregister(real_root);
	bus_unregister(&real_bus);
}
