/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: the schedule said (out_sched.h). */
#include <stdio.h>
#include <string.h>

#include "out_sched.h"

const char *cxd_out_sched_kind(const struct cxd_sched_choice *ch)
{
	if (ch->why == CXD_SCHED_WHY_NONE)
		return "";
	return ch->kind == CXD_SCHED_ROUNDS ? "rounds" : "shared links";
}

/* Plain rounds: why not the shared-links schedule. */
static void say_rounds(const struct cxd_sched_choice *ch, char *buf,
		       size_t len)
{
	bool one = ch->why == CXD_SCHED_WHY_ONE_DOM;

	if (ch->why == CXD_SCHED_WHY_ONE_PAIR)
		snprintf(buf, len, "rounds: one pair at a time");
	else if (ch->why == CXD_SCHED_WHY_NO_TOPO)
		snprintf(buf, len, "rounds: every pair of a round at once (no "
			 "--topology: which pairs share links is not known)");
	else
		snprintf(buf, len, "rounds: every pair of a round at once "
			 "(--topology places the ranks in %d %s%s%s)", ch->nd,
			 ch->groups ? "group" : "switch",
			 one ? "" : ch->groups ? "s" : "es",
			 one ? "" : ", too many to track");
}

/* How the bandwidth pass is dealt or chained; %s: the units. */
static const char *const how_words[] = {
	[CXD_SCHED_WHY_DEALT] = "dealt into slots",
	[CXD_SCHED_WHY_UNDEALT_ROUND] = "in chained rounds (not dealt: fewer "
					"pairs at once than a round)",
	[CXD_SCHED_WHY_UNDEALT_PLACE] = "in chained rounds (not dealt: some "
					"ranks are not placed)",
	[CXD_SCHED_WHY_UNDEALT_MANY] = "in chained rounds (not dealt: over "
				       "40,000 %s, or ranks in one)",
	[CXD_SCHED_WHY_UNDEALT_ONE] = "in chained rounds",
};

/* The shared-links schedule, dealt or chained by domain pair. */
static void say_shared(const struct cxd_sched_choice *ch, char *buf,
		       size_t len)
{
	const char *unit = ch->groups ? "group" : "switch";
	char how[128];

	if (ch->why == CXD_SCHED_WHY_NESTED) {
		snprintf(buf, len, "shared links: latency in full rounds, "
			 "then bandwidth within each group with one pair at a "
			 "time per switch pair, then across groups with one "
			 "pair at a time per group pair and %d per group (its "
			 "switch links), each dealt into slots, as --topology "
			 "places the ranks on %d switches in %d groups",
			 ch->cap, ch->nswitch, ch->nd);
		return;
	}
	snprintf(how, sizeof(how), how_words[ch->why],
		 ch->groups ? "groups" : "switches");
	snprintf(buf, len, "shared links: latency in full rounds, then "
		 "bandwidth with one pair at a time per %s pair%s, %s, as "
		 "--topology places the ranks in %d %s%s", unit,
		 ch->cap_links ? " and as many per switch as its narrowest "
		 "uplink carries (a hash may put them all on it)" :
		 ch->cap > 0 ? " and as many per switch as its uplinks carry" :
		 "", how, ch->nd, unit, ch->groups ? "s" : "es");
}

/* The bandwidth pass packed by routes (sched_routed.h). */
static void say_routed(const struct cxd_sched_choice *ch, char *buf,
		       size_t len)
{
	char took[128] = "";

	if (ch->routed_s > 0)
		snprintf(took, sizeof(took), ", %.3g s against at least "
			 "%.3g s at %.3g ms a pair, packed in %.2g CPU s",
			 ch->routed_s, ch->routed_bound * ch->routed_pair_s,
			 1e3 * ch->routed_pair_s, ch->routed_cpu_s);
	snprintf(buf, len, "shared links: latency in full rounds, then "
		 "bandwidth by the routes, %d rounds one after the other, no "
		 "link carrying more pairs than its cables (a pair counted on "
		 "every link it may take; at least %d rounds by the busiest "
		 "link or rank%s; the dealt plan's %d slots), as --topology's "
		 "links join the ranks' %d switches", ch->routed_rounds,
		 ch->routed_bound, took, ch->dealt_rounds, ch->nswitch);
}

/* A routed pass found crowded, then dealt. */
static void say_dropped(const struct cxd_sched_choice *ch, char *buf,
			size_t len)
{
	size_t at = strlen(buf);

	if (ch->routed_dropped)
		snprintf(buf + at, len - at, "; by the routes (%d rounds) "
			 "crowded (alone %+.0f %%, median): measured again so",
			 ch->routed_rounds, 100 * ch->routed_crowd);
}

/* The narrowings after the sentence: the first says why, the rest how
 * far. */
static void say_narrowed(const struct cxd_sched_choice *ch, char *buf,
			 size_t len)
{
	for (int i = 0; i < ch->nnarrow; i++) {
		const struct cxd_sched_narrow *nw = &ch->narrow[i];
		size_t at = strlen(buf);

		if (i > 0)
			snprintf(buf + at, len - at, ", at %d (%+.0f %%) again "
				 "at %d", nw->was, 100 * nw->crowd, nw->cap);
		else
			snprintf(buf + at, len - at, "; crowded across %s at "
				 "%d pairs at once per %s (alone %+.0f %%, "
				 "median): measured again at %d",
				 ch->groups ? "groups" : "switches", nw->was,
				 ch->groups ? "group" : "switch",
				 100 * nw->crowd, nw->cap);
	}
}

void cxd_out_sched(const struct cxd_sched_choice *ch, char *buf, size_t len)
{
	if (len == 0)
		return;
	buf[0] = '\0';
	if (ch->why == CXD_SCHED_WHY_NONE)
		return;
	if (ch->kind == CXD_SCHED_ROUNDS)
		say_rounds(ch, buf, len);
	else if (ch->routed)
		say_routed(ch, buf, len);
	else
		say_shared(ch, buf, len);
	say_dropped(ch, buf, len);
	say_narrowed(ch, buf, len);
}
