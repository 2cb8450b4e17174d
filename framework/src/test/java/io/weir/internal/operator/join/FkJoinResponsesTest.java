package io.weir.internal.operator.join;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.internal.operator.FakeContext;
import io.weir.internal.operator.MapKeyValueStore;
import io.weir.internal.operator.table.Change;
import io.weir.internal.operator.table.TableChildren;
import io.weir.internal.operator.table.TableLookup;
import io.weir.internal.operator.table.TableProcessors;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.Record;
import io.weir.serde.Serdes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The result side of a foreign-key join given responses in an order the test driver never
 * produces: responses from two right tasks (two foreign keys) reach the left row's task in any
 * order, so an answer to a row's earlier value may come after the answer to its current one.
 * Orders are {@code "customer:amount"}; the result has no table steps after it, so its updates are
 * forwarded as plain values.
 */
class FkJoinResponsesTest {

    private final Map<String, String> left = new HashMap<>();
    private final Map<String, String> result = new HashMap<>();
    private final List<Record<String, Object>> forwarded = new ArrayList<>();
    private final Processor<String, Object, String, Change<String>> join = processor();
    private final ValueHash<String> hash = new ValueHash<>(Serdes.strings(), "fk-subscription-repartition");

    @Test
    void anAnswerToARowsEarlierValueIsDroppedWhateverItsOrder() {
        leftChanges("o1", "c1:30");
        leftChanges("o1", "c2:30");
        respond("o1", "c2:30", "Bob");
        respond("o1", "c1:30", "Ada"); // late: o1 has left c1

        assertThat(result).containsExactly(Map.entry("o1", "c2:30/Bob"));
        assertThat(forwarded).extracting(Record::value).containsExactly("c2:30/Bob");
    }

    @Test
    void anAnswerToTheCurrentValueIsJoinedWithTheCurrentValue() {
        leftChanges("o1", "c1:30");
        respond("o1", "c1:30", "Ada");
        leftChanges("o1", "c1:40");
        respond("o1", "c1:30", "Ada L."); // a right change sent before the new subscription arrived: dropped
        respond("o1", "c1:40", "Ada L.");

        assertThat(result).containsExactly(Map.entry("o1", "c1:40/Ada L."));
        assertThat(forwarded).extracting(Record::value).containsExactly("c1:30/Ada", "c1:40/Ada L.");
    }

    @Test
    void anAnswerForADeletedRowIsDropped() {
        leftChanges("o1", "c1:30");
        leftChanges("o1", null);
        respond("o1", "c1:30", "Ada");

        assertThat(result).isEmpty();
        assertThat(forwarded).isEmpty();
    }

    private void leftChanges(String key, String value) {
        String old = value == null ? left.remove(key) : left.put(key, value);
        join.process(new Record<>(key, new Change<>(old, value), 0));
    }

    private void respond(String key, String leftValue, String rightValue) {
        join.process(new Record<>(key, new FkResponse<>(hash.of(leftValue), rightValue), 0));
    }

    private Processor<String, Object, String, Change<String>> processor() {
        ForeignKeyJoinProcessors.Spec<String, String, String> spec = new ForeignKeyJoinProcessors.Spec<>(
                (k, v) -> v.split(":")[0], Serdes.strings(), Serdes.strings(), "fk-subscription-repartition");
        TableLookup<String, String> lookup = new TableLookup<>() {
            @Override
            public List<String> stores() {
                return List.of("left");
            }

            @Override
            public Reader<String, String> open(ProcessorContext<?, ?> context) {
                return left::get;
            }
        };
        Processor<String, Object, String, Change<String>> p =
                ForeignKeyJoinProcessors.<String, String, String, String, String>join(
                                spec,
                                lookup,
                                (o, c) -> o + "/" + c,
                                TableProcessors.JoinKind.INNER,
                                "result",
                                new TableChildren())
                        .get();
        p.init(new FakeContext<>() {
            @Override
            @SuppressWarnings("unchecked")
            public void forward(Record<? extends String, ? extends Change<String>> record) {
                forwarded.add((Record<String, Object>) (Record<?, ?>) record);
            }

            @Override
            @SuppressWarnings("unchecked")
            public <S> S getStateStore(String name) {
                return (S) new MapKeyValueStore<String, String>("result", result);
            }
        });
        return p;
    }
}
