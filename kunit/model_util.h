/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scaffolding of the device-model suites (devices, buses, drivers,
 * deferred probe, classes, links, power, model events), on top of
 * test_util.h.
 *
 * A test gets a fake world it owns: buses whose match looks at the
 * device's "wanted driver", drivers whose probe result the test programs,
 * devices that count their releases, and one log of what the callbacks
 * saw ("probe:a:d1 remove:a:d1 ..."), in order. Names are short in the
 * test and the log ("a", "d1"); the objects get a unique global name
 * ("dv17-a") so that no two tests, even a failed one's leftovers, clash.
 *
 * Everything a test creates is recorded; the suite's exit (through the
 * dmct context's cleanup hook) waits for probing, deletes what is still
 * registered, drops the test's own references, unregisters drivers,
 * classes and buses, and fails the test for any device whose release did
 * not run exactly once.
 */
#ifndef _DMCORE_KUNIT_MODEL_UTIL_H
#define _DMCORE_KUNIT_MODEL_UTIL_H

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/notifier.h>
#include <linux/spinlock.h>
#include <dmcore/device.h>
#include "test_util.h"

#define DMM_NAME_LEN	48
#define DMM_LOG_MAX	128
#define DMM_LOG_LEN	48

/* What the log records; ctx->log_mask selects. */
#define DMM_LOG_PROBE		BIT(0)	/* "probe:<dev>:<drv>" */
#define DMM_LOG_REMOVE		BIT(1)	/* "remove:<dev>:<drv>" */
#define DMM_LOG_RELEASE		BIT(2)	/* "release:<dev>" */
#define DMM_LOG_SUSPEND		BIT(3)	/* "suspend:<dev>" */
#define DMM_LOG_RESUME		BIT(4)	/* "resume:<dev>" */
#define DMM_LOG_NOTIFY		BIT(5)	/* "n-<what>:<dev>" */
#define DMM_LOG_INTF		BIT(6)	/* "add_dev:<dev>", "remove_dev:<dev>" */
#define DMM_LOG_MATCH		BIT(7)	/* "match:<dev>:<drv>" */
#define DMM_LOG_DEFAULT		(DMM_LOG_PROBE | DMM_LOG_REMOVE)

struct dmm_ctx;
struct dmm_drv;

/**
 * struct dmm_dev - what a test knows of one of its devices
 *
 * Lives until the test's exit; the struct dmc_device itself is allocated
 * apart and freed by its release, so KASAN catches a use after release.
 *
 * @node: in ctx->devs, creation order
 * @ctx: the test's model context
 * @dev: the device; NULL once its release ran
 * @name: unique global name, e.g. "dv17-a"
 * @short_name: the test's name for it, e.g. "a", used in the log
 * @refs: references the test owns (one from dmm_dev_alloc())
 * @added: dmc_device_add() succeeded and the test did not del it
 * @raw: allocated by dmm_dev_alloc_raw() and not yet registered
 * @released: how many times the release ran
 * @release_seq: 1-based rank of the release among the test's releases
 * @release_by: which release ran: "dev", "type" or "class"
 * @want: full name of the driver the fake bus's match accepts, or NULL
 * @key: its match key on a keyed bus (dmm_bus_keyed()), or NULL for none
 * @match_ret: nonzero: what match returns for this device, for any driver
 * @wait_dev: probe defers, named after it, until it is bound by our probe
 * @wait_drv: probe defers, named after it, until the bus has this driver
 * @defer_left: probe returns a plain -EPROBE_DEFER this many more times
 * @defer_msg: and says why through dmc_dev_err_probe(), if set
 * @fail_left: probe returns @fail_ret this many more times
 * @fail_ret: see @fail_left
 * @probe_sleep_ms: probe sleeps first
 * @suspend_ret: what the driver's suspend returns
 * @last_defer_ret: what dmc_probe_defer() returned last
 * @probes: our probe calls for this device
 * @removes: our remove calls for this device
 * @suspends: driver suspend calls
 * @resumes: driver resume calls
 * @bound: our probe succeeded and no remove ran since
 * @bound_to: the driver of the last successful probe
 * @driver_in_probe: dev->driver as seen by the last probe
 * @lock_in_probe: the device lock was held during every probe so far
 * @lock_in_remove: the device lock was held during every remove so far
 * @lock_in_pm: the device lock was held during every suspend and resume
 */
struct dmm_dev {
	struct list_head node;
	struct dmm_ctx *ctx;
	struct dmc_device *dev;
	char name[DMM_NAME_LEN];
	const char *short_name;
	unsigned int refs;
	bool added;
	bool raw;
	unsigned int released;
	unsigned int release_seq;
	const char *release_by;

	const char *want;
	const char *key;
	int match_ret;
	struct dmm_dev *wait_dev;
	const char *wait_drv;
	int defer_left;
	const char *defer_msg;
	int fail_left;
	int fail_ret;
	unsigned int probe_sleep_ms;
	int suspend_ret;
	int last_defer_ret;

	atomic_t probes;
	atomic_t removes;
	atomic_t suspends;
	atomic_t resumes;
	bool bound;
	struct dmm_drv *bound_to;
	struct dmc_driver *driver_in_probe;
	bool lock_in_probe;
	bool lock_in_remove;
	bool lock_in_pm;
};

/**
 * struct dmm_drv - a test driver
 * @drv: the driver; its callbacks are the fake ones below
 * @node: in ctx->drvs
 * @ctx: the test's model context
 * @name: unique global name
 * @short_name: the test's name, used in the log
 * @registered: dmc_driver_register() succeeded and the test did not
 *	unregister it
 * @probe_ret: what probe returns once the device's own programming
 *	(waits, failures) is through
 * @match_ret: nonzero: what match returns for this driver, any device
 * @keys: its match keys on a keyed bus, NULL-terminated (none: any device)
 * @keys_null: give the keyed bus NULL instead of @keys (also: any device)
 * @probes: probe calls
 * @removes: remove calls
 */
struct dmm_drv {
	struct dmc_driver drv;
	struct list_head node;
	struct dmm_ctx *ctx;
	char name[DMM_NAME_LEN];
	const char *short_name;
	bool registered;
	int probe_ret;
	int match_ret;
	const char *keys[4];
	bool keys_null;
	atomic_t probes;
	atomic_t removes;
};

/**
 * struct dmm_bus - a fake bus
 * @bus: the bus; match accepts a device's @want driver
 * @node: in ctx->buses
 * @ctx: the test's model context
 * @name: unique global name
 * @registered: registered and not yet unregistered by the test
 * @nb: the logging notifier, see dmm_bus_notify_log()
 * @nb_on: @nb is registered
 * @uevent_var: if set, the bus adds "DMM_BUS=<it>" to device events
 * @bus_probes: calls of the bus's own probe (when installed)
 * @bus_removes: calls of the bus's own remove (when installed)
 */
struct dmm_bus {
	struct dmc_bus_type bus;
	struct list_head node;
	struct dmm_ctx *ctx;
	char name[DMM_NAME_LEN];
	bool registered;
	struct notifier_block nb;
	bool nb_on;
	const char *uevent_var;
	atomic_t bus_probes;
	atomic_t bus_removes;
};

/**
 * struct dmm_class - a test class
 * @cls: the class
 * @node: in ctx->classes
 * @ctx: the test's model context
 * @name: unique global name
 * @registered: registered and not yet unregistered by the test
 * @uevent_var: if set, the class adds "DMM_CLASS=<it>" to member events
 */
struct dmm_class {
	struct dmc_class cls;
	struct list_head node;
	struct dmm_ctx *ctx;
	char name[DMM_NAME_LEN];
	bool registered;
	const char *uevent_var;
};

/**
 * struct dmm_intf - a logging class interface
 * @intf: the interface
 * @node: in ctx->intfs
 * @ctx: the test's model context
 * @registered: registered and not yet unregistered by the test
 * @adds: add_dev calls
 * @removes: remove_dev calls
 */
struct dmm_intf {
	struct dmc_class_interface intf;
	struct list_head node;
	struct dmm_ctx *ctx;
	bool registered;
	atomic_t adds;
	atomic_t removes;
};

/**
 * struct dmm_ctx - the model part of a test's context (dmct_ctx.priv)
 * @test: the test
 * @ct: the dmct context (listener, misuse accounting)
 * @gen: unique number of this test run, in every name
 * @prefix: the suite's name prefix, e.g. "dv"
 * @lock: protects the log and the release records
 * @devs, @drvs, @buses, @classes, @intfs: what the test created
 * @nr_released: releases so far (source of release_seq)
 * @log_mask: DMM_LOG_* bits recorded
 * @log: the callback log
 * @nr_log: entries used
 * @log_lost: entries that did not fit
 * @priv: for the suite's own use
 */
struct dmm_ctx {
	struct kunit *test;
	struct dmct_ctx *ct;
	unsigned int gen;
	const char *prefix;
	spinlock_t lock;	/* the log and the release records */
	struct list_head devs;
	struct list_head drvs;
	struct list_head buses;
	struct list_head classes;
	struct list_head intfs;
	unsigned int nr_released;
	unsigned int log_mask;
	char log[DMM_LOG_MAX][DMM_LOG_LEN];
	unsigned int nr_log;
	unsigned int log_lost;
	void *priv;
};

/* The test's device type: counted release (logged "type"), DEVTYPE. */
extern const struct dmc_device_type dmm_type;

int dmm_init(struct kunit *test, const char *prefix);
void dmm_exit(struct kunit *test);

static inline struct dmm_ctx *dmm_ctx(struct kunit *test)
{
	return dmct_ctx(test)->priv;
}

/* A kunit-managed string. */
__printf(2, 3) const char *dmm_str(struct kunit *test, const char *fmt, ...);
/* The unique global name of short name @short_name in this test. */
const char *dmm_name(struct kunit *test, const char *short_name);

/* Log */
__printf(3, 4) void dmm_log(struct dmm_ctx *ctx, unsigned int kind,
			    const char *fmt, ...);
const char *dmm_log_str(struct kunit *test);
void dmm_log_clear(struct kunit *test);
int dmm_log_index(struct kunit *test, const char *entry);
unsigned int dmm_log_count(struct kunit *test, const char *entry);
#define DMM_EXPECT_LOG(test, want)					\
	do {								\
		struct kunit *__dmm_test = (test);			\
									\
		KUNIT_EXPECT_STREQ(__dmm_test, dmm_log_str(__dmm_test),	\
				   want);				\
	} while (0)

/* Events recorded by the dmct listener */
unsigned int dmm_ev_count(struct kunit *test, enum dmc_kobject_action action,
			  const char *devpath);
const char *dmm_ev_var(struct kunit *test, u64 after,
		       enum dmc_kobject_action action, const char *devpath,
		       const char *key);

/* Buses */
struct dmm_bus *dmm_bus_alloc(struct kunit *test, const char *short_name);
int dmm_bus_register(struct kunit *test, struct dmm_bus *b);
struct dmm_bus *dmm_bus_new(struct kunit *test, const char *short_name);
void dmm_bus_unregister(struct kunit *test, struct dmm_bus *b);
void dmm_bus_keyed(struct dmm_bus *b);
void dmm_bus_notify_log(struct kunit *test, struct dmm_bus *b);
void dmm_bus_notify_unlog(struct kunit *test, struct dmm_bus *b);
struct dmc_kobject *dmm_bus_kobj(const char *name);
unsigned int dmm_bus_refs(struct dmm_bus *b);

/* Drivers */
struct dmm_drv *dmm_drv_alloc(struct kunit *test, struct dmm_bus *b,
			      const char *short_name);
int dmm_drv_register(struct kunit *test, struct dmm_drv *d);
struct dmm_drv *dmm_drv_new(struct kunit *test, struct dmm_bus *b,
			    const char *short_name);
void dmm_drv_unregister(struct kunit *test, struct dmm_drv *d);

/* Classes */
struct dmm_class *dmm_class_alloc(struct kunit *test, const char *short_name);
int dmm_class_register(struct kunit *test, struct dmm_class *c);
struct dmm_class *dmm_class_new(struct kunit *test, const char *short_name);
void dmm_class_unregister(struct kunit *test, struct dmm_class *c);
struct dmm_intf *dmm_intf_alloc(struct kunit *test, struct dmm_class *c);
int dmm_intf_register(struct kunit *test, struct dmm_intf *i);
struct dmm_intf *dmm_intf_new(struct kunit *test, struct dmm_class *c);
void dmm_intf_unregister(struct kunit *test, struct dmm_intf *i);

/* Devices */
struct dmm_dev *dmm_dev_alloc(struct kunit *test, const char *short_name);
int dmm_dev_add(struct kunit *test, struct dmm_dev *d);
struct dmm_dev *dmm_dev_alloc_raw(struct kunit *test, const char *short_name);
int dmm_dev_register(struct kunit *test, struct dmm_dev *d);
struct dmm_dev *dmm_dev_new(struct kunit *test, const char *short_name,
			    struct dmm_bus *b, struct dmm_dev *parent,
			    struct dmm_drv *want);
struct dmm_dev *dmm_cdev_new(struct kunit *test, const char *short_name,
			     struct dmm_class *c, struct dmm_dev *parent);
void dmm_dev_del(struct dmm_dev *d);
void dmm_dev_get(struct dmm_dev *d);
void dmm_dev_put(struct dmm_dev *d);
void dmm_dev_unregister(struct dmm_dev *d);
void dmm_dev_want(struct dmm_dev *d, struct dmm_drv *drv);
void dmm_dev_release(struct dmc_device *dev);
void dmm_dev_release_class(struct dmc_device *dev);
struct dmm_dev *dmm_dev_of(struct kunit *test, struct dmc_device *dev);
const char *dmm_path(struct kunit *test, struct dmm_dev *d);
unsigned int dmm_dev_refs(struct dmm_dev *d);

/* Drop the reference of a lookup's result, if there was one. */
static inline void dmm_put_found(struct dmc_device *dev)
{
	if (dev)
		dmc_device_put(dev);
}

/* Tolerate misuse WARNs the contract leaves open (NULL arguments). */
void dmm_tolerate_misuse(struct kunit *test, unsigned long before);
#define DMM_TOLERATE_MISUSE(test, stmt)					\
	do {								\
		unsigned long __dmm_before = dmc_misuse_count();	\
									\
		DMCT_WARN_BEGIN();					\
		stmt;							\
		DMCT_WARN_END();					\
		dmm_tolerate_misuse(test, __dmm_before);		\
	} while (0)

#endif /* _DMCORE_KUNIT_MODEL_UTIL_H */
