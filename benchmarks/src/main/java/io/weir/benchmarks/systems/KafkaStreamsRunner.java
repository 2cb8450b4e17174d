package io.weir.benchmarks.systems;

import io.weir.benchmarks.Guarantee;
import io.weir.benchmarks.RunSpec;
import io.weir.benchmarks.Scenario;
import io.weir.benchmarks.SystemUnderTest;
import io.weir.benchmarks.ysb.YsbTopology;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.StateRestoreListener;

/**
 * The workloads in Kafka Streams, with byte-array serdes, one stream thread,
 * {@code exactly_once_v2} or {@code at_least_once}, and the shared producer and consumer settings
 * passed with the {@code producer.} and {@code consumer.} prefixes. Everything else keeps Kafka
 * Streams' defaults: the 10 MB record cache ({@code statestore.cache.max.bytes}) and RocksDB
 * stores with Kafka Streams' own RocksDB options. {@link #KafkaStreamsRunner(Map)} adds settings on
 * top (the child processes of the restart and scaling workloads: {@code group.instance.id}, session
 * timeout, standby replicas).
 *
 * <ul>
 *   <li>map: {@code stream → mapValues → to};</li>
 *   <li>count: {@code stream → groupByKey → count(Materialized.as("counts")) → toStream → to},
 *       long values;</li>
 *   <li>restore: {@code stream → groupByKey → reduce((a, b) -> b, Materialized.as("latest")) →
 *       toStream → to}; the restored records are the totals of
 *       {@link StateRestoreListener#onRestoreEnd}, summed over the changelog partitions, counted
 *       once the instance is {@code RUNNING}.</li>
 *   <li>windowed count: {@code stream → groupByKey → windowedBy(TimeWindows.ofSizeAndGrace(10 s, 0))
 *       → count(Materialized.as("counts")) → suppress(untilWindowCloses(unbounded())) → toStream →
 *       to}, long values; the windowed keys are written in Weir's layout
 *       {@code [start: 8][end: 8][key]} ({@link WindowedKeySerializer}) so that both outputs are
 *       alike byte for byte and one verifier reads them.</li>
 *   <li>ysb: {@link YsbTopology#kafkaStreams}.</li>
 * </ul>
 */
public final class KafkaStreamsRunner implements SystemUnderTest {

    /** What stopped {@code streams}: the failure its handler saw ({@code seen}, or null), or its ERROR state. */
    public static Optional<Throwable> failureOf(KafkaStreams streams, Throwable seen) {
        if (seen == null && streams.state() == KafkaStreams.State.ERROR) {
            return Optional.of(new IllegalStateException("Kafka Streams is in state ERROR"));
        }
        return Optional.ofNullable(seen);
    }

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final Map<String, Object> extraSettings;

    public KafkaStreamsRunner() {
        this(Map.of());
    }

    /** With Kafka Streams settings applied after (and over) the benchmark's. */
    KafkaStreamsRunner(Map<String, Object> extraSettings) {
        this.extraSettings = Map.copyOf(extraSettings);
    }

    @Override
    public String name() {
        return "kafka_streams";
    }

    @Override
    public Running start(RunSpec spec) {
        StreamsBuilder builder = new StreamsBuilder();
        if (spec.scenario().kind() == Scenario.Kind.YSB) {
            YsbTopology.kafkaStreams(builder, spec);
        } else {
            build(builder, spec);
        }
        KafkaStreams streams = new KafkaStreams(builder.build(), settings(spec));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        streams.setUncaughtExceptionHandler(e -> {
            failure.compareAndSet(null, e);
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        AtomicLong restored = new AtomicLong();
        streams.setGlobalStateRestoreListener(new StateRestoreListener() {
            @Override
            public void onRestoreStart(TopicPartition partition, String store, long startOffset, long endOffset) {}

            @Override
            public void onBatchRestored(
                    TopicPartition partition, String store, long batchEndOffset, long numRestored) {}

            @Override
            public void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
                restored.addAndGet(totalRestored);
            }
        });
        streams.start();
        return new Running() {
            @Override
            public Optional<Throwable> failure() {
                return failureOf(streams, failure.get());
            }

            /**
             * The restored totals once the instance is {@code RUNNING}, zero before: restoring runs on
             * the state-updater thread, and the stream thread takes the restored tasks over (and the
             * instance turns {@code RUNNING}) a moment after the last {@code onRestoreEnd}.
             */
            @Override
            public long restoredRecords() {
                return streams.state() == KafkaStreams.State.RUNNING ? restored.get() : 0;
            }

            @Override
            public boolean ready() {
                return streams.state() == KafkaStreams.State.RUNNING;
            }

            @Override
            public void close() {
                if (!streams.close(CLOSE_TIMEOUT)) {
                    throw new IllegalStateException("Kafka Streams did not close within " + CLOSE_TIMEOUT);
                }
            }
        };
    }

    /** The topology of the run's workload other than ysb. */
    private static void build(StreamsBuilder builder, RunSpec spec) {
        KStream<byte[], byte[]> input =
                builder.stream(spec.inputTopic(), Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()));
        switch (spec.scenario().kind()) {
            case MAP ->
                input.mapValues(v -> ValueTransform.apply(v))
                        .to(spec.outputTopic(), Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
            case COUNT, RESTART, MEMORY, READY, FAILOVER, SCALE_OUT, SAVEPOINT ->
                input.groupByKey()
                        .count(Materialized.as(Scenario.COUNT_STORE))
                        .toStream()
                        .to(spec.outputTopic(), Produced.with(Serdes.ByteArray(), Serdes.Long()));
            case RESTORE ->
                input.groupByKey()
                        .reduce((a, b) -> b, Materialized.as(Scenario.RESTORE_STORE))
                        .toStream()
                        .to(spec.outputTopic(), Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
            case WINDOW_COUNT ->
                input.groupByKey()
                        .windowedBy(TimeWindows.ofSizeAndGrace(Scenario.WINDOW_SIZE, Duration.ZERO))
                        .count(Materialized.as(Scenario.COUNT_STORE))
                        .suppress(Suppressed.untilWindowCloses(Suppressed.BufferConfig.unbounded()))
                        .toStream()
                        .to(
                                spec.outputTopic(),
                                Produced.with(
                                        Serdes.serdeFrom(new WindowedKeySerializer(), new WindowedKeyDeserializer()),
                                        Serdes.Long()));
        }
    }

    /**
     * Windowed keys as Weir's {@code Serdes.windowed(Serdes.bytes())} writes them:
     * {@code [start: 8][end: 8][key]}, the times big-endian.
     */
    static final class WindowedKeySerializer implements Serializer<Windowed<byte[]>> {
        @Override
        public byte[] serialize(String topic, Windowed<byte[]> data) {
            if (data == null) {
                return null;
            }
            byte[] key = data.key();
            return ByteBuffer.allocate(2 * Long.BYTES + key.length)
                    .putLong(data.window().start())
                    .putLong(data.window().end())
                    .put(key)
                    .array();
        }
    }

    /** A serde needs a deserializer; the topology never reads its output (the verifier reads the bytes). */
    static final class WindowedKeyDeserializer implements Deserializer<Windowed<byte[]>> {
        @Override
        public Windowed<byte[]> deserialize(String topic, byte[] data) {
            throw new UnsupportedOperationException("the benchmark's windowed output is written, never read back");
        }
    }

    private Properties settings(RunSpec spec) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, spec.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, spec.bootstrapServers());
        p.put(
                StreamsConfig.PROCESSING_GUARANTEE_CONFIG,
                spec.guarantee() == Guarantee.EXACTLY_ONCE
                        ? StreamsConfig.EXACTLY_ONCE_V2
                        : StreamsConfig.AT_LEAST_ONCE);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, ClientSettings.COMMIT_INTERVAL.toMillis());
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        p.put(StreamsConfig.STATE_DIR_CONFIG, spec.stateDir().toString());
        ClientSettings.producer().forEach((k, v) -> p.put(StreamsConfig.producerPrefix(k), v));
        ClientSettings.consumer().forEach((k, v) -> p.put(StreamsConfig.consumerPrefix(k), v));
        p.putAll(extraSettings);
        return p;
    }
}
