// SPDX-License-Identifier: GPL-2.0
/*
 * mm_tiering DAMON access layer: resolve unexported symbols at load time.
 *
 * mm/damon exports nothing, so a module cannot link against damon_start()
 * and friends.  For each function we need, a kprobe is registered disabled
 * (it is never armed: registration only looks the symbol up and checks that
 * it is kernel text) and unregistered at once; its address is then installed
 * as the target of a static call.
 *
 * Why static calls and not function pointers: with CONFIG_X86_KERNEL_IBT
 * (Debian's default) the kernel seals every function whose address is never
 * taken in the kernel image by overwriting its ENDBR instruction at boot.  An
 * indirect call into such a function raises #CP and oopses on IBT hardware.
 * static_call_update() patches each call site into a direct CALL, which IBT
 * does not check.  Only this file touches symbol addresses; the rest of the
 * module uses mmt_call(fn)(...).  See Documentation/damon-symbols.rst.
 */
#define pr_fmt(fmt) "mm_tiering: " fmt

#include <linux/kprobes.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/static_call.h>

#include "mmt_damon.h"

DEFINE_STATIC_CALL_NULL(mmt_damon_initialized, damon_initialized);
DEFINE_STATIC_CALL_NULL(mmt_damon_new_ctx, damon_new_ctx);
DEFINE_STATIC_CALL_NULL(mmt_damon_destroy_ctx, damon_destroy_ctx);
DEFINE_STATIC_CALL_NULL(mmt_damon_select_ops, damon_select_ops);
DEFINE_STATIC_CALL_NULL(mmt_damon_set_attrs, damon_set_attrs);
DEFINE_STATIC_CALL_NULL(mmt_damon_new_target, damon_new_target);
DEFINE_STATIC_CALL_NULL(mmt_damon_add_target, damon_add_target);
DEFINE_STATIC_CALL_NULL(mmt_damon_set_regions, damon_set_regions);
DEFINE_STATIC_CALL_NULL(mmt_damon_new_scheme, damon_new_scheme);
DEFINE_STATIC_CALL_NULL(mmt_damon_set_schemes, damon_set_schemes);
DEFINE_STATIC_CALL_NULL(mmt_damos_new_quota_goal, damos_new_quota_goal);
DEFINE_STATIC_CALL_NULL(mmt_damos_add_quota_goal, damos_add_quota_goal);
DEFINE_STATIC_CALL_NULL(mmt_damos_new_filter, damos_new_filter);
DEFINE_STATIC_CALL_NULL(mmt_damos_add_filter, damos_add_filter);
DEFINE_STATIC_CALL_NULL(mmt_damon_commit_ctx, damon_commit_ctx);
DEFINE_STATIC_CALL_NULL(mmt_damon_start, damon_start);
DEFINE_STATIC_CALL_NULL(mmt_damon_stop, damon_stop);
DEFINE_STATIC_CALL_NULL(mmt_damon_is_running, damon_is_running);
DEFINE_STATIC_CALL_NULL(mmt_damon_kdamond_pid, damon_kdamond_pid);
DEFINE_STATIC_CALL_NULL(mmt_damon_call, damon_call);

struct mmt_sym {
	const char *name;
	struct static_call_key *key;
	void *tramp;
};

#define MMT_SYM(fn) {							\
	.name = #fn,							\
	.key = &STATIC_CALL_KEY(mmt_##fn),				\
	.tramp = STATIC_CALL_TRAMP_ADDR(mmt_##fn),			\
}

/* Must list every static call defined above. */
static const struct mmt_sym mmt_syms[] = {
	MMT_SYM(damon_initialized),
	MMT_SYM(damon_new_ctx),
	MMT_SYM(damon_destroy_ctx),
	MMT_SYM(damon_select_ops),
	MMT_SYM(damon_set_attrs),
	MMT_SYM(damon_new_target),
	MMT_SYM(damon_add_target),
	MMT_SYM(damon_set_regions),
	MMT_SYM(damon_new_scheme),
	MMT_SYM(damon_set_schemes),
	MMT_SYM(damos_new_quota_goal),
	MMT_SYM(damos_add_quota_goal),
	MMT_SYM(damos_new_filter),
	MMT_SYM(damos_add_filter),
	MMT_SYM(damon_commit_ctx),
	MMT_SYM(damon_start),
	MMT_SYM(damon_stop),
	MMT_SYM(damon_is_running),
	MMT_SYM(damon_kdamond_pid),
	MMT_SYM(damon_call),
};

/* Optional: read to warn about NUMA balancing; absent means "unknown". */
static int *mmt_numa_balancing_ptr;
DEFINE_STATIC_CALL_NULL(mmt_kallsyms_lookup_name, kallsyms_lookup_name);

static void *mmt_lookup(const char *name)
{
	struct kprobe kp = {
		.symbol_name = name,
		.flags = KPROBE_FLAG_DISABLED,
	};
	void *addr;

	if (register_kprobe(&kp))
		return NULL;
	addr = kp.addr;
	unregister_kprobe(&kp);
	return addr;
}

/*
 * Test hook: one more symbol that must resolve, so that the refusal path can
 * be exercised on a kernel that has every DAMON symbol.  Load time only.
 */
static char *require_symbol;
module_param(require_symbol, charp, 0400);
MODULE_PARM_DESC(require_symbol,
	"Testing: refuse to load unless this symbol also resolves");

/**
 * mmt_damon_resolve() - point every static call at its DAMON function.
 *
 * Return: 0, or -ENOENT after naming each missing symbol in the log; then
 * no static call was updated and the module must not load.
 */
int mmt_damon_resolve(void)
{
	void *addrs[ARRAY_SIZE(mmt_syms)];
	int i, missing = 0;
	void *addr;

	for (i = 0; i < ARRAY_SIZE(mmt_syms); i++) {
		addrs[i] = mmt_lookup(mmt_syms[i].name);
		if (!addrs[i]) {
			pr_err("cannot resolve DAMON symbol %s\n",
			       mmt_syms[i].name);
			missing++;
		}
	}
	if (require_symbol && !mmt_lookup(require_symbol)) {
		pr_err("cannot resolve required symbol %s\n", require_symbol);
		missing++;
	}
	if (missing) {
		pr_err("%d symbol(s) missing: this kernel lacks CONFIG_DAMON_PADDR or has an incompatible DAMON; not loading\n",
		       missing);
		return -ENOENT;
	}
	for (i = 0; i < ARRAY_SIZE(mmt_syms); i++)
		__static_call_update(mmt_syms[i].key, mmt_syms[i].tramp,
				     addrs[i]);

	addr = mmt_lookup("kallsyms_lookup_name");
	if (addr) {
		static_call_update(mmt_kallsyms_lookup_name,
				   (typeof(&kallsyms_lookup_name))addr);
		mmt_numa_balancing_ptr = (int *)static_call(
			mmt_kallsyms_lookup_name)("sysctl_numa_balancing_mode");
	}
	return 0;
}

/* NUMA balancing mode (the numa_balancing sysctl), or -1 if unknown. */
int mmt_numa_balancing_mode(void)
{
	return mmt_numa_balancing_ptr ? READ_ONCE(*mmt_numa_balancing_ptr) : -1;
}
