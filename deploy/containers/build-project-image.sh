#!/usr/bin/env bash
# Builds the image of a Weir service project from its own Dockerfile with Podman, on the JRE base
# made from Debian's packages (no registry needed), after the project's `mvn package`: how the
# tests check a Dockerfile a page gives users (docs/tutorial/orders-service). The Dockerfile must
# take its base from the build argument BASE_IMAGE. Installs podman, runc and debootstrap when
# missing (as root, with apt-get).
#
#   deploy/containers/build-project-image.sh PROJECT_DIR TAG [--iidfile FILE]
#
# Exit status: 0 built; 3 prerequisites missing and not installable; anything else a failure.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

(($# >= 2)) || weir_die "usage: $0 PROJECT_DIR TAG [--iidfile FILE]"
project=$1
tag=$2
iidfile=
if [[ ${3:-} == --iidfile ]]; then
    iidfile=$4
fi
[[ -f $project/Dockerfile ]] || weir_die "no Dockerfile in $project"
grep -q '^ARG BASE_IMAGE' "$project/Dockerfile" \
    || weir_die "$project/Dockerfile takes no ARG BASE_IMAGE: it could not be built without a registry"
[[ -d $project/target ]] || weir_die "$project/target is missing: run 'mvn -B package' in $project first"

weir_ensure_tools
weir_ensure_base_image

started=$SECONDS
weir_log "building $tag from $project/Dockerfile on $WEIR_BASE_IMAGE"
# --format docker keeps HEALTHCHECK (the OCI image format has no field for it).
timeout 600 podman "${weir_podman_flags[@]}" build --format docker "${weir_ulimits[@]}" \
    --build-arg BASE_IMAGE="$WEIR_BASE_IMAGE" -t "$tag" ${iidfile:+--iidfile "$iidfile"} \
    -f "$project/Dockerfile" "$project" >&2
weir_log "FIGURE image $tag built in $((SECONDS - started)) s, size $(($(weir_podman image inspect --format '{{.Size}}' "$tag") / 1000000)) MB"
