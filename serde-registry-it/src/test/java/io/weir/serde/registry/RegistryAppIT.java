package io.weir.serde.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.config.WeirConfig;
import io.weir.errors.ServiceUnavailableException;
import io.weir.errors.TopologyException;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.serde.registry.avro.Order;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.SchemaRegistryServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Weir application on a real broker and a real registry: Avro orders written as another
 * service writes them (Avro's own encoder in the wire format) summed per customer into a store of
 * Avro records kept in a changelog; the store's schema then evolves compatibly (a field with a
 * default: the start goes on and the kept totals read on) and incompatibly (the start is refused,
 * naming the field); a record naming an unknown schema id is dead-lettered with the id; and an
 * unreachable registry stops the instance without dead-lettering anything.
 */
class RegistryAppIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    static SchemaRegistryServer server;

    static final String TOTAL = "{\"type\":\"record\",\"name\":\"Total\",\"namespace\":\"shop\",\"fields\":["
            + "{\"name\":\"customer\",\"type\":\"string\"},{\"name\":\"total\",\"type\":\"long\"}%s]}";
    static final Schema TOTAL_V1 = new Schema.Parser().parse(String.format(TOTAL, ""));
    static final Schema TOTAL_V2 =
            new Schema.Parser().parse(String.format(TOTAL, ",{\"name\":\"orders\",\"type\":\"int\",\"default\":0}"));
    static final Schema TOTAL_BAD = new Schema.Parser()
            .parse(String.format(TOTAL, "").replace("\"total\",\"type\":\"long\"", "\"total\",\"type\":\"string\""));

    @BeforeAll
    static void startRegistry() {
        server = SchemaRegistryServer.shared(); // unique subjects: one registry per test JVM
    }

    static Topology totals(SchemaRegistry registry, Schema totalSchema, String input, String output) {
        Serde<GenericRecord> totals = RegistrySerdes.avro(registry, totalSchema, RegistrySerdeOptions.values());
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), RegistrySerdes.avro(registry, Order.class, RegistrySerdeOptions.values()), input)
                .groupBy((k, o) -> o.getCustomer(), Serdes.strings())
                .aggregate(
                        () -> null,
                        (customer, order, before) -> add(totalSchema, customer, order, before),
                        totals,
                        "totals")
                .toStream()
                .to(output, Serdes.strings(), totals);
        return b.build();
    }

    static GenericRecord add(Schema schema, String customer, Order order, GenericRecord before) {
        GenericRecord after = new GenericData.Record(schema);
        after.put("customer", customer);
        after.put("total", (before == null ? 0L : (Long) before.get("total")) + order.getAmount());
        if (schema.getField("orders") != null) {
            after.put("orders", (before == null ? 0 : (Integer) before.get("orders")) + 1);
        }
        return after;
    }

    static WeirConfig config(String app) throws IOException {
        return WeirConfig.builder()
                .applicationId(app)
                .bootstrapServers(KAFKA.bootstrapServers())
                .stateDir(Files.createTempDirectory("weir-registry-it-"))
                .set("http.port", 0)
                .environment(Map.of())
                .build();
    }

    /** An order as another service's serializer writes it: 0, the id, Avro's own binary encoding. */
    static byte[] framed(int id, Order order) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0);
        out.write(ByteBuffer.allocate(4).putInt(id).array());
        BinaryEncoder e = EncoderFactory.get().binaryEncoder(out, null);
        new SpecificDatumWriter<>(Order.class).write(order, e);
        e.flush();
        return out.toByteArray();
    }

    static KeyValue<byte[], byte[]> order(int id, String orderId, String customer, long amount) throws IOException {
        return new KeyValue<>(
                orderId.getBytes(StandardCharsets.UTF_8), framed(id, new Order(orderId, customer, amount)));
    }

    /** The latest total per customer on the output, decoded by a reader of its own. */
    static Map<String, GenericRecord> latest(String output, int atLeast) {
        Serde<GenericRecord> reader =
                RegistrySerdes.avro(SchemaRegistry.at(server.url()), RegistrySerdeOptions.values());
        Map<String, GenericRecord> latest = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : KAFKA.client().readAtLeast(output, atLeast, Duration.ofMinutes(1))) {
            latest.put(new String(r.key(), StandardCharsets.UTF_8), reader.deserialize(output, r.value()));
        }
        return latest;
    }

    static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    @Test
    void aStoreOfAvroRecordsEvolvesAsTheRegistryAllowsAndBadIdsAreDeadLettered() throws Exception {
        String input = KAFKA.uniqueTopic("orders", 2);
        String output = KAFKA.uniqueTopic("totals", 1);
        String app = "registry-" + input;
        RegistryRest.Answer registered = new RegistryRest(server.url())
                .register(input + "-value", "AVRO", Order.getClassSchema().toString());
        int orderId = Integer.parseInt(registered.body().replaceAll("\\D", ""));
        List<KeyValue<byte[], byte[]>> orders = new ArrayList<>();
        orders.add(order(orderId, "o1", "c1", 10));
        orders.add(order(orderId, "o2", "c2", 7));
        orders.add(order(orderId, "o3", "c1", 5));
        // Names a schema the registry does not hold: a bad record, not a reason to stop.
        orders.add(new KeyValue<>(
                "o4".getBytes(StandardCharsets.UTF_8), new byte[] {0, 0, 1, (byte) 0x86, (byte) 0x9f, 2}));
        orders.add(order(orderId, "o5", "c2", 1));
        KAFKA.client().produce(input, orders);

        SchemaRegistry registry = SchemaRegistry.at(server.url());
        try (WeirApp v1 = WeirApp.create(totals(registry, TOTAL_V1, input, output), config(app))
                .start()) {
            await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> {
                Map<String, GenericRecord> t = latest(output, 1);
                assertThat(t).containsKeys("c1", "c2");
                assertThat(t.get("c1").get("total")).isEqualTo(15L);
                assertThat(t.get("c2").get("total")).isEqualTo(8L);
            });
            List<ConsumerRecord<byte[], byte[]>> dead =
                    KAFKA.client().readAtLeast(v1.config().deadLetterTopic(), 1, Duration.ofMinutes(1));
            assertThat(dead).hasSize(1);
            assertThat(header(dead.get(0), "weir.error.message"))
                    .contains("schema id 99999")
                    .contains("does not hold");
            assertThat(header(dead.get(0), "weir.error.stage")).isEqualTo("deserialize");
        }

        // A field with a default: the recorded topology's check lets it start, and the kept totals read on.
        KAFKA.client().produce(input, List.of(order(orderId, "o6", "c1", 100)));
        try (WeirApp v2 = WeirApp.create(totals(registry, TOTAL_V2, input, output), config(app))
                .start()) {
            await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> {
                GenericRecord c1 = latest(output, 1).get("c1");
                assertThat(c1.get("total")).isEqualTo(115L);
                assertThat(c1.get("orders"))
                        .as("0 by default for the old total, then one order")
                        .isEqualTo(1);
            });
        }

        // total as a string cannot read the kept longs: refused at start, naming the field.
        WeirApp refused = WeirApp.create(totals(registry, TOTAL_BAD, input, output), config(app));
        assertThatThrownBy(refused::start)
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("cannot start: the state of store(s) [totals] cannot be read")
                .hasMessageContaining("field total: type changed");
        assertThat(refused.state()).isEqualTo(WeirApp.State.FAILED);
    }

    @Test
    void anUnreachableRegistryStopsTheInstanceAndDeadLettersNothing() throws Exception {
        String input = KAFKA.uniqueTopic("orders-unreachable", 1);
        String output = KAFKA.uniqueTopic("totals-unreachable", 1);
        String dead;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            dead = "http://127.0.0.1:" + s.getLocalPort() + "/apis/ccompat/v7";
        }
        KAFKA.client().produce(input, List.of(order(1, "o1", "c1", 10)));
        SchemaRegistry unreachable = SchemaRegistry.builder()
                .url(dead)
                .retryTimeout(Duration.ofSeconds(2))
                .build();
        WeirApp app = WeirApp.create(totals(unreachable, TOTAL_V1, input, output), config("unreachable-" + input));
        try (app) {
            app.start();
            await().atMost(Duration.ofMinutes(1)).until(() -> app.state() == WeirApp.State.FAILED);
            assertThat(app.failure())
                    .hasValueSatisfying(f -> assertThat(causes(f))
                            .anySatisfy(c -> assertThat(c)
                                    .isInstanceOf(ServiceUnavailableException.class)
                                    .hasMessageContaining(dead)));
            assertThat(KAFKA.client().countPerPartition(app.config().deadLetterTopic()).values().stream()
                            .mapToLong(Long::longValue)
                            .sum())
                    .isZero();
        }
    }

    static List<Throwable> causes(Throwable t) {
        List<Throwable> all = new ArrayList<>();
        for (Throwable c = t; c != null && !all.contains(c); c = c.getCause()) {
            all.add(c);
        }
        return all;
    }
}
