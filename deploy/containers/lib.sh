# shellcheck shell=bash
# Shared by the container scripts (source it): Podman on a machine without a Docker engine or an
# image registry, as on our CI machines (see docs/deploying.md and issue 9).
#
#   WEIR_OCI_RUNTIME   runtime for podman (default /usr/sbin/runc when present: the default crun is
#                      refused on our machines)
#   WEIR_BASE_IMAGE    JRE 17 base to build on (default localhost/weir-jre-base:17, made here from
#                      Debian's packages when missing, since no registry can be reached)
#   WEIR_IMAGE         tag of the samples image (default localhost/weir-samples:latest)

WEIR_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WEIR_BASE_IMAGE=${WEIR_BASE_IMAGE:-localhost/weir-jre-base:17}
WEIR_IMAGE=${WEIR_IMAGE:-localhost/weir-samples:latest}
WEIR_DEBIAN_SUITE=${WEIR_DEBIAN_SUITE:-bookworm}
# Exit status of a script that cannot get its prerequisites (not root, no apt-get): callers may
# skip outside CI, and must fail on CI.
WEIR_EXIT_PREREQUISITES=3

weir_log() { printf '%s %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
weir_die() { weir_log "ERROR: $*"; exit "${2:-1}"; }

# Podman's global flags: the runtime that works here.
weir_podman_flags=()
if [[ -n ${WEIR_OCI_RUNTIME:-} ]]; then
    weir_podman_flags=(--runtime "$WEIR_OCI_RUNTIME")
elif [[ -x /usr/sbin/runc ]]; then
    weir_podman_flags=(--runtime /usr/sbin/runc)
fi
# Limits for containers (and build steps): the defaults podman asks for are refused here.
weir_ulimits=(--ulimit nofile=20000:20000 --ulimit nproc=4096:4096)

weir_podman() { podman "${weir_podman_flags[@]}" "$@"; }

# Installs podman, runc and debootstrap with apt-get when one is missing; fails with
# WEIR_EXIT_PREREQUISITES when that is not possible.
weir_ensure_tools() {
    local missing=()
    command -v podman >/dev/null || missing+=(podman)
    [[ -x /usr/sbin/runc ]] || command -v runc >/dev/null || missing+=(runc)
    command -v debootstrap >/dev/null || [[ -x /usr/sbin/debootstrap ]] || missing+=(debootstrap)
    ((${#missing[@]} == 0)) && return 0
    if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; then
        weir_die "missing ${missing[*]}: install them (apt-get install -y podman runc debootstrap) or run as root on Debian" \
            "$WEIR_EXIT_PREREQUISITES"
    fi
    weir_log "installing ${missing[*]} with apt-get"
    # Bounded: a mirror that hangs must fail the check, not hold CI until its own time-out. Another
    # apt-get (a second build, the machine's own upgrades) may hold dpkg's lock: wait for it.
    timeout 300 apt-get -o DPkg::Lock::Timeout=240 update -qq || weir_die "apt-get update failed" "$WEIR_EXIT_PREREQUISITES"
    DEBIAN_FRONTEND=noninteractive timeout 600 apt-get -o DPkg::Lock::Timeout=240 install -y -qq podman runc debootstrap >/dev/null \
        || weir_die "apt-get install podman runc debootstrap failed" "$WEIR_EXIT_PREREQUISITES"
    [[ -x /usr/sbin/runc ]] && weir_podman_flags=(--runtime /usr/sbin/runc)
}

# Makes WEIR_BASE_IMAGE from Debian's openjdk-17-jre-headless unless it exists (about a minute, once
# per machine). A lock keeps two builds on one machine from making it twice.
weir_ensure_base_image() {
    if weir_podman image exists "$WEIR_BASE_IMAGE"; then
        weir_log "base image $WEIR_BASE_IMAGE exists; reusing it"
        return 0
    fi
    [[ $WEIR_BASE_IMAGE == localhost/* ]] \
        || weir_die "base image $WEIR_BASE_IMAGE is not here and no registry can be reached; use a localhost/ name to have it made"
    exec {lock}>/var/tmp/weir-jre-base.lock
    flock -w 600 "$lock" || weir_die "waited 10 min for another build of the base image"
    if weir_podman image exists "$WEIR_BASE_IMAGE"; then
        flock -u "$lock"
        return 0
    fi
    local dir started=$SECONDS
    dir=$(mktemp -d /var/tmp/weir-jre-base.XXXXXX)
    weir_log "making $WEIR_BASE_IMAGE with debootstrap ($WEIR_DEBIAN_SUITE, openjdk-17-jre-headless) in $dir"
    if ! timeout 900 debootstrap --variant=minbase --include=openjdk-17-jre-headless "$WEIR_DEBIAN_SUITE" "$dir" \
        >"$dir.log" 2>&1; then
        tail -20 "$dir.log" >&2
        rm -rf "$dir"
        flock -u "$lock"
        weir_die "debootstrap failed (log above)"
    fi
    # Downloaded packages, package lists and documentation are not needed at run time (~150 MB).
    rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/* "$dir"/usr/share/doc/* "$dir"/usr/share/man/*
    tar -C "$dir" -c . | weir_podman import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        - "$WEIR_BASE_IMAGE" >/dev/null
    rm -rf "$dir" "$dir.log"
    flock -u "$lock"
    weir_log "FIGURE base image made in $((SECONDS - started)) s"
}
