package io.weir.internal.operator.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.internal.operator.FakeContext;
import io.weir.internal.operator.MapKeyValueStore;
import io.weir.internal.operator.table.Change;
import io.weir.internal.operator.table.TableChildren;
import io.weir.processor.Processor;
import io.weir.processor.Record;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AggregateProcessorTest {

    /** A store keyed by content for byte[] keys, and a context that collects forwarded records. */
    private static final class Harness<K, VA> extends FakeContext<K, VA>
            implements io.weir.internal.task.InternalContext {
        final List<Record<K, VA>> forwarded = new ArrayList<>();
        final Map<String, VA> data = new HashMap<>();

        @Override
        public void forward(Record<? extends K, ? extends VA> record) {
            @SuppressWarnings("unchecked")
            Record<K, VA> r = (Record<K, VA>) record;
            forwarded.add(r);
        }

        @Override
        public void forward(Record<? extends K, ? extends VA> record, String childName) {
            forward(record);
        }

        @Override
        public void reportLate(String operator, long windowStart, long windowEnd) {
            throw new AssertionError("not used");
        }

        @Override
        public List<String> childNames() {
            return List.of("any");
        }

        @Override
        public boolean behind() {
            return false;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <S> S getStateStore(String name) {
            return (S) new MapKeyValueStore<K, VA>(name, data);
        }
    }

    /** Every child of the harness takes changes (it forwards to all children at once). */
    private static TableChildren changes() {
        TableChildren c = new TableChildren();
        c.addChangeChild("any");
        return c;
    }

    @Test
    void aHotKeyIsForwardedOncePerCommitWithItsLatestValueEvenForByteArrayKeys() {
        Harness<byte[], Change<Long>> h = new Harness<>();
        Processor<byte[], String, byte[], Change<Long>> p = AggregateProcessor.<byte[], String, Long>supplier(
                        "counts", AggregateProcessor.countStep(), changes())
                .get();
        p.init(h);
        for (int i = 0; i < 5; i++) {
            p.process(new Record<>("hot".getBytes(), "x", i)); // a fresh array each time, as from a consumer
        }
        p.process(new Record<>("cold".getBytes(), "x", 9));
        ((AggregateProcessor<?, ?, ?>) p).beforeCommit();
        assertThat(h.forwarded)
                .extracting(Record::value)
                .containsExactly(new Change<>(null, 5L), new Change<>(null, 1L));
        assertThat(h.forwarded.get(0).timestamp()).isEqualTo(4);
        ((AggregateProcessor<?, ?, ?>) p).beforeCommit();
        assertThat(h.forwarded).hasSize(2);
    }

    @Test
    void anUpdateCarriesTheValueTheKeyHadAtThePreviousCommitAndADeletionATombstone() {
        Harness<String, Change<String>> h = new Harness<>();
        Processor<String, String, String, Change<String>> p = AggregateProcessor.<String, String, String>supplier(
                        "rows", AggregateProcessor.latestStep(), changes())
                .get();
        p.init(h);
        p.process(new Record<>("k", "a", 1));
        ((AggregateProcessor<?, ?, ?>) p).beforeCommit();
        p.process(new Record<>("k", "b", 2));
        p.process(new Record<>("k", "c", 3));
        ((AggregateProcessor<?, ?, ?>) p).beforeCommit();
        p.process(new Record<>("k", null, 4));
        p.process(new Record<>("gone", "x", 5));
        p.process(new Record<>("gone", null, 6));
        ((AggregateProcessor<?, ?, ?>) p).beforeCommit();

        assertThat(h.forwarded)
                .extracting(Record::value)
                .containsExactly(new Change<>(null, "a"), new Change<>("a", "c"), new Change<>("c", null));
        assertThat(h.data).isEmpty();
    }

    @Test
    void anAbortDropsTheHeldBackUpdates() {
        Harness<String, Change<Long>> h = new Harness<>();
        Processor<String, String, String, Change<Long>> p = AggregateProcessor.<String, String, Long>supplier(
                        "counts", AggregateProcessor.countStep(), changes())
                .get();
        p.init(h);
        p.process(new Record<>("k", "x", 1));
        ((AggregateProcessor<?, ?, ?>) p).afterAbort();
        ((AggregateProcessor<?, ?, ?>) p).beforeCommit();
        assertThat(h.forwarded).isEmpty();
    }
}
