package io.weir.internal.time;

import java.nio.ByteBuffer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * One upstream task's watermark, written into every partition of a repartition topic it writes
 * to, so that the tasks reading those partitions can take the smallest watermark over the tasks
 * that feed them (see {@link UpstreamWatermarks}). A marker is a record without key or value whose
 * header {@value #HEADER} holds this value; the readers take it out of the stream, so no processor,
 * dead-letter topic or count ever sees it.
 *
 * @param subtopology the writing task's sub-topology
 * @param task        the writing task's partition number
 * @param tasks       how many tasks write to the topic: a reader waits to have heard from all of them
 * @param watermark   the writing task's watermark ({@code Long.MIN_VALUE} if it has none yet)
 * @param idle        every input of the writing task is idle: its watermark holds no reader back
 */
public record WatermarkMarker(int subtopology, int task, int tasks, long watermark, boolean idle) {

    public static final String HEADER = "weir.watermark";
    private static final byte VERSION = 1;
    private static final int SIZE = 1 + 3 * Integer.BYTES + Long.BYTES + 1;

    public WatermarkMarker {
        if (task < 0 || tasks <= task) {
            throw new IllegalArgumentException("task " + task + " of " + tasks);
        }
    }

    byte[] encode() {
        return ByteBuffer.allocate(SIZE)
                .put(VERSION)
                .putInt(subtopology)
                .putInt(task)
                .putInt(tasks)
                .putLong(watermark)
                .put((byte) (idle ? 1 : 0))
                .array();
    }

    /**
     * The marker {@code record} carries, or null if it is a data record. A record is a marker only
     * if it has neither key nor value and a well-formed header, so a user's header of the same
     * name on a data record does not hide the record.
     */
    public static WatermarkMarker from(ConsumerRecord<byte[], byte[]> record) {
        if (record.key() != null || record.value() != null) {
            return null;
        }
        Header h = record.headers().lastHeader(HEADER);
        if (h == null || h.value() == null || h.value().length != SIZE || h.value()[0] != VERSION) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(h.value(), 1, SIZE - 1);
        int subtopology = b.getInt();
        int task = b.getInt();
        int tasks = b.getInt();
        long watermark = b.getLong();
        byte idle = b.get();
        if (task < 0 || tasks <= task || (idle != 0 && idle != 1)) {
            return null;
        }
        return new WatermarkMarker(subtopology, task, tasks, watermark, idle == 1);
    }
}
