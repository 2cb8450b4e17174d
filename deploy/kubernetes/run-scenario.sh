#!/usr/bin/env bash
# Runs the Weir chart's pods under Podman through install, a rolling update, a forced pod deletion,
# scale-downs (kubectl scale, helm upgrade --set replicaCount), helm test and the state-changing upgrade
# in savepoint mode, against a test broker,
# with a load and exact counts throughout. Prints one JSON object per line (steps with figures and
# what was real or simulated, and the runner's events); Maven's and Kafka's logs go to stderr.
#
#   deploy/kubernetes/run-scenario.sh [--build-image] [extra mvn arguments, e.g. -o]
#
# Needs podman (apt-get install podman runc) and the samples image localhost/weir-samples:latest;
# --build-image builds the jars (mvn package -DskipTests) and the image first. See README.md here.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
if [[ ${1:-} == --build-image ]]; then
    shift
    mvn -B -q package -DskipTests "$@" >&2
    bash deploy/containers/build-image.sh >&2
fi
command -v podman >/dev/null || { echo "run-scenario.sh: podman is missing (apt-get install podman runc)" >&2; exit 3; }
# Maven writes a colour reset on stdout even when told not to colour: taken out, so every line is JSON.
mvn -B -q -Dstyle.color=never -pl deploy -am verify -Pkubernetes-podman -DskipTests "$@" | sed -u 's/\x1b\[[0-9;]*m//g'
