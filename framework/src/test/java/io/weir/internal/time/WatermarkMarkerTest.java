package io.weir.internal.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

class WatermarkMarkerTest {

    @Test
    void aMarkerReadsBackAsWritten() {
        WatermarkMarker m = new WatermarkMarker(3, 5, 8, 1_234_567L, true);
        assertThat(WatermarkMarker.from(record(null, null, m.encode()))).isEqualTo(m);
        WatermarkMarker none = new WatermarkMarker(0, 0, 1, Long.MIN_VALUE, false);
        assertThat(WatermarkMarker.from(record(null, null, none.encode()))).isEqualTo(none);
    }

    @Test
    void aDataRecordIsNeverAMarkerEvenWithTheHeader() {
        byte[] header = new WatermarkMarker(0, 0, 2, 10, false).encode();
        byte[] data = "v".getBytes(StandardCharsets.UTF_8);
        assertThat(WatermarkMarker.from(record(data, null, header))).isNull();
        assertThat(WatermarkMarker.from(record(null, data, header))).isNull();
        assertThat(WatermarkMarker.from(record(null, null, null))).isNull();
    }

    @Test
    void aMalformedHeaderIsNoMarker() {
        byte[] good = new WatermarkMarker(0, 1, 2, 10, false).encode();
        byte[] otherVersion = good.clone();
        otherVersion[0] = 2;
        byte[] shorter = java.util.Arrays.copyOf(good, good.length - 1);
        byte[] badFlag = good.clone();
        badFlag[good.length - 1] = 7;
        byte[] taskOutOfRange = new WatermarkMarker(0, 1, 2, 10, false).encode();
        taskOutOfRange[12] = 1; // tasks = 1, task = 1
        for (byte[] bad : new byte[][] {otherVersion, shorter, badFlag, taskOutOfRange, new byte[0]}) {
            assertThat(WatermarkMarker.from(record(null, null, bad))).isNull();
        }
    }

    @Test
    void aTaskOutsideItsCountIsRefused() {
        assertThatThrownBy(() -> new WatermarkMarker(0, 2, 2, 0, false)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new WatermarkMarker(0, -1, 2, 0, false)).isInstanceOf(IllegalArgumentException.class);
    }

    private static ConsumerRecord<byte[], byte[]> record(byte[] key, byte[] value, byte[] header) {
        RecordHeaders headers = new RecordHeaders();
        if (header != null) {
            headers.add(new RecordHeader(WatermarkMarker.HEADER, header));
        }
        return new ConsumerRecord<>(
                "app-x-repartition", 0, 0, 0, TimestampType.CREATE_TIME, 0, 0, key, value, headers, Optional.empty());
    }
}
