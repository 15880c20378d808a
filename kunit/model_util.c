// SPDX-License-Identifier: GPL-2.0
/*
 * Scaffolding of the device-model suites: a fake world (bus, drivers,
 * devices, classes, interfaces) whose callbacks log what they see, and
 * the exit-time cleanup that leaves nothing behind. See model_util.h.
 */
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "model_util.h"

/*
 * The device a test allocates: the struct dmc_device, and which test's
 * record it belongs to. @gen tells a callback whether the record is still
 * the running test's (a late release from a failed test must not touch a
 * freed record).
 */
struct dmm_devobj {
	struct dmc_device dev;
	unsigned int gen;
	struct dmm_dev *t;
};

static DEFINE_SPINLOCK(dmm_cur_lock);
static struct dmm_ctx *dmm_cur;
static atomic_t dmm_gen_next = ATOMIC_INIT(0);

static struct dmm_devobj *to_devobj(struct dmc_device *dev)
{
	return container_of(dev, struct dmm_devobj, dev);
}

/* The running test's record of @dev, or NULL. @dev must be one of ours. */
static struct dmm_dev *dmm_t(struct dmc_device *dev)
{
	struct dmm_devobj *obj = to_devobj(dev);
	struct dmm_dev *t = NULL;
	unsigned long flags;

	spin_lock_irqsave(&dmm_cur_lock, flags);
	if (dmm_cur && dmm_cur->gen == obj->gen)
		t = obj->t;
	spin_unlock_irqrestore(&dmm_cur_lock, flags);
	return t;
}

static struct dmm_drv *to_dmm_drv(const struct dmc_driver *drv)
{
	return container_of(drv, struct dmm_drv, drv);
}

static struct dmm_bus *to_dmm_bus(const struct dmc_bus_type *bus)
{
	return container_of(bus, struct dmm_bus, bus);
}

static struct dmm_class *to_dmm_class(const struct dmc_class *cls)
{
	return container_of(cls, struct dmm_class, cls);
}

/* ---------------------------------------------------------------------- */
/* Strings and the log */

const char *dmm_str(struct kunit *test, const char *fmt, ...)
{
	va_list args;
	char *s, *k;

	va_start(args, fmt);
	s = kvasprintf(GFP_KERNEL, fmt, args);
	va_end(args);
	KUNIT_ASSERT_NOT_NULL(test, s);
	k = kunit_kzalloc(test, strlen(s) + 1, GFP_KERNEL);
	if (k)
		strcpy(k, s);
	kfree(s);
	KUNIT_ASSERT_NOT_NULL(test, k);
	return k;
}

const char *dmm_name(struct kunit *test, const char *short_name)
{
	struct dmm_ctx *ctx = dmm_ctx(test);

	return dmm_str(test, "%s%u-%s", ctx->prefix, ctx->gen, short_name);
}

void dmm_log(struct dmm_ctx *ctx, unsigned int kind, const char *fmt, ...)
{
	char buf[DMM_LOG_LEN];
	unsigned long flags;
	va_list args;

	if (!ctx || !(READ_ONCE(ctx->log_mask) & kind))
		return;
	va_start(args, fmt);
	vsnprintf(buf, sizeof(buf), fmt, args);
	va_end(args);

	spin_lock_irqsave(&ctx->lock, flags);
	if (ctx->nr_log < DMM_LOG_MAX)
		strscpy(ctx->log[ctx->nr_log++], buf, DMM_LOG_LEN);
	else
		ctx->log_lost++;
	spin_unlock_irqrestore(&ctx->lock, flags);
}

/* The log as one string, entries separated by spaces. */
const char *dmm_log_str(struct kunit *test)
{
	struct dmm_ctx *ctx = dmm_ctx(test);
	size_t size = DMM_LOG_MAX * DMM_LOG_LEN + 16, len = 0;
	unsigned long flags;
	unsigned int i;
	char *s;

	s = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	spin_lock_irqsave(&ctx->lock, flags);
	for (i = 0; i < ctx->nr_log; i++)
		len += scnprintf(s + len, size - len, "%s%s", i ? " " : "",
				 ctx->log[i]);
	if (ctx->log_lost)
		scnprintf(s + len, size - len, " +lost");
	spin_unlock_irqrestore(&ctx->lock, flags);
	return s;
}

void dmm_log_clear(struct kunit *test)
{
	struct dmm_ctx *ctx = dmm_ctx(test);
	unsigned long flags;

	spin_lock_irqsave(&ctx->lock, flags);
	ctx->nr_log = 0;
	ctx->log_lost = 0;
	spin_unlock_irqrestore(&ctx->lock, flags);
}

int dmm_log_index(struct kunit *test, const char *entry)
{
	struct dmm_ctx *ctx = dmm_ctx(test);
	unsigned long flags;
	unsigned int i;
	int ret = -1;

	spin_lock_irqsave(&ctx->lock, flags);
	for (i = 0; i < ctx->nr_log; i++) {
		if (!strcmp(ctx->log[i], entry)) {
			ret = i;
			break;
		}
	}
	spin_unlock_irqrestore(&ctx->lock, flags);
	return ret;
}

unsigned int dmm_log_count(struct kunit *test, const char *entry)
{
	struct dmm_ctx *ctx = dmm_ctx(test);
	unsigned int i, n = 0;
	unsigned long flags;

	spin_lock_irqsave(&ctx->lock, flags);
	for (i = 0; i < ctx->nr_log; i++)
		if (!strcmp(ctx->log[i], entry))
			n++;
	spin_unlock_irqrestore(&ctx->lock, flags);
	return n;
}

/* How many @action events on @devpath the test's listener recorded. */
unsigned int dmm_ev_count(struct kunit *test, enum dmc_kobject_action action,
			  const char *devpath)
{
	struct dmct_ctx *ct = dmct_ctx(test);
	unsigned int i, n = 0;
	unsigned long flags;

	spin_lock_irqsave(&ct->lock, flags);
	for (i = 0; i < ct->nr_evs; i++)
		if (ct->evs[i].action == action &&
		    !strcmp(ct->evs[i].devpath, devpath))
			n++;
	spin_unlock_irqrestore(&ct->lock, flags);
	return n;
}

/*
 * The value of @key in the first logged @action event on @devpath after
 * SEQNUM @after, as a kunit-managed string; NULL if there is no such event
 * or variable.
 */
const char *dmm_ev_var(struct kunit *test, u64 after,
		       enum dmc_kobject_action action, const char *devpath,
		       const char *key)
{
	struct dmc_uevent *ev = dmct_log_find(after, action, devpath);
	const char *val, *ret = NULL;

	if (!ev)
		return NULL;
	val = dmc_uevent_var(ev, key);
	if (val)
		ret = dmm_str(test, "%s", val);
	dmc_uevent_put(ev);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* Callbacks of the fake world */

static bool dmm_dev_locked(struct dmc_device *dev)
{
#ifdef CONFIG_LOCKDEP
	return lockdep_is_held(&dev->mutex);
#else
	return mutex_is_locked(&dev->mutex);
#endif
}

static void dmm_record_release(struct dmc_device *dev, const char *by)
{
	struct dmm_devobj *obj = to_devobj(dev);
	struct dmm_ctx *ctx = NULL;
	struct dmm_dev *t = NULL;
	unsigned long flags;

	spin_lock_irqsave(&dmm_cur_lock, flags);
	if (dmm_cur && dmm_cur->gen == obj->gen) {
		t = obj->t;
		ctx = dmm_cur;
		spin_lock(&ctx->lock);
		t->released++;
		t->release_seq = ++ctx->nr_released;
		t->release_by = by;
		t->dev = NULL;
		spin_unlock(&ctx->lock);
	}
	spin_unlock_irqrestore(&dmm_cur_lock, flags);
	if (t)
		dmm_log(ctx, DMM_LOG_RELEASE, "release:%s", t->short_name);
	else
		pr_err("dmcore-kunit: device %s released after its test\n",
		       dmc_dev_name(dev) ?: "?");
	kfree(obj);
}

void dmm_dev_release(struct dmc_device *dev)
{
	dmm_record_release(dev, "dev");
}

static void dmm_dev_release_type(struct dmc_device *dev)
{
	dmm_record_release(dev, "type");
}

void dmm_dev_release_class(struct dmc_device *dev)
{
	dmm_record_release(dev, "class");
}

static int dmm_type_uevent(const struct dmc_device *dev,
			   struct dmc_uevent_env *env)
{
	return dmc_add_uevent_var(env, "DMM_TYPE=yes");
}

const struct dmc_device_type dmm_type = {
	.name = "dmm-type",
	.uevent = dmm_type_uevent,
	.release = dmm_dev_release_type,
};

static int dmm_match(struct dmc_device *dev, const struct dmc_driver *drv)
{
	const struct dmm_drv *r = to_dmm_drv(drv);
	struct dmm_dev *t = dmm_t(dev);
	const char *want;

	if (!t)
		return 0;
	dmm_log(t->ctx, DMM_LOG_MATCH, "match:%s:%s", t->short_name,
		r->short_name);
	if (r->match_ret)
		return r->match_ret;
	if (t->match_ret)
		return t->match_ret;
	want = READ_ONCE(t->want);	/* a test may clear it meanwhile */
	return want && !strcmp(want, drv->name);
}

/* A keyed bus's key of @dev: the test's @key. */
static int dmm_dev_match_key(const struct dmc_device *dev, char *buf, size_t size)
{
	struct dmm_dev *t = dmm_t((struct dmc_device *)dev);

	if (!t || !t->key)
		return -ENOENT;
	return snprintf(buf, size, "%s", t->key);
}

static const char * const *dmm_drv_match_keys(const struct dmc_driver *drv)
{
	const struct dmm_drv *d = to_dmm_drv(drv);

	return d->keys_null ? NULL : d->keys;
}

/*
 * Make @b, not yet registered, a bus with a match index: devices' keys
 * are their @key, drivers' their @keys. The match is unchanged (a
 * device's @want decides), so a test can see which drivers the index
 * let the core offer a device to.
 */
void dmm_bus_keyed(struct dmm_bus *b)
{
	b->bus.dev_match_key = dmm_dev_match_key;
	b->bus.drv_match_keys = dmm_drv_match_keys;
}

static int dmm_bus_uevent(const struct dmc_device *dev,
			  struct dmc_uevent_env *env)
{
	struct dmm_bus *b = to_dmm_bus(dev->bus);

	if (!b->uevent_var)
		return 0;
	return dmc_add_uevent_var(env, "DMM_BUS=%s", b->uevent_var);
}

static int dmm_class_uevent(const struct dmc_device *dev,
			    struct dmc_uevent_env *env)
{
	struct dmm_class *c = to_dmm_class(dev->class);

	if (!c->uevent_var)
		return 0;
	return dmc_add_uevent_var(env, "DMM_CLASS=%s", c->uevent_var);
}

static int dmm_probe(struct dmc_device *dev)
{
	struct dmm_dev *t = dmm_t(dev);
	struct dmm_drv *r = NULL;
	int ret;

	if (!t)
		return -ENODEV;
	if (dev->driver)
		r = to_dmm_drv(dev->driver);
	t->driver_in_probe = dev->driver;
	if (!dmm_dev_locked(dev))
		t->lock_in_probe = false;
	atomic_inc(&t->probes);
	if (r)
		atomic_inc(&r->probes);
	dmm_log(t->ctx, DMM_LOG_PROBE, "probe:%s:%s", t->short_name,
		r ? r->short_name : "?");
	if (t->probe_sleep_ms)
		msleep(t->probe_sleep_ms);

	if (t->wait_dev && !READ_ONCE(t->wait_dev->bound)) {
		t->last_defer_ret = dmc_probe_defer(dev, t->wait_dev->name);
		return t->last_defer_ret;
	}
	if (t->wait_drv && !dmc_bus_find_driver(dev->bus, t->wait_drv)) {
		t->last_defer_ret = dmc_probe_defer(dev, t->wait_drv);
		return t->last_defer_ret;
	}
	if (t->defer_left > 0) {
		t->defer_left--;
		if (t->defer_msg)
			return dmc_dev_err_probe(dev, -EPROBE_DEFER, "%s\n", t->defer_msg);
		return -EPROBE_DEFER;
	}
	if (t->fail_left > 0) {
		t->fail_left--;
		return t->fail_ret;
	}
	ret = r ? r->probe_ret : 0;
	if (!ret) {
		t->bound_to = r;
		WRITE_ONCE(t->bound, true);
	}
	return ret;
}

static void dmm_remove(struct dmc_device *dev)
{
	struct dmm_dev *t = dmm_t(dev);
	struct dmm_drv *r = NULL;

	if (!t)
		return;
	if (dev->driver)
		r = to_dmm_drv(dev->driver);
	if (!dmm_dev_locked(dev))
		t->lock_in_remove = false;
	atomic_inc(&t->removes);
	if (r)
		atomic_inc(&r->removes);
	dmm_log(t->ctx, DMM_LOG_REMOVE, "remove:%s:%s", t->short_name,
		r ? r->short_name : "?");
	WRITE_ONCE(t->bound, false);
}

static int dmm_suspend(struct dmc_device *dev)
{
	struct dmm_dev *t = dmm_t(dev);

	if (!t)
		return 0;
	if (!dmm_dev_locked(dev))
		t->lock_in_pm = false;
	atomic_inc(&t->suspends);
	dmm_log(t->ctx, DMM_LOG_SUSPEND, "suspend:%s", t->short_name);
	return t->suspend_ret;
}

static int dmm_resume(struct dmc_device *dev)
{
	struct dmm_dev *t = dmm_t(dev);

	if (!t)
		return 0;
	if (!dmm_dev_locked(dev))
		t->lock_in_pm = false;
	atomic_inc(&t->resumes);
	dmm_log(t->ctx, DMM_LOG_RESUME, "resume:%s", t->short_name);
	return 0;
}

static const char * const dmm_notify_names[] = {
	[DMC_BUS_NOTIFY_ADD_DEVICE] = "add",
	[DMC_BUS_NOTIFY_DEL_DEVICE] = "del",
	[DMC_BUS_NOTIFY_BIND_DRIVER] = "bind",
	[DMC_BUS_NOTIFY_BOUND_DRIVER] = "bound",
	[DMC_BUS_NOTIFY_UNBIND_DRIVER] = "unbind",
	[DMC_BUS_NOTIFY_UNBOUND_DRIVER] = "unbound",
	[DMC_BUS_NOTIFY_DRIVER_NOT_BOUND] = "notbound",
};

static int dmm_notifier(struct notifier_block *nb, unsigned long action,
			void *data)
{
	struct dmm_bus *b = container_of(nb, struct dmm_bus, nb);
	struct dmm_dev *t = data ? dmm_t(data) : NULL;
	const char *what = "?";

	if (action < ARRAY_SIZE(dmm_notify_names) && dmm_notify_names[action])
		what = dmm_notify_names[action];
	dmm_log(b->ctx, DMM_LOG_NOTIFY, "n-%s:%s", what,
		t ? t->short_name : "?");
	return NOTIFY_DONE;
}

static int dmm_intf_add_dev(struct dmc_device *dev,
			    struct dmc_class_interface *intf)
{
	struct dmm_intf *i = container_of(intf, struct dmm_intf, intf);
	struct dmm_dev *t = dmm_t(dev);

	atomic_inc(&i->adds);
	dmm_log(i->ctx, DMM_LOG_INTF, "add_dev:%s", t ? t->short_name : "?");
	return 0;
}

static void dmm_intf_remove_dev(struct dmc_device *dev,
				struct dmc_class_interface *intf)
{
	struct dmm_intf *i = container_of(intf, struct dmm_intf, intf);
	struct dmm_dev *t = dmm_t(dev);

	atomic_inc(&i->removes);
	dmm_log(i->ctx, DMM_LOG_INTF, "remove_dev:%s",
		t ? t->short_name : "?");
}

/* ---------------------------------------------------------------------- */
/* Buses */

struct dmm_bus *dmm_bus_alloc(struct kunit *test, const char *short_name)
{
	struct dmm_ctx *ctx = dmm_ctx(test);
	struct dmm_bus *b;

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	b->ctx = ctx;
	snprintf(b->name, sizeof(b->name), "%s%u-%s", ctx->prefix, ctx->gen,
		 short_name);
	b->bus.name = b->name;
	b->bus.match = dmm_match;
	b->bus.uevent = dmm_bus_uevent;
	b->nb.notifier_call = dmm_notifier;
	list_add_tail(&b->node, &ctx->buses);
	return b;
}

int dmm_bus_register(struct kunit *test, struct dmm_bus *b)
{
	int err = dmc_bus_register(&b->bus);

	if (!err)
		b->registered = true;
	return err;
}

struct dmm_bus *dmm_bus_new(struct kunit *test, const char *short_name)
{
	struct dmm_bus *b = dmm_bus_alloc(test, short_name);

	KUNIT_ASSERT_EQ_MSG(test, dmm_bus_register(test, b), 0,
			    "register bus %s", b->name);
	return b;
}

void dmm_bus_unregister(struct kunit *test, struct dmm_bus *b)
{
	b->registered = false;
	b->nb_on = false;	/* the chain goes with the bus */
	dmc_bus_unregister(&b->bus);
}

/* Log the bus's notifications ("n-add:a" ...). */
void dmm_bus_notify_log(struct kunit *test, struct dmm_bus *b)
{
	dmm_ctx(test)->log_mask |= DMM_LOG_NOTIFY;
	KUNIT_ASSERT_EQ(test, dmc_bus_register_notifier(&b->bus, &b->nb), 0);
	b->nb_on = true;
}

void dmm_bus_notify_unlog(struct kunit *test, struct dmm_bus *b)
{
	if (b->nb_on) {
		KUNIT_EXPECT_EQ(test,
				dmc_bus_unregister_notifier(&b->bus, &b->nb), 0);
		b->nb_on = false;
	}
}

/* bus/<name>, referenced (put it), or NULL. */
struct dmc_kobject *dmm_bus_kobj(const char *name)
{
	struct dmc_kobject *root, *k;

	root = dmc_kobject_find_child(NULL, "bus");
	if (!root)
		return NULL;
	k = dmc_kobject_find_child(root, name);
	dmc_kobject_put(root);
	return k;
}

/* The refcount of bus/<name>, not counting the lookup's own reference. */
unsigned int dmm_bus_refs(struct dmm_bus *b)
{
	struct dmc_kobject *k = dmm_bus_kobj(b->name);
	unsigned int n;

	if (!k)
		return 0;
	n = dmc_kobject_refcount(k) - 1;
	dmc_kobject_put(k);
	return n;
}

/* ---------------------------------------------------------------------- */
/* Drivers */

struct dmm_drv *dmm_drv_alloc(struct kunit *test, struct dmm_bus *b,
			      const char *short_name)
{
	struct dmm_ctx *ctx = dmm_ctx(test);
	struct dmm_drv *d;

	d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d);
	d->ctx = ctx;
	d->short_name = short_name;
	snprintf(d->name, sizeof(d->name), "%s%u-%s", ctx->prefix, ctx->gen,
		 short_name);
	d->drv.name = d->name;
	d->drv.bus = b ? &b->bus : NULL;
	d->drv.probe = dmm_probe;
	d->drv.remove = dmm_remove;
	d->drv.suspend = dmm_suspend;
	d->drv.resume = dmm_resume;
	list_add_tail(&d->node, &ctx->drvs);
	return d;
}

int dmm_drv_register(struct kunit *test, struct dmm_drv *d)
{
	int err = dmc_driver_register(&d->drv);

	if (!err)
		d->registered = true;
	return err;
}

struct dmm_drv *dmm_drv_new(struct kunit *test, struct dmm_bus *b,
			    const char *short_name)
{
	struct dmm_drv *d = dmm_drv_alloc(test, b, short_name);

	KUNIT_ASSERT_EQ_MSG(test, dmm_drv_register(test, d), 0,
			    "register driver %s", d->name);
	return d;
}

void dmm_drv_unregister(struct kunit *test, struct dmm_drv *d)
{
	d->registered = false;
	dmc_driver_unregister(&d->drv);
}

/* ---------------------------------------------------------------------- */
/* Classes */

struct dmm_class *dmm_class_alloc(struct kunit *test, const char *short_name)
{
	struct dmm_ctx *ctx = dmm_ctx(test);
	struct dmm_class *c;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	c->ctx = ctx;
	snprintf(c->name, sizeof(c->name), "%s%u-%s", ctx->prefix, ctx->gen,
		 short_name);
	c->cls.name = c->name;
	c->cls.dev_uevent = dmm_class_uevent;
	list_add_tail(&c->node, &ctx->classes);
	return c;
}

int dmm_class_register(struct kunit *test, struct dmm_class *c)
{
	int err = dmc_class_register(&c->cls);

	if (!err)
		c->registered = true;
	return err;
}

struct dmm_class *dmm_class_new(struct kunit *test, const char *short_name)
{
	struct dmm_class *c = dmm_class_alloc(test, short_name);

	KUNIT_ASSERT_EQ_MSG(test, dmm_class_register(test, c), 0,
			    "register class %s", c->name);
	return c;
}

void dmm_class_unregister(struct kunit *test, struct dmm_class *c)
{
	c->registered = false;
	dmc_class_unregister(&c->cls);
}

struct dmm_intf *dmm_intf_alloc(struct kunit *test, struct dmm_class *c)
{
	struct dmm_ctx *ctx = dmm_ctx(test);
	struct dmm_intf *i;

	i = kunit_kzalloc(test, sizeof(*i), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, i);
	i->ctx = ctx;
	i->intf.class = c ? &c->cls : NULL;
	i->intf.add_dev = dmm_intf_add_dev;
	i->intf.remove_dev = dmm_intf_remove_dev;
	list_add_tail(&i->node, &ctx->intfs);
	return i;
}

int dmm_intf_register(struct kunit *test, struct dmm_intf *i)
{
	int err = dmc_class_interface_register(&i->intf);

	if (!err)
		i->registered = true;
	return err;
}

struct dmm_intf *dmm_intf_new(struct kunit *test, struct dmm_class *c)
{
	struct dmm_intf *i = dmm_intf_alloc(test, c);

	dmm_ctx(test)->log_mask |= DMM_LOG_INTF;
	KUNIT_ASSERT_EQ(test, dmm_intf_register(test, i), 0);
	return i;
}

void dmm_intf_unregister(struct kunit *test, struct dmm_intf *i)
{
	i->registered = false;
	dmc_class_interface_unregister(&i->intf);
}

/* ---------------------------------------------------------------------- */
/* Devices */

static struct dmm_dev *__dmm_dev_alloc(struct kunit *test,
				       const char *short_name, bool init)
{
	struct dmm_ctx *ctx = dmm_ctx(test);
	struct dmm_devobj *obj;
	struct dmm_dev *t;
	unsigned long flags;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	t->ctx = ctx;
	t->short_name = short_name;
	snprintf(t->name, sizeof(t->name), "%s%u-%s", ctx->prefix, ctx->gen,
		 short_name);
	t->lock_in_probe = true;
	t->lock_in_remove = true;
	t->lock_in_pm = true;
	obj->gen = ctx->gen;
	obj->t = t;

	if (init)
		dmc_device_initialize(&obj->dev);
	obj->dev.release = dmm_dev_release;
	obj->dev.init_name = t->name;
	t->dev = &obj->dev;
	t->refs = init ? 1 : 0;
	t->raw = !init;
	spin_lock_irqsave(&ctx->lock, flags);
	list_add_tail(&t->node, &ctx->devs);
	spin_unlock_irqrestore(&ctx->lock, flags);
	return t;
}

/**
 * dmm_dev_alloc() - an initialized device, not added
 * @test: the test
 * @short_name: the test's name for it
 *
 * Its release is dmm_dev_release() and its init_name the unique name; the
 * test owns one reference (dmm_dev_put() or dmm_dev_unregister()).
 */
struct dmm_dev *dmm_dev_alloc(struct kunit *test, const char *short_name)
{
	return __dmm_dev_alloc(test, short_name, true);
}

/*
 * A zeroed device with release and init_name set, not initialized: for
 * dmm_dev_register(). The exit frees it if it never was.
 */
struct dmm_dev *dmm_dev_alloc_raw(struct kunit *test, const char *short_name)
{
	return __dmm_dev_alloc(test, short_name, false);
}

/* dmc_device_register() of a raw device; the test owns a reference. */
int dmm_dev_register(struct kunit *test, struct dmm_dev *d)
{
	int err = dmc_device_register(d->dev);

	d->raw = false;
	d->refs = 1;
	if (!err)
		d->added = true;
	return err;
}

int dmm_dev_add(struct kunit *test, struct dmm_dev *d)
{
	int err = dmc_device_add(d->dev);

	if (!err)
		d->added = true;
	return err;
}

void dmm_dev_want(struct dmm_dev *d, struct dmm_drv *drv)
{
	d->want = drv ? drv->name : NULL;
}

/* A device added on bus @b (or none) under @parent (or none). */
struct dmm_dev *dmm_dev_new(struct kunit *test, const char *short_name,
			    struct dmm_bus *b, struct dmm_dev *parent,
			    struct dmm_drv *want)
{
	struct dmm_dev *d = dmm_dev_alloc(test, short_name);

	d->dev->bus = b ? &b->bus : NULL;
	d->dev->parent = parent ? parent->dev : NULL;
	dmm_dev_want(d, want);
	KUNIT_ASSERT_EQ_MSG(test, dmm_dev_add(test, d), 0, "add of %s",
			    d->name);
	return d;
}

/* A device added in class @c under @parent (or none), on no bus. */
struct dmm_dev *dmm_cdev_new(struct kunit *test, const char *short_name,
			     struct dmm_class *c, struct dmm_dev *parent)
{
	struct dmm_dev *d = dmm_dev_alloc(test, short_name);

	d->dev->class = c ? &c->cls : NULL;
	d->dev->parent = parent ? parent->dev : NULL;
	KUNIT_ASSERT_EQ_MSG(test, dmm_dev_add(test, d), 0, "add of %s",
			    d->name);
	return d;
}

void dmm_dev_del(struct dmm_dev *d)
{
	d->added = false;
	if (d->dev)
		dmc_device_del(d->dev);
}

void dmm_dev_get(struct dmm_dev *d)
{
	if (d->dev) {
		dmc_device_get(d->dev);
		d->refs++;
	}
}

void dmm_dev_put(struct dmm_dev *d)
{
	struct dmc_device *dev = d->dev;

	if (!dev || !d->refs) {
		KUNIT_FAIL(d->ctx->test, "put of %s: %s", d->name,
			   dev ? "the test holds no reference" : "released");
		return;
	}
	d->refs--;
	dmc_device_put(dev);
}

void dmm_dev_unregister(struct dmm_dev *d)
{
	struct dmc_device *dev = d->dev;

	if (!dev || !d->refs) {
		KUNIT_FAIL(d->ctx->test, "unregister of %s: %s", d->name,
			   dev ? "the test holds no reference" : "released");
		return;
	}
	d->added = false;
	d->refs--;
	dmc_device_unregister(dev);
}

static bool dmm_is_ours(struct dmc_device *dev)
{
	return dev->release == dmm_dev_release ||
	       (!dev->release && dev->type == &dmm_type) ||
	       (!dev->release && dev->class &&
		dev->class->dev_release == dmm_dev_release_class);
}

/* The running test's record of any device, or NULL if not one of its. */
struct dmm_dev *dmm_dev_of(struct kunit *test, struct dmc_device *dev)
{
	if (!dev || !dmm_is_ours(dev))
		return NULL;
	return dmm_t(dev);
}

const char *dmm_path(struct kunit *test, struct dmm_dev *d)
{
	char *path;
	const char *s;

	KUNIT_ASSERT_NOT_NULL(test, d->dev);
	path = dmc_kobject_get_path(&d->dev->kobj, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, path);
	s = dmm_str(test, "%s", path);
	kfree(path);
	return s;
}

unsigned int dmm_dev_refs(struct dmm_dev *d)
{
	return d->dev ? dmc_kobject_refcount(&d->dev->kobj) : 0;
}

void dmm_tolerate_misuse(struct kunit *test, unsigned long before)
{
	dmct_ctx(test)->misuse_expected += dmc_misuse_count() - before;
}

/* ---------------------------------------------------------------------- */
/* Setup and teardown */

static void dmm_cleanup(struct dmct_ctx *ct)
{
	struct dmm_ctx *ctx = ct->priv;
	struct kunit *test = ct->test;
	struct dmm_class *c;
	struct dmm_intf *i;
	struct dmm_bus *b;
	struct dmm_drv *r;
	struct dmm_dev *t;
	unsigned long flags;

	dmc_wait_for_device_probe();
	list_for_each_entry(i, &ctx->intfs, node)
		if (i->registered)
			dmm_intf_unregister(test, i);

	list_for_each_entry_reverse(t, &ctx->devs, node)
		if (t->added && t->dev)
			dmm_dev_del(t);
	list_for_each_entry_reverse(t, &ctx->devs, node) {
		while (t->refs && t->dev) {
			struct dmc_device *dev = t->dev;

			if (!dev->release &&
			    !(dev->type && dev->type->release) &&
			    !(dev->class && dev->class->dev_release))
				dev->release = dmm_dev_release;
			t->refs--;
			dmc_device_put(dev);
		}
	}

	list_for_each_entry(r, &ctx->drvs, node)
		if (r->registered)
			dmm_drv_unregister(test, r);
	list_for_each_entry(c, &ctx->classes, node)
		if (c->registered)
			dmm_class_unregister(test, c);
	list_for_each_entry(b, &ctx->buses, node) {
		dmm_bus_notify_unlog(test, b);
		if (b->registered)
			dmm_bus_unregister(test, b);
	}
	dmc_wait_for_device_probe();
	/* with release_delay_ms, the last puts' releases may still wait */
	dmc_kobject_flush_releases();

	list_for_each_entry(t, &ctx->devs, node) {
		if (t->raw) {
			kfree(to_devobj(t->dev));
			t->dev = NULL;
			continue;
		}
		if (t->released != 1)
			KUNIT_FAIL(test, "device %s released %u times",
				   t->name, t->released);
	}

	spin_lock_irqsave(&dmm_cur_lock, flags);
	dmm_cur = NULL;
	spin_unlock_irqrestore(&dmm_cur_lock, flags);
}

/**
 * dmm_init() - set a test up: dmct context (listening prefix "/devices/")
 *	plus the model context
 * @test: the test
 * @prefix: the suite's short name prefix, e.g. "dv"
 */
int dmm_init(struct kunit *test, const char *prefix)
{
	struct dmct_ctx *ct;
	struct dmm_ctx *ctx;
	unsigned long flags;
	int err;

	err = dmct_init(test, "/devices/");
	if (err)
		return err;
	ct = dmct_ctx(test);
	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->test = test;
	ctx->ct = ct;
	ctx->gen = atomic_inc_return(&dmm_gen_next);
	ctx->prefix = prefix;
	spin_lock_init(&ctx->lock);
	INIT_LIST_HEAD(&ctx->devs);
	INIT_LIST_HEAD(&ctx->drvs);
	INIT_LIST_HEAD(&ctx->buses);
	INIT_LIST_HEAD(&ctx->classes);
	INIT_LIST_HEAD(&ctx->intfs);
	ctx->log_mask = DMM_LOG_DEFAULT;
	ct->priv = ctx;
	ct->cleanup = dmm_cleanup;

	spin_lock_irqsave(&dmm_cur_lock, flags);
	dmm_cur = ctx;
	spin_unlock_irqrestore(&dmm_cur_lock, flags);
	return 0;
}

void dmm_exit(struct kunit *test)
{
	dmct_exit(test);
}
