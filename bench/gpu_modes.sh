#!/usr/bin/env bash
# Issue 17's GPU comparisons in one device call: bench/queue_bench.py's sequential pass and burst once per
# mode, the modes one after another on the same machine (so that each figure has its baseline beside it).
#   bench/gpu_modes.sh OUT_DIR BUDGET_S "TAG CONCURRENCY [NAME=VALUE ...]" ...
# e.g. bench/gpu_modes.sh $OUT/runs 50 "auto-c8 8 WARPDRILL_GPU_SYNC=auto" "blocking-c8 8 WARPDRILL_GPU_SYNC=blocking"
# Each mode: a fresh worker and site with the mode's variables, `--sequential $SEQ` (default 12) sources
# spread over the bank, then a burst of 300 for at most BUDGET_S seconds, with --stages and --util
# (how busy the cores and the GPU were, each kind of process's CPU). Broker and database: as the
# environment says (CELERY_BROKER_URL, DATABASE_URL), else the folder broker and SQLite.
set -uo pipefail
out="$1"; budget="$2"; shift 2
mkdir -p "$out"
{ nvidia-smi --query-gpu=name,driver_version --format=csv; nproc; date -u; uptime; } > "$out/machine.txt" 2>&1
for spec in "$@"; do
  read -r tag conc vars <<<"$spec"
  # shellcheck disable=SC2086  # $vars: NAME=VALUE words for env
  env $vars timeout $((budget + 40)) python3 bench/queue_bench.py --backend gpu --concurrency "$conc" \
    --polling-interval 0.01 --sequential "${SEQ:-12}" --spread --burst-n 300 --stages --util --skip-hang \
    --budget-s "$budget" --json "$out/$tag.json" --logs "$out/logs-$tag" > "$out/$tag.txt" 2>&1
  echo "$tag rc=$? $(grep -h ' burst: ' "$out/$tag.txt" | tail -1) | $(uptime)" | tee -a "$out/summary.txt"
done
