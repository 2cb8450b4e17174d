package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.testing.ExactCounts;
import io.weir.testing.OpsInstance;
import io.weir.testkit.ChildProcessKafka;
import io.weir.testkit.HttpProbe;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.SteadyInput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An instance that cannot make progress says so, once, clearly, and says when it is over: a
 * broker outage of 12 s or more and an output topic deleted under a running instance, against a broker
 * process the test can stop and a child JVM whose log the test reads. Liveness stays up while
 * Kafka is the problem; readiness is down with a {@code stalled} problem for as long as it lasts.
 *
 * <p>Prints the detection and recovery times as {@code FIGURE name=value} lines.
 */
class StallIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.perClass(() -> ChildProcessKafka.start(1));

    private static final ObjectMapper JSON = new ObjectMapper();
    /** How long the broker stays down at least: longer if the instance has not reported it yet. */
    private static final Duration OUTAGE = Duration.ofSeconds(12);
    /** Deadline of the waits for the report of the outage: fails a run that never reports it, not a slow one. */
    private static final Duration REPORTED = Duration.ofSeconds(90);
    /** How the diagnosis may say that the cluster is out of reach. */
    private static final String[] CLUSTER_DOWN = {
        "cannot reach the Kafka cluster", "does not answer", "has no broker up"
    };

    private static final String STALL_WARN = "cannot make progress: ";
    private static final String RECOVERED = "is making progress again after ";
    private static final Pattern WARN_LINE = Pattern.compile("(?m)^.* WARN .*" + Pattern.quote(STALL_WARN) + ".*$");
    private static final Pattern RECOVERED_SECONDS = Pattern.compile(Pattern.quote(RECOVERED) + "(\\d+) s");

    @Test
    void brokerOutageIsReportedOnceWithItsCauseAndTheRecoveryToo() throws Exception {
        ChildProcessKafka kafka = (ChildProcessKafka) KAFKA.cluster();
        int node = kafka.nodeIds().get(0);
        OpsInstance.Spec spec = spec("stall-outage", 4);
        try (SteadyInput input = SteadyInput.start(
                        KAFKA.bootstrapServers(), spec.input(), 200, 200, 40_000, Duration.ofSeconds(120));
                OpsInstance app = OpsInstance.start(spec, "outage", Files.createTempDirectory("weir-stall-outage-"))) {
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(app::ready);
            await().atMost(Duration.ofSeconds(30)).until(() -> input.acknowledged() >= 1_000);

            try (Probes probes = Probes.start(app.http())) {
                int linesBefore = lines(app.jvm().output());
                long killed = System.nanoTime();
                kafka.kill(node);
                // The broker stays down until all of this was seen, however long a loaded machine takes.
                app.jvm().awaitOutput(STALL_WARN, REPORTED);
                long warnedMs = msSince(killed);
                await().atMost(REPORTED).pollInterval(Duration.ofMillis(100)).until(probes::sawStalled);
                long notReadyMs = probes.firstStalledMs(killed);
                // Readiness names the symptom at once, and the cause once the diagnosis is back (as the WARN does).
                await().atMost(REPORTED)
                        .until(() -> probes.stalledCauses().stream().anyMatch(StallIT::namesClusterDown));
                // The fault lasts at least OUTAGE (over twice stall.warn.ms): nothing to wait for, the test holds the
                // broker down.
                LockSupport.parkNanos(killed + OUTAGE.toNanos() - System.nanoTime());
                int linesDuringOutage = lines(app.jvm().output()) - linesBefore;

                long restarting = System.nanoTime();
                kafka.restart(node);
                long brokerBackMs = msSince(restarting);
                app.jvm().awaitOutput(RECOVERED, Duration.ofSeconds(60));
                long recoveredMs = msSince(restarting);
                await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(100))
                        .until(app::ready);
                long readyAgainMs = msSince(restarting);
                await().atMost(Duration.ofSeconds(10)).until(probes::lastReady, status -> status == 200);
                probes.stop();

                String out = app.jvm().output();
                List<String> warns = matches(WARN_LINE, out);
                Matcher recovered = RECOVERED_SECONDS.matcher(out);
                assertThat(recovered.find()).isTrue();
                long stallSeconds = Long.parseLong(recovered.group(1));
                System.out.printf(
                        "FIGURE outage_warn_after_kill_ms=%d (not ready after %d ms; %d WARN lines;"
                                + " %d log lines in all, Kafka clients' included, during the outage of %d ms)%n",
                        warnedMs, notReadyMs, warns.size(), linesDuringOutage, msSince(killed) - msSince(restarting));
                System.out.printf(
                        "FIGURE outage_recovery_after_broker_restart_ms=%d (broker back after %d ms;"
                                + " ready after %d ms; the INFO says %d s)%n",
                        recoveredMs, brokerBackMs, readyAgainMs, stallSeconds);
                System.out.println("StallIT outage WARN: " + warns.get(0));

                System.out.println("StallIT outage readiness causes: " + probes.stalledCauses());
                assertThat(warns.get(0)).as("the WARN names the cause").containsAnyOf(CLUSTER_DOWN);
                assertThat(warns.get(0)).contains(spec.applicationId(), "tasks waiting: 0_");
                assertThat(warns)
                        .as("WARNs while the stall lasted %d s (one, then at most one per 30 s)", stallSeconds)
                        .hasSizeLessThanOrEqualTo(1 + (int) (stallSeconds / 30));
                assertThat(probes.liveStatuses())
                        .as("/health/live during the outage and the recovery")
                        .isNotEmpty()
                        .containsOnly(200);
                assertThat(probes.readyStatuses()).contains(503).endsWith(200);
            }
            ExactCounts.assertCountedOnce(
                    KAFKA.client(), spec.output(), input.stop(Duration.ofSeconds(60)), Duration.ofMinutes(1));
            app.jvm().terminate(Duration.ofSeconds(40));
        }
    }

    @Test
    void deletedOutputTopicIsNamedInAWarnWithinSeconds() throws Exception {
        OpsInstance.Spec spec = spec("stall-deleted", 2);
        // Input must still flow after the topic is back (the test waits for 300 more records then), however
        // long the stall and the recovery take on a loaded machine: a bound well past the test's waits.
        try (SteadyInput input = SteadyInput.start(
                        KAFKA.bootstrapServers(), spec.input(), 100, 100, 60_000, Duration.ofMinutes(10));
                OpsInstance app =
                        OpsInstance.start(spec, "deleted", Files.createTempDirectory("weir-stall-deleted-"))) {
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(app::ready);
            await().atMost(Duration.ofSeconds(30)).until(() -> input.acknowledged() >= 300);

            try (Probes probes = Probes.start(app.http())) {
                long deleted = System.nanoTime();
                KAFKA.client().deleteTopic(spec.output());
                String named = "output topic '" + spec.output() + "' does not exist";
                // The WARN is due after stall.warn.ms (5 s) and at most 8 s more for the diagnosis; room for a loaded
                // machine.
                app.jvm().awaitOutput(named, Duration.ofSeconds(30));
                long warnedMs = msSince(deleted);
                await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(100))
                        .until(probes::sawStalled);
                long notReadyMs = probes.firstStalledMs(deleted);
                // The topic's name may first appear in another line than the WARN: wait for the WARN itself.
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> !matches(WARN_LINE, app.jvm().output()).isEmpty());
                List<String> warns = matches(WARN_LINE, app.jvm().output());
                System.out.printf("FIGURE deleted_output_warn_ms=%d (not ready after %d ms)%n", warnedMs, notReadyMs);
                System.out.println("StallIT deleted-topic WARN: " + (warns.isEmpty() ? "none" : warns.get(0)));
                assertThat(warns).as("WARN lines").isNotEmpty();
                assertThat(warns.get(0)).contains(named);
                // Readiness names the symptom at once, and the cause once the diagnosis is back (as the WARN does).
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> probes.stalledCauses().stream().anyMatch(cause -> cause.contains(named)));
                System.out.println("StallIT deleted-topic readiness causes: " + probes.stalledCauses());

                long recreated = System.nanoTime();
                KAFKA.client().createTopic(spec.output(), 2);
                app.jvm().awaitOutput(RECOVERED, Duration.ofSeconds(60));
                await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(100))
                        .until(app::ready);
                System.out.printf("FIGURE deleted_output_recovery_after_recreate_ms=%d%n", msSince(recreated));
                await().atMost(Duration.ofSeconds(10)).until(probes::lastReady, status -> status == 200);
                probes.stop();
                // One WARN, then at most one per 30 s while the stall lasts: a slow recovery may legitimately repeat
                // it.
                Matcher recovered = RECOVERED_SECONDS.matcher(app.jvm().output());
                assertThat(recovered.find()).isTrue();
                long stallSeconds = Long.parseLong(recovered.group(1));
                assertThat(matches(WARN_LINE, app.jvm().output()))
                        .as("WARNs while the stall lasted %d s (one, then at most one per 30 s)", stallSeconds)
                        .isNotEmpty()
                        .hasSizeLessThanOrEqualTo(1 + (int) (stallSeconds / 30));
                assertThat(probes.liveStatuses()).as("/health/live throughout").containsOnly(200);
            }
            // Every key is counted again after the topic came back (100 keys, 100 records/s): the new topic's
            // last count per key is the whole input's, so nothing was lost or counted twice across the deletion.
            long acknowledged = input.acknowledged();
            await().atMost(Duration.ofSeconds(30)).until(() -> input.acknowledged() >= acknowledged + 300);
            ExactCounts.assertCountedOnce(
                    KAFKA.client(), spec.output(), input.stop(Duration.ofSeconds(30)), Duration.ofMinutes(1));
            app.jvm().terminate(Duration.ofSeconds(40));
        }
    }

    private static OpsInstance.Spec spec(String name, int partitions) {
        String input = KAFKA.uniqueTopic(name + "-in", partitions);
        String output = KAFKA.uniqueTopic(name + "-out", partitions);
        return new OpsInstance.Spec(KAFKA.bootstrapServers(), input, output, name + "-" + input);
    }

    private static boolean namesClusterDown(String cause) {
        return java.util.Arrays.stream(CLUSTER_DOWN).anyMatch(cause::contains);
    }

    private static long msSince(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
    }

    private static int lines(String text) {
        return (int) text.chars().filter(c -> c == '\n').count();
    }

    private static List<String> matches(Pattern pattern, String text) {
        List<String> result = new ArrayList<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            result.add(m.group());
        }
        return result;
    }

    /** Asks {@code /health/live} and {@code /health/ready} every 200 ms and keeps the answers. */
    private static final class Probes implements AutoCloseable {

        record Answer(long nanos, int live, int ready, String readyBody) {}

        private final List<Answer> answers = new CopyOnWriteArrayList<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        private Probes(HttpProbe http) {
            thread = new Thread(
                    () -> {
                        while (running.get()) {
                            int live = http.status("/health/live");
                            HttpProbe.Response ready = http.get("/health/ready");
                            answers.add(new Answer(System.nanoTime(), live, ready.status(), ready.body()));
                            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
                        }
                    },
                    "probes");
            thread.setDaemon(true);
        }

        static Probes start(HttpProbe http) {
            Probes p = new Probes(http);
            p.thread.start();
            return p;
        }

        boolean sawStalled() {
            return answers.stream().anyMatch(Probes::stalled);
        }

        long firstStalledMs(long since) {
            return answers.stream()
                    .filter(Probes::stalled)
                    .findFirst()
                    .map(a -> TimeUnit.NANOSECONDS.toMillis(a.nanos() - since))
                    .orElse(-1L);
        }

        private static boolean stalled(Answer a) {
            return a.ready() == 503 && !stalledCause(a.readyBody()).isEmpty();
        }

        /** The cause of the {@code stalled} problem in a readiness body; empty if there is none. */
        static String stalledCause(String body) {
            try {
                for (JsonNode problem : JSON.readTree(body).path("problems")) {
                    if (problem.path("kind").asText().equals("stalled")) {
                        return problem.path("cause").asText();
                    }
                }
                return "";
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON: " + body, e);
            }
        }

        /** The causes readiness gave while stalled, in order, each once. */
        List<String> stalledCauses() {
            return answers.stream()
                    .map(a -> stalledCause(a.readyBody()))
                    .filter(c -> !c.isEmpty())
                    .distinct()
                    .toList();
        }

        List<Integer> liveStatuses() {
            return answers.stream().map(Answer::live).toList();
        }

        /** The latest readiness status seen; 0 before the first answer. */
        int lastReady() {
            return answers.isEmpty() ? 0 : answers.get(answers.size() - 1).ready();
        }

        List<Integer> readyStatuses() {
            return answers.stream().map(Answer::ready).toList();
        }

        void stop() throws InterruptedException {
            running.set(false);
            thread.join(2 * HttpProbe.TIMEOUT.toMillis() + 1_000);
        }

        @Override
        public void close() {
            try {
                stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
