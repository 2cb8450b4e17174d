package io.weir.internal.task;

import io.weir.internal.commit.OpenTransaction;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Handles input records that arrive after their window closed (later than the operator's allowed
 * lateness): writes them, unchanged, to the late-records topic with headers naming the operator,
 * the window and the watermark, or counts and drops them ({@code late.records.mode=drop}). Never
 * silently: both modes count in {@code weir.records.late}.
 *
 * <p>Under exactly-once the late record is written in the transaction that commits its input
 * offset, so it appears exactly once. A record late for several windows (hopping windows) is
 * written once per window it missed.
 *
 * <p>One instance per stream thread; not thread-safe.
 */
public final class LateRecords {

    static final String OPERATOR = "weir.late.operator";
    static final String WINDOW_START = "weir.late.window.start";
    static final String WINDOW_END = "weir.late.window.end";
    static final String WATERMARK = "weir.late.watermark";

    private static final Logger log = LoggerFactory.getLogger(LateRecords.class);

    private final String topic;
    private final OpenTransaction transaction;
    private final TopicLimits limits;
    private long logged;
    private long count;

    /** @param topic the late-records topic, or null to count and drop */
    public LateRecords(String topic, OpenTransaction transaction, TopicLimits limits) {
        this.topic = topic;
        this.transaction = transaction;
        this.limits = limits;
    }

    /** Late records handled since the last call, for the metric (drained once they are committed). */
    public long drainCount() {
        long n = count;
        count = 0;
        return n;
    }

    void late(
            ConsumerRecord<byte[], byte[]> record, String operator, long windowStart, long windowEnd, long watermark) {
        count++;
        if (topic == null) {
            if (logged++ % 10_000 == 0) {
                log.info(
                        "dropping a record too late for window [{}, {}) of '{}' (watermark {}): {}-{}@{}"
                                + " (late.records.mode=drop; logged once per 10000)",
                        windowStart,
                        windowEnd,
                        operator,
                        watermark,
                        record.topic(),
                        record.partition(),
                        record.offset());
            }
            return;
        }
        transaction.send(DeadLetters.copyWithSource(
                record,
                topic,
                limits,
                "late-records",
                "dead.letter.max.message.bytes",
                DeadLetters.header(OPERATOR, operator),
                DeadLetters.header(WINDOW_START, Long.toString(windowStart)),
                DeadLetters.header(WINDOW_END, Long.toString(windowEnd)),
                DeadLetters.header(WATERMARK, Long.toString(watermark))));
    }
}
