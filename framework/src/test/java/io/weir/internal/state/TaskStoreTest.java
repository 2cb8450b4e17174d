package io.weir.internal.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.internal.topology.StoreSpec;
import io.weir.serde.Serdes;
import io.weir.state.memory.MemoryStore;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class TaskStoreTest {

    private final ChangelogHarness harness = new ChangelogHarness();
    private final MockProducer<byte[], byte[]> producer = harness.producer;
    private final MemoryStore committed = MemoryStore.create("counts");
    private final TaskStore store = new TaskStore(
            new StoreSpec("counts", Serdes.strings(), Serdes.longs(), false, true, null),
            committed,
            new TopicPartition("app-counts-changelog", 2),
            1 << 20,
            System::currentTimeMillis);

    @SuppressWarnings("unchecked")
    private TypedKeyValueStore<String, Long> typed() {
        return (TypedKeyValueStore<String, Long>) store.typed();
    }

    /** Runs the commit protocol over just this store. */
    private void commit() {
        harness.commit(store, new TopicPartition("in", 2), 1);
    }

    @Test
    void writesAreReadYourOwnButReachTheCommittedStoreOnlyAfterTheCommit() {
        typed().put("a", 1L);
        typed().put("a", 2L);
        typed().put("b", 5L);
        assertThat(typed().get("a")).isEqualTo(2L);
        assertThat(committed.get("a".getBytes())).isNull();

        commit();

        assertThat(committed.get("a".getBytes())).isEqualTo(Serdes.longs().serialize("t", 2L));
        // Repeated updates of a key folded into one changelog record each, to the task's partition.
        assertThat(producer.history()).hasSize(2);
        assertThat(producer.history()).allMatch(r -> r.topic().equals("app-counts-changelog") && r.partition() == 2);
        assertThat(committed.changelogOffset()).isPresent();
    }

    @Test
    void anAbortDropsThePendingWrites() {
        typed().put("a", 1L);
        commit();
        typed().put("a", 7L);
        typed().delete("a");
        store.abort();
        assertThat(typed().get("a")).isEqualTo(1L);
        assertThat(store.pendingBytes()).isZero();
    }

    @Test
    void deletesAreLoggedAsTombstones() {
        typed().put("a", 1L);
        commit();
        typed().delete("a");
        commit();
        assertThat(producer.history().get(producer.history().size() - 1).value())
                .isNull();
        assertThat(committed.get("a".getBytes())).isNull();
    }
}
