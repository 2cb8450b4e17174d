package io.weir.benchmarks.jobs;

import io.weir.benchmarks.Job;
import io.weir.benchmarks.RunSpec;
import io.weir.benchmarks.Scenario;
import io.weir.benchmarks.SystemUnderTest;
import io.weir.benchmarks.input.Workload;
import io.weir.benchmarks.systems.ChildCountRunner;
import io.weir.common.internal.Deadline;
import io.weir.common.internal.Poll;
import io.weir.testkit.KafkaTestClient;
import java.time.Duration;
import java.util.Map;

/**
 * Process start to ready with empty state (the start-to-ready workload): the time from starting an
 * application process ({@link ChildCountRunner}, the count topology) with an empty state directory
 * until it says it is ready to process.
 *
 * <p>Off the clock ({@link #prepare}): the run's own input {@code <application.id>-in} is created
 * empty ({@value Workload#PARTITIONS} partitions), so that readiness is about starting (JVM,
 * clients, group join, the store's changelog topic, opening empty stores), not about processing.
 * On the clock: from just before the process is started until {@link SystemUnderTest.Running#ready()}
 * first says so, asked every {@link #POLL}: for Weir, {@code GET /health/ready} on the port fixed for
 * the run answering 200 (as a readiness probe polls it); for Kafka Streams, which has no HTTP
 * endpoint, the line the process prints when its state turns {@code RUNNING}.
 */
public final class ReadyJob implements Job {

    static final Duration POLL = Duration.ofMillis(20);

    private final KafkaTestClient client;
    private final Scenario scenario;

    public ReadyJob(KafkaTestClient client, Scenario scenario) {
        if (scenario.kind() != Scenario.Kind.READY) {
            throw new IllegalArgumentException(scenario.label() + " is not a start-to-ready workload");
        }
        this.client = client;
        this.scenario = scenario;
    }

    @Override
    public Scenario scenario() {
        return scenario;
    }

    @Override
    public String inputTopic(String applicationId) {
        return KeyedJob.ownInput(applicationId);
    }

    /** None: the input is empty. */
    @Override
    public long records() {
        return 0;
    }

    @Override
    public void prepare(RunSpec spec, SystemUnderTest system, Duration timeout) {
        Workload.createTopic(client, spec.inputTopic(), Workload.PARTITIONS, Map.of());
    }

    @Override
    public long await(RunSpec spec, SystemUnderTest.Running running, long startedNanos, Deadline deadline)
            throws InterruptedException {
        boolean ready = Poll.until(
                () -> {
                    if (running.ready()) {
                        return true;
                    }
                    Throwable failure = running.failure().orElse(null);
                    if (failure != null) {
                        throw new IllegalStateException("failed before it was ready: " + failure, failure);
                    }
                    return false;
                },
                deadline.remaining(),
                POLL);
        if (!ready) {
            throw new IllegalStateException(
                    "not ready within " + deadline.timeout().toSeconds() + " s");
        }
        return System.nanoTime();
    }
}
