package io.weir.benchmarks.ysb;

import io.weir.benchmarks.Job;
import io.weir.benchmarks.RunSpec;
import io.weir.benchmarks.Scenario;
import io.weir.benchmarks.SystemUnderTest;
import io.weir.benchmarks.input.Workload;
import io.weir.common.internal.Deadline;
import io.weir.common.internal.Poll;
import io.weir.testkit.KafkaTestClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One step of the {@code ysb} workload: the Yahoo Streaming Benchmark's job ({@link YsbTopology})
 * offered a fixed rate of ad events. Off the clock ({@link #prepare}): the run's events topic
 * ({@value Workload#PARTITIONS} partitions), its campaigns (a compacted topic of one partition,
 * 1,000 ads of {@value YsbEvents#CAMPAIGNS} campaigns) and the output reader ({@link YsbOutput}).
 * Then ({@link #await}): the system runs its tasks, the generator ({@link YsbEvents}) sends at the
 * rate for the warm-up and then for the measured time, and afterwards ticks every partition every
 * 100 ms (event time moves on, so the last windows close) until every window is complete or the
 * drain time is up.
 *
 * <p>Run details, in this order: {@code offered_eps} (the rate asked for), {@code sent_eps} (what the
 * generator sent over the measured time), {@code achieved_eps} (input records a second the system's
 * group committed over the measured time: what it processed), {@code lag_at_end} (input records not
 * yet committed when the measured time ended), {@code windows} (campaign windows that ended in the
 * measured time), {@code windows_incomplete}, {@code p50_ms}, {@code p99_ms}, {@code max_ms} (when
 * a read_committed reader first saw the window's exact count, minus the window's end),
 * {@code final_p50_ms}, {@code final_p99_ms} (Weir: when it saw the count marked final; null for
 * Kafka Streams, whose output marks none), {@code updates_per_window}, {@code checker_passed}
 * (every window of the run, warm-up included, exact and complete: {@link YsbWindows}),
 * {@code problems} (the first few) and {@code sustained}: sent and achieved at least
 * {@value #KEPT_UP} of the offered rate, the checker passed and {@code p99_ms} at most
 * {@link #MAX_P99}.
 */
public final class YsbJob implements Job {

    private static final Logger log = LoggerFactory.getLogger(YsbJob.class);

    static final double KEPT_UP = 0.95;
    static final Duration MAX_P99 = Duration.ofSeconds(1);
    private static final Duration TICK = Duration.ofMillis(100);
    private static final Duration READY_CHECK = Duration.ofMillis(20);
    private static final Duration COMPLETE_CHECK = Duration.ofMillis(500);
    private static final long SEED = 42;

    private final KafkaTestClient client;
    private final Scenario scenario;
    private final int rate;
    private final Duration warmup;
    private final Duration measured;
    private final Duration drain;
    private Run current;

    public YsbJob(
            KafkaTestClient client, Scenario scenario, int rate, Duration warmup, Duration measured, Duration drain) {
        this.client = client;
        this.scenario = scenario;
        this.rate = rate;
        this.warmup = warmup;
        this.measured = measured;
        this.drain = drain;
    }

    /** The most a run may take: start, warm-up, measured time, drain, and two minutes for the rest. */
    public Duration timeout() {
        return warmup.plus(measured).plus(drain).plusMinutes(2);
    }

    int rate() {
        return rate;
    }

    @Override
    public Scenario scenario() {
        return scenario;
    }

    @Override
    public String inputTopic(String applicationId) {
        return applicationId + "-in";
    }

    /** The events the measured time is to send. */
    @Override
    public long records() {
        return rate * measured.toSeconds();
    }

    /** Per-run state: the generator, the reader and what was measured. */
    private static final class Run {
        final YsbEvents events;
        final YsbOutput output;
        final boolean finalPanes;
        long sentMeasured;
        double achievedEps;
        long lagAtEnd;
        long fromMs;
        long toMs;
        long giveUpMs;
        double measuredSeconds;

        Run(YsbEvents events, YsbOutput output, boolean finalPanes) {
            this.events = events;
            this.output = output;
            this.finalPanes = finalPanes;
        }
    }

    @Override
    public void prepare(RunSpec spec, SystemUnderTest system, Duration timeout) {
        Workload.createTopic(client, spec.inputTopic(), Workload.PARTITIONS, Map.of());
        String campaigns = YsbTopology.campaignsTopic(spec.inputTopic());
        Workload.createTopic(client, campaigns, 1, Map.of("cleanup.policy", "compact"));
        YsbEvents events = new YsbEvents(
                client.bootstrapServers(),
                spec.inputTopic(),
                Workload.PARTITIONS,
                rate,
                YsbTopology.WINDOW.toMillis(),
                SEED);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        events.campaignOfAd()
                .forEach((ad, campaign) -> records.add(new ProducerRecord<>(
                        campaigns,
                        io.weir.serde.Serdes.strings().serialize(campaigns, ad),
                        io.weir.serde.Serdes.strings().serialize(campaigns, campaign))));
        client.send(records);
        current = new Run(
                events,
                new YsbOutput(client.bootstrapServers(), spec.outputTopic(), partitions()),
                system.name().startsWith("weir"));
    }

    @Override
    public long await(RunSpec spec, SystemUnderTest.Running running, long startedNanos, Deadline deadline)
            throws InterruptedException {
        Run run = current;
        // The rate is offered to a system that runs its tasks: the global table restored, the group joined.
        Poll.until(
                () -> {
                    checkAlive(running, run, deadline, "to run its tasks");
                    return running.ready();
                },
                deadline.remaining(),
                READY_CHECK);
        checkAlive(running, run, deadline, "to run its tasks");
        log.info("ysb {} at {} events/s: warm-up of {} s", spec.applicationId(), rate, warmup.toSeconds());
        run.events.sendFor(warmup);
        checkAlive(running, run, deadline, "through the warm-up");
        long committedBefore = committed(spec);
        long from = System.nanoTime();
        run.fromMs = System.currentTimeMillis();
        run.sentMeasured = run.events.sendFor(measured);
        long committedAfter = committed(spec);
        run.measuredSeconds = (System.nanoTime() - from) / 1e9;
        run.toMs = System.currentTimeMillis();
        run.achievedEps = (committedAfter - committedBefore) / run.measuredSeconds;
        run.lagAtEnd = endOffsets(spec) - committedAfter;
        log.info(
                "ysb {} at {} events/s: sent {}/s, processed {}/s, {} behind; draining",
                spec.applicationId(),
                rate,
                Math.round(run.sentMeasured / run.measuredSeconds),
                Math.round(run.achievedEps),
                run.lagAtEnd);
        Map<String, Long> expected = run.events.expectedCounts();
        Deadline[] nextCheck = {Deadline.after(Duration.ZERO)};
        // Ticks every TICK (the generator's clock moves the windows on), checks completeness less often.
        Poll.until(
                () -> {
                    checkAlive(running, run, deadline, "through the drain");
                    run.events.tick();
                    if (!nextCheck[0].expired()) {
                        return false;
                    }
                    nextCheck[0] = Deadline.after(COMPLETE_CHECK);
                    return YsbWindows.complete(expected, run.output.seen(), run.finalPanes);
                },
                drain,
                TICK);
        run.giveUpMs = System.currentTimeMillis();
        return System.nanoTime();
    }

    private static void checkAlive(SystemUnderTest.Running running, Run run, Deadline deadline, String what) {
        running.failure().ifPresent(e -> {
            throw new IllegalStateException("the system failed " + what + ": " + e, e);
        });
        run.output.failure().ifPresent(e -> {
            throw new IllegalStateException("the output reader failed: " + e, e);
        });
        if (deadline.expired()) {
            throw new IllegalStateException("the run timed out waiting for the system " + what);
        }
    }

    /** Input records the group has committed, over the events topic's partitions. */
    private long committed(RunSpec spec) {
        try {
            Map<TopicPartition, OffsetAndMetadata> offsets = client.admin()
                    .listConsumerGroupOffsets(spec.applicationId())
                    .partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS);
            return offsets.entrySet().stream()
                    .filter(e -> e.getKey().topic().equals(spec.inputTopic()) && e.getValue() != null)
                    .mapToLong(e -> e.getValue().offset())
                    .sum();
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the committed offsets of " + spec.applicationId(), e);
        }
    }

    private long endOffsets(RunSpec spec) {
        return Workload.endOffsets(client, spec.inputTopic()).values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }

    @Override
    public Map<String, Object> details(RunSpec spec) {
        Run run = current;
        current = null;
        Map<String, Object> details = new LinkedHashMap<>();
        if (run == null) {
            return details;
        }
        try {
            run.output.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        run.events.close();
        details.put("offered_eps", (long) rate);
        if (run.measuredSeconds == 0) {
            return details; // failed before the measured time
        }
        YsbWindows.Verdict v = YsbWindows.judge(
                run.events.expectedCounts(),
                run.output.seen(),
                run.finalPanes,
                YsbTopology.WINDOW.toMillis(),
                run.fromMs,
                run.toMs,
                run.giveUpMs);
        long sentEps = Math.round(run.sentMeasured / run.measuredSeconds);
        long achievedEps = Math.round(run.achievedEps);
        details.put("sent_eps", sentEps);
        details.put("achieved_eps", achievedEps);
        details.put("lag_at_end", run.lagAtEnd);
        details.put("windows", (long) v.windows());
        details.put("windows_incomplete", (long) v.incomplete());
        details.put("p50_ms", v.p50());
        details.put("p99_ms", v.p99());
        details.put("max_ms", v.max());
        details.put("final_p50_ms", v.finalP50().isPresent() ? v.finalP50().getAsLong() : null);
        details.put("final_p99_ms", v.finalP99().isPresent() ? v.finalP99().getAsLong() : null);
        details.put("updates_per_window", Math.round(v.updatesPerWindow() * 10) / 10.0);
        details.put("checker_passed", v.passed());
        details.put(
                "problems", v.problemCount() == 0 ? null : v.problemCount() + ": " + String.join("; ", v.problems()));
        details.put(
                "sustained",
                sentEps >= KEPT_UP * rate
                        && achievedEps >= KEPT_UP * rate
                        && v.passed()
                        && v.p99() <= MAX_P99.toMillis());
        log.info("ysb {} at {} events/s: {}", spec.applicationId(), rate, details);
        return details;
    }
}
