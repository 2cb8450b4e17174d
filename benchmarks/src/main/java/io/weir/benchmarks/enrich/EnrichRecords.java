package io.weir.benchmarks.enrich;

import io.weir.benchmarks.KafkaClients;
import io.weir.common.KeyValue;
import io.weir.testkit.SteadyInput;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * The {@code enrich} workload's records. Input record {@code n} (from 0) has a key drawn from
 * {@value #KEYS} keys ({@code k-00042}), seeded, and the value {@code n,created} ({@code created}:
 * the wall-clock milliseconds when it was generated, for the paced runs' end-to-end latency). So
 * per key the {@code n} increase in input order. The enriched output's value is
 * {@code n,created,answer}: the input value, a comma, the service's answer for the key.
 */
final class EnrichRecords {

    /**
     * Distinct keys: many, so that the calls a per-key order holds back behind an earlier call of
     * the same key stay few (about 5% of 1,000 in flight), and still 4 records a key in 40,000.
     */
    static final int KEYS = 10_000;

    private static final long SEED = 33;

    private EnrichRecords() {}

    /** A generator of the input, record by record in order (one thread). */
    static SteadyInput.Generator generator() {
        SplittableRandom random = new SplittableRandom(SEED);
        return n -> KeyValue.of(utf8(key(random.nextInt(KEYS))), utf8(n + "," + System.currentTimeMillis()));
    }

    static String key(int k) {
        return String.format("k-%05d", k);
    }

    /** Writes {@code records} records to {@code topic} as fast as the producer goes, acknowledged. */
    static void write(String bootstrapServers, String topic, long records) {
        SteadyInput.Generator generator = generator();
        try (KafkaProducer<byte[], byte[]> producer = KafkaClients.inputProducer(bootstrapServers)) {
            Future<RecordMetadata> last = null;
            for (long n = 0; n < records; n++) {
                KeyValue<byte[], byte[]> r = generator.record(n);
                last = producer.send(new ProducerRecord<>(topic, r.key(), r.value()));
            }
            producer.flush();
            if (last != null) {
                last.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing " + topic, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("could not write " + topic, e.getCause());
        }
    }

    /** The enriched value of input value {@code value} with the service's {@code answer}. */
    static String enriched(String value, String answer) {
        return value + "," + answer;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String string(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    /** An output value taken apart; null fields where it is malformed. */
    record Output(long n, long created, String answer) {

        static Output parse(String value) {
            String[] parts = value.split(",", 3);
            if (parts.length != 3) {
                return new Output(-1, -1, null);
            }
            try {
                return new Output(Long.parseLong(parts[0]), Long.parseLong(parts[1]), parts[2]);
            } catch (NumberFormatException e) {
                return new Output(-1, -1, null);
            }
        }
    }
}
