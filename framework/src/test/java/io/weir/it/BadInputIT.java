package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.serde.Serdes;
import io.weir.testing.TestApps;
import io.weir.testkit.KafkaExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Bad input never stops the application and is never lost: each kind of bad record lands in the
 * dead-letter topic, unchanged, with headers saying what failed; good records around them flow.
 */
class BadInputIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    record Reading(String sensor, double temperature, String note) {}

    record Alert(String sensor, double temperature, String note) {}

    @Test
    void everyKindOfBadRecordIsDeadLetteredWithItsHeadersAndTheAppKeepsRunning() throws Exception {
        // The topic takes the large record from its creation on: a config altered afterwards reaches
        // the broker's log asynchronously, and a record sent at once could still be refused as too large.
        String input = "bad-in-" + UUID.randomUUID();
        KAFKA.createTopic(input, 1, Map.of("max.message.bytes", "4194304"));
        String output = KAFKA.uniqueTopic("bad-out", 1);

        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.json(Reading.class), input)
                .mapValues((sensor, r) -> new Alert(
                        Objects.requireNonNull(sensor, "reading without a sensor key"), r.temperature(), r.note()))
                .to(output, Serdes.strings(), Serdes.json(Alert.class));

        String big = "{\"sensor\":\"s6\",\"temperature\":99.5,\"note\":\"" + "x".repeat(1_100_000) + "\"}";
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        KAFKA.bootstrapServers(),
                        ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                        5_000_000),
                new StringSerializer(),
                new StringSerializer())) {
            List<Future<RecordMetadata>> sent = List.of(
                    producer.send(new ProducerRecord<>(
                            input, "s1", "{\"sensor\":\"s1\",\"temperature\":95.0,\"note\":\"ok\"}")),
                    producer.send(new ProducerRecord<>(input, "s2", "{\"sensor\": \"s2\", \"temperature\": 9")),
                    producer.send(new ProducerRecord<>(
                            input, "s3", "{\"sensor\":\"s3\",\"temperature\":\"hot\",\"note\":\"x\"}")),
                    producer.send(new ProducerRecord<>(
                            input, null, "{\"sensor\":\"s4\",\"temperature\":91.0,\"note\":\"x\"}")),
                    producer.send(new ProducerRecord<>(input, "s5", "")),
                    producer.send(new ProducerRecord<>(input, "s6", big)),
                    producer.send(new ProducerRecord<>(
                            input, "s7", "{\"sensor\":\"s7\",\"temperature\":97.0,\"note\":\"after\"}")));
            producer.flush();
            // Every input acknowledged at offsets 0 to 6 (flush does not report a refused record).
            for (int i = 0; i < sent.size(); i++) {
                assertThat(sent.get(i).get(30, TimeUnit.SECONDS).offset())
                        .as("offset of input s%d", i + 1)
                        .isEqualTo(i);
            }
        }

        try (WeirApp app = TestApps.start(
                b.build(),
                TestApps.config(KAFKA.bootstrapServers(), "bad-" + input).build())) {
            List<ConsumerRecord<String, String>> out =
                    KAFKA.client().readStringsAtLeast(output, 2, Duration.ofMinutes(1));
            assertThat(out).extracting(ConsumerRecord::key).containsExactly("s1", "s7");

            List<ConsumerRecord<byte[], byte[]>> dead =
                    KAFKA.client().readAtLeast(app.config().deadLetterTopic(), 5, Duration.ofMinutes(1));
            assertThat(dead).hasSize(5);
            Map<Long, ConsumerRecord<byte[], byte[]>> byOffset = dead.stream()
                    .collect(Collectors.toMap(
                            r -> Long.parseLong(AbortIT.header(r, "weir.source.offset")), Function.identity()));
            assertThat(byOffset.keySet()).containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L);
            assertDead(byOffset.get(1L), "deserialize", "invalid JSON");
            assertDead(byOffset.get(2L), "deserialize", "invalid JSON");
            assertDead(byOffset.get(3L), "process", "reading without a sensor key");
            assertThat(byOffset.get(3L).key()).isNull();
            assertDead(byOffset.get(4L), "deserialize", "empty value");
            assertDead(byOffset.get(5L), "produce", "larger than");
            assertThat(new String(byOffset.get(5L).value(), StandardCharsets.UTF_8))
                    .isEqualTo(big);
            for (ConsumerRecord<byte[], byte[]> r : dead) {
                assertThat(AbortIT.header(r, "weir.source.topic")).isEqualTo(input);
                assertThat(AbortIT.header(r, "weir.source.partition")).isEqualTo("0");
                assertThat(AbortIT.header(r, "weir.error.class")).isNotBlank();
                assertThat(AbortIT.header(r, "weir.source.timestamp")).isEqualTo(Long.toString(r.timestamp()));
            }
            // RUNNING follows the threads: it is reached within a tick of the monitor (generous deadline).
            await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == WeirApp.State.RUNNING);
            // Dead letters are counted after their commit returns, so the topic read above can show
            // them before the counter does: wait for the count, then check it is exactly five.
            var deadLettered =
                    app.meterRegistry().get("weir.records.dead.lettered").counter();
            await().atMost(Duration.ofSeconds(30)).until(() -> deadLettered.count() >= 5.0);
            assertThat(deadLettered.count()).isEqualTo(5.0);
        }
    }

    private static void assertDead(ConsumerRecord<byte[], byte[]> r, String stage, String messagePart) {
        assertThat(AbortIT.header(r, "weir.error.stage")).isEqualTo(stage);
        assertThat(AbortIT.header(r, "weir.error.message")).contains(messagePart);
    }
}
