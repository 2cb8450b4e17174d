#!/bin/bash
# podman, for podman-compose 1.0.3 (Debian 12): that version adds the project network
# (`--net <project>_default --network-alias <service>`) to every container, even one with
# `network_mode: host`, and podman refuses both at once ("cannot set multiple networks without
# bridge network mode"). Later podman-compose releases do not add them. This drops that pair from
# `podman run`/`podman create` when `--network host` is among the arguments, and passes everything
# else through unchanged. run-app-services.sh gives it to podman-compose as --podman-path.
set -euo pipefail
args=("$@")
host=false
for ((i = 0; i < ${#args[@]}; i++)); do
  if [[ ${args[i]} == --network && ${args[i+1]:-} == host ]]; then host=true; fi
done
if [[ $host == true && ( ${args[0]:-} == run || ${args[0]:-} == create ) ]]; then
  kept=()
  for ((i = 0; i < ${#args[@]}; i++)); do
    case ${args[i]} in
      --net|--network-alias) ((i++)) || true ;;  # the flag and its value
      *) kept+=("${args[i]}") ;;
    esac
  done
  args=("${kept[@]}")
fi
exec podman "${args[@]}"
