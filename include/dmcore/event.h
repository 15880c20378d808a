/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmcore events: what the model tells the world when it changes.
 * Counterpart of include/linux/kobject.h's uevent part and
 * lib/kobject_uevent.c, with netlink replaced by an in-module ring (the
 * event log) and by listeners registered in the module.
 *
 * Every event carries ACTION, DEVPATH, SUBSYSTEM and SEQNUM, then the
 * sender's and the kset's KEY=VALUE variables. SEQNUMs are global and
 * strictly increasing; the log keeps the newest events and counts every
 * one it had to drop.
 */
#ifndef _DMCORE_EVENT_H
#define _DMCORE_EVENT_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/types.h>

struct dmc_kobject;
struct file;
struct poll_table_struct;

/* Bounds on the variables of one event; exceeding them is -E2BIG. */
#define DMC_UEVENT_NUM_ENVP	64	/* variables, including the four fixed */
#define DMC_UEVENT_BUFFER_SIZE	2048	/* bytes of "KEY=VALUE\0" strings */

/* Default and largest capacity of the event log, in events. */
#define DMC_EVENT_LOG_DEFAULT	4096
#define DMC_EVENT_LOG_MAX	(1024U * 1024U)

enum dmc_kobject_action {
	DMC_KOBJ_ADD,
	DMC_KOBJ_REMOVE,
	DMC_KOBJ_CHANGE,
	DMC_KOBJ_MOVE,
	DMC_KOBJ_ONLINE,
	DMC_KOBJ_OFFLINE,
	DMC_KOBJ_BIND,
	DMC_KOBJ_UNBIND,
	DMC_KOBJ_NR_ACTIONS
};

/**
 * struct dmc_uevent_env - variables of an event being built
 * @envp: pointers into @buf, one per variable
 * @envp_idx: number of variables
 * @buf: the "KEY=VALUE" strings, each NUL-terminated
 * @buflen: bytes used in @buf
 */
struct dmc_uevent_env {
	char *envp[DMC_UEVENT_NUM_ENVP];
	unsigned int envp_idx;
	char buf[DMC_UEVENT_BUFFER_SIZE];
	unsigned int buflen;
};

/**
 * struct dmc_uevent - one event as text, as a reader or listener sees it
 * @kref: dropped by dmc_uevent_put(); the log itself keeps a binary
 *	record, from which each reader gets a copy of its own
 * @seqnum: the event's SEQNUM
 * @action: what happened
 * @devpath: DEVPATH value (points into @buf)
 * @subsystem: SUBSYSTEM value (points into @buf)
 * @nvars: number of "KEY=VALUE" strings in @buf, the fixed four first:
 *	ACTION, DEVPATH, SUBSYSTEM, SEQNUM
 * @len: bytes in @buf
 * @buf: the variables, each NUL-terminated
 *
 * A struct dmc_uevent never changes once sent.
 */
struct dmc_uevent {
	struct kref kref;
	u64 seqnum;
	enum dmc_kobject_action action;
	const char *devpath;
	const char *subsystem;
	unsigned int nvars;
	unsigned int len;
	char buf[];
};

/**
 * struct dmc_event_stats - counters of the event log
 * @last_seqnum: SEQNUM of the newest event (0 before the first)
 * @sent: events sent since load
 * @dropped: events pushed out of the full log
 * @queued: events held in the log now
 * @capacity: events the log can hold
 */
struct dmc_event_stats {
	u64 last_seqnum;
	u64 sent;
	u64 dropped;
	unsigned int queued;
	unsigned int capacity;
};

/**
 * struct dmc_listener - code told of every change to the model
 * @kobj_added: @kobj entered the tree (its parent already has)
 * @kobj_removed: @kobj left the tree (its children already have)
 * @kobj_gone: after @kobj_removed, with the tree's locks released, in
 *	the task that deleted @kobj (or released it without deleting it)
 *	and before that task drops its reference: @kobj is valid, but its
 *	count may be zero (a release), so take no reference on it. May sleep
 *	and take the tree's locks: a view waits here for its own callbacks
 *	still running on @kobj (as kernfs drains a removed node's active
 *	references), which it could not do under the tree lock that such a
 *	callback may be waiting for
 * @kobj_renamed: @kobj was renamed from @old_name
 * @kobj_moved: @kobj moved from under @old_parent
 * @link_added: @kobj got a symbolic link @name to @target (a device's
 *	"driver" and "subsystem", a bus's and a class's view of a device)
 * @link_removed: @kobj's link @name went away
 * @uevent: an event was sent; called in SEQNUM order
 * @attr_changed: dmc_sysfs_notify() said attribute @attr of @kobj (in
 *	its group named @dir, NULL for an unnamed group) changed; called
 *	in the notifier's context, which may be atomic: must not sleep
 *
 * The tree and link callbacks run with the core's tree lock held, in the
 * order the changes happened, so a listener sees a parent before its
 * children and a link's directory before the link; they may sleep and
 * take references, but must not change the tree. At registration the
 * objects, then the links, already there are replayed; a link may then
 * be told twice (replayed, then announced), or withdrawn untold (its
 * removal was under way as the listener registered), never told after
 * its withdrawal. @kobj_gone runs without those locks, so it may see the tree
 * changed again; it may be called for an object deleted while the
 * listener registered (then never told of it). It runs in an SRCU read
 * section of the core's: it must not unregister a listener that has a
 * @kobj_gone (that waits for the section); and as the last put of an
 * object may come from code holding locks of its own, a view that waits
 * here must not wait for anything that needs such a lock. @uevent
 * runs with the event lock held and must not send events. @attr_changed
 * runs under RCU only, at any time, and may race with the object's
 * removal (@kobj is valid for the call). Any callback may
 * be NULL. When dmc_listener_unregister() returns, none is running.
 */
struct dmc_listener {
	void (*kobj_added)(struct dmc_listener *l, struct dmc_kobject *kobj);
	void (*kobj_removed)(struct dmc_listener *l, struct dmc_kobject *kobj);
	void (*kobj_gone)(struct dmc_listener *l, struct dmc_kobject *kobj);
	void (*kobj_renamed)(struct dmc_listener *l, struct dmc_kobject *kobj,
			     const char *old_name);
	void (*kobj_moved)(struct dmc_listener *l, struct dmc_kobject *kobj,
			   struct dmc_kobject *old_parent);
	void (*link_added)(struct dmc_listener *l, struct dmc_kobject *kobj,
			   const char *name, struct dmc_kobject *target);
	void (*link_removed)(struct dmc_listener *l, struct dmc_kobject *kobj,
			     const char *name);
	void (*uevent)(struct dmc_listener *l, const struct dmc_uevent *ev);
	void (*attr_changed)(struct dmc_listener *l, struct dmc_kobject *kobj,
			     const char *dir, const char *attr);

	/* private to the core */
	struct list_head node;
	struct list_head gone_node;	/* listeners with @kobj_gone */
	struct list_head notify_node;	/* listeners with @attr_changed */
};

const char *dmc_kobject_action_name(enum dmc_kobject_action action);
int dmc_kobject_action_parse(const char *buf, size_t count,
			     enum dmc_kobject_action *action);

__printf(2, 3) int dmc_add_uevent_var(struct dmc_uevent_env *env,
				      const char *fmt, ...);
int dmc_kobject_uevent(struct dmc_kobject *kobj,
		       enum dmc_kobject_action action);
int dmc_kobject_uevent_env(struct dmc_kobject *kobj,
			   enum dmc_kobject_action action,
			   const char * const envp_ext[]);
int dmc_kobject_synth_uevent(struct dmc_kobject *kobj,
			     enum dmc_kobject_action action);
ssize_t dmc_kobject_uevent_store(struct dmc_kobject *kobj, const char *buf,
				 size_t count);

const char *dmc_uevent_var(const struct dmc_uevent *ev, const char *key);
struct dmc_uevent *dmc_uevent_get(struct dmc_uevent *ev);
void dmc_uevent_put(struct dmc_uevent *ev);

struct dmc_uevent *dmc_event_log_next(u64 *pos, u64 *missed);
void dmc_event_log_stats(struct dmc_event_stats *stats);
int dmc_event_log_set_capacity(unsigned int capacity);

int dmc_event_log_wait(u64 pos);
__poll_t dmc_event_log_poll(struct file *file, struct poll_table_struct *wait,
			    u64 pos);
int dmc_kobject_uevent_vars(struct dmc_kobject *kobj, char *buf, size_t size);

int dmc_listener_register(struct dmc_listener *l);
void dmc_listener_unregister(struct dmc_listener *l);

#endif /* _DMCORE_EVENT_H */
