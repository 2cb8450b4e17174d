package io.weir.sink.internal;

import org.apache.kafka.common.KafkaException;

/**
 * A commit or a send failed in a way that does not fence this thread (a timeout, a broker error,
 * an abortable transaction error). The transaction has been aborted and the units told; the
 * caller rewinds its inputs and goes on.
 */
public final class CommitAbortedException extends KafkaException {

    public CommitAbortedException(String message, Throwable cause) {
        super(message, cause);
    }
}
