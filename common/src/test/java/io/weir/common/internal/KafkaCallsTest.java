package io.weir.common.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.errors.ClusterException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.internals.KafkaFutureImpl;
import org.junit.jupiter.api.Test;

class KafkaCallsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Test
    void returnsTheValue() {
        assertThat(KafkaCalls.get(KafkaFuture.completedFuture("v"), TIMEOUT, "read v"))
                .isEqualTo("v");
        assertThat(KafkaCalls.get(CompletableFuture.completedFuture(1), TIMEOUT, "count"))
                .isEqualTo(1);
    }

    @Test
    void aBrokerErrorNamesTheOperationAndTheErrorAndIsTheCause() {
        KafkaFutureImpl<Void> f = new KafkaFutureImpl<>();
        TopicExistsException error = new TopicExistsException("Topic 'a' already exists.");
        f.completeExceptionally(error);
        assertThatThrownBy(() -> KafkaCalls.get(f, TIMEOUT, "create topic 'a'"))
                .isInstanceOf(ClusterException.class)
                .hasMessage("cannot create topic 'a': TopicExistsException: Topic 'a' already exists.")
                .hasCause(error);
    }

    @Test
    void anErrorWithoutAMessageIsNamedByItsClass() {
        KafkaFutureImpl<Void> f = new KafkaFutureImpl<>();
        f.completeExceptionally(new TopicAuthorizationException((String) null));
        assertThatThrownBy(() -> KafkaCalls.get(f, TIMEOUT, "describe topic t"))
                .hasMessage("cannot describe topic t: TopicAuthorizationException");
    }

    @Test
    void noAnswerInTimeNamesTheOperationAndTheTimeOut() {
        assertThatThrownBy(() -> KafkaCalls.get(new KafkaFutureImpl<>(), Duration.ofMillis(20), "list the topics"))
                .isInstanceOf(ClusterException.class)
                .hasMessage("cannot list the topics: no answer from the cluster within 20 ms")
                .hasCauseInstanceOf(TimeoutException.class);
        assertThatThrownBy(() -> KafkaCalls.get(new CompletableFuture<>(), Duration.ZERO, "list the topics"))
                .hasMessage("cannot list the topics: no answer from the cluster within 0 ms");
    }

    @Test
    void anInterruptedWaitKeepsTheInterruptFlag() {
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> KafkaCalls.get(new KafkaFutureImpl<>(), TIMEOUT, "list the topics"))
                    .isInstanceOf(ClusterException.class)
                    .hasMessage("interrupted while trying to list the topics")
                    .hasCauseInstanceOf(InterruptedException.class);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void getIfExistsIsEmptyWhenTheClusterSaysItDoesNotExist() {
        KafkaFutureImpl<Map<String, String>> missing = new KafkaFutureImpl<>();
        missing.completeExceptionally(new GroupIdNotFoundException("Group g not found."));
        assertThat(KafkaCalls.getIfExists(missing, TIMEOUT, "describe group g", GroupIdNotFoundException.class))
                .isEmpty();
        assertThat(KafkaCalls.getIfExists(
                        KafkaFuture.completedFuture(Map.of("g", "x")),
                        TIMEOUT,
                        "describe group g",
                        GroupIdNotFoundException.class))
                .contains(Map.of("g", "x"));
    }

    @Test
    void getIfExistsThrowsOtherErrors() {
        KafkaFutureImpl<String> refused = new KafkaFutureImpl<>();
        refused.completeExceptionally(new TopicAuthorizationException("denied"));
        assertThatThrownBy(() ->
                        KafkaCalls.getIfExists(refused, TIMEOUT, "describe group g", GroupIdNotFoundException.class))
                .isInstanceOf(ClusterException.class)
                .hasCauseInstanceOf(TopicAuthorizationException.class);
    }
}
