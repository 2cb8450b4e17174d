package io.weir.internal.savepoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ControlCodecTest {

    @Test
    void everyMessageRoundTrips() {
        List<ControlMessage> messages = List.of(
                new ControlMessage.Request("sp-1", true, 60_000, 123),
                new ControlMessage.Paused("sp-1", "1_2", "a", 12, Map.of("in-0", new ControlMessage.Offset(5, "wm"))),
                new ControlMessage.Done(
                        "sp-1",
                        "1_2",
                        "a",
                        Map.of("in-0", new ControlMessage.Offset(5, null)),
                        List.of(new ControlMessage.StoreCopy("counts", "key_value", "k", "v", 3, 30, 77, 1, 10, 10))),
                new ControlMessage.Aborted("sp-1", "a: tasks moved"),
                new ControlMessage.Completed("sp-1"));
        for (ControlMessage m : messages) {
            assertThat(ControlCodec.decode(ControlCodec.encode(m))).isEqualTo(m);
        }
    }

    @Test
    void anUnknownTypeOrGarbageDecodesToNothing() {
        assertThat(ControlCodec.decode("{\"type\":\"future\",\"id\":\"x\"}".getBytes(StandardCharsets.UTF_8)))
                .isNull();
        assertThat(ControlCodec.decode("not json".getBytes(StandardCharsets.UTF_8)))
                .isNull();
        assertThat(ControlCodec.decode(null)).isNull();
    }

    @Test
    void aManifestRoundTrips() {
        Manifest m = new Manifest(
                "sp-1",
                "app",
                5,
                false,
                "0.1.0",
                null,
                List.of(new Manifest.TaskEntry(
                        "0_0",
                        Map.of("in-0", new ControlMessage.Offset(9, "m")),
                        List.of(new ControlMessage.StoreCopy("s", "window", "k", "v", 2, 20, 1, 1, 0, 0)))));
        Manifest back = Manifest.decode(m.encode());
        assertThat(back).isEqualTo(m);
        assertThat(back.records()).isEqualTo(2);
        assertThat(back.bytes()).isEqualTo(20);
    }
}
