#!/usr/bin/env bash
# GPU worker: one Celery worker per visible GPU, each consuming queue "gpu" with
# CUDA_VISIBLE_DEVICES set to its GPU, prefetch 1 and late acks (config/settings.py).
# GPU_WORKER_CONCURRENCY pool processes per GPU (default 2). Unshared, each holds its own warm
# children (a CUDA context, NVRTC, one child per sanitizer tool) and more is not faster: 16 graded
# 89.7 per minute against 136-151 with 2, their 64 CUDA contexts time-slicing the GPU. With
# WARPDRILL_GPU_SHARED_CHILDREN=all they share 4 warm children per slot (WARPDRILL_GPU_SHARED_INSTANCES):
# 16 processes graded 637 a minute on a 16-core H100, every check included, and docker-compose.yml
# runs that (docs/gpu-validation.md, "Issue 17: 600 gradings a minute").
# If any worker exits, the others are stopped and the script fails, so the container restarts.
set -euo pipefail

export WARPDRILL_BACKEND=gpu
per_gpu="${GPU_WORKER_CONCURRENCY:-2}"

if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
  IFS=',' read -r -a gpus <<<"$CUDA_VISIBLE_DEVICES"
else
  mapfile -t gpus < <(nvidia-smi --query-gpu=index --format=csv,noheader)
fi
if [ "${#gpus[@]}" -eq 0 ]; then
  echo "start-gpu-worker: no GPU is visible (nvidia-smi lists none)" >&2
  exit 1
fi

# Fail fast when this machine cannot grade: nvcc, PyCUDA, a context, the sandbox, a kernel run.
CUDA_VISIBLE_DEVICES="${gpus[0]}" python manage.py gpu_worker_check

# The emulator that explains a hung kernel (judge.explain_hang: a divergent barrier, a deadlock) needs its
# runtime built: now, once per cache volume (21-23 s on an H100 host's 16 cores, 2026-12-06), not inside
# the grading of the first hang a worker meets. Without g++ or Boost, hangs stay TIME_LIMIT.
python manage.py prepare_judge --backend emulator \
  || echo "start-gpu-worker: the emulator cannot be built here; GPU hangs stay TIME_LIMIT" >&2

pids=()
stop() { kill -TERM "${pids[@]}" 2>/dev/null || true; wait || true; }
trap stop TERM INT

# Metrics: worker k of this host serves its own on port WARPDRILL_WORKER_METRICS_PORT + k, from its own folder.
source "$(dirname "$0")/metrics-dir.sh"
metrics_base="${WARPDRILL_WORKER_METRICS_PORT:-}"
k=0
for gpu in "${gpus[@]}"; do
  mkdir -p "$PROMETHEUS_MULTIPROC_DIR/gpu${gpu}"
  PROMETHEUS_MULTIPROC_DIR="$PROMETHEUS_MULTIPROC_DIR/gpu${gpu}" \
  WARPDRILL_WORKER_METRICS_PORT="${metrics_base:+$((metrics_base + k))}" \
  CUDA_VISIBLE_DEVICES="$gpu" celery -A config worker -Q gpu -c "$per_gpu" --prefetch-multiplier 1 \
    --loglevel INFO -n "gpu${gpu}@%h" &
  pids+=("$!")
  k=$((k + 1))
done

# The first worker to exit ends the container: a half-working GPU host must not keep taking jobs.
status=0
wait -n "${pids[@]}" || status=$?
echo "start-gpu-worker: a worker exited (status ${status}); stopping the others" >&2
stop
exit "${status:-1}"
