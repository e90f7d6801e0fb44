#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# What the tests leave behind: network links and namespaces, files in
# /dev/shm, processes. `make check` and `make test` run their suite
# through it:
#
#   bash tests/leftovers.sh -- CMD ARGS...
#
# takes a snapshot, runs CMD, and compares: what is there after and was not
# before is listed ("leftover: KIND WHAT", one a line) and the exit status
# is 1 (CMD's own, when that was not 0). What was there before the run (a
# site's slurmd, another user's libfabric shm files) does not count.
#
#   links      `ip -o link` names in this (the root) namespace
#   netns      `ip netns list`
#   /dev/shm   entries owned by this user, less those open or mapped by a
#              process the run did not start, or changed after the run
#              ended (another job's, on a shared host: in use, so not left
#              behind)
#   processes  those the run started: CMD runs with CXD_LEFTOVERS_RUN=TOKEN
#              in its environment and every process inherits it (mpirun's
#              ranks, the private Slurm's daemons and tasks, servers in a
#              namespace); a live process carrying TOKEN after CMD ended is
#              a leftover, whatever its name. Nested runs (`make test` runs
#              `make check`) share the outer TOKEN; this script's own
#              ancestors and children are not counted.
#
# What is found is rechecked for up to LEFTOVERS_GRACE_S (3) seconds: a
# process killed by a test's last cleanup may need a moment to go, and
# only what was there at the end of the run and still is at the end of
# that time is listed.
# Links and namespaces carry no owner: on a host shared with other test
# runs, what those make while this one runs is listed too (run the suite
# alone, as CI does).
set -u

GRACE=${LEFTOVERS_GRACE_S:-3}
ME=$$

links() {
	command -v ip >/dev/null || return 0
	ip -o link show 2>/dev/null | awk -F': ' '{ sub(/@.*/, "", $2); print "link " $2 }'
	ip netns list 2>/dev/null | awk '{ print "netns " $1 }'
}

# shm [MARK]: with MARK (a file touched when the run ended), less what was
# changed since: the run's processes are gone by then (or listed), so a
# file still being written is another job's.
shm() {
	local newer=()
	[ -d /dev/shm ] || return 0
	[ -z "${1:-}" ] || newer=(-not -newer "$1")
	find /dev/shm -mindepth 1 -maxdepth 1 -user "$(id -u)" "${newer[@]}" \
		-printf 'shm /dev/shm/%f\n' 2>/dev/null
}

# mine PID: PID is this script, one of its ancestors or one of its
# children (its own pipelines and command substitutions).
mine() {
	local p=$1 q
	q=$ME
	while [ -n "$q" ] && [ "$q" -gt 1 ]; do # an ancestor (or me)
		[ "$q" = "$p" ] && return 0
		q=$(awk '/^PPid:/ { print $2 }' "/proc/$q/status" 2>/dev/null)
	done
	q=$p
	while [ -n "$q" ] && [ "$q" -gt 1 ]; do # a descendant
		[ "$q" = "$ME" ] && return 0
		q=$(awk '/^PPid:/ { print $2 }' "/proc/$q/status" 2>/dev/null)
	done
	return 1
}

procs() {
	local f p st
	[ -n "${CXD_LEFTOVERS_RUN:-}" ] || return 0
	# grep -z: environ entries end with NUL.
	for f in $(grep -lzxF "CXD_LEFTOVERS_RUN=$CXD_LEFTOVERS_RUN" /proc/[0-9]*/environ 2>/dev/null); do
		p=${f#/proc/}
		p=${p%/environ}
		st=$(sed 's/^.*) //' "/proc/$p/stat" 2>/dev/null) || continue
		[ -n "$st" ] && [ "${st%% *}" != Z ] || continue
		mine "$p" && continue
		echo "process $p $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | cut -c1-120)"
	done
}

# ours PID: PID carries this run's token.
ours() {
	[ -n "${CXD_LEFTOVERS_RUN:-}" ] &&
		grep -qzxF "CXD_LEFTOVERS_RUN=$CXD_LEFTOVERS_RUN" "/proc/$1/environ" 2>/dev/null
}

# shm_busy: "shm PATH" for each /dev/shm file a process the run did not
# start has open or mapped.
shm_busy() {
	local pid path
	{
		awk '$6 ~ /^\/dev\/shm\// { split(FILENAME, p, "/"); print p[3], $6 }' \
			/proc/[0-9]*/maps 2>/dev/null
		find /proc/[0-9]*/fd -lname '/dev/shm/*' -printf '%h %l\n' 2>/dev/null |
			sed 's|^/proc/\([0-9]*\)/fd |\1 |'
	} | sort -u | while read -r pid path; do
		[ "$pid" != "$ME" ] && ! ours "$pid" && echo "shm $path"
	done | sort -u
}

snapshot() { { links; shm; } | sort -u; }

# new BEFORE: what is there now and not in BEFORE (processes: all).
new() {
	local busy
	busy=$(shm_busy)
	{ links; shm "$1.end"; } | sort -u | comm -13 "$1" - |
		comm -23 - <(echo "$busy" | sort -u)
	procs
}

compare() {
	local before=$1 left first n
	touch "$before.end"
	left=$(new "$before")
	first=$left
	n=$((SECONDS + GRACE))
	while [ -n "$left" ] && [ "$SECONDS" -lt "$n" ]; do
		sleep 0.2
		# what was there at the end of the run and still is
		left=$(new "$before" | grep -xF -f <(echo "$first"))
	done
	if [ -n "$left" ]; then
		echo "leftovers: the tests left $(echo "$left" | wc -l) thing(s) behind:" >&2
		echo "$left" | sed 's/^/leftover: /' >&2
		return 1
	fi
	echo "leftovers: none (links, namespaces, /dev/shm, processes)"
}

case ${1:-} in
--)
	shift
	[ $# -gt 0 ] || { echo "usage: $0 -- CMD ARGS..." >&2; exit 2; }
	before=$(mktemp "${TMPDIR:-/tmp}/cxd-leftovers.XXXXXX")
	trap 'rm -f "$before" "$before.end"' EXIT
	snapshot >"$before"
	export CXD_LEFTOVERS_RUN=${CXD_LEFTOVERS_RUN:-$ME.$(date +%s%N)}
	"$@"
	rc=$?
	compare "$before" || { [ "$rc" != 0 ] || rc=1; }
	exit "$rc"
	;;
*)
	echo "usage: $0 -- CMD ARGS..." >&2
	exit 2
	;;
esac
