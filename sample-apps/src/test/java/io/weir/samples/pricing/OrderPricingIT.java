package io.weir.samples.pricing;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.samples.common.SampleCommand;
import io.weir.serde.Serdes;
import io.weir.testkit.KafkaExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The order-pricing command on a real broker under exactly-once, against a pricing service that
 * answers one call in five with 503 and is tried twice: what it committed (read with
 * read_committed) puts every order either in its customer's total or in the dead letters, once.
 */
class OrderPricingIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final Deserializer<Spend> SPEND =
            (topic, bytes) -> Serdes.json(Spend.class).deserialize(topic, bytes);

    @TempDir
    Path stateDir;

    @Test
    void sampleCommandTotalsEveryOrderOnceOrDeadLettersIt() {
        String orders = KAFKA.uniqueTopic("orders", 3);
        String totals = orders + "-totals";
        String appId = "order-pricing-" + orders;
        int exit = SampleCommand.run(
                new OrderPricingApp(),
                KAFKA,
                appId,
                stateDir,
                "--input-topic",
                orders,
                "--output-topic",
                totals,
                "--partitions",
                "3",
                "--orders",
                "3000",
                "--customers",
                "15",
                "--seed",
                "11",
                "--latency-ms",
                "10",
                "--failure-rate",
                "0.2",
                "--attempts",
                "2");

        assertThat(exit).isZero();
        List<String> deadLetters = KAFKA
                .client()
                .readAllCommitted(appId + "-dlq", new StringDeserializer(), new ByteArrayDeserializer(), TIMEOUT)
                .stream()
                .map(ConsumerRecord::key)
                .toList();
        Set<String> dead = deadLetters.stream().collect(Collectors.toSet());
        assertThat(dead).as("no order dead-lettered twice").hasSameSizeAs(deadLetters);
        assertThat(dead).as("one call in 25 fails twice").isNotEmpty();
        Map<String, Spend> last = new TreeMap<>();
        KAFKA.client()
                .readAllCommitted(totals, new StringDeserializer(), SPEND, TIMEOUT)
                .forEach(r -> last.put(r.key(), r.value()));
        assertThat(last).isEqualTo(SampleOrders.expected(SampleOrders.generate(11, 3000, 15, 200), dead));
    }
}
