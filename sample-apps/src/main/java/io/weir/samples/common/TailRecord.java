package io.weir.samples.common;

/**
 * A record read by a {@link CommittedTail}: where it is and what it holds, deserialized.
 *
 * @param partition the partition of the topic
 * @param offset    its offset in the partition
 * @param key       the deserialized key ({@code null} if the record had none)
 * @param value     the deserialized value ({@code null} for a tombstone)
 */
public record TailRecord<K, V>(int partition, long offset, K key, V value) {
}
