package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.WeirApp;
import io.weir.common.internal.Deadline;
import io.weir.dsl.Async;
import io.weir.testing.AsyncEnrichApp;
import io.weir.testing.TestApps;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.LookupService;
import io.weir.testkit.SteadyInput;
import io.weir.testkit.TestSizes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An asynchronous enrichment ({@link AsyncEnrichApp}, in this JVM, exactly-once) while the service
 * it calls misbehaves (issue 33), records arriving steadily throughout:
 * <ul>
 *   <li>the service hangs (answers nothing): with a short time-out and no retries, the calls it
 *       swallowed go to the dead-letter topic (stage {@code call}), every other record is enriched,
 *       and the records after the hang are enriched: the partitions move on;</li>
 *   <li>the service is down (every call 503) for a while: retries with back-off bridge the
 *       outage, every record is enriched exactly once;</li>
 *   <li>the same outage with {@link Async.OnFailure#FAIL}: the instance fails naming the record,
 *       and a new instance started once the service is back enriches every record exactly once:
 *       nothing was committed past the unfinished calls.</li>
 * </ul>
 * Each checks every input against its output or dead letter, per-key order, and the counts per
 * key downstream of the step.
 */
class AsyncServiceFaultsIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final int PARTITIONS = 6;
    /** Enough that a key's next record comes after its call timed out (10 s apart). */
    private static final int KEYS = 3_000;

    private static final int RATE = 300;
    private static final Duration LATENCY = Duration.ofMillis(20);
    private static final Duration JITTER = Duration.ofMillis(10);
    private static final Duration SETTLE = Duration.ofMinutes(5);
    /**
     * Calls in flight per task: a backlog (at a start, after an outage) is called in bursts of at
     * most 1,200 new connections, which the service and the instance, in this JVM beside the
     * broker, answer in time on a loaded machine; an outage fills it, and the partitions pause.
     */
    private static final int MAX_IN_FLIGHT = 200;
    /**
     * The hung calls' time-out: short against the outage, long against the healthy calls'
     * latency on a loaded machine (a healthy call timed out would be dead-lettered too).
     */
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    /**
     * How long the service is down. The retries' back-off (200 ms doubling to 2 s) reaches its
     * longest wait after 3 s, so what a longer outage adds is more of the same; the full build
     * runs the 30 s.
     */
    private static final Duration OUTAGE = Duration.ofSeconds(TestSizes.pick(10, 30));

    /** The topics and the running instance of one test. */
    private record Run(
            String input, String output, String totals, String deadLetters, String applicationId, Path state) {

        static Run create(String name) throws Exception {
            String input = KAFKA.uniqueTopic(name + "-in", PARTITIONS);
            return new Run(
                    input,
                    KAFKA.uniqueTopic(name + "-out", PARTITIONS),
                    KAFKA.uniqueTopic(name + "-totals", PARTITIONS),
                    KAFKA.uniqueTopic(name + "-dead", 1),
                    name + "-" + input,
                    Files.createTempDirectory("weir-" + name + "-"));
        }

        WeirApp start(LookupService service, AsyncEnrichApp.Options options) {
            AsyncEnrichApp.Lookup lookup = new AsyncEnrichApp.Lookup(service.uri(), options.timeout());
            WeirApp app = TestApps.start(
                    AsyncEnrichApp.topology(input, output, totals, lookup, options),
                    TestApps.config(KAFKA.bootstrapServers(), applicationId)
                            .stateDir(state)
                            .set("processing.guarantee", "exactly_once")
                            .set("dead.letter.topic", deadLetters)
                            .build());
            await().atMost(SETTLE).until(() -> app.state() == WeirApp.State.RUNNING);
            return app;
        }

        SteadyInput steadyInput() {
            return Enrichments.input(KAFKA.bootstrapServers(), input, KEYS, RATE, Duration.ofMinutes(5));
        }

        /** Waits until at least {@code records} inputs were enriched (read_committed). */
        void awaitEnriched(long records) {
            KAFKA.client().readUntil(output, r -> r.size() >= records, SETTLE);
        }

        /** Stops the input, waits until every input came out, and checks that each came out once. */
        Enrichments.Outcome finish(SteadyInput records) throws InterruptedException {
            Map<String, Long> model = records.stop(Duration.ofSeconds(30));
            long sent = model.values().stream().mapToLong(Long::longValue).sum();
            Enrichments.Outcome outcome = Enrichments.awaitOutcome(KAFKA.client(), output, deadLetters, sent, SETTLE);
            Enrichments.assertExactlyOnce(KAFKA.client(), outcome, KEYS, totals);
            return outcome;
        }
    }

    @Test
    void callsToAHungServiceTimeOutToDeadLettersAndThePartitionsMoveOn() throws Exception {
        Run run = Run.create("async-hung");
        AsyncEnrichApp.Options options = AsyncEnrichApp.Options.deadLetters(MAX_IN_FLIGHT, TIMEOUT);
        try (LookupService service = LookupService.start(LATENCY, JITTER, 0);
                WeirApp app = run.start(service, options);
                SteadyInput records = run.steadyInput()) {
            run.awaitEnriched(RATE);
            long callsBefore = service.calls();
            service.hung(true);
            // Calls keep coming while it hangs; each times out (no retries) and is dead-lettered.
            await().atMost(SETTLE).until(() -> service.calls() - callsBefore >= 2L * RATE);
            service.hung(false);
            long afterHang = records.sent(); // these and later records are called after the hang
            await().atMost(SETTLE).until(() -> records.sent() >= afterHang + 2L * RATE);

            Enrichments.Outcome outcome = run.finish(records);
            Map<Long, ConsumerRecord<byte[], byte[]>> dead = outcome.deadByInput();
            System.out.printf(
                    "AsyncServiceFaultsIT hung: %d records, %d enriched, %d dead letters; %d calls while hung%n",
                    outcome.records(), outcome.outputs().size(), dead.size(), service.calls() - callsBefore);
            assertThat(dead).as("calls the hung service swallowed").isNotEmpty();
            for (ConsumerRecord<byte[], byte[]> r : dead.values()) {
                assertThat(Enrichments.header(r, Enrichments.STAGE)).isEqualTo("call");
                // The step's time-out, or (on a loaded machine, where they race) the HTTP
                // request's or connection's own, when the hung service's backlog is full: either
                // way the hung call ended as a time-out.
                assertThat(Enrichments.header(r, Enrichments.MESSAGE))
                        .satisfiesAnyOf(
                                m -> assertThat(m)
                                        .contains(
                                                "async step '" + AsyncEnrichApp.STEP + "'",
                                                "timeout of " + TIMEOUT.toMillis() + " ms"),
                                m -> assertThat(m).contains("request timed out"),
                                m -> assertThat(m).contains("connect timed out"));
            }
            assertThat(dead.keySet())
                    .as("records sent after the hang (from %d on) dead-lettered", afterHang)
                    .allMatch(n -> n < afterHang);
            assertThat(outcome.outputs().stream()
                            .filter(r -> Long.parseLong(r.value().split(":")[0]) >= afterHang)
                            .map(ConsumerRecord::partition)
                            .distinct()
                            .count())
                    .as("partitions with records enriched after the hang")
                    .isEqualTo(PARTITIONS);
        }
    }

    @Test
    @Tag("full") // 27-32 s each: -Pfull runs them; the hung service runs in every build
    void retriesWithBackOffBridgeAnOutageOfTheService() throws Exception {
        Run run = Run.create("async-down");
        AsyncEnrichApp.Options options = retriedOver(OUTAGE.plusSeconds(10));
        try (LookupService service = LookupService.start(LATENCY, JITTER, 0);
                WeirApp app = run.start(service, options);
                SteadyInput records = run.steadyInput()) {
            run.awaitEnriched(RATE);
            service.down(true);
            Deadline outage = Deadline.after(OUTAGE);
            await().atMost(OUTAGE.plus(SETTLE)).until(outage::expired);
            long failed = service.failures();
            service.down(false);

            Enrichments.Outcome outcome = run.finish(records);
            System.out.printf(
                    "AsyncServiceFaultsIT down %d s, retried: %d records, %d enriched; %d calls failed%n",
                    OUTAGE.toSeconds(), outcome.records(), outcome.outputs().size(), failed);
            assertThat(failed).as("calls that met the outage").isPositive();
            assertThat(outcome.deadLetters()).as("dead letters").isEmpty();
            assertThat(app.state()).isEqualTo(WeirApp.State.RUNNING);
        }
    }

    @Test
    @Tag("full") // 27-32 s each: -Pfull runs them; the hung service runs in every build
    void aCallThatFailsForGoodStopsTheInstanceAndTheNextEnrichesEveryRecordOnce() throws Exception {
        Run run = Run.create("async-fail");
        // Retries for 3 s, far shorter than the outage: a call fails for good while the service is down.
        AsyncEnrichApp.Options options = retriedOver(Duration.ofSeconds(3)).withOnFailure(Async.OnFailure.FAIL);
        try (LookupService service = LookupService.start(LATENCY, JITTER, 0);
                SteadyInput records = run.steadyInput()) {
            try (WeirApp app = run.start(service, options)) {
                run.awaitEnriched(RATE);
                service.down(true);
                await().atMost(SETTLE).until(() -> app.state() == WeirApp.State.FAILED);
                assertThat(app.failure())
                        .get()
                        .extracting(Throwable::toString)
                        .asString()
                        .as("the failure names the record")
                        .containsPattern(Pattern.quote(run.input()) + "-\\d+@\\d+");
                System.out.println("AsyncServiceFaultsIT FAIL: the instance stopped with "
                        + app.failure().get());
            }
            service.down(false);
            try (WeirApp again = run.start(service, options)) {
                Enrichments.Outcome outcome = run.finish(records);
                System.out.printf(
                        "AsyncServiceFaultsIT FAIL then restart: %d records, %d enriched%n",
                        outcome.records(), outcome.outputs().size());
                assertThat(outcome.deadLetters()).as("dead letters").isEmpty();
                assertThat(again.state()).isEqualTo(WeirApp.State.RUNNING);
            }
        }
    }

    /** Retries of 503s and I/O errors with back-off from 200 ms doubling to 2 s, for at least {@code span}. */
    private static AsyncEnrichApp.Options retriedOver(Duration span) {
        Duration backoff = Duration.ofMillis(200);
        Duration maxBackoff = Duration.ofSeconds(2);
        int attempts = 1;
        Duration waited = Duration.ZERO;
        AsyncEnrichApp.Options options = AsyncEnrichApp.Options.deadLetters(MAX_IN_FLIGHT, TIMEOUT);
        while (waited.compareTo(span) < 0) {
            attempts++;
            waited = waited.plus(
                    options.withRetries(attempts, backoff, maxBackoff).retry().backoffBefore(attempts));
        }
        return options.withRetries(attempts, backoff, maxBackoff);
    }
}
