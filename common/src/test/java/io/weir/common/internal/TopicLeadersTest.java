package io.weir.common.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.errors.ClusterException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsResult;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.internals.KafkaFutureImpl;
import org.junit.jupiter.api.Test;

class TopicLeadersTest {

    private static final Node BROKER = new Node(1, "localhost", 9092);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** An admin client that answers describeTopics and listOffsets from scripts, the last answer repeating. */
    private static final class ScriptedAdmin {
        final Deque<Supplier<KafkaFuture<TopicDescription>>> describes = new ArrayDeque<>();
        final Deque<Supplier<KafkaFuture<ListOffsetsResultInfo>>> listings = new ArrayDeque<>();
        int listed;

        Admin admin() {
            return (Admin) Proxy.newProxyInstance(
                    Admin.class.getClassLoader(),
                    new Class<?>[] {Admin.class},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "describeTopics" -> describe((Collection<?>) args[0]);
                        case "listOffsets" -> list(cast(args[0]));
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
        }

        @SuppressWarnings("unchecked")
        private static Map<TopicPartition, OffsetSpec> cast(Object o) {
            return (Map<TopicPartition, OffsetSpec>) o;
        }

        private DescribeTopicsResult describe(Collection<?> topics) {
            Map<String, KafkaFuture<TopicDescription>> futures = new HashMap<>();
            for (Object t : topics) {
                futures.put((String) t, next(describes).get());
            }
            return new DescribeTopicsResult(null, futures) {};
        }

        private ListOffsetsResult list(Map<TopicPartition, OffsetSpec> partitions) {
            listed++;
            Map<TopicPartition, KafkaFuture<ListOffsetsResultInfo>> futures = new HashMap<>();
            partitions.keySet().forEach(tp -> futures.put(tp, next(listings).get()));
            return new ListOffsetsResult(futures);
        }

        private static <T> T next(Deque<T> script) {
            return script.size() > 1 ? script.poll() : script.peek();
        }
    }

    private static Supplier<KafkaFuture<TopicDescription>> described(Node leader) {
        return () -> KafkaFuture.completedFuture(new TopicDescription(
                "t",
                false,
                List.of(new TopicPartitionInfo(0, leader, leader == null ? List.of() : List.of(leader), List.of()))));
    }

    private static <T> Supplier<KafkaFuture<T>> failing(RuntimeException error) {
        return () -> {
            KafkaFutureImpl<T> f = new KafkaFutureImpl<>();
            f.completeExceptionally(error);
            return f;
        };
    }

    private static Supplier<KafkaFuture<ListOffsetsResultInfo>> served() {
        return () -> KafkaFuture.completedFuture(new ListOffsetsResultInfo(0, -1, Optional.empty()));
    }

    @Test
    void returnsOnceEveryPartitionHasALeaderThatAnswersForIt() {
        ScriptedAdmin cluster = new ScriptedAdmin();
        cluster.describes.add(failing(new UnknownTopicOrPartitionException("not yet")));
        cluster.describes.add(described(null));
        cluster.describes.add(described(BROKER));
        cluster.listings.add(failing(new NotLeaderOrFollowerException("not yet")));
        cluster.listings.add(served());
        TopicLeaders.await(cluster.admin(), List.of("t"), TIMEOUT);
        assertThat(cluster.listed).isEqualTo(2); // a leader in the metadata is not enough
    }

    @Test
    void aPartitionWithoutALeaderAfterTheTimeOutFailsNamingTheTopics() {
        ScriptedAdmin cluster = new ScriptedAdmin();
        cluster.describes.add(described(null));
        assertThatThrownBy(() -> TopicLeaders.await(cluster.admin(), List.of("t"), Duration.ofMillis(200)))
                .isInstanceOf(ClusterException.class)
                .hasMessage("topics [t] have partitions without a leader after 200 ms");
    }

    @Test
    void anErrorThatRetryingCannotCureFailsAtOnceWithTheBrokersError() {
        ScriptedAdmin cluster = new ScriptedAdmin();
        cluster.describes.add(failing(new TopicAuthorizationException("denied")));
        assertThatThrownBy(() -> TopicLeaders.await(cluster.admin(), List.of("t"), TIMEOUT))
                .isInstanceOf(ClusterException.class)
                .hasMessageContaining("cannot describe topics [t]")
                .hasCauseInstanceOf(TopicAuthorizationException.class);
    }
}
