package io.weir.internal.state.restore;

import io.weir.internal.cluster.ClientConfigs;
import io.weir.internal.config.ClientRole;
import io.weir.state.changelog.RestoreSession;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state thread's Kafka consumers, each created when first needed, and the restore sessions
 * over them: one for the restores of active tasks (client id {@code <prefix>-state-restore-consumer}),
 * one for the standbys ({@code <prefix>-state-standby-consumer}), and a read_uncommitted one that
 * looks up the log ends both sessions wait for ({@code <prefix>-state-log-end-consumer}).
 *
 * <p>A new session gets a new consumer; the consumer of the session it replaces (after a failure
 * dropped that session) is closed first.
 *
 * <p>Threads: the state thread only (a consumer is not thread-safe); {@link #close} once it ended.
 */
public final class StateConsumers {

    /** One slice of the state thread's time: how long a restore or standby step reads before it looks up. */
    public static final Duration STEP = Duration.ofMillis(100);

    private static final Logger log = LoggerFactory.getLogger(StateConsumers.class);
    /** How long {@link #connect} waits for the cluster; the state thread has nothing else to do then. */
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private final ClientConfigs clients;
    /** How long a transaction may hold a changelog's end back: see {@link #newSession}. */
    private final Duration endOffsetGrace;
    /** Active tasks' restores far behind load by ingestion; standbys only tail, so never do. */
    private final RestoreSession.BulkLoad bulkLoad;

    private KafkaConsumer<byte[], byte[]> restoreConsumer;
    private KafkaConsumer<byte[], byte[]> standbyConsumer;
    private KafkaConsumer<byte[], byte[]> logEndConsumer;
    /** In the application's group, never subscribing: reads the group's committed offsets. */
    private KafkaConsumer<byte[], byte[]> offsetsConsumer;

    public StateConsumers(ClientConfigs clients, Duration transactionTimeout, RestoreSession.BulkLoad bulkLoad) {
        this.clients = clients;
        this.bulkLoad = bulkLoad;
        // A store may be ahead of the read_committed end while a dead producer's transaction holds
        // the end back, and a changelog's last transaction may be committed without its markers
        // yet; both resolve within the transaction timeout, so wait that long before concluding
        // the changelog was recreated (and wiping the store) or restoring short of the log end.
        this.endOffsetGrace = transactionTimeout.plusSeconds(5);
    }

    /** A session for the restores of active tasks, over a new restore consumer. */
    public RestoreSession restoreSession() {
        closeQuietly(restoreConsumer);
        restoreConsumer = newConsumer("restore", false);
        return new RestoreSession(restoreConsumer, STEP, endOffsetGrace, this::logEnds, bulkLoad);
    }

    /** A session for the standbys to follow their changelogs in, over a new standby consumer. */
    public RestoreSession standbySession() {
        closeQuietly(standbyConsumer);
        standbyConsumer = newConsumer("standby", false);
        return newSession(standbyConsumer);
    }

    private RestoreSession newSession(KafkaConsumer<byte[], byte[]> consumer) {
        return new RestoreSession(consumer, STEP, endOffsetGrace, this::logEnds);
    }

    private KafkaConsumer<byte[], byte[]> newConsumer(String role, boolean readUncommitted) {
        Map<String, Object> c = clients.plainConsumer("state-" + role);
        if (readUncommitted) {
            c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        }
        return clients.kafka().consumer(ClientRole.ofInstance("state-" + role + "-consumer"), c);
    }

    /**
     * Has the restore and log-end consumers fetch the metadata of {@code topics}, so that their
     * first restore finds them connected and their classes loaded. Best effort: a cluster that
     * does not answer within {@link #CONNECT_TIMEOUT} is left to the restore itself, which waits
     * for it and says so.
     */
    public void connect(Set<String> topics) {
        String topic = topics.iterator().next();
        for (KafkaConsumer<byte[], byte[]> c : List.of(restoreConsumer, logEndConsumer())) {
            try {
                c.partitionsFor(topic, CONNECT_TIMEOUT);
            } catch (RuntimeException e) {
                log.debug("the state consumers could not look {} up ahead of a restore", topic, e);
                return;
            }
        }
    }

    /** The log ends (high watermarks) of {@code changelogs}, unresolved transactions included. */
    private Map<TopicPartition, Long> logEnds(Set<TopicPartition> changelogs) {
        return logEndConsumer().endOffsets(changelogs);
    }

    private KafkaConsumer<byte[], byte[]> logEndConsumer() {
        if (logEndConsumer == null) {
            logEndConsumer = newConsumer("log-end", true);
        }
        return logEndConsumer;
    }

    /**
     * Where the application's tasks start processing {@code partitions}: the group's committed
     * offsets (read_committed, so an offset commit inside a transaction still open is waited for,
     * as the stream consumer waits for it), else where the stream consumer's
     * {@code auto.offset.reset} puts it: the beginning, or the end for {@code latest}.
     */
    public Map<TopicPartition, Long> startOffsets(Set<TopicPartition> partitions) {
        Map<String, Object> stream = clients.consumer(0);
        if (offsetsConsumer == null) {
            Map<String, Object> c = clients.plainConsumer("state-offsets");
            c.put(ConsumerConfig.GROUP_ID_CONFIG, stream.get(ConsumerConfig.GROUP_ID_CONFIG));
            offsetsConsumer = clients.kafka().consumer(ClientRole.ofInstance("state-offsets-consumer"), c);
        }
        Map<TopicPartition, Long> offsets = new java.util.HashMap<>();
        Set<TopicPartition> missing = new java.util.HashSet<>(partitions);
        offsetsConsumer.committed(partitions).forEach((tp, committed) -> {
            if (committed != null) {
                offsets.put(tp, committed.offset());
                missing.remove(tp);
            }
        });
        if (!missing.isEmpty()) {
            boolean latest = "latest".equals(String.valueOf(stream.get(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG)));
            offsets.putAll(latest ? offsetsConsumer.endOffsets(missing) : offsetsConsumer.beginningOffsets(missing));
        }
        return offsets;
    }

    /** Closes the consumers; close the sessions over them first. */
    public void close() {
        for (KafkaConsumer<byte[], byte[]> c :
                java.util.Arrays.asList(restoreConsumer, standbyConsumer, logEndConsumer, offsetsConsumer)) {
            closeQuietly(c);
        }
        restoreConsumer = null;
        standbyConsumer = null;
        logEndConsumer = null;
        offsetsConsumer = null;
    }

    /** Closes {@code consumer} (null: none), logging rather than throwing what fails. */
    private static void closeQuietly(KafkaConsumer<byte[], byte[]> consumer) {
        if (consumer != null) {
            try {
                consumer.close(Duration.ofSeconds(5));
            } catch (RuntimeException e) {
                log.debug("closing a state consumer failed", e);
            }
        }
    }

    /** Closes {@code session} (null: none), logging rather than throwing what fails. */
    public static void closeQuietly(RestoreSession session) {
        if (session != null) {
            try {
                session.close();
            } catch (RuntimeException e) {
                log.debug("closing a restore session failed", e);
            }
        }
    }
}
