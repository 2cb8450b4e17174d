package io.weir.benchmarks.systems;

import io.weir.benchmarks.Guarantee;
import io.weir.benchmarks.RunSpec;
import io.weir.benchmarks.Scenario;
import io.weir.benchmarks.SystemUnderTest;
import io.weir.common.internal.Worker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The application process of the restart, memory and start-to-ready workloads, started by
 * {@link ChildCountRunner} in a JVM of its own: runs the count topology of a scenario with
 * {@link WeirRunner} or {@link KafkaStreamsRunner}, exactly-once, exactly as the in-process runs
 * configure them, plus the settings given as {@code name=value} arguments (applied last). It prints
 * {@value #STARTED} once the system is started; {@value #READY} as soon as the system is ready to
 * process ({@link SystemUnderTest.Running#ready()}: state {@code RUNNING}), checked every
 * {@value #READY_POLL_MS} ms until then, and from then on, checked every
 * {@value #READY_CHECK_MS} ms, {@value #NOT_READY} whenever it stops being ready (a rebalance, a
 * restore) and {@value #READY} again when it is back, so the last of these lines is its state
 * (the scaling workloads' readiness of Kafka Streams); and, checked every 100 ms, {@value #RESTORED} and the
 * system's restored changelog records ({@link SystemUnderTest.Running#restoredRecords()}) whenever
 * that number changes. It runs until killed; a SIGTERM closes the system first. If the system fails
 * by itself, the process prints the error and exits with 1, which the parent sees as the run's
 * failure.
 *
 * <pre>
 * CountApp weir|kafka_streams WORKLOAD BOOTSTRAP INPUT OUTPUT APPLICATION_ID STATE_DIR [name=value ...]
 * </pre>
 */
final class CountApp {

    static final String STARTED = "count-app started";
    static final String RESTORED = "count-app restored records: ";
    static final String READY = "count-app ready";
    /** Printed when a system that was ready stops being so; it does not contain {@link #READY}. */
    static final String NOT_READY = "count-app not ready";

    static final long READY_POLL_MS = 5;
    static final long READY_CHECK_MS = 20;
    private static final long CHECK_INTERVAL_MS = 100;

    private CountApp() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 7) {
            System.err.println("usage: CountApp weir|kafka_streams WORKLOAD BOOTSTRAP INPUT OUTPUT APPLICATION_ID"
                    + " STATE_DIR [name=value ...]");
            System.exit(2);
        }
        Map<String, Object> extra = new LinkedHashMap<>();
        for (int i = 7; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            if (eq <= 0) {
                System.err.println("not a name=value setting: " + args[i]);
                System.exit(2);
            }
            extra.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        SystemUnderTest system = switch (args[0]) {
            case "weir" -> new WeirRunner(extra);
            case "kafka_streams" -> new KafkaStreamsRunner(extra);
            default -> throw new IllegalArgumentException("unknown system " + args[0]);
        };
        RunSpec spec = new RunSpec(
                Scenario.byLabel(args[1]),
                args[2],
                args[3],
                args[4],
                args[5],
                Guarantee.EXACTLY_ONCE,
                Path.of(args[6]));
        SystemUnderTest.Running running = system.start(spec);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                running.close();
                            } catch (Exception e) {
                                e.printStackTrace();
                            }
                        },
                        "count-app-shutdown"));
        System.out.println(
                STARTED + " (" + args[0] + ", pid " + ProcessHandle.current().pid() + ")");
        System.out.flush();
        // Not a daemon: this thread keeps the process up until it is killed.
        Worker.named("count-app-watch").daemon(false).loop(new Watch(running)::step);
    }

    /** What the process prints as the system's state changes; only the watch thread touches it. */
    private static final class Watch {
        private final SystemUnderTest.Running running;
        private long restored = 0;
        private boolean ready = false;
        private boolean wasReady = false;
        private long nextCheck = System.nanoTime();

        Watch(SystemUnderTest.Running running) {
            this.running = running;
        }

        void step(Worker self) throws InterruptedException {
            boolean readyNow = running.ready();
            if (readyNow != ready) {
                ready = readyNow;
                wasReady = true;
                System.out.println(ready ? READY : NOT_READY);
                System.out.flush();
            }
            if (System.nanoTime() - nextCheck >= 0) { // every 100 ms, as before readiness was watched
                nextCheck += CHECK_INTERVAL_MS * 1_000_000;
                long now = running.restoredRecords();
                if (now != restored) {
                    restored = now;
                    System.out.println(RESTORED + restored);
                    System.out.flush();
                }
                Optional<Throwable> failure = running.failure();
                if (failure.isPresent()) {
                    System.err.println("count-app failed:");
                    failure.get().printStackTrace();
                    System.err.flush();
                    Runtime.getRuntime().halt(1); // not exit: the shutdown hook's close could hang on a failed system
                }
            }
            self.pause(Duration.ofMillis(wasReady ? READY_CHECK_MS : READY_POLL_MS));
        }
    }
}
