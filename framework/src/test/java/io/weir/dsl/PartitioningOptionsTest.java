package io.weir.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.serde.Serdes;
import org.junit.jupiter.api.Test;

/** The options values {@link Repartitioned} and {@link Produced}: defaults, and misuse named at the call. */
class PartitioningOptionsTest {

    @Test
    void repartitionedDefaultsDeriveNameAndCountAndKeepTheStreamsSerdes() {
        Repartitioned<String, String> d = Repartitioned.defaults();
        assertThat(d.name()).isNull();
        assertThat(d.partitions()).isZero();
        assertThat(d.partitioner()).isNull();
        assertThat(d.keySerde()).isNull();

        StreamPartitioner<String, String> first = (t, k, v, n) -> 0;
        Repartitioned<String, String> all = Repartitioned.with(Serdes.strings(), Serdes.strings())
                .withName("by-user")
                .withPartitions(12)
                .withPartitioner(first);
        assertThat(all).isEqualTo(new Repartitioned<>("by-user", 12, first, Serdes.strings(), Serdes.strings()));
    }

    @Test
    void repartitionedRefusesWhatCannotNameATopicOrCountItsPartitions() {
        assertThatThrownBy(() -> Repartitioned.named("by user"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'by user'");
        assertThatThrownBy(() -> Repartitioned.defaults().withPartitions(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1 partition, was 0");
        assertThatThrownBy(() -> new Repartitioned<>(null, -1, null, null, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Repartitioned<String, String>(null, 0, null, Serdes.strings(), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("both serdes or neither");
    }

    @Test
    void producedTakesBothSerdesOrNeither() {
        StreamPartitioner<Object, Object> last = (t, k, v, n) -> n - 1;
        Produced<String, String> p = Produced.<String, String>partitionedBy(last);
        assertThat(p.keySerde()).isNull();
        assertThat(p.partitioner()).isSameAs(last);
        assertThat(p.withSerdes(Serdes.strings(), Serdes.strings()).partitioner())
                .isSameAs(last);
        assertThat(Produced.with(Serdes.strings(), Serdes.longs()).partitioner())
                .isNull();
        assertThatThrownBy(() -> new Produced<String, String>(Serdes.strings(), null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("both serdes or neither");
    }
}
