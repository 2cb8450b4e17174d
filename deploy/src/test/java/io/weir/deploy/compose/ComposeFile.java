package io.weir.deploy.compose;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Compose file as the tests read it (docker-compose.yml, or the tutorial's compose.yaml): its
 * services, and the Weir replicas among them (the services that run {@code serve <sample>}).
 */
public record ComposeFile(JsonNode root) {

    static final String PATH = "docker-compose.yml";
    public static final String STATE_DIR = "/var/lib/weir";

    private static final Pattern DURATION = Pattern.compile("(\\d+)(h|ms|m|s|us|ns)");

    static ComposeFile load() {
        return load(PATH);
    }

    /** The Compose file at {@code relative} to the repository root, read strictly (see {@link RepositoryFiles}). */
    public static ComposeFile load(String relative) {
        return new ComposeFile(RepositoryFiles.yaml(relative));
    }

    Map<String, JsonNode> services() {
        Map<String, JsonNode> services = new LinkedHashMap<>();
        root.path("services").fields().forEachRemaining(e -> services.put(e.getKey(), e.getValue()));
        return services;
    }

    public JsonNode service(String name) {
        JsonNode service = root.path("services").get(name);
        if (service == null) {
            throw new AssertionError("no service " + name + " in the compose file");
        }
        return service;
    }

    /** The services running a Weir application as a service: command {@code serve <sample>}. */
    List<String> replicas() {
        List<String> replicas = new ArrayList<>();
        services().forEach((name, s) -> {
            if ("serve".equals(s.path("command").path(0).asText())) {
                replicas.add(name);
            }
        });
        return replicas;
    }

    /** A service's environment as strings, from the mapping or the list form. */
    public static Map<String, String> environment(JsonNode service) {
        Map<String, String> env = new LinkedHashMap<>();
        JsonNode node = service.path("environment");
        if (node.isObject()) {
            node.fields()
                    .forEachRemaining(e -> env.put(
                            e.getKey(),
                            e.getValue().isNull() ? null : e.getValue().asText()));
        } else if (node.isArray()) {
            node.forEach(item -> {
                String[] kv = item.asText().split("=", 2);
                env.put(kv[0], kv.length > 1 ? kv[1] : null);
            });
        }
        return env;
    }

    /** The named volume mounted at {@code target}, from the short or the long syntax. */
    public static Optional<String> volumeAt(JsonNode service, String target) {
        for (JsonNode v : service.path("volumes")) {
            if (v.isTextual()) {
                String[] parts = v.asText().split(":");
                if (parts.length >= 2 && parts[1].equals(target)) {
                    return Optional.of(parts[0]);
                }
            } else if (target.equals(v.path("target").asText())) {
                return Optional.of(v.path("source").asText());
            }
        }
        return Optional.empty();
    }

    /** Bind mounts of a service: host path (relative to the compose file) to container path. */
    static Map<String, String> bindMounts(JsonNode service) {
        Map<String, String> mounts = new LinkedHashMap<>();
        for (JsonNode v : service.path("volumes")) {
            String[] parts = v.asText().split(":");
            if (parts.length >= 2 && (parts[0].startsWith("./") || parts[0].startsWith("/"))) {
                mounts.put(parts[0], parts[1]);
            }
        }
        return mounts;
    }

    /** The container ports a service publishes, by host port ("8081:8080"). */
    public static Map<Integer, Integer> publishedPorts(JsonNode service) {
        Map<Integer, Integer> ports = new LinkedHashMap<>();
        for (JsonNode p : service.path("ports")) {
            String[] parts = p.asText().split(":");
            ports.put(Integer.parseInt(parts[parts.length - 2]), Integer.parseInt(parts[parts.length - 1]));
        }
        return ports;
    }

    /** A Compose duration ("45s", "1m30s") as the Compose Specification defines it. */
    public static Duration duration(String text) {
        Matcher m = DURATION.matcher(text);
        Duration total = Duration.ZERO;
        int end = 0;
        while (m.find() && m.start() == end) {
            long n = Long.parseLong(m.group(1));
            total = total.plus(
                    switch (m.group(2)) {
                        case "h" -> Duration.ofHours(n);
                        case "m" -> Duration.ofMinutes(n);
                        case "s" -> Duration.ofSeconds(n);
                        case "ms" -> Duration.ofMillis(n);
                        case "us" -> Duration.ofNanos(n * 1000);
                        default -> Duration.ofNanos(n);
                    });
            end = m.end();
        }
        if (end == 0 || end != text.length()) {
            throw new IllegalArgumentException("not a Compose duration: " + text);
        }
        return total;
    }
}
