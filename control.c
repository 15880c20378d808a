// SPDX-License-Identifier: GPL-2.0
/*
 * The control file's grammar: what /sys/kernel/debug/dmcore/control
 * accepts. A test, a demo or a curious user builds a model from the
 * shell, one command per write(), and watches what the core does with it.
 * The export hands each write's bytes to dmc_control_exec()
 * (control_verbs.c); nothing else calls in. It checks the write's framing
 * here (dmc_ctl_check_write()) and has the line parsed here
 * (dmc_ctl_parse()) into a struct dmc_ctl_args, driven by two tables: the
 * options, each declared once with its kind, and the verbs with the
 * arguments and options each takes. What a verb then does is in
 * control_verbs.c (buses, classes, drivers, power; running a command,
 * teardown) and control_devices.c (devices and links). No counterpart in
 * drivers/base; lib/parser.c and fs/fs_parser.c also parse options from a
 * table.
 *
 * Grammar (one command per write, ending in exactly one '\n' as echo
 * writes it; tokens are separated by one or more spaces or tabs):
 *
 *   bus add NAME [hotplug]           bus del NAME
 *   class add NAME                   class del NAME
 *   driver add NAME bus=BUS [match=GLOB] [probe=ok|fail:ERRNO|defer:WAITS_FOR]
 *              [delay_ms=N] [async] [suspend=ok|fail:ERRNO]
 *   driver del NAME
 *   device add NAME [bus=BUS] [parent=PATH] [class=CLASS] [attr=KEY=VALUE]...
 *   device del PATH
 *   device rename PATH NAME
 *   device move PATH PARENT [order=none|dev-after-parent|parent-before-dev|dev-last]
 *   device override PATH DRIVER|-   device online PATH   device offline PATH
 *   link add SUPPLIER CONSUMER [flags=FLAG[,FLAG]...]
 *   link del SUPPLIER CONSUMER
 *   suspend                          resume
 *   settle
 *   runtime get|get-sync|put|put-sync|put-autosuspend PATH
 *   runtime enable|disable|allow|forbid PATH
 *   runtime autosuspend PATH delay_ms=N
 *
 * Tokens:
 *   NAME, KEY  1..255 bytes (DMC_NAME_MAX), no '/', no '=', not "." or "..".
 *              No token may hold a control character (< 0x20, 0x7f).
 *   BUS        a bus made by "bus add".
 *   CLASS      a class made by "class add". A module's bus or class is
 *              refused (-EPERM): its callbacks (match, uevent, probe,
 *              class interfaces) may take any device or driver on it for
 *              one of their own types (container_of()), which control's
 *              are not.
 *   PATH       a device's DEVPATH, "/devices/a/b"; the leading '/' may be
 *              left out. Any registered device, made by control or not,
 *              but not a shadow of the bridge as a parent or in a link.
 *   PARENT     a PATH, or "-" for the top level.
 *   GLOB       a glob_match() pattern (linux/glob.h) for device names,
 *              1..255 bytes; default "*".
 *   ERRNO      1..4095, but none of the kernel-internal 512..529, which
 *              must never reach userspace; the callback returns -ERRNO.
 *              probe=fail:517 is allowed: the probe returns -EPROBE_DEFER
 *              (an unnamed deferral), which the core handles.
 *   WAITS_FOR  a device or driver name, 1..255 bytes, no '/'.
 *   N          delay_ms: 0..10000, decimal.
 *   VALUE      0..255 bytes; may hold '=' but no space or tab.
 *
 * What the commands do:
 *   bus add    registers a bus whose match applies each control driver's
 *              match= glob to the device's name (a module's driver put on
 *              it matches the module's devices there, never control's).
 *              hotplug gives it online and offline callbacks (that always
 *              succeed), so its devices have an "online" file and "device
 *              online|offline" takes them offline and back.
 *   class add  registers a class.
 *   driver add registers a driver on BUS. Its probe counts its calls,
 *              sleeps delay_ms, then succeeds (probe=ok), returns -ERRNO
 *              (fail:), or succeeds only if WAITS_FOR is available (a
 *              bound device of that name on any control bus, or a driver
 *              of that name on the device's bus) and else returns
 *              dmc_probe_defer(dev, WAITS_FOR). async makes it a
 *              DMC_PROBE_PREFER_ASYNCHRONOUS driver. Its suspend returns
 *              0 or -ERRNO;
 *              its resume returns 0.
 *   device add makes a device: under PATH if parent= is given, else under
 *              devices/virtual/CLASS for a class device without bus, else
 *              under /devices. Each attr=KEY=VALUE (at most 16) becomes a
 *              file KEY (0644) of the device: reading gives VALUE and a
 *              newline, writing replaces it (one trailing newline is
 *              dropped; more than 255 bytes is -E2BIG, a control character
 *              -EINVAL). KEY may not be uevent, power, driver or subsystem,
 *              which the core uses.
 *   device del unregisters a device made by control (its children go too).
 *   device rename renames a device made by control (dmc_device_rename():
 *              its directory, its bus's, class's and driver's links follow;
 *              a "move" event with DEVPATH_OLD).
 *   device move gives a device made by control a new parent
 *              (dmc_device_move(), with its children; default order
 *              dev-after-parent; a "move" event with DEVPATH_OLD).
 *   device override sets the device's driver_override to DRIVER (a NAME;
 *              the driver need not exist), or clears it for "-"
 *              (dmc_device_set_driver_override()); any registered device
 *              but a shadow of the bridge. Nothing is unbound or probed:
 *              write the bus's drivers_probe (or a driver's bind) next.
 *   device online, device offline: dmc_device_online() or
 *              dmc_device_offline() under the device hotplug lock; any
 *              registered device but a shadow of the bridge; a device
 *              already in that state is left so (0, as the online file).
 *              -EOPNOTSUPP if its bus has no online/offline callbacks,
 *              -EBUSY when taking offline a device with an online child.
 *   link add   makes CONSUMER depend on SUPPLIER (dmc_device_link_add()),
 *              with the flags named: stateless, autoremove-consumer,
 *              autoremove-supplier, autoprobe-consumer, pm-runtime,
 *              rpm-active, sync-state-only (DMC_DL_FLAG_*); a combination
 *              the core refuses is -EINVAL. A link that exists gets the
 *              flags merged, as Linux (a stateless add: one more reference).
 *              Its state and flags: a line of the tree's root file
 *              device_links (supplier, consumer, state, flags).
 *   link del   drops a reference on a link made by "link add" (deletes it
 *              with its last).
 *   suspend    dmc_suspend_all(); the failing device is logged.
 *   resume     dmc_resume_all().
 *   settle     dmc_bridge_settle(): returns when the real-event bridge has
 *              applied every real event it has seen (udevadm settle's
 *              counterpart for the shadow buses).
 *   runtime    runtime PM of a device control made (runtime.c): get
 *              (dmc_pm_runtime_get(): a reference and a queued resume),
 *              get-sync (dmc_pm_runtime_resume_and_get()), put, put-sync,
 *              put-autosuspend, enable, disable, allow and forbid (as
 *              power/control "auto" and "on"), autosuspend (use it, with
 *              a delay of N ms). A get that fails (-EACCES while runtime
 *              PM is disabled) keeps no reference; a put below zero is
 *              -EINVAL ("usage count underflow"), an enable of an enabled
 *              device -EINVAL; another device is -EPERM.
 *
 * Names are unique among the buses, among the classes, among the drivers
 * and among the devices control made (a driver or device name once,
 * whatever its bus or parent), so "driver del NAME" needs no bus.
 *
 * Errors. A failed command changes nothing and logs one rate-limited line
 * ("dmcore: control: ...") quoting the offending token; the write fails
 * with:
 *   E2BIG         the write is longer than PAGE_SIZE; more than 16 attr=;
 *                 a VALUE longer than 255 bytes
 *   EINVAL        no trailing newline (a command split across writes);
 *                 more than one line; an empty command; a control
 *                 character; an unknown verb, action or option; a missing
 *                 or extra argument; a duplicate option or attribute; a bad
 *                 name, path, number (delay_ms 0..10000) or ERRNO (1..4095,
 *                 not 512..529 but probe=fail:517);
 *                 a link to the device itself or one closing a cycle;
 *                 an unknown or repeated link flag, or flags the core
 *                 refuses (dmc_device_link_add())
 *   ENAMETOOLONG  a NAME, KEY, GLOB, WAITS_FOR or path component longer
 *                 than 255 bytes
 *   ENOENT        an unknown bus, class, driver or device (a PATH that is
 *                 not a registered device); "link del" of no link
 *   EEXIST        the name is taken: by an object control made, or the core
 *                 refuses it (a bus or class of that name, a device of
 *                 that name under the parent, on the bus or in the class,
 *                 a driver of that name on the bus: the core's -EBUSY for
 *                 that is reported as -EEXIST); a reserved
 *                 attribute name; a name the model reserves under the
 *                 parent (an attribute, group or link of it: uevent,
 *                 power, driver, subsystem, an attr= key)
 *   EPERM         deleting a bus, class, driver, device or link that
 *                 control did not make; bus= or class= naming a module's
 *                 bus or class; parent= or a link naming a shadow or glue
 *                 device of the bridge, or a device at /devices/NAME
 *                 where the bridge mirrors real devices (only the real
 *                 kernel changes those)
 *   EBUSY         "bus del" or "class del" while control devices or
 *                 drivers still use it: delete those first; a driver,
 *                 bus or class another command is adding or deleting;
 *                 "device offline" of a device with an online child
 *   EOPNOTSUPP    "device online|offline" of a device whose bus cannot
 *   ENODEV        control is not set up yet or torn down (module load or
 *                 unload in progress)
 *   EINTR         a signal came while waiting for another command
 *   ENOMEM        out of memory
 *   other         "suspend": the failing driver's error (suspend=fail:5 is
 *                 -EIO); "resume": the first resume error
 *
 * Lifetime. Every object made here is a real dmcore object, allocated
 * here with a real release (a device's attributes live in the same
 * allocation), kept on control's lists and freed only here or by its
 * release. The core may delete a control device behind control's back,
 * with its parent (which may be a module's device): a tree listener
 * (dmc_ctl_kobj_removed()) then drops control's reference at once, so
 * the device is released as soon as the core is done with it and never
 * keeps a module's parent device alive past its module. A link is
 * recorded by its two devices, only compared, never dereferenced, and the
 * record is cleared when either device leaves the tree.
 *
 * Locking. dmc_control_mutex guards control's lists and is held by one
 * command at a time, but never across a core call that runs a callback
 * (probe, remove, suspend, resume, a class interface, the bridge's work
 * waited for by settle): around those the command drops it, with its
 * object marked (a driver or device being added or deleted, a bus or
 * class being deleted) so that other commands see it taken and get
 * -EBUSY instead of waiting. dmc_ctl_active counts commands under way;
 * dmc_control_exit() waits for them. The core never calls into control,
 * and control's callbacks (match, probe, suspend, resume, attribute show
 * and store, the tree listener) never take the mutex. Leaves, under it
 * or under core locks: dmc_ctl_buses_lock (mutex) guards the list of
 * control buses that a probe's WAITS_FOR lookup walks; dmc_ctl_lock
 * (spinlock) guards the device list and the link records, which the
 * tree listener changes under dmc_tree_mutex; a per-device spinlock
 * guards attribute values.
 */

#define pr_fmt(fmt) "dmcore: control: " fmt

#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/stddef.h>
#include <linux/string.h>

#include "base.h"
#include "clients.h"
#include "control.h"

#define DMC_CTL_DELAY_MAX	10000	/* ms */
#define DMC_CTL_ERRNO_MAX	4095
#define DMC_CTL_ERRNO_KERNEL_MIN 512	/* ERESTARTSYS */
#define DMC_CTL_ERRNO_KERNEL_MAX 529	/* the last of include/linux/errno.h */
#define DMC_CTL_LABEL_MAX	32	/* "probe=defer:", an option in the log */

/* ---- the tables ---------------------------------------------------------- */

/* What an option's value is, how it is checked, where it goes. */
enum dmc_ctl_kind {
	DMC_CTL_FLAG,		/* a bare word, no value */
	DMC_CTL_NAME,		/* a name, '=' allowed: char * */
	DMC_CTL_PATH,		/* a device PATH, resolved by the verb: char * */
	DMC_CTL_NUMBER,		/* decimal, 0..max: unsigned int */
	DMC_CTL_OUTCOME,	/* ok|fail:ERRNO, or defer:NAME: dmc_ctl_outcome */
	DMC_CTL_KEYVAL,		/* KEY=VALUE, an attribute: dmc_ctl_attrs */
	DMC_CTL_LINK_FLAGS,	/* FLAG[,FLAG]...: u32, DMC_DL_FLAG_* */
};

/* An option: "NAME=VALUE", or a bare NAME (a flag). */
struct dmc_ctl_opt {
	const char *name;
	enum dmc_ctl_kind kind;
	unsigned int bit;	/* DMC_CTL_OPT_*, in dmc_ctl_args.seen */
	bool repeats;		/* may be given more than once */
	bool defers;		/* OUTCOME: defer:NAME and fail:517 too */
	unsigned int max;	/* NUMBER: the largest value */
	const char *meta;	/* its value's name, when a verb needs it */
	size_t offset;		/* of its value in struct dmc_ctl_args */
};

#define DMC_CTL_AT(field)	offsetof(struct dmc_ctl_args, field)

/* Every option, once; a verb takes those of its dmc_ctl_verb.opts. */
static const struct dmc_ctl_opt dmc_ctl_opts[] = {
	{
		.name = "bus", .kind = DMC_CTL_NAME, .bit = DMC_CTL_OPT_BUS,
		.meta = "BUS", .offset = DMC_CTL_AT(bus),
	}, {
		.name = "match", .kind = DMC_CTL_NAME, .bit = DMC_CTL_OPT_MATCH,
		.meta = "GLOB", .offset = DMC_CTL_AT(match),
	}, {
		.name = "probe", .kind = DMC_CTL_OUTCOME,
		.bit = DMC_CTL_OPT_PROBE, .defers = true,
		.offset = DMC_CTL_AT(probe),
	}, {
		.name = "delay_ms", .kind = DMC_CTL_NUMBER,
		.bit = DMC_CTL_OPT_DELAY, .max = DMC_CTL_DELAY_MAX,
		.meta = "N", .offset = DMC_CTL_AT(delay_ms),
	}, {
		.name = "async", .kind = DMC_CTL_FLAG, .bit = DMC_CTL_OPT_ASYNC,
	}, {
		.name = "suspend", .kind = DMC_CTL_OUTCOME,
		.bit = DMC_CTL_OPT_SUSPEND, .offset = DMC_CTL_AT(suspend),
	}, {
		.name = "parent", .kind = DMC_CTL_PATH,
		.bit = DMC_CTL_OPT_PARENT, .meta = "PATH",
		.offset = DMC_CTL_AT(parent),
	}, {
		.name = "class", .kind = DMC_CTL_NAME, .bit = DMC_CTL_OPT_CLASS,
		.meta = "CLASS", .offset = DMC_CTL_AT(class),
	}, {
		.name = "attr", .kind = DMC_CTL_KEYVAL, .bit = DMC_CTL_OPT_ATTR,
		.repeats = true, .meta = "KEY=VALUE",
		.offset = DMC_CTL_AT(attrs),
	}, {
		.name = "order", .kind = DMC_CTL_NAME, .bit = DMC_CTL_OPT_ORDER,
		.meta = "ORDER", .offset = DMC_CTL_AT(order),
	}, {
		.name = "hotplug", .kind = DMC_CTL_FLAG, .bit = DMC_CTL_OPT_HOTPLUG,
	}, {
		.name = "flags", .kind = DMC_CTL_LINK_FLAGS,
		.bit = DMC_CTL_OPT_LINK_FLAGS, .meta = "FLAG,...",
		.offset = DMC_CTL_AT(link_flags),
	},
};

/*
 * A verb: "OBJECT ACTION" or a single word, its positional arguments (all
 * NAMEs, checked here, or all PATHs, which the verb resolves), then its
 * options, or nothing at all when it takes none.
 */
struct dmc_ctl_verb {
	const char *cmd;		/* its words, and its name in the log */
	enum dmc_ctl_cmd id;
	unsigned int nargs;		/* positional arguments */
	enum dmc_ctl_kind arg_kind;	/* DMC_CTL_NAME or DMC_CTL_PATH */
	bool last_is_name;		/* but the last one is a NAME */
	const char *missing;		/* logged when one is missing */
	unsigned int opts;		/* DMC_CTL_OPT_* it takes */
	unsigned int required;		/* of @opts, those it needs */
};

#define DMC_CTL_VERB(_cmd, _id, _nargs, _kind, _missing, _opts, _required) \
	{								\
		.cmd = _cmd, .id = _id, .nargs = _nargs,		\
		.arg_kind = _kind, .missing = _missing,			\
		.opts = _opts, .required = _required,			\
	}
/* "OBJECT add|del NAME" and nothing more. */
#define DMC_CTL_NAME_VERB(_cmd, _id)					\
	DMC_CTL_VERB(_cmd, _id, 1, DMC_CTL_NAME, "missing NAME", 0, 0)
/* "OBJECT ACTION PATH" and nothing more. */
#define DMC_CTL_PATH_VERB(_cmd, _id)					\
	DMC_CTL_VERB(_cmd, _id, 1, DMC_CTL_PATH, "missing path", 0, 0)

/* A word alone. */
#define DMC_CTL_WORD_VERB(_cmd, _id)					\
	DMC_CTL_VERB(_cmd, _id, 0, DMC_CTL_NAME, NULL, 0, 0)

static const struct dmc_ctl_verb dmc_ctl_verbs[] = {
	DMC_CTL_VERB("bus add", DMC_CTL_BUS_ADD, 1, DMC_CTL_NAME, "missing NAME",
		     DMC_CTL_OPT_HOTPLUG, 0),
	DMC_CTL_NAME_VERB("bus del", DMC_CTL_BUS_DEL),
	DMC_CTL_NAME_VERB("class add", DMC_CTL_CLASS_ADD),
	DMC_CTL_NAME_VERB("class del", DMC_CTL_CLASS_DEL),
	DMC_CTL_VERB("driver add", DMC_CTL_DRIVER_ADD, 1, DMC_CTL_NAME,
		     "missing NAME",
		     DMC_CTL_OPT_BUS | DMC_CTL_OPT_MATCH | DMC_CTL_OPT_PROBE |
		     DMC_CTL_OPT_DELAY | DMC_CTL_OPT_ASYNC | DMC_CTL_OPT_SUSPEND,
		     DMC_CTL_OPT_BUS),
	DMC_CTL_NAME_VERB("driver del", DMC_CTL_DRIVER_DEL),
	DMC_CTL_VERB("device add", DMC_CTL_DEVICE_ADD, 1, DMC_CTL_NAME,
		     "missing NAME",
		     DMC_CTL_OPT_BUS | DMC_CTL_OPT_PARENT | DMC_CTL_OPT_CLASS |
		     DMC_CTL_OPT_ATTR, 0),
	DMC_CTL_VERB("device del", DMC_CTL_DEVICE_DEL, 1, DMC_CTL_PATH,
		     "missing path", 0, 0),
	{
		.cmd = "device rename", .id = DMC_CTL_DEVICE_RENAME, .nargs = 2,
		.arg_kind = DMC_CTL_PATH, .last_is_name = true,
		.missing = "needs PATH and NAME",
	},
	DMC_CTL_VERB("device move", DMC_CTL_DEVICE_MOVE, 2, DMC_CTL_PATH,
		     "needs PATH and PARENT (a path or -)", DMC_CTL_OPT_ORDER, 0),
	DMC_CTL_VERB("device override", DMC_CTL_DEVICE_OVERRIDE, 2, DMC_CTL_PATH,
		     "needs PATH and DRIVER (or - to clear)", 0, 0),
	DMC_CTL_VERB("device online", DMC_CTL_DEVICE_ONLINE, 1, DMC_CTL_PATH,
		     "missing path", 0, 0),
	DMC_CTL_VERB("device offline", DMC_CTL_DEVICE_OFFLINE, 1, DMC_CTL_PATH,
		     "missing path", 0, 0),
	DMC_CTL_VERB("link add", DMC_CTL_LINK_ADD, 2, DMC_CTL_PATH,
		     "needs SUPPLIER and CONSUMER", DMC_CTL_OPT_LINK_FLAGS, 0),
	DMC_CTL_VERB("link del", DMC_CTL_LINK_DEL, 2, DMC_CTL_PATH,
		     "needs SUPPLIER and CONSUMER", 0, 0),
	DMC_CTL_WORD_VERB("suspend", DMC_CTL_SUSPEND),
	DMC_CTL_WORD_VERB("resume", DMC_CTL_RESUME),
	DMC_CTL_WORD_VERB("settle", DMC_CTL_SETTLE),
	DMC_CTL_PATH_VERB("runtime get", DMC_CTL_RUNTIME_GET),
	DMC_CTL_PATH_VERB("runtime get-sync", DMC_CTL_RUNTIME_GET_SYNC),
	DMC_CTL_PATH_VERB("runtime put", DMC_CTL_RUNTIME_PUT),
	DMC_CTL_PATH_VERB("runtime put-sync", DMC_CTL_RUNTIME_PUT_SYNC),
	DMC_CTL_PATH_VERB("runtime put-autosuspend", DMC_CTL_RUNTIME_PUT_AUTOSUSPEND),
	DMC_CTL_PATH_VERB("runtime enable", DMC_CTL_RUNTIME_ENABLE),
	DMC_CTL_PATH_VERB("runtime disable", DMC_CTL_RUNTIME_DISABLE),
	DMC_CTL_PATH_VERB("runtime allow", DMC_CTL_RUNTIME_ALLOW),
	DMC_CTL_PATH_VERB("runtime forbid", DMC_CTL_RUNTIME_FORBID),
	DMC_CTL_VERB("runtime autosuspend", DMC_CTL_RUNTIME_AUTOSUSPEND, 1,
		     DMC_CTL_PATH, "missing path", DMC_CTL_OPT_DELAY,
		     DMC_CTL_OPT_DELAY),
};

/* ---- tokens -------------------------------------------------------------- */

/* The next token of the command, NUL-terminated in place, or NULL. */
static char *dmc_ctl_next(char **pos)
{
	char *s = *pos, *e;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s) {
		*pos = s;
		return NULL;
	}
	for (e = s; *e && *e != ' ' && *e != '\t'; e++)
		;
	if (*e)
		*e++ = '\0';
	*pos = e;
	return s;
}

/* Nothing may follow the last argument of @cmd. */
static int dmc_ctl_no_more(char **pos, const char *cmd)
{
	char *tok = dmc_ctl_next(pos);

	if (!tok)
		return 0;
	pr_err_ratelimited("%s: extra argument '%.*s'\n", cmd, dmc_ctl_qlen(tok),
			   tok);
	return -EINVAL;
}

/*
 * Check a name: 1..DMC_NAME_MAX bytes, no '/', not "." or ".."; no '='
 * unless @eq_ok (names of objects not made here may hold one).
 */
int dmc_ctl_check_name(const char *what, const char *name, bool eq_ok)
{
	size_t len = strlen(name);

	if (!len) {
		pr_err_ratelimited("%s: empty name\n", what);
		return -EINVAL;
	}
	if (len > DMC_NAME_MAX) {
		pr_err_ratelimited("%s: name '%.*s...' is %zu bytes, more than %d\n",
				   what, dmc_ctl_qlen(name), name, len,
				   DMC_NAME_MAX);
		return -ENAMETOOLONG;
	}
	if (strchr(name, '/') || (!eq_ok && strchr(name, '=')) ||
	    !strcmp(name, ".") || !strcmp(name, "..")) {
		pr_err_ratelimited("%s: bad name '%.*s' (no '/'%s, not . or ..)\n",
				   what, dmc_ctl_qlen(name), name,
				   eq_ok ? "" : " or '='");
		return -EINVAL;
	}
	return 0;
}

/*
 * ERRNO of "fail:ERRNO": 1..4095, decimal, but none of the kernel's
 * internal errnos (512..529: ERESTARTSYS, EPROBE_DEFER, ENOTSUPP...),
 * which must never reach userspace, except EPROBE_DEFER for a probe
 * (@defer_ok), which the core turns into a deferral.
 */
static int dmc_ctl_parse_errno(const char *opt, const char *s, int *err,
			       bool defer_ok)
{
	unsigned int e;

	if (kstrtouint(s, 10, &e) || !e || e > DMC_CTL_ERRNO_MAX) {
		pr_err_ratelimited("%s=fail: bad errno '%.*s' (1..%d)\n",
				   opt, dmc_ctl_qlen(s), s, DMC_CTL_ERRNO_MAX);
		return -EINVAL;
	}
	if (e >= DMC_CTL_ERRNO_KERNEL_MIN && e <= DMC_CTL_ERRNO_KERNEL_MAX &&
	    !(defer_ok && e == EPROBE_DEFER)) {
		pr_err_ratelimited("%s=fail: errno %u is kernel-internal (%d..%d%s)\n",
				   opt, e, DMC_CTL_ERRNO_KERNEL_MIN,
				   DMC_CTL_ERRNO_KERNEL_MAX,
				   defer_ok ? ", but 517 defers" : "");
		return -EINVAL;
	}
	*err = -(int)e;
	return 0;
}

/* Split "key=value" at the first '='; false if there is none. */
static bool dmc_ctl_split(char *tok, char **val)
{
	char *eq = strchr(tok, '=');

	if (!eq)
		return false;
	*eq = '\0';
	*val = eq + 1;
	return true;
}

/* ---- option values, by kind ---------------------------------------------- */

static int dmc_ctl_parse_number(const char *cmd, const struct dmc_ctl_opt *opt,
				const char *v, unsigned int *n)
{
	if (kstrtouint(v, 10, n) || *n > opt->max) {
		pr_err_ratelimited("%s: bad %s '%.*s' (0..%u)\n", cmd, opt->name,
				   dmc_ctl_qlen(v), v, opt->max);
		return -EINVAL;
	}
	return 0;
}

/* "ok", "fail:ERRNO", or "defer:WAITS_FOR" if @opt defers. */
static int dmc_ctl_parse_outcome(const char *cmd, const struct dmc_ctl_opt *opt,
				 const char *v, struct dmc_ctl_outcome *out)
{
	char what[DMC_CTL_LABEL_MAX];
	size_t n;
	int err;

	if (!strcmp(v, "ok")) {
		out->mode = DMC_CTL_PROBE_OK;
		return 0;
	}
	n = str_has_prefix(v, "fail:");
	if (n) {
		out->mode = DMC_CTL_PROBE_FAIL;
		return dmc_ctl_parse_errno(opt->name, v + n, &out->err,
					   opt->defers);
	}
	n = str_has_prefix(v, "defer:");
	if (n && opt->defers) {
		snprintf(what, sizeof(what), "%s=defer:", opt->name);
		err = dmc_ctl_check_name(what, v + n, true);
		if (err)
			return err;
		out->mode = DMC_CTL_PROBE_DEFER;
		out->waits_for = v + n;
		return 0;
	}
	pr_err_ratelimited("%s: bad %s= value '%.*s' (ok, fail:ERRNO%s)\n",
			   cmd, opt->name, dmc_ctl_qlen(v), v,
			   opt->defers ? ", defer:NAME" : "");
	return -EINVAL;
}

/* Names the core gives files and links of every device. */
static const char * const dmc_ctl_reserved_attrs[] = {
	"uevent", "power", "driver", "subsystem", "driver_override", "online",
};

/* "attr=KEY=VALUE": @kv is the part after "attr=". */
static int dmc_ctl_parse_keyval(const char *cmd, const struct dmc_ctl_opt *opt,
				char *kv, struct dmc_ctl_attrs *attrs)
{
	char what[DMC_CTL_LABEL_MAX];
	unsigned int i;
	char *value;
	int err;

	if (attrs->n == DMC_CTL_MAX_ATTRS) {
		pr_err_ratelimited("%s: more than %d %s= ('%.*s')\n", cmd,
				   DMC_CTL_MAX_ATTRS, opt->name,
				   dmc_ctl_qlen(kv), kv);
		return -E2BIG;
	}
	if (!dmc_ctl_split(kv, &value)) {
		pr_err_ratelimited("%s: %s='%.*s' is not KEY=VALUE\n", cmd,
				   opt->name, dmc_ctl_qlen(kv), kv);
		return -EINVAL;
	}
	snprintf(what, sizeof(what), "%s= KEY", opt->name);
	err = dmc_ctl_check_name(what, kv, false);
	if (err)
		return err;
	if (strlen(value) > DMC_CTL_VALUE_MAX) {
		pr_err_ratelimited("%s: value of attribute '%s' is %zu bytes, more than %d\n",
				   cmd, kv, strlen(value), DMC_CTL_VALUE_MAX);
		return -E2BIG;
	}
	for (i = 0; i < ARRAY_SIZE(dmc_ctl_reserved_attrs); i++) {
		if (!strcmp(kv, dmc_ctl_reserved_attrs[i])) {
			pr_err_ratelimited("%s: attribute name '%s' is the core's\n",
					   cmd, kv);
			return -EEXIST;
		}
	}
	for (i = 0; i < attrs->n; i++) {
		if (!strcmp(kv, attrs->keys[i])) {
			pr_err_ratelimited("%s: duplicate attribute '%s'\n", cmd, kv);
			return -EINVAL;
		}
	}
	attrs->keys[attrs->n] = kv;
	attrs->values[attrs->n] = value;
	attrs->n++;
	return 0;
}

/* link add's flags=, by name; DMC_DL_FLAG_* */
static const struct {
	const char *name;
	u32 flag;
} dmc_ctl_link_flag_names[] = {
	{ "stateless", DMC_DL_FLAG_STATELESS },
	{ "autoremove-consumer", DMC_DL_FLAG_AUTOREMOVE_CONSUMER },
	{ "pm-runtime", DMC_DL_FLAG_PM_RUNTIME },
	{ "rpm-active", DMC_DL_FLAG_RPM_ACTIVE },
	{ "autoremove-supplier", DMC_DL_FLAG_AUTOREMOVE_SUPPLIER },
	{ "autoprobe-consumer", DMC_DL_FLAG_AUTOPROBE_CONSUMER },
	{ "sync-state-only", DMC_DL_FLAG_SYNC_STATE_ONLY },
};

/*
 * "flags=FLAG[,FLAG]...": each a name above, once. Which combinations
 * are valid is the core's to say (dmc_device_link_add()).
 */
static int dmc_ctl_parse_link_flags(const char *cmd, char *v, u32 *flags)
{
	char *f;
	size_t i;

	*flags = 0;
	while ((f = strsep(&v, ","))) {
		for (i = 0; i < ARRAY_SIZE(dmc_ctl_link_flag_names); i++)
			if (!strcmp(f, dmc_ctl_link_flag_names[i].name))
				break;
		if (i == ARRAY_SIZE(dmc_ctl_link_flag_names)) {
			pr_err_ratelimited("%s: flags=: unknown flag '%s'\n", cmd, f);
			return -EINVAL;
		}
		if (*flags & dmc_ctl_link_flag_names[i].flag) {
			pr_err_ratelimited("%s: flags=: '%s' given twice\n", cmd, f);
			return -EINVAL;
		}
		*flags |= dmc_ctl_link_flag_names[i].flag;
	}
	return 0;
}

/* Check the value @v of @opt and store it in @a, where the table says. */
static int dmc_ctl_parse_value(const char *cmd, const struct dmc_ctl_opt *opt,
			       char *v, struct dmc_ctl_args *a)
{
	void *field = (char *)a + opt->offset;
	char what[DMC_CTL_LABEL_MAX];

	switch (opt->kind) {
	case DMC_CTL_FLAG:
		return 0;
	case DMC_CTL_NAME:
		*(char **)field = v;
		snprintf(what, sizeof(what), "%s=", opt->name);
		return dmc_ctl_check_name(what, v, true);
	case DMC_CTL_PATH:
		*(char **)field = v;
		return 0;
	case DMC_CTL_NUMBER:
		return dmc_ctl_parse_number(cmd, opt, v, field);
	case DMC_CTL_OUTCOME:
		return dmc_ctl_parse_outcome(cmd, opt, v, field);
	case DMC_CTL_KEYVAL:
		return dmc_ctl_parse_keyval(cmd, opt, v, field);
	case DMC_CTL_LINK_FLAGS:
		return dmc_ctl_parse_link_flags(cmd, v, field);
	}
	return -EINVAL;
}

/* ---- commands ------------------------------------------------------------ */

/* The verb named by the first word or two of the command. */
static const struct dmc_ctl_verb *dmc_ctl_find_verb(char **pos)
{
	const struct dmc_ctl_verb *v, *end = dmc_ctl_verbs + ARRAY_SIZE(dmc_ctl_verbs);
	char *word, *action;
	size_t n;

	word = dmc_ctl_next(pos);
	if (!word) {
		pr_err_ratelimited("empty command\n");
		return ERR_PTR(-EINVAL);
	}
	n = strlen(word);
	for (v = dmc_ctl_verbs; v < end; v++)
		if (!strncmp(v->cmd, word, n) && (!v->cmd[n] || v->cmd[n] == ' '))
			break;
	if (v == end) {
		pr_err_ratelimited("unknown command '%.*s'\n", dmc_ctl_qlen(word),
				   word);
		return ERR_PTR(-EINVAL);
	}
	if (!v->cmd[n])
		return v;	/* a word alone */
	action = dmc_ctl_next(pos);
	if (!action) {
		pr_err_ratelimited("%s: missing action (add, del, ...)\n", word);
		return ERR_PTR(-EINVAL);
	}
	for (; v < end; v++)
		if (!strncmp(v->cmd, word, n) && v->cmd[n] == ' ' &&
		    !strcmp(v->cmd + n + 1, action))
			return v;
	pr_err_ratelimited("%s: unknown action '%.*s' (add, del, ...)\n", word,
			   dmc_ctl_qlen(action), action);
	return ERR_PTR(-EINVAL);
}

/* @tok of @v is an option, "NAME=VALUE" (@val is VALUE) or a bare NAME. */
static const struct dmc_ctl_opt *dmc_ctl_find_opt(const struct dmc_ctl_verb *v,
						  const char *tok,
						  const char *val)
{
	const struct dmc_ctl_opt *opt;
	bool flag;

	for (opt = dmc_ctl_opts; opt < dmc_ctl_opts + ARRAY_SIZE(dmc_ctl_opts); opt++) {
		flag = opt->kind == DMC_CTL_FLAG;
		if ((v->opts & opt->bit) && flag == !val && !strcmp(opt->name, tok))
			return opt;
	}
	return NULL;
}

/* The options @v needs: each given (the first missing is logged). */
static int dmc_ctl_check_required(const struct dmc_ctl_verb *v,
				  const struct dmc_ctl_args *a)
{
	const struct dmc_ctl_opt *opt;

	for (opt = dmc_ctl_opts; opt < dmc_ctl_opts + ARRAY_SIZE(dmc_ctl_opts); opt++) {
		if ((v->required & opt->bit) && !(a->seen & opt->bit)) {
			pr_err_ratelimited("%s: %.*s '%s' needs %s=%s\n", v->cmd,
					   (int)strcspn(v->cmd, " "), v->cmd,
					   a->arg[0], opt->name, opt->meta);
			return -EINVAL;
		}
	}
	return 0;
}

/* The options of @v, up to the end of the command, in order. */
static int dmc_ctl_parse_opts(char **pos, const struct dmc_ctl_verb *v,
			      struct dmc_ctl_args *a)
{
	const struct dmc_ctl_opt *opt;
	char *tok, *val;
	int err = 0;

	while (!err && (tok = dmc_ctl_next(pos))) {
		val = NULL;
		dmc_ctl_split(tok, &val);	/* @tok is now the name */
		opt = dmc_ctl_find_opt(v, tok, val);
		if (!opt) {
			pr_err_ratelimited("%s: unknown option '%.*s'\n", v->cmd,
					   dmc_ctl_qlen(tok), tok);
			return -EINVAL;
		}
		if ((a->seen & opt->bit) && !opt->repeats) {
			pr_err_ratelimited("%s: duplicate option '%s'\n", v->cmd,
					   tok);
			return -EINVAL;
		}
		a->seen |= opt->bit;
		err = dmc_ctl_parse_value(v->cmd, opt, val, a);
	}
	if (!err)
		err = dmc_ctl_check_required(v, a);
	return err;
}

/* The arguments of @v: its positional ones, then options or nothing. */
static int dmc_ctl_parse_args(char **pos, const struct dmc_ctl_verb *v,
			      struct dmc_ctl_args *a)
{
	unsigned int i;
	int err;

	for (i = 0; i < v->nargs; i++) {
		a->arg[i] = dmc_ctl_next(pos);
		if (!a->arg[i]) {
			pr_err_ratelimited("%s: %s\n", v->cmd, v->missing);
			return -EINVAL;
		}
		if (v->arg_kind == DMC_CTL_NAME ||
		    (v->last_is_name && i == v->nargs - 1)) {
			err = dmc_ctl_check_name(v->cmd, a->arg[i], false);
			if (err)
				return err;
		}
	}
	if (!v->opts)
		return dmc_ctl_no_more(pos, v->cmd);
	return dmc_ctl_parse_opts(pos, v, a);
}

/**
 * dmc_ctl_parse() - parse one command
 * @line: the command, a writable NUL-terminated line without its newline;
 *	its tokens are NUL-terminated in place
 * @a: zeroed; receives the command, its arguments (pointing into @line)
 *	and the options given
 *
 * Checks the command against the grammar at the top of this file, in
 * order: the verb, its positional arguments (a NAME's syntax), then each
 * option as it comes (known to the verb, not given twice, its value), and
 * last the options the verb needs. The first fault is logged and decides
 * the errno. Nothing is looked up: what the names refer to is the verb's.
 *
 * Return: 0, or -EINVAL, -ENAMETOOLONG, -E2BIG or -EEXIST (a reserved
 * attribute name) as in the table at the top of this file.
 */
int dmc_ctl_parse(char *line, struct dmc_ctl_args *a)
{
	const struct dmc_ctl_verb *v;
	char *pos = line;

	v = dmc_ctl_find_verb(&pos);
	if (IS_ERR(v))
		return PTR_ERR(v);
	a->cmd = v->id;
	return dmc_ctl_parse_args(&pos, v, a);
}

/**
 * dmc_ctl_check_write() - check the framing of one write
 * @buf: the bytes written; need not be NUL-terminated
 * @count: how many (only @count is looked at when more than PAGE_SIZE)
 *
 * One write is exactly one line, ending in its only newline, with no
 * control character but tabs.
 *
 * Return: 0, -E2BIG (more than PAGE_SIZE) or -EINVAL.
 */
int dmc_ctl_check_write(const char *buf, size_t count)
{
	size_t i;

	if (count > PAGE_SIZE) {
		pr_err_ratelimited("write of %zu bytes, more than %lu\n", count,
				   PAGE_SIZE);
		return -E2BIG;
	}
	if (!count) {
		pr_err_ratelimited("empty command\n");
		return -EINVAL;
	}
	if (buf[count - 1] != '\n') {
		pr_err_ratelimited("no newline at the end: a command split across writes (or missing newline)\n");
		return -EINVAL;
	}
	for (i = 0; i < count - 1; i++) {
		unsigned char c = buf[i];

		if (c == '\n') {
			pr_err_ratelimited("more than one line in one write (one command per write)\n");
			return -EINVAL;
		}
		if ((c < 0x20 && c != '\t') || c == 0x7f) {
			pr_err_ratelimited("control character 0x%02x at byte %zu\n",
					   c, i);
			return -EINVAL;
		}
	}
	return 0;
}
