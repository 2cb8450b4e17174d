package io.weir.internal.state.global;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.weir.common.internal.Deadline;
import io.weir.common.internal.KafkaCalls;
import io.weir.common.internal.Worker;
import io.weir.errors.ClusterException;
import io.weir.errors.ServiceUnavailableException;
import io.weir.internal.cluster.ClientConfigs;
import io.weir.internal.config.ClientRole;
import io.weir.internal.metrics.WeirMeter;
import io.weir.internal.task.TopicLimits;
import io.weir.processor.ErrorHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps an instance's {@link GlobalTables} up to date: {@link #start} reads every partition of
 * every global table's topic to its read_committed end before it returns (so the stream threads,
 * started after it, never join a stream record with a table still loading), then a thread of its
 * own, {@code weir-global}, follows the topics for as long as the instance runs. A malformed record
 * is the application's error handler's to decide ({@link GlobalFailures}): a dead letter is
 * written before the thread reads on, so nothing is lost; a failure of the thread (or a handler's
 * FAIL) fails the instance. A record a serde could not read because a service it needs is
 * unavailable ({@link io.weir.errors.ServiceUnavailableException}) is not malformed: it is not
 * dead-lettered, the thread fails, and no checkpoint is written past it, so the next start applies it.
 *
 * <p>A table on disk resumes where its checkpoint says ({@link GlobalTables#resumeAt}) and is read
 * from the beginning instead when the checkpoint does not fit the topic: another topic id (the
 * topic was deleted and recreated), other partitions, a position before the partition's first
 * offset (records deleted unread) or past its end (the log was truncated). The thread checkpoints
 * every {@link #CHECKPOINT_INTERVAL} while records arrive, after the restore and on close.
 *
 * <p>Meters: {@code weir.global.rows} (rows of each table), {@code weir.global.lag} (records
 * between the thread's position and the end of each table's topic, sampled once a second) and
 * {@code weir.global.restored.records} (records of each table's topic read by the start-up
 * restore: all of them the first time, the tail since the checkpoint after a restart).
 */
public final class GlobalThread implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GlobalThread.class);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final long LAG_SAMPLE_NANOS = 1_000_000_000L;
    static final Duration CHECKPOINT_INTERVAL = Duration.ofSeconds(10);
    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(30);

    private final GlobalTables tables;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Producer<byte[], byte[]> deadLetterProducer;
    private final GlobalFailures failures;
    private final Consumer<Throwable> onFailure;
    private final Map<String, AtomicLong> lags = new HashMap<>();
    private final Map<String, AtomicLong> restoredRecords = new HashMap<>();
    private final List<Gauge> gauges = new ArrayList<>();
    private final MeterRegistry registry;
    private final Map<String, String> topicIds = new HashMap<>();
    private Worker worker;
    private long lastLagSample;
    private long lastCheckpoint;
    private boolean appliedSinceCheckpoint;
    private boolean restored;
    /** A record could not be applied (nor dead-lettered): the consumer's position must not be checkpointed. */
    private volatile boolean failed;

    private GlobalThread(
            GlobalTables tables,
            ClientConfigs clients,
            String deadLetterTopic,
            TopicLimits limits,
            ErrorHandler errorHandler,
            MeterRegistry registry,
            Tags tags,
            Consumer<Throwable> onFailure) {
        this.tables = tables;
        this.consumer = clients.kafka()
                .consumer(
                        ClientRole.ofInstance("global-consumer"),
                        clients.plainConsumer("global"),
                        new ByteArrayDeserializer(),
                        new ByteArrayDeserializer());
        this.deadLetterProducer = clients.kafka()
                .producer(
                        ClientRole.ofInstance("global-dead-letter-producer"),
                        clients.plainProducer("global-dead-letter"),
                        new ByteArraySerializer(),
                        new ByteArraySerializer());
        this.failures = new GlobalFailures(errorHandler, deadLetterTopic, limits, registry, tags);
        this.onFailure = onFailure;
        this.registry = registry;
        for (String topic : tables.topics()) {
            AtomicLong lag = new AtomicLong(-1);
            lags.put(topic, lag);
            AtomicLong restoredRecords = new AtomicLong();
            this.restoredRecords.put(topic, restoredRecords);
            gauges.add(WeirMeter.GLOBAL_RESTORED_RECORDS
                    .gauge(restoredRecords::get)
                    .tags(tags.and("topic", topic))
                    .register(registry));
            gauges.add(WeirMeter.GLOBAL_ROWS
                    .gauge(() -> tables.rows(topic))
                    .tags(tags.and("topic", topic))
                    .register(registry));
            gauges.add(WeirMeter.GLOBAL_LAG
                    .gauge(() -> lag.get() < 0 ? Double.NaN : lag.get())
                    .tags(tags.and("topic", topic))
                    .register(registry));
        }
    }

    /**
     * Restores every global table to the read_committed end of its topic, then starts following
     * them. Returns null when the topology has no global table.
     *
     * @param timeout how long the restore may take before the start fails
     * @throws ClusterException if a topic cannot be read or the restore takes longer than {@code timeout}
     */
    public static GlobalThread start(
            GlobalTables tables,
            ClientConfigs clients,
            Admin admin,
            String deadLetterTopic,
            TopicLimits limits,
            ErrorHandler errorHandler,
            MeterRegistry registry,
            Tags tags,
            Duration timeout,
            Consumer<Throwable> onFailure) {
        if (tables.isEmpty()) {
            return null;
        }
        GlobalThread g =
                new GlobalThread(tables, clients, deadLetterTopic, limits, errorHandler, registry, tags, onFailure);
        try {
            g.topicIds.putAll(topicIds(admin, tables.topics(), timeout));
            g.restore(timeout);
        } catch (RuntimeException e) {
            g.close();
            throw e;
        }
        // Not interrupted: the consumer's wakeup ends its poll, and a dead letter is written whole.
        g.worker = Worker.named("weir-global")
                .interruptOnStop(false)
                .wakeUp(g.consumer::wakeup)
                .onFailure(onFailure)
                .joinTimeout(JOIN_TIMEOUT)
                .loop(g::follow);
        return g;
    }

    private void restore(Duration timeout) {
        long started = System.nanoTime();
        Deadline deadline = Deadline.after(timeout);
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : tables.topics()) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
            if (infos == null || infos.isEmpty()) {
                throw new ClusterException("global table topic '" + topic + "' does not exist or has no partitions");
            }
            infos.forEach(i -> partitions.add(new TopicPartition(topic, i.partition())));
        }
        consumer.assign(partitions);
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, timeout);
        Map<TopicPartition, Long> beginnings = consumer.beginningOffsets(partitions, timeout);
        for (String topic : tables.topics()) {
            seekToResume(
                    topic,
                    partitions.stream().filter(tp -> tp.topic().equals(topic)).toList(),
                    beginnings,
                    ends);
        }
        long records = 0;
        while (ends.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
            if (deadline.expired()) {
                throw new ClusterException("the global tables were not restored within " + timeout + " (at "
                        + describePositions(ends) + ")");
            }
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
                apply(r);
                restoredRecords.get(r.topic()).incrementAndGet();
                records++;
            }
        }
        long ms = (System.nanoTime() - started) / 1_000_000;
        for (String topic : tables.topics()) {
            log.info("global table of {} restored: {} rows", topic, tables.rows(topic));
        }
        log.info("global tables restored from {} records in {} ms", records, ms);
        restored = true;
        checkpoint();
    }

    /**
     * Seeks the partitions of {@code topic} to where its table resumes, or to their beginning (the
     * table emptied) when its checkpoint does not fit them.
     */
    private void seekToResume(
            String topic,
            List<TopicPartition> partitions,
            Map<TopicPartition, Long> beginnings,
            Map<TopicPartition, Long> ends) {
        Map<Integer, Long> at = tables.resumeAt(topic, topicIds.get(topic)).orElse(null);
        String unfit = at == null ? null : unfit(at, partitions, beginnings, ends);
        if (unfit != null) {
            log.info(
                    "global table of {}: its local copy does not fit the topic ({}); reading the topic from the"
                            + " beginning",
                    topic,
                    unfit);
            tables.startOver(topic);
            at = null;
        }
        if (at == null) {
            consumer.seekToBeginning(partitions);
            return;
        }
        for (TopicPartition tp : partitions) {
            consumer.seek(tp, at.get(tp.partition()));
        }
        log.info("global table of {}: resuming its local copy ({} rows) at {}", topic, tables.rows(topic), at);
    }

    /** Why the positions {@code at} do not fit the partitions, or null if they do. */
    private static String unfit(
            Map<Integer, Long> at,
            List<TopicPartition> partitions,
            Map<TopicPartition, Long> beginnings,
            Map<TopicPartition, Long> ends) {
        if (at.size() != partitions.size() || partitions.stream().anyMatch(tp -> !at.containsKey(tp.partition()))) {
            return "it has positions for partitions " + at.keySet() + ", the topic has " + partitions.size();
        }
        for (TopicPartition tp : partitions) {
            long position = at.get(tp.partition());
            if (position < beginnings.get(tp)) {
                return "partition " + tp.partition() + " now begins at " + beginnings.get(tp) + ", after its position "
                        + position;
            }
            if (position > ends.get(tp)) {
                return "partition " + tp.partition() + " now ends at " + ends.get(tp) + ", before its position "
                        + position;
            }
        }
        return null;
    }

    /** Checkpoints every table at the consumer's positions. Only on the thread that owns the consumer. */
    private void checkpoint() {
        Map<String, Map<Integer, Long>> positions = new HashMap<>();
        for (TopicPartition tp : consumer.assignment()) {
            positions.computeIfAbsent(tp.topic(), t -> new HashMap<>()).put(tp.partition(), consumer.position(tp));
        }
        positions.forEach((topic, at) -> tables.checkpoint(topic, topicIds.get(topic), at));
        lastCheckpoint = System.nanoTime();
        appliedSinceCheckpoint = false;
    }

    private static Map<String, String> topicIds(Admin admin, java.util.Set<String> topics, Duration timeout) {
        Map<String, String> ids = new HashMap<>();
        for (TopicDescription d : KafkaCalls.get(
                        admin.describeTopics(topics).allTopicNames(),
                        timeout,
                        "describe the global tables' topics " + topics)
                .values()) {
            ids.put(d.name(), d.topicId().toString());
        }
        return ids;
    }

    private String describePositions(Map<TopicPartition, Long> ends) {
        StringBuilder sb = new StringBuilder();
        ends.forEach((tp, end) -> sb.append(sb.isEmpty() ? "" : ", ")
                .append(tp)
                .append(' ')
                .append(consumer.position(tp))
                .append('/')
                .append(end));
        return sb.toString();
    }

    /** Applies what the topics bring; a failure fails the instance (the worker's failure handler). */
    private void follow(Worker self) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
            try {
                apply(r);
            } catch (ServiceUnavailableException e) {
                failed = true;
                // Expected, not a bug: the instance's one ERROR line says it, not the worker's stack trace too.
                self.stop();
                onFailure.accept(e);
                return;
            } catch (RuntimeException e) {
                failed = true;
                throw e;
            }
            appliedSinceCheckpoint = true;
        }
        sampleLag();
        if (appliedSinceCheckpoint && System.nanoTime() - lastCheckpoint >= CHECKPOINT_INTERVAL.toNanos()) {
            checkpoint();
        }
    }

    private void apply(ConsumerRecord<byte[], byte[]> record) {
        tables.apply(record)
                .ifPresent(error -> failures.onUnreadable(record, tables.storeName(record.topic()), error)
                        .ifPresent(deadLetter -> {
                            try {
                                deadLetterProducer.send(deadLetter).get();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                                throw new IllegalStateException(
                                        "interrupted while dead-lettering " + record.topic() + "-" + record.partition()
                                                + "@" + record.offset(),
                                        e);
                            } catch (ExecutionException e) {
                                throw new ClusterException(
                                        "cannot write " + record.topic() + "-" + record.partition() + "@"
                                                + record.offset() + " to the dead-letter topic " + deadLetter.topic()
                                                + ": " + e.getCause(),
                                        e.getCause());
                            }
                        }));
    }

    private void sampleLag() {
        long now = System.nanoTime();
        if (now - lastLagSample < LAG_SAMPLE_NANOS) {
            return;
        }
        lastLagSample = now;
        Map<String, Long> total = new HashMap<>();
        for (TopicPartition tp : consumer.assignment()) {
            OptionalLong lag = consumer.currentLag(tp);
            total.merge(tp.topic(), lag.isPresent() ? lag.getAsLong() : -1L, (a, b) -> a < 0 || b < 0 ? -1L : a + b);
        }
        total.forEach((topic, lag) -> lags.get(topic).set(lag));
    }

    @Override
    public void close() {
        if (worker != null) {
            worker.close();
        }
        gauges.forEach(registry::remove);
        // The thread has stopped (or never started): the consumer is this thread's now. After a
        // failed record its position is past records not applied: the last checkpoint stays.
        if (restored && !failed && (worker == null || !worker.alive())) {
            try {
                checkpoint();
            } catch (RuntimeException e) {
                log.warn("cannot checkpoint the global tables on close; the next start reads more of their topics", e);
            }
        }
        consumer.close(Duration.ofSeconds(5));
        deadLetterProducer.close(Duration.ofSeconds(5));
    }
}
