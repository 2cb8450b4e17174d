package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.testkit.KafkaExtension;
import java.time.Duration;
import java.util.List;

/** The consumer group of an application that was closed, before a command that refuses a running one. */
final class GroupMembers {

    private GroupMembers() {}

    /**
     * Waits until {@code group} has no member: {@code weir reset} checks the group once, and the
     * coordinator may still list a member that left for a moment.
     */
    static void awaitNone(KafkaExtension kafka, String group) {
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(kafka.admin()
                                .describeConsumerGroups(List.of(group))
                                .all()
                                .get()
                                .get(group)
                                .members())
                        .as("members of " + group)
                        .isEmpty());
    }
}
