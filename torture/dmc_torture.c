// SPDX-License-Identifier: GPL-2.0
/*
 * dmc_torture: an in-kernel torture test of dmcore, as rcutorture and
 * locktorture are of RCU and locks.
 *
 * @threads kthreads run random operations for @duration_s seconds on one
 * shared world: devices added and deleted (with parents, on buses, in
 * classes), drivers registered and unregistered (and freed right after),
 * buses (one with a match index) and classes registered and
 * unregistered, binds and unbinds,
 * synchronous, asynchronous and deferred probes, system and single-device
 * suspend and resume, device links, renames and moves, listeners and
 * class interfaces coming and going, lookups and walks. Beside them an
 * event reader checks that SEQNUMs are contiguous (drops counted), a
 * permanent listener that it sees every event, and a checker calls
 * dmc_check_invariants() every @check_ms. At the end the world is torn
 * down and the live-object census must be back where it started.
 *
 * Each thread draws from its own PRNG seeded with @seed + its id, so a
 * run's op sequences are replayed by loading with the same seed (the
 * interleaving, of course, is not). The seed is always printed; @ops
 * switches op kinds off (bit i = op i, names in the stats lines) while a
 * known defect is being fixed. The last line is "dmc_torture: End of
 * test: SUCCESS" or "...: FAILURE (...)".
 *
 * The world respects every contract the API states: a bus or class is
 * not unregistered while a device or driver is being added to it (a
 * read-write semaphore per bus and class, as a subsystem's own locking
 * would), interfaces are unregistered before their class, a driver is
 * freed only after its unregistration returned.
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/prandom.h>
#include <linux/random.h>
#include <linux/rwsem.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <dmcore/device.h>
#include <dmcore/invariants.h>
#include <dmcore/pm_runtime.h>
#include <dmcore/snapshot.h>

#define TT "dmc_torture: "

static int threads = 4;
module_param(threads, int, 0444);
MODULE_PARM_DESC(threads, "worker kthreads (1..16)");
static int duration_s = 60;
module_param(duration_s, int, 0444);
MODULE_PARM_DESC(duration_s, "seconds of random operations");
static ulong seed;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "PRNG seed, 0 = random; always printed");
static ulong ops = ~0UL;
module_param(ops, ulong, 0444);
MODULE_PARM_DESC(ops, "mask of op kinds to run (bit i = op i)");
static int stat_interval = 15;
module_param(stat_interval, int, 0444);
MODULE_PARM_DESC(stat_interval, "seconds between stats lines, 0 = none");
static int check_ms = 2000;
module_param(check_ms, int, 0444);
MODULE_PARM_DESC(check_ms, "milliseconds between invariant checks, 0 = end only");
static ulong probes = ~0UL;
module_param(probes, ulong, 0444);
MODULE_PARM_DESC(probes, "mask of probe behaviours (0 ok, 1 -ENODEV, 2 defer, 3 named defer, 4 slow)");
static int min_ops = 1;
module_param(min_ops, int, 0444);
MODULE_PARM_DESC(min_ops, "each enabled op kind must succeed this often");

#define NBUS	3
#define NCLASS	2
#define NDRV	8
#define NDEV	48
#define NDIR	8
#define NLSN	3
#define MAX_THREADS 16

enum tt_op {
	OP_DEV_ADD, OP_DEV_DEL, OP_DRV_REG, OP_DRV_UNREG, OP_BUS, OP_CLASS,
	OP_BIND, OP_UNBIND, OP_ATTACH, OP_SUSPEND_ALL, OP_DEV_PM, OP_LINK_ADD,
	OP_LINK_DEL, OP_RENAME, OP_DIR, OP_MOVE, OP_LISTENER, OP_INTF,
	OP_AUTOPROBE, OP_LOOKUP, OP_UEVENT, OP_DEV_RENAME, OP_DEV_MOVE, OP_RPM,
	OP_SNAPSHOT, NR_OPS
};

static const char * const tt_op_names[NR_OPS] = {
	"dev_add", "dev_del", "drv_reg", "drv_unreg", "bus", "class",
	"bind", "unbind", "attach", "suspend_all", "dev_pm", "link_add",
	"link_del", "rename", "dir", "move", "listener", "intf",
	"autoprobe", "lookup", "uevent", "dev_rename", "dev_move", "rpm",
	"snapshot",
};

/* Relative weights of the op kinds. */
static const unsigned int tt_op_weight[NR_OPS] = {
	[OP_DEV_ADD] = 12, [OP_DEV_DEL] = 6, [OP_DRV_REG] = 4, [OP_DRV_UNREG] = 3,
	[OP_BUS] = 1, [OP_CLASS] = 1, [OP_BIND] = 5, [OP_UNBIND] = 4,
	[OP_ATTACH] = 3, [OP_SUSPEND_ALL] = 1, [OP_DEV_PM] = 4,
	[OP_LINK_ADD] = 4, [OP_LINK_DEL] = 3, [OP_RENAME] = 3, [OP_DIR] = 3,
	[OP_MOVE] = 3, [OP_LISTENER] = 1, [OP_INTF] = 1, [OP_AUTOPROBE] = 1,
	[OP_LOOKUP] = 6, [OP_UEVENT] = 2, [OP_DEV_RENAME] = 3, [OP_DEV_MOVE] = 3, [OP_RPM] = 6,
	[OP_SNAPSHOT] = 1,
};

/* Probe behaviours, drawn per device. */
enum tt_probe { TP_OK, TP_NODEV, TP_DEFER, TP_DEFER_NAMED, TP_SLOW, NR_TP };

struct tt_stats {
	atomic_long_t ok[NR_OPS];
	atomic_long_t err[NR_OPS];
	atomic_t last_err[NR_OPS];	/* for the stats line */
};

/* The world. */
struct tt_bus {
	struct dmc_bus_type bus;
	struct rw_semaphore sem;	/* write: (un)register; read: adding to it */
	char name[24];
	unsigned int idx;
	bool registered;
};

struct tt_class {
	struct dmc_class cls;
	struct rw_semaphore sem;	/* as for buses */
	char name[24];
	bool registered;
	struct dmc_class_interface intf;
	bool intf_on;			/* under sem (read for the op, write else) */
	struct mutex intf_lock;		/* the intf op itself */
};

struct tt_dev {
	struct dmc_device dev;
	int want;			/* driver slot the bus matches, -1 any */
	enum tt_probe probe;
	int defer_left;
	unsigned int slot;
	char name[24];
	char waits[24];
};

struct tt_drv {
	struct dmc_driver drv;
	char name[24];
	bool fail_suspend;
	char key[8];
	const char *keys[2];	/* on a keyed bus: { key } or none */
};

struct tt_slot {
	struct mutex lock;		/* the slot's pointer */
	void *obj;
};

static struct tt_bus tt_buses[NBUS];
static struct tt_class tt_classes[NCLASS];
static struct tt_slot tt_devs[NDEV];
static struct tt_slot tt_drvs[NDRV];
static struct tt_slot tt_dirs[NDIR];
static struct tt_slot tt_lsns[NLSN];
static struct dmc_kobject *tt_root;

static struct tt_stats tt_stats;
static atomic_long_t tt_created, tt_released;
static atomic_long_t tt_probes, tt_removes, tt_suspends, tt_resumes;
static atomic_long_t tt_rt_suspends, tt_rt_resumes;
static atomic_long_t tt_violations, tt_checks;
static atomic_long_t tt_lsn_events;
static atomic_long_t tt_ev_read, tt_ev_dropped, tt_ev_gaps;
static atomic_long_t tt_seq_seen, tt_seq_gaps;
static atomic_t tt_name_gen = ATOMIC_INIT(0);
static unsigned long tt_census_before;
static struct task_struct *tt_tasks[MAX_THREADS];
static struct task_struct *tt_checker, *tt_reader, *tt_main;
static bool tt_stopping;
static bool tt_done;

/* ---- helpers --------------------------------------------------------------- */

static u32 tt_rand(struct rnd_state *rs, u32 n)
{
	return n ? prandom_u32_state(rs) % n : 0;
}

static struct tt_dev *to_tt_dev(struct dmc_device *dev)
{
	return container_of(dev, struct tt_dev, dev);
}

/* A referenced device from a random slot (a few tries), or NULL. */
static struct dmc_device *tt_get_dev(struct rnd_state *rs)
{
	struct dmc_device *dev = NULL;
	struct tt_slot *s;
	struct tt_dev *td;
	int tries;

	for (tries = 0; tries < 4 && !dev; tries++) {
		s = &tt_devs[tt_rand(rs, NDEV)];
		mutex_lock(&s->lock);
		td = s->obj;
		if (td)
			dev = dmc_device_get(&td->dev);
		mutex_unlock(&s->lock);
	}
	return dev;
}

static void tt_count(enum tt_op op, int err)
{
	if (err) {
		atomic_long_inc(&tt_stats.err[op]);
		atomic_set(&tt_stats.last_err[op], err);
	} else {
		atomic_long_inc(&tt_stats.ok[op]);
	}
}

/* ---- the bus, the drivers, the devices ----------------------------------- */

static int tt_match(struct dmc_device *dev, const struct dmc_driver *drv)
{
	struct tt_dev *td = to_tt_dev(dev);
	int slot;

	if (td->want < 0)
		return 1;
	if (sscanf(drv->name, "tdrv%d", &slot) != 1)
		return 0;
	return slot == td->want;
}

/*
 * Bus 1 has a match index (match.c): a device that wants driver slot N
 * has key "N", a driver lists its slot's number, or (one in four) no key
 * and is offered every device. tt_match still decides.
 */
static int tt_dev_match_key(const struct dmc_device *dev, char *buf, size_t size)
{
	const struct tt_dev *td = container_of(dev, struct tt_dev, dev);

	return td->want < 0 ? -ENOENT : snprintf(buf, size, "%d", td->want);
}

static const char * const *tt_drv_match_keys(const struct dmc_driver *drv)
{
	return container_of(drv, struct tt_drv, drv)->keys;
}

/*
 * A bound device has runtime PM, as a driver would set it up: active (the
 * core resumed the parent for the probe), a short autosuspend delay,
 * enabled; the remove disables it again.
 */
static int tt_rpm_probe(struct dmc_device *dev)
{
	int delay = to_tt_dev(dev)->slot % 4;

	dmc_pm_runtime_set_active(dev);
	dmc_pm_runtime_set_autosuspend_delay(dev, delay);
	if (delay)
		dmc_pm_runtime_use_autosuspend(dev);
	dmc_pm_runtime_enable(dev);
	return 0;
}

static int tt_rt_suspend(struct dmc_device *dev)
{
	atomic_long_inc(&tt_rt_suspends);
	return 0;
}

static int tt_rt_resume(struct dmc_device *dev)
{
	atomic_long_inc(&tt_rt_resumes);
	return 0;
}

static const struct dmc_dev_pm_ops tt_pm_ops = {
	.runtime_suspend = tt_rt_suspend,
	.runtime_resume = tt_rt_resume,
};

static int tt_probe(struct dmc_device *dev)
{
	struct tt_dev *td = to_tt_dev(dev);

	atomic_long_inc(&tt_probes);
	switch (td->probe) {
	case TP_NODEV:
		return -ENODEV;
	case TP_DEFER:
		if (td->defer_left-- > 0)
			return -EPROBE_DEFER;
		return tt_rpm_probe(dev);
	case TP_DEFER_NAMED:
		if (td->defer_left-- > 0)
			return dmc_probe_defer(dev, td->waits);
		return tt_rpm_probe(dev);
	case TP_SLOW:
		usleep_range(200, 2000);
		return tt_rpm_probe(dev);
	default:
		return tt_rpm_probe(dev);
	}
}

static void tt_remove(struct dmc_device *dev)
{
	atomic_long_inc(&tt_removes);
	dmc_pm_runtime_disable(dev);
}

static int tt_suspend(struct dmc_device *dev)
{
	struct tt_drv *d = container_of(dev->driver, struct tt_drv, drv);

	atomic_long_inc(&tt_suspends);
	return d->fail_suspend ? -EIO : 0;
}

static int tt_resume(struct dmc_device *dev)
{
	atomic_long_inc(&tt_resumes);
	return 0;
}

static void tt_dev_release(struct dmc_device *dev)
{
	atomic_long_inc(&tt_released);
	kfree(to_tt_dev(dev));
}

static int tt_intf_add(struct dmc_device *dev, struct dmc_class_interface *intf)
{
	if (kref_read(&dev->kobj.kref) < 1) {
		pr_err(TT "interface told of a released device\n");
		atomic_long_inc(&tt_violations);
	}
	return 0;
}

static void tt_intf_remove(struct dmc_device *dev, struct dmc_class_interface *intf)
{
	if (kref_read(&dev->kobj.kref) < 1) {
		pr_err(TT "interface told of a released device\n");
		atomic_long_inc(&tt_violations);
	}
}

/* ---- listeners ------------------------------------------------------------- */

static void tt_lsn_added(struct dmc_listener *l, struct dmc_kobject *kobj)
{
	atomic_long_inc(&tt_lsn_events);
	if (kref_read(&kobj->kref) < 1) {
		pr_err(TT "listener told of a released object\n");
		atomic_long_inc(&tt_violations);
	}
}

static void tt_lsn_removed(struct dmc_listener *l, struct dmc_kobject *kobj)
{
	atomic_long_inc(&tt_lsn_events);
}

static void tt_lsn_renamed(struct dmc_listener *l, struct dmc_kobject *kobj,
			   const char *old_name)
{
	atomic_long_inc(&tt_lsn_events);
}

static void tt_lsn_moved(struct dmc_listener *l, struct dmc_kobject *kobj,
			 struct dmc_kobject *old_parent)
{
	atomic_long_inc(&tt_lsn_events);
}

static void tt_lsn_uevent(struct dmc_listener *l, const struct dmc_uevent *ev)
{
	atomic_long_inc(&tt_lsn_events);
}

/* The permanent listener: every SEQNUM, one after the other. */
static u64 tt_seq_last;		/* under the core's event lock */

static void tt_seq_uevent(struct dmc_listener *l, const struct dmc_uevent *ev)
{
	if (tt_seq_last && ev->seqnum != tt_seq_last + 1) {
		if (atomic_long_inc_return(&tt_seq_gaps) <= 5)
			pr_err(TT "listener: SEQNUM %llu after %llu\n",
			       ev->seqnum, tt_seq_last);
	}
	tt_seq_last = ev->seqnum;
	atomic_long_inc(&tt_seq_seen);
}

static struct dmc_listener tt_seq_listener = {
	.uevent = tt_seq_uevent,
};

/* ---- operations ----------------------------------------------------------- */

static int tt_op_dev_add(struct rnd_state *rs)
{
	unsigned int slot = tt_rand(rs, NDEV);
	struct tt_slot *s = &tt_devs[slot];
	struct tt_bus *b = NULL;
	struct tt_class *c = NULL;
	struct dmc_device *parent = NULL;
	struct tt_dev *td, *old;
	unsigned int ps;
	int err;

	mutex_lock(&s->lock);
	old = s->obj;
	if (old && dmc_device_is_registered(&old->dev)) {
		mutex_unlock(&s->lock);
		return -EBUSY;
	}
	/* Deleted with its parent, bus or class: recycle the slot. */
	s->obj = NULL;
	if (old)
		dmc_device_put(&old->dev);

	td = kzalloc(sizeof(*td), GFP_KERNEL);
	if (!td) {
		mutex_unlock(&s->lock);
		return -ENOMEM;
	}
	td->slot = slot;
	if (tt_rand(rs, 4))
		b = &tt_buses[tt_rand(rs, NBUS)];
	/* A driver slot of its bus (slot % NBUS is the driver's bus), or any. */
	td->want = -1;
	if (b && tt_rand(rs, 3)) {
		td->want = b->idx + NBUS * tt_rand(rs, (NDRV + NBUS - 1) / NBUS);
		if (td->want >= NDRV)
			td->want -= NBUS;
	}
	td->probe = tt_rand(rs, NR_TP);
	if (!(probes & BIT(td->probe)))
		td->probe = TP_OK;
	td->defer_left = 1 + tt_rand(rs, 3);
	snprintf(td->name, sizeof(td->name), "td%u-%u", slot,
		 atomic_inc_return(&tt_name_gen) % 4);
	snprintf(td->waits, sizeof(td->waits), "td%u-%u", tt_rand(rs, NDEV),
		 tt_rand(rs, 4));
	dmc_device_initialize(&td->dev);
	atomic_long_inc(&tt_created);
	td->dev.release = tt_dev_release;
	td->dev.init_name = td->name;

	/* A parent from another slot, if that slot is free to look at. */
	ps = tt_rand(rs, NDEV);
	if (ps != slot && tt_rand(rs, 2) && mutex_trylock(&tt_devs[ps].lock)) {
		struct tt_dev *p = tt_devs[ps].obj;

		if (p)
			parent = dmc_device_get(&p->dev);
		mutex_unlock(&tt_devs[ps].lock);
	}
	td->dev.parent = parent;
	if (!tt_rand(rs, 3))
		c = &tt_classes[tt_rand(rs, NCLASS)];

	if (b)
		down_read(&b->sem);
	if (c)
		down_read(&c->sem);
	if ((b && !b->registered) || (c && !c->registered)) {
		err = -ENODEV;
	} else {
		td->dev.bus = b ? &b->bus : NULL;
		td->dev.class = c ? &c->cls : NULL;
		err = dmc_device_add(&td->dev);
	}
	if (c)
		up_read(&c->sem);
	if (b)
		up_read(&b->sem);
	dmc_device_put(parent);
	if (err)
		dmc_device_put(&td->dev);
	else
		s->obj = td;
	mutex_unlock(&s->lock);
	return err;
}

static int tt_op_dev_del(struct rnd_state *rs)
{
	struct tt_slot *s = &tt_devs[tt_rand(rs, NDEV)];
	struct tt_dev *td;

	mutex_lock(&s->lock);
	td = s->obj;
	s->obj = NULL;
	mutex_unlock(&s->lock);
	if (!td)
		return -ENOENT;
	if (tt_rand(rs, 2)) {
		dmc_device_unregister(&td->dev);
	} else {
		/* Delete, look at it a little longer, then let go. */
		dmc_device_del(&td->dev);
		if (dmc_device_is_registered(&td->dev) || dmc_device_is_bound(&td->dev)) {
			pr_err(TT "'%s' registered or bound after del\n",
			       td->dev.kobj.name);
			atomic_long_inc(&tt_violations);
		}
		dmc_device_put(&td->dev);
	}
	return 0;
}

static int tt_op_drv_reg(struct rnd_state *rs)
{
	unsigned int slot = tt_rand(rs, NDRV);
	struct tt_slot *s = &tt_drvs[slot];
	struct tt_bus *b = &tt_buses[slot % NBUS];
	struct tt_drv *d;
	int err = -EBUSY;

	mutex_lock(&s->lock);
	if (s->obj)
		goto out;
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	err = -ENOMEM;
	if (!d)
		goto out;
	snprintf(d->name, sizeof(d->name), "tdrv%u", slot);
	snprintf(d->key, sizeof(d->key), "%u", slot);
	if (tt_rand(rs, 4))
		d->keys[0] = d->key;
	d->drv.name = d->name;
	d->drv.bus = &b->bus;
	d->drv.probe_type = tt_rand(rs, 2) ? DMC_PROBE_PREFER_ASYNCHRONOUS :
					     DMC_PROBE_DEFAULT_STRATEGY;
	d->drv.probe = tt_probe;
	d->drv.remove = tt_remove;
	d->drv.suspend = tt_suspend;
	d->drv.resume = tt_resume;
	d->drv.pm = &tt_pm_ops;
	d->fail_suspend = !tt_rand(rs, 8);
	down_read(&b->sem);
	err = b->registered ? dmc_driver_register(&d->drv) : -ENODEV;
	up_read(&b->sem);
	if (err)
		kfree(d);
	else
		s->obj = d;
out:
	mutex_unlock(&s->lock);
	return err;
}

static int tt_op_drv_unreg(struct rnd_state *rs)
{
	unsigned int slot = tt_rand(rs, NDRV);
	struct tt_slot *s = &tt_drvs[slot];
	struct tt_bus *b = &tt_buses[slot % NBUS];
	struct tt_drv *d;

	mutex_lock(&s->lock);
	d = s->obj;
	s->obj = NULL;
	if (d) {
		down_read(&b->sem);
		dmc_driver_unregister(&d->drv);
		up_read(&b->sem);
		/* Freed right after: nothing may point at it any more. */
		memset(d, 0x6b, sizeof(*d));
		kfree(d);
	}
	mutex_unlock(&s->lock);
	return d ? 0 : -ENOENT;
}

static int tt_op_bus(struct rnd_state *rs)
{
	struct tt_bus *b = &tt_buses[tt_rand(rs, NBUS)];
	int err = 0;

	down_write(&b->sem);
	if (b->registered) {
		dmc_bus_unregister(&b->bus);
		b->registered = false;
		if (tt_rand(rs, 4)) {
			err = dmc_bus_register(&b->bus);
			b->registered = !err;
		}
	} else {
		err = dmc_bus_register(&b->bus);
		b->registered = !err;
	}
	up_write(&b->sem);
	return err;
}

static int tt_op_class(struct rnd_state *rs)
{
	struct tt_class *c = &tt_classes[tt_rand(rs, NCLASS)];
	int err = 0;

	down_write(&c->sem);
	if (c->registered) {
		if (c->intf_on) {
			dmc_class_interface_unregister(&c->intf);
			c->intf_on = false;
		}
		dmc_class_unregister(&c->cls);
		c->registered = false;
		if (tt_rand(rs, 4)) {
			err = dmc_class_register(&c->cls);
			c->registered = !err;
		}
	} else {
		err = dmc_class_register(&c->cls);
		c->registered = !err;
	}
	up_write(&c->sem);
	return err;
}

static int tt_op_bind(struct rnd_state *rs, bool unbind)
{
	struct dmc_device *dev = tt_get_dev(rs);
	struct tt_slot *s;
	struct tt_drv *d;
	int err = -ENOENT, slot;

	if (!dev)
		return err;
	if (unbind) {
		dmc_device_release_driver(dev);
		err = dmc_device_is_bound(dev) ? -EBUSY : 0;
		goto out;
	}
	/*
	 * Mostly a registered driver the device could take (its wish, or one
	 * of its bus), sometimes any driver slot at all.
	 */
	slot = tt_rand(rs, NDRV);
	if (dev->bus && tt_rand(rs, 4)) {
		int want = to_tt_dev(dev)->want, i, cand;
		unsigned int bidx = container_of(dev->bus, struct tt_bus, bus)->idx;

		for (i = 0; i < NDRV; i++) {
			cand = (slot + i) % NDRV;
			if (cand % NBUS != bidx || (want >= 0 && cand != want))
				continue;
			if (READ_ONCE(tt_drvs[cand].obj)) {
				slot = cand;
				break;
			}
		}
	}
	s = &tt_drvs[slot];
	if (tt_rand(rs, 2))
		dmc_device_release_driver(dev);
	mutex_lock(&s->lock);
	d = s->obj;
	if (d)
		err = dmc_device_driver_attach(&d->drv, dev);
	mutex_unlock(&s->lock);
out:
	dmc_device_put(dev);
	return err;
}

static int tt_op_attach(struct rnd_state *rs)
{
	struct dmc_device *dev = tt_get_dev(rs);
	int err;

	if (!dev)
		return -ENOENT;
	if (!dev->bus)
		err = -EINVAL;
	else if (tt_rand(rs, 2))
		err = dmc_device_attach(dev);
	else
		err = dmc_device_reprobe(dev);
	if (!tt_rand(rs, 4))
		dmc_wait_for_device_probe();
	dmc_device_put(dev);
	return err < 0 ? err : 0;
}

static int tt_op_suspend_all(struct rnd_state *rs)
{
	struct dmc_device *failed = NULL;
	int err;

	err = dmc_suspend_all(&failed);
	dmc_device_put(failed);
	if (!err) {
		if (tt_rand(rs, 2))
			msleep(tt_rand(rs, 5));
		dmc_resume_all();
	}
	return err;
}

static int tt_op_dev_pm(struct rnd_state *rs)
{
	struct dmc_device *dev = tt_get_dev(rs);
	int err;

	if (!dev)
		return -ENOENT;
	if (tt_rand(rs, 2))
		err = dmc_device_suspend(dev);
	else
		err = dmc_device_resume(dev);
	dmc_device_put(dev);
	return err;
}

/* Slot pairs of recent links, so that link_del finds some. */
#define NLINKS 16
static unsigned int tt_link_pairs[NLINKS];

static struct dmc_device *tt_get_dev_slot(unsigned int slot)
{
	struct tt_slot *s = &tt_devs[slot % NDEV];
	struct dmc_device *dev = NULL;
	struct tt_dev *td;

	mutex_lock(&s->lock);
	td = s->obj;
	if (td)
		dev = dmc_device_get(&td->dev);
	mutex_unlock(&s->lock);
	return dev;
}

/*
 * Flags for a link add: mostly valid combinations of every managed-link
 * behaviour, now and then an invalid one (refused with -EINVAL).
 */
static const u32 tt_link_flags[] = {
	0,
	DMC_DL_FLAG_STATELESS,
	DMC_DL_FLAG_AUTOREMOVE_CONSUMER,
	DMC_DL_FLAG_AUTOREMOVE_SUPPLIER,
	DMC_DL_FLAG_AUTOPROBE_CONSUMER,
	DMC_DL_FLAG_SYNC_STATE_ONLY,
	DMC_DL_FLAG_PM_RUNTIME | DMC_DL_FLAG_RPM_ACTIVE,
	DMC_DL_FLAG_PM_RUNTIME,
	DMC_DL_FLAG_PM_RUNTIME | DMC_DL_FLAG_AUTOREMOVE_CONSUMER,
	DMC_DL_FLAG_STATELESS | DMC_DL_FLAG_PM_RUNTIME,
	DMC_DL_FLAG_STATELESS | DMC_DL_FLAG_AUTOREMOVE_CONSUMER,	/* refused */
};

static int tt_op_link(struct rnd_state *rs, bool add)
{
	unsigned int sa = tt_rand(rs, NDEV), sb = tt_rand(rs, NDEV), pair;
	unsigned int i = tt_rand(rs, NLINKS);
	struct dmc_device_link *link;
	struct dmc_device *a, *b;
	int err = -ENOENT;
	u32 flags;

	if (!add && tt_rand(rs, 4)) {
		pair = READ_ONCE(tt_link_pairs[i]);
		sa = pair / NDEV;
		sb = pair % NDEV;
	}
	a = tt_get_dev_slot(sa);
	b = tt_get_dev_slot(sb);
	if (a && b) {
		if (add) {
			flags = tt_link_flags[tt_rand(rs, ARRAY_SIZE(tt_link_flags))];
			link = dmc_device_link_add(a, b, flags);
			err = IS_ERR(link) ? PTR_ERR(link) : 0;
			if (!err)
				WRITE_ONCE(tt_link_pairs[i], sa * NDEV + sb);
		} else {
			err = dmc_device_link_remove(a, b);
		}
	}
	dmc_device_put(a);
	dmc_device_put(b);
	return err;
}

/*
 * Runtime PM of a random device, or of its parent: a get, a short use, and
 * one of the puts (the autosuspend ones arm the timer), racing deletion,
 * unbinding, system suspend and link changes. Balanced: when the run
 * stops, no usage reference of this op is left.
 */
static int tt_op_rpm(struct rnd_state *rs)
{
	struct dmc_device *dev = tt_get_dev(rs), *target;
	int err;

	if (!dev)
		return -ENOENT;
	target = dev->parent && !tt_rand(rs, 3) ? dev->parent : dev;
	err = dmc_pm_runtime_resume_and_get(target);
	if (!err) {
		if (tt_rand(rs, 2))
			usleep_range(10, 500);
		dmc_pm_runtime_mark_last_busy(target);
		switch (tt_rand(rs, 4)) {
		case 0:
			err = dmc_pm_runtime_put(target);
			break;
		case 1:
			err = dmc_pm_runtime_put_sync(target);
			break;
		case 2:
			err = dmc_pm_runtime_put_autosuspend(target);
			break;
		default:
			err = dmc_pm_runtime_put_sync_autosuspend(target);
			break;
		}
		/* Refusals to suspend are not errors: the count dropped. */
		if (err == -EAGAIN || err == -EBUSY || err == -EACCES ||
		    err == -EINPROGRESS || err > 0)
			err = 0;
	}
	dmc_device_put(dev);
	return err;
}

static int tt_op_rename(struct rnd_state *rs)
{
	struct dmc_device *dev = tt_get_dev(rs);
	char name[24];
	int err;

	if (!dev)
		return -ENOENT;
	snprintf(name, sizeof(name), "td%u-%u", to_tt_dev(dev)->slot,
		 tt_rand(rs, 4));
	/*
	 * A device's name is hashed by its bus, class and parent: a raw
	 * kobject rename of it is refused (kobject_tree.c), and must stay
	 * refused while everything else runs. Success here is a violation.
	 */
	err = dmc_kobject_rename(&dev->kobj, name);
	if (!err) {
		pr_err(TT "raw rename of device to '%s' was accepted\n", name);
		atomic_long_inc(&tt_violations);
	}
	dmc_device_put(dev);
	return err == -EOPNOTSUPP ? 0 : (err ?: -EINVAL);
}

/* Plain directories under the torture's root: made, deleted, renamed. */
static int tt_op_dir(struct rnd_state *rs)
{
	unsigned int slot = tt_rand(rs, NDIR), ps = tt_rand(rs, NDIR);
	struct tt_slot *s = &tt_dirs[slot];
	struct dmc_kobject *kobj, *parent = NULL;
	char name[16];
	int err = 0;

	mutex_lock(&s->lock);
	kobj = s->obj;
	if (kobj) {
		if (tt_rand(rs, 2)) {
			snprintf(name, sizeof(name), "dir%u", tt_rand(rs, NDIR * 2));
			err = dmc_kobject_rename(kobj, name);
		} else {
			s->obj = NULL;
			if (dmc_kobject_in_tree(kobj))
				dmc_kobject_del(kobj);
			dmc_kobject_put(kobj);
		}
		mutex_unlock(&s->lock);
		return err;
	}
	if (ps != slot && mutex_trylock(&tt_dirs[ps].lock)) {
		if (tt_dirs[ps].obj)
			parent = dmc_kobject_get(tt_dirs[ps].obj);
		mutex_unlock(&tt_dirs[ps].lock);
	}
	snprintf(name, sizeof(name), "dir%u", slot);
	kobj = dmc_kobject_create_and_add(name, parent ?: tt_root);
	dmc_kobject_put(parent);
	s->obj = kobj;
	mutex_unlock(&s->lock);
	return kobj ? 0 : -EEXIST;
}

static int tt_op_move(struct rnd_state *rs)
{
	unsigned int a = tt_rand(rs, NDIR), b = tt_rand(rs, NDIR + 1);
	struct dmc_kobject *kobj = NULL, *np = NULL;
	int err = -ENOENT;

	mutex_lock(&tt_dirs[a].lock);
	if (tt_dirs[a].obj)
		kobj = dmc_kobject_get(tt_dirs[a].obj);
	mutex_unlock(&tt_dirs[a].lock);
	if (b == NDIR) {
		np = dmc_kobject_get(tt_root);
	} else {
		mutex_lock(&tt_dirs[b].lock);
		if (tt_dirs[b].obj)
			np = dmc_kobject_get(tt_dirs[b].obj);
		mutex_unlock(&tt_dirs[b].lock);
	}
	if (kobj && np)
		err = dmc_kobject_move(kobj, np);
	dmc_kobject_put(np);
	dmc_kobject_put(kobj);
	return err;
}

static int tt_op_listener(struct rnd_state *rs)
{
	struct tt_slot *s = &tt_lsns[tt_rand(rs, NLSN)];
	struct dmc_listener *l;
	int err = 0;

	mutex_lock(&s->lock);
	l = s->obj;
	if (l) {
		dmc_listener_unregister(l);
		kfree(l);
		s->obj = NULL;
	} else {
		l = kzalloc(sizeof(*l), GFP_KERNEL);
		if (l) {
			l->kobj_added = tt_lsn_added;
			l->kobj_removed = tt_lsn_removed;
			l->kobj_renamed = tt_lsn_renamed;
			l->kobj_moved = tt_lsn_moved;
			l->uevent = tt_lsn_uevent;
			err = dmc_listener_register(l);
			if (err)
				kfree(l);
			else
				s->obj = l;
		} else {
			err = -ENOMEM;
		}
	}
	mutex_unlock(&s->lock);
	return err;
}

static int tt_op_intf(struct rnd_state *rs)
{
	struct tt_class *c = &tt_classes[tt_rand(rs, NCLASS)];
	int err = -ENODEV;

	down_read(&c->sem);
	mutex_lock(&c->intf_lock);
	if (c->registered) {
		if (c->intf_on) {
			dmc_class_interface_unregister(&c->intf);
			c->intf_on = false;
			err = 0;
		} else {
			err = dmc_class_interface_register(&c->intf);
			c->intf_on = !err;
		}
	}
	mutex_unlock(&c->intf_lock);
	up_read(&c->sem);
	return err;
}

static int tt_op_autoprobe(struct rnd_state *rs)
{
	struct tt_bus *b = &tt_buses[tt_rand(rs, NBUS)];
	int err = -ENODEV;

	down_read(&b->sem);
	if (b->registered) {
		err = dmc_bus_set_autoprobe(&b->bus, tt_rand(rs, 4) != 0);
		if (!err && !tt_rand(rs, 2))
			err = dmc_bus_rescan_devices(&b->bus);
	}
	up_read(&b->sem);
	return err;
}

static int tt_count_one(struct dmc_device *dev, void *data)
{
	(*(unsigned long *)data)++;
	return 0;
}

static int tt_op_lookup(struct rnd_state *rs)
{
	struct dmc_device *dev = tt_get_dev(rs), *found;
	struct tt_bus *b = &tt_buses[tt_rand(rs, NBUS)];
	unsigned long n = 0;
	char name[24];
	char *path;

	snprintf(name, sizeof(name), "td%u-%u", tt_rand(rs, NDEV), tt_rand(rs, 4));
	down_read(&b->sem);
	if (b->registered) {
		found = dmc_bus_find_device_by_name(&b->bus, name);
		dmc_device_put(found);
		dmc_bus_walk_devices(&b->bus, &n, tt_count_one);
	}
	up_read(&b->sem);
	dmc_dpm_walk(&n, tt_count_one);
	if (dev) {
		path = dmc_kobject_get_path(&dev->kobj, GFP_KERNEL);
		kfree(path);
		dmc_device_walk_children(dev, &n, tt_count_one);
		found = dmc_device_find_child_by_name(dev, name);
		dmc_device_put(found);
		dmc_device_put(dev);
	}
	return 0;
}

/*
 * Is the snapshot @text (NUL-terminated) one state? Every parent= and
 * both ends of every link name a device listed above, every driver= a
 * driver listed above; the "end" counts are the lines'. Returns the
 * first problem, or NULL.
 */
static const char *tt_snapshot_check(const char *text)
{
	unsigned int devs = 0, drvs = 0, links = 0, eb, ec, ed = ~0U, ev = ~0U, el = ~0U;
	const char *l, *end, *v, *sp;
	char want[300];

	for (l = text; *l; l = end + 1) {
		end = strchr(l, '\n');
		if (!end)
			return "a line without its end";
		if (!strncmp(l, "device ", 7)) {
			devs++;
			v = strnstr(l, " parent=", end - l);
			sp = v ? strnchr(v + 8, end - v - 8, ' ') : NULL;
			if (!sp)
				return "a device line without parent=";
			snprintf(want, sizeof(want), "\ndevice %.*s ", (int)(sp - v - 8), v + 8);
			if (strncmp(v + 8, "- ", 2) && !strnstr(text, want, l - text + 1))
				return "a parent not listed before its child";
		} else if (!strncmp(l, "driver ", 7)) {
			drvs++;
		} else if (!strncmp(l, "link ", 5)) {
			links++;
			sp = strnchr(l + 5, end - l - 5, ' ');
			if (!sp)
				return "a short link line";
			snprintf(want, sizeof(want), "\ndevice %.*s ", (int)(sp - l - 5), l + 5);
			if (!strnstr(text, want, l - text + 1))
				return "a link's supplier not listed";
		} else if (!strncmp(l, "end ", 4)) {
			if (sscanf(l, "end buses=%u classes=%u drivers=%u devices=%u links=%u",
				   &eb, &ec, &ed, &ev, &el) != 5)
				return "a bad end line";
			break;
		}
	}
	if (devs != ev || drvs != ed || links != el)
		return "counts unlike the end line's";
	return NULL;
}

/* The whole model in one read, checked (snapshot.c). */
static int tt_op_snapshot(struct rnd_state *rs)
{
	const char *bad;
	size_t len;
	char *text;

	text = dmc_model_snapshot(&len);
	if (IS_ERR(text))
		return PTR_ERR(text);
	bad = len && text[len - 1] == '\n' ? NULL : "not ended by a line break";
	if (!bad) {
		char *copy = kmemdup_nul(text, len, GFP_KERNEL);

		if (!copy) {
			kvfree(text);
			return -ENOMEM;
		}
		bad = tt_snapshot_check(copy);
		kfree(copy);
	}
	kvfree(text);
	if (bad) {
		pr_err(TT "snapshot: %s\n", bad);
		atomic_long_inc(&tt_violations);
		return -EPROTO;
	}
	return 0;
}

static int tt_op_uevent(struct rnd_state *rs)
{
	struct dmc_device *dev = tt_get_dev(rs);
	int err;

	if (!dev)
		return -ENOENT;
	err = dmc_kobject_uevent(&dev->kobj, DMC_KOBJ_CHANGE);
	dmc_device_put(dev);
	return err;
}

/*
 * dmc_device_rename() of a random device: to another name of its slot
 * (often taken: -EEXIST), or now and then to a bad name, which must be
 * refused with -EINVAL (accepted: a violation). The invariant checker
 * then finds the device in every index under its new name.
 */
static int tt_op_dev_rename(struct rnd_state *rs)
{
	static const char * const bad[] = { "", "a/b", ".", ".." };
	struct dmc_device *dev = tt_get_dev(rs);
	const char *name;
	char buf[24];
	int err;

	if (!dev)
		return -ENOENT;
	if (!tt_rand(rs, 8)) {
		name = bad[tt_rand(rs, ARRAY_SIZE(bad))];
		err = dmc_device_rename(dev, name);
		if (err != -EINVAL) {
			pr_err(TT "rename of '%s' to bad name '%s': %d, not -EINVAL\n",
			       dmc_dev_name(dev), name, err);
			atomic_long_inc(&tt_violations);
		}
		dmc_device_put(dev);
		return err ?: -EINVAL;
	}
	snprintf(buf, sizeof(buf), "td%u-%u", to_tt_dev(dev)->slot, tt_rand(rs, 4));
	err = dmc_device_rename(dev, buf);
	dmc_device_put(dev);
	return err;
}

/*
 * dmc_device_move() of a random device under another (or to the top
 * level), in a random power order: a descendant is refused (-EINVAL),
 * a parent on its way out (-ENOENT), a suspended one for a device on
 * (-EBUSY). Now and then under itself, which must be refused with
 * -EINVAL (accepted: a violation).
 */
static int tt_op_dev_move(struct rnd_state *rs)
{
	struct dmc_device *dev = tt_get_dev(rs), *np = NULL;
	enum dmc_dpm_order order = tt_rand(rs, 4);
	int err;

	if (!dev)
		return -ENOENT;
	if (!tt_rand(rs, 16)) {
		err = dmc_device_move(dev, dev, order);
		if (err != -EINVAL) {
			pr_err(TT "move of '%s' under itself: %d, not -EINVAL\n",
			       dmc_dev_name(dev), err);
			atomic_long_inc(&tt_violations);
		}
		dmc_device_put(dev);
		return err ?: -EINVAL;
	}
	if (tt_rand(rs, 4)) {
		np = tt_get_dev(rs);
		if (!np) {
			dmc_device_put(dev);
			return -ENOENT;
		}
	}
	err = dmc_device_move(dev, np, order);
	dmc_device_put(np);
	dmc_device_put(dev);
	return err;
}

static int tt_do_op(struct rnd_state *rs, enum tt_op op)
{
	switch (op) {
	case OP_DEV_ADD:	return tt_op_dev_add(rs);
	case OP_DEV_DEL:	return tt_op_dev_del(rs);
	case OP_DRV_REG:	return tt_op_drv_reg(rs);
	case OP_DRV_UNREG:	return tt_op_drv_unreg(rs);
	case OP_BUS:		return tt_op_bus(rs);
	case OP_CLASS:		return tt_op_class(rs);
	case OP_BIND:		return tt_op_bind(rs, false);
	case OP_UNBIND:		return tt_op_bind(rs, true);
	case OP_ATTACH:		return tt_op_attach(rs);
	case OP_SUSPEND_ALL:	return tt_op_suspend_all(rs);
	case OP_DEV_PM:		return tt_op_dev_pm(rs);
	case OP_LINK_ADD:	return tt_op_link(rs, true);
	case OP_LINK_DEL:	return tt_op_link(rs, false);
	case OP_RENAME:		return tt_op_rename(rs);
	case OP_DIR:		return tt_op_dir(rs);
	case OP_MOVE:		return tt_op_move(rs);
	case OP_LISTENER:	return tt_op_listener(rs);
	case OP_INTF:		return tt_op_intf(rs);
	case OP_AUTOPROBE:	return tt_op_autoprobe(rs);
	case OP_LOOKUP:		return tt_op_lookup(rs);
	case OP_UEVENT:		return tt_op_uevent(rs);
	case OP_DEV_RENAME:	return tt_op_dev_rename(rs);
	case OP_DEV_MOVE:	return tt_op_dev_move(rs);
	case OP_RPM:		return tt_op_rpm(rs);
	case OP_SNAPSHOT:	return tt_op_snapshot(rs);
	default:		return -EINVAL;
	}
}

/* ---- threads --------------------------------------------------------------- */

static unsigned int tt_weight_total;

static enum tt_op tt_pick(struct rnd_state *rs)
{
	unsigned int r = tt_rand(rs, tt_weight_total), i;

	for (i = 0; i < NR_OPS; i++) {
		if (!(ops & BIT(i)))
			continue;
		if (r < tt_op_weight[i])
			return i;
		r -= tt_op_weight[i];
	}
	return OP_LOOKUP;
}

static int tt_worker(void *arg)
{
	unsigned long id = (unsigned long)arg;
	struct rnd_state rs;
	enum tt_op op;
	unsigned long n = 0;

	prandom_seed_state(&rs, seed + id);
	while (!kthread_should_stop() && !READ_ONCE(tt_stopping)) {
		op = tt_pick(&rs);
		tt_count(op, tt_do_op(&rs, op));
		if (!(++n % 16))
			cond_resched();
	}
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ / 10);
	return 0;
}

/* Read the event log: SEQNUMs must follow each other, drops counted. */
static int tt_reader_fn(void *arg)
{
	struct dmc_event_stats st;
	struct dmc_uevent *ev;
	u64 pos, want, missed;

	dmc_event_log_stats(&st);
	pos = st.last_seqnum + 1;
	while (!kthread_should_stop()) {
		want = pos;
		ev = dmc_event_log_next(&pos, &missed);
		if (!ev) {
			schedule_timeout_interruptible(HZ / 50);
			continue;
		}
		atomic_long_inc(&tt_ev_read);
		atomic_long_add(missed, &tt_ev_dropped);
		if (ev->seqnum != want + missed &&
		    atomic_long_inc_return(&tt_ev_gaps) <= 5)
			pr_err(TT "event log: SEQNUM %llu, expected %llu (%llu dropped)\n",
			       ev->seqnum, want + missed, missed);
		dmc_uevent_put(ev);
		/* A slow reader now and then, so that the log drops. */
		if (!(atomic_long_read(&tt_ev_read) % 512))
			msleep(20);
	}
	return 0;
}

static void tt_check(unsigned int flags, const char *when)
{
	unsigned int v = dmc_check_invariants(flags);

	atomic_long_inc(&tt_checks);
	if (v) {
		pr_err(TT "%u invariant violations (%s)\n", v, when);
		atomic_long_add(v, &tt_violations);
	}
}

static int tt_checker_fn(void *arg)
{
	while (!kthread_should_stop()) {
		schedule_timeout_interruptible(msecs_to_jiffies(check_ms));
		if (!kthread_should_stop())
			tt_check(0, "during the run");
	}
	return 0;
}

static void tt_print_stats(const char *tag)
{
	char line[512], errs[320];
	size_t len = 0, elen = 0;
	long total = 0;
	int i;

	for (i = 0; i < NR_OPS; i++) {
		long ok = atomic_long_read(&tt_stats.ok[i]);
		long err = atomic_long_read(&tt_stats.err[i]);

		total += ok + err;
		len += scnprintf(line + len, sizeof(line) - len, " %s=%ld/%ld",
				 tt_op_names[i], ok, err);
		if (err)
			elen += scnprintf(errs + elen, sizeof(errs) - elen, " %s=%d",
					  tt_op_names[i],
					  atomic_read(&tt_stats.last_err[i]));
	}
	pr_info(TT "%s: ops=%ld (ok/err):%s\n", tag, total, line);
	pr_info(TT "%s: last errors:%s\n", tag, elen ? errs : " none");
	pr_info(TT "%s: probes=%ld removes=%ld suspends=%ld resumes=%ld created=%ld released=%ld checks=%ld violations=%ld events_read=%ld dropped=%ld gaps=%ld seq_seen=%ld seq_gaps=%ld listener_calls=%ld rt_suspends=%ld rt_resumes=%ld\n",
		tag, atomic_long_read(&tt_probes), atomic_long_read(&tt_removes),
		atomic_long_read(&tt_suspends), atomic_long_read(&tt_resumes),
		atomic_long_read(&tt_created), atomic_long_read(&tt_released),
		atomic_long_read(&tt_checks), atomic_long_read(&tt_violations),
		atomic_long_read(&tt_ev_read), atomic_long_read(&tt_ev_dropped),
		atomic_long_read(&tt_ev_gaps), atomic_long_read(&tt_seq_seen),
		atomic_long_read(&tt_seq_gaps), atomic_long_read(&tt_lsn_events),
		atomic_long_read(&tt_rt_suspends), atomic_long_read(&tt_rt_resumes));
}

/* ---- the world: made, torn down ------------------------------------------ */

static int tt_world_init(void)
{
	int i, err;

	tt_root = dmc_kobject_create_and_add("dmc_torture", NULL);
	if (!tt_root)
		return -ENOMEM;
	for (i = 0; i < NBUS; i++) {
		struct tt_bus *b = &tt_buses[i];

		init_rwsem(&b->sem);
		b->idx = i;
		snprintf(b->name, sizeof(b->name), "tbus%d", i);
		b->bus.name = b->name;
		b->bus.match = tt_match;
		if (i == 1) {
			b->bus.dev_match_key = tt_dev_match_key;
			b->bus.drv_match_keys = tt_drv_match_keys;
		}
		err = dmc_bus_register(&b->bus);
		if (err)
			return err;
		b->registered = true;
	}
	for (i = 0; i < NCLASS; i++) {
		struct tt_class *c = &tt_classes[i];

		init_rwsem(&c->sem);
		mutex_init(&c->intf_lock);
		snprintf(c->name, sizeof(c->name), "tclass%d", i);
		c->cls.name = c->name;
		c->intf.class = &c->cls;
		c->intf.add_dev = tt_intf_add;
		c->intf.remove_dev = tt_intf_remove;
		err = dmc_class_register(&c->cls);
		if (err)
			return err;
		c->registered = true;
	}
	for (i = 0; i < NDEV; i++)
		mutex_init(&tt_devs[i].lock);
	for (i = 0; i < NDRV; i++)
		mutex_init(&tt_drvs[i].lock);
	for (i = 0; i < NDIR; i++)
		mutex_init(&tt_dirs[i].lock);
	for (i = 0; i < NLSN; i++)
		mutex_init(&tt_lsns[i].lock);
	return 0;
}

/* Tear the world down; no worker runs. Safe after a partial init. */
static void tt_world_exit(void)
{
	int i;

	for (i = 0; i < NLSN; i++) {
		if (tt_lsns[i].obj) {
			dmc_listener_unregister(tt_lsns[i].obj);
			kfree(tt_lsns[i].obj);
			tt_lsns[i].obj = NULL;
		}
	}
	for (i = 0; i < NDEV; i++) {
		struct tt_dev *td = tt_devs[i].obj;

		if (td)
			dmc_device_unregister(&td->dev);
		tt_devs[i].obj = NULL;
	}
	dmc_wait_for_device_probe();
	for (i = 0; i < NDRV; i++) {
		struct tt_drv *d = tt_drvs[i].obj;

		if (d) {
			dmc_driver_unregister(&d->drv);
			kfree(d);
		}
		tt_drvs[i].obj = NULL;
	}
	for (i = 0; i < NCLASS; i++) {
		struct tt_class *c = &tt_classes[i];

		if (c->intf_on)
			dmc_class_interface_unregister(&c->intf);
		c->intf_on = false;
		if (c->registered)
			dmc_class_unregister(&c->cls);
		c->registered = false;
	}
	for (i = 0; i < NBUS; i++) {
		if (tt_buses[i].registered)
			dmc_bus_unregister(&tt_buses[i].bus);
		tt_buses[i].registered = false;
	}
	for (i = 0; i < NDIR; i++) {
		struct dmc_kobject *kobj = tt_dirs[i].obj;

		if (kobj) {
			if (dmc_kobject_in_tree(kobj))
				dmc_kobject_del(kobj);
			dmc_kobject_put(kobj);
		}
		tt_dirs[i].obj = NULL;
	}
	if (tt_root) {
		dmc_kobject_del(tt_root);
		dmc_kobject_put(tt_root);
		tt_root = NULL;
	}
}

/* ---- the run --------------------------------------------------------------- */

static void tt_stop_workers(void)
{
	int i;

	WRITE_ONCE(tt_stopping, true);
	for (i = 0; i < MAX_THREADS; i++) {
		if (tt_tasks[i])
			kthread_stop(tt_tasks[i]);
		tt_tasks[i] = NULL;
	}
	if (tt_checker)
		kthread_stop(tt_checker);
	tt_checker = NULL;
}

/* Must op kind @i have succeeded? Not when what it undoes is off. */
static bool tt_op_needed(int i)
{
	if (i == OP_LINK_DEL)
		return ops & BIT(OP_LINK_ADD);
	if (i == OP_DEV_DEL || i == OP_BIND || i == OP_RENAME ||
	    i == OP_UEVENT || i == OP_DEV_PM || i == OP_DEV_RENAME ||
	    i == OP_DEV_MOVE || i == OP_RPM)
		return ops & BIT(OP_DEV_ADD);
	if (i == OP_DRV_UNREG)
		return ops & BIT(OP_DRV_REG);
	if (i == OP_MOVE)
		return ops & BIT(OP_DIR);
	return true;
}

/* Stop, check, tear down, count, and print the verdict. */
static void tt_finish(void)
{
	char why[256] = "";
	unsigned long census;
	size_t len = 0;
	int i;

	tt_stop_workers();

	/* Quiet now: finish probing and resume, then check strictly. */
	dmc_wait_for_device_probe();
	dmc_resume_all();
	dmc_wait_for_device_probe();
	msleep(100);	/* runtime PM's idle requests and autosuspends (<= 3 ms) */
	tt_check(DMC_INV_QUIESCENT, "at the end, world alive");

	tt_world_exit();
	dmc_wait_for_device_probe();
	tt_check(DMC_INV_QUIESCENT, "after teardown");
	if (tt_reader)
		kthread_stop(tt_reader);
	tt_reader = NULL;
	dmc_listener_unregister(&tt_seq_listener);

	/* Give the last releases (async work) a moment. */
	for (i = 0; i < 50 && atomic_long_read(&tt_released) !=
	     atomic_long_read(&tt_created); i++)
		msleep(20);
	census = dmc_live_objects();
	pr_info(TT "census: %lu live objects before, %lu after; devices created %ld, released %ld\n",
		tt_census_before, census, atomic_long_read(&tt_created),
		atomic_long_read(&tt_released));
	tt_print_stats("final");

	if (atomic_long_read(&tt_violations))
		len += scnprintf(why + len, sizeof(why) - len, " violations=%ld",
				 atomic_long_read(&tt_violations));
	if (atomic_long_read(&tt_ev_gaps) || atomic_long_read(&tt_seq_gaps))
		len += scnprintf(why + len, sizeof(why) - len, " seqnum_gaps=%ld/%ld",
				 atomic_long_read(&tt_ev_gaps),
				 atomic_long_read(&tt_seq_gaps));
	if (census != tt_census_before ||
	    atomic_long_read(&tt_created) != atomic_long_read(&tt_released))
		len += scnprintf(why + len, sizeof(why) - len, " census=%lu/%lu",
				 census, tt_census_before);
	for (i = 0; i < NR_OPS; i++) {
		if ((ops & BIT(i)) && tt_op_needed(i) &&
		    atomic_long_read(&tt_stats.ok[i]) < min_ops)
			len += scnprintf(why + len, sizeof(why) - len, " %s_never_ok",
					 tt_op_names[i]);
	}
	if (len)
		pr_err(TT "End of test: FAILURE (seed=%lu:%s)\n", seed, why);
	else
		pr_info(TT "End of test: SUCCESS (seed=%lu threads=%d duration_s=%d ops=0x%lx)\n",
			seed, threads, duration_s, ops);
	WRITE_ONCE(tt_done, true);
}

static int tt_main_fn(void *arg)
{
	unsigned long end = jiffies + duration_s * HZ, next_stat;

	next_stat = jiffies + stat_interval * HZ;
	while (time_before(jiffies, end) && !kthread_should_stop()) {
		schedule_timeout_interruptible(HZ / 4);
		if (stat_interval > 0 && time_after_eq(jiffies, next_stat)) {
			tt_print_stats("stats");
			next_stat = jiffies + stat_interval * HZ;
		}
	}
	tt_finish();
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ / 10);
	return 0;
}

/*
 * Before the run: the checker finds nothing in a sound model, finds the
 * two indexes it spoils itself (DMC_INV_SELFTEST), and finds a device
 * that is registered but out of the tree (made by deleting its kobject
 * behind the device's back), so a clean run means something.
 */
static int tt_selftest(void)
{
	struct tt_dev *td;
	unsigned int v0, v1, v2, vs;
	int err;

	td = kzalloc(sizeof(*td), GFP_KERNEL);
	if (!td)
		return -ENOMEM;
	dmc_device_initialize(&td->dev);
	atomic_long_inc(&tt_created);
	td->want = -1;
	strscpy(td->name, "tt-selftest", sizeof(td->name));
	td->dev.init_name = td->name;
	td->dev.release = tt_dev_release;
	td->dev.bus = &tt_buses[0].bus;
	err = dmc_device_add(&td->dev);
	if (err) {
		dmc_device_put(&td->dev);
		return err;
	}
	v0 = dmc_check_invariants(DMC_INV_QUIESCENT);
	vs = dmc_check_invariants(DMC_INV_QUIESCENT | DMC_INV_SELFTEST);
	dmc_kobject_del(&td->dev.kobj);
	v1 = dmc_check_invariants(DMC_INV_QUIESCENT);
	dmc_device_unregister(&td->dev);
	v2 = dmc_check_invariants(DMC_INV_QUIESCENT);
	pr_info(TT "selftest: checker found %u, %u (indexes spoiled by the checker: expected 2), %u (broken on purpose: expected >= 1), %u violations\n",
		v0, vs, v1, v2);
	if (v0 || vs != 2 || !v1 || v2) {
		pr_err(TT "selftest: the invariant checker is not trustworthy\n");
		return -EINVAL;
	}
	return 0;
}

static int __init tt_init(void)
{
	unsigned long i;
	int err;

	if (threads < 1 || threads > MAX_THREADS || duration_s < 0) {
		pr_err(TT "threads must be 1..%d and duration_s >= 0\n", MAX_THREADS);
		return -EINVAL;
	}
	ops &= BIT(NR_OPS) - 1;
	for (i = 0; i < NR_OPS; i++)
		if (ops & BIT(i))
			tt_weight_total += tt_op_weight[i];
	if (!tt_weight_total) {
		pr_err(TT "ops=0x%lx enables nothing\n", ops);
		return -EINVAL;
	}
	while (!seed)
		seed = get_random_u32();
	pr_info(TT "start: seed=%lu threads=%d duration_s=%d ops=0x%lx probes=0x%lx (replay: insmod dmc_torture.ko seed=%lu ops=0x%lx probes=0x%lx)\n",
		seed, threads, duration_s, ops, probes, seed, ops, probes);
	for (i = 0; i < NR_OPS; i++)
		pr_info(TT "op %lu = %s%s\n", i, tt_op_names[i],
			ops & BIT(i) ? "" : " (off)");

	tt_census_before = dmc_live_objects();
	err = dmc_listener_register(&tt_seq_listener);
	if (err)
		return err;
	err = tt_world_init();
	if (err)
		goto err_world;
	err = tt_selftest();
	if (err)
		goto err_world;

	tt_reader = kthread_run(tt_reader_fn, NULL, "dmc_tt_reader");
	if (IS_ERR(tt_reader)) {
		err = PTR_ERR(tt_reader);
		tt_reader = NULL;
		goto err_world;
	}
	for (i = 0; i < threads; i++) {
		tt_tasks[i] = kthread_run(tt_worker, (void *)i, "dmc_tt_%lu", i);
		if (IS_ERR(tt_tasks[i])) {
			err = PTR_ERR(tt_tasks[i]);
			tt_tasks[i] = NULL;
			goto err_threads;
		}
	}
	if (check_ms > 0) {
		tt_checker = kthread_run(tt_checker_fn, NULL, "dmc_tt_check");
		if (IS_ERR(tt_checker)) {
			err = PTR_ERR(tt_checker);
			tt_checker = NULL;
			goto err_threads;
		}
	}
	tt_main = kthread_run(tt_main_fn, NULL, "dmc_tt_main");
	if (IS_ERR(tt_main)) {
		err = PTR_ERR(tt_main);
		tt_main = NULL;
		goto err_threads;
	}
	return 0;

err_threads:
	tt_stop_workers();
	kthread_stop(tt_reader);
	tt_reader = NULL;
err_world:
	dmc_wait_for_device_probe();
	tt_world_exit();
	dmc_listener_unregister(&tt_seq_listener);
	return err;
}

static void __exit tt_exit(void)
{
	/*
	 * Unloading early ends the run: the main thread stops the workers,
	 * tears the world down and prints the result before it returns.
	 */
	if (tt_main)
		kthread_stop(tt_main);
	if (!READ_ONCE(tt_done)) {
		/* Stopped before it ran: finish here. */
		pr_warn(TT "unloaded before the end of the test\n");
		tt_finish();
	}
}

module_init(tt_init);
module_exit(tt_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("dmcore torture test: random concurrent operations and invariant checks");
