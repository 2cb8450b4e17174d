package io.weir.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.common.KeyValue;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PerClassKafkaExtensionIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.perClass();

    @Test
    void perClassClusterServesTopics() {
        String topic = KAFKA.uniqueTopic("per-class", 1);
        KAFKA.client().produceStrings(topic, List.of(KeyValue.of("k", "v")));
        assertThat(KAFKA.client().readStringsAtLeast(topic, 1, Duration.ofSeconds(30)))
                .singleElement()
                .satisfies(r -> assertThat(r.value()).isEqualTo("v"));
    }
}
