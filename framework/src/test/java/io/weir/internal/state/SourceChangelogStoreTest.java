package io.weir.internal.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.internal.topology.StoreSpec;
import io.weir.serde.Serdes;
import io.weir.state.memory.MemoryStore;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * A table's store whose changelog is its compacted source topic: the commit writes nothing to
 * Kafka for it, and its recorded changelog offset is the committed input offset of its partition.
 */
class SourceChangelogStoreTest {

    private static final TopicPartition CUSTOMERS = new TopicPartition("customers", 2);

    private final ChangelogHarness harness = new ChangelogHarness();
    private final MockProducer<byte[], byte[]> producer = harness.producer;
    private final MemoryStore committed = MemoryStore.create("customers");
    private final StoreSpec spec = new StoreSpec("customers", Serdes.strings(), Serdes.strings(), false, true, null)
            .withSourceTopic("customers");
    private final TaskStore store = new TaskStore(spec, committed, CUSTOMERS, 1 << 20, System::currentTimeMillis);

    @SuppressWarnings("unchecked")
    private TypedKeyValueStore<String, String> typed() {
        return (TypedKeyValueStore<String, String>) store.typed();
    }

    private void commit(long nextInputOffset) {
        harness.commit(store, CUSTOMERS, nextInputOffset);
    }

    @Test
    void theChangelogIsTheSourceTopicAndNothingIsWrittenToIt() {
        assertThat(spec.changelogTopic("app")).isEqualTo("customers");
        assertThat(spec.changelogIsSource()).isTrue();
        typed().put("c1", "Ada");
        commit(7);

        assertThat(producer.history()).isEmpty();
        assertThat(committed.get("c1".getBytes())).isEqualTo("Ada".getBytes());
        assertThat(committed.changelogOffset()).as("the committed input offset").hasValue(7);
    }

    @Test
    void anAbortedCommitLeavesTheStoreAtTheLastCommittedInputOffset() {
        typed().put("c1", "Ada");
        commit(3);
        typed().put("c1", "Bob");
        store.abort(); // the transaction of offsets 3..5 aborted
        assertThat(committed.get("c1".getBytes())).isEqualTo("Ada".getBytes());
        assertThat(committed.changelogOffset()).hasValue(3);
    }

    @Test
    void aStoreOfItsOwnChangelogIsUnchanged() {
        StoreSpec own = spec.withSourceTopic(null);
        assertThat(own.changelogTopic("app")).isEqualTo("app-customers-changelog");
        assertThat(own.withLogged(false).withLogged(true).changelogIsSource()).isFalse();
    }
}
