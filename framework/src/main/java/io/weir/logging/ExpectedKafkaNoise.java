package io.weir.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.slf4j.Marker;

/**
 * Drops the two log lines that Kafka 4's transactions (KIP-890, "transactions v2") produce on a
 * healthy exactly-once application, which read like failures but are retried by design:
 *
 * <ul>
 *   <li>the producer's WARN "Got error produce response ... retrying ... Error:
 *       CONCURRENT_TRANSACTIONS" (or {@code OUT_OF_ORDER_SEQUENCE_NUMBER}): a transaction begun
 *       right after a commit sends to a partition whose commit markers are still being written;
 *       the broker asks the producer to retry, and it does;</li>
 *   <li>the broker's ERROR "Error processing append operation ... OutOfOrderSequenceException ...
 *       for transactions v2 idempotent producer with no existing state": a second in-flight batch
 *       of the same transaction arrived before the retried first one; the broker rejects it as
 *       retriable (KAFKA-18202) and the producer sends it again in order. Only an in-process broker
 *       (samples, tests) logs through the application's logback.</li>
 * </ul>
 *
 * <p>Nothing else is touched: a retry that does not succeed surfaces as a failed commit, which
 * Weir handles and reports itself (and its stall warning names a cause that lasts). Public so that
 * a user's {@code logback.xml} can install it: {@code <turboFilter class="io.weir.logging.ExpectedKafkaNoise"/>}.
 * Thread-safe and stateless.
 */
public final class ExpectedKafkaNoise extends TurboFilter {

    private static final String SENDER = "org.apache.kafka.clients.producer.internals.Sender";
    private static final String REPLICA_MANAGER = "kafka.server.ReplicaManager";

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
        if (level == null || level.levelInt < Level.WARN_INT || format == null) {
            return FilterReply.NEUTRAL;
        }
        String name = logger.getName();
        if (name.equals(SENDER) && level == Level.WARN && isRetriedTransactionRace(format, params)) {
            return FilterReply.DENY;
        }
        if (name.equals(REPLICA_MANAGER) && isTransactionsV2SequenceRace(t, params)) {
            return FilterReply.DENY;
        }
        return FilterReply.NEUTRAL;
    }

    private static boolean isRetriedTransactionRace(String format, Object[] params) {
        String text = withParams(format, params);
        return text.contains("retrying")
                && (text.contains("CONCURRENT_TRANSACTIONS") || text.contains("OUT_OF_ORDER_SEQUENCE_NUMBER"));
    }

    private static boolean isTransactionsV2SequenceRace(Throwable t, Object[] params) {
        Throwable error = t;
        if (error == null
                && params != null
                && params.length > 0
                && params[params.length - 1] instanceof Throwable last) {
            error = last;
        }
        return error != null
                && error.getClass().getSimpleName().equals("OutOfOrderSequenceException")
                && String.valueOf(error.getMessage())
                        .contains("transactions v2 idempotent producer with no existing state");
    }

    /** The format and its arguments, whether the client formatted the message itself or not. */
    private static String withParams(String format, Object[] params) {
        if (params == null || params.length == 0) {
            return format;
        }
        StringBuilder sb = new StringBuilder(format);
        for (Object p : params) {
            sb.append(' ').append(p);
        }
        return sb.toString();
    }
}
