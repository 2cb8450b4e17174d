package io.weir.cli;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/** An application's consumer group, which does not exist before its first start (or after it expired). */
final class Groups {

    private Groups() {
    }

    /** The group's description; empty if the cluster has no such group. */
    static Optional<ConsumerGroupDescription> describe(Admin admin, String group) {
        return orNotFound(admin.describeConsumerGroups(List.of(group)).all(), "describe the consumer group " + group)
                .map(m -> m.get(group));
    }

    /** The group's committed offsets; empty if the cluster has no such group. */
    static Map<TopicPartition, OffsetAndMetadata> committed(Admin admin, String group) {
        return orNotFound(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata(),
                "read the committed offsets of " + group).orElse(Map.of());
    }

    private static <T> Optional<T> orNotFound(KafkaFuture<T> future, String what) {
        try {
            return Optional.of(future.get(Futures.TIMEOUT_S, TimeUnit.SECONDS));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return Optional.empty();
            }
            throw new CommandFailedException("cannot " + what + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new CommandFailedException("cannot " + what + ": no answer from the cluster within "
                    + Futures.TIMEOUT_S + " s (check --bootstrap-servers)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandFailedException("interrupted while trying to " + what, e);
        }
    }
}
