package io.weir.internal.operator.join;

import io.weir.errors.SerdeException;
import io.weir.serde.Serde;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * What a foreign-key join's left side sends to the right table's partition of a foreign key: the
 * left row {@code leftKey} now refers to it, with the digest of the row's value
 * ({@link ValueHash}), and wants the right row back; or no longer refers to it
 * ({@code unsubscribe}, no digest).
 */
public record FkSubscription<K>(K leftKey, byte[] hash, boolean unsubscribe) {

    static <K> FkSubscription<K> subscribe(K leftKey, byte[] hash) {
        return new FkSubscription<>(leftKey, hash, false);
    }

    static <K> FkSubscription<K> unsubscribe(K leftKey) {
        return new FkSubscription<>(leftKey, null, true);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FkSubscription<?> s
                && s.leftKey.equals(leftKey)
                && Arrays.equals(s.hash, hash)
                && s.unsubscribe == unsubscribe;
    }

    @Override
    public int hashCode() {
        return leftKey.hashCode() * 31 + Arrays.hashCode(hash);
    }

    /**
     * In the subscription topic: a kind byte (0: subscribe, 1: unsubscribe), the digest
     * ({@value ValueHash#LENGTH} bytes) for a subscription, then the left key in its serde's format.
     */
    public static final class FkSubscriptionSerde<K> implements Serde<FkSubscription<K>> {

        private static final byte SUBSCRIBE = 0;
        private static final byte UNSUBSCRIBE = 1;

        private final Serde<K> keys;

        public FkSubscriptionSerde(Serde<K> keys) {
            this.keys = keys;
        }

        @Override
        public byte[] serialize(String topic, FkSubscription<K> s) {
            if (s == null) {
                return null;
            }
            byte[] key = keys.serialize(topic, s.leftKey());
            ByteBuffer b = ByteBuffer.allocate(1 + (s.unsubscribe() ? 0 : ValueHash.LENGTH) + key.length);
            b.put(s.unsubscribe() ? UNSUBSCRIBE : SUBSCRIBE);
            if (!s.unsubscribe()) {
                b.put(s.hash());
            }
            return b.put(key).array();
        }

        @Override
        public FkSubscription<K> deserialize(String topic, byte[] bytes) {
            if (bytes == null) {
                return null;
            }
            int header = bytes.length == 0
                    ? -1
                    : bytes[0] == SUBSCRIBE ? 1 + ValueHash.LENGTH : bytes[0] == UNSUBSCRIBE ? 1 : -1;
            if (header < 0 || bytes.length < header) {
                throw new SerdeException("not a foreign-key subscription in topic " + topic + ": " + bytes.length
                        + " bytes" + (bytes.length == 0 ? "" : ", kind " + bytes[0]));
            }
            K key = keys.deserialize(topic, Arrays.copyOfRange(bytes, header, bytes.length));
            return header == 1 ? unsubscribe(key) : subscribe(key, Arrays.copyOfRange(bytes, 1, header));
        }

        @Override
        public String formatId() {
            return "fk-subscription(" + keys.formatId() + ")";
        }
    }
}
