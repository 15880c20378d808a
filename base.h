/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmcore's private header.
 *
 * Nothing outside of the dmcore core (the .c files at the top of this
 * tree) should ever include this file or touch these fields, just as
 * with the private header of Linux's drivers/base/.
 *
 * Locking, outermost first. A lock may be taken while holding any lock
 * above it, never one below it. Two of them are held across callbacks
 * of drivers or interfaces; such a callback may take any lock below the
 * one it runs under, and must not take that one or any above it:
 *
 *   - dmc_pm_transition_mutex across suspend and resume callbacks;
 *   - a class's priv->mutex across its interfaces' add_dev/remove_dev.
 *
 * A third, of a client: the tree's per-open-file mutex (of->lock,
 * dmcfs.c) is held across an attribute's show called through the tree,
 * as kernfs holds of->mutex; a show must not read its own file. And the
 * tree's active references (dmcfs.c, lockdep's "dmcfs_active") are held
 * across every show and store called through it, and an object's deletion
 * waits for them to drain: no object may be deleted, or put for the last
 * time, while holding a lock that a show or store takes (lockdep reports
 * it), nor from a store that holds one: a store that may delete objects
 * (its own included) or wait for a deletion runs without it
 * (dmc_attribute.break_active: power/state, bind, unbind, drivers_probe),
 * as a kernfs store after kernfs_break_active_protection().
 *
 * dev->mutex, the device's own lock, is held across its probe, remove,
 * shutdown, suspend and resume. Around a probe or remove the core takes no
 * other lock; a callback runs under whatever its caller held (a remove
 * caused by a suspend callback under dmc_pm_transition_mutex). Control
 * lets go of dmc_control_mutex around every core call that runs a
 * callback. Tree and uevent listeners run under the mutexes named for
 * them below.
 *
 *   dmc_device_hotplug_lock (mutex, device_online.c) every
 *                               dmc_device_online() and dmc_device_offline(),
 *                               taken by their callers
 *                               (dmc_lock_device_hotplug()) before any
 *                               other lock of the core; held across the
 *                               bus's online and offline callbacks
 *   dmc_control_mutex (control_objects.c) control's lists, one command at a
 *                               time; a command lets go of it around
 *                               every core call that runs a callback
 *   dmc_pm_transition_mutex (power.c)  every power transition, of the
 *                               system (dmc_suspend_all(), dmc_resume_all())
 *                               or of one device (dmc_device_suspend(),
 *                               dmc_device_resume()), one at a time. Every
 *                               p->power_state changes under it (and under
 *                               the device lock), so a single-device call
 *                               checks its neighbours' states and makes its
 *                               own transition in one step. Held across the
 *                               suspend and resume callbacks, as Linux holds
 *                               system_transition_mutex across a system
 *                               sleep: a callback may add or delete devices
 *                               and links or register drivers and classes,
 *                               but must not start a power transition.
 *   dev->mutex       (mutex)    the device lock: dev->driver, the device's
 *                               p->power_state, and probe/remove/suspend/resume
 *                               of that device. A probe may add child
 *                               devices, so device locks nest parent over
 *                               child; lockdep is told not to validate them,
 *                               as Linux does for struct device. One more
 *                               nesting exists: dmc_device_move() takes the
 *                               new parent's lock over the device's. A
 *                               consumer's probe takes no supplier's lock:
 *                               the sync_state() it makes due runs from the
 *                               probe worker (link_state.c). Runtime PM's
 *                               power.lock (a spinlock, runtime.c) is
 *                               innermost but for its atomics, taken inside
 *                               dmc_links_mutex and the device lock.
 *   priv->mutex      (mutex)    a class's interfaces, its glue directory;
 *                               held across its interfaces' add_dev and
 *                               remove_dev callbacks, as Linux holds the
 *                               class's subsys mutex across them, so each
 *                               interface sees exactly one add_dev and one
 *                               remove_dev per member. Each class has a
 *                               lockdep class of its own: a callback may add
 *                               or delete members of another class (nesting
 *                               that class's mutex inside), never of its
 *                               own class, and must not start a power
 *                               transition. (A device added from add_dev
 *                               is probed under this mutex, as in Linux:
 *                               its driver's probe must not add members of
 *                               this class. Device locks are outside
 *                               lockdep, so this one is the callers' to
 *                               keep.)
 *   dmc_links_mutex  (mutex, device.c) every device's suppliers/consumers
 *                               lists and the graph-search marks
 *                               p->link_gen (link.c, which also reorders
 *                               the power order under it; power.c reads
 *                               consumers under it).
 *   dmc_dpm_mutex    (mutex)    the power order and the suspended list;
 *                               dev->p->dpm_entry (power.c).
 *   dmc_deferred_mutex (mutex)  the deferred-probe lists and index,
 *                               dev->p->deferred, ->knode_waits, ->waits_for,
 *                               ->deferred_by (deferred.c).
 *   dmc_tree_mutex   (mutex, kobject_tree.c) the shape of the tree: DMC_KOBJ_IN_TREE,
 *                               kobj->children/sibling, the (parent, name)
 *                               index, the root list, and the listener list
 *                               for tree callbacks. Held across tree
 *                               listener callbacks; never across events or
 *                               any caller-supplied callback.
 *   dmc_groups_rwsem (rwsem, kobject_attr.c) the table of groups added to
 *                               objects (dmc_sysfs_create_group()): written
 *                               under dmc_tree_mutex by kobject_group.c, read
 *                               across a walk's callbacks (which must not add
 *                               or remove groups); single entries are also
 *                               found under RCU. Never held across a show,
 *                               store or is_visible(); a group's removal
 *                               drains its active references after dropping
 *                               both (lockdep map "dmc_group_active").
 *   dmc_event_mutex  (mutex, listener.c) SEQNUM assignment and the listener list for
 *                               uevent callbacks, so listeners see events
 *                               in SEQNUM order.
 *   dmc_ring_lock    (spinlock, event.c) the event log ring and its
 *                               counters.
 *   klist->lock      (spinlock) a klist's members, index and cursors
 *                               (kset members, bus devices and drivers,
 *                               class members, children, named waiters).
 *   dmc_name_lock    (rwlock, kobject_tree.c) kobj->name and kobj->parent of objects in
 *                               the tree, so a path can be built while a
 *                               rename or move runs elsewhere; the
 *                               clearing of DMC_KOBJ_IN_TREE, so an event
 *                               that saw its object in the tree under it
 *                               may use the object's subsystem kset
 *                               without a reference (event.c).
 *   dmc_live_lock, dmc_release_lock (spinlocks, kobject_debug.c) leaves:
 *                               the live kobjects (leak report), the
 *                               releases waiting for release_delay_ms.
 *   dmc_driver_p_lock (spinlock, bus.c) a leaf: drv->p's clearing
 *                               against dmc_driver_private_get() and
 *                               dmc_device_driver_private_get(); a
 *                               bus's list of drivers for walks
 *                               (priv->drivers) and its match index
 *                               (priv->match_index, ->match_any), whose
 *                               readers hold dmc_driver_srcu instead.
 *   dp->hist_lock    (spinlock) a driver's probe histogram (dd.c writes,
 *                               probe_info.c reads); a leaf.
 *   dmc_ctl_buses_lock (mutex, control_objects.c) control's bus list for
 *                               its probe callbacks (under a device lock);
 *                               a leaf.
 *   dmc_ctl_lock     (spinlock, control_devices.c) control's devices and
 *                               links, also taken from its tree listener;
 *                               cdev->lock (spinlock) an attribute value.
 *                               Leaves.
 *   the tree's dmcfs_lock and node->open_lock (dmcfs.c), the bridge's
 *   dmc_bridge_lock (spinlocks): leaves of their clients, never held
 *   across a call into the core.
 *
 * Driver walks. A device's offer to its bus's drivers walks priv->drivers
 * (or, on a bus with a match index, the index's lists for the device's
 * key, match.c) under dmc_driver_srcu and calls each driver's match
 * there, taking no reference per driver; only a driver that matched is made active (and
 * referenced) for its probe, which runs outside the read side. A
 * driver's unregistration takes it off the list, waits for a grace
 * period, then drains its active references: once it returns, no match
 * or probe with the driver is under way.
 *
 * Active references. A driver's dp->active and a bus's priv->active count
 * the users of the owner's structure and callbacks (a match and probe with
 * the driver, an attribute's show or store), as kernfs's active references
 * do for sysfs files. They are taken without blocking, never waited for by
 * their holders, and drained by the unregistration, which clears the
 * pointer first and then waits holding no lock; a holder may take any
 * lock above, and must not unregister the driver or bus it holds.
 *
 * Probe results and timings (dev->p->probe_status, ->probes, ->probe_ns,
 * ->remove_ns, ->suspend_ns, ->resume_ns) are written with WRITE_ONCE()
 * under the device lock (dd.c around probe and remove, power.c around
 * suspend and resume) and read with READ_ONCE() without it
 * (dmc_device_probe_info(), probe_info.c): each read gives a value some
 * writer stored, not one set of them; ->probe_status packs a result with
 * its errno (DMC_PROBE_STATUS()) so those two always belong together.
 *
 * kobj->kref and kobj->flags are atomic. kobj->kset and kobj->ktype are
 * written only before the object is added. dev->p->dead and ->del_task
 * change under the device lock, dev->p->registered under it or before the
 * device is visible; they are read with READ_ONCE().
 */
#ifndef _DMCORE_BASE_H
#define _DMCORE_BASE_H

#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/printk.h>
#include <linux/bug.h>
#include <linux/ratelimit.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/rwsem.h>
#include <linux/rcupdate.h>
#include <linux/sched/clock.h>
#include <linux/srcu.h>
#include <linux/wait_bit.h>
#include <linux/jump_label.h>
#include <linux/llist.h>
#include <linux/timex.h>
#include <linux/hrtimer.h>
#include <linux/refcount.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <dmcore/kobject.h>
#include <dmcore/kset.h>
#include <dmcore/event.h>
#include <dmcore/device.h>
#include <dmcore/devres.h>
#include <dmcore/phase.h>
#include <dmcore/pm_runtime.h>
#include <dmcore/probe_info.h>
#include <dmcore/snapshot.h>

extern struct mutex dmc_tree_mutex;	/* kobject_tree.c */
int dmc_kobject_path_into(const struct dmc_kobject *kobj, char *buf, size_t size);
int __dmc_kobject_path_into(const struct dmc_kobject *kobj, char *buf, size_t size);
extern rwlock_t dmc_name_lock;		/* kobject_tree.c */
extern struct list_head dmc_roots;	/* top-level objects (kobject_tree.c) */
extern struct mutex dmc_event_mutex;	/* listener.c */
extern struct srcu_struct dmc_driver_srcu;	/* match.c */

/*
 * DMC_MISUSE - report a caller's misuse of the API: a rate-limited WARN
 * (with a backtrace pointing at the caller) that is also counted, so tests
 * can check it fired.
 */
void dmc_count_misuse(void);
#define DMC_MISUSE(cond, fmt, ...)					\
({									\
	bool __c = !!(cond);						\
	if (unlikely(__c)) {						\
		dmc_count_misuse();					\
		WARN_RATELIMIT(1, "dmcore: " fmt, ##__VA_ARGS__);	\
	}								\
	unlikely(__c);							\
})

/*
 * phase.c: the phase clocks. A step reads the clock at its start
 * (dmc_phase_start()) and each lap adds the time since the last one to a
 * phase; with the clocks off both are a branch never taken.
 */
DECLARE_STATIC_KEY_FALSE(dmc_phase_key);

/*
 * A stack buffer on a hot path that the code fills before reading:
 * exempt from CONFIG_INIT_STACK_ALL_ZERO's zeroing (a 256-byte name
 * buffer cost a measurable share of an event under TCG).
 */
#if __has_attribute(__uninitialized__)
#define dmc_noinit	__attribute__((__uninitialized__))
#else
#define dmc_noinit
#endif
void __dmc_phase_add(enum dmc_phase phase, u64 cycles);

static __always_inline u64 dmc_phase_start(void)
{
	return static_branch_unlikely(&dmc_phase_key) ? get_cycles() : 0;
}

/* *@t is 0 unless the clocks ran at the start: tested first, no call. */
static __always_inline void dmc_phase_lap(enum dmc_phase phase, u64 *t)
{
	u64 now;

	if (likely(!*t) || !static_branch_unlikely(&dmc_phase_key))
		return;
	now = get_cycles();
	__dmc_phase_add(phase, now - *t);
	*t = now;
}

/* escape.c: a name or text as one word of a line-oriented root file */
struct seq_file;
void dmc_seq_escape(struct seq_file *m, const char *s);

/* kobject.c */
int dmc_kobject_tree_init(void);
void dmc_kobject_tree_exit(void);
int dmc_kobject_check_name(const char *name);

/* The type's name of @kobj, for reports. */
static inline const char *dmc_ktype_name(const struct dmc_kobject *kobj)
{
	return kobj->ktype && kobj->ktype->name ? kobj->ktype->name : "kobject";
}

/* kobject_attr.c: groups added to objects (kobject_group.c's API) */
#define DMC_DGROUP_DEACTIVATED	(INT_MIN / 2)

/*
 * struct dmc_dgroup - a group added to an object (kobject_attr.c)
 * @node: in the table of added groups, by @kobj
 * @kobj: the object (no reference: the entry goes when it leaves the tree)
 * @key: what the caller added: the group, or the attribute of a file
 * @grp: the group the tree shows: @key, or @file_grp for a file
 * @active: callbacks under way; DMC_DGROUP_DEACTIVATED added at removal
 * @rcu: freed after a grace period (look-ups under RCU)
 * @file_grp: the unnamed group of one file (dmc_sysfs_create_file())
 * @file_attrs: its attribute, NULL-terminated
 * @file_bin_attrs: its binary attribute, NULL-terminated
 * @nattrs: entries of @grp->attrs, then @nbin of @grp->bin_attrs, in @modes
 * @nbin: see @nattrs
 * @modes: the mode of each, as is_visible() gave it (0: hidden)
 */
struct dmc_dgroup {
	struct hlist_node node;
	struct dmc_kobject *kobj;
	const void *key;
	const struct dmc_attribute_group *grp;
	atomic_t active;
	struct rcu_head rcu;
	struct dmc_attribute_group file_grp;
	struct dmc_attribute *file_attrs[2];
	struct dmc_bin_attribute *file_bin_attrs[2];
	unsigned int nattrs, nbin;
	umode_t modes[];
};

extern struct rw_semaphore dmc_groups_rwsem;
struct dmc_dgroup *dmc_dgroup_find(struct dmc_kobject *kobj, const void *key);
struct dmc_dgroup *dmc_dgroup_find_name(struct dmc_kobject *kobj, const char *name);
void dmc_dgroup_insert(struct dmc_dgroup *e);
void dmc_dgroup_replace(struct dmc_dgroup *old, struct dmc_dgroup *new);
void dmc_dgroup_unlink(struct dmc_dgroup *e);
void dmc_dgroup_drain_free(struct dmc_dgroup *e);
void dmc_kobject_groups_drop(struct dmc_kobject *kobj);
umode_t dmc_group_mode_now(struct dmc_kobject *kobj,
			   const struct dmc_attribute_group *grp,
			   unsigned int n, bool bin);
umode_t dmc_group_attr_mode(struct dmc_kobject *kobj,
			    const struct dmc_attribute_group *grp,
			    unsigned int n, bool bin);
struct dmc_dgroup *dmc_group_active_get(struct dmc_kobject *kobj,
					const struct dmc_attribute_group *grp,
					const struct dmc_attribute *attr, bool bin);
void dmc_group_active_put(struct dmc_dgroup *e);
bool dmc_group_is_added(struct dmc_kobject *kobj, const struct dmc_attribute_group *grp);

/* kobject_tree.c */
void dmc_sysfs_link(struct dmc_kobject *kobj, const char *name,
		    struct dmc_kobject *target);
void dmc_sysfs_unlink(struct dmc_kobject *kobj, const char *name);
int dmc_kobject_index_init(void);
void dmc_kobject_index_exit(void);
bool dmc_kobject_name_reserved(struct dmc_kobject *parent, const char *name);
bool dmc_kobject_has_child(const struct dmc_kobject *parent, const char *name);
bool dmc_sib_indexed(const struct dmc_kobject *kobj);
int __dmc_kobject_add(struct dmc_kobject *kobj);
struct dmc_kset *__dmc_kobject_del(struct dmc_kobject *kobj);
int __dmc_kobject_rename(struct dmc_kobject *kobj, char *name);
int __dmc_kobject_move(struct dmc_kobject *kobj, struct dmc_kobject *new_parent,
		       struct dmc_kobject **old_parent);
struct dmc_klist_member;
int __dmc_kobject_rename_in(struct dmc_kobject *kobj, char *name,
			    const struct dmc_klist_member *m, unsigned int nr,
			    const char **old_name,
			    void (*renamed)(struct dmc_kobject *kobj,
					    const char *old_name, void *arg),
			    void *arg);
char *dmc_kobject_devpath_old(const struct dmc_kobject *kobj);	/* kobject.c */
void dmc_kobject_send_move(struct dmc_kobject *kobj, char *devpath_old);
struct dmc_kset *dmc_kobject_subsystem_kset(const struct dmc_kobject *kobj);

/* kobject_debug.c */
int dmc_kobject_release_init(void);
void dmc_kobject_release_exit(void);
bool dmc_kobject_release_later(struct dmc_kobject *kobj,
			       void (*release)(struct dmc_kobject *kobj));
void dmc_kobject_live_add(struct dmc_kobject *kobj);
void dmc_kobject_live_del(struct dmc_kobject *kobj);
unsigned int dmc_kobject_live_by_type(const char **names, unsigned long *counts,
				      unsigned int max);
unsigned long dmc_kobject_report_leaks(void);

/* hashtab.c */
struct dmc_htab_resize {
	struct dmc_hnode **buckets;	/* to swap in, then to free */
	struct dmc_hnode **from;	/* the table's buckets when prepared */
	unsigned int bits;
};

void dmc_hash_init(void);
u32 dmc_name_hash(const char *name, unsigned long salt);
u32 dmc_name_salt(u32 hash, unsigned long salt);
char *dmc_name_dup(const char *name, size_t len);
void dmc_name_free(const char *name);

/* A name, its hash and its length, as dmc_name_dup() allocates it (hashtab.c). */
struct dmc_name {
	u32 hash;
	u32 len;
	char str[];
};

/* The unsalted hash of a name of dmc_name_dup(), without hashing it. */
static inline u32 dmc_name_hash_of(const char *name)
{
	return container_of(name, struct dmc_name, str[0])->hash;
}

/* strlen() of a name of dmc_name_dup(), without walking it. */
static inline size_t dmc_name_len_of(const char *name)
{
	return container_of(name, struct dmc_name, str[0])->len;
}

int dmc_htab_init(struct dmc_htab *t);
struct dmc_hnode *dmc_htab_first(const struct dmc_htab *t, u32 hash);
void dmc_htab_resize_prepare(const struct dmc_htab *t, unsigned int count,
			     struct dmc_htab_resize *r);
void dmc_htab_resize_commit(struct dmc_htab *t, struct dmc_htab_resize *r);
void dmc_htab_resize_finish(struct dmc_htab_resize *r);
void dmc_htab_add(struct dmc_htab *t, struct dmc_hnode *n, u32 hash);
void dmc_htab_del(struct dmc_htab *t, struct dmc_hnode *n);
void dmc_htab_destroy(struct dmc_htab *t);

/* klist.c */
int dmc_klist_init(struct dmc_klist *k,
		   bool (*get)(struct dmc_klist_node *n),
		   void (*put)(struct dmc_klist_node *n),
		   const char *(*name)(const struct dmc_klist_node *n), bool indexed);
void dmc_klist_destroy(struct dmc_klist *k);
int dmc_klist_add(struct dmc_klist *k, struct dmc_klist_node *n, bool unique);
bool dmc_klist_del(struct dmc_klist *k, struct dmc_klist_node *n);
bool dmc_klist_node_attached(struct dmc_klist_node *n);
bool dmc_klist_node_indexed(struct dmc_klist *k, const struct dmc_klist_node *n);
int dmc_klist_rename(struct dmc_klist *k, struct dmc_klist_node *n,
		     int (*rename)(void *arg), void *arg);
/* One klist and an object's node in it, for dmc_klist_rename_many(). */
struct dmc_klist_member {
	struct dmc_klist *k;
	struct dmc_klist_node *n;
	bool unique;
};

int dmc_klist_rename_many(const struct dmc_klist_member *m, unsigned int nr,
			  const char *name, int (*rename)(void *arg), void *arg);
struct dmc_klist_node *dmc_klist_find(struct dmc_klist *k, const char *name);
unsigned int dmc_klist_count(struct dmc_klist *k);
void dmc_klist_iter_start(struct dmc_klist *k, struct dmc_klist_iter *it);
struct dmc_klist_node *dmc_klist_iter_next(struct dmc_klist_iter *it);
void dmc_klist_iter_exit(struct dmc_klist_iter *it);

/* kset.c */
extern const struct dmc_kobj_type dmc_kset_ktype;
void dmc_kset_release(struct dmc_kobject *kobj);
struct dmc_kset *__dmc_kset_create_and_add(const char *name,
					   const struct dmc_kset_uevent_ops *ops,
					   struct dmc_kobject *parent, bool indexed,
					   const struct dmc_kobj_type *ktype);

/* listener.c */
void dmc_listeners_kobj_added(struct dmc_kobject *kobj);
void dmc_listeners_kobj_removed(struct dmc_kobject *kobj);
void dmc_listeners_kobj_gone(struct dmc_kobject *kobj);
void dmc_listeners_kobj_renamed(struct dmc_kobject *kobj, const char *old);
void dmc_listeners_kobj_moved(struct dmc_kobject *kobj,
			      struct dmc_kobject *old_parent);
bool dmc_listeners_want_links(void);
bool dmc_listeners_watch_tree(void);
void dmc_listeners_link_added(struct dmc_kobject *kobj, const char *name,
			      struct dmc_kobject *target);
void dmc_listeners_link_removed(struct dmc_kobject *kobj, const char *name);
bool dmc_listeners_want_uevents(void);
void dmc_listeners_uevent(const struct dmc_uevent *ev);
void dmc_listeners_attr_changed(struct dmc_kobject *kobj, const char *dir,
				const char *attr);
void dmc_listeners_add(struct dmc_listener *l);
void dmc_listeners_del(struct dmc_listener *l);
void dmc_listeners_sync(struct dmc_listener *l);
void dmc_listener_exit(void);

/* event.c */
int dmc_event_init(unsigned int capacity);
void dmc_event_exit(void);

/*
 * struct dmc_subsys_private - what the core keeps for a bus or a class
 * @subsys: bus/<name> or class/<name>; its kobject's lifetime is this
 *	structure's
 * @devices_kset: bus/<name>/devices (buses only)
 * @drivers_kset: bus/<name>/drivers (buses only)
 * @klist_devices: the bus's or class's devices, by name
 * @klist_drivers: the bus's drivers, by name (buses only)
 * @drivers: the bus's drivers again, in registration order, for the
 *	walks that offer a device to them (under dmc_driver_srcu; written
 *	under dmc_driver_p_lock)
 * @match_index: with the bus's dev_match_key, the drivers' match keys
 *	(struct dmc_match_key) in DMC_MATCH_BUCKETS hash lists (match.c);
 *	read under dmc_driver_srcu, written under dmc_driver_p_lock
 * @match_any: likewise, the drivers of such a bus that list no key, in
 *	registration order
 * @dev_match_key: the bus's callback, kept at registration with the index
 * @drv_match_keys: likewise
 * @drivers_seq: the last registration number given to a driver of the bus
 * @bus_notifier: the bus notifier chain
 * @drivers_autoprobe: bind new devices and drivers at once
 * @bus: the bus, or NULL once its unregistration began
 * @class: the class, or NULL once unregistered
 * @interfaces: class interfaces, under @mutex
 * @mutex: class interfaces and class membership changes
 * @glue_dir: devices/virtual/<class>, made for the first parentless member
 * @glue_users: adds between dmc_class_glue_dir() and
 *	dmc_class_glue_dir_put() (@mutex)
 * @active: users of @bus's callbacks under way (attribute show and store,
 *	see dmc_bus_active_get()); dmc_bus_unregister() clears @bus, then
 *	waits for them
 * @lock_key: lockdep class of a class's @mutex (classes only)
 */
struct dmc_subsys_private {
	struct dmc_kset subsys;
	struct dmc_kset *devices_kset;
	struct dmc_kset *drivers_kset;
	struct dmc_klist klist_devices;
	struct dmc_klist klist_drivers;
	struct list_head drivers;
	unsigned long drivers_seq;
	struct hlist_head *match_index;
	struct hlist_head match_any;
	int (*dev_match_key)(const struct dmc_device *dev, char *buf, size_t size);
	const char * const *(*drv_match_keys)(const struct dmc_driver *drv);
	struct blocking_notifier_head bus_notifier;
	bool drivers_autoprobe;
	struct dmc_bus_type *bus;
	struct dmc_class *class;
	struct list_head interfaces;
	struct mutex mutex;		/* class interfaces and members */
	struct dmc_kobject *glue_dir;
	unsigned int glue_users;
	atomic_t active;
	struct lock_class_key lock_key;
};

#define to_subsys_private(k) container_of(to_dmc_kset(k), struct dmc_subsys_private, subsys)

/*
 * struct dmc_match_key - a driver's entry in its bus's match index
 * @node: in a bucket of priv->match_index, or in priv->match_any
 * @dp: the driver
 * @key: one of its keys (owned by the driver), NULL in match_any
 * @hash: dmc_match_hash() of @key
 */
struct dmc_match_key {
	struct hlist_node node;
	struct dmc_driver_private *dp;
	const char *key;
	u32 hash;
};

int dmc_match_index_init(struct dmc_subsys_private *priv);
void dmc_match_index_destroy(struct dmc_subsys_private *priv);
u32 dmc_match_hash(const struct dmc_subsys_private *priv, const char *key);
int dmc_match_keys_prepare(struct dmc_driver_private *dp,
			   const struct dmc_driver *drv);
void dmc_match_keys_link(struct dmc_driver_private *dp);
void dmc_match_keys_unlink(struct dmc_driver_private *dp);
void dmc_match_keys_free(struct dmc_driver_private *dp);
bool dmc_match_device_key(struct dmc_device *dev, const struct dmc_subsys_private *priv,
			  char *key, u32 *hash);
bool dmc_match_driver_lists(struct dmc_device *dev, struct dmc_driver_private *dp);

/*
 * struct dmc_match_cursor - where a keyed walk stands (match.c)
 * @priv: the bus's private part, with an index
 * @k: the next entry of the device's bucket listing @key, or NULL
 * @a: the next entry of match_any, or NULL
 * @seq: the registration number of the last driver offered (0 at first)
 * @hash: dmc_match_hash() of @key
 * @key: the device's match key
 */
struct dmc_match_cursor {
	struct dmc_subsys_private *priv;
	struct dmc_match_key *k, *a;
	unsigned long seq;
	u32 hash;
	char key[DMC_MATCH_KEY_MAX];
};

void dmc_match_seek(struct dmc_match_cursor *c);
unsigned int dmc_match_index_check(struct dmc_subsys_private *priv, const char **what);
struct dmc_driver_private *dmc_match_next(struct dmc_match_cursor *c);

/*
 * struct dmc_driver_private - what the core keeps for a driver
 * @kobj: bus/<bus>/drivers/<name>
 * @klist_devices: devices bound to the driver
 * @knode_bus: in the bus's klist_drivers
 * @bus_entry: in the bus's @drivers list, while @on_bus
 * @on_bus: on that list (dmc_driver_p_lock; read under dmc_driver_srcu)
 * @seq: its registration number on the bus, increasing along @drivers
 * @match_keys: its entries in the bus's match index, @nr_match_keys of
 *	them (none on a bus without one)
 * @driver: the driver, or NULL once its unregistration began; cleared by
 *	whoever claims the unregistration (dmc_driver_remove())
 * @bus: the bus's private part, referenced while registered
 * @active: users of @driver under way: a match and probe with it, an
 *	attribute's show or store (see dmc_driver_active_get()); the
 *	unregistration waits for them after clearing @driver
 * @removed: completed once the unregistration is done, for the callers
 *	of an overlapping unregistration to wait on
 * @unbinding: unbinds of its devices that took their device off
 *	@klist_devices and are not done yet (dmc_device_release_driver());
 *	the unregistration's walk over @klist_devices no longer sees such a
 *	device, so it waits for the count to drain after the walk
 * @hist_lock: @hist's
 * @hist: its probe calls and their durations (dd.c; stats' probe_hist)
 */
struct dmc_driver_private {
	struct dmc_kobject kobj;
	struct dmc_klist klist_devices;
	struct dmc_klist_node knode_bus;
	struct list_head bus_entry;
	bool on_bus;
	unsigned long seq;
	struct dmc_match_key *match_keys;
	unsigned int nr_match_keys;
	struct dmc_driver *driver;
	struct dmc_subsys_private *bus;
	atomic_t active;
	struct completion removed;
	atomic_t unbinding;
	spinlock_t hist_lock;		/* @hist */
	struct dmc_probe_hist hist;
	unsigned long snap_mark;	/* snapshot.c, under its mutex */
};

/* What a runtime PM request queued on the workqueue asks for (runtime.c). */
enum dmc_rpm_request {
	DMC_RPM_REQ_NONE = 0,
	DMC_RPM_REQ_IDLE,
	DMC_RPM_REQ_SUSPEND,
	DMC_RPM_REQ_AUTOSUSPEND,
	DMC_RPM_REQ_RESUME,
};

/*
 * struct dmc_dev_pm_info - a device's runtime PM state, Linux's dev_pm_info
 * (runtime.c). Everything is under @lock (a spinlock, interrupts off: the
 * autosuspend timer takes it in hard interrupt context, as Linux's
 * power.lock), except the atomic counts. Callbacks run with @lock
 * dropped; @runtime_status SUSPENDING/RESUMING and @idle_notification
 * mark one running, and @wait_queue wakes those who wait for it.
 * @usage_count: usage references (dmc_pm_runtime_get*(), _forbid());
 *	nonzero forbids a suspend
 * @child_count: active children; nonzero forbids a suspend unless
 *	@ignore_children
 * @disable_depth: runtime PM is enabled at 0; a device starts at 1
 * @links_count: the PM_RUNTIME links to suppliers of the device
 * @runtime_error: the last callback's error, which stops runtime PM
 * @autosuspend_delay: ms; negative forbids an autosuspend
 * @last_busy: when it was last busy (ns, ktime_get_mono_fast_ns())
 * @timer_expires: when @suspend_timer fires (ns), 0 when not set
 * @rpm_gen: visited mark of the dependency walk (dmc_links_mutex)
 * @is_suspended: in a system sleep (power.c's suspend, under the
 *	device lock and the power-transition mutex)
 * @direct_complete: its system suspend and resume are skipped
 */
struct dmc_dev_pm_info {
	spinlock_t lock;	/* the rest, but the atomics */
	wait_queue_head_t wait_queue;
	struct work_struct work;
	struct hrtimer suspend_timer;
	u64 timer_expires;
	u64 last_busy;
	atomic_t usage_count;
	atomic_t child_count;
	unsigned int disable_depth;
	unsigned int links_count;
	unsigned int rpm_gen;
	int runtime_error;
	int autosuspend_delay;
	enum dmc_rpm_status runtime_status;
	enum dmc_rpm_status last_status;
	enum dmc_rpm_request request;
	bool request_pending;
	bool deferred_resume;
	bool runtime_auto;
	bool ignore_children;
	bool use_autosuspend;
	bool timer_autosuspends;
	bool idle_notification;
	bool is_suspended;
	bool direct_complete;
};

/*
 * struct dmc_device_private - what the core keeps for a device
 * @klist_children: child devices, in joining order; NULL until the first child is
 *	added (dmc_device_children()), then kept until the release
 * @knode_parent: in the parent's klist_children
 * @knode_driver: in the bound driver's klist_devices
 * @knode_bus: in the bus's klist_devices
 * @knode_class: in the class's klist_devices
 * @deferred: in the deferred-probe lists (dmc_deferred_mutex)
 * @knode_waits: in the index of named waiters (dmc_deferred_mutex)
 * @waits_for: the name a deferred probe waits for, or NULL for unnamed
 * @deferred_by: the driver whose probe deferred, NULL for a match deferral
 * @deferred_held: the deferred lists hold a reference on the device
 *	(dmc_deferred_mutex; set only under the device lock of a live
 *	device, so a deleter reads it without the mutex)
 * @dpm_entry: in the power-order list (dmc_dpm_mutex)
 * @suppliers: links to the devices this one depends on (dmc_links_mutex)
 * @consumers: links to the devices that depend on this one
 * @device: back pointer
 * @link_gen: mark of the graph searches: cycle check, power reorder,
 *	unbinding consumers (dmc_links_mutex; see dmc_links_new_gen())
 * @power_state: current power state (written under both
 *	dmc_pm_transition_mutex and the device lock; read with READ_ONCE()
 *	through dmc_device_power_state())
 * @del_task: the task deleting the device, while dmc_device_del() runs
 *	(the device lock)
 * @dead: set once dmc_device_del() began; no more probing
 * @put_misused: a put without dmc_device_del() was reported already
 * @registered: dmc_device_add() succeeded and dmc_device_del() has not
 *	finished; while set, the device holds a reference on itself (see
 *	dmc_device_add()). Waiters for a deletion wait on its address.
 * @ready_to_probe: dmc_device_add() sent "add" and offers the device to
 *	drivers; no probe before (the device lock)
 * @deferred_msg: why the last probe deferred, in the driver's words
 *	(dmc_dev_err_probe()), or NULL (dmc_deferred_mutex; cleared when a
 *	probe begins)
 * @devres_lock: a spinlock (interrupts off) over @devres_head
 * @devres_head: the managed resources (devres.c), oldest first
 * @driver_override: the name of the only driver that may bind the device,
 *	or NULL (Linux's driver_override of platform and PCI devices; here
 *	for every bus); set by dmc_driver_set_override(), read under the
 *	device lock; freed at the release
 * @offline_disabled: the device may not go offline, and has no "online"
 *	file (dmc_device_set_offline_disabled())
 * @offline: taken offline by dmc_device_offline() (the device lock, and
 *	the hotplug lock for changes)
 * @links_status: where the device stands for its links, enum
 *	dmc_dl_dev_state (dmc_links_mutex; link_state.c)
 * @defer_sync: in the list of suppliers whose sync_state() waits for
 *	dmc_device_links_supplier_sync_state_resume(), or in a local list of
 *	those due (dmc_links_mutex)
 * @state_synced: Linux's dev->state_synced (struct dmc_device has no
 *	room): sync_state() was called for this binding or is about to be
 *	(dmc_links_mutex; read with READ_ONCE(), dmc_dev_state_synced())
 * @bind_seq: counts the device's bindings (dmc_links_mutex and the device
 *	lock); @sync_seq: the binding a queued sync_state() is for
 * @power: the runtime PM state (runtime.c)
 * @probe_status: the last probe's result and errno, DMC_PROBE_STATUS()
 * @probes: probe calls of the device
 * @probe_ns: the last probe call's duration; @remove_ns, @suspend_ns,
 *	@resume_ns: the last remove, system suspend and resume callback's
 *	(see "Probe results and timings" above: WRITE_ONCE() under the
 *	device lock, READ_ONCE() without it)
 */
struct dmc_device_private {
	struct dmc_klist *klist_children;
	struct dmc_klist_node knode_parent;
	struct dmc_klist_node knode_driver;
	struct dmc_klist_node knode_bus;
	struct dmc_klist_node knode_class;
	struct list_head deferred;
	struct dmc_klist_node knode_waits;
	char *waits_for;
	struct dmc_driver *deferred_by;
	bool deferred_held;
	struct list_head dpm_entry;
	struct list_head suppliers;
	struct list_head consumers;
	struct dmc_device *device;
	unsigned int link_gen;
	unsigned long snap_mark;	/* snapshot.c, under its mutex: */
	unsigned int snap_idx;		/* listed in that snapshot, where */
	enum dmc_power_state power_state;
	struct task_struct *del_task;
	bool dead;
	bool put_misused;
	bool registered;
	bool ready_to_probe;
	char *deferred_msg;
	spinlock_t devres_lock;		/* @devres_head */
	struct list_head devres_head;
	const char *driver_override;
	bool offline_disabled;
	bool offline;
	u8 links_status;
	bool state_synced;
	u32 probe_status;		/* in the hole before @defer_sync */
	struct list_head defer_sync;
	unsigned int bind_seq;
	unsigned int sync_seq;
	struct dmc_dev_pm_info power;
	unsigned long probes;
	u64 probe_ns, remove_ns, suspend_ns, resume_ns;
	/* The devlink view (devlink.c), under dmc_tree_mutex: */
	struct list_head devlink_cons;	/* shown links to consumers (->sup_tnode) */
	struct list_head devlink_sups;	/* shown links to suppliers (->con_tnode) */
	struct dmc_device_link *devlink; /* a link's device: its link, while shown */
};

/* A probe's result and positive errno packed as dev->p->probe_status. */
#define DMC_PROBE_STATUS(result, err)	((u32)(result) | ((u32)(err) << 2))
#define DMC_PROBE_STATUS_RESULT(st)	((enum dmc_probe_result)((st) & 3))
#define DMC_PROBE_STATUS_ERR(st)	((int)((st) >> 2))

/* Linux's enum dl_dev_state: a device's binding, as its links see it. */
enum dmc_dl_dev_state {
	DMC_DL_DEV_NO_DRIVER = 0,
	DMC_DL_DEV_PROBING,
	DMC_DL_DEV_DRIVER_BOUND,
	DMC_DL_DEV_UNBINDING,
};

/*
 * The children of @p, or NULL while it never had one (device_children.c
 * makes them on the first child).
 */
static inline struct dmc_klist *dmc_device_children(struct dmc_device_private *p)
{
	/*
	 * Pairs with the cmpxchg() in dmc_device_children_alloc(): a walker
	 * that sees the klist sees it initialized.
	 */
	return smp_load_acquire(&p->klist_children);
}

/*
 * The device link, private to the core (link.c, link_state.c). Every
 * field but the devices changes under dmc_links_mutex. The link lives
 * while it is managed (DMC_DL_FLAG_MANAGED: the core's reference, dropped
 * by an autoremove or a delete) or has stateless references (one per
 * stateless add, dropped by a delete), as Linux's kref; a device's
 * deletion deletes it whatever it holds.
 */
struct dmc_device_link {
	struct dmc_device *supplier;
	struct dmc_device *consumer;
	struct list_head s_node;	/* in supplier->p->consumers */
	struct list_head c_node;	/* in consumer->p->suppliers */
	u32 flags;			/* DMC_DL_FLAG_* */
	enum dmc_device_link_state status;
	unsigned int stateless_refs;
	struct llist_node dead;		/* freed by a worker (link.c) */
	refcount_t rpm_active;		/* 1 + runtime refs on the supplier */
	/*
	 * The link as a device of class "devlink" (devlink.c), as Linux's
	 * link_dev: once initialized (@has_dev) the link is freed by its
	 * release, after the last reference (its devices are put when it is
	 * deleted); @dev_added while registered.
	 * @sup_tnode and @con_tnode put it on the supplier's and consumer's
	 * devlink lists while its symlinks are shown (dmc_tree_mutex);
	 * @sup_len is the length of the supplier's part of its name
	 * ("<bus>:<name>" before "--").
	 */
	struct dmc_device link_dev;
	struct list_head sup_tnode;
	struct list_head con_tnode;
	u16 sup_len;
	bool has_dev;
	bool dev_added;
};

/*
 * The name of @link's symlink in its supplier's directory ("consumer:"
 * and the consumer's part of the link's name) or, with !@in_supplier, in
 * its consumer's ("supplier:" and the supplier's part), into @buf.
 * Return: as snprintf().
 */
static inline int dmc_devlink_symlink_name(const struct dmc_device_link *link,
					   bool in_supplier, char *buf, size_t size)
{
	const char *name = link->link_dev.kobj.name;

	if (in_supplier)
		return snprintf(buf, size, "consumer:%s", name + link->sup_len + 2);
	return snprintf(buf, size, "supplier:%.*s", (int)link->sup_len, name);
}

/* A symlink name's buffer: "supplier:" or "consumer:" and a device name. */
#define DMC_DEVLINK_SYMLINK_MAX	(DMC_NAME_MAX + 1)

/*
 * The devlink view's hooks (devlink.c, dmc_links_set_view()), so link.c
 * needs no symbol of device_add.c, which deletes links.
 * @add: register @link's device; dmc_links_mutex held. On failure the
 *	link is left for @discard.
 * @discard: unregister (or only put) @link's device, which frees the link
 *	at its release; no core lock held.
 */
struct dmc_devlink_view {
	int (*add)(struct dmc_device_link *link);
	void (*discard)(struct dmc_device_link *link);
};

extern const struct dmc_kobj_type dmc_device_ktype;

/* device.c */
int dmc_devices_init(void);
void dmc_devices_exit(void);
void dmc_device_release(struct dmc_kobject *kobj);	/* the ktype's release */
int dmc_device_private_init(struct dmc_device *dev);

/* devres.c */
/*
 * struct dmc_devres - one resource
 * @entry: in the device's p->devres_head, oldest first; empty while the
 *	resource is on no device
 * @release: called with the device and @data when it is released
 * @size: bytes of @data
 * @data: the caller's part, aligned as kmalloc() aligns
 */
struct dmc_devres {
	struct list_head entry;
	dmc_dr_release_t release;
	size_t size;
	u8 data[] __aligned(ARCH_KMALLOC_MINALIGN);
};

static inline struct dmc_devres *to_devres(void *res)
{
	return container_of(res, struct dmc_devres, data[0]);
}

/*
 * struct dmc_devres_group - the data of a group's opening marker
 * @id: the group's id: the caller's, or the opening marker's own data
 * @close: the closing marker, on the list once the group is closed
 * @closed: whether it is; set under the devres lock
 * @color: scratch for dmc_devres_remove_nodes(), under the devres lock
 */
struct dmc_devres_group {
	void *id;
	struct dmc_devres *close;
	bool closed;
	int color;
};

bool dmc_devres_dev_ok(struct dmc_device *dev, const char *what);
void *dmc_devres_alloc_raw(dmc_dr_release_t release, size_t size, gfp_t gfp);
struct dmc_devres *dmc_devres_find_locked(struct dmc_device *dev,
					  dmc_dr_release_t release,
					  dmc_dr_match_t match, void *match_data);
int dmc_devres_release_list(struct dmc_device *dev, struct list_head *todo);
void dmc_devres_group_open_release(struct dmc_device *dev, void *res);
void dmc_devres_group_close_release(struct dmc_device *dev, void *res);
int __dmc_devres_release_all(struct dmc_device *dev);	/* no lock asserted */
bool dmc_devres_any(struct dmc_device *dev);
ssize_t dmc_devres_show(struct dmc_device *dev, char *buf);

/* device_sysfs.c */
void dmc_device_add_links(struct dmc_device *dev);	/* dmc_device_add()'s step */
void dmc_device_remove_links(struct dmc_device *dev);	/* dmc_device_del()'s step */
bool dmc_kobject_is_device(const struct dmc_kobject *kobj);
int dmc_device_list_walk_links(struct dmc_kobject *dir, struct dmc_klist *k,
			       size_t off, const char *name, void *data,
			       int (*fn)(struct dmc_kobject *kobj, const char *name,
					 struct dmc_kobject *target, void *data));
bool dmc_device_linkable(const struct dmc_device *dev);
int dmc_walk_group_list(struct dmc_kobject *kobj,
			const struct dmc_attribute_group **groups, void *data,
			int (*fn)(struct dmc_kobject *kobj,
				  const struct dmc_attribute_group *grp, void *data));

/* device_online.c: the "online" file's group for @dev, or NULL */
const struct dmc_attribute_group *dmc_device_online_group_of(const struct dmc_device *dev);

/* device_children.c */
int dmc_device_join_parent(struct dmc_device *dev);	/* dmc_device_add()'s step */
void dmc_device_leave_parent(struct dmc_device *dev);	/* dmc_device_del()'s step */
int dmc_device_children_prepare(struct dmc_device *parent);	/* device_move.c */

/* bus.c: what is on a bus; a device's driver read without its lock */
extern spinlock_t dmc_driver_p_lock;
struct dmc_driver_private *dmc_device_driver_private_get(const struct dmc_device *dev);
int dmc_bus_add_device(struct dmc_device *dev);
void dmc_bus_remove_device(struct dmc_device *dev);
void dmc_bus_notify(struct dmc_device *dev, enum dmc_bus_notify action);

/* End a use begun by dmc_driver_active_get(). */
static inline void dmc_driver_active_put(struct dmc_driver_private *dp)
{
	if (atomic_dec_and_test(&dp->active))
		wake_up_var(&dp->active);
}

/**
 * dmc_driver_active_get() - begin a use of a registered driver
 * @dp: the driver's private part; the caller holds a reference on it
 *
 * The core's side of a driver's lifetime, like kernfs's active
 * references: while one is held, dmc_driver_unregister() of the driver
 * does not return, so the owner's structure, its callbacks and its
 * module stay. Not a sleeping lock: it never waits; the unregistration
 * clears @dp->driver first, then waits for the count to drain.
 *
 * Inline, as every match of a device against a bus's drivers takes one.
 *
 * Return: the driver, to be ended with dmc_driver_active_put(), or NULL
 * (nothing to end) once its unregistration began.
 */
static inline struct dmc_driver *
dmc_driver_active_get(struct dmc_driver_private *dp)
{
	struct dmc_driver *drv;

	atomic_inc(&dp->active);
	smp_mb__after_atomic();	/* count before the check; pairs with dmc_driver_remove() */
	drv = READ_ONCE(dp->driver);
	if (!drv)
		dmc_driver_active_put(dp);
	return drv;
}

/* class.c: what is in a class */
int dmc_class_add_device(struct dmc_device *dev);
void dmc_class_remove_device(struct dmc_device *dev);
struct dmc_kobject *dmc_class_glue_dir(struct dmc_class *cls);
void dmc_class_glue_dir_put(struct dmc_class *cls, struct dmc_kobject *glue,
			    bool failed);

/* driver.c: registration, the driver's directory and files */
void dmc_driver_remove(struct dmc_driver_private *dp);

/* dd.c: binding, asynchronous probing, the deferred worker */
void dmc_bus_probe_device(struct dmc_device *dev);
int dmc_driver_attach(struct dmc_driver *drv);
void dmc_driver_detach(struct dmc_driver *drv);
void dmc_device_initial_probe(struct dmc_device *dev);
bool dmc_driver_match_device(struct dmc_driver *drv, struct dmc_device *dev);
bool dmc_device_driver_is(struct dmc_device *dev, struct dmc_driver *drv);
bool dmc_device_release_driver_from(struct dmc_device *dev, struct dmc_driver *drv);
void dmc_deferred_kick(void);
int dmc_probe_init(void);
void dmc_probe_exit(void);

/* deferred.c: who waits for what */
void dmc_deferred_copy(struct dmc_device *dev, char *waits, char *reason,
		       size_t size);
int dmc_deferred_init(void);
void dmc_deferred_exit(void);
struct dmc_klist *dmc_deferred_named_list(void);
extern atomic_t dmc_deferred_trigger_count;	/* deferred.c */

/*
 * The trigger count, read before a match or probe that may defer, and
 * given to dmc_deferred_probe_add(): if anything bound since, the device
 * is retried at once. Inline: read on every probe.
 */
static inline int dmc_deferred_triggers(void)
{
	return atomic_read(&dmc_deferred_trigger_count);
}

bool __must_check dmc_deferred_probe_add(struct dmc_device *dev, int trigger,
					 struct dmc_driver *drv);
void dmc_deferred_probe_del(struct dmc_device *dev);
bool __must_check dmc_deferred_trigger(const char *name, bool all_unnamed);
bool __must_check dmc_deferred_trigger_all(void);
struct dmc_device *dmc_deferred_next(void);
void dmc_deferred_drop_driver(struct dmc_driver *drv);
void dmc_clear_waits_for(struct dmc_device *dev);
struct seq_file;
void dmc_deferred_show(struct seq_file *m);	/* the tree's devices_deferred */
unsigned int dmc_deferred_report_pending(void);	/* at the timeout (dd.c) */

/* link.c */

/* A growable array of devices (the explicit stacks of graph searches). */
struct dmc_devvec {
	struct dmc_device **v;
	size_t n;
	size_t cap;
};

int dmc_devvec_push(struct dmc_devvec *vec, struct dmc_device *dev);
void dmc_devvec_free(struct dmc_devvec *vec);
void dmc_devvec_put_all(struct dmc_devvec *vec);
unsigned int dmc_links_new_gen(void);
void dmc_device_links_purge(struct dmc_device *dev);
void __dmc_link_drop_managed(struct dmc_device_link *link);
void dmc_links_flush_dead(void);
void dmc_link_init_status(struct dmc_device_link *link);

/*
 * Nanoseconds since @t, a local_clock() reading: the scheduler's clock,
 * as printk's timestamps and initcall_debug use, cheap on every
 * architecture (ktime_get_ns() reads the clocksource, an emulated HPET
 * under QEMU: a microsecond). Per CPU: a callback that slept and woke on
 * another CPU may read a little early, so a negative span counts as 0.
 */
static inline u64 dmc_clock_since(u64 t)
{
	s64 d = local_clock() - t;

	return d > 0 ? d : 0;
}

/* model_lock.c: the model lock and generation (see there) */
void dmc_model_change_begin(void);
void dmc_model_change_end(void);
void dmc_model_changed(void);
void dmc_model_freeze(void);
void dmc_model_thaw(void);

/* link_state.c: the states of managed links, sync_state() */
const char *dmc_device_link_status_str(const struct dmc_device_link *link);
void dmc_device_link_flags_str(const struct dmc_device_link *link, char *buf,
			       size_t size);

/* A link's state changes under dmc_links_mutex, counted as a model change. */
static inline void dmc_link_set_status(struct dmc_device_link *link,
				       enum dmc_device_link_state st)
{
	WRITE_ONCE(link->status, st);
	dmc_model_changed();
}

int dmc_device_links_check_suppliers(struct dmc_device *dev, char *waits_for,
				     size_t size);
void dmc_device_links_driver_bound(struct dmc_device *dev,
				   struct dmc_devvec *autoprobe,
				   struct dmc_devvec *sync);
void dmc_device_links_call_sync_state(struct dmc_device *dev);
void dmc_device_links_no_driver(struct dmc_device *dev);
bool dmc_device_links_busy(struct dmc_device *dev);
void dmc_device_links_driver_cleanup(struct dmc_device *dev);
struct dmc_device *dmc_links_bound_leaf(struct dmc_device *dev);
bool dmc_device_links_consumers_bound(struct dmc_device *dev);
void dmc_device_links_purge(struct dmc_device *dev);
int dmc_links_depends_on(struct dmc_device *from, struct dmc_device *to);
int dmc_links_reorder_to_tail(struct dmc_device *dev, struct dmc_devvec *held);
void dmc_device_links_show(struct seq_file *m);	/* the tree's device_links */
void dmc_links_set_view(const struct dmc_devlink_view *view);

/* devlink.c: links as devices of class "devlink" */
extern struct dmc_class dmc_devlink_class;
int dmc_devlink_init(void);
void dmc_devlink_exit(void);

/* runtime.c: runtime PM's state machine, its internals for runtime_ops.c */
int dmc_pm_runtime_wq_init(void);
void dmc_pm_runtime_wq_exit(void);
void dmc_pm_runtime_init(struct dmc_device *dev);

/* What dmc_rpm_resume_deps() holds: devices with a usage reference each. */
struct dmc_rpm_held {
	struct dmc_device **devs;	/* referenced, with a usage reference */
	bool *resume;			/* needs a resume, in order */
	size_t n, cap;
};

int dmc_rpm_drop_usage_count(struct dmc_device *dev);
int dmc_rpm_idle(struct dmc_device *dev, int rpmflags);	/* power.lock held */
int dmc_rpm_resume(struct dmc_device *dev, int rpmflags);	/* power.lock held */
void dmc_rpm_wait(struct dmc_dev_pm_info *pw, bool idle_too);	/* ditto */
void __dmc_pm_runtime_barrier(struct dmc_device *dev);	/* ditto */
int dmc_rpm_get_suppliers(struct dmc_device *dev);	/* dmc_links_mutex held */
void __dmc_rpm_put_suppliers(struct dmc_device *dev, bool try_to_suspend);
void dmc_rpm_release_supplier(struct dmc_device_link *link);
int dmc_rpm_resume_deps(struct dmc_device *dev, bool parent_too,
			struct dmc_rpm_held *h);
void dmc_rpm_held_release(struct dmc_rpm_held *h);

/* runtime_ops.c: the hooks of device del, probe, unbind, links, sleep */
void dmc_pm_runtime_remove(struct dmc_device *dev);
void dmc_pm_runtime_reinit(struct dmc_device *dev);
void dmc_pm_runtime_probe_begin(struct dmc_device *dev);
void dmc_pm_runtime_probe_end(struct dmc_device *dev);
void dmc_pm_runtime_link_add(struct dmc_device_link *link);
void dmc_pm_runtime_link_merge(struct dmc_device_link *link, u32 flags);
bool dmc_pm_runtime_move_begin(struct dmc_device *dev, struct dmc_device *np);
void dmc_pm_runtime_set_parent(struct dmc_device *dev, struct dmc_device *np);
void dmc_pm_runtime_move_end(struct dmc_device *dev, struct dmc_device *old,
			     struct dmc_device *np, bool active, bool moved);
void dmc_pm_runtime_link_added(struct dmc_device *supplier, u32 flags);
void dmc_pm_runtime_link_del(struct dmc_device_link *link);
bool dmc_pm_runtime_sleep_begin(struct dmc_device *dev);
void dmc_pm_runtime_sleep_end(struct dmc_device *dev);
extern struct dmc_device_attribute dmc_dev_attr_runtime_status;
extern struct dmc_device_attribute dmc_dev_attr_control;
extern struct dmc_device_attribute dmc_dev_attr_runtime_usage;
extern struct dmc_device_attribute dmc_dev_attr_runtime_active_kids;
extern struct dmc_device_attribute dmc_dev_attr_runtime_enabled;
extern struct dmc_device_attribute dmc_dev_attr_autosuspend_delay_ms;

/* power.c */
void dmc_dpm_add(struct dmc_device *dev);
void dmc_dpm_remove(struct dmc_device *dev);
void dmc_dpm_move_last(struct dmc_device *dev);
void dmc_pm_transition_lock(void);
void dmc_pm_transition_unlock(void);
bool dmc_dpm_comes_before(struct dmc_device *a, struct dmc_device *b);
struct dmc_device **dmc_dpm_snapshot(void);
extern struct mutex dmc_links_mutex;
extern struct mutex dmc_dpm_mutex;	/* the power order (power.c) */
extern struct list_head dmc_dpm_list;	/* under dmc_dpm_mutex */
extern struct list_head dmc_dpm_suspended;	/* its continuation, ditto */

/* The roots of the tree, made at load by dm_core.c's dmc_roots_init() */
extern struct dmc_kset *dmc_devices_kset;	/* device_sysfs.c */
extern struct dmc_kobject *dmc_virtual_dir;	/* device_sysfs.c */
extern struct dmc_kset *dmc_bus_kset;		/* subsys.c */
extern struct dmc_kset *dmc_class_kset;		/* subsys.c */
int dmc_devices_kset_init(void);
void dmc_devices_kset_exit(void);
int dmc_buses_init(void);
void dmc_buses_exit(void);
int dmc_classes_init(void);
void dmc_classes_exit(void);

#endif /* _DMCORE_BASE_H */
