package io.weir.internal.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.internal.query.KeyText.Encoding;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class KeyTextTest {

    record Customer(String region, int id) {}

    @Test
    void theBuiltInSerdesKeysAreGivenInTheirTextForm() {
        assertThat(KeyText.bytes(Serdes.strings(), "user/7 x", Encoding.TEXT))
                .isEqualTo("user/7 x".getBytes(StandardCharsets.UTF_8));
        assertThat(KeyText.bytes(Serdes.longs(), "-42", Encoding.TEXT))
                .isEqualTo(Serdes.longs().serialize("t", -42L));
        assertThat(KeyText.bytes(Serdes.integers(), "7", Encoding.TEXT))
                .isEqualTo(Serdes.integers().serialize("t", 7));
        assertThat(KeyText.bytes(Serdes.doubles(), "1.5", Encoding.TEXT))
                .isEqualTo(Serdes.doubles().serialize("t", 1.5));
        UUID id = UUID.randomUUID();
        assertThat(KeyText.bytes(Serdes.uuids(), id.toString(), Encoding.TEXT))
                .isEqualTo(Serdes.uuids().serialize("t", id));
    }

    @Test
    void aJsonKeyIsReadAndWrittenAgainSoSpacingAndOrderDoNotMatter() {
        Serde<Customer> serde = Serdes.json(Customer.class);
        byte[] canonical = serde.serialize("t", new Customer("eu", 7));
        assertThat(KeyText.bytes(serde, "{ \"id\": 7, \"region\": \"eu\" }", Encoding.TEXT))
                .isEqualTo(canonical);
        assertThatThrownBy(() -> KeyText.bytes(serde, "eu-7", Encoding.TEXT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'eu-7' is not a key")
                .hasMessageContaining("JSON, given as JSON text");
    }

    @Test
    void malformedKeysSayWhatTheStoreExpects() {
        assertThatThrownBy(() -> KeyText.bytes(Serdes.longs(), "seven", Encoding.TEXT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("longs, given in decimal");
        assertThatThrownBy(() -> KeyText.bytes(Serdes.uuids(), "not-a-uuid", Encoding.TEXT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("UUIDs");
        assertThatThrownBy(() -> KeyText.bytes(Serdes.strings(), "%%", Encoding.BASE64))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not base64url");
        assertThatThrownBy(() -> Encoding.parse("hex")).hasMessageContaining("keyEncoding must be text or base64");
    }

    @Test
    void anyKeyMayBeGivenAsItsSerializedBytesAndOtherSerdesOnlySo() {
        byte[] raw = {0, 1, (byte) 0xff, 42};
        String b64 = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        assertThat(KeyText.bytes(Serdes.bytes(), b64, Encoding.TEXT)).isEqualTo(raw);
        assertThat(KeyText.bytes(Serdes.strings(), b64, Encoding.BASE64)).isEqualTo(raw);
        Serde<String> custom = Serdes.from(
                (t, v) -> v.getBytes(StandardCharsets.UTF_8), (t, b) -> new String(b, StandardCharsets.UTF_8));
        assertThat(KeyText.bytes(custom, b64, Encoding.TEXT)).isEqualTo(raw);
    }

    @Test
    void valuesBecomeJsonByTheirSerde() {
        assertThat(ValueJson.of(Serdes.longs(), 5L).asLong()).isEqualTo(5L);
        assertThat(ValueJson.of(Serdes.strings(), "x").asText()).isEqualTo("x");
        assertThat(ValueJson.of(Serdes.json(Customer.class), new Customer("eu", 7))
                        .get("region")
                        .asText())
                .isEqualTo("eu");
        assertThat(ValueJson.of(Serdes.json(Map.class), null).isNull()).isTrue();
        assertThat(ValueJson.of(Serdes.bytes(), new byte[] {1, 2}).asText()).isEqualTo("AQI");
    }
}
