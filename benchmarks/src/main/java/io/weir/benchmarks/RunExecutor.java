package io.weir.benchmarks;

import io.weir.benchmarks.input.Workload;
import io.weir.common.internal.Deadline;
import io.weir.testkit.KafkaTestClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one system under test once on one {@link Job} (process an input, or restore a changelog)
 * and times it.
 *
 * <p>Each run gets a fresh output topic, a fresh group (application) id and a fresh state
 * directory, so no run can resume from another's offsets or state. What the job needs beforehand
 * (a restore's changelog; a restart's first process; a scaling workload's group with its state) is
 * prepared off the clock. The clock starts just before {@link SystemUnderTest#start} (group join and
 * producer initialisation are part of the cost a user pays), or a scaling job's event
 * ({@link Job#start}), and stops at the moment {@link Job#await} reports (usually its return). A run that fails, hangs on
 * start, or exceeds the timeout becomes a failed {@link RunResult} instead of stopping the benchmark;
 * its topics (every topic named after its application id: output, changelogs, a per-run input) and
 * state are removed either way.
 */
public final class RunExecutor {

    private static final Logger log = LoggerFactory.getLogger(RunExecutor.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(60);
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    /** This JVM's CPU time, for {@link Scenario#reportsCpu()}: the system under test, the probes, a scraper. */
    private static final com.sun.management.OperatingSystemMXBean CPU =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private final KafkaTestClient client;
    private final Job job;
    private final Duration timeout;

    RunExecutor(KafkaTestClient client, Job job, Duration timeout) {
        this.client = client;
        this.job = job;
        this.timeout = timeout;
    }

    RunResult execute(SystemUnderTest system, Guarantee guarantee, int run) {
        Scenario scenario = job.scenario();
        String id = "bench-" + scenario.label() + "-" + system.name().replace('_', '-') + "-"
                + guarantee.label().replace('_', '-') + "-" + SEQUENCE.incrementAndGet();
        String output = id + "-out";
        long records = job.records();
        Path stateDir = null;
        RunSpec spec = null;
        try {
            Workload.createTopic(client, output, job.partitions(), Map.of());
            stateDir = Files.createTempDirectory(id + "-state-");
            spec = new RunSpec(
                    scenario, client.bootstrapServers(), job.inputTopic(id), output, id, guarantee, stateDir);
            job.prepare(spec, system, timeout);
            // Garbage from the previous run (or from writing the input) should not be collected on this run's clock.
            System.gc();
            log.info(
                    "{} {} {} run {} on {} ({} records) ...",
                    scenario.label(),
                    system.name(),
                    guarantee.label(),
                    run,
                    spec.inputTopic(),
                    records);
            Measured measured = measure(system, spec);
            double seconds = measured.seconds();
            Optional<String> wrong = job.verify(spec);
            if (wrong.isPresent()) {
                log.error(
                        "{} {} {} run {}: wrong output: {}",
                        scenario.label(),
                        system.name(),
                        guarantee.label(),
                        run,
                        wrong.get());
                return RunResult.failed(
                                scenario, system.name(), guarantee, run, records, "wrong output: " + wrong.get())
                        .withDetails(merge(measured.details(), details(spec)));
            }
            log.info(
                    "{} {} {} run {}: {} s{}{}",
                    scenario.label(),
                    system.name(),
                    guarantee.label(),
                    run,
                    String.format("%.3f", seconds),
                    records == 0 ? "" : ", " + Math.round(records / seconds) + " records/s",
                    measured.details().isEmpty() ? "" : " " + measured.details());
            return RunResult.succeeded(scenario, system.name(), guarantee, run, records, seconds)
                    .withDetails(merge(measured.details(), details(spec)));
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            String error = describe(e);
            log.error("{} {} {} run {} failed: {}", scenario.label(), system.name(), guarantee.label(), run, error, e);
            return RunResult.failed(scenario, system.name(), guarantee, run, records, error)
                    .withDetails(spec == null ? Map.of() : details(spec));
        } finally {
            cleanUp(id, stateDir);
        }
    }

    /** The job's details of the run; a failure to collect them is logged, not fatal. */
    private Map<String, Object> details(RunSpec spec) {
        try {
            return job.details(spec);
        } catch (RuntimeException e) {
            log.warn("Cannot collect the details of {}: {}", spec.applicationId(), describe(e));
            return Map.of();
        }
    }

    /** The seconds of a run and the system's own details of it ({@link SystemUnderTest.Running#details()}). */
    private record Measured(double seconds, Map<String, Object> details) {}

    private Measured measure(SystemUnderTest system, RunSpec spec) throws Exception {
        long cpuStarted = CPU.getProcessCpuTime();
        long started = System.nanoTime();
        Deadline deadline = Deadline.after(timeout);
        SystemUnderTest.Running running = startWithin(job, system, spec, timeout);
        try {
            long stopped = job.await(spec, running, started, deadline);
            long cpu = CPU.getProcessCpuTime() - cpuStarted;
            Map<String, Object> details = new LinkedHashMap<>();
            if (spec.scenario().reportsCpu() && cpu >= 0) {
                details.put("cpu_seconds", Math.round(cpu / 1e6) / 1e3);
                if (job.records() > 0) {
                    details.put("cpu_s_per_m_records", Math.round(cpu / 1e3 / job.records() * 1e3) / 1e3);
                }
            }
            details.putAll(running.details());
            return new Measured((stopped - started) / 1e9, details);
        } finally {
            closeWithin(running, system.name());
        }
    }

    /** The system's details, then the job's. */
    private static Map<String, Object> merge(Map<String, Object> system, Map<String, Object> job) {
        Map<String, Object> all = new LinkedHashMap<>(system);
        all.putAll(job);
        return all;
    }

    /**
     * The job's timed start ({@link Job#start}: usually the system's), on another thread so that a
     * start that never returns fails the run, not the program.
     */
    private static SystemUnderTest.Running startWithin(Job job, SystemUnderTest system, RunSpec spec, Duration timeout)
            throws Exception {
        CompletableFuture<SystemUnderTest.Running> starting = new CompletableFuture<>();
        Thread starter = new Thread(
                () -> {
                    try {
                        starting.complete(job.start(system, spec));
                    } catch (Throwable e) {
                        starting.completeExceptionally(e);
                    }
                },
                system.name() + "-starter");
        starter.setDaemon(true);
        starter.start();
        try {
            return starting.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception ex ? ex : e;
        } catch (TimeoutException e) {
            // If it ever finishes starting, stop it so that it does not steal CPU from later runs.
            starting.thenAccept(r -> closeWithin(r, system.name()));
            throw new IllegalStateException("start() did not return within " + timeout.toSeconds() + " s", e);
        }
    }

    /**
     * Closes on another thread with a deadline: a system that hangs on close must not block the
     * remaining runs. It is logged, not failed: the measurement was already taken.
     */
    private static void closeWithin(SystemUnderTest.Running running, String name) {
        Thread closer = new Thread(
                () -> {
                    try {
                        running.close();
                    } catch (Exception e) {
                        log.warn("{}: close failed: {}", name, describe(e));
                    }
                },
                name + "-closer");
        closer.setDaemon(true);
        closer.start();
        try {
            closer.join(CLOSE_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (closer.isAlive()) {
            log.warn(
                    "{}: close did not return within {} s; its threads may still run", name, CLOSE_TIMEOUT.toSeconds());
        }
    }

    /** Deletes the run's topics (output, changelogs: all named {@code <id>-...}) and its state directory. */
    private void cleanUp(String id, Path stateDir) {
        try {
            // Keeps the broker's disk use at the inputs plus one run's topics.
            for (String topic : client.admin().listTopics().names().get(30, TimeUnit.SECONDS)) {
                if (topic.startsWith(id + "-")) {
                    client.deleteTopic(topic);
                }
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            log.warn("Cannot delete the topics of {}: {}", id, describe(e));
        }
        if (stateDir != null) {
            deleteRecursively(stateDir);
        }
    }

    private static void deleteRecursively(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            log.warn("Cannot delete {}: {}", dir, e.getMessage());
        }
    }

    /** One line: the exception and, if different, its root cause. */
    public static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = root == e ? e.toString() : e + " (root cause: " + root + ")";
        return text.replaceAll("\\s*\\R\\s*", " ");
    }
}
