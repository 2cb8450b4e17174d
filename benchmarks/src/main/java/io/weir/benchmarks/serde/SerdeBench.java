package io.weir.benchmarks.serde;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.weir.benchmarks.report.Json;
import io.weir.benchmarks.report.JsonReport;
import io.weir.serde.Serde;
import io.weir.serde.registry.RegistrySerdeOptions;
import io.weir.serde.registry.RegistrySerdes;
import io.weir.serde.registry.SchemaRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * The {@code serde-avro} workload: Avro generic records encoded and decoded by Weir's registry
 * serde, beside Avro's own encoder and decoder with the registry's wire format written by hand (the
 * limit: what any registry serde does at the least, reusing its encoder and decoder). One round trip
 * per record, a {@code --records} of them per run, the two alternating over {@code --runs} after a
 * warm-up of each; the run lines carry records a second and the JVM's CPU seconds per million, the
 * summary the medians, {@code weir_vs_avro} and the registry's requests over the whole workload
 * (once per schema, never per record).
 *
 * <p>The registry is a stand-in served by the JDK's HTTP server (it answers a registration and a
 * fetch by id): the workload measures the serdes, not a registry, and needs no Kafka.
 * serde-registry-it checks the same bytes against a real Apicurio Registry.
 */
public final class SerdeBench {

    static final String TOPIC = "orders";
    static final Schema ORDER = new Schema.Parser()
            .parse("{\"type\":\"record\",\"name\":\"Order\",\"namespace\":"
                    + "\"bench\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"customer\",\"type\":\"string\"},"
                    + "{\"name\":\"amount\",\"type\":\"long\"},{\"name\":\"quantity\",\"type\":\"int\"},"
                    + "{\"name\":\"price\",\"type\":\"double\"},{\"name\":\"express\",\"type\":\"boolean\"},"
                    + "{\"name\":\"note\",\"type\":[\"null\",\"string\"],\"default\":null},"
                    + "{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"items\":\"string\"}}]}");
    private static final int DISTINCT = 10_000;
    private static final int SCHEMA_ID = 1;

    private final JsonReport report;
    private final long records;
    private final int runs;
    private final com.sun.management.OperatingSystemMXBean cpu =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    public SerdeBench(JsonReport report, long records, int runs) {
        this.report = report;
        this.records = records;
        this.runs = runs;
    }

    /** A coder of one round trip per record. */
    private interface RoundTrip {
        /** Encodes and decodes {@code r}; returns something of the result, so the work is not dropped. */
        int apply(GenericRecord r);
    }

    public boolean run() {
        AtomicLong requests = new AtomicLong();
        HttpServer registry = standIn(requests);
        try {
            SchemaRegistry weirRegistry = SchemaRegistry.at(
                    "http://127.0.0.1:" + registry.getAddress().getPort());
            Serde<GenericRecord> serde = RegistrySerdes.avro(weirRegistry, RegistrySerdeOptions.values());
            HandFramed avro = new HandFramed();
            List<GenericRecord> orders = orders();
            if (!Arrays.equals(serde.serialize(TOPIC, orders.get(0)), avro.encode(orders.get(0)))) {
                throw new IllegalStateException("the registry serde and the hand-framed Avro wrote different bytes");
            }
            RoundTrip weir =
                    r -> serde.deserialize(TOPIC, serde.serialize(TOPIC, r)).hashCode();
            RoundTrip limit = r -> avro.decode(avro.encode(r)).hashCode();
            long warmup = Math.max(records / 2, 100_000);
            measure(weir, orders, warmup);
            measure(limit, orders, warmup);
            List<Double> weirRps = new ArrayList<>();
            List<Double> avroRps = new ArrayList<>();
            for (int run = 1; run <= runs; run++) {
                weirRps.add(line("weir", run, measure(weir, orders, records)));
                avroRps.add(line("avro_hand_framed", run, measure(limit, orders, records)));
            }
            double w = median(weirRps);
            double a = median(avroRps);
            ObjectNode summary = Json.MAPPER
                    .createObjectNode()
                    .put("summary", true)
                    .put("workload", "serde-avro")
                    .put("records", records)
                    .put("runs", runs)
                    .put("weir_rps", Math.round(w))
                    .put("avro_hand_framed_rps", Math.round(a))
                    .put("weir_vs_avro", Math.round(w / a * 1000) / 1000.0)
                    .put("registry_requests", requests.get())
                    .put("registry_requests_weir", weirRegistry.requests());
            report.line(summary);
            return true;
        } finally {
            registry.stop(0);
        }
    }

    private record Measured(double rps, double cpuSecondsPerMillion, int check) {}

    private Measured measure(RoundTrip coder, List<GenericRecord> orders, long count) {
        long cpuStart = cpu.getProcessCpuTime();
        long start = System.nanoTime();
        int check = 0;
        for (long i = 0; i < count; i++) {
            check += coder.apply(orders.get((int) (i % orders.size())));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double cpuSeconds = (cpu.getProcessCpuTime() - cpuStart) / 1e9;
        return new Measured(count / seconds, cpuSeconds / (count / 1e6), check);
    }

    private double line(String system, int run, Measured m) {
        report.line(Json.MAPPER
                .createObjectNode()
                .put("workload", "serde-avro")
                .put("system", system)
                .put("run", run)
                .put("records", records)
                .put("rps", Math.round(m.rps()))
                .put("cpu_seconds_per_million", Math.round(m.cpuSecondsPerMillion() * 1000) / 1000.0)
                .put("check", m.check()));
        return m.rps();
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    static List<GenericRecord> orders() {
        Random random = new Random(42);
        List<GenericRecord> orders = new ArrayList<>(DISTINCT);
        for (int i = 0; i < DISTINCT; i++) {
            GenericRecord r = new GenericData.Record(ORDER);
            r.put("id", "order-" + i);
            r.put("customer", "customer-" + random.nextInt(1_000));
            r.put("amount", random.nextLong(1_000_000));
            r.put("quantity", random.nextInt(20));
            r.put("price", random.nextDouble() * 100);
            r.put("express", random.nextBoolean());
            r.put("note", i % 3 == 0 ? "leave at the door" : null);
            r.put("tags", List.of("web", "eu"));
            orders.add(r);
        }
        return orders;
    }

    /** Avro's own coding in the wire format, written by hand; one thread, so encoder and decoder are reused. */
    static final class HandFramed {
        private final GenericDatumWriter<GenericRecord> writer = new GenericDatumWriter<>(ORDER);
        private final GenericDatumReader<GenericRecord> reader = new GenericDatumReader<>(ORDER);
        private BinaryEncoder encoder;
        private BinaryDecoder decoder;
        private final byte[] header =
                ByteBuffer.allocate(5).put((byte) 0).putInt(SCHEMA_ID).array();

        byte[] encode(GenericRecord r) {
            try {
                ByteArrayOutputStream out = new ByteArrayOutputStream(64);
                out.write(header);
                encoder = EncoderFactory.get().binaryEncoder(out, encoder);
                writer.write(r, encoder);
                encoder.flush();
                return out.toByteArray();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        GenericRecord decode(byte[] bytes) {
            try {
                decoder = DecoderFactory.get().binaryDecoder(bytes, 5, bytes.length - 5, decoder);
                return reader.read(null, decoder);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Answers a registration with id 1 and a fetch of id 1 with the schema, counting requests. */
    private static HttpServer standIn(AtomicLong requests) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", exchange -> {
                requests.incrementAndGet();
                exchange.getRequestBody().readAllBytes();
                String path = exchange.getRequestURI().getPath();
                ObjectNode answer = Json.MAPPER.createObjectNode();
                if (path.startsWith("/schemas/ids/")) {
                    answer.put("schema", ORDER.toString());
                } else {
                    answer.put("id", SCHEMA_ID);
                }
                byte[] body = answer.toString().getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/vnd.schemaregistry.v1+json");
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the stand-in registry", e);
        }
    }
}
