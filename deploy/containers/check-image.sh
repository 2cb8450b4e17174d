#!/usr/bin/env bash
# The container check on its own, as `mvn -B verify` runs it on CI (ContainerIT): builds the modules,
# builds the samples image with Podman (build-image.sh: installs Podman when missing, makes the
# Debian JRE base once), runs `serve word-count` in containers against a broker of the test, and
# prints FIGURE lines (image size, start to ready, stop, restart to ready, records restored).
#
#   deploy/containers/check-image.sh [extra Maven options, e.g. -o]
set -euo pipefail
cd "$(dirname "$0")/../.."
# Bounded: the check itself takes under a minute with a cached base image, two to three without.
exec timeout 1200 mvn -B "$@" -pl deploy -am verify -Dit.test=ContainerIT -Dtest=NONE \
    -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false
