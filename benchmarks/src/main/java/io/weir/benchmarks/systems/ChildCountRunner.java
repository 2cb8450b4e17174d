package io.weir.benchmarks.systems;

import com.fasterxml.jackson.databind.JsonNode;
import io.weir.benchmarks.RunSpec;
import io.weir.benchmarks.SystemUnderTest;
import io.weir.benchmarks.report.Json;
import io.weir.testkit.ChildJvm;
import io.weir.testkit.HttpProbe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Weir or Kafka Streams running the count topology in a child JVM ({@link CountApp}, started with
 * {@link ChildJvm} on this JVM's classpath), for the workloads about processes: restart after
 * SIGKILL, RSS, start to ready, and the scaling workloads' groups of instances
 * ({@link InstanceGroup}). Named as the system it runs ({@code weir}, {@code kafka_streams}).
 *
 * <p>{@link #start} returns as soon as the process is started. The running system's
 * {@link Running#failure()} is the process having exited (with the tail of its output: stdout and
 * stderr, where the system logs), {@link Running#restoredRecords()} the last count {@link CountApp}
 * printed, and {@link Running#close()} SIGKILLs it: these workloads kill
 * the process on purpose, and after a measurement nothing of it is needed.
 *
 * <p>{@link Running#ready()}: for Weir started {@link #withHttpPortPerRun() with a fixed HTTP port},
 * {@code GET /health/ready} answering 200, as a readiness probe sees it; otherwise (Kafka Streams,
 * which has no HTTP endpoint) the last of the lines {@value CountApp#READY} and
 * {@value CountApp#NOT_READY} in the process's output being the former.
 *
 * <p>{@link #instance(String)} is one named instance of an application whose several instances
 * form one group (the scaling workloads): its own identity, state directory and HTTP port.
 */
public final class ChildCountRunner implements SystemUnderTest {

    /** The name of failover's Weir with {@code failure.detection.ms=1000} ({@link #variant}). */
    public static final String FAST_DETECTION = "weir_detection_1s";

    /** Lines of the process's output quoted in a failure. */
    private static final int TAIL_LINES = 15;

    private final String system;
    /** The name in the results: the system's, or a variant's ({@link #variant}). */
    private final String label;

    private final List<String> jvmOptions;
    private final Map<String, String> settings;
    private final boolean httpPortPerRun;
    /** The instance's name, which is also its state directory under the run's; null: the run's directory. */
    private final String instance;

    /**
     * @param system {@code weir} or {@code kafka_streams}
     * @param jvmOptions the child JVM's options ({@code -Xmx...})
     * @param settings the system's settings on top of the benchmark's, passed as {@code name=value}
     */
    public ChildCountRunner(String system, List<String> jvmOptions, Map<String, String> settings) {
        this(system, system, jvmOptions, settings, false, null);
    }

    private ChildCountRunner(
            String system,
            String label,
            List<String> jvmOptions,
            Map<String, String> settings,
            boolean httpPortPerRun,
            String instance) {
        if (!system.equals("weir") && !system.equals("kafka_streams")) {
            throw new IllegalArgumentException("unknown system " + system);
        }
        this.system = system;
        this.label = label;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.settings = Map.copyOf(settings);
        this.httpPortPerRun = httpPortPerRun;
        this.instance = instance;
    }

    /**
     * This runner, but a Weir process gets {@code http.port} set to a port that is free when the
     * run starts, so that its {@code /health/ready} can be polled from the moment the process
     * starts (with {@code http.port=0} the port would be known only once the process says it); no
     * effect on Kafka Streams.
     */
    public ChildCountRunner withHttpPortPerRun() {
        return new ChildCountRunner(system, label, jvmOptions, settings, true, instance);
    }

    /** A variant of this runner named {@code label} in the results, with {@code more} settings on top. */
    public ChildCountRunner variant(String label, Map<String, String> more) {
        Map<String, String> s = new HashMap<>(settings);
        s.putAll(more);
        return new ChildCountRunner(system, label, jvmOptions, s, httpPortPerRun, instance);
    }

    /**
     * The instance {@code name} of this runner's application, one of several in one consumer group:
     * static membership under that name (Weir {@code instance.id}, which also names its
     * transactional ids; Kafka Streams {@code main.consumer.group.instance.id}, to which it appends
     * the thread index), the state directory {@code <run's state dir>/<name>} (Kafka Streams keeps
     * its process id there, so each instance has its own), and for Weir an HTTP port of its own
     * ({@link #withHttpPortPerRun()}).
     */
    ChildCountRunner instance(String name) {
        Map<String, String> s = new HashMap<>(settings);
        s.put(
                system.equals("weir")
                        ? "instance.id"
                        : StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG),
                name);
        return new ChildCountRunner(system, label, jvmOptions, s, true, name);
    }

    @Override
    public String name() {
        return label;
    }

    @Override
    public Running start(RunSpec spec) {
        Path stateDir = instance == null ? spec.stateDir() : spec.stateDir().resolve(instance);
        try {
            Files.createDirectories(stateDir);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create " + stateDir, e);
        }
        List<String> args = new ArrayList<>(List.of(
                system,
                spec.scenario().label(),
                spec.bootstrapServers(),
                spec.inputTopic(),
                spec.outputTopic(),
                spec.applicationId(),
                stateDir.toString()));
        settings.forEach((k, v) -> args.add(k + "=" + v));
        int httpPort = httpPortPerRun && system.equals("weir") ? freePort() : -1;
        if (httpPort > 0) {
            args.add("http.port=" + httpPort);
        }
        HttpProbe probe = httpPort > 0 ? HttpProbe.localhost(httpPort) : null;
        long startedNanos = System.nanoTime();
        ChildJvm child = ChildJvm.builder(CountApp.class)
                .jvmOptions(jvmOptions.toArray(String[]::new))
                .args(args)
                .start();
        return new Running() {
            /** When {@link #ready()} first saw {@link CountApp#STARTED} in the output; -1 before. */
            private volatile long sawStartedNanos = -1;

            @Override
            public Optional<Throwable> failure() {
                if (child.isAlive()) {
                    return Optional.empty();
                }
                return Optional.of(new IllegalStateException(system + " process exited with "
                        + child.exitCode().orElse(-1) + "; output tail: " + child.outputTail(TAIL_LINES)));
            }

            /** The last number {@link CountApp} printed, 0 before any. */
            @Override
            public long restoredRecords() {
                String output = child.output();
                int at = output.lastIndexOf(CountApp.RESTORED);
                if (at < 0) {
                    return 0;
                }
                int from = at + CountApp.RESTORED.length();
                int to = from;
                while (to < output.length() && Character.isDigit(output.charAt(to))) {
                    to++;
                }
                return to > from ? Long.parseLong(output.substring(from, to)) : 0;
            }

            @Override
            public boolean ready() {
                String output = child.output();
                if (sawStartedNanos < 0 && output.contains(CountApp.STARTED)) {
                    sawStartedNanos = System.nanoTime();
                }
                if (probe == null) {
                    return output.lastIndexOf(CountApp.READY) > output.lastIndexOf(CountApp.NOT_READY);
                }
                try {
                    return probe.status("/health/ready") == 200;
                } catch (RuntimeException e) {
                    return false; // e.g. a connection reset while the server starts: not ready yet
                }
            }

            /** Weir with an HTTP port: the task ids {@code /info} lists over all threads; empty otherwise. */
            @Override
            public OptionalInt activeTasks() {
                if (probe == null) {
                    return OptionalInt.empty();
                }
                try {
                    HttpProbe.Response info = probe.get("/info");
                    if (info.status() != 200) {
                        return OptionalInt.empty();
                    }
                    int tasks = 0;
                    for (JsonNode thread : Json.MAPPER.readTree(info.body()).path("tasksByThread")) {
                        tasks += thread.size();
                    }
                    return OptionalInt.of(tasks);
                } catch (IOException | RuntimeException e) {
                    return OptionalInt.empty();
                }
            }

            /**
             * {@code started_seconds}: from the process start until {@link #ready()}, polled, first
             * saw the line {@link CountApp} prints once the system's {@code start()} returned (JVM
             * start, class loading, the clients' creation); absent if nothing polled it.
             */
            @Override
            public Map<String, Object> details() {
                long saw = sawStartedNanos;
                return saw < 0 ? Map.of() : Map.of("started_seconds", Math.round((saw - startedNanos) / 1e6) / 1e3);
            }

            @Override
            public OptionalLong pid() {
                return OptionalLong.of(child.pid());
            }

            /** SIGKILL, and returns once the process is gone. */
            @Override
            public void close() {
                child.kill();
            }
        };
    }

    /** A TCP port free on the loopback interface right now (another process may still take it, rarely). */
    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot find a free port", e);
        }
    }
}
