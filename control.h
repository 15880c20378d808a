/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The control engine behind /sys/kernel/debug/dmcore/control: one command
 * per write makes or removes buses, classes, drivers, devices and links,
 * or suspends and resumes the model. Private to dmcore.ko.
 *
 *   control.c          the grammar: tokens, the table of verbs and their
 *                      options, parsing into struct dmc_ctl_args
 *   control_objects.c  control's buses and classes (lists, lookups by
 *                      name) and the mutex commands run under
 *   control_devices.c  control's devices and links, and their verbs
 *   control_verbs.c    running a command, teardown, and the verbs on
 *                      buses, classes, drivers and power
 *
 * Each file calls only those listed above it (and control.c).
 */
#ifndef _DMCORE_CONTROL_H
#define _DMCORE_CONTROL_H

#include <linux/bits.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/types.h>

#include <dmcore/bus.h>
#include <dmcore/class.h>

struct dmc_device;

int dmc_control_init(void);
void dmc_control_exit(void);
int dmc_control_exec(const char *buf, size_t count);

#define DMC_CTL_MAX_ATTRS	16
#define DMC_CTL_VALUE_MAX	255
#define DMC_CTL_QUOTE_MAX	64	/* bytes of a token quoted in the log */

/* Length of @s to quote in a log line ("'%.*s'"). */
static inline int dmc_ctl_qlen(const char *s)
{
	return min_t(size_t, strlen(s), DMC_CTL_QUOTE_MAX);
}

/* ---- the parsed command (control.c) ------------------------------------- */

/* The commands, one per verb of the grammar. */
enum dmc_ctl_cmd {
	DMC_CTL_BUS_ADD,
	DMC_CTL_BUS_DEL,
	DMC_CTL_CLASS_ADD,
	DMC_CTL_CLASS_DEL,
	DMC_CTL_DRIVER_ADD,
	DMC_CTL_DRIVER_DEL,
	DMC_CTL_DEVICE_ADD,
	DMC_CTL_DEVICE_DEL,
	DMC_CTL_DEVICE_RENAME,
	DMC_CTL_DEVICE_MOVE,
	DMC_CTL_DEVICE_OVERRIDE,
	DMC_CTL_DEVICE_ONLINE,
	DMC_CTL_DEVICE_OFFLINE,
	DMC_CTL_LINK_ADD,
	DMC_CTL_LINK_DEL,
	DMC_CTL_SUSPEND,
	DMC_CTL_RESUME,
	DMC_CTL_SETTLE,
	DMC_CTL_RUNTIME_GET,		/* runtime PM: control_devices.c */
	DMC_CTL_RUNTIME_GET_SYNC,
	DMC_CTL_RUNTIME_PUT,
	DMC_CTL_RUNTIME_PUT_SYNC,
	DMC_CTL_RUNTIME_PUT_AUTOSUSPEND,
	DMC_CTL_RUNTIME_ENABLE,
	DMC_CTL_RUNTIME_DISABLE,
	DMC_CTL_RUNTIME_ALLOW,
	DMC_CTL_RUNTIME_FORBID,
	DMC_CTL_RUNTIME_AUTOSUSPEND,
	DMC_CTL_NR_CMDS
};

/* The options, as bits of dmc_ctl_args.seen. */
enum {
	DMC_CTL_OPT_BUS		= BIT(0),
	DMC_CTL_OPT_MATCH	= BIT(1),
	DMC_CTL_OPT_PROBE	= BIT(2),
	DMC_CTL_OPT_DELAY	= BIT(3),
	DMC_CTL_OPT_ASYNC	= BIT(4),
	DMC_CTL_OPT_SUSPEND	= BIT(5),
	DMC_CTL_OPT_PARENT	= BIT(6),
	DMC_CTL_OPT_CLASS	= BIT(7),
	DMC_CTL_OPT_ATTR	= BIT(8),
	DMC_CTL_OPT_ORDER	= BIT(9),
	DMC_CTL_OPT_HOTPLUG	= BIT(10),
	DMC_CTL_OPT_LINK_FLAGS	= BIT(11),
};

enum dmc_ctl_probe_mode {
	DMC_CTL_PROBE_OK,
	DMC_CTL_PROBE_FAIL,
	DMC_CTL_PROBE_DEFER,
};

/* "ok", "fail:ERRNO" or "defer:WAITS_FOR" (probe= and suspend=). */
struct dmc_ctl_outcome {
	enum dmc_ctl_probe_mode mode;
	int err;			/* -ERRNO, DMC_CTL_PROBE_FAIL */
	const char *waits_for;		/* DMC_CTL_PROBE_DEFER */
};

/* The attr=KEY=VALUE options, in order. */
struct dmc_ctl_attrs {
	unsigned int n;
	const char *keys[DMC_CTL_MAX_ATTRS];
	const char *values[DMC_CTL_MAX_ATTRS];
};

/*
 * A command as parsed, its strings pointing into the command's line.
 * Options not given are zero (NULL): @seen says which were.
 */
struct dmc_ctl_args {
	enum dmc_ctl_cmd cmd;
	char *arg[2];		/* NAME; PATH; SUPPLIER, CONSUMER; PATH, NAME|PARENT */
	unsigned int seen;	/* DMC_CTL_OPT_* given */
	char *bus, *match, *parent, *class, *order;
	unsigned int delay_ms;
	struct dmc_ctl_outcome probe, suspend;
	struct dmc_ctl_attrs attrs;
	u32 link_flags;		/* link add's flags=, DMC_DL_FLAG_* */
};

int dmc_ctl_check_write(const char *buf, size_t count);
int dmc_ctl_parse(char *line, struct dmc_ctl_args *a);
int dmc_ctl_check_name(const char *what, const char *name, bool eq_ok);

/* ---- control's buses and classes, and its mutex (control_objects.c) ---- */

struct dmc_ctl_bus {
	struct dmc_bus_type bus;
	struct list_head node;		/* in dmc_ctl_buses */
	bool deleting;			/* "bus del" under way */
	char name[];
};

struct dmc_ctl_class {
	struct dmc_class cls;
	struct list_head node;		/* in dmc_ctl_classes */
	bool deleting;			/* "class del" under way */
	char name[];
};

extern struct mutex dmc_control_mutex;
extern struct list_head dmc_ctl_buses;
extern struct mutex dmc_ctl_buses_lock;
extern struct list_head dmc_ctl_classes;

struct dmc_ctl_bus *dmc_ctl_find_bus(const char *name);
struct dmc_ctl_class *dmc_ctl_find_class(const char *name);
bool dmc_ctl_class_exists(const char *name);
int dmc_ctl_lookup_bus(const char *cmd, const char *name,
		       struct dmc_bus_type **bus);
int dmc_ctl_lookup_class(const char *cmd, const char *name,
			 struct dmc_class **cls);
void dmc_ctl_unlock(void);
void dmc_ctl_relock(void);

/* ---- devices and links (control_devices.c) ------------------------------ */

bool dmc_ctl_is_ctl_device(const struct dmc_device *dev);
bool dmc_ctl_devices_use(const struct dmc_bus_type *bus,
			 const struct dmc_class *cls, char *name, size_t size);
void dmc_ctl_prune(void);
int dmc_ctl_device_add(const struct dmc_ctl_args *a);
int dmc_ctl_device_del(const struct dmc_ctl_args *a);
int dmc_ctl_device_rename(const struct dmc_ctl_args *a);
int dmc_ctl_device_move(const struct dmc_ctl_args *a);
int dmc_ctl_device_override(const struct dmc_ctl_args *a);
int dmc_ctl_device_hotplug(const struct dmc_ctl_args *a);
int dmc_ctl_link_add(const struct dmc_ctl_args *a);
int dmc_ctl_link_del(const struct dmc_ctl_args *a);
int dmc_ctl_runtime(const struct dmc_ctl_args *a);
int dmc_ctl_listen(void);
void dmc_ctl_unlisten(void);
void dmc_ctl_devices_del_all(void);
void dmc_ctl_links_forget(void);

#endif /* _DMCORE_CONTROL_H */
