package io.weir.serde.registry.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.errors.SerdeException;
import org.junit.jupiter.api.Test;

class WireFormatTest {

    @Test
    void headerIsTheMagicByteAndTheIdBigEndian() {
        WireFormat.ByteSink out = new WireFormat.ByteSink(8);
        WireFormat.writeHeader(out, 0x01020304);
        assertThat(out.toByteArray()).containsExactly(0, 1, 2, 3, 4);
        WireFormat.Frame f = WireFormat.read("t", out.toByteArray());
        assertThat(f.schemaId()).isEqualTo(0x01020304);
        assertThat(f.payloadOffset()).isEqualTo(5);
    }

    @Test
    void theFirstMessageOfAFileIsOneZeroByteAndOthersAZigZagList() {
        WireFormat.ByteSink first = new WireFormat.ByteSink(8);
        WireFormat.writeHeader(first, 7);
        WireFormat.writeMessageIndexes(first, new int[] {0});
        assertThat(first.toByteArray()).containsExactly(0, 0, 0, 0, 7, 0);
        assertThat(WireFormat.readProtobuf("t", first.toByteArray()).messageIndexes())
                .containsExactly(0);

        WireFormat.ByteSink nested = new WireFormat.ByteSink(8);
        WireFormat.writeHeader(nested, 7);
        WireFormat.writeMessageIndexes(nested, new int[] {1, 2});
        // count 2, then 1 and 2, each zig-zag: 4, 2, 4
        assertThat(nested.toByteArray()).containsExactly(0, 0, 0, 0, 7, 4, 2, 4);
        WireFormat.Frame f = WireFormat.readProtobuf("t", nested.toByteArray());
        assertThat(f.messageIndexes()).containsExactly(1, 2);
        assertThat(f.payloadOffset()).isEqualTo(8);
    }

    @Test
    void bytesNotInTheWireFormatAreRefusedWithTheReason() {
        assertThatThrownBy(() -> WireFormat.read("orders", new byte[] {1, 0, 0, 0, 1, 9}))
                .isInstanceOf(SerdeException.class)
                .hasMessageContaining("orders")
                .hasMessageContaining("first byte 1, expected the magic byte 0");
        assertThatThrownBy(() -> WireFormat.read("orders", new byte[] {0, 0}))
                .isInstanceOf(SerdeException.class)
                .hasMessageContaining("too short");
        assertThatThrownBy(() -> WireFormat.readProtobuf("orders", new byte[] {0, 0, 0, 0, 1, (byte) 0x80}))
                .isInstanceOf(SerdeException.class)
                .hasMessageContaining("ends inside its Protobuf message path");
    }
}
