# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash
# A private single-node Slurm for the e2e tests. Source it after lib.sh:
#     . "$(dirname "$0")/lib.sh" "$@"
#     . "$(dirname "$0")/slurm_lib.sh"
#     slurm_start 16        # skips (77) with the reason where Slurm cannot run
#     srun --mpi=pmix -n 4 ...
#
# Everything lives under $TMPD/slurm: its own munged (own key and socket:
# the host's munge key and daemon are neither read nor touched), a
# slurm.conf naming this host as the one node with CPUS CPUs
# (SlurmdParameters=config_overrides lets it claim more than the host has,
# OverSubscribe=FORCE lets ranks share them), its own state, spool and log
# dirs, and two ports that were free. SLURM_CONF is exported, so srun,
# sinfo and squeue find it; the caller's SLURM_* variables (a test run
# inside a site's job) are dropped first.
#
#   slurm_need            skip (77) unless root, Slurm and munge are there.
#   slurm_start CPUS      slurm_need, then munged, slurmctld and slurmd
#                         (foreground, pid files, in lib.sh's process
#                         groups), waits (<= CXD_SLURM_WAIT_S, 30 s) for
#                         the node to be idle (else fails, showing the
#                         daemons' logs); skips if srun --mpi=list has no
#                         pmix.
#   slurm_jobs            the jobs still known to slurmctld, one a line;
#                         slurm_no_job: it answers and knows none.
#   slurm_wait SECS CMD.. wait_until with a wall-clock deadline (for CMDs
#                         that are Slurm commands, which may take seconds).
#   slurm_stop            cancels the jobs, stops the daemons: SIGTERM, and
#                         SIGKILL for what is there 10 s later (listed in
#                         CXD_SLURM_LATE, "PID NAME;" each); CXD_SLURM_LEFT:
#                         what is left even then (empty: all gone).
#   slurm_stray           this Slurm's daemons, slurmstepds and tasks (pids).
#   CXD_SLURM_DIR, CXD_SLURM_LOGS (files to show on failure).
#   CXD_SLURM_NODE        the node's Slurm name (set before slurm_start;
#                         default the host name): another name shows what
#                         is named by Slurm (SLURMD_NODENAME) and what by
#                         the host.
#   CXD_SLURM_EXTRA       lines added to slurm.conf (set before slurm_start),
#                         e.g. PrologSlurmctld=FILE.
#
# Teardown (lib.sh's EXIT trap, also when the test fails): the daemons'
# groups are killed by lib.sh; then what slurm_stray finds (slurmstepd
# leaves slurmd's group, and the tasks are its children) is killed; TMPD
# with the dirs is removed by lib.sh.

CXD_SLURM_WAIT_S=${CXD_SLURM_WAIT_S:-30}
CXD_SLURM_DIR=$TMPD/slurm
# In the daemons' environment, so in every slurmstepd's (not the tasks':
# slurmstepd builds theirs from srun's): how teardown finds them.
_slurm_mark="CXD_SLURM_RUN=$TMPD"
CXD_SLURM_LOGS=()

slurm_need() {
	local c
	[ "$(id -u)" -eq 0 ] ||
		skip "Slurm tests need root (slurmd runs jobs as any user)"
	for c in srun sinfo squeue scancel slurmctld slurmd munged munge; do
		command -v "$c" >/dev/null ||
			skip "$c not found (Debian: slurm-wlm, munge; scripts/deps.sh)"
	done
}

# munged insists that every dir above its socket is searchable by all
# (the key stays readable by root only).
_slurm_munge() {
	local m=$CXD_SLURM_DIR/munge
	chmod go+x "$TMPD" "$CXD_SLURM_DIR"
	mkdir -m 711 "$m"
	mkdir -m 755 "$m/run"
	head -c 1024 /dev/urandom >"$m/key"
	chmod 400 "$m/key"
	start_bg munged munged -F --socket="$m/run/socket" \
		--key-file="$m/key" --pid-file="$m/munged.pid" \
		--seed-file="$m/seed" --num-threads=2
	CXD_SLURM_LOGS+=("$BG_ERR")
	_slurm_munged=$BG_PID
	_slurm_munge_up() { munge -n -S "$m/run/socket" >/dev/null 2>&1; }
	slurm_wait 10 _slurm_munge_up ||
		die "munged did not answer within 10 s: $(tail -3 "$BG_ERR")"
}

# _slurm_conf CPUS CTLD_PORT SLURMD_PORT
_slurm_conf() {
	local d=$CXD_SLURM_DIR host node
	host=$(hostname -s)
	node=${CXD_SLURM_NODE:-$host}
	mkdir -p "$d/state" "$d/spool" "$d/tmp" "$d/log"
	cat >"$d/slurm.conf" <<-EOF
	ClusterName=cxdtest
	SlurmctldHost=$host(127.0.0.1)
	SlurmctldPort=$2
	SlurmdPort=$3
	SlurmUser=root
	SlurmdUser=root
	AuthType=auth/munge
	CredType=cred/munge
	AuthInfo=socket=$d/munge/run/socket
	StateSaveLocation=$d/state
	SlurmdSpoolDir=$d/spool
	TmpFS=$d/tmp
	SlurmctldPidFile=$d/slurmctld.pid
	SlurmdPidFile=$d/slurmd.pid
	SlurmctldLogFile=$d/log/slurmctld.log
	SlurmdLogFile=$d/log/slurmd.log
	MailProg=/bin/true
	ProctrackType=proctrack/linuxproc
	TaskPlugin=task/none
	SelectType=select/cons_tres
	SelectTypeParameters=CR_Core
	SchedulerType=sched/builtin
	MpiDefault=none
	ReturnToService=2
	SlurmdParameters=config_overrides
	JobCompType=jobcomp/none
	AccountingStorageType=accounting_storage/none
	JobAcctGatherType=jobacct_gather/none
	NodeName=$node NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$1 State=UNKNOWN
	PartitionName=cxd Nodes=$node Default=YES OverSubscribe=FORCE:$1
	EOF
	[ -z "${CXD_SLURM_EXTRA:-}" ] ||
		printf '%s\n' "$CXD_SLURM_EXTRA" >>"$d/slurm.conf"
}

_slurm_idle() {
	timeout -k 1 3 sinfo -h -N -o %T 2>/dev/null | grep -qx idle
}

# slurm_wait SECS CMD...: runs CMD every 0.2 s until it succeeds (0) or
# SECS of wall time have passed (1): a Slurm command may itself take
# seconds, so the bound is a deadline, not a count of tries.
slurm_wait() {
	local end=$(($(date +%s) + $1))
	shift
	until "$@"; do
		[ "$(date +%s)" -lt "$end" ] || return 1
		sleep 0.2
	done
}

# _slurm_up: the node is idle, or a daemon died (then _slurm_idle says
# which of the two).
_slurm_up() {
	_slurm_idle ||
		! pid_alive "$_slurm_ctld" || ! pid_alive "$_slurm_slurmd"
}

# _slurm_kill_stray: kill -9 what carries this run's marker (teardown).
_slurm_kill_stray() {
	local p
	for p in $(slurm_stray); do kill -CONT "$p"; kill -9 "$p"; done
}

# slurm_stray: this run's daemons and slurmstepds (they carry the marker)
# and their descendants (the tasks: their environment is built by
# slurmstepd, from srun's, so it lacks the marker).
slurm_stray() {
	local f p seen=" " list=()
	# grep -z: the environment's entries end with NUL, not newline.
	for f in $(grep -lzxF "$_slurm_mark" /proc/[0-9]*/environ 2>/dev/null); do
		p=${f#/proc/}
		p=${p%/environ}
		[ "$p" != "$$" ] && [ "$p" != "$BASHPID" ] && list+=("$p")
	done
	while [ ${#list[@]} -gt 0 ]; do
		p=${list[0]}
		list=("${list[@]:1}")
		[[ $seen == *" $p "* ]] && continue
		seen+="$p "
		pid_alive "$p" || continue
		echo "$p"
		# shellcheck disable=SC2207
		list+=($(pgrep -P "$p"))
	done
	return 0
}

# slurm_jobs: non-zero when squeue fails (no answer is not "no job").
slurm_jobs() {
	timeout -k 1 3 squeue -h -o '%i %T %j' 2>/dev/null
}

# slurm_no_job: slurmctld answers and knows no job.
slurm_no_job() {
	local j
	j=$(slurm_jobs) && [ -z "$j" ]
}

_slurm_gone() { [ -z "$(slurm_stray)" ] && ! pid_alive "$_slurm_munged"; }

# _slurm_list: "PID NAME;" for each process of this Slurm still there.
_slurm_list() {
	local p
	for p in $(slurm_stray); do
		printf '%s %s;' "$p" "$(cat "/proc/$p/comm" 2>/dev/null)"
	done
	pid_alive "$_slurm_munged" && printf '%s munged;' "$_slurm_munged"
	return 0
}

slurm_stop() {
	timeout -k 1 5 scancel --partition=cxd >/dev/null 2>&1
	slurm_wait 10 slurm_no_job
	kill -TERM "$_slurm_ctld" "$_slurm_slurmd" "$_slurm_munged" 2>/dev/null
	slurm_wait 10 _slurm_gone
	CXD_SLURM_LATE=$(_slurm_list)
	_slurm_kill_stray
	kill -9 "$_slurm_munged" 2>/dev/null
	slurm_wait 5 _slurm_gone
	CXD_SLURM_LEFT=$(_slurm_list)
}

slurm_start() {
	local cpus=$1 try ctld_port slurmd_port v why
	slurm_need
	for v in $(compgen -e | grep -E '^(SLURM|SALLOC|SBATCH|SRUN)_'); do
		unset "$v"
	done
	export SLURM_CONF=$CXD_SLURM_DIR/slurm.conf
	mkdir -p "$CXD_SLURM_DIR"
	on_exit _slurm_kill_stray
	_slurm_munge
	# A free port may be taken before the daemon binds it: then it
	# exits at once, and another pair is tried.
	for try in 1 2 3; do
		why="no two free ports"
		ctld_port=$(free_port)
		slurmd_port=$(free_port)
		[ "$ctld_port" != "$slurmd_port" ] || continue
		_slurm_conf "$cpus" "$ctld_port" "$slurmd_port"
		start_bg slurmctld env "$_slurm_mark" slurmctld -D -i -f "$SLURM_CONF"
		_slurm_ctld=$BG_PID
		CXD_SLURM_LOGS+=("$BG_ERR")
		start_bg slurmd env "$_slurm_mark" slurmd -D -f "$SLURM_CONF"
		_slurm_slurmd=$BG_PID
		CXD_SLURM_LOGS+=("$BG_ERR")
		slurm_wait "$CXD_SLURM_WAIT_S" _slurm_up && _slurm_idle &&
			{ why=; break; }
		why="node not idle within $CXD_SLURM_WAIT_S s"
		pid_alive "$_slurm_ctld" || why="slurmctld exited"
		pid_alive "$_slurm_slurmd" || why="slurmd exited"
		kill -9 -- "-$_slurm_ctld" "-$_slurm_slurmd" 2>/dev/null
		grep -qi 'address already in use' "${CXD_SLURM_LOGS[@]}" || break
	done
	[ -z "$why" ] || {
		fail "Slurm did not come up: $why"
		show "${CXD_SLURM_LOGS[@]}" "$CXD_SLURM_DIR/log/slurmctld.log" \
			"$CXD_SLURM_DIR/log/slurmd.log"
		finish
	}
	CXD_SLURM_LOGS+=("$CXD_SLURM_DIR/log/slurmctld.log"
		"$CXD_SLURM_DIR/log/slurmd.log")
	# srun reads the plugin list from the configuration: asked only now.
	timeout -k 1 10 srun --mpi=list 2>&1 | grep -qw pmix ||
		skip "this Slurm has no pmix MPI plugin (srun --mpi=list)"
	pass "Slurm up: node ${CXD_SLURM_NODE:-$(hostname -s)} idle, $cpus CPUs," \
		"ports $ctld_port/$slurmd_port"
}
