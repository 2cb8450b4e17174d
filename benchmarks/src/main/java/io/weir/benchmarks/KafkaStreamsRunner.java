package io.weir.benchmarks;

import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The stateless map in Kafka Streams: {@code stream → mapValues → to} with byte-array serdes, one
 * stream thread, {@code exactly_once_v2} or {@code at_least_once}, and the shared producer and
 * consumer settings passed with the {@code producer.} and {@code consumer.} prefixes.
 */
final class KafkaStreamsRunner implements SystemUnderTest {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    @Override
    public String name() {
        return "kafka_streams";
    }

    @Override
    public Running start(RunSpec spec) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(spec.inputTopic(), Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
                .mapValues(v -> ValueTransform.apply(v))
                .to(spec.outputTopic(), Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
        KafkaStreams streams = new KafkaStreams(builder.build(), settings(spec));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        streams.setUncaughtExceptionHandler(e -> {
            failure.compareAndSet(null, e);
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        streams.start();
        return new Running() {
            @Override
            public Optional<Throwable> failure() {
                Throwable f = failure.get();
                if (f == null && streams.state() == KafkaStreams.State.ERROR) {
                    f = new IllegalStateException("Kafka Streams is in state ERROR");
                }
                return Optional.ofNullable(f);
            }

            @Override
            public void close() {
                if (!streams.close(CLOSE_TIMEOUT)) {
                    throw new IllegalStateException("Kafka Streams did not close within " + CLOSE_TIMEOUT);
                }
            }
        };
    }

    private static Properties settings(RunSpec spec) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, spec.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, spec.bootstrapServers());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, spec.guarantee() == Guarantee.EXACTLY_ONCE
                ? StreamsConfig.EXACTLY_ONCE_V2 : StreamsConfig.AT_LEAST_ONCE);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, ClientSettings.COMMIT_INTERVAL.toMillis());
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        p.put(StreamsConfig.STATE_DIR_CONFIG, spec.stateDir().toString());
        ClientSettings.producer().forEach((k, v) -> p.put(StreamsConfig.producerPrefix(k), v));
        ClientSettings.consumer().forEach((k, v) -> p.put(StreamsConfig.consumerPrefix(k), v));
        return p;
    }
}
