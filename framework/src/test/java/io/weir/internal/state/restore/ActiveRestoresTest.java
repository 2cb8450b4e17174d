package io.weir.internal.state.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.processor.TaskId;
import io.weir.state.changelog.RestoreListener;
import io.weir.state.changelog.RestoreSession;
import io.weir.state.memory.MemoryStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class ActiveRestoresTest {

    private static final TopicPartition A = new TopicPartition("app-a-changelog", 0);
    private static final TopicPartition B = new TopicPartition("app-b-changelog", 0);

    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("none");
    private int sessions;
    private final ActiveRestores restores = new ActiveRestores(
            () -> {
                sessions++;
                return new RestoreSession(consumer, Duration.ofMillis(1), Duration.ZERO, consumer::endOffsets);
            },
            consumer::beginningOffsets);

    private RestoreTicket restore(int partition, TopicPartition changelog) {
        RestoreTicket ticket = new RestoreTicket(new TaskId(0, partition), Set.of(changelog));
        restores.add(ticket, Map.of(changelog, MemoryStore.create(changelog.topic())), tp -> RestoreListener.NONE);
        return ticket;
    }

    private void onNextPoll(TopicPartition tp, long from, long to) {
        consumer.schedulePollTask(() -> {
            for (long i = from; i < to; i++) {
                byte[] k = ("k" + i).getBytes(StandardCharsets.UTF_8);
                consumer.addRecord(new ConsumerRecord<>(tp.topic(), tp.partition(), i, k, k));
            }
        });
    }

    @Test
    void aTaskWhoseChangelogsAreEmptyIsRestoredAtOnce() {
        consumer.updateBeginningOffsets(Map.of(A, 0L));
        consumer.updateEndOffsets(Map.of(A, 0L));

        RestoreTicket ticket = restore(0, A);

        assertThat(ticket.done()).isTrue();
        assertThat(restores.underWay()).isFalse();
    }

    @Test
    void eachTicketIsDoneOnceItsStoresCaughtUp() {
        consumer.updateBeginningOffsets(Map.of(A, 0L, B, 0L));
        consumer.updateEndOffsets(Map.of(A, 2L, B, 4L));
        RestoreTicket a = restore(0, A);
        RestoreTicket b = restore(1, B);
        onNextPoll(A, 0, 2);
        onNextPoll(B, 0, 2);

        restores.step(() -> false);

        assertThat(a.done()).isTrue();
        assertThat(b.done()).isFalse();
        assertThat(restores.underWay()).isTrue();
        assertThat(sessions).isEqualTo(1); // one session for every restore
    }

    @Test
    void aCancelledRestoreLeavesTheSessionAndIsNeverDone() {
        consumer.updateBeginningOffsets(Map.of(A, 0L));
        consumer.updateEndOffsets(Map.of(A, 2L));
        RestoreTicket ticket = restore(0, A);

        restores.cancel(ticket);

        assertThat(restores.underWay()).isFalse();
        assertThat(consumer.assignment()).isEmpty();
        assertThat(ticket.done()).isFalse();
    }

    @Test
    void aFailureFailsEveryRestoreUnderWayAndTheNextRestoreGetsANewSession() {
        consumer.updateBeginningOffsets(Map.of(A, 0L, B, 0L));
        consumer.updateEndOffsets(Map.of(A, 2L, B, 2L));
        RestoreTicket a = restore(0, A);
        RestoreTicket b = restore(1, B);
        IllegalStateException failure = new IllegalStateException("broker gone");

        assertThat(restores.fail(failure)).isTrue();

        assertThatThrownBy(a::done).isSameAs(failure);
        assertThatThrownBy(b::done).isSameAs(failure);
        assertThat(restores.underWay()).isFalse();
        assertThat(restores.fail(failure)).isFalse(); // nothing under way: the failure was someone else's
        restore(2, A);
        assertThat(sessions).isEqualTo(2);
    }

    @Test
    void closingFailsTheRestoresUnderWay() {
        consumer.updateBeginningOffsets(Map.of(A, 0L));
        consumer.updateEndOffsets(Map.of(A, 2L));
        RestoreTicket ticket = restore(0, A);

        restores.close();

        assertThatThrownBy(ticket::done)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the instance is shutting down");
    }
}
