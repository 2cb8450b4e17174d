package io.weir.internal.operator.join;

import io.weir.errors.SerdeException;
import io.weir.serde.Serde;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The key of a foreign-key join's subscription store: a foreign key and a left row that refers to
 * it. Serialized as the foreign key's length (4 bytes, big-endian), its bytes, then the left key's
 * bytes, so that the subscribers of one foreign key are the keys with the prefix
 * {@link FkSubscriptionKeySerde#prefix} (the length keeps a foreign key that begins with another's
 * bytes out of its range).
 */
public record FkSubscriptionKey<KO, K>(KO foreignKey, K leftKey) {

    public static final class FkSubscriptionKeySerde<KO, K> implements Serde<FkSubscriptionKey<KO, K>> {

        private final Serde<KO> foreignKeys;
        private final Serde<K> leftKeys;

        public FkSubscriptionKeySerde(Serde<KO> foreignKeys, Serde<K> leftKeys) {
            this.foreignKeys = foreignKeys;
            this.leftKeys = leftKeys;
        }

        /** The bytes every key of {@code foreignKey}'s subscribers starts with. */
        byte[] prefix(String topic, KO foreignKey) {
            byte[] fk = foreignKeys.serialize(topic, foreignKey);
            return ByteBuffer.allocate(4 + fk.length).putInt(fk.length).put(fk).array();
        }

        @Override
        public byte[] serialize(String topic, FkSubscriptionKey<KO, K> key) {
            if (key == null) {
                return null;
            }
            byte[] prefix = prefix(topic, key.foreignKey());
            byte[] left = leftKeys.serialize(topic, key.leftKey());
            return ByteBuffer.allocate(prefix.length + left.length)
                    .put(prefix)
                    .put(left)
                    .array();
        }

        @Override
        public FkSubscriptionKey<KO, K> deserialize(String topic, byte[] bytes) {
            if (bytes == null) {
                return null;
            }
            int length = bytes.length < 4 ? -1 : ByteBuffer.wrap(bytes).getInt();
            if (length < 0 || length > bytes.length - 4) {
                throw new SerdeException("not a foreign-key subscription key in " + topic + ": " + bytes.length
                        + " bytes, foreign key of " + length);
            }
            return new FkSubscriptionKey<>(
                    foreignKeys.deserialize(topic, Arrays.copyOfRange(bytes, 4, 4 + length)),
                    leftKeys.deserialize(topic, Arrays.copyOfRange(bytes, 4 + length, bytes.length)));
        }

        @Override
        public String formatId() {
            return "fk-subscription-key(" + foreignKeys.formatId() + "," + leftKeys.formatId() + ")";
        }
    }
}
