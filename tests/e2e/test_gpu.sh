#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: shared
# GPU memory (-t/-r/-g) through the stand-in GPU of the test builds
# (BUILD/standin/, tests/support/gpu_standin.c), every refusal, and
# --validate on every tool over shm and tcp, host and stand-in memory,
# including a deliberately corrupted buffer; and every GPU tool against
# the vendors' real runtimes without a device (their own error, once).
# Five parts run at once (most of a run's time is waiting: libinfinipath's
# start-up sleep in every process); a part alone:
#   bash tests/e2e/test_gpu.sh BUILD_DIR [standin-shm|standin-tcp|refusals|validate-shm|validate-tcp]
. "$(dirname "$0")/lib.sh" "$@"
SB=$BUILD/standin
[ -x "$SB/cxi_write_bw" ] || skip "$SB/cxi_write_bw not built"
PART=${2:-}
if [ -z "$PART" ]; then
	PARTS=(standin-shm standin-tcp refusals validate-shm validate-tcp)
	PART_PIDS=()
	for part in "${PARTS[@]}"; do
		start_bg part bash "$0" "$BUILD" "$part"
		PART_PIDS+=("$BG_PID:$BG_OUT:$BG_ERR")
	done
	collect_parts 280 '^test_gpu: '
	finish
fi
# The pair tools, and those of them with GPU buffers (-t/--tx-gpu), as
# their own -h says.
need_tool_list
mapfile -t GPU_TOOLS < <(tools_with --port --tx-gpu)
mapfile -t ALL_TOOLS < <(tools_with --port)
COUNTS=$TMPD/counts
# A node whose device files say NVIDIA, for the default-type rule.
mkdir -p "$TMPD/nv/dev" "$TMPD/none/dev"
: >"$TMPD/nv/dev/nvidiactl"

# Short runs: a range of sizes where the tool takes one (atomics: the
# type sets it). Latency tools are those whose -h has --warmup.
args_for() {
	if ! tool_has "$1" --size; then echo "-n 5"
	elif tool_has "$1" --warmup; then echo "-n 5 --warmup 2 --latency-gap 0 -s 8:64"
	else echo "-n 3 -l 16 -s 64:1024"; fi
}
expect_err() { # WANT_RC REGEX WHAT (after run_capture)
	expect_rc "$1" "$RC" "$3"
	if grep -qE "$2" "$ERR"; then pass "$3: says /$2/"; else fail "$3: stderr lacks /$2/"; show "$ERR"; fi
}
all_validated() { # FILE: every result row says validated
	python3 "$E2E_PY/gpu_validated.py" "$1"
}
counts_ok() { # every process freed what it allocated, and used the copies
	awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); c[kv[1]] += kv[2] }
	       if ($0 !~ / live=0$/) bad = 1 }
	     END { exit !(NR >= 1 && !bad && c["alloc"] >= 1 && c["alloc"] == c["free"] &&
	                  c["fill"] >= 1 && c["to_host"] >= 1 && c["from_host"] >= 1) }' "$COUNTS"
}

# standin_part PROV: every GPU tool on stand-in memory over PROV (with
# shm, the check that production tools hold no stand-in; with tcp, huge
# pages and two processes).
standin_part() {
	local PROV=$1
	[ "$PROV" = shm ] && no_standin_in_production
	export CXD_GPU_STANDIN=1 CXD_GPU_STANDIN_COUNTS=$COUNTS
	section "[$PROV] every GPU tool, -t 0 -r 0 --validate, type from the device files"
	for t in "${GPU_TOOLS[@]}"; do
		rm -f "$COUNTS"
		# shellcheck disable=SC2046
		CXD_GPU_STANDIN_DEVROOT=$TMPD/nv run_capture "$t-$PROV" 60 "$SB/$t" --local \
			--provider "$PROV" -t 0 -r 0 --validate --json $(args_for "$t")
		expect_rc 0 "$RC" "$t $PROV: exit 0" || { show "$ERR"; continue; }
		s=$(json_get "$OUT" summary)
		echo "$s" | grep -q '"Client TX Mem": "GPU 0"' && echo "$s" | grep -q '"Server RX Mem": "GPU 0"' &&
			echo "$s" | grep -q '"Client GPU Type": "NVIDIA"' && echo "$s" | grep -q '"Found 1 GPU(s)"' &&
			pass "$t $PROV: Mem, GPU Type and Found lines" || { fail "$t $PROV: summary lines"; show "$OUT"; }
		all_validated "$OUT" && pass "$t $PROV: every size validated" || fail "$t $PROV: not every size validated"
		counts_ok && pass "$t $PROV: stand-in calls balance ($(tr '\n' ';' <"$COUNTS"))" ||
			{ fail "$t $PROV: stand-in counts"; show "$COUNTS"; }
	done

	section "[$PROV] loopback on stand-in memory: TX on GPU 1, RX on GPU 0"
	rm -f "$COUNTS"
	CXD_GPU_STANDIN=2 run_capture "loop-$PROV" 60 "$SB/cxi_gpu_loopback_bw" --provider "$PROV" \
		-t 1 -r 0 -g amd -i 2 -n 64 -s 65536 --validate
	expect_rc 0 "$RC" "loopback $PROV: exit 0" || show "$ERR"
	expect_line "$OUT" '^TX Mem +: GPU 1$' "loopback $PROV: TX Mem : GPU 1"
	expect_line "$OUT" '^RX Mem +: GPU 0$' "loopback $PROV: RX Mem : GPU 0"
	expect_line "$OUT" '^GPU Type +: AMD$' "loopback $PROV: GPU Type : AMD"
	expect_line "$OUT" '^Found 2 GPU\(s\)$' "loopback $PROV: Found 2 GPU(s)"
	[ "$(wc -l <"$COUNTS")" -eq 1 ] && grep -q 'alloc=2 free=2' "$COUNTS" &&
		pass "loopback $PROV: one process, two stand-in buffers" || { fail "loopback counts"; show "$COUNTS"; }
	[ "$PROV" = tcp ] && standin_more
	unset CXD_GPU_STANDIN
}

no_standin_in_production() {
	section "production tools contain no stand-in"
	for t in "${TOOLS_ALL[@]}"; do
		if nm --defined-only "$BUILD/$t" | grep -qi standin; then fail "$t defines a stand-in symbol"
		else pass "$t: no stand-in symbol defined"; fi
	done
	check "the test build defines it" sh -c "nm --defined-only '$SB/cxi_write_bw' | grep -q cxd_gpu_standin_open"
}

standin_more() {
	section "huge pages do not apply to GPU buffers"
	CXD_GPU_STANDIN=1 run_capture loop-hp 30 "$SB/cxi_gpu_loopback_bw" --provider shm -t 0 -r 0 -g nvidia \
		--use-hp 2M -i 1 -n 8 -s 4096
	expect_rc 0 "$RC" "loopback, both buffers on the GPU, --use-hp 2M: exit 0" || show "$ERR"
	expect_line "$OUT" '^Hugepages +: Disabled - Not Applicable$' "Hugepages : Disabled - Not Applicable"

	section "two processes: client TX on NVIDIA GPU 0, server RX on AMD GPU 1, bidirectional"
	CXD_GPU_STANDIN=2 E2E_BUILD=$SB run_pair cxi_write_bw gpu-pair --provider tcp -r 1 -t 0 -g AMD -- \
		--provider tcp -t 0 -g NVIDIA -b -n 3 -s 4096 --validate && {
		expect_line "$C_OUT" '^Client TX Mem +: GPU 0$' "client: Client TX Mem : GPU 0"
		expect_line "$C_OUT" '^Client RX Mem +: System$' "client: Client RX Mem : System"
		expect_line "$C_OUT" '^Server TX Mem +: GPU 0$' "client: Server TX Mem : GPU 0"
		expect_line "$C_OUT" '^Server RX Mem +: GPU 1$' "client: Server RX Mem : GPU 1"
		expect_line "$C_OUT" '^Client GPU Type +: NVIDIA$' "client: Client GPU Type : NVIDIA"
		expect_line "$C_OUT" '^Server GPU Type +: AMD$' "client: Server GPU Type : AMD"
		expect_line "$S_OUT" '^Server RX Mem +: GPU 1$' "server: Server RX Mem : GPU 1"
		expect_line "$C_OUT" '^IDC +: Disabled' "client: IDC off with a GPU TX buffer"
	}
}

refusals_part() {
	# the stand-in GPU for the refusals up to the real runtimes' section
	export CXD_GPU_STANDIN=1 CXD_GPU_STANDIN_COUNTS=$COUNTS
	section "refusals"
	for ty in NVIDIA:libcudart AMD:libamdhip64 INTEL:libze_loader; do
		# Installed (deps.sh does): its absence cannot be shown here; the
		# real runtime's own error is checked below instead.
		if ldconfig -p | grep -q "${ty#*:}"; then
			skip_part --exempt "no runtime library (${ty%%:*}): ${ty#*:} is installed"; continue
		fi
		run_capture "nolib-${ty%%:*}" 20 "$BUILD/cxi_write_bw" --local -t 0 -g "${ty%%:*}" -n 2
		expect_err 1 "unable to find GPU libraries: ${ty%%:*} .*${ty#*:}" "no runtime library (${ty%%:*})"
	done
	CXD_GPU_STANDIN=0 run_capture nodev 20 "$SB/cxi_write_bw" --local -t 0 -g NVIDIA -n 2
	expect_err 1 'No GPUs found: .*reports no NVIDIA device' "no device"
	CXD_GPU_STANDIN=2 run_capture range 20 "$SB/cxi_read_bw" --local -r 7 -g NVIDIA -n 2
	expect_err 1 'GPU must be in the range: 0 to 1\. \(got 7' "index out of range (-r 7, 2 GPUs)"
	run_capture badtype 20 "$BUILD/cxi_send_bw" --local -t 0 -g TPU
	expect_err 2 "Invalid GPU type: 'TPU'" "unknown type"
	CXD_GPU_STANDIN_DEVROOT=$TMPD/none run_capture notype 20 "$SB/cxi_write_lat" --local -t 0 -n 2
	expect_err 1 'no GPU device files were found' "no -g and no device files"
	CXD_GPU_STANDIN_IFACE=cuda run_capture nohmem 20 "$SB/cxi_write_bw" --local --provider tcp -t 0 -g NVIDIA -n 2
	expect_err 1 "provider 'tcp' of libfabric [0-9.]+ cannot register NVIDIA GPU memory \(no FI_HMEM\).*--with-cuda" \
		"provider without FI_HMEM (tcp)"
	CXD_GPU_STANDIN_IFACE=cuda run_capture noreg 20 "$SB/cxi_write_bw" --local --provider shm -r 0 -g NVIDIA -n 2
	if grep -q 'cannot register GPU 0 (NVIDIA' "$ERR" || [ "$RC" -eq 0 ]; then
		# shm has FI_HMEM; Debian's lacks CUDA, so its registration must refuse.
		expect_err 1 "cannot register GPU 0 \(NVIDIA, stand-in\) with provider 'shm'" "shm registration refused"
	else fail "shm with CUDA memory: unexpected rc $RC"; show "$ERR"; fi
	run_capture gonly 20 "$BUILD/cxi_write_bw" --local -g AMD -n 2 -s 64
	expect_err 0 'note: -g AMD has no effect without -t or -r' "-g without -t/-r runs on system memory, with a note"
	expect_line "$OUT" '^Client TX Mem +: System$' "-g alone: Client TX Mem : System"
	has_line "$OUT" 'GPU Type' && fail "-g alone: a GPU Type line" || pass "-g alone: no GPU Type line"
	run_capture atomic-t 20 "$BUILD/cxi_atomic_bw" --local -t 0
	expect_err 2 "unknown option" "atomic tools have no -t"
	unset CXD_GPU_STANDIN

	section "the real runtimes, no device: their own error, once, exit 1"
	# scripts/deps.sh installs them: Debian's libamdhip64 and libze_loader,
	# NVIDIA's libcudart.so.12 from its PyPI wheel into CXD_CUDA_DIR.
	CUDA_LIB=${CXD_CUDA_DIR:-/opt/cxd-cuda}/lib
	REAL=(
		"NVIDIA|$CUDA_LIB/libcudart.so.12|cudaGetDeviceCount returned cudaError[A-Za-z]+ \([0-9]+\): [A-Za-z]"
		"AMD|libamdhip64.so.5|hipGetDeviceCount returned hipError[A-Za-z]+ \([0-9]+\)"
		"INTEL|libze_loader.so.1|zeInit returned ZE_RESULT_[A-Z_]+ \(0x[0-9a-f]+\)"
	)
	for r in "${REAL[@]}"; do
		IFS='|' read -r ty lib want <<<"$r"
		if ! [ -e "$lib" ] && ! ldconfig -p | grep -q "${lib##*/}"; then
			skip_part "$ty's real runtime: no ${lib##*/} (scripts/deps.sh installs it)"; continue
		fi
		for t in "${GPU_TOOLS[@]}" cxi_gpu_loopback_bw; do
			local_opt=--local; [ "$t" = cxi_gpu_loopback_bw ] && local_opt=
			# shellcheck disable=SC2086
			LD_LIBRARY_PATH=$CUDA_LIB run_capture "real-$ty-$t" 30 "$BUILD/$t" $local_opt -t 0 -g "$ty" -n 2
			expect_rc 1 "$RC" "$t -g $ty: exit 1" || show "$ERR"
			n=$(grep -cE "No GPUs found: .*$want" "$ERR")
			if [ "$n" = 1 ] && [ "$(grep -c . "$ERR")" = 1 ]; then
				pass "$t -g $ty: the runtime's own error, once"
			else fail "$t -g $ty: want one line /$want/, got $n of $(grep -c . "$ERR")"; show "$ERR"; fi
		done
		note "$(cat "$ERR")"
	done

	section "a corrupted byte fails the run, naming size, offset, expected and found"
	CXD_GPU_STANDIN_CORRUPT=1000 run_capture corrupt-host 30 "$SB/cxi_write_bw" --local --provider tcp \
		--validate -n 2 -l 16 -s 64
	expect_err 1 "the server .* reported: --validate: data mismatch at size 64: offset 1000 of the server's RX buffer \(System\) holds 0x[0-9a-f]{2}, expected 0x[0-9a-f]{2}" \
		"write_bw tcp, host memory: the client reports the server's finding"
	CXD_GPU_STANDIN=1 CXD_GPU_STANDIN_CORRUPT=10 run_capture corrupt-gpu 30 "$SB/cxi_read_bw" --local \
		--provider shm -t 0 -g NVIDIA --validate -n 2 -l 16 -s 64
	expect_err 1 "data mismatch at size 64: offset 10 of the client's TX buffer \(GPU 0\)" \
		"read_bw shm, stand-in GPU memory: the initiator's buffer is checked"
	CXD_GPU_STANDIN_CORRUPT=1000 run_capture nocorrupt 30 "$BUILD/cxi_write_bw" --local --provider tcp --validate -n 2 -l 16 -s 64
	expect_rc 0 "$RC" "the production build ignores the test hook's variable" || show "$ERR"
}

validate_part() {
	local PROV=$1
	section "[$PROV] --validate on every tool, host memory"
	for t in "${ALL_TOOLS[@]}"; do
		a=$(args_for "$t")
		# shellcheck disable=SC2086
		run_capture "val-$t-$PROV" 60 "$BUILD/$t" --local --provider "$PROV" --validate --json $a
		expect_rc 0 "$RC" "$t $PROV --validate: exit 0" || { show "$ERR"; continue; }
		all_validated "$OUT" && pass "$t $PROV: validated" || { fail "$t $PROV: not validated"; show "$OUT"; }
	done
	# tcp's first interface may be another test's short-lived veth
	# (fi_endpoint: "Cannot assign requested address" once it went)
	dev=()
	[ "$PROV" = tcp ] && dev=(-d lo)
	run_capture "val-loop-$PROV" 60 "$BUILD/cxi_gpu_loopback_bw" --provider "$PROV" "${dev[@]}" \
		--validate -i 2 -n 64 -s 4096
	expect_rc 0 "$RC" "cxi_gpu_loopback_bw $PROV --validate: exit 0" || show "$ERR"
}

case $PART in
standin-shm | standin-tcp) standin_part "${PART#*-}" ;;
validate-shm | validate-tcp) validate_part "${PART#*-}" ;;
refusals) refusals_part ;;
*) die "unknown part '$PART'" ;;
esac
finish
