package io.weir.internal.bounded;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** What a bounded run reads from the cluster, against an admin client that answers offsets only. */
class BoundedRunPlanTest {

    /**
     * The writers' last transaction is committed, but its commit markers are not written yet (the
     * broker writes them after {@code commitTransaction} returned): the last stable offset still
     * stops before that transaction's records, the high watermark does not.
     */
    @Test
    void aRepartitionTopicEndsAtItsHighWatermarkNotAtALastStableOffsetThatLagsTheLastCommit() {
        Map<IsolationLevel, Long> endByIsolation =
                Map.of(IsolationLevel.READ_COMMITTED, 337L, IsolationLevel.READ_UNCOMMITTED, 605L);
        Admin admin = (Admin) Proxy.newProxyInstance(
                Admin.class.getClassLoader(), new Class<?>[] {Admin.class}, (proxy, method, args) -> {
                    if (!method.getName().equals("listOffsets") || args.length != 2) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    @SuppressWarnings("unchecked")
                    Map<TopicPartition, OffsetSpec> request = (Map<TopicPartition, OffsetSpec>) args[0];
                    long end = endByIsolation.get(((ListOffsetsOptions) args[1]).isolationLevel());
                    Map<TopicPartition, KafkaFuture<ListOffsetsResultInfo>> answers = new HashMap<>();
                    request.keySet()
                            .forEach(tp -> answers.put(
                                    tp,
                                    KafkaFuture.completedFuture(
                                            new ListOffsetsResultInfo(end, -1, java.util.Optional.empty()))));
                    return new ListOffsetsResult(answers);
                });

        assertThat(BoundedRunPlan.repartitionEnds(admin, "app-rep", 2))
                .isEqualTo(Map.of(new TopicPartition("app-rep", 0), 605L, new TopicPartition("app-rep", 1), 605L));
    }
}
