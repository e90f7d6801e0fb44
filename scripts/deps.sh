#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Install what the build and the tests need. Idempotent: silent when all is present.
#   Debian/Ubuntu: apt-get (as root; otherwise prints the command to run with sudo).
#   RHEL family:   prints the dnf package names when something is missing.
set -euo pipefail

DEB_PKGS=(libfabric-dev libfabric-bin cmake make gcc pkg-config libcmocka-dev
          libjson-c-dev iproute2 iperf3 valgrind clang libclang-rt-14-dev procps python3
          mandoc dpkg-dev file rpm python3-matplotlib python3-prometheus-client
          python3-jsonschema lintian rpmlint
          openmpi-bin libopenmpi-dev libsimgrid-dev
          libamdhip64-dev libze-dev python3-pip python3-venv chromium)
# Optional: Slurm for tests/e2e/test_sweep_slurm.sh (srun --mpi=pmix; the
# pmix plugin is in slurm-wlm-basic-plugins, a dependency of slurmd, and
# dlopens the unversioned libpmix.so, which only libpmix-dev ships). If
# they cannot be installed, that test skips with the reason. Prometheus'
# promtool and node_exporter for tests/e2e/test_prometheus.sh (skips
# without them).
DEB_OPT_PKGS=(slurmd slurmctld slurm-client munge libpmix-dev prometheus
              prometheus-node-exporter)
RPM_PKGS=(libfabric-devel cmake gcc make pkgconf-pkg-config libcmocka-devel
          json-c-devel iproute iperf3 valgrind clang python3 mandoc rpm-build python3-matplotlib
          python3-prometheus_client python3-jsonschema rpmlint
          openmpi-devel chromium)

# deb_missing PKG...: those not installed.
deb_missing() {
	local p st
	for p in "$@"; do
		st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
		[ "$st" = installed ] || echo "$p"
	done
}

if command -v apt-get >/dev/null 2>&1 && command -v dpkg-query >/dev/null 2>&1; then
	mapfile -t missing < <(deb_missing "${DEB_PKGS[@]}")
	mapfile -t opt_missing < <(deb_missing "${DEB_OPT_PKGS[@]}")
	all=("${missing[@]}" "${opt_missing[@]}")
	# From PyPI: ReFrame (reframe.sh) and the CUDA runtime for the GPU
	# tests (cuda-wheel.sh).
	if [ ${#all[@]} -eq 0 ]; then
		[ "$(id -u)" -ne 0 ] || bash "$(dirname "$0")/reframe.sh"
		exec bash "$(dirname "$0")/cuda-wheel.sh"
	fi

	cmd="apt-get install -y --no-install-recommends ${all[*]}"
	if [ "$(id -u)" -ne 0 ]; then
		echo "deps.sh: missing packages: ${all[*]}" >&2
		echo "deps.sh: run as root, or:" >&2
		echo "  sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive $cmd" >&2
		# The optional ones only make their tests skip.
		[ ${#missing[@]} -eq 0 ] && exit 0
		exit 1
	fi
	echo "deps.sh: installing: ${all[*]}"
	export DEBIAN_FRONTEND=noninteractive
	if [ ${#missing[@]} -gt 0 ]; then
		apt-get update -qq
		apt-get install -y -qq --no-install-recommends "${missing[@]}"
	else
		apt-get update -qq || true
	fi
	if [ ${#opt_missing[@]} -gt 0 ] &&
		! apt-get install -y -qq --no-install-recommends "${opt_missing[@]}"; then
		echo "deps.sh: could not install ${opt_missing[*]}:" \
			"the Slurm tests will skip" >&2
	fi
	bash "$(dirname "$0")/reframe.sh"
	exec bash "$(dirname "$0")/cuda-wheel.sh"
fi

# Not Debian: check the essentials directly and name the dnf packages.
missing=()
for m in libfabric json-c cmocka; do
	pkg-config --exists "$m" 2>/dev/null || missing+=("pkg-config:$m")
done
for t in cmake make gcc pkg-config python3; do
	command -v "$t" >/dev/null 2>&1 || missing+=("$t")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps.sh: no apt-get here; missing: ${missing[*]}" >&2
echo "deps.sh: on RHEL/Fedora/Rocky/Alma install them with:" >&2
echo "  sudo dnf install -y ${RPM_PKGS[*]}" >&2
echo "  (libcmocka-devel and iperf3 may need EPEL: sudo dnf install -y epel-release)" >&2
exit 1
