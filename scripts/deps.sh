#!/usr/bin/env bash
# Install what the build and the tests need. Idempotent: silent when all is present.
#   Debian/Ubuntu: apt-get (as root; otherwise prints the command to run with sudo).
#   RHEL family:   prints the dnf package names when something is missing.
set -euo pipefail

DEB_PKGS=(libfabric-dev libfabric-bin cmake make gcc pkg-config libcmocka-dev
          libjson-c-dev iproute2 iperf3 valgrind clang libclang-rt-14-dev procps python3
          mandoc dpkg-dev file rpm python3-matplotlib
          openmpi-bin libopenmpi-dev
          libamdhip64-dev libze-dev python3-pip)
RPM_PKGS=(libfabric-devel cmake gcc make pkgconf-pkg-config libcmocka-devel
          json-c-devel iproute iperf3 valgrind clang python3 mandoc rpm-build python3-matplotlib
          openmpi-devel)

if command -v apt-get >/dev/null 2>&1 && command -v dpkg-query >/dev/null 2>&1; then
	missing=()
	for p in "${DEB_PKGS[@]}"; do
		st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
		[ "$st" = installed ] || missing+=("$p")
	done
	# The CUDA runtime for the GPU tests comes from PyPI (cuda-wheel.sh).
	[ ${#missing[@]} -eq 0 ] && exec bash "$(dirname "$0")/cuda-wheel.sh"

	cmd="apt-get install -y --no-install-recommends ${missing[*]}"
	if [ "$(id -u)" -ne 0 ]; then
		echo "deps.sh: missing packages: ${missing[*]}" >&2
		echo "deps.sh: run as root, or:" >&2
		echo "  sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive $cmd" >&2
		exit 1
	fi
	echo "deps.sh: installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends "${missing[@]}"
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
