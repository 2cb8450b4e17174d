package io.weir.internal.task;

import io.weir.internal.commit.OpenTransaction;
import io.weir.processor.ErrorResponse;
import io.weir.processor.Headers;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out the error handler's decision for failed input records: writes them, unchanged, to
 * the dead-letter topic with headers that say what failed and where the record came from (and the
 * handler's own), or skips them; counts both per stage; and remembers records that failed under
 * exactly-once.
 *
 * <p>Under exactly-once a failing record may already have forwarded some outputs, so the thread
 * aborts the transaction and replays from the last commit; this class marks the record with the
 * handler's decision so the replay dead-letters or skips it instead of processing it again. The
 * dead-letter record is committed in the same transaction as the input offset that passes it, so
 * it is written exactly once; a skipped record likewise leaves no output.
 *
 * <p>One instance per stream thread; not thread-safe.
 */
public final class DeadLetters {

    public static final String ERROR_CLASS = "weir.error.class";
    public static final String ERROR_MESSAGE = "weir.error.message";
    public static final String ERROR_STAGE = "weir.error.stage";
    public static final String ERROR_STACK = "weir.error.stacktrace";
    public static final String SOURCE_TOPIC = "weir.source.topic";
    public static final String SOURCE_PARTITION = "weir.source.partition";
    public static final String SOURCE_OFFSET = "weir.source.offset";
    public static final String SOURCE_TIMESTAMP = "weir.source.timestamp";

    private static final Logger log = LoggerFactory.getLogger(DeadLetters.class);
    private static final int MAX_MESSAGE_CHARS = 2000;
    private static final int MAX_STACK_CHARS = 8000;

    /** A record that failed and must be dead-lettered or skipped, as decided, when it comes round again. */
    public record Poisoned(Stage stage, Throwable error, ErrorResponse response) {}

    /** Receives the counts of {@link #drainCounts}. */
    public interface Counts {
        void add(Stage stage, ErrorResponse.Action action, long n);
    }

    private final String topic;
    private final OpenTransaction transaction;
    private final TopicLimits limits;
    private final Map<TopicPartition, Map<Long, Poisoned>> poisoned = new HashMap<>();
    /** Per stage: records dead-lettered ([0]) and skipped ([1]) since the last drain. */
    private final long[][] counts = new long[Stage.values().length][2];

    private boolean commitRequested;

    public DeadLetters(String topic, OpenTransaction transaction, TopicLimits limits) {
        this.topic = topic;
        this.transaction = transaction;
        this.limits = limits;
    }

    boolean hasPoisoned() {
        return !poisoned.isEmpty();
    }

    /** Marks {@code record} to be dead-lettered or skipped, as {@code response} says, when replayed. */
    public void poison(ConsumerRecord<byte[], byte[]> record, Stage stage, Throwable error, ErrorResponse response) {
        poisoned.computeIfAbsent(new TopicPartition(record.topic(), record.partition()), tp -> new HashMap<>())
                .put(record.offset(), new Poisoned(stage, error, response));
    }

    /** The mark of {@code record}, or null: a replay met a record whose failure was decided already. */
    public Poisoned poisonedAt(ConsumerRecord<byte[], byte[]> record) {
        return hasPoisoned()
                ? poisonedAt(new TopicPartition(record.topic(), record.partition()), record.offset())
                : null;
    }

    /** The mark left by {@link #poison}, or null. */
    Poisoned poisonedAt(TopicPartition tp, long offset) {
        Map<Long, Poisoned> m = poisoned.get(tp);
        return m == null ? null : m.get(offset);
    }

    /** Forgets marks below the committed offsets: those records are dead-lettered for good. */
    void committed(TopicPartition tp, long nextOffset) {
        Map<Long, Poisoned> m = poisoned.get(tp);
        if (m != null) {
            m.keySet().removeIf(o -> o < nextOffset);
            if (m.isEmpty()) {
                poisoned.remove(tp);
            }
        }
    }

    /** Forgets marks of partitions this thread no longer owns. */
    void forget(TopicPartition tp) {
        poisoned.remove(tp);
    }

    /**
     * Carries out {@code response} (not a FAIL): sends {@code record} to the dead-letter topic with
     * the response's headers, or skips it (a DEBUG line; the meter counts it).
     *
     * @throws IllegalStateException if even the dead-letter topic cannot take it: the record
     *     would be lost, so the application must stop instead
     */
    public void apply(ConsumerRecord<byte[], byte[]> record, Stage stage, Throwable error, ErrorResponse response) {
        switch (response.action()) {
            case DEAD_LETTER -> {
                transaction.send(deadLetter(record, topic, limits, stage, error, response.headers()));
                counts[stage.ordinal()][0]++;
            }
            case CONTINUE -> {
                log.debug(
                        "skipping {}-{}@{} ({}): {}",
                        record.topic(),
                        record.partition(),
                        record.offset(),
                        stage.label,
                        error.toString());
                counts[stage.ordinal()][1]++;
            }
            case FAIL -> throw new IllegalArgumentException("a FAIL is the caller's to throw");
        }
    }

    /** Carries out the decision {@link #poison} marked, as {@link #apply} does. */
    public void apply(ConsumerRecord<byte[], byte[]> record, Poisoned mark) {
        apply(record, mark.stage(), mark.error(), mark.response());
    }

    /**
     * The dead-letter record of {@code record} for {@code topic}, with the error headers, and the
     * WARN line that says so: for writers outside a task's transaction (the global tables).
     *
     * @throws IllegalStateException if it is larger than the topic accepts (see {@link #copyWithSource})
     */
    public static ProducerRecord<byte[], byte[]> deadLetter(
            ConsumerRecord<byte[], byte[]> record, String topic, TopicLimits limits, Stage stage, Throwable error) {
        return deadLetter(record, topic, limits, stage, error, Headers.empty());
    }

    /** As {@link #deadLetter(ConsumerRecord, String, TopicLimits, Stage, Throwable)}, with an error handler's headers. */
    public static ProducerRecord<byte[], byte[]> deadLetter(
            ConsumerRecord<byte[], byte[]> record,
            String topic,
            TopicLimits limits,
            Stage stage,
            Throwable error,
            Headers handlers) {
        List<Header> extra = new ArrayList<>(List.of(handlers.toArray()));
        extra.add(header(ERROR_CLASS, error.getClass().getName()));
        extra.add(header(ERROR_MESSAGE, truncate(String.valueOf(error.getMessage()), MAX_MESSAGE_CHARS)));
        extra.add(header(ERROR_STAGE, stage.label));
        extra.add(header(ERROR_STACK, truncate(stackTrace(error), MAX_STACK_CHARS)));
        ProducerRecord<byte[], byte[]> copy = copyWithSource(
                record, topic, limits, "dead-letter", "dead.letter.max.message.bytes", extra.toArray(new Header[0]));
        log.warn(
                "dead-lettering {}-{}@{} ({}): {}",
                record.topic(),
                record.partition(),
                record.offset(),
                stage.label,
                error.toString());
        return copy;
    }

    /**
     * An input record, unchanged, for {@code topic}: its own headers, then {@code extra}, then where
     * it came from ({@code weir.source.*}). Shared by the dead-letter and late-records topics.
     *
     * @throws IllegalStateException if it is larger than {@code topic} accepts: the record would
     *     be lost (or poison the transaction), so the application must stop instead
     */
    static ProducerRecord<byte[], byte[]> copyWithSource(
            ConsumerRecord<byte[], byte[]> record,
            String topic,
            TopicLimits limits,
            String what,
            String limitSetting,
            Header... extra) {
        List<Header> headers = new ArrayList<>();
        for (Header h : record.headers()) {
            headers.add(h);
        }
        headers.addAll(List.of(extra));
        headers.add(header(SOURCE_TOPIC, record.topic()));
        headers.add(header(SOURCE_PARTITION, Integer.toString(record.partition())));
        headers.add(header(SOURCE_OFFSET, Long.toString(record.offset())));
        headers.add(header(SOURCE_TIMESTAMP, Long.toString(record.timestamp())));
        int size = TopicLimits.estimateSize(record.key(), record.value(), headers.toArray(new Header[0]));
        int limit = limits.limit(topic);
        if (size > limit) {
            throw new IllegalStateException("cannot write " + record.topic() + "-" + record.partition() + "@"
                    + record.offset() + " to the " + what + " topic '" + topic + "': about " + size
                    + " bytes exceed the " + limit + " bytes it accepts; raise its max.message.bytes (" + limitSetting
                    + ") and the producer's max.request.size. Stopping rather than losing the record.");
        }
        return new ProducerRecord<>(topic, null, record.timestamp(), record.key(), record.value(), headers);
    }

    public void requestCommit() {
        commitRequested = true;
    }

    /** True once after a replayed failure was dead-lettered: commit now to keep it done. */
    public boolean takeCommitRequest() {
        boolean r = commitRequested;
        commitRequested = false;
        return r;
    }

    /**
     * Hands over the records dead-lettered and skipped since the last call, per stage (only
     * non-zero counts), and resets them; for the meters.
     */
    public void drainCounts(Counts to) {
        for (Stage stage : Stage.values()) {
            long[] c = counts[stage.ordinal()];
            if (c[0] > 0) {
                to.add(stage, ErrorResponse.Action.DEAD_LETTER, c[0]);
            }
            if (c[1] > 0) {
                to.add(stage, ErrorResponse.Action.CONTINUE, c[1]);
            }
            c[0] = 0;
            c[1] = 0;
        }
    }

    static Header header(String key, String value) {
        return new RecordHeader(key, value.getBytes(StandardCharsets.UTF_8));
    }

    private static String truncate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + "...";
    }

    private static String stackTrace(Throwable t) {
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return w.toString();
    }
}
