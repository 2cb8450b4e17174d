package io.weir.internal.time;

/**
 * Where a {@link WatermarkBroadcast} writes its markers: the task's output, in its transaction
 * with the records (the task's {@code OutputCollector}).
 */
public interface MarkerSink {

    /** The number of partitions of {@code topic}. */
    int partitions(String topic);

    /** Writes a control record to one partition: no key, no value, one header ({@code header}, {@code value}). */
    void sendMarker(String topic, int partition, String header, byte[] value);
}
