package io.weir.samples.pricing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.WeirApp;
import io.weir.samples.common.SampleCommand;
import io.weir.serde.Serdes;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.LookupService;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The order-pricing command on a real broker under exactly-once, against a pricing service that
 * answers one call in five with 503 and is tried twice: what it committed (read with
 * read_committed) puts every order either in its customer's total or in the dead letters, once;
 * and the topology stopped with calls in flight, whose next owner calls again for exactly those.
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
        Map<String, Spend> last =
                lastPerKey(KAFKA.client().readAllCommitted(totals, new StringDeserializer(), SPEND, TIMEOUT));
        assertThat(last).isEqualTo(SampleOrders.expected(SampleOrders.generate(11, 3000, 15, 200), dead));
    }

    @Test
    void callsInFlightAtAStopAreMadeAgainByTheNextInstanceAndEveryOrderIsTotalledOnce(@TempDir Path secondDir) {
        String orders = KAFKA.uniqueTopic("orders-restart", 3);
        String totals = KAFKA.uniqueTopic("orders-restart-totals", 3);
        String appId = "order-pricing-" + orders;
        List<Order> fed = SampleOrders.generate(5, 1500, 10, 100);
        try (LookupService service = LookupService.start(Duration.ofMillis(20), Duration.ofMillis(10), 0)) {
            // No time-out while the service hangs below: the calls stay in flight until the stop.
            var topology = OrderPricing.topology(
                    orders, totals, service.uri(), OrderPricing.step(100, Duration.ofSeconds(60), 4));
            try (WeirApp first = WeirApp.create(topology, SampleCommand.config(KAFKA, appId, stateDir))
                    .start()) {
                feed(orders, fed.subList(0, 500));
                awaitTotalled(totals, 500);
                service.hung(true);
                feed(orders, fed.subList(500, fed.size()));
                // The calls the service got and does not answer: in flight when the stop commits and stores them.
                await().atMost(TIMEOUT).until(() -> service.calls() >= 600);
            }
            long callsBeforeRestart = service.calls();
            service.hung(false);
            // A new instance (a state directory of its own): the in-flight store comes back from its changelog.
            try (WeirApp second = WeirApp.create(topology, SampleCommand.config(KAFKA, appId, secondDir))
                    .start()) {
                awaitTotalled(totals, fed.size());
            }
            assertThat(service.repeats())
                    .as("the calls in flight at the stop, made again with their idempotency keys")
                    .isGreaterThanOrEqualTo(100);
            assertThat(service.calls()).isGreaterThan(callsBeforeRestart);
        }
        Map<String, Spend> last =
                lastPerKey(KAFKA.client().readAllCommitted(totals, new StringDeserializer(), SPEND, TIMEOUT));
        assertThat(last).isEqualTo(SampleOrders.expected(fed, Set.of()));
    }

    /** Reads the committed totals until they count {@code orders} orders in all. */
    private static void awaitTotalled(String totals, long orders) {
        KAFKA.client()
                .readUntil(
                        totals,
                        new StringDeserializer(),
                        SPEND,
                        IsolationLevel.READ_COMMITTED,
                        r -> lastPerKey(r).values().stream()
                                        .mapToLong(Spend::orders)
                                        .sum()
                                >= orders,
                        TIMEOUT);
    }

    private static void feed(String topic, List<Order> orders) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (Order o : orders) {
            records.add(new ProducerRecord<>(
                    topic,
                    Serdes.strings().serialize(topic, o.id()),
                    Serdes.json(Order.class).serialize(topic, o)));
        }
        KAFKA.client().send(records);
    }

    private static Map<String, Spend> lastPerKey(List<ConsumerRecord<String, Spend>> records) {
        Map<String, Spend> last = new TreeMap<>();
        records.forEach(r -> last.put(r.key(), r.value()));
        return last;
    }
}
