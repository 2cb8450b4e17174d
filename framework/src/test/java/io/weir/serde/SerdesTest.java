package io.weir.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.errors.SerdeException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.UUIDSerializer;
import org.junit.jupiter.api.Test;

class SerdesTest {

    record Point(String name, double x, int y) {}

    @Test
    void primitivesRoundTripAndMatchKafkasEncodings() {
        assertThat(Serdes.longs().deserialize("t", new LongSerializer().serialize("t", 42L)))
                .isEqualTo(42L);
        assertThat(Serdes.integers().deserialize("t", Serdes.integers().serialize("t", -7)))
                .isEqualTo(-7);
        assertThat(Serdes.doubles().deserialize("t", Serdes.doubles().serialize("t", 2.5)))
                .isEqualTo(2.5);
        assertThat(Serdes.strings().deserialize("t", "héllo".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("héllo");
        UUID id = UUID.randomUUID();
        assertThat(Serdes.uuids().deserialize("t", new UUIDSerializer().serialize("t", id)))
                .isEqualTo(id);
        assertThat(Serdes.bytes().serialize("t", new byte[] {1, 2})).containsExactly(1, 2);
    }

    @Test
    void nullStaysNull() {
        assertThat(Serdes.strings().serialize("t", null)).isNull();
        assertThat(Serdes.longs().deserialize("t", null)).isNull();
        assertThat(Serdes.json(Point.class).deserialize("t", null)).isNull();
    }

    @Test
    void wrongLengthsAreErrors() {
        assertThatThrownBy(() -> Serdes.longs().deserialize("t", new byte[3]))
                .isInstanceOf(SerdeException.class)
                .hasMessageContaining("8 bytes, got 3");
        assertThatThrownBy(() -> Serdes.uuids().deserialize("t", "nope".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SerdeException.class)
                .hasMessageContaining("not a UUID");
    }

    @Test
    void jsonRoundTripsJavaRecordsAndGenerics() {
        Serde<Point> serde = Serdes.json(Point.class);
        Point p = new Point("a", 1.5, 3);
        assertThat(serde.deserialize("t", serde.serialize("t", p))).isEqualTo(p);
        Serde<List<Point>> list = Serdes.json(new com.fasterxml.jackson.core.type.TypeReference<List<Point>>() {});
        assertThat(list.deserialize("t", list.serialize("t", List.of(p, p)))).containsExactly(p, p);
    }

    @Test
    void jsonIsStrict() {
        Serde<Point> serde = Serdes.json(Point.class);
        assertThatThrownBy(() -> serde.deserialize("t", "{\"name\":\"a\",\"x\":".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SerdeException.class)
                .hasMessageContaining("invalid JSON");
        assertThatThrownBy(() -> serde.deserialize(
                        "t", "{\"name\":\"a\",\"x\":\"far\",\"y\":1}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SerdeException.class);
        assertThatThrownBy(() ->
                        serde.deserialize("t", "{\"name\":\"a\",\"x\":null,\"y\":1}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SerdeException.class);
        assertThatThrownBy(() -> serde.deserialize("t", new byte[0]))
                .isInstanceOf(SerdeException.class)
                .hasMessageContaining("empty value");
        assertThatThrownBy(() -> serde.deserialize(
                        "t", "{\"name\":\"a\",\"x\":1,\"y\":1} trailing".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SerdeException.class);
        assertThatThrownBy(() -> serde.deserialize("t", "null".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SerdeException.class)
                .hasMessageContaining("JSON null");
    }

    @Test
    void windowedKeysRoundTripAsStartEndAndInnerKey() {
        Serde<io.weir.state.Windowed<String>> serde = Serdes.windowed(Serdes.strings());
        io.weir.state.Windowed<String> w = new io.weir.state.Windowed<>("user-1", -60_000L, 0L);
        byte[] bytes = serde.serialize("t", w);
        assertThat(bytes).hasSize(16 + 6);
        assertThat(java.util.Arrays.copyOfRange(bytes, 0, 8))
                .isEqualTo(Serdes.longs().serialize("t", -60_000L));
        assertThat(java.util.Arrays.copyOfRange(bytes, 8, 16))
                .isEqualTo(Serdes.longs().serialize("t", 0L));
        assertThat(serde.deserialize("t", bytes)).isEqualTo(w);
        assertThat(serde.deserialize("t", serde.serialize("t", new io.weir.state.Windowed<>("", 5, 5))))
                .isEqualTo(new io.weir.state.Windowed<>("", 5, 5));
        assertThat(serde.serialize("t", null)).isNull();
        assertThat(serde.deserialize("t", null)).isNull();
    }

    @Test
    void malformedWindowedKeysAreErrors() {
        Serde<io.weir.state.Windowed<Long>> serde = Serdes.windowed(Serdes.longs());
        assertThatThrownBy(() -> serde.deserialize("t", new byte[15]))
                .isInstanceOf(SerdeException.class)
                .hasMessageContaining("at least 16 bytes")
                .hasMessageContaining("15");
        byte[] endBeforeStart = java.nio.ByteBuffer.allocate(24)
                .putLong(10)
                .putLong(9)
                .putLong(1)
                .array();
        assertThatThrownBy(() -> serde.deserialize("t", endBeforeStart))
                .isInstanceOf(SerdeException.class)
                .hasMessageContaining("before it starts");
        byte[] shortInner =
                java.nio.ByteBuffer.allocate(19).putLong(1).putLong(2).array();
        assertThatThrownBy(() -> serde.deserialize("t", shortInner)).isInstanceOf(SerdeException.class);
        assertThatThrownBy(() -> new io.weir.state.Windowed<>("k", 2, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
