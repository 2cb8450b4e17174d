#!/usr/bin/env bash
# Builds the samples image (localhost/weir-samples:latest) from the top-level Dockerfile with Podman,
# on a JRE base made from Debian's packages (no registry needed), after `mvn -B package -DskipTests`.
# Installs podman, runc and debootstrap when missing (as root, with apt-get).
#
#   deploy/containers/build-image.sh [--iidfile FILE]
#
# Exit status: 0 built; 3 prerequisites missing and not installable; anything else a failure.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

iidfile=
if [[ ${1:-} == --iidfile ]]; then
    iidfile=$2
fi

for f in sample-apps/target/weir-sample-apps.jar sample-apps/target/lib sample-apps/target/weir-lib \
    cli/target/weir-cli.jar cli/target/lib; do
    [[ -e $WEIR_ROOT/$f ]] || weir_die "$f is missing: run 'mvn -B package -DskipTests' in $WEIR_ROOT first"
done
# The image ships only the CLI's own jar and runs it on the samples' libraries (see the Dockerfile):
# every jar the CLI needs must be there, in the same version.
for jar in "$WEIR_ROOT"/cli/target/lib/*.jar; do
    name=${jar##*/}
    [[ -e $WEIR_ROOT/sample-apps/target/lib/$name || -e $WEIR_ROOT/sample-apps/target/weir-lib/$name ]] \
        || weir_die "the CLI needs $name, which the samples do not have: add it to sample-apps/pom.xml (or copy the CLI's own libraries into the image)"
done

weir_ensure_tools
weir_ensure_base_image

started=$SECONDS
weir_log "building $WEIR_IMAGE from $WEIR_ROOT/Dockerfile on $WEIR_BASE_IMAGE"
# --format docker keeps HEALTHCHECK (the OCI image format has no field for it).
timeout 600 podman "${weir_podman_flags[@]}" build --format docker "${weir_ulimits[@]}" \
    --build-arg BASE_IMAGE="$WEIR_BASE_IMAGE" -t "$WEIR_IMAGE" ${iidfile:+--iidfile "$iidfile"} \
    -f "$WEIR_ROOT/Dockerfile" "$WEIR_ROOT" >&2
weir_log "FIGURE image built in $((SECONDS - started)) s"
size=$(weir_podman image inspect --format '{{.Size}}' "$WEIR_IMAGE")
weir_log "FIGURE image $WEIR_IMAGE size $((size / 1000000)) MB (base $(( $(weir_podman image inspect --format '{{.Size}}' "$WEIR_BASE_IMAGE") / 1000000 )) MB)"
# The chart that runs this image, packaged by the same build (deploy module, ChartPackage).
chart=$(ls "$WEIR_ROOT"/deploy/target/helm/weir-*.tgz 2>/dev/null | tail -1)
if [[ -n $chart ]]; then
    weir_log "chart for it: $chart (helm install <release> $chart --set image.repository=...)"
fi
