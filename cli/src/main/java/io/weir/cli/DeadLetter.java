package io.weir.cli;

import io.weir.internal.task.DeadLetters;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * A record of a dead-letter topic, read through the headers Weir wrote on it ({@code weir.error.*},
 * {@code weir.source.*}) and those a resend adds ({@code weir.resent.*}). The last header of a key
 * wins: Weir writes its own after the input's and the error handler's.
 */
record DeadLetter(ConsumerRecord<byte[], byte[]> record) {

    /** Where a resent record came from: {@code <dead-letter topic>/<partition>/<offset>}. */
    static final String RESENT_FROM = "weir.resent.from";
    /** How many times the record was resent from a dead-letter topic. */
    static final String RESENT_COUNT = "weir.resent.count";

    /** The topic the record failed on; null if it is not a Weir dead letter. */
    String sourceTopic() {
        return header(DeadLetters.SOURCE_TOPIC);
    }

    /** The partition it was read from; -1 if unknown. */
    int sourcePartition() {
        String p = header(DeadLetters.SOURCE_PARTITION);
        return p == null ? -1 : Integer.parseInt(p);
    }

    String sourceOffset() {
        return orDash(header(DeadLetters.SOURCE_OFFSET));
    }

    String stage() {
        return orDash(header(DeadLetters.ERROR_STAGE));
    }

    String errorClass() {
        return orDash(header(DeadLetters.ERROR_CLASS));
    }

    String errorMessage() {
        return orDash(header(DeadLetters.ERROR_MESSAGE));
    }

    /** How many times this record had been resent before it failed again and came back here. */
    int resentCount() {
        String n = header(RESENT_COUNT);
        try {
            return n == null ? 0 : Integer.parseInt(n);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** {@code <topic>/<partition>/<offset>} of this dead letter. */
    String position() {
        return record.topic() + "/" + record.partition() + "/" + record.offset();
    }

    /** True for headers the resend replaces: Weir's error, source and resend headers. */
    static boolean weirs(Header h) {
        return h.key().startsWith("weir.error.")
                || h.key().startsWith("weir.source.")
                || h.key().startsWith("weir.resent.");
    }

    /** The last value of {@code key} as UTF-8, or null. */
    String header(String key) {
        Header h = record.headers().lastHeader(key);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private static String orDash(String s) {
        return s == null ? "-" : s;
    }
}
