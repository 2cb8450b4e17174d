package io.weir.internal.savepoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

class ChunksTest {

    @Test
    void entriesComeBackInOrderAcrossChunksWithTheSameChecksum() {
        List<byte[]> out = new ArrayList<>();
        Chunks chunks = new Chunks(100, (seq, bytes) -> {
            assertThat(seq).isEqualTo(out.size());
            out.add(bytes);
        });
        for (int i = 0; i < 50; i++) {
            chunks.add(("key-" + i).getBytes(StandardCharsets.UTF_8), ("value-" + i).getBytes(StandardCharsets.UTF_8));
        }
        chunks.finish();
        assertThat(chunks.chunks()).isEqualTo(out.size()).isGreaterThan(5);
        assertThat(chunks.records()).isEqualTo(50);

        CRC32 crc = new CRC32();
        List<String> read = new ArrayList<>();
        int n = 0;
        for (byte[] chunk : out) {
            n += Chunks.read(
                    chunk,
                    crc,
                    (k, v) -> read.add(
                            new String(k, StandardCharsets.UTF_8) + "=" + new String(v, StandardCharsets.UTF_8)));
        }
        assertThat(n).isEqualTo(50);
        assertThat(read.get(0)).isEqualTo("key-0=value-0");
        assertThat(read.get(49)).isEqualTo("key-49=value-49");
        assertThat(crc.getValue()).isEqualTo(chunks.crc32());
    }

    @Test
    void anEmptyStoreIsOneEmptyChunk() {
        List<byte[]> out = new ArrayList<>();
        Chunks chunks = new Chunks(1000, (seq, bytes) -> out.add(bytes));
        chunks.finish();
        assertThat(out).hasSize(1);
        assertThat(Chunks.read(out.get(0), new CRC32(), (k, v) -> {})).isZero();
    }

    @Test
    void aChangedByteChangesTheChecksum() {
        List<byte[]> out = new ArrayList<>();
        Chunks chunks = new Chunks(1000, (seq, bytes) -> out.add(bytes));
        chunks.add(new byte[] {1, 2}, new byte[] {3});
        chunks.finish();
        out.get(0)[out.get(0).length - 1] = 4;
        CRC32 crc = new CRC32();
        Chunks.read(out.get(0), crc, (k, v) -> {});
        assertThat(crc.getValue()).isNotEqualTo(chunks.crc32());
    }

    @Test
    void somethingElseIsNotReadAsAChunk() {
        assertThatThrownBy(() -> Chunks.read(new byte[] {9, 0, 0}, new CRC32(), (k, v) -> {}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a savepoint data chunk");
    }
}
