package io.weir.benchmarks.enrich;

import io.weir.benchmarks.SystemUnderTest;
import io.weir.benchmarks.systems.ClientSettings;
import io.weir.benchmarks.systems.KafkaStreamsRunner;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The enrichment in Kafka Streams as its users write it today: the blocking call in
 * {@code mapValues}, one stream thread, {@code exactly_once_v2}, the benchmark's shared client
 * settings and commit interval.
 */
final class KafkaStreamsEnrich implements EnrichSystem {

    static final String NAME = "kafka_streams";

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int inFlightBound() {
        return 1;
    }

    @Override
    public SystemUnderTest.Running start(Run run) {
        StreamsBuilder builder = new StreamsBuilder();
        LookupClient lookups = run.lookups();
        builder.stream(run.inputTopic(), Consumed.with(Serdes.String(), Serdes.String()))
                .mapValues((k, v) -> EnrichRecords.enriched(v, lookups.call(k, null)))
                .to(run.outputTopic(), Produced.with(Serdes.String(), Serdes.String()));
        KafkaStreams streams = new KafkaStreams(builder.build(), settings(run));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        streams.setUncaughtExceptionHandler(e -> {
            failure.compareAndSet(null, e);
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        streams.start();
        return new SystemUnderTest.Running() {
            @Override
            public Optional<Throwable> failure() {
                return KafkaStreamsRunner.failureOf(streams, failure.get());
            }

            @Override
            public void close() {
                if (!streams.close(CLOSE_TIMEOUT)) {
                    throw new IllegalStateException("Kafka Streams did not close within " + CLOSE_TIMEOUT);
                }
            }
        };
    }

    private static Properties settings(Run run) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, run.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, run.bootstrapServers());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, ClientSettings.COMMIT_INTERVAL.toMillis());
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        p.put(StreamsConfig.STATE_DIR_CONFIG, run.stateDir().toString());
        ClientSettings.producer().forEach((k, v) -> p.put(StreamsConfig.producerPrefix(k), v));
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        return p;
    }
}
