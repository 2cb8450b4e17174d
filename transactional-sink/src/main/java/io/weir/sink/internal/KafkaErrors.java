package io.weir.sink.internal;

import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.IllegalGenerationException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.UnknownMemberIdException;
import org.apache.kafka.common.errors.UnknownProducerIdException;
import org.apache.kafka.common.errors.UnsupportedVersionException;

/** Sorts client exceptions into the three reactions the runtime has. */
final class KafkaErrors {

    enum Reaction {
        /** Abort the transaction, rewind, go on. */
        ABORT,
        /** Close the tasks, replace the producer if fenced, rejoin. */
        MIGRATED,
        /** Nothing sensible can follow: stop the thread with this error. */
        FATAL
    }

    private KafkaErrors() {}

    static Reaction classify(Throwable e) {
        Throwable t = unwrap(e);
        if (t instanceof FencedInstanceIdException
                || t instanceof AuthorizationException
                || t instanceof AuthenticationException
                || t instanceof UnsupportedVersionException) {
            return Reaction.FATAL;
        }
        if (producerFenced(t)
                || t instanceof CommitFailedException
                || t instanceof RebalanceInProgressException
                || t instanceof UnknownMemberIdException
                || t instanceof IllegalGenerationException) {
            return Reaction.MIGRATED;
        }
        return Reaction.ABORT;
    }

    /** Errors after which the producer can no longer be used, only closed. */
    static boolean producerFenced(Throwable e) {
        Throwable t = unwrap(e);
        return t instanceof ProducerFencedException
                || t instanceof InvalidProducerEpochException
                || t instanceof UnknownProducerIdException
                || t instanceof OutOfOrderSequenceException;
    }

    private static Throwable unwrap(Throwable e) {
        Throwable t = e;
        // The producer reports fencing found by a send callback as a KafkaException whose cause
        // is the real error; look one level down.
        if (t.getClass() == org.apache.kafka.common.KafkaException.class && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
