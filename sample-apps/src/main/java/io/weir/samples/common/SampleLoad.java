package io.weir.samples.common;

import io.weir.common.internal.Deadline;
import io.weir.common.internal.KafkaCalls;
import io.weir.errors.ClusterException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code load} mode: feeds a sample's input topic at a steady rate until SIGTERM or the end of
 * {@code --duration}, as a load generator beside served instances (docker compose, a cluster).
 * The topic must exist; nothing is created.
 *
 * <p>Not thread-safe: the main thread runs it; the producer's callbacks only count.
 */
public final class SampleLoad {

    private static final Logger log = LoggerFactory.getLogger(SampleLoad.class);
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(10);
    /** The longest single pause, so a signal or the end of the duration is noticed promptly. */
    private static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    /**
     * @param bootstrapServers the cluster
     * @param topic            the sample's input topic
     * @param recordsPerSecond at least 1
     * @param duration         how long to feed, or null for until SIGTERM
     */
    public record Options(String bootstrapServers, String topic, int recordsPerSecond, Duration duration) {}

    private SampleLoad() {}

    /**
     * Feeds records from {@code sample}'s generator; returns how many were sent and acknowledged.
     *
     * @throws IllegalStateException if the cluster cannot be reached, the topic does not exist, or
     *     a send fails
     */
    public static long run(ServedSample sample, Options options, ShutdownSignal signal) {
        requireTopic(options.bootstrapServers(), options.topic());
        if (sample.reference() != null) {
            writeReference(options, sample);
        }
        RecordGenerator generator = sample.generator().get();
        AtomicLong acked = new AtomicLong();
        AtomicReference<Exception> failure = new AtomicReference<>();
        long started = System.nanoTime();
        Deadline end = options.duration() == null ? null : Deadline.after(options.duration());
        Producer<byte[], byte[]> producer = KafkaClients.loadProducer(options.bootstrapServers(), sample.name());
        try {
            log.info(
                    "Feeding '{}' with {} input at {} records/s{}",
                    options.topic(),
                    sample.name(),
                    options.recordsPerSecond(),
                    options.duration() == null
                            ? " until SIGTERM"
                            : " for " + options.duration().toSeconds() + " s");
            RatePacer pacer = new RatePacer(options.recordsPerSecond(), System::nanoTime);
            long sent = 0;
            long nextProgress = started + PROGRESS_EVERY.toNanos();
            while (!signal.requested() && (end == null || !end.expired())) {
                if (failure.get() != null) {
                    throw new IllegalStateException(
                            "cannot write to '" + options.topic() + "': " + failure.get(), failure.get());
                }
                for (int i = pacer.due(); i > 0; i--, sent++) {
                    producer.send(generator.next(options.topic(), System.currentTimeMillis()), (md, e) -> {
                        if (e != null) {
                            failure.compareAndSet(null, e);
                        } else {
                            acked.incrementAndGet();
                        }
                    });
                }
                if (System.nanoTime() - nextProgress >= 0) {
                    log.info("Sent {} records to '{}'", sent, options.topic());
                    nextProgress += PROGRESS_EVERY.toNanos();
                }
                // Pacing to the next send's slot, not waiting for something to happen.
                LockSupport.parkNanos(Math.min(Math.max(1, pacer.nanosUntilNext()), MAX_PAUSE_NANOS));
            }
            producer.flush();
        } finally {
            // Bounded: a broker gone away must not keep a stopping load generator alive.
            producer.close(CLOSE_TIMEOUT);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        log.info("Stopped feeding: {} records to '{}' in {} s", acked.get(), options.topic(), Math.round(seconds));
        return acked.get();
    }

    /** Writes the sample's reference records (the table it joins), all acknowledged, before any input. */
    private static void writeReference(Options options, ServedSample sample) {
        String topic = sample.reference().topic();
        requireTopic(options.bootstrapServers(), topic);
        List<ProducerRecord<byte[], byte[]>> records =
                sample.reference().records().get();
        try (Producer<byte[], byte[]> producer = KafkaClients.loadProducer(options.bootstrapServers(), sample.name())) {
            List<java.util.concurrent.Future<?>> sends = new java.util.ArrayList<>();
            for (ProducerRecord<byte[], byte[]> r : records) {
                sends.add(producer.send(new ProducerRecord<>(topic, r.partition(), r.timestamp(), r.key(), r.value())));
            }
            for (java.util.concurrent.Future<?> f : sends) {
                f.get(ADMIN_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing '" + topic + "'", e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("cannot write the reference records to '" + topic + "': " + e, e);
        }
        log.info("Wrote {} reference records to '{}'", records.size(), topic);
    }

    /** Fails fast with a clear message instead of a producer blocking on a missing topic's metadata. */
    private static void requireTopic(String bootstrapServers, String topic) {
        try (Admin admin = KafkaClients.admin(bootstrapServers)) {
            KafkaCalls.get(
                    admin.describeTopics(List.of(topic)).allTopicNames(),
                    ADMIN_TIMEOUT,
                    "describe topic '" + topic + "' at " + bootstrapServers);
        } catch (ClusterException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                throw new IllegalStateException("topic '" + topic + "' does not exist at " + bootstrapServers
                        + ": create it first (load writes to existing topics only)");
            }
            throw e;
        }
    }
}
