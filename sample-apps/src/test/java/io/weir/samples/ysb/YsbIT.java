package io.weir.samples.ysb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.dsl.Emit;
import io.weir.samples.common.SampleCommand;
import io.weir.serde.Serdes;
import io.weir.testkit.ChildJvm;
import io.weir.testkit.KafkaExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The YSB sample on a real broker: its command passes its own check, and the job stays exact across SIGKILLs. */
class YsbIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    @TempDir
    Path stateDir;

    @Test
    void sampleCommandPassesItsCheckAgainstAnExistingCluster() {
        String events = KAFKA.uniqueTopic("ysb-events", 3);
        String output = KAFKA.uniqueTopic("ysb-counts", 3);
        int exit = SampleCommand.run(
                new YsbApp(),
                KAFKA,
                "ysb-" + events,
                stateDir,
                "--events-topic",
                events,
                "--campaigns-topic",
                events + "-campaigns",
                "--output-topic",
                output,
                "--rate",
                "2000",
                "--seconds",
                "12",
                "--campaigns",
                "20");

        assertThat(exit).isZero();
    }

    /**
     * Two minutes of events in event time, all in Kafka first; the job is SIGKILLed twice while it
     * counts and run to the end: read committed, every window of every campaign has exactly one
     * final count, equal to its views.
     */
    @Test
    void everyWindowsFinalCountIsExactAcrossSigkills() throws Exception {
        String events = KAFKA.uniqueTopic("ysb-kill-events", 4);
        String campaigns = events + "-campaigns";
        KAFKA.client().createTopic(campaigns, 1, Map.of("cleanup.policy", "compact"));
        String output = KAFKA.uniqueTopic("ysb-kill-counts", 4);
        String appId = "ysb-kill-" + events;
        long seed = System.nanoTime();
        YsbData data = new YsbData(50, seed);
        YsbChecker checker = new YsbChecker(data.campaignOfAd(), Ysb.WINDOW.toMillis());
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        data.campaignOfAd().forEach((ad, c) -> records.add(new ProducerRecord<>(campaigns, bytes(ad), bytes(c))));
        long t0 = (System.currentTimeMillis() - Duration.ofHours(1).toMillis()) / 10_000 * 10_000;
        Random partitions = new Random(seed);
        for (int i = 0; i < 240_000; i++) {
            AdEvent e = data.next(t0 + i / 2);
            checker.sent(e);
            records.add(new ProducerRecord<>(
                    events,
                    partitions.nextInt(4),
                    null,
                    bytes(e.userId()),
                    Serdes.json(AdEvent.class).serialize(events, e)));
        }
        for (int p = 0; p < 4; p++) {
            records.add(new ProducerRecord<>(
                    events,
                    p,
                    null,
                    bytes("tick"),
                    Serdes.json(AdEvent.class).serialize(events, YsbData.tick(t0 + 240_000 / 2 + 20_000))));
        }
        KAFKA.client().send(records);

        Path dir = Files.createTempDirectory(stateDir, "job-");
        for (int round = 0; round < 2; round++) {
            try (ChildJvm job = start(events, campaigns, output, dir, appId)) {
                long target = KAFKA.client().countPerPartition(output).values().stream()
                                .mapToLong(Long::longValue)
                                .sum()
                        + 50
                        + round * 100;
                await().atMost(Duration.ofMinutes(3))
                        .pollInterval(Duration.ofMillis(50))
                        .until(() -> {
                            if (!job.isAlive()) {
                                throw new AssertionError("the job died:\n" + job.outputTail(40));
                            }
                            return KAFKA.client().countPerPartition(output).values().stream()
                                            .mapToLong(Long::longValue)
                                            .sum()
                                    >= target;
                        });
                job.kill();
            }
        }
        try (ChildJvm job = start(events, campaigns, output, dir, appId)) {
            KAFKA.client()
                    .readUntil(
                            output,
                            new StringDeserializer(),
                            new LongDeserializer(),
                            org.apache.kafka.common.IsolationLevel.READ_COMMITTED,
                            all -> all.size() >= checker.windows(),
                            Duration.ofMinutes(3));
            job.terminate();
        }
        for (ConsumerRecord<String, Long> r : KAFKA.client()
                .readAllCommitted(output, new StringDeserializer(), new LongDeserializer(), Duration.ofMinutes(1))) {
            checker.received(r.key(), r.value(), "final", 0);
        }
        assertThat(checker.problems()).as("seed %d", seed).isEmpty();
        assertThat(checker.passed()).isTrue();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static ChildJvm start(String events, String campaigns, String output, Path dir, String appId) {
        ChildJvm job = ChildJvm.builder(YsbJobMain.class)
                .args(KAFKA.bootstrapServers(), events, campaigns, output, dir.toString(), appId)
                .jvmOptions("-Xmx512m", "-XX:+UseParallelGC")
                .quietLogging()
                .start();
        job.awaitOutput("READY", Duration.ofSeconds(60));
        return job;
    }

    /** The job alone, final counts only, in a process of its own. Args: bootstrap events campaigns output stateDir appId. */
    public static final class YsbJobMain {
        public static void main(String[] args) throws Exception {
            io.weir.WeirApp app = io.weir.WeirApp.create(
                            Ysb.topology(args[1], args[2], args[3], Emit.atWatermark()),
                            io.weir.config.WeirConfig.builder()
                                    .bootstrapServers(args[0])
                                    .stateDir(Path.of(args[4]))
                                    .applicationId(args[5])
                                    .set("num.stream.threads", 2)
                                    .set("http.port", 0)
                                    .build())
                    .start();
            System.out.println("READY");
            System.out.flush();
            app.runUntilShutdown();
        }
    }
}
