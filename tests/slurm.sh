# SPDX-License-Identifier: GPL-2.0-or-later
# A single-node Slurm on this machine, for tests/t0410-slurm.sh and
# bench/executors: munged with its own key and socket, slurmctld and slurmd
# with a generated slurm.conf (no accounting, no cgroups), everything under
# one scratch directory, on free ports so two at once do not collide.
#
#   slurm_start DIR    start it; 0 when a job ran, else 1 with the reason in
#                      $slurm_why (what is missing, or the daemon's log tail);
#                      exports SLURM_CONF for sbatch, squeue, scancel
#   slurm_stop         stop what slurm_start started, by its PIDs
# Needs root (slurmd runs jobs as any user) and Debian's slurm-wlm and munge.

slurm_pids=
slurm_why=

# slurm_free_port: a random port P with P and P + 1 free of listeners (ss
# from iproute2 where there is one); a race with another program is possible
# but only makes the start fail, saying so
slurm_free_port() {
	local p
	for _ in $(seq 50); do
		p=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 30000))
		if ! command -v ss >/dev/null 2>&1 ||
		   [ -z "$(ss -Htln "( sport = :$p or sport = :$((p + 1)) )" 2>/dev/null)" ]; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

slurm_start() {
	local dir=$1 c port cpus mem host i
	slurm_why=
	for c in munged slurmctld slurmd sbatch squeue sinfo scontrol scancel; do
		command -v "$c" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin
		command -v "$c" >/dev/null 2>&1 ||
			{ slurm_why="needs:slurm-wlm,munge ($c missing)"; return 1; }
	done
	[ "$(id -u)" -eq 0 ] || { slurm_why="needs:root (slurmd runs the jobs)"; return 1; }
	dir=$(mkdir -p "$dir" && cd "$dir" && pwd) || { slurm_why="cannot create '$1'"; return 1; }
	mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"
	chmod 700 "$dir/munge"

	# munge: a key of our own (munged wants it 0600 and owned by its user)
	dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null
	chmod 600 "$dir/munge/munge.key"
	munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/socket" \
		--pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
		--seed-file="$dir/munge/seed" 2>"$dir/log/munged.err" ||
		{ slurm_why="munged did not start: $(tail -n 2 "$dir/log/munged.err" | tr '\n' ' ')"; return 1; }
	for i in $(seq 50); do [ -s "$dir/munge/munged.pid" ] && break; sleep 0.1; done
	slurm_pids="$(cat "$dir/munge/munged.pid" 2>/dev/null)"

	port=$(slurm_free_port) || { slurm_why="no free TCP port"; return 1; }
	cpus=$(nproc)
	mem=$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
	host=$(hostname -s)
	cat > "$dir/slurm.conf" <<EOF
ClusterName=kbenchtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
# a test cluster: schedule at once, not every few seconds
SchedulerParameters=sched_min_interval=100000,bf_interval=1
MpiDefault=none
ReturnToService=2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=5
Waittime=0
NodeName=$host NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
# a node that never comes up, in a partition of its own with this one: a
# partition of two nodes, for the check of a filesystem every node sees
NodeName=ghost NodeAddr=127.0.0.2 NodeHostname=ghost CPUs=1 RealMemory=64 State=DOWN
PartitionName=two Nodes=$host,ghost Default=NO MaxTime=INFINITE State=UP
EOF
	export SLURM_CONF="$dir/slurm.conf"
	slurmctld -i -f "$SLURM_CONF" 2>"$dir/log/slurmctld.err" ||
		{ slurm_why="slurmctld did not start: $(tail -n 3 "$dir/log/slurmctld.log" "$dir/log/slurmctld.err" 2>/dev/null | tr '\n' ' ')"; return 1; }
	for i in $(seq 50); do [ -s "$dir/slurmctld.pid" ] && break; sleep 0.1; done
	slurm_pids="$slurm_pids $(cat "$dir/slurmctld.pid" 2>/dev/null)"
	slurmd -f "$SLURM_CONF" 2>"$dir/log/slurmd.err" ||
		{ slurm_why="slurmd did not start: $(tail -n 3 "$dir/log/slurmd.log" "$dir/log/slurmd.err" 2>/dev/null | tr '\n' ' ')"; return 1; }
	for i in $(seq 50); do [ -s "$dir/slurmd.pid" ] && break; sleep 0.1; done
	slurm_pids="$slurm_pids $(cat "$dir/slurmd.pid" 2>/dev/null)"

	# up when the node is idle and a job really runs
	for i in $(seq 300); do
		sinfo -h -o %t 2>/dev/null | grep -q idle && break
		sleep 0.1
	done
	if ! sbatch --parsable --wait -o "$dir/log/probe.out" --wrap 'echo probe-$SLURMD_NODENAME' \
		>/dev/null 2>"$dir/log/probe.err" || ! grep -q "^probe-$host" "$dir/log/probe.out"; then
		slurm_why="a probe job did not run: $(tail -n 3 "$dir/log/probe.err" "$dir/log/slurmctld.log" "$dir/log/slurmd.log" 2>/dev/null | tr '\n' ' ')"
		return 1
	fi
	return 0
}

slurm_stop() {
	local p= i rev=
	# jobs still running would leave their slurmstepd behind: cancel them
	# (every job of this private cluster is the test's) and let them end
	if [ -n "$slurm_pids" ] && [ -n "${SLURM_CONF:-}" ]; then
		scancel --full -p debug >/dev/null 2>&1 || true
		for i in $(seq 100); do
			[ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
			sleep 0.1
		done
	fi
	# slurmd, slurmctld, then munged; safe under set -e (some may be gone)
	for p in $slurm_pids; do rev="$p $rev"; done
	for p in $rev; do kill "$p" 2>/dev/null || true; done
	for i in $(seq 50); do
		p=
		for p in $slurm_pids; do kill -0 "$p" 2>/dev/null && break; p=; done
		[ -z "$p" ] && break
		sleep 0.1
	done
	for p in $slurm_pids; do kill -9 "$p" 2>/dev/null || true; done
	slurm_pids=
	return 0
}
