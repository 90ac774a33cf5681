#!/usr/bin/env bash
# The GPU figures of issue 17 in one device call: the real queue (bench/queue_bench.py, a Celery GPU
# worker, SQLite and the folder broker: the H200 machine has no PostgreSQL or Redis) at several pool
# sizes, with the stage table (--stages) and the worker tree's memory (--rss).
#   bench/gpu_queue_sweep.sh OUT_DIR "CONCURRENCIES:POLLING[:BURST_N[:SEQUENTIAL]]" ...
# e.g. bench/gpu_queue_sweep.sh $OUT "2:0.1:336:0" "8:0.01:336:40"
set -uo pipefail
out="$1"; shift
mkdir -p "$out"
{ nvidia-smi --query-gpu=name,compute_mode,memory.used --format=csv; command -v nvidia-cuda-mps-control || echo "no MPS control"; nproc; } > "$out/machine.txt" 2>&1
k=0
for spec in "$@"; do
  IFS=: read -r conc poll burst seq <<<"$spec"
  k=$((k + 1))
  timeout "${SWEEP_EACH_S:-280}" python3 bench/queue_bench.py --backend gpu --concurrency "$conc" --polling-interval "$poll" \
    --burst-n "${burst:-336}" --sequential "${seq:-0}" --stages --rss --skip-hang \
    --json "$out/queue-$k-c${conc//,/_}-p$poll.json" --logs "$out/logs-$k" > "$out/queue-$k.txt" 2>&1
  echo "run $k ($spec): rc $?; $(tail -c 600 "$out/queue-$k.txt")"
done
