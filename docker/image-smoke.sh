#!/usr/bin/env bash
# Builds docker/Dockerfile and runs the image once, where a Docker daemon answers (`docker info`);
# elsewhere says that it skipped. The run (embedded SQLite in the image's data folder, a generated
# key) must report healthy through the image's own HEALTHCHECK, not run as root, and stop on
# SIGTERM before the stop timeout with exit code 0 (the service drains and exits by itself; 137 would
# be the SIGKILL after the timeout, 1 a shutdown that failed or ran out of SHUTDOWN_TIMEOUT_SECONDS).
#
#   docker/image-smoke.sh [tag]        default tag: checkout-api:ci
set -euo pipefail
cd "$(dirname "$0")/.."

if ! docker info >/dev/null 2>&1; then
  echo "No Docker daemon answers (docker info failed): image build and run skipped."
  exit 0
fi

tag=${1:-checkout-api:ci}
started=$SECONDS
docker build -f docker/Dockerfile -t "$tag" .
echo "Image $tag built in $((SECONDS - started)) s"

name="checkout-api-smoke-$$"
trap 'docker rm -f "$name" >/dev/null 2>&1 || true' EXIT
docker run -d --name "$name" --health-interval=2s "$tag" >/dev/null

status=starting
for _ in $(seq 90); do
  status=$(docker inspect -f '{{.State.Health.Status}}' "$name")
  [ "$status" = healthy ] && break
  if [ "$(docker inspect -f '{{.State.Running}}' "$name")" != true ]; then
    docker logs "$name" >&2 || true
    echo "The container stopped before it was healthy" >&2
    exit 1
  fi
  sleep 1
done
if [ "$status" != healthy ]; then
  docker logs "$name" >&2 || true
  echo "Not healthy after 90 s (health status: $status)" >&2
  exit 1
fi
uid=$(docker exec "$name" id -u)
if [ "$uid" = 0 ]; then
  echo "The image runs as root" >&2
  exit 1
fi
echo "Healthy, running as uid $uid"

started=$SECONDS
docker stop -t 30 "$name" >/dev/null
code=$(docker inspect -f '{{.State.ExitCode}}' "$name")
echo "Stopped in $((SECONDS - started)) s with exit code $code"
case "$code" in
  0) ;;
  137)
    docker logs "$name" >&2 || true
    echo "SIGTERM did not stop the service: it was killed after the stop timeout" >&2
    exit 1 ;;
  *)
    docker logs "$name" >&2 || true
    echo "The service failed while it shut down (exit code $code)" >&2
    exit 1 ;;
esac
