package io.weir.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.common.KeyValue;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class EmbeddedKafkaIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static EmbeddedKafka kafka;
    private static KafkaTestClient client;

    @BeforeAll
    static void start() {
        kafka = EmbeddedKafka.start();
        client = KafkaTestClient.connect(kafka.bootstrapServers());
    }

    @AfterAll
    static void stop() {
        client.close();
        kafka.close();
    }

    @Test
    void readCommittedSeesCommittedTransactionsButNotAbortedOnes() {
        String topic = "txn-" + System.nanoTime();
        client.createTopic(topic, 2);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                        ProducerConfig.TRANSACTIONAL_ID_CONFIG, "testkit-txn",
                        ProducerConfig.MAX_BLOCK_MS_CONFIG, "20000"),
                new StringSerializer(),
                new StringSerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "k1", "committed-1"));
            producer.send(new ProducerRecord<>(topic, "k2", "committed-2"));
            producer.commitTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "k1", "aborted"));
            producer.flush();
            producer.abortTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "k3", "committed-3"));
            producer.commitTransaction();
        }

        List<ConsumerRecord<String, String>> committed =
                client.readStringsUntil(topic, records -> values(records).contains("committed-3"), TIMEOUT);
        assertThat(values(committed)).containsExactlyInAnyOrder("committed-1", "committed-2", "committed-3");

        assertThat(values(client.readAllCommittedStrings(topic, TIMEOUT)))
                .containsExactlyInAnyOrder("committed-1", "committed-2", "committed-3");
        List<String> streamed = new java.util.ArrayList<>();
        assertThat(client.forEachCommitted(
                        topic,
                        new StringDeserializer(),
                        new StringDeserializer(),
                        TIMEOUT,
                        r -> streamed.add(r.value())))
                .isEqualTo(3);
        assertThat(streamed).containsExactlyInAnyOrder("committed-1", "committed-2", "committed-3");

        List<ConsumerRecord<byte[], byte[]>> uncommitted = client.readUncommittedAtLeast(topic, 4, TIMEOUT);
        assertThat(uncommitted).hasSize(4);
        // 4 data records and 3 transaction markers, each marker written to both partitions touched
        assertThat(client.countPerPartition(topic).values().stream()
                        .mapToLong(Long::longValue)
                        .sum())
                .isGreaterThan(4);
    }

    @Test
    void readFailsAtTheDeadlineSayingHowManyRecordsItSaw() {
        String topic = "short-" + System.nanoTime();
        client.createTopic(topic, 1);
        client.produceStrings(topic, List.of(KeyValue.of("a", "1"), KeyValue.of(null, "2")));

        assertThatThrownBy(() -> client.readStringsAtLeast(topic, 3, Duration.ofMillis(500)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("saw 2 records")
                .hasMessageContaining("{0=2}");
        assertThat(client.countPerPartition(topic)).containsExactly(Map.entry(0, 2L));
    }

    @Test
    void deletedTopicIsGone() throws Exception {
        String topic = "doomed-" + System.nanoTime();
        client.createTopic(topic, 1);
        client.deleteTopic(topic);
        assertThat(client.admin().listTopics().names().get()).doesNotContain(topic);
    }

    @Test
    void aReadOfATopicDeletedMeanwhileFailsAtOnceInsteadOfAtTheDeadline() throws Exception {
        String topic = "vanishing-" + System.nanoTime();
        client.createTopic(topic, 2);
        client.produceStrings(topic, List.of(KeyValue.of("a", "1")));
        CountDownLatch reading = new CountDownLatch(1);
        CompletableFuture<List<ConsumerRecord<String, String>>> read =
                CompletableFuture.supplyAsync(() -> client.readStringsUntil(
                        topic,
                        records -> {
                            if (!records.isEmpty()) {
                                reading.countDown(); // the reader has its partitions: now the topic may go
                            }
                            return records.size() >= 2;
                        },
                        Duration.ofSeconds(60)));
        assertThat(reading.await(30, TimeUnit.SECONDS)).isTrue();
        client.deleteTopic(topic);

        assertThatThrownBy(() -> read.get(15, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("'" + topic + "' was deleted while being read");
    }

    private static List<String> values(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(ConsumerRecord::value).collect(Collectors.toList());
    }
}
