package io.weir.deploy.compose;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the Compose Specification (compose-spec/compose-spec, schema/compose-spec.json) allows, for
 * the parts docker-compose.yml uses, written out by hand: no Maven artifact ships the schema and
 * the build must not download it. A key outside these sets is a typo or a tool-specific extension
 * that `docker compose` would reject; {@code x-} keys are the specification's extensions.
 */
final class ComposeSpec {

    static final Set<String> TOP_LEVEL =
            Set.of("name", "include", "services", "networks", "volumes", "secrets", "configs", "models");

    static final Set<String> SERVICE = Set.of(
            "annotations",
            "attach",
            "build",
            "blkio_config",
            "cap_add",
            "cap_drop",
            "cgroup",
            "cgroup_parent",
            "command",
            "configs",
            "container_name",
            "cpu_count",
            "cpu_percent",
            "cpu_shares",
            "cpu_quota",
            "cpu_period",
            "cpu_rt_period",
            "cpu_rt_runtime",
            "cpus",
            "cpuset",
            "credential_spec",
            "depends_on",
            "deploy",
            "develop",
            "device_cgroup_rules",
            "devices",
            "dns",
            "dns_opt",
            "dns_search",
            "domainname",
            "entrypoint",
            "env_file",
            "label_file",
            "environment",
            "expose",
            "extends",
            "external_links",
            "extra_hosts",
            "gpus",
            "group_add",
            "healthcheck",
            "hostname",
            "image",
            "init",
            "ipc",
            "isolation",
            "labels",
            "links",
            "logging",
            "mac_address",
            "mem_limit",
            "mem_reservation",
            "mem_swappiness",
            "memswap_limit",
            "models",
            "network_mode",
            "networks",
            "oom_kill_disable",
            "oom_score_adj",
            "pid",
            "pids_limit",
            "platform",
            "ports",
            "post_start",
            "pre_stop",
            "privileged",
            "profiles",
            "provider",
            "pull_policy",
            "read_only",
            "restart",
            "runtime",
            "scale",
            "secrets",
            "security_opt",
            "shm_size",
            "stdin_open",
            "stop_grace_period",
            "stop_signal",
            "storage_opt",
            "sysctls",
            "tmpfs",
            "tty",
            "ulimits",
            "use_api_socket",
            "user",
            "userns_mode",
            "uts",
            "volumes",
            "volumes_from",
            "working_dir");

    static final Set<String> BUILD = Set.of(
            "context",
            "dockerfile",
            "dockerfile_inline",
            "entitlements",
            "args",
            "ssh",
            "labels",
            "cache_from",
            "cache_to",
            "no_cache",
            "additional_contexts",
            "network",
            "provenance",
            "sbom",
            "pull",
            "target",
            "shm_size",
            "extra_hosts",
            "isolation",
            "privileged",
            "secrets",
            "tags",
            "ulimits",
            "platforms");

    static final Set<String> HEALTHCHECK =
            Set.of("disable", "interval", "retries", "test", "timeout", "start_period", "start_interval");

    static final Set<String> DEPENDS_ON = Set.of("condition", "restart", "required");

    static final Set<String> CONDITIONS =
            Set.of("service_started", "service_healthy", "service_completed_successfully");

    static final Pattern RESTART = Pattern.compile("no|always|unless-stopped|on-failure(:\\d+)?");

    private ComposeSpec() {}

    static boolean extension(String key) {
        return key.startsWith("x-");
    }
}
