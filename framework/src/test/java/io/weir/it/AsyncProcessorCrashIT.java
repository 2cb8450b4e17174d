package io.weir.it;

import static org.awaitility.Awaitility.await;

import io.weir.testing.AsyncEnrichApp;
import io.weir.testing.InstanceGroup;
import io.weir.testing.OpsInstance;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.LookupService;
import io.weir.testkit.SteadyInput;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An asynchronous processor with a store, under exactly-once, SIGKILLed with calls in flight and
 * started again on its state directory (issue 33): {@link AsyncEnrichApp.CountingLookup} in one
 * child process calls a {@link LookupService} (300 ms ± 100 ms) per record while records arrive
 * steadily, keeps each key's records so far in its store and checks, at each call and each
 * completion, that the store holds exactly the key's earlier records. The restarted instance
 * restores the store and the calls in flight at the last commit, and calls again for those.
 *
 * <p>Then every input must come out exactly once (read_committed), each key's outputs in input
 * order with the service's answer; no dead letter (a store that lost or repeated a completion's
 * write would fail the key's next record into one, naming both counts); and the counts per key
 * downstream of the step (through a repartition topic: a processor may change keys) exact. The store
 * is thus checked on every record, not only at the end. About 25 s.
 */
class AsyncProcessorCrashIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final int PARTITIONS = 4;
    /** A key's next record comes 2 s after its last, after that one's call returned. */
    private static final int KEYS = 600;

    private static final int RATE = 300;
    private static final Duration LATENCY = Duration.ofMillis(300);
    private static final Duration JITTER = Duration.ofMillis(100);
    /** Calls the instance must have in flight when it is killed (about 90 at this rate and latency). */
    private static final int IN_FLIGHT = 30;

    private static final Duration SETTLE = Duration.ofMinutes(5);
    private static final String OPEN_CALLS = AsyncEnrichApp.OPEN_CALLS.replace('.', '_');

    @Test
    void theStoreAndTheOutputsAreExactThroughASigkillWithCallsInFlight() throws Exception {
        String input = KAFKA.uniqueTopic("async-proc-in", PARTITIONS);
        String output = KAFKA.uniqueTopic("async-proc-out", PARTITIONS);
        String totals = KAFKA.uniqueTopic("async-proc-totals", PARTITIONS);
        String deadLetters = KAFKA.uniqueTopic("async-proc-dead", 1);
        // Retries bridge a connection refused on a loaded machine; no call reaches the time-out.
        AsyncEnrichApp.Options options = AsyncEnrichApp.Options.deadLetters(500, Duration.ofSeconds(30))
                .withRetries(5, Duration.ofMillis(200), Duration.ofSeconds(2));
        try (LookupService service = LookupService.start(LATENCY, JITTER, 0)) {
            OpsInstance.Spec spec = new OpsInstance.Spec(KAFKA.bootstrapServers(), input, output, "proc-" + input)
                    .withApp(
                            AsyncEnrichApp.class,
                            service.uri().toString(),
                            totals,
                            options.arg(),
                            Integer.toString(KEYS))
                    .withEnv("WEIR_DEAD_LETTER_TOPIC", deadLetters);
            // The count downstream reads a repartition topic (a processor may change keys): two subtopologies.
            try (InstanceGroup group = new InstanceGroup(spec, OpsInstance.tasks(2, PARTITIONS));
                    SteadyInput records =
                            Enrichments.input(KAFKA.bootstrapServers(), input, KEYS, RATE, Duration.ofMinutes(5))) {
                group.start("a");
                group.awaitSettled(SETTLE, "a");
                // Past the first key's second record: the store holds counts the checks depend on.
                await().atMost(SETTLE)
                        .pollInterval(Duration.ofMillis(100))
                        .alias("a with " + IN_FLIGHT + " calls in flight after " + 2 * KEYS + " calls")
                        .until(() ->
                                service.calls() >= 2L * KEYS && group.get("a").metric(OPEN_CALLS) >= IN_FLIGHT);
                long repeated = service.repeats();
                System.out.printf(
                        "AsyncProcessorCrashIT: SIGKILL a with %d calls open, %d calls so far%n",
                        (long) group.get("a").metric(OPEN_CALLS), service.calls());
                group.kill("a");
                group.start("a");
                group.awaitSettled(SETTLE, "a after its restart");
                await().atMost(SETTLE)
                        .alias("calls the killed instance had in flight made again")
                        .until(() -> service.repeats() > repeated);
                long callsAtRestart = service.calls();
                // Records keep arriving past the restart: the store's counts go on from what it restored.
                await().atMost(SETTLE).until(() -> service.calls() > callsAtRestart + KEYS);
                Map<String, Long> model = records.stop(Duration.ofSeconds(30));
                long sent = model.values().stream().mapToLong(Long::longValue).sum();
                Enrichments.Outcome outcome =
                        Enrichments.awaitOutcome(KAFKA.client(), output, deadLetters, sent, SETTLE);
                Enrichments.assertEveryInputEnrichedOnce(
                        "AsyncProcessorCrashIT", KAFKA.client(), outcome, service, KEYS, totals);
            }
        }
    }
}
