package io.weir.internal.operator.join;

import io.weir.serde.Serde;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * A digest of a table row's serialized value, which a foreign-key join's subscription carries to
 * the other table and its responses carry back: a response whose digest is not that of the row's
 * current value answers an earlier version of the row and is dropped (Kafka Streams uses a 128-bit
 * murmur3 hash the same way). The first 16 bytes of SHA-256, so that two different values giving
 * the same digest is not a case to reason about. One instance per processor: not thread-safe.
 */
final class ValueHash<V> {

    /** The length of a digest in bytes. */
    static final int LENGTH = 16;

    private final Serde<V> serde;
    private final String topic;
    private final MessageDigest digest;

    /** Digests values serialized by {@code serde} as for {@code topic}. */
    ValueHash(Serde<V> serde, String topic) {
        this.serde = serde;
        this.topic = topic;
        try {
            this.digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** The digest of {@code value}, which is not null. */
    byte[] of(V value) {
        return Arrays.copyOf(digest.digest(serde.serialize(topic, value)), LENGTH);
    }
}
