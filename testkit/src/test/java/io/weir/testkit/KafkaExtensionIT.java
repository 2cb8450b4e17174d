package io.weir.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.common.KeyValue;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.TopicDescription;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class KafkaExtensionIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    @RegisterExtension
    static final KafkaExtension SHARED_AGAIN = KafkaExtension.sharedPerRun();

    @Test
    void uniqueTopicsNeverCollideAndHaveTheirPartitions() throws Exception {
        String first = KAFKA.uniqueTopic("orders", 3);
        String second = KAFKA.uniqueTopic("orders", 1);

        assertThat(first).startsWith("orders-").isNotEqualTo(second);
        Map<String, TopicDescription> described = KAFKA.admin()
                .describeTopics(List.of(first, second))
                .allTopicNames()
                .get();
        assertThat(described.get(first).partitions()).hasSize(3);
        assertThat(described.get(second).partitions()).hasSize(1);
    }

    @Test
    void createsTopicsWithConfigsAndServesThem() throws Exception {
        KAFKA.createTopic("compacted-" + System.nanoTime(), 1, Map.of("cleanup.policy", "compact"));
        String topic = KAFKA.uniqueTopic("words", 2);
        KAFKA.client().produceStrings(topic, List.of(KeyValue.of("a", "1"), KeyValue.of("b", "2")));
        assertThat(KAFKA.client().readStringsAtLeast(topic, 2, Duration.ofSeconds(30)))
                .hasSize(2);
    }

    @Test
    void sharedPerRunExtensionsUseOneCluster() {
        assertThat(SHARED_AGAIN).isNotSameAs(KAFKA);
        assertThat(SHARED_AGAIN.bootstrapServers()).isEqualTo(KAFKA.bootstrapServers());
        assertThat(SHARED_AGAIN.cluster()).isSameAs(KAFKA.cluster());
    }

    @Nested
    class NestedTests {
        @Test
        void nestedClassesUseTheEnclosingClassCluster() {
            assertThat(KAFKA.bootstrapServers()).isNotBlank();
            assertThat(KAFKA.uniqueTopic("nested", 1)).startsWith("nested-");
        }
    }
}
