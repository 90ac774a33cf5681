# Sourced by the start scripts: a fresh prometheus-client multiprocess folder for this container's
# processes (every gunicorn worker or Celery pool process writes its metrics there; /metrics merges them).
export PROMETHEUS_MULTIPROC_DIR="${PROMETHEUS_MULTIPROC_DIR:-/tmp/warpdrill-metrics}"
rm -rf "$PROMETHEUS_MULTIPROC_DIR" && mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
